// The run's numeric parameters as rows (REBOUND's descriptor table, binarydata.c): each row names a
// parameter once - its type, default, bounds, unit, help and owner - and the surfaces read the
// rows instead of naming it: both programs' options and --help, Python's keywords and properties,
// the panel's sliders, scene files, the HDF5 run record, validation and the printed run line.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "orrery/params.h"

namespace orrery {

// Where the viewer's camera stands (Python's render() and show() pass them on): the view's rows
// (view_rows()). The camera looks at the point (camera_x, camera_y, camera_z): the origin, or the
// bodies' framed centre (orrery/camera_motion.h), unless given.
struct ViewParams {
  float camera_distance = 50.0f;  // from the point looked at
  float camera_azimuth = 0.0f;    // degrees about +y, 0 looking down -z
  float camera_elevation = 0.0f;  // degrees above the x-z plane
  float camera_roll = 0.0f;       // degrees about the line of sight, counter-clockwise
  float fov = 45.0f;              // vertical field of view, degrees
  float camera_x = 0.0f, camera_y = 0.0f, camera_z = 0.0f;  // the point looked at
  float orbit = 0.0f;  // degrees of azimuth a second the camera turns on its own
};

// Which part reads the parameter (the panel greys a row whose owner does not take it).
enum class ParamOwner { core, integrator, solver, collider, view };
const char* to_string(ParamOwner o);

// How the surfaces take a row. plain: one number, read and written alike everywhere. step: the
// time step's own grammar ("auto", dt_max: parse_step_options and each file's reader), with the
// row's bounds and help. scene: a collider setting that the scene overrides carry over a preset's
// (orrery/scene.h). view: a ViewParams field (view_rows()), taken by the viewer, scenes and
// Python's render() alike.
enum class ParamForm { plain, step, scene, view };

// A row's SimParams field: a float, or a double (dt, which a double run steps by as given).
struct ParamRef {
  ParamRef(float& v) : f(&v) {}
  ParamRef(double& v) : d(&v) {}
  double get() const { return d ? *d : *f; }
  void set(double v) const {
    if (d)
      *d = v;
    else
      *f = static_cast<float>(v);
  }
  bool refers_to(const void* field) const {
    return field == (d ? static_cast<const void*>(d) : static_cast<const void*>(f));
  }
  float* f = nullptr;
  double* d = nullptr;
};

struct ParamRow {
  const char* name;   // --name on both command lines, name= in Python, "name" in scenes and HDF5
  const char* label;  // what a refusal calls it: "invalid <label> <value>: <rule>"
  ParamOwner owner;
  ParamForm form;
  const char* unit;    // in the run's units (G = 1): "time", "length"; "" for a pure number
  const char* help;    // one phrase for --help, the panel's tooltip and Python's docstring
  const char* detail;  // more for the panel's tooltip and the docstring ("" where none)
  float lo, hi;        // accepted: finite, above lo (lo_open) or from lo, and up to hi
  bool lo_open;
  const char* rule;  // the refusal's reason
  ParamRef (*field)(SimParams&);
  // orrery-bench runs a list of values, one run each, where the solver reads the row.
  bool sweep;
  // The panel's slider: its range (within the bounds; Ctrl+click types any value), its scale and
  // its printf format; and why the row is greyed where its owner does not take it.
  float panel_lo, panel_hi;
  bool panel_log;
  const char* panel_format;
  const char* unused_help;
  // A view row's field (field is then null).
  float& (*view_field)(ViewParams&);

  double get(const SimParams& p) const { return field(const_cast<SimParams&>(p)).get(); }
  void set(SimParams& p, double v) const { field(p).set(v); }
  // Whether its field is a double (else values are rounded to float before they are checked).
  bool is_double() const;
  float get(const ViewParams& v) const { return view_field(const_cast<ViewParams&>(v)); }
  void set(ViewParams& p, float v) const { view_field(p) = v; }
  double default_value() const { return view_field ? get(ViewParams{}) : get(SimParams{}); }
  // "--name", its underscores as dashes ("--camera-distance").
  std::string option() const;
};

// Every row of the run's parameters (SimParams), in the order the checks, the help and the files
// list them.
const std::vector<ParamRow>& param_rows();
// The view's rows (ViewParams), likewise.
const std::vector<ParamRow>& view_rows();
// Throws InputError for the first view row out of its bounds.
void validate(const ViewParams& v);
// The rows of one form.
std::vector<const ParamRow*> param_rows(ParamForm form);
// The row of that name, of either table; nullptr where there is none.
const ParamRow* find_param(std::string_view name);
// The row of that name; throws std::logic_error where there is none (a caller's mistake).
const ParamRow& param_row(std::string_view name);

// Throws InputError "invalid <label> <v>: <rule>" when v is not finite or out of the row's bounds.
void check_param(const ParamRow& r, double v);
// A typed value: parse_number's rules (rounded to float for a float row), then check_param; the
// InputError names `what` and the text ("--softening '1e-20': invalid softening 1e-20: ...").
double parse_param_text(const ParamRow& r, std::string_view text, std::string_view what);
// A value as messages, help texts and run lines print it (%g).
std::string param_value_text(double v);
// The help as --help prints it: the row's phrase, its bounds and its default.
std::string param_help(const ParamRow& r);
// "name value" for each plain row, comma-separated: the run line's part ("softening 0.1, ...");
// without the sweep rows where `sweeps` is false (orrery-bench prints those a run each).
std::string plain_params_text(const SimParams& p, bool sweeps = true);
// The row orrery-bench sweeps (the one row with `sweep`; a logic_error where the table has none
// or several).
const ParamRow& sweep_row();

// Plain rows by name, as a surface collected them (typed options, keywords): applied over a run's
// parameters in the table's order.
using ParamValues = std::map<std::string, float>;
void apply_params(const ParamValues& v, SimParams& p);

}  // namespace orrery
