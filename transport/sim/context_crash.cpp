// Crash reports of ranks as contexts (context_crash.h).
#include "sim/context_crash.h"

#include <signal.h>

#include <cstdio>
#include <cstring>

#include "tilempi/transport/termination.h"

namespace tilempi::transport::sim {

namespace {

char g_crash_stack[64 * 1024];
Header* g_header = nullptr;
bool (*g_running)(CrashedRank*) = nullptr;

const char* signal_name(int sig) {
  switch (sig) {
    case SIGSEGV: return "SIGSEGV";
    case SIGBUS: return "SIGBUS";
    case SIGFPE: return "SIGFPE";
    case SIGILL: return "SIGILL";
    case SIGABRT: return "SIGABRT";
    default: return "a signal";
  }
}

extern "C" void on_rank_crash(int sig, siginfo_t* info, void*) {
  // Async-signal context: fixed buffers, no allocation. The message goes to the launcher
  // through the job's header; the process then dies of the signal (exit status 128 + sig).
  CrashedRank s;
  if (g_header && g_running && g_running(&s)) {
    Header* h = g_header;
    std::uint32_t expected = 0;
    if (shared(h->failure_state).compare_exchange_strong(expected, 1)) {
      // A fault address only when the kernel raised the signal (si_code > 0), not raise()/kill().
      const bool overflow = (sig == SIGSEGV || sig == SIGBUS) && info && info->si_code > 0 && s.context &&
                            s.context->in_guard(info->si_addr);
      if (overflow) {
        std::snprintf(h->failure, sizeof h->failure,
                      "rank %d: stack overflow (%s): its stack of %zu KiB is used up (last MPI call: %s); "
                      "raise it with --set sim.stack_kib=N",
                      s.rank, signal_name(sig), s.stack_bytes >> 10, s.last_call ? s.last_call : "none");
      } else {
        std::snprintf(h->failure, sizeof h->failure, "rank %d crashed with signal %d (%s: %s) (last MPI call: %s)",
                      s.rank, sig, signal_name(sig), strsignal(sig), s.last_call ? s.last_call : "none");
      }
      shared(h->failure_state).store(2, std::memory_order_release);
    }
    // The ranks share this process's stdio and Fortran buffers: what the others printed would
    // die with it. Not async-signal-safe, but the process ends here anyway, its report is
    // already written, and a second fault in the flush meets the default action (SA_RESETHAND).
    flush_program_output();
  }
  ::signal(sig, SIG_DFL);
  ::raise(sig);
}

}  // namespace

void install_crash_handlers(Header* header, bool (*running)(CrashedRank* out)) {
  g_header = header;
  g_running = running;
  stack_t ss{};
  ss.ss_sp = g_crash_stack;
  ss.ss_size = sizeof g_crash_stack;
  ::sigaltstack(&ss, nullptr);
  struct sigaction sa{};
  sa.sa_sigaction = on_rank_crash;
  sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESETHAND | SA_NODEFER;
  sigemptyset(&sa.sa_mask);
  for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) ::sigaction(sig, &sa, nullptr);
}

}  // namespace tilempi::transport::sim
