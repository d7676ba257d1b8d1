// App input: the key callback, and applying the actions of keys and panel (each announced in one
// line).
#include <GLFW/glfw3.h>

#include <cstdio>

#include "app.h"
#include "orrery/scene.h"
#include "ui/keys.h"
#include "ui/panel.h"

namespace orrery::app {
namespace {

bool supports(const ui::SolverChoice& c, int block) {
  if (!c.gpu) return block == 0;
  if (block == 0) return c.block_auto;
  for (int b : c.block_sizes)
    if (b == block) return true;
  return false;
}

}  // namespace

void App::on_key(GLFWwindow* window, int key, int /*scancode*/, int action, int mods) {
  const bool repeat_ok = key == GLFW_KEY_PERIOD;  // hold '.' to keep stepping
  if (action != GLFW_PRESS && !(action == GLFW_REPEAT && repeat_ok)) return;
  if (auto* app = static_cast<App*>(glfwGetWindowUserPointer(window)))
    app->m_keys.emplace_back(key, mods);
}

void App::handle_keys() {
  std::vector<std::pair<int, int>> keys;
  keys.swap(m_keys);
  if (m_imgui->wants_keyboard()) return;  // typing into a panel field
  for (const auto& [key, mods] : keys)
    if (const auto a = ui::action_for_key(key, mods)) m_actions.push_back(*a);
}

void App::apply(const ui::Action& a) {
  using K = ui::ActionKind;
  const int solvers = static_cast<int>(m_catalog.solvers.size());
  switch (a.kind) {
    case K::next_solver:
      switch_solver((m_settings.solver + 1) % solvers, -1);
      break;
    case K::prev_solver:
      switch_solver((m_settings.solver + solvers - 1) % solvers, -1);
      break;
    case K::set_solver:
      switch_solver(a.value, -1);
      break;
    case K::next_block:
      cycle_block(+1);
      break;
    case K::prev_block:
      cycle_block(-1);
      break;
    case K::set_block:
      switch_solver(m_settings.solver, a.value);
      break;
    case K::set_gpus: {
      const int before = m_settings.gpus;
      m_settings.gpus = a.value;
      if (!switch_solver(m_settings.solver, m_settings.block)) m_settings.gpus = before;
      break;
    }
    case K::toggle_pause:
      m_settings.paused = !m_settings.paused;
      say(m_settings.paused ? "paused" : "resumed");
      break;
    case K::single_step:
      m_settings.paused = true;
      m_step_once = true;
      say("step");
      break;
    case K::reset:
      if (m_loaded) {  // back to the loaded snapshot
        try {
          start_from(*m_loaded, m_file_path);
          say("reset (to the loaded snapshot)");
        } catch (const std::exception& e) {
          note_file(std::string("cannot reset to the snapshot: ") + e.what(), true);
        }
        break;
      }
      restart(m_settings.preset, m_settings.n, "reset");
      break;
    case K::reverse_time:
      try {
        m_run->set_time_reversed(!m_run->time_reversed());
      } catch (const std::exception& e) {
        say(std::string("orrery: refused: ") + e.what());
        break;
      }
      m_settings.time_reversed = m_run->time_reversed();
      say(m_settings.time_reversed ? "time runs backwards" : "time runs forwards");
      break;
    case K::quick_save:
      save_state(k_quick_file);
      break;
    case K::quick_load:
      load_state(k_quick_file);
      break;
    case K::load_scene:
      if (a.value >= 0 && a.value < static_cast<int>(m_catalog.scene_paths.size()))
        open_scene(m_catalog.scene_paths[static_cast<std::size_t>(a.value)]);
      else
        say("orrery: scene" + std::to_string(a.value + 1) + ": there are " +
            std::to_string(m_catalog.scene_paths.size()) + " scenes");
      break;
    case K::save_scene:
      save_current_scene();
      break;
    case K::reload_types:
      reload_types(a.value);
      break;
    case K::cancel_load:
      if (m_pending_load) m_pending_load->progress.cancel = true;
      break;
    case K::toggle_record:
      if (m_recorder)
        stop_recording();
      else
        start_recording(timestamped_video_name());
      break;
    case K::set_preset:
      m_loaded.reset();
      restart(static_cast<Preset>(a.value), m_settings.n, "preset");
      break;
    case K::set_integrator:
      switch_integrator(a.value);
      break;
    case K::next_integrator:
      switch_integrator((static_cast<int>(m_settings.integrator) + 1) %
                        static_cast<int>(m_catalog.integrators.size()));
      break;
    case K::apply_n:
      m_loaded.reset();
      restart(m_settings.preset, a.value, "n");
      break;
    case K::toggle_panel:
      m_settings.show_panel = !m_settings.show_panel;
      say(m_settings.show_panel ? "panel shown" : "panel hidden");
      break;
    case K::toggle_fullscreen:
      if (!m_surface->toggle_fullscreen()) {
        say("fullscreen: not available headless");
        break;
      }
      say(m_surface->fullscreen() ? "fullscreen on" : "fullscreen off");
      break;
    case K::set_vsync:
      m_settings.vsync = a.value != 0;
      m_surface->set_vsync(m_settings.vsync);
      say(m_settings.vsync ? "vsync on" : "vsync off");
      break;
    case K::screenshot:
      m_screenshot_now = true;
      break;  // announced once written
    case K::sweep_blocks:
      run_sweep();
      break;
    case K::reset_camera:
      m_camera.reset();
      m_settings.follow = ui::Follow::nothing;
      say("camera reset");
      break;
    case K::next_color:
      set_color(static_cast<int>(m_settings.color_quantity) + (a.value < 0 ? -1 : 1), true);
      break;
    case K::set_color:
      set_color(a.value, true);
      break;
    case K::fit_color:
      m_settings.color_auto = true;
      fit_color_range(true);
      break;
    case K::toggle_trails:
      m_settings.trail_length = m_settings.trail_length > 0 ? 0 : m_settings.trail_length_on;
      configure_trails();
      say(m_trails ? "trails " + m_readouts.trails : std::string("trails off"));
      break;
    case K::apply_trails:
      if (m_settings.trail_length > 0) m_settings.trail_length_on = m_settings.trail_length;
      configure_trails();
      say(m_trails ? "trails " + m_readouts.trails : std::string("trails off"));
      break;
    case K::follow_picked:
      if (m_settings.picked < 0) {
        say("follow: pick a body first (click it)");
        break;
      }
      m_settings.follow = m_settings.follow == ui::Follow::picked_body ? ui::Follow::nothing
                                                                       : ui::Follow::picked_body;
      say(m_settings.follow != ui::Follow::nothing
              ? "follow body " + std::to_string(m_settings.picked)
              : std::string("follow off"));
      break;
    case K::follow_centre:
      m_settings.follow = m_settings.follow == ui::Follow::centre_of_mass
                              ? ui::Follow::nothing
                              : ui::Follow::centre_of_mass;
      say(m_settings.follow != ui::Follow::nothing ? "follow the centre of mass" : "follow off");
      break;
    case K::pick_centre: {
      int w = 0, h = 0;
      target_size(w, h);
      const gfx::SpriteParams sp = gfx::sprite_params(m_camera, style(), w, h);
      // The middle of the view: the window's, moved right as the panel moves the scene.
      pick_at(0.5f * static_cast<float>(w) + style().center_shift_px, 0.5f * static_cast<float>(h),
              sp);
      break;
    }
    case K::toggle_draw:  // GL sprites and this machine's splat: CUDA's, else the CPU's
      m_settings.draw = m_settings.draw != ui::DrawMethod::gl_sprites ? ui::DrawMethod::gl_sprites
                        : m_splat_ok                                  ? ui::DrawMethod::cuda_splat
                                                                      : ui::DrawMethod::cpu_splat;
      say(std::string("draw ") + draw_name());
      break;
    case K::set_draw: {
      const auto method = static_cast<ui::DrawMethod>(a.value);
      if (method == ui::DrawMethod::cuda_splat && !m_splat_ok) {
        say("draw: the CUDA splat needs the zero-copy interop path");
        break;
      }
      m_settings.draw = method;
      say(std::string("draw ") + draw_name());
      break;
    }
    case K::toggle_tree:
      if (m_run->solver().all_pairs()) {
        say("tree overlay: " + m_run->solver().name() + " has no tree (cpu-bh and cuda-bh do)");
        break;
      }
      m_settings.tree_overlay = !m_settings.tree_overlay;
      say(m_settings.tree_overlay
              ? "tree overlay on (depth " + std::to_string(m_settings.tree_depth) + ")"
              : "tree overlay off");
      break;
    case K::quit:
      m_quit = true;
      say("quit");
      break;
  }
}

// block < 0: keep the current block size when the new solver supports it, else its default.
int App::gpus_in_use() const {
  return ui::gpus_in_use(m_catalog, m_settings.solver, m_settings.gpus);
}

bool App::switch_solver(int index, int block) {
  if (index < 0 || index >= static_cast<int>(m_catalog.solvers.size())) return false;
  const ui::SolverChoice& c = m_catalog.solvers[static_cast<std::size_t>(index)];
  if (block < 0)
    block = supports(c, m_settings.block) ? m_settings.block : default_block_size(c.name);
  if (!c.gpu) block = 0;
  const int gpus = ui::gpus_in_use(m_catalog, index, m_settings.gpus);
  try {
    m_run->set_solver(c.name, block, gpus);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "orrery: cannot switch to %s: %s\n", c.name.c_str(), e.what());
    return false;
  }
  m_settings.solver = index;
  m_settings.block = block;
  say("solver " + ui::solver_label(m_catalog, index, block, gpus));
  return true;
}

