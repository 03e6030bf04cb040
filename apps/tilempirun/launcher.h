// Running one job: create its shared state, start the ranks, forward their output, watch
// them, and end everything (processes and shared memory) however the job ends.
#pragma once

#include "options.h"

namespace tilempirun {

/// Grace between SIGTERM and SIGKILL when the launcher ends the remaining ranks.
inline constexpr double kKillGraceSeconds = 2.0;

/// A rank may send this signal to the launcher (its pid is in TILEMPI_LAUNCHER_PID) after it
/// recorded an abort, so that the job ends at once even while the rank itself still runs.
inline constexpr int kAbortNotifySignal = 10;  // SIGUSR1

/// Runs the job and returns the launcher's exit status (see options.h and --help).
int run_job(const Options& options);

}  // namespace tilempirun
