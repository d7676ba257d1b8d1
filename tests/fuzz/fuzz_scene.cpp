// libFuzzer target: the scene-file parser (parse_scene), which must answer any text with a scene
// whose settings pass the shared rules or a SnapshotError naming the key: no crash, hang or
// sanitizer report.
#include <cstddef>
#include <cstdint>
#include <string>

#include "orrery/scene_file.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const orrery::SceneFile s = orrery::parse_scene(text, "fuzz");
    orrery::validate(s.params);  // must not throw: parse_scene checked it
    // What parses writes back to text that parses to the same text.
    const std::string again = orrery::scene_json(s);
    if (orrery::scene_json(orrery::parse_scene(again, "again")) != again) __builtin_trap();
  } catch (const orrery::SnapshotError&) {
  }
  return 0;
}
