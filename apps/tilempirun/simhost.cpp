// tilempi-simhost: the simulator process of `tilempirun --transport sim` when ranks run as
// contexts (docs/SIM.md "Ranks as contexts"). tilempirun starts it once per job as
// `tilempi-simhost PROGRAM ARGS...`; it loads a private copy of PROGRAM per rank and runs them
// all beside the simulation engine (transport/sim/context_job.cpp).
//
// It also interposes the few C library functions whose process-wide state would otherwise leak
// between ranks (interpose.cpp): the program copies are loaded after this executable, so their
// calls find these definitions first. This executable is linked with -rdynamic for that reason.
#include "tilempi/transport/contexts.h"

int main(int argc, char** argv) { return tilempi::transport::sim::run_contexts(argc, argv); }
