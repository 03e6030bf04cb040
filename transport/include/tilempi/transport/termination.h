// How a rank process (host transport, sim ranks as processes) ends when the job ends around
// it, without losing what it printed. A program's output to a pipe or file sits in its
// runtimes' buffers (C stdio, the Fortran runtime's units) until they fill or the program
// exits; a rank ended by a signal while it waits for a message that will never come (a peer
// called MPI_Abort) would take that output with it. So a SIGTERM that arrives while the rank is
// inside the MPI library (no stdio lock of the program held) is only noted, and the library
// ends the rank from normal context, output flushed, at its next wait or when the call
// returns. Outside the library the signal acts at once, as before. A rank that aborts flushes
// before it tells the launcher.
#pragma once

#include <signal.h>

namespace tilempi::transport {

/// Writes out what the program wrote but its runtimes still buffer: every C stdio stream (C++
/// streams synced with stdio go through them) and every unit of the Fortran runtime when the
/// program uses it.
void flush_program_output();

/// Catches SIGTERM where it still has its default action (a program's own handler is left
/// alone). Called by a transport whose launcher ends ranks with SIGTERM.
void catch_termination();

/// The MPI library's count of calls in progress: while it is above zero a SIGTERM is noted.
void watch_library_depth(const int* depth);

/// Brackets a wait inside the library (also when no depth is watched).
class TerminationWindow {
 public:
  TerminationWindow();
  ~TerminationWindow();
  TerminationWindow(const TerminationWindow&) = delete;
  TerminationWindow& operator=(const TerminationWindow&) = delete;
};

namespace detail {
extern volatile sig_atomic_t noted_termination;
}

/// The SIGTERM noted inside the library, or 0.
inline int termination_signal() { return detail::noted_termination; }

/// Flushes the program's output and ends the rank by SIG with its default action, so that the
/// launcher sees the status it would have seen.
[[noreturn]] void end_by_signal(int sig);

}  // namespace tilempi::transport
