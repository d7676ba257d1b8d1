// Draws the bodies as additive soft point sprites into an HDR target, then tone-maps to the screen.
#pragma once

#include "camera.h"
#include "gl_objects.h"

namespace orrery::gfx {

struct RenderStyle {
  float radius = 0.15f;    // sprite radius in world units
  float intensity = 0.6f;  // peak brightness of one sprite (before N scaling)
  float exposure = 1.0f;   // tone-mapping exposure
  float speed_ref = 1.0f;  // speed at the middle of the palette (set from the initial state)
  float mass_ref = 1.0f;   // mean body mass: heavier bodies draw larger
  float center_shift_px = 0.0f;  // moves the view's centre right by this many pixels
};

class ParticleRenderer {
 public:
  // Loads and links the shaders (throws std::runtime_error naming a missing or broken one).
  ParticleRenderer();

  // Draws `count` bodies from `vao` (position at location 0, velocity at 1) seen by `camera`
  // into framebuffer `target` (0: the window) of width x height. Leaves `target` bound.
  void draw(GLuint vao, int count, const OrbitCamera& camera, const RenderStyle& style,
            GLuint target, int width, int height);

 private:
  GlProgram m_particles, m_tonemap;
  GlVertexArray m_empty_vao;  // core profiles need a bound VAO even without attributes
  RenderTarget m_hdr;
  GLint m_u_view = -1, m_u_proj = -1, m_u_radius = -1, m_u_px = -1, m_u_speed = -1,
        m_u_intensity = -1, m_u_mass = -1, m_u_hdr = -1, m_u_exposure = -1;
};

}  // namespace orrery::gfx
