// Process-wide state of the MPI library: the transport this rank talks through, init/finalize.
#pragma once

#include <cerrno>
#include <cstdint>

#include "mpi.h"
#include "tilempi/transport/rank_local.h"
#include "tilempi/transport/termination.h"
#include "tilempi/transport/transport.h"

namespace tilempi::mpi {

struct Runtime {
  std::unique_ptr<transport::Transport> transport;
  bool initialized = false;
  bool finalized = false;
  int thread_level = MPI_THREAD_SINGLE;
  int api_depth = 0;  ///< MPI calls in progress (a call may make others)
  /// The outermost MPI call in progress, or the last one (its name): a transport without brackets
  /// learns it from the description of what the rank waits for (api_env.cpp).
  const char* call = nullptr;
  /// The transport when it keeps virtual time (it charges the time between MPI calls as the
  /// application's compute, so it must see where each call begins and ends), else nullptr: a
  /// transport in real time ignores the brackets, and two calls of empty functions through its
  /// vtable on every MPI call are not free.
  transport::Transport* bracketed = nullptr;
  /// The transport keeps no virtual time (set by MPI_Init): sends may skip the request.
  bool real_time = false;
  /// Between MPI_Init and MPI_Finalize, on a transport in real time and below
  /// MPI_THREAD_MULTIPLE: MPI_Send and MPI_Recv may try their fast path (p2p_fast.h, send_fast and
  /// recv_at_once) before anything else, without the call's bracket (ApiScope), which then has
  /// nothing to do.
  bool direct_p2p = false;
  /// MPI_Wtime on a virtual clock that does not move (api_env.cpp, note_wtime): the last value and how
  /// many calls in a row returned it.
  double last_wtime = -1;
  std::uint64_t same_wtime_calls = 0;
  bool said_time_frozen = false;
};

namespace threads {
/// Set by MPI_Init_thread when MPI_THREAD_MULTIPLE is provided, before other threads may call.
extern bool g_multiple;
/// Take the library's lock unless this thread holds it already (a nested call, or a non-blocking
/// collective's code resumed inside a call); true if this scope took it.
bool enter();
void leave();
/// Under MULTIPLE, from a thread that holds the lock and must wait for progress: let the other
/// threads in for a moment (they may be the ones that make the progress). False when not
/// under MULTIPLE (the caller then sleeps in the transport as usual).
bool pause_for_others();
/// Under MULTIPLE, a blocking wait begins: its first pauses only yield (a short spin), later ones nap.
void wait_begins();
}  // namespace threads

/// This rank's runtime; inline, since every MPI call asks for it several times.
extern transport::RankLocal<Runtime> g_runtime;
inline Runtime& runtime() { return g_runtime.get(); }
/// The transport; only valid between MPI_Init and MPI_Finalize.
inline transport::Transport& transport_of_job() { return *runtime().transport; }

/// Brackets one MPI call, so that the transport knows where the application's own work ends
/// and begins (the sim transport's --compute scale:F charges the time between MPI calls, not
/// the library's work inside them).
/// The outermost call's name goes to the transport too: a simulator that sees a rank crash
/// names the rank's last MPI call. (A transport in real time reads it only when it asks what the
/// rank waits for: Runtime::call.)
/// The application's errno is kept across the call: the library's own system calls (futex
/// timeouts, ...) are no business of the program's.
/// Under MPI_THREAD_MULTIPLE (threads.cpp) the outermost call of each thread holds the library's
/// lock for its whole length, except while it waits; without MULTIPLE the cost is one test of a
/// flag per call.
struct ApiScope {
  explicit ApiScope(const char* call) : rt_(runtime()), saved_errno_(errno) {
    if (threads::g_multiple) [[unlikely]]
      owner_ = threads::enter();
    // __func__ of an entry point is its PMPI_ name (the library is compiled with the PMPI_
    // names); the application called it by its MPI_ name.
    if (call[0] == 'P' && call[1] == 'M') ++call;
    if (rt_.api_depth++ == 0) {
      rt_.call = call;
      if (rt_.bracketed) rt_.bracketed->enter_library(call);
    }
  }
  ~ApiScope() {
    if (--rt_.api_depth == 0) {
      if (rt_.bracketed) rt_.bracketed->leave_library();
      // The launcher's SIGTERM came during the call: end here, output flushed (termination.h).
      if (int sig = transport::termination_signal()) [[unlikely]]
        transport::end_by_signal(sig);
    }
    if (owner_) [[unlikely]]
      threads::leave();
    errno = saved_errno_;
  }
  ApiScope(const ApiScope&) = delete;
  ApiScope& operator=(const ApiScope&) = delete;

 private:
  Runtime& rt_;  ///< (the rank's runtime stays where it is for the whole call)
  int saved_errno_;
  bool owner_ = false;
};

}  // namespace tilempi::mpi
