// What every registry of rows does alike (the integrators, the colour quantities, the file
// formats, the parameters): a row by its number, the rows' names, a row by name, and the names
// as a message lists them.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace orrery {

// The row numbered `id`: a registry keeps its rows in the order of their numbers. A number with no
// row is a caller's mistake (std::logic_error naming `what`).
template <class Row, class Id>
const Row& row_by_id(const std::vector<Row>& rows, Id id, const char* what) {
  const auto k = static_cast<std::size_t>(id);
  if (k >= rows.size() || rows[k].id != id) throw std::logic_error(std::string(what) + ": no row");
  return rows[k];
}

template <class Row>
std::vector<std::string> row_names(const std::vector<Row>& rows) {
  std::vector<std::string> names;
  for (const Row& r : rows) names.push_back(r.name);
  return names;
}

// The row of that name; nullptr where there is none.
template <class Row>
const Row* row_named(const std::vector<Row>& rows, std::string_view name) {
  for (const Row& r : rows)
    if (name == r.name) return &r;
  return nullptr;
}

// "a, b or c".
inline std::string either(const std::vector<std::string>& names) {
  std::string s;
  for (std::size_t i = 0; i < names.size(); ++i)
    s += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + names[i];
  return s;
}

}  // namespace orrery
