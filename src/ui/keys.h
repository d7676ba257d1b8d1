// Key bindings: one table for the handler, --help and the panel.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "settings.h"

namespace orrery::ui {

struct KeyBinding {
  const char* keys;
  const char* what;
};

const std::vector<KeyBinding>& key_bindings();
// The bindings as lines "  S / Shift+S   next / previous solver", for --help.
std::string key_help_text();
// The action for a GLFW key press with modifiers, if any.
std::optional<Action> action_for_key(int glfw_key, int mods);
// The action for a scripted key name (--keys): s S b B space . r i 0-9 h d f11 f12 esc, or "sweep"
// (the panel's "Sweep block sizes" button), if the name is one of those.
std::optional<Action> action_for_name(const std::string& name);
// The names action_for_name accepts, for messages.
const char* key_names();

}  // namespace orrery::ui
