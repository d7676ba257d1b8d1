// The host's thread pool (OpenMP) across fork(). GNU libgomp cannot restart its pool in a forked
// child: the child's first parallel region waits for threads that did not survive the fork, and
// hangs (a multiprocessing worker under the 'fork' start method, os.fork() after a step).
#pragma once

namespace orrery {

// Installed once (later calls do nothing): a child forked while this process had more than one
// thread (the pool may exist) runs its parallel regions on one thread - it works, serially, where
// it would hang. A child forked from a single-threaded process keeps every core. The 'spawn' and
// 'forkserver' start methods give each worker a fresh pool.
void guard_threads_across_fork();

// Whether this process is such a child (its parallel regions run on one thread).
bool forked_to_one_thread();

}  // namespace orrery
