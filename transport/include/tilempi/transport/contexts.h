// Ranks as contexts: the simulator process of the sim transport (docs/SIM.md "Ranks as
// contexts"). The launcher starts one such process per job; it loads a private copy of the
// program's image per rank and runs every rank as a user-level context, one at a time, in a
// deterministic order, beside the simulation engine. The functions below are for that process
// (tilempi-simhost) and the few C library functions it interposes (exit, rand, ...).
#pragma once

#include <string>

namespace tilempi::transport::sim {

/// Runs one job: argv = {host, program, program arguments...}; the job itself is described by
/// the environment the launcher set (TILEMPI_JOB and friends). Returns the process's exit status.
int run_contexts(int argc, char** argv);

/// Whether the code running now belongs to a rank (not to the scheduler, not before or after).
bool in_rank_context();
/// Whether this process is a simulator that runs ranks as contexts (tilempi-simhost).
bool hosts_rank_contexts();
/// The running rank (-1 outside a rank).
int running_rank();
/// Ends the running rank as if its main had returned status (exit(), Fortran STOP, _exit()).
[[noreturn]] void end_rank(int status);
/// The running rank did something that ranks as contexts cannot do (e.g. start a thread): ends
/// the job with a message that names the rank and says how to run it instead.
[[noreturn]] void fail_rank(const std::string& why);

}  // namespace tilempi::transport::sim
