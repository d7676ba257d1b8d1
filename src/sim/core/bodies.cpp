// A state's float and double arrays, each from the other.
#include "orrery/bodies.h"

namespace orrery {

void widen_to_doubles(BodyState& s) {
  s.pos64.clear(), s.vel64.clear();
  for (const Vec4& p : s.pos) s.pos64.push_back(to_double(p));
  for (const Vec4& v : s.vel) s.vel64.push_back(to_double(v));
}

void round_to_floats(BodyState& s) {
  s.pos.clear(), s.vel.clear();
  for (const Vec4d& p : s.pos64) s.pos.push_back(to_float(p));
  for (const Vec4d& v : s.vel64) s.vel.push_back(to_float(v));
}

}  // namespace orrery
