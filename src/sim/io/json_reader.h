// The strict JSON reading of Orrery's own files (scenes, camera paths): a key given twice in one
// object is refused, and each value is read with a check that names the file and the key.
#pragma once

#include <cmath>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "orrery/snapshot.h"

namespace orrery {

// Parses `text`; throws SnapshotError "<name>: not JSON: ..." or "<name>: <key>: given twice in
// one object".
nlohmann::json parse_json_text(const std::string& text, const std::string& name);

// Reads values, throwing SnapshotError "<file>: <key>: <what>".
struct Reader {
  using json = nlohmann::json;
  const std::string& file;
  [[noreturn]] void fail(const std::string& key, const std::string& what) const {
    throw SnapshotError(file + ": " + key + ": " + what);
  }
  std::string text(const json& j, const std::string& key) const {
    if (!j.is_string()) fail(key, "must be a string");
    return j.get<std::string>();
  }
  double number(const json& j, const std::string& key) const {
    if (!j.is_number()) fail(key, "must be a number");
    const double v = j.get<double>();
    if (!std::isfinite(v)) fail(key, "must be finite");
    return v;
  }
  long long integer(const json& j, const std::string& key, long long lo, long long hi) const {
    if (j.is_number_float()) {  // 64.0 is a whole number too; 64.5 and 1e300 are not
      const double d = j.get<double>();
      if (!std::isfinite(d) || d != std::floor(d)) fail(key, "must be a whole number");
      if (d < static_cast<double>(lo) || d > static_cast<double>(hi))
        fail(key, "out of range (" + std::to_string(lo) + " to " + std::to_string(hi) + ")");
      return static_cast<long long>(d);
    }
    if (!j.is_number_integer()) fail(key, "must be a whole number");
    if (j.is_number_unsigned() && j.get<std::uint64_t>() > static_cast<std::uint64_t>(hi))
      fail(key, "out of range (" + std::to_string(lo) + " to " + std::to_string(hi) + ")");
    const long long v = j.get<long long>();
    if (v < lo || v > hi)
      fail(key, std::to_string(v) + " is out of range (" + std::to_string(lo) + " to " +
                    std::to_string(hi) + ")");
    return v;
  }
  float in_float(const json& j, const std::string& key, double lo, double hi) const {
    const double v = number(j, key);
    if (v < lo || v > hi)
      fail(key, json(v).dump() + " is out of range (" + json(lo).dump() + " to " + json(hi).dump() +
                    ")");
    return static_cast<float>(v);
  }
  void known(const json& obj, const std::set<std::string>& keys, const std::string& where) const {
    for (auto it = obj.begin(); it != obj.end(); ++it)
      if (!keys.count(it.key())) fail(where + it.key(), "unknown key");
  }
};

}  // namespace orrery
