// The tree overlay: the edges of a tree code's cells as GL lines over the picture, through the
// scene's camera.
#pragma once

#include <vector>

#include "gl_objects.h"
#include "orrery/solver.h"
#include "sprite.h"

namespace orrery::gfx {

class BoxOverlay {
 public:
  BoxOverlay();  // throws std::runtime_error when its shaders cannot be read or built
  // Replaces the boxes drawn (12 edges each).
  void set_boxes(const std::vector<Aabb>& boxes);
  // Draws them into `target` (blended), with the sprite pass's view and projection, in RGBA
  // `color` (default: the tree's green).
  void draw(GLuint target, const SpriteParams& p, const float (&color)[4] = k_tree_color) const;
  static constexpr float k_tree_color[4] = {0.35f, 0.95f, 0.55f, 0.35f};
  int count() const { return m_vertices / 24; }

 private:
  GlProgram m_program;
  GlBuffer m_vbo;
  GlVertexArray m_vao;
  int m_vertices = 0;
  GLint m_u_view = -1, m_u_proj = -1, m_u_color = -1;
};

}  // namespace orrery::gfx
