// The host thread pool across fork(): a child of a threaded process runs its parallel regions on
// one thread (orrery/host_threads.h says why).
#include "orrery/host_threads.h"

#include <dirent.h>
#include <omp.h>
#include <pthread.h>

#include <cstring>
#include <mutex>

namespace orrery {
namespace {

bool g_parent_threaded = false;  // set in the parent just before a fork
bool g_child_one_thread = false;

// Threads of this process (/proc/self/task), at least 1.
int thread_count() {
  DIR* d = ::opendir("/proc/self/task");
  if (!d) return 2;  // cannot tell: take the safe side
  int n = 0;
  while (dirent* e = ::readdir(d))
    if (e->d_name[0] != '.') ++n;
  ::closedir(d);
  return n > 0 ? n : 1;
}

void before_fork() { g_parent_threaded = thread_count() > 1; }

void in_child() {
  if (!g_parent_threaded) return;
  omp_set_num_threads(1);
  g_child_one_thread = true;
}

}  // namespace

void guard_threads_across_fork() {
  static std::once_flag once;
  std::call_once(once, [] { ::pthread_atfork(&before_fork, nullptr, &in_child); });
}

bool forked_to_one_thread() { return g_child_one_thread; }

}  // namespace orrery
