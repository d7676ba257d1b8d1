// The shared input rules: strict decimal parsing, float range checks, lists.
#include "orrery/input.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>

namespace orrery {
namespace {

// A value as an error shows it: a long one (a pasted file) cut to its start and length.
std::string quoted(std::string_view text) {
  constexpr std::size_t k_shown = 60;
  if (text.size() <= k_shown) return "'" + std::string(text) + "'";
  return "'" + std::string(text.substr(0, k_shown)) + "...' (" + std::to_string(text.size()) +
         " characters)";
}

[[noreturn]] void fail(std::string_view what, std::string_view text, const std::string& why) {
  throw InputError(std::string(what) + " " + quoted(text) + ": " + why);
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// Digits with an optional leading sign, nothing else.
bool decimal_integer_text(std::string_view t) {
  std::size_t i = (!t.empty() && (t[0] == '-' || t[0] == '+')) ? 1 : 0;
  if (i == t.size()) return false;
  for (; i < t.size(); ++i)
    if (!is_digit(t[i])) return false;
  return true;
}

// [sign] digits [. digits] [e [sign] digits], with at least one digit before the exponent.
bool decimal_number_text(std::string_view t) {
  std::size_t i = 0, digits = 0;
  if (i < t.size() && (t[i] == '-' || t[i] == '+')) ++i;
  for (; i < t.size() && is_digit(t[i]); ++i) ++digits;
  if (i < t.size() && t[i] == '.')
    for (++i; i < t.size() && is_digit(t[i]); ++i) ++digits;
  if (digits == 0) return false;
  if (i < t.size() && (t[i] == 'e' || t[i] == 'E')) {
    ++i;
    if (i < t.size() && (t[i] == '-' || t[i] == '+')) ++i;
    std::size_t exp_digits = 0;
    for (; i < t.size() && is_digit(t[i]); ++i) ++exp_digits;
    if (exp_digits == 0) return false;
  }
  return i == t.size();
}

std::string range_text(long long lo, long long hi) {
  return "out of range (" + std::to_string(lo) + " to " + std::to_string(hi) + ")";
}

}  // namespace

std::string one_line(std::string s) {
  std::replace(s.begin(), s.end(), '\n', ' ');
  while (!s.empty() && s.back() == ' ') s.pop_back();
  constexpr std::size_t k_max = 400, k_head = 240, k_tail = 120;
  if (s.size() > k_max)
    s = s.substr(0, k_head) + " [... " + std::to_string(s.size() - k_head - k_tail) +
        " characters cut ...] " + s.substr(s.size() - k_tail);
  return s;
}

long long parse_integer(std::string_view text, std::string_view what, long long lo, long long hi) {
  if (text.empty()) throw InputError(std::string(what) + ": empty value (a number is expected)");
  if (!decimal_integer_text(text)) fail(what, text, "not a number (a decimal integer is expected)");
  const std::string_view digits = text[0] == '+' ? text.substr(1) : text;
  long long v = 0;
  const auto r = std::from_chars(digits.data(), digits.data() + digits.size(), v);
  if (r.ec == std::errc::result_out_of_range || v < lo || v > hi)
    fail(what, text, range_text(lo, hi));
  if (r.ec != std::errc() || r.ptr != digits.data() + digits.size())
    fail(what, text, "not a number (a decimal integer is expected)");
  return v;
}

std::uint64_t parse_u64(std::string_view text, std::string_view what) {
  if (text.empty()) throw InputError(std::string(what) + ": empty value (a number is expected)");
  if (!decimal_integer_text(text)) fail(what, text, "not a number (a decimal integer is expected)");
  if (text[0] == '-') fail(what, text, "out of range (0 to 18446744073709551615)");
  const std::string_view digits = text[0] == '+' ? text.substr(1) : text;
  std::uint64_t v = 0;
  const auto r = std::from_chars(digits.data(), digits.data() + digits.size(), v);
  if (r.ec != std::errc() || r.ptr != digits.data() + digits.size())
    fail(what, text, "out of range (0 to 18446744073709551615)");
  return v;
}

float parse_float(std::string_view text, std::string_view what) {
  return static_cast<float>(parse_number(text, what));
}

double parse_number(std::string_view text, std::string_view what) {
  if (text.empty()) throw InputError(std::string(what) + ": empty value (a number is expected)");
  if (!decimal_number_text(text))
    fail(what, text, "not a number (a finite decimal such as 0.016 or 1e-3 is expected)");
  const std::string_view body = text[0] == '+' ? text.substr(1) : text;
  double d = 0;
  const auto r = std::from_chars(body.data(), body.data() + body.size(), d);
  if (r.ec == std::errc::result_out_of_range || (r.ec == std::errc() && !std::isfinite(d)) ||
      std::fabs(d) > std::numeric_limits<float>::max())
    fail(what, text, "beyond the range of a float (about 3.4e38)");
  if (r.ec != std::errc() || r.ptr != body.data() + body.size())
    fail(what, text, "not a number (a finite decimal such as 0.016 or 1e-3 is expected)");
  if (d != 0.0 && static_cast<float>(d) == 0.0f)
    fail(what, text, "too small for a float (it would round to 0)");
  return d;
}

float parse_float_in(std::string_view text, std::string_view what, float lo, float hi) {
  const float v = parse_float(text, what);
  if (v < lo || v > hi) {
    char buf[96];
    std::snprintf(buf, sizeof buf, "out of range (%g to %g)", static_cast<double>(lo),
                  static_cast<double>(hi));
    fail(what, text, buf);
  }
  return v;
}

std::vector<std::string> split_list(std::string_view text, std::string_view what) {
  if (text.empty()) throw InputError(std::string(what) + ": empty value (a list is expected)");
  std::vector<std::string> items;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = text.find(',', start);
    const std::string_view item = text.substr(
        start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
    if (item.empty()) fail(what, text, "empty item in the list");
    items.emplace_back(item);
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return items;
}

}  // namespace orrery
