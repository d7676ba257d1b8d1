// The collision stage of the step pipeline: bodies are spheres (the radius rides in the velocity's
// w), touching pairs bounce or merge, and a cube of reflecting walls may hold them. A Collider
// finds the contacts on a hashed uniform grid and resolves them in parallel rounds of mutual
// handshakes; the CPU one (OpenMP) is the GPU one's reference.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "orrery/params.h"
#include "orrery/phases.h"
#include "orrery/physics.h"

namespace orrery {

// Throws InputError when walls of side `box` (> 0) cannot hold the largest body (radius in vel.w):
// a box smaller than a ball would pile every body at the origin.
void check_box_fits(float box, const std::vector<Vec4>& vel);

// A body's radius is its velocity's w (so every copy, ping-pong and compaction of the state carries
// it, and the renderer reads it from the velocity buffer).
inline float radius_of(const Vec4& vel) { return vel.w; }
// Sets every body's radius to r.
void set_radius(std::vector<Vec4>& vel, float r);

// A touching pair (i < j).
struct Contact {
  int i = 0, j = 0;
  friend bool operator==(const Contact& a, const Contact& b) { return a.i == b.i && a.j == b.j; }
  friend bool operator<(const Contact& a, const Contact& b) {
    return a.i < b.i || (a.i == b.i && a.j < b.j);
  }
};

// What the collision stage has done since its totals were last reset.
struct CollisionTotals {
  double energy_offset = 0;  // energy the collisions removed: kinetic (and, for merges, the pair's
                             // softened potential); E + offset is what is conserved
  Vec3d wall_impulse;        // sum of the momentum changes m dv the walls gave
  long long contacts = 0;    // touching pairs found, summed over steps
  long long merges = 0;      // bodies that merged into another and left
  long long wall_hits = 0;   // bounces off a wall
  long long truncated = 0;   // steps whose contacts outgrew the list's limit (some left out)
  void add(const CollisionTotals& o);
};

// The collision stage on one side (host or device): pointers are that side's.
class Collider {
 public:
  virtual ~Collider() = default;
  virtual bool on_device() const = 0;
  // One stage on the newest state, in place: finds the touching pairs, resolves them (bounce:
  // rounds of handshakes, at most k_bounce_rounds; merge: one), then the walls. `softening` > 0
  // counts the merged pair's potential energy into the offset (gravity on); 0 leaves it out.
  // Returns the bodies left: merges move the survivors to the front, in their order.
  virtual int resolve(Vec4* pos, Vec4* vel, int n, const CollisionParams& c, float softening) = 0;
  // The touching pairs of a state (i < j, sorted), through the same grid: for the tests.
  virtual std::vector<Contact> find_contacts(const Vec4* pos, const Vec4* vel, int n) = 0;
  // Waits for the device.
  virtual CollisionTotals totals() = 0;
  virtual void reset_totals() = 0;
  // The most pairs one step keeps (beyond it the rest wait for the next step, counted in
  // `truncated`); lowered by the tests.
  virtual void set_pair_limit(long long pairs) = 0;
  void set_phases(PhaseTimer* phases) { m_phases = phases; }
  // Each body's row in the state as it was set (Simulation::rows): a merge drops the row of the
  // body it removes, as it drops the body. nullptr: none kept (on the device, keeping them reads
  // the survivors' flags back after each step that merged).
  void set_rows(std::vector<int>* rows) { m_rows = rows; }

  static constexpr int k_bounce_rounds = 4;
  static constexpr long long k_default_pair_limit = 1LL << 26;

 protected:
  // Keeps the rows whose flag (n of them, host memory) equals `keep`, in order: 1 over the
  // device's survivor flags, 0 over the host's merged-away flags.
  void keep_rows(const unsigned char* flags, int n, unsigned char keep);
  PhaseTimer* m_phases = nullptr;
  std::vector<int>* m_rows = nullptr;
};

std::unique_ptr<Collider> make_host_collider();
// Throws with no CUDA device (or a build without CUDA).
std::unique_ptr<Collider> make_device_collider();

}  // namespace orrery
