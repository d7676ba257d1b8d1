// The viewer's watching tools: colour by quantity (values on the device inside the frame's
// mapping, or on the host), the legend's range from percentiles, trails, picking, following, and
// the camera's view rows (where it starts, what the panel shows and moves).
#include <cmath>
#include <cstdio>
#include <glm/trigonometric.hpp>
#include <utility>

#include "app.h"
#include "gfx/color_range.h"
#include "gfx/colormap.h"
#include "orrery/fields.h"
#include "orrery/param_table.h"

namespace orrery::app {
namespace {

constexpr std::size_t k_fit_sample = 1 << 17;

}  // namespace

void App::init_view_tools() {
  set_color(static_cast<int>(parse_quantity(m_opts.color)), false);
  for (int k = 0; k < gfx::k_palette_count; ++k)
    if (m_opts.palette == gfx::k_palette_names[k]) m_settings.palette = k;
  if (!m_opts.color_scale.empty()) m_settings.color_log = m_opts.color_scale == "log";
  if (m_opts.color_range) {
    m_settings.color_auto = false;
    m_settings.color_lo = m_opts.color_range->first;
    m_settings.color_hi = m_opts.color_range->second;
    if (!(m_settings.color_lo > 0.0f)) m_settings.color_log = false;  // a log scale needs lo > 0
  }
  m_settings.trail_bodies = m_opts.trail_bodies;
  if (m_opts.trails > 0) {
    m_settings.trail_length = m_settings.trail_length_on = m_opts.trails;
    configure_trails();
  }
}

gfx::ColorMap App::color_map() const {
  gfx::ColorMap c = gfx::color_map_of(quantity_info(m_settings.color_quantity));
  c.palette = m_settings.palette;
  c.log_scale = m_settings.color_log ? 1 : 0;
  c.lo = m_settings.color_lo;
  c.hi = m_settings.color_hi;
  return c;
}

void App::set_color(int quantity, bool announce) {
  const int count = static_cast<int>(quantity_names().size());
  quantity = ((quantity % count) + count) % count;
  m_settings.color_quantity = static_cast<Quantity>(quantity);
  const QuantityInfo& info = quantity_info(m_settings.color_quantity);
  m_settings.palette = gfx::palette_index(info.palette);  // the palette and scale it starts with
  m_settings.color_log = info.log_scale;
  m_colour.values_quantity.reset();  // values to compute
  m_colour.value_job.cancel();       // of the quantity before
  if (m_settings.color_auto) fit_color_range(false);
  if (announce) {
    char buf[160];
    std::snprintf(buf, sizeof buf, "color %s (%s, %s %g to %g)", quantity_names()[quantity].c_str(),
                  gfx::k_palette_names[m_settings.palette], m_settings.color_log ? "log" : "linear",
                  static_cast<double>(m_settings.color_lo),
                  static_cast<double>(m_settings.color_hi));
    say(buf);
  }
}

void App::fit_color_range(bool announce) {
  const auto q = m_settings.color_quantity;
  if (quantity_info(q).label) return;  // labels: no range
  std::vector<float> values;
  bool have = false;
  if (quantity_stored(q) && m_colour.values_quantity == m_settings.color_quantity &&
      !m_run->stepping()) {
    m_run->buffers().download_values(values);  // made this frame already: no second evaluation
    have = true;
  }
  const QuantityInfo& info = quantity_info(q);
  if (!have && !values_on_device() && info.source != ValueSource::stored) {
    // Read by the sprite from the state itself (speed, mass): from the published host arrays, or
    // once the first state is published. (Without this the CPU path never fitted speed.)
    if (!m_run->buffers().host_current()) {
      m_colour.fit_pending = true;
      m_colour.fit_announce = m_colour.fit_announce || announce;
      return;
    }
    const int n = m_run->count();
    values.resize(static_cast<std::size_t>(n));
    if (info.source == ValueSource::velocity)
      host_speeds(m_run->buffers().host_vel(), n, values.data());
    else
      host_masses(m_run->buffers().host_pos(), n, values.data());
    have = true;
  }
  if (!have && !values_on_device()) {
    // The host path: the values the worker made for this state, else a fit once they arrive (a
    // force pass here would hold the window).
    if (m_colour.values_quantity == q && m_colour.values_version == m_run->buffers().version() &&
        m_colour.values_host.size() >= static_cast<std::size_t>(m_run->count())) {
      values.assign(m_colour.values_host.begin(), m_colour.values_host.begin() + m_run->count());
      have = true;
    } else {
      m_colour.fit_pending = true;
      m_colour.fit_announce = m_colour.fit_announce || announce;
      return;
    }
  }
  // A strided sample from the device (the fit samples anyway): 16M bodies' values are 64 MB, and
  // copying them all took 45 ms every half second.
  if (!have)
    have = m_run->quantity_host(q, values,
                                std::max(1, m_run->count() / static_cast<int>(k_fit_sample)));
  fit_range_to(std::move(values), have, announce);
}

void App::fit_range_to(std::vector<float> values, bool have, bool announce) {
  float lo = 0, hi = 0;
  if (values.size() > k_fit_sample) {  // a strided sample is plenty for percentiles
    const std::size_t stride = values.size() / k_fit_sample;
    for (std::size_t i = 0; i < k_fit_sample; ++i) values[i] = values[i * stride];
    values.resize(k_fit_sample);
  }
  if (!have || !gfx::percentile_range(std::move(values), m_settings.color_lo_pct,
                                      m_settings.color_hi_pct, m_settings.color_log, lo, hi)) {
    if (announce) say("color: no range to fit now (a CPU step in flight, or no values > 0)");
    return;
  }
  m_settings.color_lo = lo;
  m_settings.color_hi = hi;
  if (announce) {
    char buf[128];
    std::snprintf(buf, sizeof buf, "color range %g to %g (percentiles %g to %g)",
                  static_cast<double>(lo), static_cast<double>(hi),
                  static_cast<double>(m_settings.color_lo_pct),
                  static_cast<double>(m_settings.color_hi_pct));
    say(buf);
  }
}

void App::configure_trails() {
  if (m_settings.trail_length < 2) {
    m_colour.trails.reset();
    m_shown.readouts.trails.clear();
    return;
  }
  try {
    if (!m_colour.trails)
      m_colour.trails = std::make_unique<gfx::Trails>(m_display.path == gfx::DevicePath::interop);
    m_colour.trails->configure(m_settings.trail_length, m_settings.trail_bodies, m_run->count());
    if (m_settings.trail_bodies > m_run->count() && !m_colour.trail_bodies_said) {
      say("orrery: --trail-bodies " + std::to_string(m_settings.trail_bodies) + " is more than the " +
          std::to_string(m_run->count()) + " bodies: every body has a trail");
      m_colour.trail_bodies_said = true;
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "orrery: cannot keep trails: %s\n", e.what());
    m_colour.trails.reset();
    m_settings.trail_length = 0;
    m_shown.readouts.trails.clear();
    return;
  }
  m_colour.trail_version = 0;
  char mib[32];
  std::snprintf(mib, sizeof mib, "%.1f MiB",
                static_cast<double>(m_colour.trails->bytes()) / 1048576.0);
  m_shown.readouts.trails = std::to_string(m_colour.trails->length()) + " positions of " +
                            std::to_string(m_colour.trails->bodies()) + " bodies (" + mib + ")";
}

void App::on_new_state() {
  m_colour.state_epoch = m_run->epoch();
  m_colour.values_quantity.reset();
  m_colour.value_job.cancel();  // of the state before
  if (m_colour.trails) configure_trails();
  m_settings.picked = -1;
  m_shown.readouts.pick = ui::PickReadout{};
  if (m_settings.follow == ui::Follow::picked_body) m_settings.follow = ui::Follow::nothing;
  if (m_settings.color_auto) fit_color_range(false);
}

bool App::values_needed() const {
  const auto q = m_settings.color_quantity;
  return quantity_stored(q);
}

bool App::values_on_device() const {
  return m_display.path == gfx::DevicePath::interop && m_run->solver().on_device() &&
         !quantity_info(m_settings.color_quantity).label;
}

void App::values_and_trails_on_device(gfx::Mapping& m) {
  const std::uint64_t version = m_run->buffers().version();
  const auto q = m_settings.color_quantity;
  if (values_needed() && values_on_device() &&
      (version != m_colour.values_version ||
       m_colour.values_quantity != m_settings.color_quantity)) {
    m_run->quantity_mapped(q, m);
    m_colour.values_version = version;
    m_colour.values_quantity = m_settings.color_quantity;
  }
  if (m_colour.trails && m_colour.trails->registration() && version != m_colour.trail_version) {
    const float* values = values_needed() ? m.values() : nullptr;
    m_colour.trails->append_device(m.bodies().pos, m.bodies().vel, values, m_run->count(),
                                   color_map());
    m_colour.trail_version = version;
  }
}

void App::values_and_trails_on_host(bool last) {
  const std::uint64_t version = m_run->buffers().version();
  const auto q = m_settings.color_quantity;
  const bool label = quantity_info(q).label;
  const bool fresh = label ? m_colour.values_quantity != m_settings.color_quantity
                           : version != m_colour.values_version ||
                                 m_colour.values_quantity != m_settings.color_quantity;
  auto arrive = [&] {
    if (!m_colour.value_job.active() || !(m_colour.value_job.done() || last)) return;
    Quantity made = q;
    std::uint64_t made_from = 0;
    try {
      std::vector<float> v = m_colour.value_job.take(made, made_from);
      // Values of a state a few steps old still colour the newest one (same bodies, same N).
      if (made == q && v.size() == static_cast<std::size_t>(m_run->count())) {
        m_colour.values_host = std::move(v);
        m_run->buffers().upload_values(m_colour.values_host.data(), m_run->count());
        m_colour.values_version = made_from;
        m_colour.values_quantity = made;
        if (m_colour.fit_pending) {
          m_colour.fit_pending = false;
          fit_range_to(m_colour.values_host, true, std::exchange(m_colour.fit_announce, false));
        }
      }
    } catch (const std::exception& e) {
      std::fprintf(stderr, "orrery: cannot colour by %s: %s\n", quantity_names()[static_cast<int>(q)].c_str(), e.what());
      for (const QuantityInfo& other : quantity_table())  // the first that needs no values
        if (other.source != ValueSource::stored) {
          set_color(static_cast<int>(other.id), true);
          break;
        }
    }
  };
  arrive();
  // A fit that waited for the first published state, of a quantity the state itself holds.
  if (m_colour.fit_pending && !quantity_stored(q) && m_run->buffers().host_current()) {
    m_colour.fit_pending = false;
    fit_color_range(std::exchange(m_colour.fit_announce, false));
  }
  // Origin labels are kept by the controller, apart from the state: no need to wait for a run.
  if (values_needed() && !values_on_device() && fresh && label) {
    if (m_run->quantity_host(q, m_colour.values_host)) {
      m_run->buffers().upload_values(m_colour.values_host.data(), m_run->count());
      m_colour.values_version = version;
      m_colour.values_quantity = m_settings.color_quantity;
    }
  } else if (values_needed() && !values_on_device() && fresh && !m_colour.value_job.active()) {
    if (m_run->buffers().host_current()) {
      const int n = m_run->count();
      BodyState s;
      s.pos.assign(m_run->buffers().host_pos(), m_run->buffers().host_pos() + n);
      s.vel.assign(m_run->buffers().host_vel(), m_run->buffers().host_vel() + n);
      m_colour.value_job.start(m_run->solver().name(), m_run->params(), std::move(s), q, version);
    }
  }
  if (last) arrive();  // the last frame (its screenshot) waits for its colours
  if (m_colour.trails && !m_colour.trails->registration() && version != m_colour.trail_version &&
      m_run->buffers().host_current()) {
    const bool values =
        values_needed() && m_colour.values_host.size() >= std::size_t(m_run->count());
    m_colour.trails->append_host(m_run->buffers().host_pos(), m_run->buffers().host_vel(),
                                 values ? m_colour.values_host.data() : nullptr, m_run->count(),
                                 color_map());
    m_colour.trail_version = version;
  }
}

float App::trail_intensity(const gfx::RenderStyle& st) const {
  // A trail pixel is lit by one segment where a sprite's core is lit by the sprite: about a
  // quarter of a light sprite's peak, scaled with it by N.
  return 0.25f * st.intensity * m_settings.trail_brightness;
}

void App::pick_at(float x, float y_from_top, const gfx::SpriteParams& sp) {
  const int found =
      m_run->pick(sp, x, static_cast<float>(sp.height) - y_from_top, k_pick_radius_px);
  m_settings.picked = found;
  if (found < 0) {
    m_shown.readouts.pick = ui::PickReadout{};
    if (m_settings.follow == ui::Follow::picked_body) m_settings.follow = ui::Follow::nothing;
    say("pick: no body within " + std::to_string(static_cast<int>(k_pick_radius_px)) + " px");
    return;
  }
  say("pick body " + std::to_string(found));
}

void App::follow_and_read() {
  if (m_settings.picked >= m_run->count()) m_settings.picked = -1;  // merged away
  std::optional<RunController::BodyReading> body;
  if (m_settings.picked >= 0) body = m_run->read_body(m_settings.picked);
  if (m_settings.follow == ui::Follow::picked_body && body) {
    m_camera.set_target({body->pos.x, body->pos.y, body->pos.z});
  } else if (m_settings.follow == ui::Follow::centre_of_mass) {
    if (const auto c = m_run->centre_of_mass()) m_camera.set_target({c->x, c->y, c->z});
  }
  ui::PickReadout& r = m_shown.readouts.pick;
  if (!body) {
    if (m_settings.picked < 0) r = ui::PickReadout{};
    return;
  }
  r.valid = true;
  r.index = m_settings.picked;
  r.mass = body->pos.w;
  const float p[3] = {body->pos.x, body->pos.y, body->pos.z};
  const float v[3] = {body->vel.x, body->vel.y, body->vel.z};
  const float a[3] = {body->acc.x, body->acc.y, body->acc.z};
  for (int k = 0; k < 3; ++k) r.pos[k] = p[k], r.vel[k] = v[k], r.acc[k] = a[k];
  r.speed = std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
  r.acc_mag = std::sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
}

void App::mark_pick(const gfx::SpriteParams& sp) {
  ui::PickReadout& r = m_shown.readouts.pick;
  if (!r.valid) return;
  float sx = 0, sy = 0, depth = 0;
  r.on_screen = gfx::project_point(sp, r.pos[0], r.pos[1], r.pos[2], sx, sy, depth);
  r.screen_x = sx;
  r.screen_y = static_cast<float>(sp.height) - sy;
}

void App::fill_hud() {
  ui::Readouts& r = m_shown.readouts;
  const UnitSystem& u = m_run->units();
  const double t = m_run->sim_time();
  char line[96];
  const std::string physical = time_text(u, t);
  if (physical.empty())
    std::snprintf(line, sizeof line, "t = %.4g", t);
  else
    std::snprintf(line, sizeof line, "t = %s", physical.c_str());
  r.hud_time = line;
  // The world's length a pixel spans at the point looked at, and a round length (1, 2 or 5 times
  // a power of ten) near a sixth of the picture's width.
  int w = 0, h = 0;
  target_size(w, h);
  const double per_px = m_camera.world_per_pixel(h);
  const double want = per_px * w / 6.0;
  if (!(want > 0) || !std::isfinite(want)) {
    r.hud_bar_px = 0.0f;
    return;
  }
  const double decade = std::pow(10.0, std::floor(std::log10(want)));
  const double bar = want >= 5 * decade ? 5 * decade : want >= 2 * decade ? 2 * decade : decade;
  r.hud_bar_px = static_cast<float>(bar / per_px);
  const std::string named = length_text(u, bar);
  if (named.empty()) {
    std::snprintf(line, sizeof line, "%g", bar);
    r.hud_bar_label = line;
  } else {
    r.hud_bar_label = named;
  }
}

void App::fill_legend() {
  if (m_settings.density_map) return fill_density_legend();
  ui::LegendReadout& l = m_shown.readouts.legend;
  const auto q = m_settings.color_quantity;
  l.categorical = quantity_info(q).label;
  l.label = l.categorical && m_run->origin_names() == particle_type_names()
                ? "particle type (the file's)"
                : quantity_description(q);
  l.unit = quantity_unit(q);
  l.lo = m_settings.color_lo;
  l.hi = m_settings.color_hi;
  // A state with a physical scale names speeds in km/s and masses in Msun (G = 1 inside).
  const UnitSystem& u = m_run->units();
  if (u.physical() && (q == Quantity::speed || q == Quantity::mass)) {
    const bool speed = q == Quantity::speed;
    const double k = speed ? u.engine_scale() * u.velocity_cm_s / 1e5 : u.mass_g / k_msun_g;
    l.unit = speed ? "km/s" : "Msun";
    l.lo = static_cast<float>(l.lo * k), l.hi = static_cast<float>(l.hi * k);
  } else if (u.physical() && *l.unit.c_str()) {
    l.unit += " (length " + length_name(u) + ")";
  }
  l.palette = m_settings.palette;
  l.log_scale = m_settings.color_log;
  l.categories = l.categorical ? m_run->origin_names() : std::vector<std::string>{};
  l.colors.clear();
  if (l.categorical) {
    for (std::size_t k = 0; k < l.categories.size(); ++k)
      for (int c = 0; c < 3; ++c)
        l.colors.push_back(gfx::k_origin_host[3 * (k % gfx::k_origin_colours) + c]);
  } else {
    const float* table = gfx::k_palette_host + 3 * gfx::k_palette_entries * l.palette;
    l.colors.assign(table, table + 3 * gfx::k_palette_entries);
  }
  l.note = l.categorical && !m_run->origin_valid()
               ? "merges removed bodies: the labels no longer follow them"
               : "";
}

}  // namespace orrery::app
