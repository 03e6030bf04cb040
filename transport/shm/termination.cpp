#include "tilempi/transport/termination.h"

#include <dlfcn.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>

namespace tilempi::transport {

// detail::noted_termination is a common symbol declared in assembly, as detail::g_rank_slot is
// (dispatch.cpp): tilempirun links the transport statically and libtilempi.so as well, and the
// two definitions must merge into one object (AddressSanitizer would report a C++ definition in
// both as an ODR violation).
static_assert(sizeof(sig_atomic_t) == 4);
asm(".comm _ZN7tilempi9transport6detail17noted_terminationE,4,4");

namespace {

std::atomic<int> waiting{0};  // waits in progress (threads of a rank may wait at once)
const int* volatile library_depth = nullptr;

extern "C" void on_termination(int sig) {
  const int* depth = library_depth;
  if (waiting.load(std::memory_order_relaxed) > 0 || (depth && *depth > 0)) {
    detail::noted_termination = sig;  // the library ends the rank from normal context
    return;
  }
  ::signal(sig, SIG_DFL);
  ::raise(sig);
}

}  // namespace

void flush_program_output() {
  // gfortran keeps its own buffers for units that are not terminals; a program that is not
  // Fortran has no such symbol.
  using FlushUnits = void (*)(int*);
  if (auto flush_units = reinterpret_cast<FlushUnits>(::dlsym(RTLD_DEFAULT, "_gfortran_flush_i4")))
    flush_units(nullptr);  // a null unit: every unit
  std::fflush(nullptr);
}

void catch_termination() {
  struct sigaction old{};
  if (::sigaction(SIGTERM, nullptr, &old) != 0) return;
  const bool default_action = (old.sa_flags & SA_SIGINFO) ? old.sa_sigaction == nullptr : old.sa_handler == SIG_DFL;
  if (!default_action) return;  // the program's own handler
  struct sigaction sa{};
  sa.sa_handler = on_termination;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = 0;  // no SA_RESTART: a wait's sleep returns at once
  ::sigaction(SIGTERM, &sa, nullptr);
}

void watch_library_depth(const int* depth) { library_depth = depth; }

TerminationWindow::TerminationWindow() { waiting.fetch_add(1, std::memory_order_seq_cst); }
TerminationWindow::~TerminationWindow() { waiting.fetch_sub(1, std::memory_order_seq_cst); }

void end_by_signal(int sig) {
  flush_program_output();
  ::signal(sig, SIG_DFL);
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, sig);
  ::sigprocmask(SIG_UNBLOCK, &set, nullptr);
  ::raise(sig);
  ::_exit(128 + sig);
}

}  // namespace tilempi::transport
