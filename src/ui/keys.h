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

}  // namespace orrery::ui
