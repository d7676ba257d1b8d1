// Fixed-size fields in a byte buffer, in either byte order: the snapshot formats' readers and
// writers. A read past the end throws SnapshotError (the callers check sizes first; this is the
// net under them).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "orrery/snapshot.h"

namespace orrery::bytes {

enum class Order { little, big };

inline Order native_order() {
  const std::uint16_t probe = 1;
  unsigned char first = 0;
  std::memcpy(&first, &probe, 1);
  return first ? Order::little : Order::big;
}

class Writer {
 public:
  explicit Writer(Order order) : m_order(order) {}
  void u32(std::uint32_t v) { put(v); }
  void i32(std::int32_t v) { put(static_cast<std::uint32_t>(v)); }
  void u64(std::uint64_t v) { put(v); }
  void i64(std::int64_t v) { put(static_cast<std::uint64_t>(v)); }
  void f32(float v) {
    std::uint32_t b;
    std::memcpy(&b, &v, 4);
    put(b);
  }
  void f64(double v) {
    std::uint64_t b;
    std::memcpy(&b, &v, 8);
    put(b);
  }
  void raw(const void* p, std::size_t n) {
    const auto* c = static_cast<const std::uint8_t*>(p);
    m_out.insert(m_out.end(), c, c + n);
  }
  void zeros(std::size_t n) { m_out.insert(m_out.end(), n, 0); }
  std::size_t size() const { return m_out.size(); }
  std::vector<std::uint8_t>& out() { return m_out; }

 private:
  template <class U>
  void put(U v) {
    std::uint8_t b[sizeof(U)];
    for (std::size_t k = 0; k < sizeof(U); ++k) {
      const std::size_t shift = 8 * (m_order == Order::little ? k : sizeof(U) - 1 - k);
      b[k] = static_cast<std::uint8_t>(v >> shift);
    }
    raw(b, sizeof(U));
  }
  Order m_order;
  std::vector<std::uint8_t> m_out;
};

class Reader {
 public:
  Reader(const std::uint8_t* data, std::size_t size, Order order, std::string name)
      : m_data(data), m_size(size), m_order(order), m_name(std::move(name)) {}
  std::uint32_t u32() { return get<std::uint32_t>(); }
  std::int32_t i32() { return static_cast<std::int32_t>(get<std::uint32_t>()); }
  std::uint64_t u64() { return get<std::uint64_t>(); }
  std::int64_t i64() { return static_cast<std::int64_t>(get<std::uint64_t>()); }
  float f32() {
    const std::uint32_t b = get<std::uint32_t>();
    float v;
    std::memcpy(&v, &b, 4);
    return v;
  }
  double f64() {
    const std::uint64_t b = get<std::uint64_t>();
    double v;
    std::memcpy(&v, &b, 8);
    return v;
  }
  const std::uint8_t* take(std::size_t n) {
    need(n);
    const std::uint8_t* p = m_data + m_at;
    m_at += n;
    return p;
  }
  void seek(std::size_t at) {
    if (at > m_size) throw SnapshotError(m_name + ": truncated");
    m_at = at;
  }
  std::size_t at() const { return m_at; }

 private:
  void need(std::size_t n) const {
    if (n > m_size - m_at) throw SnapshotError(m_name + ": truncated");
  }
  template <class U>
  U get() {
    need(sizeof(U));
    U v = 0;
    for (std::size_t k = 0; k < sizeof(U); ++k) {
      const std::size_t shift = 8 * (m_order == Order::little ? k : sizeof(U) - 1 - k);
      v |= static_cast<U>(static_cast<U>(m_data[m_at + k]) << shift);
    }
    m_at += sizeof(U);
    return v;
  }
  const std::uint8_t* m_data;
  std::size_t m_size, m_at = 0;
  Order m_order;
  std::string m_name;
};

// FNV-1a, 64 bits: the Orrery format's checksum (docs/formats.md).
inline std::uint64_t fnv1a64(const std::uint8_t* p, std::size_t n) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (std::size_t k = 0; k < n; ++k) {
    h ^= p[k];
    h *= 0x100000001b3ull;
  }
  return h;
}

}  // namespace orrery::bytes
