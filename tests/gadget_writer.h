// A GADGET-2 writer for the tests (Orrery reads GADGET-2 and writes none): particles of each
// type, MassTable or a MASS block, either byte order, SnapFormat 1 or 2, float or double, one file
// of a set. test_gadget.cpp and test_playback.cpp write their files with it.
#pragma once

#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

#include "../src/sim/io/byte_io.h"

namespace orrery::test {

inline void write(const std::string& path, const std::vector<std::uint8_t>& b) {
  std::ofstream(path, std::ios::binary)
      .write(reinterpret_cast<const char*>(b.data()), static_cast<std::streamsize>(b.size()));
}

// A GADGET-2 file written here: particles of each type, MassTable or a MASS block, either byte
// order, SnapFormat 1 or 2, float or double.
struct Spec {
  std::vector<int> npart = std::vector<int>(6, 0);
  std::vector<double> mass_table = std::vector<double>(6, 0.0);
  std::vector<double> pos, vel, masses;  // masses: those of types whose table entry is 0
  std::vector<std::uint32_t> ids;
  bool big = false, format2 = false, doubles = false, id_block = true;
  int num_files = 1;
  std::vector<std::uint32_t> total = std::vector<std::uint32_t>(6, 0);
  double time = 0;
};

// The bytes of one record or block, in the file's byte order (the engine's writer).
struct Out : bytes::Writer {
  explicit Out(bool big) : Writer(big ? bytes::Order::big : bytes::Order::little) {}
};

inline std::vector<std::uint8_t> gadget_file(const Spec& s) {
  Out o(s.big);
  auto block = [&](std::string label, const std::vector<std::uint8_t>& payload) {
    if (s.format2) {
      label.resize(4, ' ');
      o.u32(8);
      for (char c : label) o.raw(&c, 1);
      o.u32(static_cast<std::uint32_t>(payload.size() + 8));
      o.u32(8);
    }
    o.u32(static_cast<std::uint32_t>(payload.size()));
    o.raw(payload.data(), payload.size());
    o.u32(static_cast<std::uint32_t>(payload.size()));
  };
  Out h(s.big);
  for (int c : s.npart) h.u32(static_cast<std::uint32_t>(c));
  for (double m : s.mass_table) h.f64(m);
  h.f64(s.time);
  h.f64(0.0);  // redshift
  h.u32(0), h.u32(0);
  for (std::uint32_t t : s.total) h.u32(t);
  h.u32(0);
  h.u32(static_cast<std::uint32_t>(s.num_files));
  h.f64(0.0);  // box
  h.zeros(256 - h.size());
  block("HEAD", h.out());
  auto reals = [&](const std::vector<double>& v) {
    Out p(s.big);
    for (double x : v) s.doubles ? p.f64(x) : p.f32(static_cast<float>(x));
    return p.out();
  };
  block("POS", reals(s.pos));
  block("VEL", reals(s.vel));
  Out id(s.big);
  for (std::uint32_t i : s.ids) id.u32(i);
  if (s.id_block) block("ID", id.out());
  if (!s.masses.empty()) block("MASS", reals(s.masses));
  Out u(s.big);  // a gas block Orrery skips
  for (int k = 0; k < s.npart[0]; ++k) u.f32(1.0f);
  if (s.npart[0] > 0) block("U", u.out());
  return std::move(o.out());
}

}  // namespace orrery::test
