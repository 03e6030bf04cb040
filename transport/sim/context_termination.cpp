// The simulator process's end by the launcher's SIGTERM (context_termination.h).
#include "sim/context_termination.h"

#include <signal.h>
#include <time.h>

#include <initializer_list>

#include "tilempi/transport/termination.h"

namespace tilempi::transport::sim {

namespace {

/// The signal noted, apart from the library's (termination.h): an MPI call of a rank that is a
/// context does not end the process at its return (as a rank process's does), the scheduler does
/// at its next turn, after saying where every rank was. (Ending at the call's return skipped that
/// report whenever the signal came during an MPI call.)
volatile sig_atomic_t g_noted = 0;

/// Half a second: long enough for a rank inside the library to return to normal context, well
/// inside the launcher's grace before it kills (kKillGraceSeconds, 2 s).
constexpr long kSecondSignalNs = 500'000'000;

extern "C" void on_contexts_termination(int sig) {
  if (g_noted != 0) {
    // The second signal: no normal context came in time (a rank running its own code). The
    // process ends here; the flush is not async-signal-safe, but losing every rank's output is
    // worse than the small chance of meeting a buffer in the middle of its update.
    end_by_signal(sig);
  }
  g_noted = sig;
  sigevent ev{};
  ev.sigev_notify = SIGEV_SIGNAL;
  ev.sigev_signo = sig;
  timer_t timer{};
  if (::timer_create(CLOCK_MONOTONIC, &ev, &timer) == 0) {
    itimerspec when{};
    when.it_value.tv_nsec = kSecondSignalNs;
    ::timer_settime(timer, 0, &when, nullptr);
  }
}

}  // namespace

int contexts_termination_signal() { return g_noted; }

void catch_termination_of_contexts() {
  // SIGINT too: the launcher passes a terminal's Ctrl-C on to the ranks, and here the ranks are
  // one process, whose death would take every rank's output (a rank process loses only its own).
  for (int sig : {SIGTERM, SIGINT}) {
    struct sigaction old{};
    if (::sigaction(sig, nullptr, &old) != 0) continue;
    const bool default_action = (old.sa_flags & SA_SIGINFO) ? old.sa_sigaction == nullptr : old.sa_handler == SIG_DFL;
    if (!default_action) continue;
    struct sigaction sa{};
    sa.sa_handler = on_contexts_termination;
    sigemptyset(&sa.sa_mask);
    // The second signal may come while the first one's handler runs; a system call the first one
    // interrupts (a write of the ranks' output) goes on rather than failing with EINTR.
    sa.sa_flags = SA_NODEFER | SA_RESTART;
    ::sigaction(sig, &sa, nullptr);
  }
}

}  // namespace tilempi::transport::sim
