// A user-level execution context: the primitive under the sim transport's "ranks as contexts"
// process model, and the coroutines of the MPI layer's non-blocking collectives
// (mpi/coll/nonblocking.cpp). It lives in the transport's public interface because both use it. Every rank runs on a stack of its own inside the simulator process; one
// scheduler loop (the maestro) runs on the thread's original stack and switches to and from
// the ranks in user space.
//
// Why a hand-written switch and not swapcontext: swapcontext saves and restores the signal mask,
// i.e. makes a sigprocmask system call on every switch, and saves the whole register file. A
// simulated MPI call costs a few switches, so the switch is on the simulator's hot path.
// Measured by transport/sim/bench/context_switch.cpp (both in the same run; AMD EPYC VM at
// 2.6 GHz, GCC 12, RelWithDebInfo, CPU time): a round trip maestro -> context -> maestro costs
// 24-26 ns with the hand-written switch against 345-350 ns with swapcontext, about 14 times
// less (12-13 ns against ~173 ns per switch). boost.context would be as fast, but is a
// dependency we do not want for a few dozen lines of assembly.
//
// The hand-written switch saves only what the System V ABI says a call preserves: on x86_64 the
// callee-saved registers rbx, rbp, r12-r15, the stack pointer, the x87 control word and MXCSR.
// Everything else is dead across the call to switch_to anyway. aarch64 and every other
// architecture use ucontext for now (an aarch64 switch is easy to write, but we have no aarch64
// machine to test it on); so does any build with TILEMPI_CONTEXT_UCONTEXT=1 (CMake option of
// the same name) and any build with x86 shadow stacks (-fcf-protection=return), which the
// hand-written switch does not maintain.
//
// Sanitizers: the switch tells AddressSanitizer and ThreadSanitizer about the stack change
// (fiber annotations), so tests run under ASan+UBSan or TSan see each context's stack as a
// stack of its own.
#pragma once

#include <cstddef>

namespace tilempi::transport {

class Context {
 public:
  using Entry = void (*)(void* arg);

  /// The context of the calling thread's own stack (the maestro): allocates nothing. Its stack
  /// is not ours to describe: stack_bytes() is 0, stack_low()/stack_high() are null.
  Context();
  /// A new context that will run entry(arg) on its own stack of stack_bytes (rounded up to
  /// pages), with a PROT_NONE guard region below it. The stack is mmap'ed
  /// MAP_NORESERVE|MAP_STACK and committed lazily: only touched pages cost memory, so thousands
  /// of contexts of 8 MiB each fit a machine with a few GiB (each costs one memory mapping, two
  /// on kernels before 6.13, whose guard is a mapping of its own: vm.max_map_count, 65530 by
  /// default, bounds them). entry must never
  /// return (if it does, a message goes to stderr and the process aborts). Throws
  /// std::system_error when the stack cannot be mapped.
  Context(Entry entry, void* arg, std::size_t stack_bytes);
  /// Unmaps the stack. A context may be destroyed while suspended (its stack is simply dropped,
  /// no destructors run on it), never while it runs.
  ~Context();
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;

  /// Save the running context into `from` and resume `to`. `from` must be the running context;
  /// `to` must be suspended (never started, or saved by an earlier switch_to). Returns when some
  /// context switches back to `from`.
  static void switch_to(Context& from, Context& to);

  /// Asks the processor to bring the first `bytes` of a suspended context's stack from where it
  /// was saved (the frames it returns through when it resumes) into the cache, so that their
  /// misses overlap rather than come one after the other. Only a hint; nothing for the maestro
  /// or a running context.
  void prefetch_stack(std::size_t bytes) const;

  /// Whether addr lies in this context's guard region (for a SIGSEGV handler to say "stack
  /// overflow"). Async-signal-safe.
  bool in_guard(const void* addr) const;

  /// Usable stack size and the stack's lowest/highest address (for reports).
  std::size_t stack_bytes() const { return stack_bytes_; }
  const void* stack_low() const { return stack_low_; }
  const void* stack_high() const { return stack_low_ + stack_bytes_; }

  /// Which implementation this build uses ("x86_64-asm", "aarch64-asm" or "ucontext").
  static const char* implementation();

  /// Size of the guard region below every new context's stack: larger than a page, so that a
  /// function with a big frame cannot step over it into another mapping.
  static constexpr std::size_t kGuardBytes = 64 * 1024;

 private:
  [[noreturn]] static void start(Context* self);  // first code of a new context, on its stack
  void finish_switch();                          // sanitizer bookkeeping once running again

  // Where the suspended context's state lies: its saved stack pointer (hand-written switch) or
  // a ucontext_t on its own stack (fallback). Null while the context runs.
  void* saved_ = nullptr;
  std::byte* mapping_ = nullptr;  // guard + stack (+ the fallback's first ucontext_t); null for the maestro
  std::size_t mapping_bytes_ = 0;
  std::byte* stack_low_ = nullptr;
  std::size_t stack_bytes_ = 0;
  Entry entry_ = nullptr;
  void* arg_ = nullptr;
  // Sanitizer bookkeeping; the same layout in every build, so objects built with and without
  // sanitizers agree on the class.
  Context* switched_from_ = nullptr;  // who switched to this context last
  void* asan_fake_stack_ = nullptr;
  const void* asan_stack_bottom_ = nullptr;  // learned on the first switch away for the maestro
  std::size_t asan_stack_size_ = 0;
  void* tsan_fiber_ = nullptr;
  bool owns_tsan_fiber_ = false;
};

}  // namespace tilempi::transport
