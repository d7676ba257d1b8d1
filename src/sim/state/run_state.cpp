// What a restart needs besides the bodies (orrery/run_state.h).
#include "orrery/run_state.h"

namespace orrery {

bool RunState::has_memory() const { return !last_acc.empty() || !last_acc64.empty(); }

}  // namespace orrery