// Refused with one line when the integrator does not take the damping in use (the symplectic
// ones take none); the current integrator stays.
void App::switch_integrator(int index) {
  if (index < 0 || index >= static_cast<int>(m_catalog.integrators.size())) return;
  const std::string& name = m_catalog.integrators[static_cast<std::size_t>(index)];
  try {
    m_run->set_integrator(parse_integrator(name));
  } catch (const std::exception& e) {
    say(std::string("orrery: refused: ") + e.what());
    return;
  }
  m_settings.integrator = parse_integrator(name);
  say("integrator " + name);
}

void App::cycle_block(int dir) {
  const ui::SolverChoice& c = m_catalog.solvers[static_cast<std::size_t>(m_settings.solver)];
  if (!c.gpu) {
    say("block: " + c.name + " runs on the CPU and has no block size");
    return;
  }
  std::vector<int> list = c.block_sizes;
  if (c.block_auto) list.insert(list.begin(), 0);
  int pos = 0;
  for (int i = 0; i < static_cast<int>(list.size()); ++i)
    if (list[static_cast<std::size_t>(i)] == m_settings.block) pos = i;
  const int count = static_cast<int>(list.size());
  switch_solver(m_settings.solver, list[static_cast<std::size_t>((pos + dir + count) % count)]);
}

