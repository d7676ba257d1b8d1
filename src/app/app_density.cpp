// The density map picture: the run's bodies as smoothed surface density (gfx/density_map.h),
// made on the GPU where the state is there, coloured in log scale, and its legend.
#include <chrono>
#include <cmath>
#include <cstring>

#include "app.h"
#include "gfx/colormap.h"
#include "orrery/device.h"
#include "orrery/units.h"

namespace orrery::app {
namespace {

constexpr double k_pc_cm = 3.0856775814913673e18;

}  // namespace

int App::density_palette() const {
  // The classic palette is the sprites' own; a map reads best in a perceptual one.
  return m_settings.palette == 0 ? gfx::palette_index("magma") : m_settings.palette;
}

void App::draw_density(const FrameView& v, GLuint target) {
  const gfx::SpriteParams& p = v.sprites;
  if (p.width <= 0 || p.height <= 0) return;
  const std::uint64_t version = m_run->buffers().version();
  const int palette = density_palette();
  const bool same = version != 0 && version == m_density.version &&
                    std::memcmp(&p, &m_density.params, sizeof p) == 0;
  if (!same) {
    // The map's own time: not the steps queued before it on the device.
    if (m_run->solver().on_device()) device_synchronize();
    const auto start = std::chrono::steady_clock::now();
    try {
      m_run->density_map(p, m_density.device, m_density.h, m_density.map);
    } catch (const std::exception& e) {
      say(std::string("density map: ") + e.what() + "; drawing the bodies");
      m_settings.density_map = false;
      return;
    }
    if (!gfx::map_range(m_density.map.data(), m_density.map.size(), m_density.lo, m_density.hi))
      m_density.lo = 1.0f, m_density.hi = 10.0f;  // nothing on the picture: all the bottom colour
    m_density.ms =
        std::chrono::duration<float, std::milli>(std::chrono::steady_clock::now() - start).count();
    m_density.version = version;
    m_density.params = p;
    m_density.palette = -1;
  }
  if (!same || palette != m_density.palette) {
    m_density.rgba.resize(4 * m_density.map.size());
    gfx::map_rgba(m_density.map.data(), p.width, p.height, palette, m_density.lo, m_density.hi,
                  m_density.rgba.data());
    m_density.palette = palette;
  }
  m_display.renderer->draw_rgba(m_density.rgba.data(), p.width, p.height, target);
}

void App::fill_density_legend() {
  ui::LegendReadout& l = m_shown.readouts.legend;
  int w = 0, h = 0;
  target_size(w, h);
  // Mass per pixel over the area a pixel spans at the point looked at.
  const double per_px = m_camera.world_per_pixel(h);
  const double area = per_px * per_px;
  double k = area > 0 ? 1.0 / area : 1.0;
  l.label = "surface density (at the point looked at)";
  l.unit = "mass/length^2";
  const UnitSystem& u = m_run->units();
  if (u.physical()) {
    const double pc = u.length_cm / k_pc_cm;
    k *= (u.mass_g / k_msun_g) / (pc * pc);
    l.unit = "Msun/pc^2";
  }
  l.lo = static_cast<float>(m_density.lo * k);
  l.hi = static_cast<float>(m_density.hi * k);
  l.palette = density_palette();
  l.log_scale = true;
  l.categorical = false;
  l.categories.clear();
  const float* table = gfx::k_palette_host + 3 * gfx::k_palette_entries * l.palette;
  l.colors.assign(table, table + 3 * gfx::k_palette_entries);
  l.note.clear();
}

}  // namespace orrery::app
