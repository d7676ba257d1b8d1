// Strict JSON reading: nlohmann/json with a callback that notes each object's keys.
#include "json_reader.h"

#include <vector>

namespace orrery {

using json = nlohmann::json;

nlohmann::json parse_json_text(const std::string& text, const std::string& name) {
  json j;
  // A key given twice in one object is refused (JSON leaves it open; the parser kept the last).
  std::vector<std::set<std::string>> keys_seen;
  std::string twice;
  const json::parser_callback_t note_keys = [&](int, json::parse_event_t event, json& parsed) {
    if (event == json::parse_event_t::object_start) keys_seen.emplace_back();
    if (event == json::parse_event_t::object_end && !keys_seen.empty()) keys_seen.pop_back();
    if (event == json::parse_event_t::key && !keys_seen.empty() && twice.empty() &&
        !keys_seen.back().insert(parsed.get<std::string>()).second)
      twice = parsed.get<std::string>();
    return true;
  };
  try {
    j = json::parse(text, note_keys);
  } catch (const json::exception& e) {  // parse_error, or out_of_range (a number like 1e999)
    std::string what = e.what();
    const std::size_t colon = what.find("] ");
    throw SnapshotError(
        name + ": not JSON: " + (colon == std::string::npos ? what : what.substr(colon + 2)));
  }
  const Reader r{name};
  if (!twice.empty()) r.fail(twice, "given twice in one object (which one is meant?)");
  return j;
}

}  // namespace orrery
