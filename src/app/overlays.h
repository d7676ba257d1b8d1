// The line overlays over the picture: the tree code's cells, the box's walls and a loaded file's
// periodic box. Each is made when first shown and uploaded only when what it outlines changes.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "gfx/box_overlay.h"
#include "run_controller.h"

namespace orrery::app {

class Overlays {
 public:
  // The tree's cells down to `depth`: read from the run (a device copy for cuda-bh) only when its
  // pass, the depth or the module changed, and never while a CPU step runs.
  void read_tree(RunController& run, int depth);
  // Draws the tree's cells read last; returns how many.
  int draw_tree(GLuint target, const gfx::SpriteParams& sp) const;
  // The walls of a cube of this side centred at the origin (0: none).
  void draw_walls(float side, GLuint target, const gfx::SpriteParams& sp);
  // A loaded file's periodic box, [0, side) on each axis (0: none).
  void draw_file_box(double side, GLuint target, const gfx::SpriteParams& sp);

 private:
  struct TreeView {
    std::uint64_t version = 0;
    int depth = -1;
    const Solver* solver = nullptr;
    bool operator==(const TreeView& o) const {
      return version == o.version && depth == o.depth && solver == o.solver;
    }
  };
  std::unique_ptr<gfx::BoxOverlay> m_tree, m_walls, m_file_box;
  std::vector<Aabb> m_boxes;
  TreeView m_tree_view;
  float m_walls_side = 0.0f;
  double m_file_box_side = 0.0;
};

}  // namespace orrery::app