void App::restart(Preset preset, int n, const char* what) {
  try {
    m_run->reset(preset, n, m_settings.seed, m_opts.scene.radius);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "orrery: cannot restart with %d bodies: %s\n", n, e.what());
    m_run->reset(m_settings.preset, m_settings.n, m_settings.seed, m_opts.scene.radius);
    m_settings.n_edit = m_settings.n;
    return;
  }
  if (m_run->time_reversed()) {  // a new state runs forwards
    m_run->set_time_reversed(false);
    m_settings.time_reversed = false;
  }
  if (preset != m_settings.preset) {  // the new preset's gravity and collisions (options over them)
    SimParams p = m_run->params();
    apply_scene(preset, m_opts.scene, p);
    show_scene(p);
  }
  m_settings.preset = preset;
  m_settings.n = n;
  m_settings.n_edit = n;
  forget_file();                    // a preset: no file now
  if (!m_readouts.alert.empty()) {  // the paused, non-finite state is gone: run the new one
    m_readouts.alert.clear();
    m_settings.paused = false;
  }
  const std::string w = what;
  if (w == "preset")
    say("preset " + m_catalog.presets[static_cast<std::size_t>(preset)]);
  else if (w == "n")
    say("n " + std::to_string(n));
  else
    say("reset");
}

void App::run_sweep() {
  const ui::SolverChoice& c = m_catalog.solvers[static_cast<std::size_t>(m_settings.solver)];
  if (!c.gpu) {
    say("sweep: " + c.name + " runs on the CPU and has no block sizes");
    return;
  }
  std::vector<ui::SweepPoint> points;
  try {
    points = m_run->sweep_blocks(c.name, c.block_sizes);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "orrery: block-size sweep failed: %s\n", e.what());
    return;
  }
  m_stats.restart_window();  // the sweep's own time is no frame rate
  m_readouts.sweep = points;
  m_readouts.sweep_label = c.name + ", N = " + std::to_string(m_run->count());
  std::string line = "sweep " + c.name + " n " + std::to_string(m_run->count()) + ":";
  const ui::SweepPoint* best = nullptr;
  for (const ui::SweepPoint& p : points) {
    char buf[48];
    std::snprintf(buf, sizeof buf, " %d %.3f ms", p.block, p.ms_per_step);
    line += buf;
    if (!best || p.ms_per_step < best->ms_per_step) best = &p;
  }
  if (best) line += ", best " + std::to_string(best->block);
  say(line);
}

}  // namespace orrery::app
