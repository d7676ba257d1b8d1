// The frame loop's frame: input, the run's steps and the device work in one mapping, the UI, the
// GL drawing and overlays, the frame's outputs.
#include <GL/glew.h>

#include <chrono>
#include <cmath>
#include <cstdio>

#include "app.h"
#include "gfx/screenshot.h"
#include "orrery/device.h"
#include "ui/panel.h"
#include "ui/panel_view.h"

namespace orrery::app {

// One frame, as imgui's example_glfw_opengl3 loop reads: poll, new frame, advance the run, build
// the UI, render, then the frame's outputs and the swap.
void App::frame(long long index, bool last) {
  poll(index);
  FrameView v = new_frame(index);
  v.sim_ms = device_work(v);
  values_and_trails_on_host(last);
  check_blowup();
  build_ui(index, v);
  read_tree();
  // The CPU path's next steps run while this frame draws: what the frame reads of the state is
  // read by now. (On 2 cores with Mesa's llvmpipe: 29.5-31.4 steps a second at the default N
  // against 25.8-28.1 waiting, docs/benchmarks.md.) Over ranks the run here never steps: its worker
  // would step the sample for nothing, beside the ranks' steps (it took half the frame).
  if (!m_ranks && !m_run->solver().on_device() && !m_settings.paused && !last && !m_input.quit)
    m_run->start_next_host(m_settings.steps_per_frame);
  render(v);
  finish_frame(index, last, v);
}

// Window events, keys, the scripted keys (--keys: one a frame from the second) and the actions.
void App::poll(long long index) {
  m_display.surface->poll_events();
  if (m_display.surface->should_close()) m_input.quit = true;
  handle_keys();
  const auto scripted = static_cast<std::size_t>(index - 1);
  if (index >= 1 && scripted < m_opts.script.size())
    m_input.actions.push_back(m_opts.script[scripted]);
  std::vector<ui::Action> actions;
  actions.swap(m_input.actions);
  for (const ui::Action& a : actions) apply(a);
}

// The UI's new frame, the camera from this frame's input (before the splat, which draws with it),
// following, and a click's pick.
App::FrameView App::new_frame(long long index) {
  FrameView v;
  target_size(v.w, v.h);
  m_display.imgui->begin_frame(v.w, v.h, m_shown.stats.last_frame_ms() * 1e-3f);
  ui::CameraInput in;
  if (m_display.surface->window()) {  // input only where there is a window
    in = m_display.imgui->camera_input();
    m_camera.orbit(in.orbit_dx, in.orbit_dy);
    m_camera.pan(in.pan_dx, in.pan_dy, v.h);
    m_camera.zoom(in.zoom);
  }
  if (m_run->epoch() != m_colour.state_epoch) on_new_state();
  drive_camera(index);
  follow_and_read();  // the camera follows the body as it was after the last frame's steps
  v.style = style();
  v.sprites = gfx::sprite_params(m_camera, v.style, v.w, v.h);
  if (in.click) pick_at(in.click_x, in.click_y, v.sprites);
  mark_pick(v.sprites);
  return v;
}

// The readouts and the panel (or the overlay), timed as the UI's work.
void App::build_ui(long long index, FrameView& v) {
  const auto start = std::chrono::steady_clock::now();
  fill_readouts(index);
  const ViewParams shown = m_settings.view = camera_view();
  using Hud = ui::Settings::Hud;
  m_display.panel_right = 0.0f;
  if (m_settings.hud == Hud::minimal)
    ui::draw_minimal_hud(m_shown.readouts);
  else if (m_settings.hud == Hud::none)
    ;  // the bodies alone
  else if (m_settings.show_panel)
    m_display.panel_right =
        ui::draw_panel(m_settings, m_shown.readouts, m_catalog, m_input.actions);
  else
    ui::draw_overlay(m_settings, m_shown.readouts, m_catalog);
  keep_view_valid(shown);
  keep_params_valid();
  v.ui_ms = std::chrono::duration<float, std::milli>(std::chrono::steady_clock::now() - start).count();
}

void App::fill_readouts(long long index) {
  m_shown.stats.fill(m_shown.readouts);
  m_shown.readouts.solver_config = m_run->solver().config();
  m_shown.readouts.tree_code = !m_run->solver().all_pairs();
  m_shown.readouts.render_path = m_run->buffers().path_name();
  m_shown.readouts.path_note = m_display.path_note;
  m_shown.readouts.sim_ms_from_events = !m_ranks && m_run->timed_with_events();  // ranks: a clock
  m_shown.readouts.gpu_name =
      device_present() ? device_info().name : "none (" + device_info().reason + ")";
  m_shown.readouts.gl_renderer = m_display.gl_description;
  if (device_present() && (m_shown.readouts.gpu_memory.empty() || index % 60 == 0)) {
    const double total = static_cast<double>(device_info().total_mem) / 1073741824.0;
    const double used = total - static_cast<double>(device_free_memory()) / 1073741824.0;
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.1f of %.1f GiB in use", used, total);
    m_shown.readouts.gpu_memory = buf;
  }
  m_shown.readouts.splat_available = m_display.splat_ok;
  m_shown.readouts.draw_method = draw_name();
  m_shown.readouts.activity.clear();
  if (m_run->stepping())
    m_shown.readouts.activity = activity_text(m_run->step_progress(), m_run->step_running_s());
  poll_load();
  fill_diagnostics();
  // An auto range follows the state: refitted about twice a second of frames.
  if (m_settings.color_auto && index % k_refit_frames == k_refit_frames - 1) fit_color_range(false);
  fill_legend();
  if (m_settings.hud == ui::Settings::Hud::minimal) fill_hud();
  if (index % 10 == 0 || m_shown.readouts.collisions.bodies == 0) fill_collisions();
  fill_step();
}

void App::fill_step() {
  ui::StepReadout& r = m_shown.readouts.step;
  const SimParams& p = m_run->params();
  r.adaptive = p.adaptive;
  if (!p.adaptive) {
    r.history.clear();
    m_shown.dt_steps_seen = -1;
    return;
  }
  r.dt = m_run->next_dt();
  r.floor_hits = m_run->floor_hits();
  const long long steps = m_run->step_count();
  if (steps != m_shown.dt_steps_seen && r.dt > 0) {
    if (steps < m_shown.dt_steps_seen) r.history.clear();  // a new run
    m_shown.dt_steps_seen = steps;
    if (r.history.size() >= 240) r.history.erase(r.history.begin());
    r.history.push_back(static_cast<float>(std::log10(r.dt)));
  }
  if (r.floor_hits < m_shown.floor_said) m_shown.floor_said = 0;  // a new run counts again
  if (m_shown.floor_said == 0 && r.floor_hits > 0) {
    char line[200];
    std::snprintf(line, sizeof line,
                  "orrery: the adaptive step reached its floor (%g, a millionth of the largest "
                  "step) at t = %g: those steps no longer follow the dynamics; a larger softening "
                  "or eta avoids it",
                  k_min_dt_fraction * p.dt, m_run->sim_time());
    say(line);
  }
  m_shown.floor_said = r.floor_hits;
}

// GL: copy the CUDA picture, or draw GL sprites and tone-map; the overlays; then the panel.
void App::render(FrameView& v) {
  using Clock = std::chrono::steady_clock;
  const GLuint target = target_framebuffer();
  m_display.draw_timer.begin();
  if (m_settings.density_map) {
    draw_density(v, target);
  } else if (v.splatted) {
    m_display.renderer->draw_splatted(target, v.w, v.h);
  } else if (m_settings.draw == ui::DrawMethod::cpu_splat) {
    gfx::ParticleRenderer::CpuTrails trails;
    if (m_colour.trails)
      trails = {m_colour.trails->buffer(), m_colour.trails->bodies(), m_colour.trails->length(),
                m_colour.trails->head(),   m_colour.trails->filled(), trail_intensity(v.style)};
    const gfx::BodyBuffers& b = m_run->buffers();
    m_display.renderer->draw_cpu(b.position_buffer(), b.velocity_buffer(), b.value_buffer(),
                                 m_run->count(), v.sprites, v.style.exposure, target, b.version(),
                                 m_colour.trails ? &trails : nullptr);
  } else {
    gfx::TrailDraw trails;
    if (m_colour.trails)
      trails = {m_colour.trails->texture(), m_colour.trails->bodies(), m_colour.trails->length(),
                m_colour.trails->head(),    m_colour.trails->filled(), trail_intensity(v.style)};
    m_display.renderer->draw(m_run->buffers().vertex_array(), m_run->count(), v.sprites,
                             v.style.exposure, target, m_run->buffers().version(),
                             m_colour.trails ? &trails : nullptr);
  }
  draw_overlays(target, v.sprites);
  const auto render_start = Clock::now();
  m_display.imgui->end_frame();
  v.ui_ms += std::chrono::duration<float, std::milli>(Clock::now() - render_start).count();
  m_display.draw_timer.end();
  // The splat runs on CUDA's stream, before and outside the GL timer: its time adds to GL's.
  m_shown.readouts.splat_ms = m_settings.density_map ? m_density.ms
                              : v.splatted           ? m_display.renderer->last_splat_ms()
                              : m_settings.draw == ui::DrawMethod::cpu_splat
                                  ? m_display.renderer->last_cpu_splat_ms()
                                  : -1.0f;
  m_shown.stats.record_draw(m_display.draw_timer.last_ms(), m_shown.readouts.splat_ms);
  gfx::check_gl("drawing a frame");
  record_phases(v.ui_ms);
}

// Recording, the run's outputs after the last frame, screenshots, then the swap.
void App::finish_frame(long long index, bool last, const FrameView& v) {
  if (index == 0 && !m_opts.record.empty()) start_recording(m_opts.record);
  if (m_capture.recorder) record_frame();
  if (last || m_input.quit) {
    write_run_outputs();
    stop_recording();
  }
  if ((last || m_input.quit) && m_capture.screenshot.is_open()) {
    try {
      save_screenshot(m_capture.screenshot);
    } catch (const std::exception& e) {
      m_capture.output_error = e.what();
    }
  }
  if (m_capture.screenshot_now) {
    m_capture.screenshot_now = false;
    try {
      OutputFile file = OutputFile::open(timestamped_name(".png"), "screenshot");
      save_screenshot(file);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "orrery: %s\n", e.what());
      m_capture.output_error = e.what();  // F12's lost screenshot is exit 1, as --screenshot's is
    }
  }
  m_display.surface->present();
  m_shown.stats.record(v.sim_ms, m_ranks ? m_ranks_interactions : m_run->last_interactions());
}

