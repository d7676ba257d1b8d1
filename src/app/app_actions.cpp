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
    app->m_input.keys.emplace_back(key, mods);
}

void App::handle_keys() {
  std::vector<std::pair<int, int>> keys;
  keys.swap(m_input.keys);
  if (m_display.imgui->wants_keyboard()) return;  // typing into a panel field
  for (const auto& [key, mods] : keys)
    if (const auto a = ui::action_for_key(key, mods)) m_input.actions.push_back(*a);
}

// What each panel or key action does: one row an action (apply() finds it by its kind).
const std::vector<App::Command>& App::commands() {
  using K = ui::ActionKind;
  static const std::vector<Command> rows = {
      {K::next_solver,
       [](App& app, const ui::Action&) {
         app.switch_solver(
             (app.m_settings.solver + 1) % static_cast<int>(app.m_catalog.solvers.size()), -1);
       }},
      {K::prev_solver,
       [](App& app, const ui::Action&) {
         app.switch_solver(
             (app.m_settings.solver + static_cast<int>(app.m_catalog.solvers.size()) - 1) %
                 static_cast<int>(app.m_catalog.solvers.size()),
             -1);
       }},
      {K::set_solver, [](App& app, const ui::Action& a) { app.switch_solver(a.value, -1); }},
      {K::next_block, [](App& app, const ui::Action&) { app.cycle_block(+1); }},
      {K::prev_block, [](App& app, const ui::Action&) { app.cycle_block(-1); }},
      {K::set_block,
       [](App& app, const ui::Action& a) { app.switch_solver(app.m_settings.solver, a.value); }},
      {K::set_gpus,
       [](App& app, const ui::Action& a) {
         const int before = app.m_settings.gpus;
         app.m_settings.gpus = a.value;
         if (!app.switch_solver(app.m_settings.solver, app.m_settings.block))
           app.m_settings.gpus = before;
       }},
      {K::toggle_pause,
       [](App& app, const ui::Action&) {
         app.m_settings.paused = !app.m_settings.paused;
         app.say(app.m_settings.paused ? "paused" : "resumed");
       }},
      {K::single_step,
       [](App& app, const ui::Action&) {
         app.m_settings.paused = true;
         app.m_input.step_once = true;
         app.say("step");
       }},
      {K::reset,
       [](App& app, const ui::Action&) {
         if (app.m_files.loaded) {  // back to the loaded snapshot
           try {
             app.start_from(*app.m_files.loaded, app.m_files.path);
             app.say("reset (to the loaded snapshot)");
           } catch (const std::exception& e) {
             app.note_file(std::string("cannot reset to the snapshot: ") + e.what(), true);
           }
           return;
         }
         app.restart(app.m_settings.preset, app.m_settings.n, "reset");
       }},
      {K::reverse_time,
       [](App& app, const ui::Action&) {
         try {
           app.m_run->set_time_reversed(!app.m_run->time_reversed());
         } catch (const std::exception& e) {
           app.say(std::string("orrery: refused: ") + e.what());
           return;
         }
         app.m_settings.time_reversed = app.m_run->time_reversed();
         app.say(app.m_settings.time_reversed ? "time runs backwards" : "time runs forwards");
       }},
      {K::quick_save, [](App& app, const ui::Action&) { app.save_state(App::k_quick_file); }},
      {K::quick_load, [](App& app, const ui::Action&) { app.load_state(App::k_quick_file); }},
      {K::load_scene,
       [](App& app, const ui::Action& a) {
         if (a.value >= 0 && a.value < static_cast<int>(app.m_catalog.scene_paths.size()))
           app.open_scene(app.m_catalog.scene_paths[static_cast<std::size_t>(a.value)]);
         else
           app.say("orrery: scene" + std::to_string(a.value + 1) + ": there are " +
                   std::to_string(app.m_catalog.scene_paths.size()) + " scenes");
       }},
      {K::save_scene, [](App& app, const ui::Action&) { app.save_current_scene(); }},
      {K::reload_types, [](App& app, const ui::Action& a) { app.reload_types(a.value); }},
      // Handled by playback_action while a series plays; without one there is nothing to do.
      {K::play_step_back, [](App& app, const ui::Action&) { app.say("no series is playing"); }},
      {K::continue_run, [](App& app, const ui::Action&) { app.say("no series is playing"); }},
      {K::cancel_load,
       [](App& app, const ui::Action&) {
         if (app.m_files.pending) app.m_files.pending->progress.cancel = true;
       }},
      {K::toggle_record,
       [](App& app, const ui::Action&) {
         if (app.m_capture.recorder)
           app.stop_recording();
         else
           app.start_recording(timestamped_video_name());
       }},
      {K::set_preset,
       [](App& app, const ui::Action& a) {
         app.m_files.loaded.reset();
         app.restart(static_cast<Preset>(a.value), app.m_settings.n, "preset");
       }},
      {K::set_integrator, [](App& app, const ui::Action& a) { app.switch_integrator(a.value); }},
      {K::next_integrator,
       [](App& app, const ui::Action&) {
         app.switch_integrator((static_cast<int>(app.m_settings.integrator) + 1) %
                               static_cast<int>(app.m_catalog.integrators.size()));
       }},
      {K::apply_n,
       [](App& app, const ui::Action& a) {
         app.m_files.loaded.reset();
         app.restart(app.m_settings.preset, a.value, "n");
       }},
      {K::toggle_panel,
       [](App& app, const ui::Action&) {
         if (app.m_settings.hud != ui::Settings::Hud::full) {  // a clean picture: the panel back
           app.m_settings.hud = ui::Settings::Hud::full;
           app.m_settings.show_panel = false;
         }
         app.m_settings.show_panel = !app.m_settings.show_panel;
         app.say(app.m_settings.show_panel ? "panel shown" : "panel hidden");
       }},
      {K::toggle_fullscreen,
       [](App& app, const ui::Action&) {
         if (!app.m_display.surface->toggle_fullscreen()) {
           app.say("fullscreen: not available headless");
           return;
         }
         app.say(app.m_display.surface->fullscreen() ? "fullscreen on" : "fullscreen off");
       }},
      {K::set_vsync,
       [](App& app, const ui::Action& a) {
         app.m_settings.vsync = a.value != 0;
         app.m_display.surface->set_vsync(app.m_settings.vsync);
         app.say(app.m_settings.vsync ? "vsync on" : "vsync off");
       }},
      {K::screenshot,
       [](App& app, const ui::Action&) {
         app.m_capture.screenshot_now = true;  // announced once written
       }},
      {K::sweep_blocks, [](App& app, const ui::Action&) { app.run_sweep(); }},
      {K::toggle_density_map,
       [](App& app, const ui::Action&) {
         app.m_settings.density_map = !app.m_settings.density_map;
         app.say(app.m_settings.density_map ? "picture: density map" : "picture: bodies");
       }},
      {K::frame_bodies, [](App& app, const ui::Action&) { app.frame_now(); }},
      {K::toggle_keep_frame,
       [](App& app, const ui::Action&) {
         app.m_settings.keep_frame = !app.m_settings.keep_frame;
         app.m_drive.goal.reset();
         app.say(app.m_settings.keep_frame ? "keep frame on (" + to_string(app.m_opts.frame) + ")"
                                           : std::string("keep frame off"));
       }},
      {K::restart_path,
       [](App& app, const ui::Action&) {
         if (app.m_opts.camera_path.empty()) return;
         app.restart_path();
         app.say("camera path: from its start");
       }},
      {K::reset_camera,
       [](App& app, const ui::Action&) {
         app.m_camera.reset();
         app.m_settings.follow = ui::Follow::nothing;
         app.say("camera reset");
       }},
      {K::next_color,
       [](App& app, const ui::Action& a) {
         app.set_color(static_cast<int>(app.m_settings.color_quantity) + (a.value < 0 ? -1 : 1),
                       true);
       }},
      {K::set_color, [](App& app, const ui::Action& a) { app.set_color(a.value, true); }},
      {K::fit_color,
       [](App& app, const ui::Action&) {
         app.m_settings.color_auto = true;
         app.fit_color_range(true);
       }},
      {K::toggle_trails,
       [](App& app, const ui::Action&) {
         app.m_settings.trail_length =
             app.m_settings.trail_length > 0 ? 0 : app.m_settings.trail_length_on;
         app.configure_trails();
         app.say(app.m_colour.trails ? "trails " + app.m_shown.readouts.trails
                                     : std::string("trails off"));
       }},
      {K::apply_trails,
       [](App& app, const ui::Action&) {
         if (app.m_settings.trail_length > 0)
           app.m_settings.trail_length_on = app.m_settings.trail_length;
         app.configure_trails();
         app.say(app.m_colour.trails ? "trails " + app.m_shown.readouts.trails
                                     : std::string("trails off"));
       }},
      {K::follow_picked,
       [](App& app, const ui::Action&) {
         if (app.m_settings.picked < 0) {
           app.say("follow: pick a body first (click it)");
           return;
         }
         app.m_settings.follow = app.m_settings.follow == ui::Follow::picked_body
                                     ? ui::Follow::nothing
                                     : ui::Follow::picked_body;
         app.say(app.m_settings.follow != ui::Follow::nothing
                     ? "follow body " + std::to_string(app.m_settings.picked)
                     : std::string("follow off"));
       }},
      {K::follow_centre,
       [](App& app, const ui::Action&) {
         app.m_settings.follow = app.m_settings.follow == ui::Follow::centre_of_mass
                                     ? ui::Follow::nothing
                                     : ui::Follow::centre_of_mass;
         app.say(app.m_settings.follow != ui::Follow::nothing ? "follow the centre of mass"
                                                              : "follow off");
       }},
      {K::pick_centre,
       [](App& app, const ui::Action&) {
         int w = 0, h = 0;
         app.target_size(w, h);
         const gfx::SpriteParams sp = gfx::sprite_params(app.m_camera, app.style(), w, h);
         // The middle of the view: the window's, moved right as the panel moves the scene.
         app.pick_at(0.5f * static_cast<float>(w) + app.style().center_shift_px,
                     0.5f * static_cast<float>(h), sp);
       }},
      // GL sprites and this machine's splat: CUDA's, else the CPU's
      {K::toggle_draw,
       [](App& app, const ui::Action&) {
         app.m_settings.draw = app.m_settings.draw != ui::DrawMethod::gl_sprites
                                   ? ui::DrawMethod::gl_sprites
                               : app.m_display.splat_ok ? ui::DrawMethod::cuda_splat
                                                        : ui::DrawMethod::cpu_splat;
         app.say(std::string("draw ") + app.draw_name());
       }},
      {K::set_draw,
       [](App& app, const ui::Action& a) {
         const auto method = static_cast<ui::DrawMethod>(a.value);
         if (method == ui::DrawMethod::cuda_splat && !app.m_display.splat_ok) {
           app.say("draw: the CUDA splat needs the zero-copy interop path");
           return;
         }
         app.m_settings.draw = method;
         app.say(std::string("draw ") + app.draw_name());
       }},
      {K::toggle_tree,
       [](App& app, const ui::Action&) {
         if (app.m_run->solver().all_pairs()) {
           app.say("tree overlay: " + app.m_run->solver().name() +
                   " has no tree (cpu-bh and cuda-bh do)");
           return;
         }
         app.m_settings.tree_overlay = !app.m_settings.tree_overlay;
         app.say(app.m_settings.tree_overlay
                     ? "tree overlay on (depth " + std::to_string(app.m_settings.tree_depth) + ")"
                     : "tree overlay off");
       }},
      {K::quit,
       [](App& app, const ui::Action&) {
         app.m_input.quit = true;
         app.say("quit");
       }},
  };
  // Every action has its row: a missing one is a mistake, found at the first action.
  static const bool whole = [] {
    for (int k = 0; k <= static_cast<int>(K::quit); ++k) {
      bool found = false;
      for (const Command& c : rows) found |= static_cast<int>(c.kind) == k;
      if (!found) throw std::logic_error("App::commands: no row for action " + std::to_string(k));
    }
    return true;
  }();
  (void)whole;
  return rows;
}

void App::apply(const ui::Action& a) {
  if (m_playback && playback_action(a)) return;
  if (m_ranks && rank_action(a)) return;
  for (const Command& c : commands())
    if (c.kind == a.kind) return c.run(*this, a);
  throw std::logic_error("App::apply: no command for action " +
                         std::to_string(static_cast<int>(a.kind)));
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
    m_run->reset(preset, n, m_settings.seed, m_opts.scene.radius, m_opts.preset_units);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "orrery: cannot restart with %d bodies: %s\n", n, e.what());
    m_run->reset(m_settings.preset, m_settings.n, m_settings.seed, m_opts.scene.radius,
                 m_opts.preset_units);
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
  if (!m_shown.readouts.alert.empty()) {  // the paused, non-finite state is gone: run the new one
    m_shown.readouts.alert.clear();
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
  m_shown.stats.restart_window();  // the sweep's own time is no frame rate
  m_shown.readouts.sweep = points;
  m_shown.readouts.sweep_label = c.name + ", N = " + std::to_string(m_run->count());
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
