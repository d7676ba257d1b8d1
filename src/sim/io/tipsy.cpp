// TIPSY: the header (time, nbodies, ndim, nsph, ndark, nstar, padding), then 12 floats a gas
// particle (mass, pos, vel, rho, temp, hsmooth, metals, phi), 9 a dark one (mass, pos, vel, eps,
// phi) and 11 a star (mass, pos, vel, metals, tform, eps, phi).
#include "tipsy.h"

#include <cmath>
#include <limits>

#include "byte_io.h"

namespace orrery::tipsy {
namespace {

constexpr std::size_t k_gas_floats = 12, k_dark_floats = 9, k_star_floats = 11;

struct Header {
  double time = 0;
  std::int32_t nbodies = 0, ndim = 0, nsph = 0, ndark = 0, nstar = 0;
  std::size_t bytes = 0;  // 32 with the padding, 28 without
  bytes::Order order = bytes::Order::big;
};

std::uint64_t data_bytes(const Header& h) {
  return 4 * (k_gas_floats * static_cast<std::uint64_t>(h.nsph) +
              k_dark_floats * static_cast<std::uint64_t>(h.ndark) +
              k_star_floats * static_cast<std::uint64_t>(h.nstar));
}

Header read_header(const std::uint8_t* data, std::size_t size, bytes::Order order) {
  bytes::Reader r(data, size, order, "TIPSY");
  Header h;
  h.order = order;
  h.time = r.f64();
  h.nbodies = r.i32(), h.ndim = r.i32(), h.nsph = r.i32(), h.ndark = r.i32(), h.nstar = r.i32();
  return h;
}

// The counts add up, and the file is exactly the header and the records (with or without the
// padding). Returns false otherwise.
bool fits(Header& h, std::size_t size) {
  if (h.ndim != 3 || h.nsph < 0 || h.ndark < 0 || h.nstar < 0 || h.nbodies < 1) return false;
  if (static_cast<std::int64_t>(h.nsph) + h.ndark + h.nstar != h.nbodies) return false;
  const std::uint64_t body = data_bytes(h);
  for (std::size_t header : {std::size_t{32}, std::size_t{28}}) {
    if (size >= header && size - header == body) {
      h.bytes = header;
      return true;
    }
  }
  return false;
}

}  // namespace

std::string near_miss(const std::uint8_t* data, std::size_t size) {
  if (size < 28) return "";
  for (bytes::Order o : {bytes::Order::big, bytes::Order::little}) {
    Header h = read_header(data, size, o);
    // The counts and the size agree; only ndim or the empty count keeps it from being read.
    const bool counts = h.nsph >= 0 && h.ndark >= 0 && h.nstar >= 0 &&
                        static_cast<std::int64_t>(h.nsph) + h.ndark + h.nstar == h.nbodies;
    const std::uint64_t body = data_bytes(h);
    const bool sized = size == 32 + body || size == 28 + body;
    if (!counts || !sized) continue;
    if (h.nbodies == 0) return "a TIPSY file with no bodies (its header counts 0)";
    if (h.ndim != 3)
      return "a TIPSY file of " + std::to_string(h.ndim) +
             " dimensions (its header's ndim); Orrery reads 3-dimensional ones";
  }
  return "";
}

bool looks_like(const std::uint8_t* data, std::size_t size) {
  if (size < 28) return false;
  for (bytes::Order o : {bytes::Order::big, bytes::Order::little}) {
    Header h = read_header(data, size, o);
    if (fits(h, size)) return true;
  }
  return false;
}

std::vector<std::uint8_t> encode(const Snapshot& s) {
  const int n = s.bodies.size();
  bytes::Writer w(bytes::Order::big);
  w.f64(s.run.time);
  w.i32(n), w.i32(3), w.i32(0), w.i32(n), w.i32(0), w.i32(0);
  const float eps = s.run.params.softening;
  for (int i = 0; i < n; ++i) {
    const Vec4& p = s.bodies.pos[static_cast<std::size_t>(i)];
    const Vec4& v = s.bodies.vel[static_cast<std::size_t>(i)];
    w.f32(p.w), w.f32(p.x), w.f32(p.y), w.f32(p.z);
    w.f32(v.x), w.f32(v.y), w.f32(v.z), w.f32(eps), w.f32(0.0f);
  }
  return std::move(w.out());
}

Snapshot decode(const std::uint8_t* data, std::size_t size, const std::string& name) {
  Header h;
  bool ok = false;
  for (bytes::Order o : {bytes::Order::big, bytes::Order::little}) {
    if (size < 28) break;
    h = read_header(data, size, o);
    if ((ok = fits(h, size))) break;
  }
  if (!ok) {
    if (size < 28) throw SnapshotError(name + ": truncated TIPSY header");
    h = read_header(data, size, bytes::Order::big);
    throw SnapshotError(name + ": TIPSY header (big-endian) counts nbodies " +
                        std::to_string(h.nbodies) + ", gas " + std::to_string(h.nsph) + ", dark " +
                        std::to_string(h.ndark) + ", star " + std::to_string(h.nstar) + ", ndim " +
                        std::to_string(h.ndim) + " do not match the file's " +
                        std::to_string(size) + " bytes");
  }
  if (!std::isfinite(h.time)) throw SnapshotError(name + ": TIPSY header: the time is not finite");
  Snapshot s;
  s.format = SnapshotFormat::tipsy;
  s.run_recorded = false;
  s.run.time = h.time;
  const std::size_t n = static_cast<std::size_t>(h.nbodies);
  s.bodies.pos.resize(n);
  s.bodies.vel.resize(n);
  bytes::Reader r(data, size, h.order, name);
  r.seek(h.bytes);
  std::size_t i = 0;
  auto body = [&](std::size_t extra) {
    Vec4& p = s.bodies.pos[i];
    Vec4& v = s.bodies.vel[i];
    p.w = r.f32();
    p.x = r.f32(), p.y = r.f32(), p.z = r.f32();
    v.x = r.f32(), v.y = r.f32(), v.z = r.f32();
    v.w = 0.0f;
    r.take(4 * extra);
    ++i;
  };
  for (std::int32_t k = 0; k < h.nsph; ++k) body(k_gas_floats - 7);
  for (std::int32_t k = 0; k < h.ndark; ++k) body(k_dark_floats - 7);
  for (std::int32_t k = 0; k < h.nstar; ++k) body(k_star_floats - 7);
  check_bodies(s.bodies, name);
  return s;
}

}  // namespace orrery::tipsy
