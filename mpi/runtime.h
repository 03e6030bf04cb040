// Process-wide state of the MPI library: the transport this rank talks through, init/finalize.
#pragma once

#include "mpi.h"
#include "tilempi/transport/transport.h"

namespace tilempi::mpi {

struct Runtime {
  std::unique_ptr<transport::Transport> transport;
  bool initialized = false;
  bool finalized = false;
  int thread_level = MPI_THREAD_SINGLE;
};

Runtime& runtime();
/// The transport; only valid between MPI_Init and MPI_Finalize.
inline transport::Transport& transport_of_job() { return *runtime().transport; }

}  // namespace tilempi::mpi
