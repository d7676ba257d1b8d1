// Work that runs a library over hostile bytes in a child process: Debian's libhdf5 (1.10) reads
// freed memory and leaks on damaged files (found by fuzz_snapshot), and no check of ours can
// stand in front of its decoder. In a child, such a fault costs one error line, not the viewer
// or the Python interpreter with its run.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace orrery {

struct LoadProgress;

// Runs `work` in a forked child and returns the bytes it returned, passed back through an
// anonymous memory file. The child runs nothing else: no OpenMP, CUDA or GL, and it leaves with
// _exit. Throws SnapshotError: with the message of a SnapshotError `work` threw, or, when the
// child died or could not start, "<name>: <library> failed on it (...)". With `progress`, the
// parent checks it every 10 ms while it waits: a cancel kills the child (LoadCancelled).
std::vector<std::uint8_t> run_isolated(const std::function<std::vector<std::uint8_t>()>& work,
                                       const std::string& name, const std::string& library,
                                       LoadProgress* progress = nullptr);

}  // namespace orrery
