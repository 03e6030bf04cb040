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
  int api_depth = 0;  ///< MPI calls in progress (a call may make others)
};

Runtime& runtime();
/// The transport; only valid between MPI_Init and MPI_Finalize.
inline transport::Transport& transport_of_job() { return *runtime().transport; }

/// Brackets one MPI call, so that the transport knows where the application's own work ends
/// and begins (the sim transport's --compute scale:F charges the time between MPI calls, not
/// the library's work inside them).
/// The outermost call's name goes to the transport too: a simulator that sees a rank crash
/// names the rank's last MPI call.
struct ApiScope {
  explicit ApiScope(const char* call) {
    Runtime& rt = runtime();
    if (rt.api_depth++ == 0 && rt.transport) rt.transport->enter_library(call);
  }
  ~ApiScope() {
    Runtime& rt = runtime();
    if (--rt.api_depth == 0 && rt.transport) rt.transport->leave_library();
  }
  ApiScope(const ApiScope&) = delete;
  ApiScope& operator=(const ApiScope&) = delete;
};

}  // namespace tilempi::mpi
