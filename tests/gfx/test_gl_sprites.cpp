// The GL sprite pass (shaders/particles.*) against the CPU splatter, in a headless EGL context
// (Mesa's llvmpipe in CI, NVIDIA's driver on the GPU machine): the two draw paths must agree.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "../splat_support.h"
#include "gfx/egl_context.h"
#include "gfx/gl_objects.h"
#include "gfx/particle_renderer.h"
#include "gfx/splat.h"
#include "gfx/trails.h"

namespace orrery {
namespace {

constexpr int k_w = 320, k_h = 200;

class GlSprites : public ::testing::Test {
 protected:
  void SetUp() override {
    try {
      m_context = std::make_unique<gfx::EglContext>();
    } catch (const std::exception& e) {
      GTEST_SKIP() << "no headless GL context: " << e.what();
    }
  }
  std::unique_ptr<gfx::EglContext> m_context;
};

// The scene's bodies in VBOs behind a VAO laid out as the viewer's (position 0, velocity 1).
struct SceneBuffers {
  std::vector<Vec4> pos, vel;
  gfx::GlBuffer pos_vbo = gfx::make_buffer(), vel_vbo = gfx::make_buffer();
  gfx::GlVertexArray vao = gfx::make_vertex_array();

  explicit SceneBuffers(int n) {
    test::make_scene(n, k_w, k_h, pos, vel);
    glBindVertexArray(vao.id());
    for (int attr = 0; attr < 2; ++attr) {
      const std::vector<Vec4>& data = attr == 0 ? pos : vel;
      glBindBuffer(GL_ARRAY_BUFFER, (attr == 0 ? pos_vbo : vel_vbo).id());
      glBufferData(GL_ARRAY_BUFFER, sizeof(Vec4) * data.size(), data.data(), GL_STATIC_DRAW);
      glEnableVertexAttribArray(attr);
      glVertexAttribPointer(attr, 4, GL_FLOAT, GL_FALSE, sizeof(Vec4), nullptr);
    }
    glBindVertexArray(0);
  }
  int count() const { return static_cast<int>(pos.size()); }
};

// Two RGBA8 pictures of the same frame agree: a few rims snapped differently at most, and bodies
// lit.
void expect_same_picture(const std::vector<std::uint8_t>& gl, const std::vector<std::uint8_t>& cpu,
                         const char* what) {
  int worst = 0;
  long off = 0, lit = 0;
  for (std::size_t k = 0; k < gl.size(); ++k) {
    const int d = std::abs(int(gl[k]) - int(cpu[k]));
    worst = std::max(worst, d);
    off += d > 2;
    lit += k % 4 == 0 && cpu[k] > 80;
  }
  std::printf("%s: max %d levels, %ld channels off by more than 2, %ld lit pixels\n", what, worst,
              off, lit);
  EXPECT_GT(lit, 300);                                  // bodies are visible
  EXPECT_LE(off, static_cast<long>(gl.size() / 1000));  // sub-pixel snapping at a few rims
  EXPECT_LE(worst, 24);
}

TEST_F(GlSprites, MatchTheCpuSplatter) {
  SceneBuffers scene(400);
  const std::vector<Vec4>& pos = scene.pos;
  const std::vector<Vec4>& vel = scene.vel;
  const gfx::SpriteParams p = test::camera_params(k_w, k_h);
  gfx::ParticleRenderer renderer;
  const GLuint fbo = renderer.draw_hdr(scene.vao.id(), scene.count(), p);
  std::vector<float> gl(4 * k_w * k_h, -1.0f);
  glBindFramebuffer(GL_READ_FRAMEBUFFER, fbo);
  glReadPixels(0, 0, k_w, k_h, GL_RGBA, GL_FLOAT, gl.data());
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  gfx::check_gl("reading the sprite image");

  std::vector<float> cpu(gl.size());
  gfx::splat_cpu(pos.data(), vel.data(), static_cast<int>(pos.size()), p, cpu.data());
  const test::ImageDiff d = test::compare_images(gl, cpu);
  std::printf("gl vs cpu: max |diff| %.3g of peak %.3g, %ld pixels with another fragment count\n",
              d.max_abs, d.max_value, d.alpha_mismatch);
  // The GL image is RGBA16F (11 significant bits), and drivers snap point centres to a sub-pixel
  // grid (NVIDIA's to 1/256 px: 8e-3 of the peak measured on the H100; Mesa's llvmpipe 1e-3). A
  // sprite one pixel off, a wrong size or colour is off by a large share of the peak.
  EXPECT_GT(d.max_value, 0.5f);
  EXPECT_LT(d.max_abs, 1.5e-2f * d.max_value)
      << "max |gl - cpu| " << d.max_abs << " of " << d.max_value;
  EXPECT_LT(d.alpha_mismatch, 20) << "pixels whose fragment count differs";
}

// Colour by a stored quantity (attribute 2) and by mass, with each palette and scale: the GL
// shader's colour maths (shaders/colormap.glsl) against gfx/colormap.h's.
TEST_F(GlSprites, ColourByQuantityMatchesTheCpuSplatter) {
  SceneBuffers scene(400);
  std::vector<float> values(scene.pos.size());
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = 0.05f + 0.01f * (i % 89);
  gfx::GlBuffer value_vbo = gfx::make_buffer();
  glBindVertexArray(scene.vao.id());
  glBindBuffer(GL_ARRAY_BUFFER, value_vbo.id());
  glBufferData(GL_ARRAY_BUFFER, sizeof(float) * values.size(), values.data(), GL_STATIC_DRAW);
  glEnableVertexAttribArray(2);
  glVertexAttribPointer(2, 1, GL_FLOAT, GL_FALSE, sizeof(float), nullptr);
  glBindVertexArray(0);
  gfx::ParticleRenderer renderer;
  for (int q : {2, 3, 5})
    for (int pal : {0, 1, 2}) {
      gfx::SpriteParams p = test::camera_params(k_w, k_h);
      p.color = gfx::color_map_of(quantity_info(static_cast<Quantity>(q)));
      p.color.palette = pal;
      p.color.log_scale = q == 2 ? 1 : 0;
      p.color.lo = q == 3 ? 1.0f : 0.05f;
      p.color.hi = q == 3 ? 30.0f : 0.9f;
      const GLuint fbo = renderer.draw_hdr(scene.vao.id(), scene.count(), p);
      std::vector<float> gl(4 * k_w * k_h, -1.0f);
      glBindFramebuffer(GL_READ_FRAMEBUFFER, fbo);
      glReadPixels(0, 0, k_w, k_h, GL_RGBA, GL_FLOAT, gl.data());
      glBindFramebuffer(GL_FRAMEBUFFER, 0);
      std::vector<float> cpu(gl.size());
      gfx::splat_cpu(scene.pos.data(), scene.vel.data(), scene.count(), p, cpu.data(),
                     values.data());
      const test::ImageDiff d = test::compare_images(gl, cpu);
      EXPECT_GT(d.max_value, 0.3f);
      EXPECT_LT(d.max_abs, 1.5e-2f * d.max_value) << "quantity " << q << " palette " << pal;
    }
}

// Trails kept from the host: after K + 3 appends the GL buffer holds the last K positions, as the
// host mirror does, and the GL trail pass lights pixels along them.
TEST_F(GlSprites, TrailRingHoldsTheLastPositionsAndDraws) {
  const int k = 4, n = 5;
  gfx::Trails trails(false);
  trails.configure(k, 0, n);
  gfx::ColorMap c;
  for (int step = 0; step < k + 3; ++step) {
    std::vector<Vec4> pos(n), vel(n, Vec4{1, 0, 0, 0});
    for (int i = 0; i < n; ++i) pos[i] = {0.5f * step - 2.0f, 2.0f * i - 4.0f, 0, 1};
    trails.append_host(pos.data(), vel.data(), nullptr, n, c);
  }
  EXPECT_EQ(trails.filled(), k);
  std::vector<Vec4> gl(static_cast<std::size_t>(k) * n);
  GLuint buffer = 0;
  glBindTexture(GL_TEXTURE_BUFFER, trails.texture());
  glGetTexLevelParameteriv(GL_TEXTURE_BUFFER, 0, GL_TEXTURE_BUFFER_DATA_STORE_BINDING,
                           reinterpret_cast<GLint*>(&buffer));
  glBindTexture(GL_TEXTURE_BUFFER, 0);
  glBindBuffer(GL_TEXTURE_BUFFER, buffer);
  glGetBufferSubData(GL_TEXTURE_BUFFER, 0, sizeof(Vec4) * gl.size(), gl.data());
  glBindBuffer(GL_TEXTURE_BUFFER, 0);
  const gfx::TrailRing host = trails.host_ring();
  for (int age = 0; age < k; ++age) {
    const int slot = ((trails.head() - 1 - age) % k + k) % k;
    for (int b = 0; b < n; ++b) {
      EXPECT_FLOAT_EQ(gl[slot * n + b].x, 0.5f * (k + 2 - age) - 2.0f) << age << " " << b;
      EXPECT_FLOAT_EQ(host.ring[slot * n + b].x, gl[slot * n + b].x);
    }
  }
  SceneBuffers scene(1);
  gfx::ParticleRenderer renderer;
  gfx::SpriteParams p = test::camera_params(k_w, k_h);
  const gfx::TrailDraw draw{trails.texture(), n, k, trails.head(), trails.filled(), 1.0f};
  const GLuint fbo = renderer.draw_hdr(scene.vao.id(), 0, p, &draw);
  std::vector<float> img(4 * k_w * k_h);
  glBindFramebuffer(GL_READ_FRAMEBUFFER, fbo);
  glReadPixels(0, 0, k_w, k_h, GL_RGBA, GL_FLOAT, img.data());
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  std::vector<float> cpu(img.size(), 0.0f);
  gfx::trail_splat_cpu(host, p, 1.0f, cpu.data());
  int lit_gl = 0, lit_cpu = 0;
  for (std::size_t i = 0; i < img.size(); i += 4)
    lit_gl += img[i] > 0.01f, lit_cpu += cpu[i] > 0.01f;
  EXPECT_GT(lit_cpu, 20);
  EXPECT_NEAR(lit_gl, lit_cpu, 0.25 * lit_cpu);  // GL's lines and the splat's cover alike
}

// The whole GL picture (sprites, then shaders/tonemap.frag into RGBA8) against the CUDA path's CPU
// twin (splat_cpu, then tonemap_cpu): the pictures the two draw modes show must agree.
TEST_F(GlSprites, PictureMatchesTheCpuSplatAndToneMap) {
  SceneBuffers scene(400);
  const gfx::SpriteParams p = test::camera_params(k_w, k_h);
  const float exposure = 1.3f;
  gfx::ParticleRenderer renderer;
  gfx::RenderTarget target(k_w, k_h, GL_RGBA8);
  renderer.draw(scene.vao.id(), scene.count(), p, exposure, target.framebuffer());
  std::vector<std::uint8_t> gl(4 * k_w * k_h);
  glBindFramebuffer(GL_READ_FRAMEBUFFER, target.framebuffer());
  glReadPixels(0, 0, k_w, k_h, GL_RGBA, GL_UNSIGNED_BYTE, gl.data());
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  gfx::check_gl("reading the picture");

  std::vector<float> hdr(4 * k_w * k_h);
  gfx::splat_cpu(scene.pos.data(), scene.vel.data(), scene.count(), p, hdr.data());
  std::vector<std::uint8_t> cpu(gl.size());
  gfx::tonemap_cpu(hdr.data(), k_w, k_h, exposure, cpu.data());
  expect_same_picture(gl, cpu, "gl vs cpu picture");
}

// The CPU draw path as the viewer runs it (the VBOs mapped for reading, splatted on the CPU, the
// picture uploaded and blitted) against the GL sprites' picture of the same frame; then a second
// frame of the same state re-blits the picture without splatting again.
TEST_F(GlSprites, CpuDrawMatchesTheGlPicture) {
  SceneBuffers scene(400);
  const gfx::SpriteParams p = test::camera_params(k_w, k_h);
  const float exposure = 1.3f;
  gfx::ParticleRenderer renderer;
  auto read = [](const gfx::RenderTarget& t) {
    std::vector<std::uint8_t> px(4 * k_w * k_h);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, t.framebuffer());
    glReadPixels(0, 0, k_w, k_h, GL_RGBA, GL_UNSIGNED_BYTE, px.data());
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    gfx::check_gl("reading a picture");
    return px;
  };
  gfx::RenderTarget gl_target(k_w, k_h, GL_RGBA8), cpu_target(k_w, k_h, GL_RGBA8);
  renderer.draw(scene.vao.id(), scene.count(), p, exposure, gl_target.framebuffer());
  renderer.draw_cpu(scene.pos_vbo.id(), scene.vel_vbo.id(), 0, scene.count(), p, exposure,
                    cpu_target.framebuffer(), 5);
  EXPECT_GE(renderer.last_cpu_splat_ms(), 0.0f);
  const std::vector<std::uint8_t> gl = read(gl_target), cpu = read(cpu_target);
  expect_same_picture(gl, cpu, "gl vs cpu draw");

  gfx::RenderTarget again(k_w, k_h, GL_RGBA8);
  renderer.draw_cpu(scene.pos_vbo.id(), scene.vel_vbo.id(), 0, scene.count(), p, exposure,
                    again.framebuffer(), 5);
  EXPECT_LT(renderer.last_cpu_splat_ms(), 0.0f);  // the same state: no second splat
  EXPECT_EQ(read(again), cpu);
}

TEST_F(GlSprites, ViewerParamsMatchTheStartingCamera) {
  const gfx::SpriteParams p = gfx::sprite_params(gfx::OrbitCamera(), gfx::RenderStyle{}, k_w, k_h);
  const gfx::SpriteParams q = test::camera_params(k_w, k_h);
  for (int i = 0; i < 16; ++i) {
    EXPECT_NEAR(p.view[i], q.view[i], 1e-5f) << "view[" << i << "]";
    EXPECT_NEAR(p.proj[i], q.proj[i], 1e-4f * std::max(1.0f, std::fabs(q.proj[i])))
        << "proj[" << i << "]";
  }
  EXPECT_NEAR(p.px_per_unit, q.px_per_unit, 1e-3f);
}

}  // namespace
}  // namespace orrery
