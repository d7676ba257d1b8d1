// orrery.RankRun: a run over MPI ranks from Python, each process of `mpirun -np K python3
// script.py` one rank: the engine's RankRun (orrery/distributed.h) with Simulation's settings
// keywords. Every method is collective: each rank calls them in the same order.
#include "py_ranks.h"

#include <pybind11/numpy.h>

#include <limits>
#include <memory>

#include "arrays.h"
#include "orrery/device.h"
#include "orrery/distributed.h"
#include "orrery/input.h"
#include "orrery/presets.h"
#include "py_simulation.h"
#include "values.h"

namespace py = pybind11;

namespace orrery::python {
namespace {

class PyRankRun {
 public:
  PyRankRun(long long n, const std::string& preset, std::uint64_t seed, int rebalance_every,
            const Keywords& k)
      : m_n(n) {
    Preset p{};
    try {
      p = parse_preset(preset);
    } catch (const std::invalid_argument& e) {
      throw InputError("preset=" + preset + ": " + e.what());
    }
    if (p != Preset::random && p != Preset::shell && p != Preset::plummer &&
        p != Preset::plummer_halo)
      throw InputError("preset=" + preset +
                       ": each rank draws its own part of random, shell, plummer or plummer-halo");
    Keywords keys = k;
    if (!keys.solver) keys.solver = device_present() ? "cuda-bh" : "cpu-bh";
    const Chosen c = choose(RunSettings{}, p, keys, n);
    if (c.run.solver != "cpu-bh" && c.run.solver != "cuda-bh")
      throw InputError("solver=" + c.run.solver +
                       ": RankRun steps cuda-bh or cpu-bh over the ranks");
    if (c.run.params.adaptive)
      throw InputError("dt='auto': the adaptive step is not built over ranks yet: give a fixed dt");
    if (c.run.params.collisions.mode != CollisionMode::off || c.run.params.collisions.box > 0.0f)
      throw InputError("collisions and walls are not built over ranks yet: gravity only");
    if (c.run.params.precision == Precision::double_)
      throw InputError("precision='double': a run over ranks is in float precision");
    Ranks& ranks = Ranks::world();
    const bool gpu = c.run.solver == "cuda-bh";
    if (gpu) DistributedBh::bind_gpus(ranks);
    RankBodies mine = draw_part(ranks, p, static_cast<int>(n), seed);
    apply_radius(mine.bodies, k);
    m_run = std::make_unique<RankRun>(ranks, std::move(mine), gpu, c.run.integrator, c.run.params,
                                      rebalance_every);
  }

  void step(long long k) {
    py::gil_scoped_release free;  // the ranks wait on each other, not on Python
    for (long long i = 0; i < k; ++i) m_run->step();
  }
  void save(const std::string& path) {
    py::gil_scoped_release free;
    m_run->save(path);
  }
  py::dict diagnostics() {
    const Diagnostics d = m_run->diagnostics();
    py::dict r;
    r["kinetic"] = d.kinetic;
    r["potential"] = d.potential;
    r["energy"] = d.total();
    r["mass"] = d.mass;
    r["momentum"] = py::make_tuple(d.momentum.x, d.momentum.y, d.momentum.z);
    r["angular_momentum"] =
        py::make_tuple(d.angular_momentum.x, d.angular_momentum.y, d.angular_momentum.z);
    r["steps"] = m_run->steps();
    r["time"] = m_run->simulation().time();
    return r;
  }
  py::array_t<float> positions() { return column3(m_run->bodies().bodies.pos); }
  py::array_t<float> velocities() { return column3(m_run->bodies().bodies.vel); }
  py::array_t<float> masses() { return column_w(m_run->bodies().bodies.pos); }
  py::array_t<std::uint64_t> ids() {
    const std::vector<std::uint64_t>& v = m_run->ids();
    py::array_t<std::uint64_t> a(static_cast<py::ssize_t>(v.size()));
    std::copy(v.begin(), v.end(), a.mutable_data());
    return a;
  }
  long long n() const { return m_n; }
  int rank() const { return Ranks::world().rank(); }
  int ranks() const { return Ranks::world().size(); }
  std::string config() { return m_run->solver().config(); }

 private:
  long long m_n;
  std::unique_ptr<RankRun> m_run;
};

}  // namespace

void bind_ranks(py::module_& m, Keywords (*keywords)(const py::kwargs&)) {
  py::class_<PyRankRun>(m, "RankRun",
                        R"(A run over the MPI ranks of `mpirun -np K python3 script.py`,
each process one rank: each rank draws its own part of the preset (random, shell, plummer or
plummer-halo), holds only the bodies of its range of Morton keys, and steps them with the forces
of a tree spread over the ranks (solver='cuda-bh', one GPU a rank, or 'cpu-bh'; cuda-bh where
there is a GPU); the bodies are decomposed again every rebalance_every steps by their measured
work. Settings as for Simulation (dt, theta, softening, integrator, ...); the adaptive step,
collisions and double precision are refused. Every method is collective: call each on every
rank in the same order. Without mpirun it is a run of one rank.)")
      .def(
          py::init([keywords](const py::object& n, const py::object& preset, const py::object& seed,
                              const py::object& rebalance_every, const py::kwargs& kw) {
            return std::make_unique<PyRankRun>(
                as_integer(n, "n", 1, std::numeric_limits<int>::max()), as_text(preset, "preset"),
                as_seed(seed, "seed"),
                static_cast<int>(as_integer(rebalance_every, "rebalance_every", 0, 1 << 30)),
                keywords(kw));
          }),
          py::arg("n"), py::arg("preset") = "plummer", py::arg("seed") = 1,
          py::arg("rebalance_every") = 10)
      .def(
          "step",
          [](PyRankRun& r, const py::object& k) {
            r.step(as_integer(k, "step: k", 0, std::numeric_limits<long long>::max()));
          },
          py::arg("k") = 1, "Takes k steps on every rank (collective).")
      .def(
          "save",
          [](PyRankRun& r, const py::object& path) {
            r.save(py::module_::import("os").attr("fspath")(path).cast<std::string>());
          },
          py::arg("path"),
          "Writes every rank's bodies as one snapshot, in ID order, from rank 0 (collective): the "
          "format by the extension, as Simulation.save; orrery.load(path) reads it in one "
          "process. ValueError, on every rank, where it cannot be written (the old file stays).")
      .def("diagnostics", &PyRankRun::diagnostics,
           "E, P, L and the mass over every rank's bodies (collective): a dict as "
           "Simulation.diagnostics() gives its first keys.")
      .def_property_readonly("positions", &PyRankRun::positions,
                             "This rank's bodies' positions, (m, 3) float32 (a copy).")
      .def_property_readonly("velocities", &PyRankRun::velocities,
                             "This rank's bodies' velocities, (m, 3) float32 (a copy).")
      .def_property_readonly("masses", &PyRankRun::masses, "This rank's bodies' masses (a copy).")
      .def_property_readonly("ids", &PyRankRun::ids,
                             "This rank's bodies' IDs, unique over the run (0 to n - 1).")
      .def_property_readonly("n", &PyRankRun::n, "The bodies over every rank.")
      .def_property_readonly("rank", &PyRankRun::rank, "This process's rank.")
      .def_property_readonly("ranks", &PyRankRun::ranks, "The ranks of the run.")
      .def_property_readonly("config", &PyRankRun::config, "The solver, as orrery-bench names it.");
}

}  // namespace orrery::python