// The frame's steps (unless paused) and, with the CUDA splat, its picture, in one mapping of the
// VBOs and the picture. Returns the solver time to record (negative: none); v.splatted says
// whether the CUDA picture was made.
float App::device_work(FrameView& v) {
  if (m_playback) play_frame();
  if (m_ranks) rank_frame();
  if (const std::string e = m_run->take_series_error(); !e.empty()) {
    say("orrery: series stopped, the run paused (every output before is whole): " + e);
    m_settings.paused = true;
  }
  const int steps = m_settings.paused ? 1 : m_settings.steps_per_frame;
  const gfx::SpriteParams& sp = v.sprites;
  const gfx::RenderStyle& st = v.style;
  // The frame's device work on the newest state, in the steps' mapping (the interop path): the
  // colour values and trails, then the CUDA splat; the picture and the trails' ring are mapped in
  // the same call as the VBOs.
  gfx::CudaGlBuffers::Group extra;
  gfx::CudaGlBuffers* image = splat_image(sp.width, sp.height);
  if (image) extra.push_back({image, {gfx::MapAccess::write_discard}});
  gfx::CudaGlBuffers* ring = m_colour.trails ? m_colour.trails->registration() : nullptr;
  if (ring) extra.push_back({ring, {gfx::MapAccess::read_write}});
  const bool values = values_needed();
  const bool interop = m_display.path == gfx::DevicePath::interop;
  const bool extras = interop && (image || ring || (values && values_on_device()));
  const auto draw_extras = [&](gfx::Mapping& m) {
    values_and_trails_on_device(m);
    if (!image) return;
    gfx::TrailRing trail;
    if (ring) trail = m_colour.trails->device_ring();
    m_display.renderer->splat(m.bodies().pos, m.bodies().vel, values ? m.values() : nullptr,
                              m_run->count(), sp, st.exposure, ring ? &trail : nullptr,
                              trail_intensity(st));
  };
  v.splatted = image != nullptr;
  const bool stepping = !m_ranks && (!m_settings.paused || m_input.step_once);  // ranks: theirs
  m_input.step_once = false;
  if (m_run->solver().on_device() && (stepping || extras)) {  // map, step, draw overlays, unmap
    gfx::Mapping m = m_run->buffers().map(stepping ? steps : 0,
                                          extras ? extra : gfx::CudaGlBuffers::Group{});
    if (stepping)
      m_run->step_mapped(steps, m);
    else
      m_run->idle();
    if (extras) draw_extras(m);
  } else {  // a CPU run on the worker; the overlays on the published state
    if (stepping)
      m_run->step_host(steps);
    else
      m_run->idle();
    if (extras) {
      gfx::Mapping m = m_run->buffers().map_for_drawing(extra);
      draw_extras(m);
    }
  }
  return m_ranks ? m_ranks_ms : m_run->last_sim_ms();
}

