// orrery.Series' engine: a series' outputs (orrery/playback.h) read on the reader's thread, a
// frame handed to Python as numpy arrays, and the state between two outputs.
#include "py_series.h"

#include <pybind11/stl.h>

#include <cmath>
#include <memory>

#include "arrays.h"
#include "orrery/playback.h"

namespace orrery::python {
namespace {

class PySeries {
 public:
  PySeries(const std::vector<std::string>& args, const LoadOptions& o, std::size_t budget)
      : m_reader(list_series(args), o, budget) {}

  int size() const { return m_reader.size(); }
  const PlaybackOutput& output(int k) const { return m_reader.output(checked(k)); }

  // Output k, read (waiting, the GIL released), or ValueError with the gap's line.
  std::shared_ptr<const PlaybackFrame> frame(int k) {
    checked(k);
    PlaybackSlot s;
    {
      py::gil_scoped_release free;
      m_reader.aim(k, 1);
      s = m_reader.wait(k);
    }
    if (!s.frame) throw InputError(s.gap);
    return s.frame;
  }

  py::dict arrays(const BodyState& b, const PlaybackFrame& f, double time) {
    py::dict d;
    d["time"] = time;
    d["positions"] = column3(b.pos);
    d["velocities"] = column3(b.vel);
    d["masses"] = column_w(b.pos);
    d["ids"] = ids_of(f);
    return d;
  }

  py::dict read(int k) {
    const auto f = frame(k);
    py::dict d = arrays(f->bodies, *f, f->time);
    d["file"] = output(k).path;
    return d;
  }

  // The state at time t between outputs k and k + 1 (Hermite, bodies matched by ID), in k's order.
  py::dict between(int k, double t) {
    const auto a = frame(k), b = frame(k + 1);
    if (!(t >= a->time && t <= b->time))
      throw InputError("t=" + std::to_string(t) + ": not between outputs " + std::to_string(k) +
                       " and " + std::to_string(k + 1) + " (times " + std::to_string(a->time) +
                       " and " + std::to_string(b->time) + ")");
    BodyState out;
    {
      py::gil_scoped_release free;
      hermite_between(*a, *b, match_bodies(*a, *b), t, out);
    }
    return arrays(out, *a, t);
  }

 private:
  int checked(int k) const {
    if (k < 0 || k >= size())
      throw py::index_error("output " + std::to_string(k) + " of a series of " +
                            std::to_string(size()));
    return k;
  }
  static py::object ids_of(const PlaybackFrame& f) {
    if (f.ids.empty()) return py::none();
    py::array_t<std::uint64_t> a(static_cast<py::ssize_t>(f.ids.size()));
    std::copy(f.ids.begin(), f.ids.end(), a.mutable_data());
    return std::move(a);
  }
  SeriesReader m_reader;
};

}  // namespace

void bind_series(py::module_& m) {
  py::class_<PySeries>(m, "_Series")
      .def(py::init([](const std::vector<std::string>& args, std::optional<std::vector<int>> types,
                       std::optional<double> gadget_g, std::optional<std::string> units,
                       double budget) {
             if (!(budget >= 1 << 20) || !std::isfinite(budget))
               throw InputError("memory=" + number_text(budget) + ": at least 1 MiB (1048576)");
             return std::make_unique<PySeries>(args, load_options(types, gadget_g, units),
                                               static_cast<std::size_t>(budget));
           }),
           py::arg("args"), py::arg("types"), py::arg("gadget_g"), py::arg("units"),
           py::arg("memory"))
      .def("__len__", &PySeries::size)
      .def("path", [](const PySeries& s, int k) { return s.output(k).path; })
      .def("label", [](const PySeries& s, int k) { return s.output(k).label; })
      .def("read", &PySeries::read)
      .def("between", &PySeries::between);
}

}  // namespace orrery::python
