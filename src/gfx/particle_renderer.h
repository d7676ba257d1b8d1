// Draws the bodies as additive soft sprites into an HDR image, then tone-maps it to the screen.
// Two ways: GL point sprites from the VBOs and a GL tone-mapping pass; or CUDA kernels that splat
// the same sprites from the mapped VBOs and tone-map them into a registered texture, which GL then
// copies to the screen (for GPUs with little raster hardware, such as the H100, where drawing
// points and full-screen passes costs more than the solver).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "camera.h"
#include "cuda_gl.h"
#include "gfx/cpu_splat.h"
#include "gl_objects.h"
#include "orrery/device.h"
#include "orrery/gpu_buffer.h"
#include "sprite.h"
#include "trails_picking.h"

namespace orrery::gfx {

struct RenderStyle {
  float radius = 0.15f;           // sprite radius in world units
  float intensity = 0.6f;         // peak brightness of one sprite (before N scaling)
  float exposure = 1.0f;          // tone-mapping exposure
  ColorMap color;                 // the quantity, palette and range bodies are coloured by
  float mass_ref = 1.0f;          // mean body mass: heavier bodies draw larger
  float center_shift_px = 0.0f;   // moves the view's centre right by this many pixels
  bool spheres = false;           // bodies drawn as balls of their radius (collisions on)
  float sphere_intensity = 0.3f;  // a ball's brightness
  float bloom = 0.0f;             // the glow around dense regions (gfx/bloom.h; 0: none)
};

// The sprite pass's inputs for this camera, style and image size (both draw modes use them).
SpriteParams sprite_params(const OrbitCamera& camera, const RenderStyle& style, int width,
                           int height);

// The GL trail pass's inputs: the ring's buffer texture (Trails::texture()) and its shape.
struct TrailDraw {
  GLuint texture = 0;
  int m = 0, k = 0, head = 0, filled = 0;
  float intensity = 0.0f;
};

class ParticleRenderer {
 public:
  // Loads and links the shaders (throws std::runtime_error naming a missing or broken one).
  ParticleRenderer();
  ~ParticleRenderer();

  // GL sprites: draws `count` bodies from `vao` (position at location 0, velocity at 1) into the
  // HDR image, then tone-maps into framebuffer `target` (0: the window). Leaves `target` bound.
  // With a nonzero `state_version` (BodyBuffers::version()), a frame whose bodies, buffers and
  // sprite parameters are those of the last draw reuses its HDR image and only tone-maps: a paused
  // run, or one whose long CPU step is still in flight, costs no sprite pass.
  // Trails, when given, are drawn first (fading lines, added like the sprites).
  void draw(GLuint vao, int count, const SpriteParams& p, float exposure, GLuint target,
            std::uint64_t state_version = 0, const TrailDraw* trails = nullptr);

  // CUDA splat, in three parts. splat_image() gives the CUDA registration of the RGBA8 picture
  // texture for a width x height image (re-created when the size or texture changes; throws
  // std::runtime_error when it cannot be registered), to be mapped write-discard with the bodies
  // in one call. The picture is `direct_texture` when the target framebuffer has one (headless:
  // the offscreen image, written with no GL pass at all), else a texture of the renderer's (0: a
  // window). splat() runs while they are mapped, on device pointers: it splats into an HDR device
  // buffer, tone-maps it and copies the result into the texture, on the default stream.
  // draw_splatted() then binds `target`, blitting the picture into it unless it was written direct.
  CudaGlBuffers& splat_image(int width, int height, GLuint direct_texture);
  // `values`: the stored colour quantity (device pointer; may be null for speed and mass); the
  // trails' ring (device pointer) is splatted before the sprites when given.
  void splat(const Vec4* pos, const Vec4* vel, const float* values, int count,
             const SpriteParams& p, float exposure, const TrailRing* trails = nullptr,
             float trail_intensity = 0.0f);
  void draw_splatted(GLuint target, int width, int height);
  // CPU splat: the bodies as GL holds them (the VBOs mapped for reading: what the GL sprites would
  // draw), splatted and tone-mapped on the CPU's cores (CpuSplat), uploaded into a picture texture
  // and blitted into `target`, which is left bound. For a software OpenGL, where the GL sprites
  // cost more CPU time. `values_vbo` (0: none) is read when the colour needs stored values; the
  // trails' ring, when given, is read from its GL buffer. A frame of the same state and
  // parameters as the last re-blits the last picture.
  struct CpuTrails {
    GLuint buffer = 0;
    int m = 0, k = 0, head = 0, filled = 0;
    float intensity = 0.0f;
  };
  void draw_cpu(GLuint pos_vbo, GLuint vel_vbo, GLuint values_vbo, int count, const SpriteParams& p,
                float exposure, GLuint target, std::uint64_t state_version,
                const CpuTrails* trails = nullptr);
  // A finished picture (8-bit RGBA, row 0 the bottom one: a density map) uploaded into a texture
  // and blitted into `target`, which is left bound.
  void draw_rgba(const std::uint8_t* rgba8, int width, int height, GLuint target);
  // CPU time of the newest draw_cpu()'s splat and tone map; negative when there was none.
  float last_cpu_splat_ms() const { return m_cpu_ms; }

