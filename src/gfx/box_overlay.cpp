// BoxOverlay: boxes to line vertices, and the blended line pass.
#include "box_overlay.h"

#include "shader_files.h"

namespace orrery::gfx {

BoxOverlay::BoxOverlay()
    : m_program(make_program(read_shader("lines.vert"), read_shader("lines.frag"),
                             "lines.vert + lines.frag")),
      m_vbo(make_buffer()),
      m_vao(make_vertex_array()) {
  m_u_view = glGetUniformLocation(m_program.id(), "u_view");
  m_u_proj = glGetUniformLocation(m_program.id(), "u_proj");
  m_u_color = glGetUniformLocation(m_program.id(), "u_color");
  glBindVertexArray(m_vao.id());
  glBindBuffer(GL_ARRAY_BUFFER, m_vbo.id());
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 3 * sizeof(float), nullptr);
  glBindVertexArray(0);
  glBindBuffer(GL_ARRAY_BUFFER, 0);
  check_gl("setting up the tree overlay");
}

void BoxOverlay::set_boxes(const std::vector<Aabb>& boxes) {
  std::vector<float> v;
  v.reserve(boxes.size() * 24 * 3);
  for (const Aabb& b : boxes) {
    // The 8 corners (bit 0: x, 1: y, 2: z high), and the 12 edges between corners one bit apart.
    auto corner = [&](int c) {
      v.push_back(c & 1 ? b.hi[0] : b.lo[0]);
      v.push_back(c & 2 ? b.hi[1] : b.lo[1]);
      v.push_back(c & 4 ? b.hi[2] : b.lo[2]);
    };
    for (int c = 0; c < 8; ++c)
      for (int bit = 1; bit < 8; bit <<= 1)
        if (!(c & bit)) corner(c), corner(c | bit);
  }
  m_vertices = static_cast<int>(v.size() / 3);
  glBindBuffer(GL_ARRAY_BUFFER, m_vbo.id());
  glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(v.size() * sizeof(float)), v.data(),
               GL_DYNAMIC_DRAW);
  glBindBuffer(GL_ARRAY_BUFFER, 0);
  check_gl("uploading the tree overlay");
}

void BoxOverlay::draw(GLuint target, const SpriteParams& p, const float (&color)[4]) const {
  if (m_vertices == 0 || p.width <= 0 || p.height <= 0) return;
  glBindFramebuffer(GL_FRAMEBUFFER, target);
  glViewport(0, 0, p.width, p.height);
  glDisable(GL_DEPTH_TEST);
  glEnable(GL_BLEND);
  glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
  glUseProgram(m_program.id());
  glUniformMatrix4fv(m_u_view, 1, GL_FALSE, p.view);
  glUniformMatrix4fv(m_u_proj, 1, GL_FALSE, p.proj);
  glUniform4f(m_u_color, color[0], color[1], color[2], color[3]);
  glBindVertexArray(m_vao.id());
  glDrawArrays(GL_LINES, 0, m_vertices);
  glBindVertexArray(0);
  glDisable(GL_BLEND);
  check_gl("drawing the tree overlay");
}

}  // namespace orrery::gfx
