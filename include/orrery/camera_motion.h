// How the viewer's camera frames the bodies and moves on its own: the framing rule (at start, and
// kept as a run evolves), what it follows, and a path of keyframes it flies. The command line,
// scene files and Python give them alike; the camera itself is the viewer's (gfx/camera.h), and
// where it stands is the view's rows (ViewParams).
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "orrery/bodies.h"
#include "orrery/param_table.h"

namespace orrery {

// The sphere the camera fits: around the centre of mass, the radius holding every body (all), a
// fraction of the mass (mass:F) or a fraction of the bodies by count (bodies:F: a few far strays
// do not shrink the picture); none leaves the view's rows alone.
struct Framing {
  enum class Kind { none, all, mass, bodies };
  Kind kind = Kind::bodies;
  double fraction = 0.95;
};
// "all", "none", "mass:F" or "bodies:F" with F in (0, 1]; throws InputError naming `what`.
Framing parse_framing(std::string_view text, std::string_view what);
std::string to_string(const Framing& f);

struct Sphere {
  std::array<double, 3> centre{};
  double radius = 0.0;
};
// The framing's sphere over every `stride`-th of the n bodies (an even sample frames as well as
// all of them). None where the framing is none, there are no bodies, or the radius is not > 0.
std::optional<Sphere> framing_sphere(const Vec4* pos, std::size_t n, std::size_t stride,
                                     const Framing& f);

// What the camera keeps in the middle of the picture as the run goes on.
enum class FollowKind { nothing, picked_body, centre_of_mass };
struct FollowChoice {
  FollowKind kind = FollowKind::nothing;
  long long body = -1;  // picked_body: the body's index at start
};
// "none", "com" or "body:I" (I >= 0); throws InputError naming `what`.
FollowChoice parse_follow(std::string_view text, std::string_view what);
std::string to_string(const FollowChoice& f);

// A camera path: keyframes at times in seconds of the path's clock (a recording's frames at its
// frame rate, else the wall clock), each giving some of the view's rows; a row a key leaves out
// keeps the key before's value (the first key's, the view it starts from). Between keys the rows
// are interpolated (the distance in log space, so a zoom is even), with an easing:
//   smooth: a curve through every key (Catmull-Rom), at rest at the first and the last;
//   linear: straight from key to key;
//   ease: at rest at every key (each leg eases in and out).
// After the last key the path holds it, or starts again (loop).
enum class Easing { smooth, linear, ease };
struct CameraKey {
  double t = 0.0;
  ViewParams view;              // the rows it gives (the others are the defaults until resolved)
  std::set<std::string> given;  // their names
};
struct CameraPath {
  std::vector<CameraKey> keys;
  Easing easing = Easing::smooth;
  bool loop = false;
  bool empty() const { return keys.empty(); }
  double duration() const { return keys.empty() ? 0.0 : keys.back().t; }
  // Whether a key gives the row: the viewer moves only those (the others stay with the mouse,
  // --keep-frame and --follow).
  bool gives(const std::string& row) const;
  // Whether a key gives the point looked at (camera_x, _y, _z): else following and framing keep
  // choosing it.
  bool moves_centre() const;
};
// Parses a path's JSON text ({"easing": ..., "loop": ..., "keys": [{"t": 0, "camera_distance":
// 40}, ...]}). Throws SnapshotError "<name>: <key>: <what>" (an InputError): no keys, a time that
// is not finite, negative, out of order or repeated, an unknown key, a value outside its row.
CameraPath parse_camera_path(const std::string& text, const std::string& name);
CameraPath load_camera_path(const std::string& path);
// The path as its JSON text (a scene saves it whole).
std::string camera_path_json(const CameraPath& p);
// The view at path time t, from `start` (the view before the path: the rows no key gives).
ViewParams camera_at(const CameraPath& p, double t, const ViewParams& start);

const char* to_string(Easing e);

}  // namespace orrery
