// The line overlays: the tree's cells, the walls, a file's periodic box.
#include "overlays.h"

namespace orrery::app {

void Overlays::read_tree(RunController& run, int depth) {
  if (!m_tree) m_tree = std::make_unique<gfx::BoxOverlay>();
  const TreeView view{run.buffers().version(), depth, &run.solver()};
  if (!run.stepping() && !(view == m_tree_view)) {
    run.tree_boxes(depth, m_boxes);
    m_tree->set_boxes(m_boxes);
    m_tree_view = view;
  }
}

int Overlays::draw_tree(GLuint target, const gfx::SpriteParams& sp) const {
  if (!m_tree) return 0;
  m_tree->draw(target, sp);
  return m_tree->count();
}

void Overlays::draw_walls(float side, GLuint target, const gfx::SpriteParams& sp) {
  if (!(side > 0.0f)) return;
  if (!m_walls) m_walls = std::make_unique<gfx::BoxOverlay>();
  if (side != m_walls_side) {
    const float h = 0.5f * side;
    m_walls->set_boxes({Aabb{{-h, -h, -h}, {h, h, h}}});
    m_walls_side = side;
  }
  static constexpr float k_wall_color[4] = {0.85f, 0.80f, 0.60f, 0.55f};
  m_walls->draw(target, sp, k_wall_color);
}

void Overlays::draw_file_box(double side, GLuint target, const gfx::SpriteParams& sp) {
  if (!(side > 0.0)) return;
  if (!m_file_box) m_file_box = std::make_unique<gfx::BoxOverlay>();
  if (m_file_box_side != side) {
    const float b = static_cast<float>(side);
    m_file_box->set_boxes({Aabb{{0.0f, 0.0f, 0.0f}, {b, b, b}}});
    m_file_box_side = side;
  }
  static constexpr float k_file_box_color[4] = {0.55f, 0.70f, 0.95f, 0.50f};
  m_file_box->draw(target, sp, k_file_box_color);
}

}  // namespace orrery::app
