// Crash reports of ranks as contexts: a rank that dies of a signal takes the simulator process
// with it, and the launcher must still say which rank it was and why. A stack overflow into a
// context's guard page is named as such, with the setting that raises the stack.
#pragma once

#include <cstddef>

#include "sim/sim_shm.h"
#include "tilempi/transport/context.h"

namespace tilempi::transport::sim {

/// What a crash report says of the rank whose code ran when the signal came.
struct CrashedRank {
  int rank = -1;
  const Context* context = nullptr;  ///< its stack, whose guard page tells an overflow
  const char* last_call = nullptr;   ///< its last MPI call (null: none)
  std::size_t stack_bytes = 0;
};

/// Installs the handlers of the fatal signals (on a stack of their own, so that an overflow can
/// be reported). On a signal, `running` (async-signal-safe: no allocation, no lock) says which
/// rank ran; the report goes into the job header's failure record, then the process dies of the
/// signal (exit status 128 + sig). A signal while no rank ran only kills.
void install_crash_handlers(Header* header, bool (*running)(CrashedRank* out));

}  // namespace tilempi::transport::sim
