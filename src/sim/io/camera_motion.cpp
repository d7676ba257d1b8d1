// The camera's framing rules, follow choices and keyframe paths: their words and JSON, the sphere
// a framing fits, and the view a path gives at a time.
#include "orrery/camera_motion.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "json_reader.h"
#include "orrery/input.h"
#include "orrery/snapshot.h"

namespace orrery {
namespace {

using json = nlohmann::json;

// "word:F" with F in (0, 1].
double fraction_after(std::string_view text, std::size_t colon, std::string_view what) {
  const std::string whole = std::string(what) + " '" + std::string(text) + "'";
  const double f = parse_number(text.substr(colon + 1), whole);
  if (!(f > 0.0) || f > 1.0) throw InputError(whole + ": the fraction must be in (0, 1]");
  return f;
}

// The rows a key may give: every view row but orbit (a path turns the camera itself).
bool key_row(const ParamRow& row) { return std::string_view(row.name) != "orbit"; }

// A row's value as it is interpolated: the distance in log space, so that a zoom is even.
double to_curve(const ParamRow& row, float v) {
  return std::string_view(row.name) == "camera_distance" ? std::log(static_cast<double>(v)) : v;
}
float from_curve(const ParamRow& row, double c) {
  const double v = std::string_view(row.name) == "camera_distance" ? std::exp(c) : c;
  // A smooth curve may overshoot a key near a bound (an elevation near the pole).
  const double lo = row.lo_open ? std::nextafter(row.lo, row.hi) : row.lo;
  return static_cast<float>(std::clamp(v, static_cast<double>(lo), static_cast<double>(row.hi)));
}

// The keys' views with every row filled: a row a key leaves out is the key before's.
std::vector<ViewParams> resolved(const CameraPath& p, const ViewParams& start) {
  std::vector<ViewParams> out;
  ViewParams now = start;
  for (const CameraKey& k : p.keys) {
    for (const ParamRow& row : view_rows())
      if (k.given.count(row.name)) row.set(now, row.get(k.view));
    out.push_back(now);
  }
  return out;
}

}  // namespace

Framing parse_framing(std::string_view text, std::string_view what) {
  Framing f;
  if (text == "all") {
    f.kind = Framing::Kind::all, f.fraction = 1.0;
  } else if (text == "none") {
    f.kind = Framing::Kind::none;
  } else if (text.rfind("mass:", 0) == 0) {
    f.kind = Framing::Kind::mass, f.fraction = fraction_after(text, 4, what);
  } else if (text.rfind("bodies:", 0) == 0) {
    f.kind = Framing::Kind::bodies, f.fraction = fraction_after(text, 6, what);
  } else {
    throw InputError(std::string(what) + " '" + std::string(text) +
                     "': must be all, none, mass:F or bodies:F (F in (0, 1])");
  }
  return f;
}

std::string to_string(const Framing& f) {
  switch (f.kind) {
    case Framing::Kind::none:
      return "none";
    case Framing::Kind::all:
      return "all";
    case Framing::Kind::mass:
      return "mass:" + param_value_text(f.fraction);
    case Framing::Kind::bodies:
      break;
  }
  return "bodies:" + param_value_text(f.fraction);
}

std::optional<Sphere> framing_sphere(const Vec4* pos, std::size_t n, std::size_t stride,
                                     const Framing& f) {
  if (f.kind == Framing::Kind::none || n == 0 || stride == 0) return std::nullopt;
  double c[3] = {0, 0, 0}, m = 0, plain[3] = {0, 0, 0};
  std::size_t count = 0;
  for (std::size_t i = 0; i < n; i += stride, ++count) {
    const Vec4& p = pos[i];
    c[0] += double(p.w) * p.x, c[1] += double(p.w) * p.y, c[2] += double(p.w) * p.z, m += p.w;
    plain[0] += p.x, plain[1] += p.y, plain[2] += p.z;
  }
  Sphere s;
  for (int k = 0; k < 3; ++k)  // massless bodies alone: their middle
    s.centre[k] = m > 0 ? c[k] / m : plain[k] / static_cast<double>(count);
  std::vector<std::pair<double, double>> r;  // (distance, mass)
  r.reserve(count);
  for (std::size_t i = 0; i < n; i += stride) {
    const Vec4& p = pos[i];
    const double dx = p.x - s.centre[0], dy = p.y - s.centre[1], dz = p.z - s.centre[2];
    r.emplace_back(std::sqrt(dx * dx + dy * dy + dz * dz), p.w);
  }
  if (f.kind == Framing::Kind::all) {
    for (const auto& e : r) s.radius = std::max(s.radius, e.first);
  } else if (f.kind == Framing::Kind::bodies || !(m > 0)) {
    const std::size_t k = std::min(
        r.size() - 1, static_cast<std::size_t>(static_cast<double>(r.size()) * f.fraction));
    std::nth_element(r.begin(), r.begin() + static_cast<std::ptrdiff_t>(k), r.end());
    s.radius = r[k].first;
  } else {  // the radius where the mass inside first reaches the fraction
    std::sort(r.begin(), r.end());
    double inside = 0;
    for (const auto& e : r) {
      inside += e.second;
      s.radius = e.first;
      if (inside >= f.fraction * m) break;
    }
  }
  if (!(s.radius > 0.0) || !std::isfinite(s.radius)) return std::nullopt;
  return s;
}

FollowChoice parse_follow(std::string_view text, std::string_view what) {
  FollowChoice f;
  if (text == "none") return f;
  if (text == "com") {
    f.kind = FollowKind::centre_of_mass;
    return f;
  }
  if (text.rfind("body:", 0) == 0) {
    f.kind = FollowKind::picked_body;
    f.body = parse_integer(text.substr(5), std::string(what) + " '" + std::string(text) + "'", 0,
                           (1LL << 40));
    return f;
  }
  throw InputError(std::string(what) + " '" + std::string(text) +
                   "': must be none, com (the centre of mass) or body:I (the body at index I)");
}

std::string to_string(const FollowChoice& f) {
  switch (f.kind) {
    case FollowKind::nothing:
      return "none";
    case FollowKind::centre_of_mass:
      return "com";
    case FollowKind::picked_body:
      break;
  }
  return "body:" + std::to_string(f.body);
}

const char* to_string(Easing e) {
  static constexpr const char* k_names[] = {"smooth", "linear", "ease"};
  return k_names[static_cast<int>(e)];
}

bool CameraPath::gives(const std::string& row) const {
  for (const CameraKey& k : keys)
    if (k.given.count(row)) return true;
  return false;
}

bool CameraPath::moves_centre() const {
  return gives("camera_x") || gives("camera_y") || gives("camera_z");
}

CameraPath parse_camera_path(const std::string& text, const std::string& name) {
  const json j = parse_json_text(text, name);
  const Reader r{name};
  if (!j.is_object()) r.fail("(top)", "must be an object with \"keys\"");
  r.known(j, {"easing", "loop", "keys"}, "");
  CameraPath p;
  if (j.contains("easing")) {
    const std::string e = r.text(j["easing"], "easing");
    bool found = false;
    for (Easing k : {Easing::smooth, Easing::linear, Easing::ease})
      if (e == to_string(k)) p.easing = k, found = true;
    if (!found) r.fail("easing", "'" + e + "' is not one of smooth, linear, ease");
  }
  if (j.contains("loop")) {
    if (!j["loop"].is_boolean()) r.fail("loop", "must be true or false");
    p.loop = j["loop"].get<bool>();
  }
  if (!j.contains("keys")) r.fail("keys", "missing (the keyframes: [{\"t\": 0, ...}, ...])");
  const json& keys = j["keys"];
  if (!keys.is_array() || keys.empty()) r.fail("keys", "must be a non-empty array of keyframes");
  std::set<std::string> names = {"t"};
  for (const ParamRow& row : view_rows())
    if (key_row(row)) names.insert(row.name);
  for (std::size_t i = 0; i < keys.size(); ++i) {
    const std::string where = "keys[" + std::to_string(i) + "]";
    const json& k = keys[i];
    if (!k.is_object()) r.fail(where, "must be an object");
    for (auto it = k.begin(); it != k.end(); ++it)
      if (!names.count(it.key()))
        r.fail(where + "." + it.key(),
               it.key() == "orbit" ? "a path turns the camera itself" : "unknown key");
    if (!k.contains("t")) r.fail(where + ".t", "missing (the key's time in seconds)");
    CameraKey key;
    key.t = r.number(k["t"], where + ".t");
    if (key.t < 0) r.fail(where + ".t", "must be >= 0");
    if (!p.keys.empty() && !(key.t > p.keys.back().t))
      r.fail(where + ".t", param_value_text(key.t) +
                               (key.t == p.keys.back().t ? " repeats" : " comes before") +
                               " the key before's " + param_value_text(p.keys.back().t) +
                               " (times must increase)");
    for (const ParamRow& row : view_rows()) {
      if (!k.contains(row.name)) continue;
      const double v = r.number(k[row.name], where + "." + row.name);
      try {
        check_param(row, v);
      } catch (const InputError& e) {
        r.fail(where + "." + row.name, e.what());
      }
      row.set(key.view, static_cast<float>(v));
      key.given.insert(row.name);
    }
    p.keys.push_back(std::move(key));
  }
  return p;
}

CameraPath load_camera_path(const std::string& path) {
  const std::vector<std::uint8_t> bytes = read_input_file(path);
  return parse_camera_path(std::string(bytes.begin(), bytes.end()), path);
}

std::string camera_path_json(const CameraPath& p) {
  json j;
  j["easing"] = to_string(p.easing);
  j["loop"] = p.loop;
  j["keys"] = json::array();
  for (const CameraKey& k : p.keys) {
    json key;
    key["t"] = k.t;
    for (const ParamRow& row : view_rows())
      if (k.given.count(row.name)) key[row.name] = row.get(k.view);
    j["keys"].push_back(key);
  }
  return j.dump(2) + "\n";
}

ViewParams camera_at(const CameraPath& p, double t, const ViewParams& start) {
  if (p.keys.empty()) return start;
  const std::vector<ViewParams> v = resolved(p, start);
  const std::vector<CameraKey>& k = p.keys;
  const std::size_t last = k.size() - 1;
  if (p.loop && k[last].t > 0 && t > k[last].t) t = std::fmod(t, k[last].t);
  if (!(t > k[0].t)) return v[0];
  if (t >= k[last].t) return v[last];
  std::size_t i = 0;
  while (k[i + 1].t <= t) ++i;
  const double span = k[i + 1].t - k[i].t, u = (t - k[i].t) / span;
  ViewParams out = v[i];
  for (const ParamRow& row : view_rows()) {
    if (!key_row(row)) continue;
    const double a = to_curve(row, row.get(v[i])), b = to_curve(row, row.get(v[i + 1]));
    double c;
    if (p.easing == Easing::linear) {
      c = a + (b - a) * u;
    } else if (p.easing == Easing::ease) {
      c = a + (b - a) * u * u * (3.0 - 2.0 * u);
    } else {  // cubic Hermite with Catmull-Rom slopes over time, at rest at the ends
      const auto slope = [&](std::size_t j) {
        if (j == 0 || j == last) return 0.0;
        return (to_curve(row, row.get(v[j + 1])) - to_curve(row, row.get(v[j - 1]))) /
               (k[j + 1].t - k[j - 1].t);
      };
      const double u2 = u * u, u3 = u2 * u;
      c = (2 * u3 - 3 * u2 + 1) * a + (u3 - 2 * u2 + u) * span * slope(i) + (-2 * u3 + 3 * u2) * b +
          (u3 - u2) * span * slope(i + 1);
    }
    row.set(out, from_curve(row, c));
  }
  return out;
}

}  // namespace orrery
