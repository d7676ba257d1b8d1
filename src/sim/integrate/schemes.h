// The integrators' schemes, one file each; integrators.cpp puts each in its row.
#pragma once

#include <memory>

#include "orrery/integrators.h"

namespace orrery {

std::unique_ptr<IntegratorScheme> make_euler();
std::unique_ptr<IntegratorScheme> make_leapfrog();
std::unique_ptr<IntegratorScheme> make_yoshida4();

}  // namespace orrery
