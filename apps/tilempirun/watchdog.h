// The job's shared-memory segment must not outlive the job however the launcher ends. Normally
// the launcher removes its name (or the last rank to attach does); a launcher killed by SIGKILL
// while ranks are still starting could do neither, leaving the segment in /dev/shm for good. So
// the launcher starts a small watchdog first: a process of its own session (a signal to the
// terminal's process group does not reach it) that holds the read end of a pipe whose write
// end only the launcher holds. When the launcher is gone, however, the read returns end of file
// and the watchdog removes the name.
#pragma once

#include <string>

namespace tilempirun {

/// The hidden first argument that makes tilempirun a watchdog: tilempirun ARG FD NAME.
inline constexpr const char* kWatchdogArgument = "--segment-watchdog";

/// Starts the watchdog of segment NAME; false (with errno) when it could not be started, and the
/// job then runs unwatched, as before.
bool start_segment_watchdog(const std::string& name);

/// The watchdog's life: waits for end of file on FD, then removes NAME. Returns its exit status.
int run_segment_watchdog(int fd, const char* name);

}  // namespace tilempirun
