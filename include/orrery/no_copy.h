// A base that makes a class impossible to copy (it owns a handle, a thread or memory); moving
// stays the class's own choice.
#pragma once

namespace orrery {

struct NoCopy {
  NoCopy() = default;
  NoCopy(const NoCopy&) = delete;
  NoCopy& operator=(const NoCopy&) = delete;
  NoCopy(NoCopy&&) = default;
  NoCopy& operator=(NoCopy&&) = default;
};

}  // namespace orrery
