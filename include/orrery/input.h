// The input rules both programs and the panel share: decimal integers with full range checks,
// finite floats that fit a float, and lists with no empty items (output_file.h: output files).
#pragma once


#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace orrery {

// Bad input from a user: the programs print its message as one line and exit with code 2.
class InputError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// A decimal integer in [lo, hi], the whole text: an optional sign and digits only (so "010" is
// ten, never octal; "0x10", "1e3", "" and "--" are not numbers). `what` names the value in the
// message ("--n"). Throws InputError.
long long parse_integer(std::string_view text, std::string_view what, long long lo, long long hi);
// A decimal integer in [0, 2^64 - 1] (a seed). Throws InputError.
std::uint64_t parse_u64(std::string_view text, std::string_view what);
// A finite decimal number that a float holds: digits with an optional sign, point and exponent
// ("0.016", "1e-3"); not nan, inf or hex; not beyond float's range; not a nonzero value that
// rounds to zero in float. Throws InputError.
float parse_float(std::string_view text, std::string_view what);
// parse_float's rules (float's range; no value that rounds to a float 0), the value kept in double.
double parse_number(std::string_view text, std::string_view what);
// The same, then checked against [lo, hi] (both inclusive). Throws InputError.
float parse_float_in(std::string_view text, std::string_view what, float lo, float hi);
// An error message fit for one line: newlines become spaces, and a message longer than 400
// characters (a pasted 100 KB value) keeps its first 240 and last 120 with the count cut between.
std::string one_line(std::string message);

// Splits a comma-separated list; an empty text or an empty item is an error. Throws InputError.
std::vector<std::string> split_list(std::string_view text, std::string_view what);

}  // namespace orrery
