// The key table and the GLFW key-code mapping.
#include "keys.h"

#include <GLFW/glfw3.h>

#include <algorithm>

namespace orrery::ui {

const std::vector<KeyBinding>& key_bindings() {
  static const std::vector<KeyBinding> keys = {
      {"S / Shift+S", "next / previous solver"},
      {"B / Shift+B", "next / previous block size"},
      {"Space", "pause / resume (a series: play / pause)"},
      {".", "one step (a series: the next output)"},
      {",", "a series: the output before"},
      {"R", "reset"},
      {"I", "next integrator: euler, leapfrog, yoshida4"},
      {"1-9, 0",
       "preset: random, shell, expand, disk, collision, plummer, box, accretion, clumps, "
       "plummer-halo"},
      {"H", "hide / show the panel"},
      {"D", "draw with GL point sprites / this machine's splat (CUDA, else the CPU)"},
      {"T", "tree overlay: the tree code's cells (depth in the panel, View)"},
      {"F5 / F9", "quick save / quick load the run (orrery-quick.orrery here)"},
      {"V", "start / stop recording a video (orrery-DATE-TIME.mp4, .y4m without ffmpeg)"},
      {"Backspace", "reverse time: leapfrog and yoshida4 retrace their past"},
      {"C / Shift+C", "colour by the next / previous quantity (speed, acceleration, density, ...)"},
      {"L", "trails on / off (the last 32 positions; length and bodies in the panel)"},
      {"click", "pick a body: its state in the panel, a ring around it"},
      {"F / G", "follow the picked body / the centre of mass (again: stop)"},
      {"Home", "reset the view"},
      {"M", "the picture: the bodies / their smoothed surface density map (--mode)"},
      {"K / Shift+K", "frame the bodies now / keep them framed as the run evolves (again: stop)"},
      {"F11", "fullscreen"},
      {"F12", "screenshot to PNG"},
      {"Esc", "quit"},
      {"mouse", "left drag orbits, right or middle drag pans, wheel zooms"},
  };
  return keys;
}

std::string key_help_text() {
  std::string s;
  for (const KeyBinding& k : key_bindings()) {
    std::string keys = k.keys;
    keys.resize(std::max<std::size_t>(keys.size(), 14), ' ');
    s += "  " + keys + "  " + k.what + "\n";
  }
  return s;
}

std::optional<Action> action_for_key(int key, int mods) {
  const bool shift = (mods & GLFW_MOD_SHIFT) != 0;
  switch (key) {
    case GLFW_KEY_S:
      return Action{shift ? ActionKind::prev_solver : ActionKind::next_solver};
    case GLFW_KEY_B:
      return Action{shift ? ActionKind::prev_block : ActionKind::next_block};
    case GLFW_KEY_SPACE:
      return Action{ActionKind::toggle_pause};
    case GLFW_KEY_COMMA:
      return Action{ActionKind::play_step_back};
    case GLFW_KEY_PERIOD:
      return Action{ActionKind::single_step};
    case GLFW_KEY_R:
      return Action{ActionKind::reset};
    case GLFW_KEY_I:
      return Action{ActionKind::next_integrator};
    case GLFW_KEY_H:
      return Action{ActionKind::toggle_panel};
    case GLFW_KEY_D:
      return Action{ActionKind::toggle_draw};
    case GLFW_KEY_T:
      return Action{ActionKind::toggle_tree};
    case GLFW_KEY_BACKSPACE:
      return Action{ActionKind::reverse_time};
    case GLFW_KEY_C:
      return Action{ActionKind::next_color, shift ? -1 : 1};
    case GLFW_KEY_L:
      return Action{ActionKind::toggle_trails};
    case GLFW_KEY_F:
      return Action{ActionKind::follow_picked};
    case GLFW_KEY_G:
      return Action{ActionKind::follow_centre};
    case GLFW_KEY_HOME:
      return Action{ActionKind::reset_camera};
    case GLFW_KEY_M:
      return Action{ActionKind::toggle_density_map};
    case GLFW_KEY_K:
      return Action{shift ? ActionKind::toggle_keep_frame : ActionKind::frame_bodies};
    case GLFW_KEY_V:
      return Action{ActionKind::toggle_record};
    case GLFW_KEY_F5:
      return Action{ActionKind::quick_save};
    case GLFW_KEY_F9:
      return Action{ActionKind::quick_load};
    case GLFW_KEY_F11:
      return Action{ActionKind::toggle_fullscreen};
    case GLFW_KEY_F12:
      return Action{ActionKind::screenshot};
    case GLFW_KEY_ESCAPE:
      return Action{ActionKind::quit};
    default:
      break;
  }
  // 1 to 9, then 0: the presets in the order of preset_names().
  if (key >= GLFW_KEY_1 && key <= GLFW_KEY_9)
    return Action{ActionKind::set_preset, key - GLFW_KEY_1};
  if (key >= GLFW_KEY_KP_1 && key <= GLFW_KEY_KP_9)
    return Action{ActionKind::set_preset, key - GLFW_KEY_KP_1};
  if (key == GLFW_KEY_0 || key == GLFW_KEY_KP_0) return Action{ActionKind::set_preset, 9};
  return std::nullopt;
}

std::optional<Action> action_for_name(const std::string& name) {
  if (name == "sweep") return Action{ActionKind::sweep_blocks};
  if (name == "savescene") return Action{ActionKind::save_scene};
  if (name == "pick") return Action{ActionKind::pick_centre};
  if (name == "fit") return Action{ActionKind::fit_color};
  if (name == "home") return action_for_key(GLFW_KEY_HOME, 0);
  // scene1 ... scene99: the panel's scene list, in order.
  if (name.size() > 5 && name.size() <= 7 && name.compare(0, 5, "scene") == 0 &&
      std::all_of(name.begin() + 5, name.end(), [](char c) { return c >= '0' && c <= '9'; }) &&
      name[5] != '0')
    return Action{ActionKind::load_scene, std::stoi(name.substr(5)) - 1};
  if (name.size() == 1 && name[0] >= 'a' && name[0] <= 'z')
    return action_for_key(GLFW_KEY_A + (name[0] - 'a'), 0);
  if (name.size() == 1 && name[0] >= 'A' && name[0] <= 'Z')
    return action_for_key(GLFW_KEY_A + (name[0] - 'A'), GLFW_MOD_SHIFT);
  if (name.size() == 1 && name[0] >= '0' && name[0] <= '9')
    return action_for_key(GLFW_KEY_0 + (name[0] - '0'), 0);
  if (name == "." || name == "period") return action_for_key(GLFW_KEY_PERIOD, 0);
  if (name == "," || name == "comma") return action_for_key(GLFW_KEY_COMMA, 0);
  if (name == "continue") return Action{ActionKind::continue_run};
  if (name == "space") return action_for_key(GLFW_KEY_SPACE, 0);
  if (name == "backspace") return action_for_key(GLFW_KEY_BACKSPACE, 0);
  if (name == "f5") return action_for_key(GLFW_KEY_F5, 0);
  if (name == "f9") return action_for_key(GLFW_KEY_F9, 0);
  if (name == "f11") return action_for_key(GLFW_KEY_F11, 0);
  if (name == "f12") return action_for_key(GLFW_KEY_F12, 0);
  if (name == "esc") return action_for_key(GLFW_KEY_ESCAPE, 0);
  return std::nullopt;
}

const char* key_names() {
  return "s S b B space . , r i 0-9 h d t v c C l f g k K m home backspace f5 f9 f11 f12 esc "
         "sweep scene1-scene99 savescene pick fit continue";
}

}  // namespace orrery::ui
