#include "values.h"

#include "orrery/input.h"

namespace orrery::python {
namespace {

std::string type_name(const py::handle& v) { return py::str(py::type::of(v).attr("__name__")); }

// numpy's bool is "bool_" before numpy 2 and "bool" from it (not a subclass of Python's).
bool is_bool(const py::handle& v) {
  const std::string t = type_name(v);
  return py::isinstance<py::bool_>(v) || t == "bool_" || t == "bool";
}

std::string shown(const py::handle& v) {
  std::string s = py::repr(v);
  if (s.size() > 40) s = s.substr(0, 37) + "...";
  return s;
}

[[noreturn]] void wrong_type(const py::handle& v, const std::string& key, const char* expected) {
  throw py::type_error(key + "=" + shown(v) + ": expected " + expected + ", got " + type_name(v));
}

// The integer value of an index-like object, as a Python int.
py::object index_of(const py::handle& v, const std::string& key) {
  if (is_bool(v) || !PyIndex_Check(v.ptr())) wrong_type(v, key, "an integer");
  py::object index = py::reinterpret_steal<py::object>(PyNumber_Index(v.ptr()));
  if (!index) throw py::error_already_set();
  return index;
}

}  // namespace

bool as_bool(const py::handle& v, const std::string& key) {
  if (!is_bool(v)) wrong_type(v, key, "True or False");
  return PyObject_IsTrue(v.ptr()) == 1;
}

double as_number(const py::handle& v, const std::string& key) {
  if (is_bool(v) || py::isinstance<py::str>(v) || !PyNumber_Check(v.ptr()) ||
      PyComplex_Check(v.ptr()) || !py::hasattr(v, "__float__"))
    wrong_type(v, key, "a number");
  const double x = PyFloat_AsDouble(v.ptr());
  if (x == -1.0 && PyErr_Occurred()) {
    PyErr_Clear();
    throw InputError(key + "=" + shown(v) + ": beyond the range of a double");
  }
  return x;
}

long long as_integer(const py::handle& v, const std::string& key, long long lo, long long hi) {
  const py::object index = index_of(v, key);
  int overflow = 0;
  const long long x = PyLong_AsLongLongAndOverflow(index.ptr(), &overflow);
  if (overflow != 0 || x < lo || x > hi)
    throw InputError(key + "=" + shown(v) + ": must be " + std::to_string(lo) + " to " +
                     std::to_string(hi));
  return x;
}

std::uint64_t as_seed(const py::handle& v, const std::string& key) {
  const py::object index = index_of(v, key);
  const unsigned long long x = PyLong_AsUnsignedLongLong(index.ptr());
  if (x == static_cast<unsigned long long>(-1) && PyErr_Occurred()) {
    PyErr_Clear();
    throw InputError(key + "=" + shown(v) + ": must be 0 to 2^64 - 1");
  }
  return x;
}

std::string as_text(const py::handle& v, const std::string& key) {
  if (!py::isinstance<py::str>(v)) wrong_type(v, key, "a string");
  return v.cast<std::string>();
}

}  // namespace orrery::python
