#include "host/waiting.h"

#include <linux/membarrier.h>
#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace tilempi::transport::host {

SpinPolicy spin_policy(bool oversubscribed) {
  if (oversubscribed) return SpinPolicy{2000, true, 2};
  return SpinPolicy{50000, false, 0};
}

void yield_core() { ::sched_yield(); }

namespace {
long membarrier(int cmd) { return ::syscall(SYS_membarrier, cmd, 0u, 0); }
}  // namespace

bool register_light_fence() {
  const long cmds = membarrier(MEMBARRIER_CMD_QUERY);
  if (cmds < 0 || (cmds & MEMBARRIER_CMD_GLOBAL_EXPEDITED) == 0 ||
      (cmds & MEMBARRIER_CMD_REGISTER_GLOBAL_EXPEDITED) == 0)
    return false;
  return membarrier(MEMBARRIER_CMD_REGISTER_GLOBAL_EXPEDITED) == 0;
}

bool heavy_fence() { return membarrier(MEMBARRIER_CMD_GLOBAL_EXPEDITED) == 0; }

}  // namespace tilempi::transport::host