gfx::CudaGlBuffers* App::splat_image(int w, int h) {
  if (m_settings.draw != ui::DrawMethod::cuda_splat || m_settings.density_map || w <= 0 || h <= 0)
    return nullptr;
  try {
    // Headless, CUDA writes the offscreen image itself; a window's framebuffer gets a blit.
    return &m_display.renderer->splat_image(w, h, m_display.surface->direct_texture());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "orrery: the CUDA splat cannot draw (%s); drawing GL sprites\n", e.what());
    m_settings.draw = ui::DrawMethod::gl_sprites;
    m_display.splat_ok = false;
    say(std::string("draw ") + draw_name());
    return nullptr;
  }
}

// The tree overlay's boxes: the tree code's cells of its last pass, read while no CPU step runs.
void App::read_tree() {
  if (!m_settings.tree_overlay) return;
  if (m_run->solver().all_pairs()) {  // switched to an exact solver: nothing to draw
    m_settings.tree_overlay = false;
    return;
  }
  m_overlays.read_tree(*m_run, m_settings.tree_depth);
}

// The tree, the walls and a loaded file's box over the picture.
void App::draw_overlays(GLuint target, const gfx::SpriteParams& sp) {
  m_shown.readouts.tree_boxes = m_settings.tree_overlay ? m_overlays.draw_tree(target, sp) : 0;
  m_overlays.draw_walls(m_run->params().collisions.box, target, sp);
  if (m_settings.file_box) m_overlays.draw_file_box(m_files.box_side, target, sp);
}

void App::save_screenshot(OutputFile& file) {
  int w = 0, h = 0;
  target_size(w, h);
  gfx::save_png(file, target_framebuffer(), w, h);
  say("screenshot " + file.path());
}

void App::target_size(int& w, int& h) const { m_display.surface->size(w, h); }

GLuint App::target_framebuffer() const { return m_display.surface->framebuffer(); }

}  // namespace orrery::app
