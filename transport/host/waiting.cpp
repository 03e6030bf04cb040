#include "host/waiting.h"

#include <sched.h>

namespace tilempi::transport::host {

SpinPolicy spin_policy(bool oversubscribed) {
  if (oversubscribed) return SpinPolicy{2000, true, 2};
  return SpinPolicy{50000, false, 0};
}

void yield_core() { ::sched_yield(); }

}  // namespace tilempi::transport::host
