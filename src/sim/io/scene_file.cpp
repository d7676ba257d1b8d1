// Scene files: nlohmann/json parsing with every key checked (type, range, spelling), writing, and
// the lookup of the shipped scenes next to the executable or under the install prefix.
#include "orrery/scene_file.h"

#include <dirent.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <utility>

#include "json_reader.h"
#include "orrery/camera_motion.h"
#include "orrery/collisions.h"
#include "orrery/fields.h"
#include "orrery/param_table.h"

namespace orrery {
namespace {

using json = nlohmann::json;

// The keys of a scene's top level: its own and one per parameter row.
const std::set<std::string>& top_keys() {
  static const std::set<std::string> k = [] {
    std::set<std::string> keys = {
        "name",   "description", "initial", "solver",      "block",      "integrator",
        "dt_max", "precision",   "gravity", "collisions",  "box",        "steps_per_frame",
        "units",  "color",       "palette", "color_scale", "hud",        "frame",
        "mode",   "color_range", "trails",  "follow",      "keep_frame", "camera_path"};
    for (const auto* rows : {&param_rows(), &view_rows()})
      for (const ParamRow& r : *rows) keys.insert(r.name);
    return keys;
  }();
  return k;
}
const std::set<std::string>& initial_keys() {
  static const std::set<std::string> k = {"preset",         "n",      "seed",    "scale",
                                          "velocity_scale", "radius", "snapshot"};
  return k;
}

// The camera's framing, follow, keep_frame and path keys.
void read_camera_motion(const json& j, const Reader& r, SceneFile& s) {
  const auto word = [&](const char* key, auto parse) {
    if (!j.contains(key)) return std::string();
    const std::string v = r.text(j[key], key);
    try {
      parse(v, key);
    } catch (const InputError& e) {
      r.fail(key, e.what());
    }
    return v;
  };
  s.frame = word("frame", parse_framing);
  s.follow = word("follow", parse_follow);
  if (j.contains("keep_frame")) {
    if (!j["keep_frame"].is_boolean()) r.fail("keep_frame", "must be true or false");
    s.keep_frame = j["keep_frame"].get<bool>();
  }
  if (j.contains("camera_path"))
    s.camera_path = parse_camera_path(j["camera_path"].dump(), r.file + ": camera_path");
}

std::string folder_of(const std::string& path) {
  const std::size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? "." : path.substr(0, slash);
}

}  // namespace

SceneFile parse_scene(const std::string& text, const std::string& name) {
  const json j = parse_json_text(text, name);
  const Reader r{name};
  if (!j.is_object()) r.fail("(top)", "must be an object");
  r.known(j, top_keys(), "");
  SceneFile s;
  if (j.contains("name")) s.name = r.text(j["name"], "name");
  if (j.contains("description")) s.description = r.text(j["description"], "description");
  if (!j.contains("initial")) r.fail("initial", "missing (a preset or a snapshot)");
  const json& in = j["initial"];
  if (!in.is_object()) r.fail("initial", "must be an object");
  r.known(in, initial_keys(), "initial.");
  if (in.contains("snapshot") && in.contains("preset"))
    r.fail("initial", "names both a preset and a snapshot");
  if (in.contains("snapshot")) {
    s.snapshot = r.text(in["snapshot"], "initial.snapshot");
    if (s.snapshot.empty()) r.fail("initial.snapshot", "empty");
    for (const char* k : {"n", "seed", "scale", "velocity_scale"})
      if (in.contains(k)) r.fail(std::string("initial.") + k, "only for a preset");
  } else {
    if (!in.contains("preset")) r.fail("initial", "names neither a preset nor a snapshot");
    try {
      s.preset = parse_preset(r.text(in["preset"], "initial.preset"));
    } catch (const std::invalid_argument& e) {
      r.fail("initial.preset", e.what());
    }
    if (in.contains("n"))
      s.n = static_cast<int>(r.integer(in["n"], "initial.n", 1, std::numeric_limits<int>::max()));
    if (in.contains("seed")) {
      if (!in["seed"].is_number_unsigned() && !in["seed"].is_number_integer())
        r.fail("initial.seed", "must be a whole number");
      if (in["seed"].is_number_integer() && !in["seed"].is_number_unsigned())
        r.fail("initial.seed", "must be 0 or more");
      s.seed = in["seed"].get<std::uint64_t>();
    }
    if (in.contains("scale")) s.scale = r.in_float(in["scale"], "initial.scale", 1e-6, 1e6);
    if (in.contains("velocity_scale"))
      s.velocity_scale = r.in_float(in["velocity_scale"], "initial.velocity_scale", 0.0, 1e6);
  }
  if (in.contains("radius")) s.radius = r.in_float(in["radius"], "initial.radius", 0.0, 1e30);
  if (j.contains("solver")) {
    s.solver = r.text(j["solver"], "solver");
    if (!known_solver_name(s.solver)) r.fail("solver", "unknown solver '" + s.solver + "'");
  }
  if (j.contains("block")) s.block = static_cast<int>(r.integer(j["block"], "block", 0, 4096));
  if (j.contains("integrator")) {
    try {
      s.integrator = parse_integrator(r.text(j["integrator"], "integrator"));
    } catch (const InputError& e) {
      r.fail("integrator", e.what());
    }
  }
  SimParams& p = s.params;
  const PresetSettings ps = preset_settings(s.preset);
  if (s.snapshot.empty()) p.gravity = ps.gravity, p.collisions = ps.collisions;
  const bool automatic = j.contains("dt") && j["dt"].is_string();
  if (automatic) {
    if (r.text(j["dt"], "dt") != "auto")
      r.fail("dt", "must be a number > 0 or \"auto\" (the adaptive step)");
    p.adaptive = true;
  } else if (j.contains("dt")) {
    p.dt = r.number(j["dt"], "dt");
  }
  for (const char* key : {"dt_max", "eta"})
    if (j.contains(key) && !automatic)
      r.fail(key, "sets the adaptive step, which needs \"dt\": \"auto\"");
  if (j.contains("dt_max")) p.dt = r.number(j["dt_max"], "dt_max");
  if (j.contains("eta")) p.eta = static_cast<float>(r.number(j["eta"], "eta"));
  for (const ParamRow& row : param_rows())
    if (row.form != ParamForm::step && j.contains(row.name))
      row.set(p, static_cast<float>(r.number(j[row.name], row.name)));
  if (j.contains("precision")) {
    try {
      p.precision = parse_precision(r.text(j["precision"], "precision"));
    } catch (const InputError& e) {
      r.fail("precision", e.what());
    }
  }
  if (j.contains("gravity")) {
    if (!j["gravity"].is_boolean()) r.fail("gravity", "must be true or false");
    p.gravity = j["gravity"].get<bool>();
  }
  if (j.contains("collisions")) {
    try {
      p.collisions.mode = parse_collisions_option(r.text(j["collisions"], "collisions"));
    } catch (const InputError& e) {
      r.fail("collisions", e.what());
    }
  }
  if (j.contains("box")) p.collisions.box = static_cast<float>(r.number(j["box"], "box"));
  if (j.contains("steps_per_frame"))
    s.steps_per_frame =
        static_cast<int>(r.integer(j["steps_per_frame"], "steps_per_frame", 1, 1000));
  // The look: checked against the names here (the palettes against the viewer's, by the viewer).
  const auto one_of = [&](const char* key, const std::vector<std::string>& names) {
    if (!j.contains(key)) return std::string();
    const std::string v = r.text(j[key], key);
    if (std::find(names.begin(), names.end(), v) == names.end()) {
      std::string list;
      for (const std::string& n : names) list += (list.empty() ? "" : ", ") + n;
      r.fail(key, "'" + v + "' is not one of " + list);
    }
    return v;
  };
  s.color = one_of("color", quantity_names());
  s.color_scale = one_of("color_scale", {"linear", "log"});
  s.hud = one_of("hud", {"full", "minimal", "none"});
  s.mode = one_of("mode", {"bodies", "density"});
  if (j.contains("color_range")) {
    const json& c = j["color_range"];
    if (!c.is_array() || c.size() != 2) r.fail("color_range", "must be [lo, hi]");
    const double lo = r.number(c[0], "color_range"), hi = r.number(c[1], "color_range");
    if (!(lo < hi) || std::abs(lo) > 3e38 || std::abs(hi) > 3e38)
      r.fail("color_range", "must be [lo, hi] with lo < hi, finite floats");
    s.color_range = std::make_pair(static_cast<float>(lo), static_cast<float>(hi));
  }
  if (j.contains("trails")) {
    s.trails = static_cast<int>(r.integer(j["trails"], "trails", 0, 64));
    if (s.trails == 1) r.fail("trails", "a trail needs at least 2 positions (0 is off)");
  }
  if (j.contains("palette")) {
    s.palette = r.text(j["palette"], "palette");
    if (s.palette.empty()) r.fail("palette", "empty");
  }
  if (j.contains("units")) {
    s.units = r.text(j["units"], "units");
    try {
      if (parse_units(s.units, "units").henon && !s.snapshot.empty())
        r.fail("units", "henon rescales a preset; a snapshot's units are a length and a mass");
    } catch (const SnapshotError&) {
      throw;
    } catch (const InputError& e) {
      r.fail("units", e.what());
    }
  }
  // Each value alone against the shared rules, so the message names its key.
  auto alone = [&](const char* key, auto set) {
    if (!j.contains(key)) return;
    SimParams one;
    set(one);
    try {
      validate(one);
    } catch (const InputError& e) {
      r.fail(key, e.what());
    }
  };
  if (!automatic) alone("dt", [&](SimParams& q) { q.dt = p.dt; });
  alone("dt_max", [&](SimParams& q) { q.dt = p.dt; });
  alone("eta", [&](SimParams& q) { q.eta = p.eta; });
  for (const ParamRow& row : param_rows())
    if (row.form != ParamForm::step) alone(row.name, [&](SimParams& q) { row.set(q, row.get(p)); });
  for (const ParamRow& row : view_rows()) {
    if (!j.contains(row.name)) continue;
    const float v = static_cast<float>(r.number(j[row.name], row.name));
    try {
      check_param(row, v);
    } catch (const InputError& e) {
      r.fail(row.name, e.what());
    }
    row.set(s.view, v);
    s.view_given.insert(row.name);
  }
  read_camera_motion(j, r, s);
  alone("box", [&](SimParams& q) { q.collisions.box = p.collisions.box; });
  try {
    validate(p);
    check_integrator(s.integrator, p);
  } catch (const InputError& e) {
    throw SnapshotError(name + ": integrator and damping: " + e.what());
  }
  return s;
}

SceneFile load_scene(const std::string& path) {
  const std::vector<std::uint8_t> bytes = read_input_file(path);
  SceneFile s = parse_scene(std::string(bytes.begin(), bytes.end()), path);
  if (!s.snapshot.empty() && s.snapshot[0] != '/') s.snapshot = folder_of(path) + "/" + s.snapshot;
  return s;
}

std::string scene_json(const SceneFile& s) {
  json in;
  if (!s.snapshot.empty()) {
    in["snapshot"] = s.snapshot;
  } else {
    in["preset"] = to_string(s.preset);
    if (s.n > 0) in["n"] = s.n;
    in["seed"] = s.seed;
    in["scale"] = s.scale;
    in["velocity_scale"] = s.velocity_scale;
  }
  if (s.radius) in["radius"] = *s.radius;
  json j;
  j["name"] = s.name;
  j["description"] = s.description;
  j["initial"] = in;
  if (!s.solver.empty()) j["solver"] = s.solver;
  j["block"] = s.block;
  j["integrator"] = to_string(s.integrator);
  if (s.params.adaptive) {
    j["dt"] = "auto";
    j["dt_max"] = s.params.dt;
    j["eta"] = s.params.eta;
  } else {
    j["dt"] = s.params.dt;
  }
  for (const ParamRow& row : param_rows())
    if (row.form != ParamForm::step) j[row.name] = row.get(s.params);
  for (const ParamRow& row : view_rows())
    if (s.view_given.count(row.name)) j[row.name] = row.get(s.view);
  j["precision"] = to_string(s.params.precision);
  j["gravity"] = s.params.gravity;
  j["collisions"] = to_string(s.params.collisions.mode);
  j["box"] = s.params.collisions.box;
  j["steps_per_frame"] = s.steps_per_frame;
  if (!s.units.empty()) j["units"] = s.units;
  for (const auto& [key, v] : {std::pair{"color", &s.color}, std::pair{"palette", &s.palette},
                               std::pair{"color_scale", &s.color_scale}, std::pair{"hud", &s.hud}})
    if (!v->empty()) j[key] = *v;
  if (!s.mode.empty()) j["mode"] = s.mode;
  if (s.color_range) j["color_range"] = {s.color_range->first, s.color_range->second};
  if (s.trails >= 0) j["trails"] = s.trails;
  if (!s.frame.empty()) j["frame"] = s.frame;
  if (!s.follow.empty()) j["follow"] = s.follow;
  if (s.keep_frame) j["keep_frame"] = true;
  if (!s.camera_path.empty()) j["camera_path"] = json::parse(camera_path_json(s.camera_path));
  return j.dump(2) + "\n";
}

void save_scene(const std::string& path, const SceneFile& s) {
  const std::string text = scene_json(s);
  write_file_replacing(path, text.data(), text.size());
}

Snapshot scene_snapshot(const SceneFile& s, int n, const LoadOptions& o) {
  const UnitsChoice units = s.units.empty() ? UnitsChoice{} : parse_units(s.units, "units");
  if (!s.snapshot.empty()) {
    LoadOptions with = o;  // the scene's units for a file that brings none, under the options'
    if (!s.units.empty() && !o.units && !o.gadget_g_given) {
      with.units = units.units;
      with.units_option = s.name.empty() ? "the scene's units" : s.name + ": units";
    }
    Snapshot snap = load_snapshot(s.snapshot, with);
    if (s.radius) set_radius(snap.bodies.vel, *s.radius);
    snap.run_recorded = false;  // the scene's settings, not the file's
    return snap;
  }
  Snapshot snap;
  snap.run_recorded = false;
  snap.bodies = scene_bodies(s, n);
  snap.run.units = units.units;
  return snap;
}

BodyState scene_bodies(const SceneFile& s, int n) {
  if (!s.snapshot.empty()) return scene_snapshot(s, n, {}).bodies;
  BodyState b = make_preset(s.preset, n, s.seed);
  for (Vec4& p : b.pos) p.x *= s.scale, p.y *= s.scale, p.z *= s.scale;
  for (Vec4& v : b.vel)
    v.x *= s.velocity_scale, v.y *= s.velocity_scale, v.z *= s.velocity_scale, v.w *= s.scale;
  if (s.radius) set_radius(b.vel, *s.radius);
  if (!s.units.empty() && parse_units(s.units, "units").henon) scale_to_henon(b);
  return b;
}

std::vector<std::string> find_scenes() {
  std::vector<std::string> dirs;
  if (const char* env = std::getenv("ORRERY_SCENE_DIR"); env && *env) dirs.push_back(env);
  char buf[4096];
  const ssize_t len = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (len > 0) {
    buf[len] = '\0';
    const std::string exe = folder_of(buf);
    dirs.push_back(exe + "/scenes");
    dirs.push_back(exe + "/../share/orrery/scenes");
  }
  for (const std::string& d : dirs) {
    std::vector<std::string> found;
    if (DIR* dir = ::opendir(d.c_str())) {
      while (const dirent* e = ::readdir(dir)) {
        const std::string n = e->d_name;
        if (n.size() > 5 && n.compare(n.size() - 5, 5, ".json") == 0) found.push_back(d + "/" + n);
      }
      ::closedir(dir);
    }
    if (!found.empty()) {
      std::sort(found.begin(), found.end());
      return found;
    }
  }
  return {};
}

}  // namespace orrery