  // GPU time of the newest splat() (CUDA events, read one frame late); negative when unknown.
  float last_splat_ms() const { return m_splat_ms; }

  // Pass 1 of draw() alone: the GL sprites' HDR image (RGBA16F) as a framebuffer, for tests.
  GLuint draw_hdr(GLuint vao, int count, const SpriteParams& p, const TrailDraw* trails = nullptr);

 private:
  void tonemap(float exposure, GLuint target, int width, int height, float bloom = 0.0f);
  // The bloom's small image of m_hdr (gfx/bloom.h) into m_bloom_a, for tonemap() to add.
  void bloom_gl(float exposure);
  // Blits a splat's picture (framebuffer `picture`; 0: it was written into the target directly)
  // into `target`, and leaves `target` bound with a full viewport.
  void show_picture(GLuint picture, GLuint target, int width, int height);
  // The colour uniforms (quantity, palette, origin, log, lo, hi) of the program in use.
  void set_color_uniforms(const ColorMap& c, const GLint* locations);
  void draw_trails(const TrailDraw& t, const SpriteParams& p);  // into the bound HDR target

  GlProgram m_particles, m_trails, m_tonemap, m_bloom_down, m_bloom_blur;
  RenderTarget m_bloom_a, m_bloom_b;  // the bloom's small images (GL path)
  GpuBuffer<float> m_bloom_scratch;   // and the CUDA path's
  GLint m_u_bloom = -1, m_u_bloom_strength = -1, m_u_down_hdr = -1, m_u_down_threshold = -1,
        m_u_blur_small = -1, m_u_blur_dir = -1;
  GlVertexArray m_empty_vao;  // core profiles need a bound VAO even without attributes
  GlTexture m_palettes;       // every palette, a row each (shaders/colormap.glsl samples it)
  RenderTarget m_hdr;
  std::uint64_t m_hdr_version = 0;  // what m_hdr holds: the state version, buffers and parameters
  GLuint m_hdr_vao = 0;
  int m_hdr_count = 0;
  SpriteParams m_hdr_params;
  // The CUDA path: the HDR image and its tone-mapped bytes in device memory (4 pixels a Vec4),
  // and the picture texture registered with CUDA; re-created when the size changes.
  GpuBuffer<float> m_splat_hdr;
  GpuBuffer<std::uint8_t> m_splat_rgba8;
  RenderTarget m_splat_picture;  // unused when writing the target's texture directly
  CudaGlBuffers m_splat_reg;
  int m_splat_w = 0, m_splat_h = 0;
  GLuint m_splat_direct = 0;  // the target's texture registered, or 0
  GLint m_particle_color[9] = {-1, -1, -1, -1, -1, -1, -1, -1, -1};
  std::vector<GLint> m_trail_color;
  GLint m_u_trail_ring = -1, m_u_trail_m = -1, m_u_trail_k = -1, m_u_trail_head = -1,
        m_u_trail_view = -1, m_u_trail_proj = -1, m_u_trail_intensity = -1;
  GLint m_u_view = -1, m_u_proj = -1, m_u_radius = -1, m_u_px = -1, m_u_intensity = -1,
        m_u_mass = -1, m_u_spheres = -1, m_u_sphere_intensity = -1, m_u_hdr = -1, m_u_exposure = -1;
  // The CPU path: its splatter, picture bytes and texture, and what the picture shows.
  std::unique_ptr<CpuSplat> m_cpu;
  std::vector<std::uint8_t> m_cpu_rgba8;
  RenderTarget m_cpu_picture;
  RenderTarget m_rgba_picture;  // draw_rgba's
  std::uint64_t m_cpu_version = 0;
  int m_cpu_count = 0;
  float m_cpu_exposure = 0.0f;
  SpriteParams m_cpu_params;
  float m_cpu_ms = -1.0f;
  std::unique_ptr<GpuTimer> m_splat_timer;
  bool m_splat_timer_pending = false;
  float m_splat_ms = -1.0f;
};

}  // namespace orrery::gfx
