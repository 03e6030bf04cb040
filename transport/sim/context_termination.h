// How the simulator process that runs ranks as contexts ends when the launcher ends the job
// (--timeout, Ctrl-C, a SIGTERM to tilempirun; SIGINT is treated as SIGTERM): without losing what the ranks printed. Every
// rank writes into this one process's stdio and Fortran buffers, so a plain death by SIGTERM
// lost every rank's buffered lines at once. As a rank process does (termination.h), the
// simulator only notes the signal and ends, output flushed, from normal context: at the
// scheduler's next turn (when the running rank next waits in MPI), after saying where every rank
// was. A rank that never calls MPI again
// (a loop in its own code) cannot be waited for: a second SIGTERM, which the simulator sends
// itself half a second after the first, flushes from the handler and ends the process.
#pragma once

namespace tilempi::transport::sim {

/// Installs the SIGTERM and SIGINT handler of the simulator process (where the signal still has
/// its default action: a program's own handler is left alone).
void catch_termination_of_contexts();
/// The SIGTERM or SIGINT noted, or 0 (the scheduler asks at every turn).
int contexts_termination_signal();

}  // namespace tilempi::transport::sim
