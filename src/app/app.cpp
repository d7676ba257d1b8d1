// App set-up (context, render path, renderer, UI, simulation), the frame loop and the summary.
#include "app.h"

#include <GL/glew.h>
#include <GLFW/glfw3.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <optional>
#include <stdexcept>

#include "gfx/bloom.h"
#include "gfx/cuda_gl.h"
#include "gfx/gl_loader.h"
#include "gfx/screenshot.h"
#include "orrery/device.h"
#include "orrery/gpu_buffer.h"
#include "orrery/param_table.h"
#include "probe.h"
#include "ui/panel.h"

namespace orrery::app {
namespace {
std::string seconds_text(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f s", s);
  return buf;
}
}  // namespace

App::App(const Options& options, OutputFile screenshot, RankView* ranks)
    : m_opts(options), m_ranks(ranks) {
  m_capture.screenshot = std::move(screenshot);
  const gfx::SurfaceConfig surface{m_opts.width, m_opts.height, m_opts.vsync, "Orrery"};
  m_display.surface =
      m_opts.headless ? gfx::make_headless_surface(surface) : gfx::make_window_surface(surface);
  if (m_opts.headless) say("orrery: " + m_display.surface->description());
  if (GLFWwindow* w = m_display.surface->window()) {
    // Ours first: ImGui's GLFW backend chains to the callbacks installed before it.
    glfwSetWindowUserPointer(w, this);
    glfwSetKeyCallback(w, &App::on_key);
  }
  m_display.gl_description = gfx::gl_description();
  say("orrery: OpenGL: " + m_display.gl_description);
  gfx::require_offscreen_size(m_opts.width, m_opts.height);  // before anything runs
  choose_path();
  m_display.imgui = std::make_unique<ui::ImGuiLayer>(m_display.surface->window());
  m_display.renderer = std::make_unique<gfx::ParticleRenderer>();
  build_catalog();

  m_settings.vsync = m_opts.vsync;
  m_settings.show_panel = !m_opts.hide_panel;
  m_settings.hud = m_opts.hud == "minimal" ? ui::Settings::Hud::minimal
                   : m_opts.hud == "none"  ? ui::Settings::Hud::none
                                           : ui::Settings::Hud::full;
  m_settings.paused = m_opts.paused;
  m_settings.density_map = m_opts.mode == "density";
  m_settings.bloom = m_opts.bloom == "on";
  m_settings.point_radius = m_opts.point_radius;
  choose_draw();
  m_settings.seed = m_opts.seed;
  show_params(m_opts.params);
  m_valid_steps = m_opts.steps_per_frame;
  m_settings.steps_per_frame = m_opts.steps_per_frame;
  m_settings.preset = parse_preset(m_opts.preset);
  m_settings.integrator = parse_integrator(m_opts.integrator);
  const bool gpu = m_display.path != gfx::DevicePath::none;
  m_settings.n = m_opts.n > 0 ? m_opts.n : (gpu ? 16384 : 2048);
  std::string n_note = gpu ? " (default with a CUDA device; --n changes it)"
                           : " (default for CPU solvers; --n changes it)";
  m_settings.n_edit = m_settings.n;
  int index = catalog_index(m_opts.solver);
  if (index < 0) {  // a GPU solver, where a failed GL registration left CUDA unusable
    m_opts.block = 0;
    m_opts.solver = catalog_index("cpu-omp") >= 0 ? "cpu-omp" : m_catalog.solvers.front().name;
    index = catalog_index(m_opts.solver);
    say("orrery: the requested solver cannot run on this render path; using " + m_opts.solver);
  }
  m_settings.solver = index;
  m_settings.block = m_opts.block > 0 ? m_opts.block : default_block_size(m_opts.solver);
  m_settings.gpus = m_opts.gpus;

  if (m_opts.n == 0 && !m_opts.loaded)
    n_note = m_catalog.solvers[static_cast<std::size_t>(index)].gpu ? size_for_gpu(n_note)
                                                                    : size_for_cpu(n_note);
  m_run = std::make_unique<RunController>(m_display.path, parse_integrator(m_opts.integrator),
                                          m_opts.params);
  m_run->set_diagnostics_every(m_settings.diagnostics ? m_settings.diag_every : 0);
  m_run->set_solver(m_opts.solver, m_settings.block, gpus_in_use());
  if (!m_opts.note.empty()) say(m_opts.note);
  if (m_opts.loaded) {
    std::optional<BodyState> resized;  // the file's bodies, unless --radius changes them
    if (m_opts.scene.radius) {
      resized = m_opts.loaded->bodies;
      set_radius(resized->vel, *m_opts.scene.radius);
    }
    const BodyState& bodies = resized ? *resized : m_opts.loaded->bodies;
    // The command line's settings (the file's where none were typed), and the file's time.
    RunState run = m_opts.loaded->run;
    run.params = m_run->params();
    run.integrator = parse_integrator(m_opts.integrator);
    const auto upload_start = std::chrono::steady_clock::now();
    m_run->load(bodies, &run);
    take_types(*m_opts.loaded, m_opts.loaded_scene ? "" : m_opts.loaded_path);
    frame_bodies(true);
    m_files.loaded = m_opts.loaded;
    const std::string& p = m_opts.loaded_path;
    m_files.loaded_preset = m_opts.loaded_scene;
    if (m_files.loaded_preset)
      say("orrery: scene " + p + " (" + std::to_string(bodies.size()) + " bodies)");
    else
      say("orrery: loaded " + p + " (" + to_string(m_files.loaded->format) + ", " +
          std::to_string(bodies.size()) + " bodies, step " + std::to_string(run.steps) + ", time " +
          std::to_string(run.time) + "; read in " + seconds_text(m_opts.load_seconds) +
          ", on the " + (m_run->solver().on_device() ? "GPU" : "CPU") + " in " +
          seconds_text(
              std::chrono::duration<double>(std::chrono::steady_clock::now() - upload_start)
                  .count()) +
          ")");
  } else if (m_ranks) {
    start_ranks();
  } else {
    m_run->reset(m_settings.preset, m_settings.n, m_settings.seed, m_opts.scene.radius,
                 m_opts.preset_units);
  }
  if (!m_files.loaded) frame_bodies(false);  // a file framed itself
  if (!m_opts.series.empty()) start_playback();
  if (m_opts.series_plan) m_run->set_series(*m_opts.series_plan);
  start_camera_motion();
  m_colour.state_epoch = m_run->epoch();
  init_view_tools();
  say("orrery: solver " +
      ui::solver_label(m_catalog, m_settings.solver, m_settings.block, gpus_in_use()) + ", n " +
      std::to_string(m_settings.n) + (m_opts.n > 0 || m_opts.loaded ? "" : n_note) + ", preset " +
      (m_files.loaded ? std::string("(from the file)") : m_opts.preset) + ", integrator " +
      m_opts.integrator + ", " + params_text(m_run->params()));
}

App::~App() = default;

volatile std::sig_atomic_t g_stop_signal = 0;

std::string activity_text(float done, double seconds) {
  char buf[96];
  int len = std::snprintf(buf, sizeof buf, "stepping, %.0f%% (%.0f s", 100.0 * done, seconds);
  if (done > 0.01f && seconds > 1.0) {  // an estimate once there is something to go on
    const double left = seconds * (1.0 - done) / done;
    len += left < 120.0
               ? std::snprintf(buf + len, sizeof buf - len, ", about %.0f s left", left)
               : std::snprintf(buf + len, sizeof buf - len, ", about %.0f min left", left / 60.0);
  }
  std::snprintf(buf + len, sizeof buf - len, ")");
  return buf;
}

std::string params_text(const SimParams& p) {
  char buf[128];
  std::string s;
  if (p.adaptive) {
    std::snprintf(buf, sizeof buf, "dt auto (eta %g, at most %g), ", static_cast<double>(p.eta),
                  static_cast<double>(p.dt));
    s = buf;
  } else {
    std::snprintf(buf, sizeof buf, "dt %g, ", static_cast<double>(p.dt));
    s = buf;
  }
  s += plain_params_text(p);
  if (p.precision == Precision::double_) s += ", precision double";
  if (!p.gravity) s += ", gravity off";
  if (p.collisions.mode != CollisionMode::off) {
    s += std::string(", collisions ") + to_string(p.collisions.mode);
    if (p.collisions.mode == CollisionMode::bounce) {
      std::snprintf(buf, sizeof buf, " (restitution %g)",
                    static_cast<double>(p.collisions.restitution));
      s += buf;
    }
  }
  if (p.collisions.box > 0.0f) {
    std::snprintf(buf, sizeof buf, ", box %g", static_cast<double>(p.collisions.box));
    s += buf;
  }
  return s;
}

void App::choose_path() {
  if (!cuda_compiled()) {
    m_display.path = gfx::DevicePath::none;
    m_display.path_note = "this build has no CUDA: CPU solvers only";
  } else if (!device_present()) {
    m_display.path = gfx::DevicePath::none;
    m_display.path_note = device_info().reason + ": CPU solvers only";
  } else {
    m_display.path_note = gfx::cuda_gl_probe();
    m_display.path =
        m_display.path_note.empty() ? gfx::DevicePath::interop : gfx::DevicePath::staged;
    if (!m_display.path_note.empty())
      m_display.path_note = "the GL context is not on the CUDA device (" + m_display.path_note +
                            "): device buffers copied into the VBOs";
  }
  if (m_display.path == gfx::DevicePath::staged) {
    try {  // a failed registration must not have left CUDA unusable
      GpuBuffer<Vec4> check(16);
      device_synchronize();
    } catch (const std::exception& e) {
      m_display.path = gfx::DevicePath::none;
      m_display.path_note +=
          "; CUDA is unusable after that (" + std::string(e.what()) + "): CPU solvers only";
    }
  }
  say(std::string("orrery: render path: ") + gfx::to_string(m_display.path) +
      (m_display.path_note.empty() ? "" : " (" + m_display.path_note + ")"));
}

// auto: the CUDA splat where the zero-copy path runs; else, where OpenGL itself runs on the CPU
// (Mesa's llvmpipe), the CPU splat, which costs that CPU far less than rasterising point sprites
// (docs/benchmarks.md); else GL point sprites.
void App::choose_draw() {
  m_display.splat_ok = m_display.path == gfx::DevicePath::interop;
  const bool software_gl = gfx::software_renderer();
  if (m_opts.draw == "cuda" && !m_display.splat_ok)
    throw std::runtime_error(std::string("--draw cuda needs the zero-copy interop path, and the "
                                         "render path here is ") +
                             gfx::to_string(m_display.path) + " (use --draw gl, cpu or auto)");
  using ui::DrawMethod;
  if (m_opts.draw == "gl")
    m_settings.draw = DrawMethod::gl_sprites;
  else if (m_opts.draw == "cuda")
    m_settings.draw = DrawMethod::cuda_splat;
  else if (m_opts.draw == "cpu")
    m_settings.draw = DrawMethod::cpu_splat;
  else
    m_settings.draw = m_display.splat_ok ? DrawMethod::cuda_splat
                      : software_gl      ? DrawMethod::cpu_splat
                                         : DrawMethod::gl_sprites;
  const char* why = m_display.splat_ok ? " (D or --draw switches)"
                    : software_gl
                        ? " (OpenGL runs on the CPU here: D or --draw switches; the CUDA splat "
                          "needs the zero-copy path)"
                        : " (D or --draw switches; the CUDA splat needs the zero-copy path)";
  say(std::string("orrery: drawing: ") + draw_name() + why);
}

const char* App::draw_name() const {
  switch (m_settings.draw) {
    case ui::DrawMethod::cuda_splat:
      return "cuda-splat";
    case ui::DrawMethod::cpu_splat:
      return "cpu-splat";
    default:
      return "gl-sprites";
  }
}

void App::build_catalog() {
  for (const SolverInfo& s : available_solvers()) {
    if (s.gpu && m_display.path == gfx::DevicePath::none) continue;
    m_catalog.solvers.push_back({s.name, s.gpu, s.block_sizes, s.gpu && s.default_block == 0,
                                 s.approximate, s.spreads, s.description});
  }
  m_catalog.gpu_count = m_display.path == gfx::DevicePath::none ? 0 : device_count();
  m_catalog.presets = preset_names();
  m_catalog.integrators = integrator_names();
  m_catalog.quantities = quantity_names();
  m_catalog.palettes.assign(std::begin(gfx::k_palette_names), std::end(gfx::k_palette_names));
  for (const std::string& path : find_scenes()) {
    try {
      const SceneFile s = load_scene(path);
      m_catalog.scenes.push_back(s.name.empty() ? path : s.name);
      m_catalog.scene_paths.push_back(path);
    } catch (const std::exception& e) {
      say(std::string("orrery: scene skipped: ") + e.what());
    }
  }
}

int App::catalog_index(const std::string& name) const {
  for (std::size_t i = 0; i < m_catalog.solvers.size(); ++i)
    if (m_catalog.solvers[i].name == name) return static_cast<int>(i);
  return -1;
}

int App::run() {
  const long long limit =
      m_opts.frames > 0 ? m_opts.frames : (m_opts.headless ? k_headless_frames : 0);
  if (m_opts.headless && m_opts.frames == 0)
    say("orrery: headless: " + std::to_string(limit) + " frames (--frames changes it)");
  m_shown.stats.start();
  int stopped_by = 0;
  for (long long f = 0;; ++f) {
    stopped_by = g_stop_signal;
    if (stopped_by)
      say("orrery: signal " + std::to_string(stopped_by) + ": finishing the run's files, then exit");
    const bool last = (limit > 0 && f + 1 >= limit) || stopped_by;
    frame(f, last);
    if (last || m_input.quit) break;
  }
  glFinish();
  // Scripted keys the run ended before (one is applied a frame, from the second).
  const long long applied = std::max(0LL, m_shown.stats.frames() - 1);
  if (static_cast<long long>(m_opts.script.size()) > applied && !stopped_by && !m_input.quit)
    say("orrery: --keys: " + std::to_string(m_opts.script.size() - applied) + " of the " +
        std::to_string(m_opts.script.size()) + " keys were not applied: the run ended after " +
        std::to_string(m_shown.stats.frames()) + " frames (one key a frame, from the second)");
  char draw[160] = "n/a";
  if (m_shown.stats.implausible_gl_readings() > 0)
    std::snprintf(draw, sizeof draw,
                  "n/a (%lld GL timer readings were longer than their frames: this driver's "
                  "timer queries do not time)",
                  m_shown.stats.implausible_gl_readings());
  else if (m_shown.stats.mean_splat_ms() >= 0.0)
    std::snprintf(draw, sizeof draw, "%.3f ms/frame (%s %.3f, GL %.3f)",
                  m_shown.stats.mean_draw_ms(),
                  m_settings.density_map                         ? "density map"
                  : m_settings.draw == ui::DrawMethod::cpu_splat ? "CPU splat"
                                                                 : "CUDA splat",
                  m_shown.stats.mean_splat_ms(), m_shown.stats.mean_gl_ms());
  else if (m_shown.stats.mean_draw_ms() >= 0.0)
    std::snprintf(draw, sizeof draw, "%.3f ms/frame", m_shown.stats.mean_draw_ms());
  char diag[96] = "off";
  if (m_shown.diag_readings > 0)
    std::snprintf(diag, sizeof diag, "%lld readings, mean %.3f ms each (%s)", m_shown.diag_readings,
                  m_shown.diag_total_ms / static_cast<double>(m_shown.diag_readings),
                  m_run->timed_with_events() ? "CUDA events" : "CPU clock");
  else if (m_settings.diagnostics)
    std::snprintf(diag, sizeof diag, "no reading");
  const long long steps = m_ranks ? m_ranks_steps : m_run->steps_taken();  // over ranks: theirs
  char line[768];
  std::snprintf(
      line, sizeof line,
      "orrery: summary: %lld frames in %.2f s, mean %.1f FPS (%.3f ms/frame), %lld steps (%.1f "
      "a second), sim %.3f ms/frame, draw %s (means after the first frame), solver %s, n %d, "
      "path %s, drawing %s, integrator %s, diagnostics %s",
      m_shown.stats.frames(), m_shown.stats.elapsed_s(), m_shown.stats.mean_fps(),
      m_shown.stats.mean_fps() > 0 ? 1000.0 / m_shown.stats.mean_fps() : 0.0, steps,
      m_shown.stats.elapsed_s() > 0 ? static_cast<double>(steps) / m_shown.stats.elapsed_s() : 0.0,
      m_shown.stats.mean_sim_ms(), draw,
      ui::solver_label(m_catalog, m_settings.solver, m_settings.block, gpus_in_use()).c_str(),
      m_run->count(), m_run->buffers().path_name(),
      m_settings.density_map ? "density-map" : draw_name(), to_string(m_run->integrator()), diag);
  say(line);
  report_playback();
  m_run->finish_series();
  if (const std::string e = m_run->take_series_error(); !e.empty())
    say("orrery: series stopped (every output before is whole): " + e);
  if (const SeriesWriter* w = m_run->series())
    say("orrery: series: " + std::to_string(w->written()) + " outputs" +
        (w->written() > 0 ? ", the last " + w->last_file() : std::string()));
  say("orrery: view: " + view_options());
  if (m_density.ms >= 0.0f) {
    fill_density_legend();
    const ui::LegendReadout& l = m_shown.readouts.legend;
    char map[256];
    std::snprintf(map, sizeof map,
                  "orrery: density map: %d bodies on %d x %d pixels, the newest in %.1f ms (%s); "
                  "surface density %.4g to %.4g %s",
                  m_run->count(), m_density.params.width, m_density.params.height, m_density.ms,
                  m_density.device ? "GPU" : "CPU", static_cast<double>(l.lo),
                  static_cast<double>(l.hi), l.unit.c_str());
    say(map);
  }
  if (!m_capture.output_error.empty()) {  // after the summary: nothing the run measured is lost
    std::fprintf(stderr, "orrery: error: %s\n", m_capture.output_error.c_str());
    return 1;
  }
  return stopped_by ? 128 + stopped_by : 0;
}

// The collision stage's counts for the panel (every few frames: on the GPU a reading waits).
void App::check_blowup() {
  const std::optional<Blowup> b = m_run->take_blowup();
  if (!b) return;
  m_settings.paused = true;
  std::string at = "at step " + std::to_string(b->step);
  if (b->last_finite < b->step - 1)
    at = "between steps " + std::to_string(b->last_finite + 1) + " and " + std::to_string(b->step);
  std::string parts;
  if (const auto r = m_run->read_body(static_cast<int>(b->body)))
    parts = nonfinite_parts(r->pos, r->vel);
  m_shown.readouts.alert = "non-finite state " + at + " (body " + std::to_string(b->body) +
                           (parts.empty() ? "" : ": " + parts) +
                           "): paused; R or Reset starts again";
  say("orrery: " + m_shown.readouts.alert);
}

// The panel's sliders keep their ranges, but Ctrl+click types any value: one that fails the
// shared rules is refused (the last valid value comes back, and a line says why), never clamped.
void App::keep_params_valid() {
  SimParams p = m_settings.params;
  p.collisions.box = m_settings.walls ? m_settings.box : 0.0f;
  if (p != m_run->params()) {  // checked once, when the panel changed them
    try {
      // Over ranks only the step's size, softening, damping and theta reach the ranks.
      if (m_ranks &&
          (p.adaptive != m_run->params().adaptive || p.gravity != m_run->params().gravity ||
           p.collisions != m_run->params().collisions || p.precision != m_run->params().precision))
        throw InputError(
            "over ranks the adaptive step, gravity, collisions, walls and double "
            "precision are not built: the run keeps its settings");
      m_run->set_params(p);  // the shared rules, and the integrator's (damping: euler only)
    } catch (const std::exception& e) {
      say(std::string("orrery: refused: ") + e.what());
      show_params(m_run->params());
    }
  }
  if (m_settings.steps_per_frame < 1 || m_settings.steps_per_frame > 1000) {
    say("orrery: refused: steps per frame " + std::to_string(m_settings.steps_per_frame) +
        " is outside 1 to 1000");
    m_settings.steps_per_frame = m_valid_steps;
  }
  m_valid_steps = m_settings.steps_per_frame;
  m_run->set_diagnostics_every(m_settings.diagnostics ? std::max(m_settings.diag_every, 1) : 0);
}

gfx::RenderStyle App::style() const {
  gfx::RenderStyle st;
  st.radius = m_settings.point_radius;
  st.exposure = m_settings.exposure;
  st.color = color_map();
  st.mass_ref = m_run->mass_reference();
  st.spheres = m_run->params().collisions.mode != CollisionMode::off;
  // Centre the scene in the space right of the panel (half the panel's width), while it shows.
  st.center_shift_px = m_settings.show_panel ? 0.5f * m_display.panel_right : 0.0f;
  // Fewer bodies draw brighter so the picture reads the same at any N: as 1/sqrt(N) up to 65536,
  // then as N^-0.75, since past that the disks' centres, where sprites pile up, saturate first
  // (a 4M-body collision was white).
  const float n = static_cast<float>(std::max(m_run->count(), 1));
  float scale = std::sqrt(16384.0f / n);
  if (n > 65536.0f) scale = 0.5f * std::pow(65536.0f / n, 0.75f);
  st.intensity = 0.6f * m_settings.brightness * std::min(scale, 8.0f);
  // Balls cover their whole disc, where a sprite's glow is mostly a small core. A gas of them at a
  // fixed volume fraction is seen through about N^(1/3) balls a pixel: dimmer as that grows.
  st.sphere_intensity = 0.3f * m_settings.brightness * std::cbrt(4096.0f / n);
  st.bloom = m_settings.bloom ? gfx::k_bloom_default : 0.0f;
  return st;
}

SimParams App::sim_params() const { return m_run->params(); }

// The panel's parameter controls from parameters.
void App::show_params(const SimParams& p) {
  m_settings.params = p;
  show_scene(p);
}

// The panel's gravity and collision controls from parameters.
void App::show_scene(const SimParams& p) {
  m_settings.params.gravity = p.gravity;
  m_settings.params.collisions = p.collisions;
  m_settings.walls = p.collisions.box > 0.0f;
  if (p.collisions.box > 0.0f) m_settings.box = p.collisions.box;
}

void App::say(const std::string& line) const {
  std::fputs(line.c_str(), stdout);
  std::fputc('\n', stdout);
  std::fflush(stdout);
}

}  // namespace orrery::app
