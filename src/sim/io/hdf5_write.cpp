// Orrery's HDF5 files: GADGET-4's layout written through libhdf5 into a memory image, which the
// caller writes through the safe writer (a temporary file renamed over the target).
#include <hdf5.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "hdf5_id.h"
#include "hdf5_snapshot.h"
#include "orrery/param_table.h"
#include "orrery/version.h"

namespace orrery::hdf5 {

using gadget::k_types;

namespace {

void put_attr(hid_t loc, const char* name, hid_t file_type, hid_t mem_type, const void* data,
              hsize_t n) {
  Id space(n == 1 ? H5Screate(H5S_SCALAR) : H5Screate_simple(1, &n, nullptr), H5Sclose);
  Id a(H5Acreate2(loc, name, file_type, space, H5P_DEFAULT, H5P_DEFAULT), H5Aclose);
  if (!a.ok() || H5Awrite(a, mem_type, data) < 0)
    throw SnapshotError(std::string("HDF5: cannot write the attribute ") + name);
}
void put_double(hid_t loc, const char* name, double v) {
  put_attr(loc, name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &v, 1);
}
void put_int(hid_t loc, const char* name, long long v) {
  const std::int64_t x = v;
  put_attr(loc, name, H5T_STD_I64LE, H5T_NATIVE_INT64, &x, 1);
}
void put_text(hid_t loc, const char* name, const std::string& v) {
  Id type(H5Tcopy(H5T_C_S1), H5Tclose);
  H5Tset_size(type, std::max<std::size_t>(v.size(), 1));
  std::string padded = v.empty() ? std::string(1, '\0') : v;
  put_attr(loc, name, type, type, padded.data(), 1);
}
// Writes the dataset and gives it back open (the caller closes it).
template <class T>
hid_t put_data(hid_t loc, const char* name, hid_t file_type, hid_t mem_type,
               const std::vector<T>& v, int cols) {
  hsize_t dims[2] = {v.size() / static_cast<std::size_t>(cols), static_cast<hsize_t>(cols)};
  Id space(H5Screate_simple(cols == 1 ? 1 : 2, dims, nullptr), H5Sclose);
  const hid_t d = H5Dcreate2(loc, name, file_type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  if (d < 0 || H5Dwrite(d, mem_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, v.data()) < 0) {
    if (d >= 0) H5Dclose(d);
    throw SnapshotError(std::string("HDF5: cannot write the dataset ") + name);
  }
  return d;
}

// What the engine's numbers are multiplied by to be written: lengths (positions, radii), masses
// and velocities into the file's units (the run's own, or GADGET's for a run with a physical
// scale); `plain` where all three are 1.
struct Scale {
  double length = 1, mass = 1, vel = 1;
  bool plain() const { return length == 1 && mass == 1 && vel == 1; }
};
// A factor within a few roundings of 1 is 1: kpc/h times h is kpc again, not a value off by one
// in its last digit.
double snapped(double k) { return std::fabs(k - 1.0) < 1e-14 ? 1.0 : k; }

// A body's columns (position, velocity, mass, radius) appended in its own precision.
template <class V, class R>
void append_body(const V& p, const V& u, const Scale& k, std::vector<R>& x, std::vector<R>& v,
                 std::vector<R>& m, std::vector<R>& r) {
  if (k.plain()) {
    x.insert(x.end(), {p.x, p.y, p.z});
    v.insert(v.end(), {u.x, u.y, u.z});
    m.push_back(p.w);
    r.push_back(u.w);
    return;
  }
  const auto c = [](double a, double b) { return static_cast<R>(a * b); };
  x.insert(x.end(), {c(p.x, k.length), c(p.y, k.length), c(p.z, k.length)});
  v.insert(v.end(), {c(u.x, k.vel), c(u.y, k.vel), c(u.z, k.vel)});
  m.push_back(c(p.w, k.mass));
  r.push_back(c(u.w, k.length));
}

// GADGET-4's description of a dataset's dimensions (pynbody reads them): its powers of the scale
// factor, h, length, mass and velocity, and one unit of it in cgs.
void put_dimensions(hid_t d, double a, double h, double length, double mass, double velocity,
                    double to_cgs) {
  put_double(d, "a_scaling", a), put_double(d, "h_scaling", h);
  put_double(d, "length_scaling", length), put_double(d, "mass_scaling", mass);
  put_double(d, "velocity_scaling", velocity), put_double(d, "to_cgs", to_cgs);
}

// The units written: GADGET's (kpc, 1e10 Msun, km/s; / h in a cosmological run) for a run with a
// physical scale, as every GADGET reader (yt first) assumes them; else the run's own.
UnitSystem written_units(const UnitSystem& run) {
  return run.physical() ? rebased(run, gadget_units(run.cosmology)) : run;
}

// The extent a reader's domain needs: the walls where there are, else twice the farthest body's
// distance from the origin on any axis (yt needs a BoxSize to draw a non-periodic run).
double box_size(const Snapshot& s, double length) {
  if (s.run.params.collisions.box > 0) return s.run.params.collisions.box * length;
  double far = 0;
  for (const Vec4& p : s.bodies.pos)
    far = std::max({far, std::fabs(double(p.x)), std::fabs(double(p.y)), std::fabs(double(p.z))});
  return 2.0 * far * length;
}

}  // namespace

std::vector<std::uint8_t> encode(const Snapshot& s) {
  quiet();
  const int n = s.bodies.size();
  const bool typed = static_cast<int>(s.types.size()) == n;
  const bool with_ids = static_cast<int>(s.ids.size()) == n;
  // A double-precision run keeps its state in double (GADGET-4 writes doubles the same way).
  const bool doubles = s.run.params.precision == Precision::double_ &&
                       static_cast<int>(s.bodies.pos64.size()) == n &&
                       static_cast<int>(s.bodies.vel64.size()) == n;
  Id fapl(H5Pcreate(H5P_FILE_ACCESS), H5Pclose);
  H5Pset_fapl_core(fapl, 1 << 20, 0);  // in memory only: the image is written by the caller
  // The adaptive step's memory (RunState::last_acc): each type's rows beside its bodies.
  const bool memory =
      s.run.params.adaptive &&
      static_cast<int>(doubles ? s.run.last_acc64.size() : s.run.last_acc.size()) == n &&
      (doubles || s.run.params.precision != Precision::double_);
  Id file(H5Fcreate("orrery-image.hdf5", H5F_ACC_TRUNC, H5P_DEFAULT, fapl), H5Fclose);
  if (!file.ok()) throw SnapshotError("HDF5: cannot make a file image");
  std::int32_t count[k_types] = {};
  for (int i = 0; i < n; ++i) ++count[typed ? s.types[static_cast<std::size_t>(i)] % k_types : 1];
  const UnitSystem& run_units = s.run.units;
  const UnitSystem out_units = written_units(run_units);
  const Cosmology& cosmo = run_units.cosmology;
  const UnitFactors f = factors(run_units, out_units);
  const Scale scale{snapped(f.length), snapped(f.mass),
                    snapped(f.velocity * run_units.engine_scale())};
  // GADGET writes a cosmological run's units in cm/h and g/h.
  const double per_h = cosmo.cosmological && cosmo.hubble > 0 ? cosmo.hubble : 1.0;
  const bool physical = out_units.physical();
  {
    Id h(H5Gcreate2(file, "Header", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Gclose);
    const std::uint32_t zero6[k_types] = {};
    std::uint32_t total[k_types];
    for (int t = 0; t < k_types; ++t) total[t] = static_cast<std::uint32_t>(count[t]);
    const double mass_table[k_types] = {};
    put_attr(h, "NumPart_ThisFile", H5T_STD_I32LE, H5T_NATIVE_INT32, count, k_types);
    put_attr(h, "NumPart_Total", H5T_STD_U32LE, H5T_NATIVE_UINT32, total, k_types);
    put_attr(h, "NumPart_Total_HighWord", H5T_STD_U32LE, H5T_NATIVE_UINT32, zero6, k_types);
    put_attr(h, "MassTable", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, mass_table, k_types);
    // A comoving run's Time is its scale factor; else the run's time in the file's time unit.
    put_double(h, "Time",
               cosmo.comoving ? cosmo.scale_factor
                              : s.run.time / run_units.engine_scale() * snapped(f.time));
    put_double(h, "Redshift",
               cosmo.comoving && cosmo.scale_factor > 0 ? 1.0 / cosmo.scale_factor - 1.0 : 0.0);
    put_double(h, "BoxSize", box_size(s, scale.length));
    const std::int32_t one = 1;
    put_attr(h, "NumFilesPerSnapshot", H5T_STD_I32LE, H5T_NATIVE_INT32, &one, 1);
    put_double(h, "Omega0", cosmo.omega0);
    put_double(h, "OmegaLambda", cosmo.omega_lambda);
    put_double(h, "HubbleParam", cosmo.hubble);
  }
  {  // GADGET-4's Parameters, and the Units group others read
    Id p(H5Gcreate2(file, "Parameters", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Gclose);
    put_int(p, "ComovingIntegrationOn", cosmo.comoving ? 1 : 0);
    if (cosmo.cosmological) {  // pynbody takes a HubbleParam here for a cosmological run
      put_double(p, "HubbleParam", cosmo.hubble);
      put_double(p, "Omega0", cosmo.omega0);
      put_double(p, "OmegaLambda", cosmo.omega_lambda);
    }
    if (physical && !cosmo.comoving)  // pynbody's time (else from a cosmology it assumes)
      put_double(p, "Time_GYR",
                 s.run.time / run_units.engine_scale() * run_units.time_s() / 3.15576e16);
    if (physical) {
      Id u(H5Gcreate2(file, "Units", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Gclose);
      for (hid_t g : {hid_t(p), hid_t(u)}) {
        put_double(g, "UnitLength_in_cm", out_units.length_cm * per_h);
        put_double(g, "UnitMass_in_g", out_units.mass_g * per_h);
        put_double(g, "UnitVelocity_in_cm_per_s", out_units.velocity_cm_s);
        put_double(g, "UnitTime_in_s", out_units.time_s() * per_h);
        put_double(g, "UnitEnergy_in_cgs",
                   out_units.mass_g * per_h * out_units.velocity_cm_s * out_units.velocity_cm_s);
      }
    }
  }
  for (int t = 0; t < k_types; ++t) {
    if (count[t] == 0) continue;
    const std::string name = "PartType" + std::to_string(t);
    Id g(H5Gcreate2(file, name.c_str(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Gclose);
    std::vector<float> x, v, m, r;
    std::vector<double> xd, vd, md, rd;  // a double run's own values
    std::vector<std::uint64_t> ids;
    std::vector<float> acc;
    std::vector<double> acc64;
    for (int i = 0; i < n; ++i) {
      const auto k = static_cast<std::size_t>(i);
      if ((typed ? s.types[k] % k_types : 1) != t) continue;
      if (memory && doubles) {
        const Vec4d& a = s.run.last_acc64[k];
        acc64.insert(acc64.end(), {a.x, a.y, a.z, a.w});
      } else if (memory) {
        const Vec4& a = s.run.last_acc[k];
        acc.insert(acc.end(), {a.x, a.y, a.z, a.w});
      }
      if (doubles)
        append_body(s.bodies.pos64[k], s.bodies.vel64[k], scale, xd, vd, md, rd);
      else
        append_body(s.bodies.pos[k], s.bodies.vel[k], scale, x, v, m, r);
      ids.push_back(with_ids ? s.ids[k] : static_cast<std::uint64_t>(i));
    }
    const auto put_bodies = [&](hid_t file_type, hid_t mem_type, const auto& px, const auto& pv,
                                const auto& pm, const auto& pr) {
      const hid_t c = put_data(g, "Coordinates", file_type, mem_type, px, 3);
      const hid_t v = put_data(g, "Velocities", file_type, mem_type, pv, 3);
      const hid_t m = put_data(g, "Masses", file_type, mem_type, pm, 1);
      const hid_t r = put_data(g, "Radii", file_type, mem_type, pr, 1);
      if (physical) {
        // Powers of a and h only in a cosmological run (pynbody applies them).
        const double a1 = cosmo.cosmological ? 1 : 0, h1 = cosmo.cosmological ? -1 : 0;
        put_dimensions(c, a1, h1, 1, 0, 0, out_units.length_cm * per_h);
        put_dimensions(v, a1 / 2, 0, 0, 0, 1, out_units.velocity_cm_s);
        put_dimensions(m, 0, h1, 0, 1, 0, out_units.mass_g * per_h);
        put_dimensions(r, a1, h1, 1, 0, 0, out_units.length_cm * per_h);
      }
      for (hid_t d : {c, v, m, r}) H5Dclose(d);
    };
    if (doubles)
      put_bodies(H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, xd, vd, md, rd);
    else
      put_bodies(H5T_IEEE_F32LE, H5T_NATIVE_FLOAT, x, v, m, r);
    H5Dclose(put_data(g, "ParticleIDs", H5T_STD_U64LE, H5T_NATIVE_UINT64, ids, 1));
    if (memory && doubles)
      H5Dclose(put_data(g, k_memory_dataset, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, acc64, 4));
    else if (memory)
      H5Dclose(put_data(g, k_memory_dataset, H5T_IEEE_F32LE, H5T_NATIVE_FLOAT, acc, 4));
  }
  {
    Id o(H5Gcreate2(file, "Orrery", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Gclose);
    const RunState& run = s.run;
    const SimParams& p = run.params;
    // G in the file's units; the run's own units, which its numbers are converted back to.
    put_double(o, "G", out_units.g);
    put_double(o, "unit_length_cm", run_units.length_cm);
    put_double(o, "unit_mass_g", run_units.mass_g);
    put_double(o, "unit_velocity_cm_s", run_units.velocity_cm_s);
    put_double(o, "unit_g", run_units.g);
    put_text(o, "version", version_description());  // the writer's
    put_text(o, "solver", run.solver);
    put_int(o, "block", run.block);
    put_text(o, "integrator", to_string(run.integrator));
    put_text(o, "precision", to_string(p.precision));
    put_double(o, "dt", p.dt);
    if (p.adaptive) {  // dt is then the largest step
      put_int(o, "adaptive", 1);
      put_double(o, "eta", p.eta);
      put_double(o, "next_dt", run.next_dt);
      if (memory) put_double(o, "last_eval_time", run.last_eval_time);
    }
    for (const ParamRow& row : param_rows())
      if (row.form != ParamForm::step) put_double(o, row.name, row.get(p));
    put_int(o, "gravity", p.gravity ? 1 : 0);
    put_text(o, "collisions", to_string(p.collisions.mode));
    put_double(o, "box", p.collisions.box);
    put_int(o, "time_reversed", run.time_reversed ? 1 : 0);
    put_int(o, "steps", run.steps);
    put_double(o, "time", run.time);
  }
  H5Fflush(file, H5F_SCOPE_GLOBAL);
  const ssize_t size = H5Fget_file_image(file, nullptr, 0);
  if (size <= 0) throw SnapshotError("HDF5: cannot read the file image back");
  std::vector<std::uint8_t> out(static_cast<std::size_t>(size));
  if (H5Fget_file_image(file, out.data(), out.size()) != size)
    throw SnapshotError("HDF5: cannot read the file image back");
  return out;
}

}  // namespace orrery::hdf5
