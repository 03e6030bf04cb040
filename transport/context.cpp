// User-level contexts: see context.h for why the switch is hand-written.
#include "tilempi/transport/context.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <system_error>

#if defined(TILEMPI_CONTEXT_UCONTEXT) && TILEMPI_CONTEXT_UCONTEXT
#define TILEMPI_CONTEXT_USE_UCONTEXT 1
#elif defined(__x86_64__) && !(defined(__CET__) && (__CET__ & 2))
// (__CET__ & 2: shadow stacks; a ret into a new context's first frame would not match them.)
#define TILEMPI_CONTEXT_USE_X86_64_ASM 1
#else
#define TILEMPI_CONTEXT_USE_UCONTEXT 1
#endif

#ifdef TILEMPI_CONTEXT_USE_UCONTEXT
#include <ucontext.h>
#endif

#if defined(__SANITIZE_ADDRESS__)
#define TILEMPI_CONTEXT_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TILEMPI_CONTEXT_ASAN 1
#endif
#endif
#if defined(__SANITIZE_THREAD__)
#define TILEMPI_CONTEXT_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define TILEMPI_CONTEXT_TSAN 1
#endif
#endif

#ifdef TILEMPI_CONTEXT_ASAN
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif
#ifdef TILEMPI_CONTEXT_TSAN
#include <sanitizer/tsan_interface.h>
#endif

#ifdef TILEMPI_CONTEXT_USE_X86_64_ASM
extern "C" {
// Pushes the callee-saved registers and the FP control words on the running stack, stores the
// stack pointer in *save_sp, then pops the same from restore_sp and returns on that stack.
void tilempi_sim_context_switch(void** save_sp, void* restore_sp);
// A new context's first "return address": calls r12(rbx), i.e. Context::start(self).
void tilempi_sim_context_trampoline();
}

asm(R"(
  .pushsection .text
  .p2align 4
  .globl tilempi_sim_context_switch
  .hidden tilempi_sim_context_switch
  .type tilempi_sim_context_switch, @function
tilempi_sim_context_switch:
  .cfi_startproc
  pushq %rbp
  .cfi_adjust_cfa_offset 8
  .cfi_rel_offset %rbp, 0
  pushq %rbx
  .cfi_adjust_cfa_offset 8
  .cfi_rel_offset %rbx, 0
  pushq %r12
  .cfi_adjust_cfa_offset 8
  .cfi_rel_offset %r12, 0
  pushq %r13
  .cfi_adjust_cfa_offset 8
  .cfi_rel_offset %r13, 0
  pushq %r14
  .cfi_adjust_cfa_offset 8
  .cfi_rel_offset %r14, 0
  pushq %r15
  .cfi_adjust_cfa_offset 8
  .cfi_rel_offset %r15, 0
  subq $8, %rsp
  .cfi_adjust_cfa_offset 8
  stmxcsr (%rsp)
  fnstcw 4(%rsp)
  movq %rsp, (%rdi)
  movq %rsi, %rsp
  ldmxcsr (%rsp)
  fldcw 4(%rsp)
  addq $8, %rsp
  .cfi_adjust_cfa_offset -8
  popq %r15
  .cfi_adjust_cfa_offset -8
  popq %r14
  .cfi_adjust_cfa_offset -8
  popq %r13
  .cfi_adjust_cfa_offset -8
  popq %r12
  .cfi_adjust_cfa_offset -8
  popq %rbx
  .cfi_adjust_cfa_offset -8
  popq %rbp
  .cfi_adjust_cfa_offset -8
  ret
  .cfi_endproc
  .size tilempi_sim_context_switch, .-tilempi_sim_context_switch

  .p2align 4
  .globl tilempi_sim_context_trampoline
  .hidden tilempi_sim_context_trampoline
  .type tilempi_sim_context_trampoline, @function
tilempi_sim_context_trampoline:
  .cfi_startproc
  .cfi_undefined %rip
  movq %rbx, %rdi
  callq *%r12
  ud2
  .cfi_endproc
  .size tilempi_sim_context_trampoline, .-tilempi_sim_context_trampoline
  .popsection
)");

namespace {

// MADV_GUARD_INSTALL (Linux 6.13), not in every libc's headers yet.
#ifdef MADV_GUARD_INSTALL
constexpr int kMadvGuardInstall = MADV_GUARD_INSTALL;
#else
constexpr int kMadvGuardInstall = 102;
#endif

}  // namespace

namespace {
// The frame tilempi_sim_context_switch leaves on a suspended stack, lowest address first.
// Context's constructor builds one by hand so that the first switch to a new context "returns"
// into the trampoline.
struct InitialFrame {
  std::uint32_t mxcsr;
  std::uint16_t x87_control;
  std::uint16_t padding;
  std::uint64_t r15, r14, r13, r12, rbx, rbp;
  std::uint64_t return_address;
};
static_assert(sizeof(InitialFrame) == 64);
}  // namespace
#endif

namespace tilempi::transport {

namespace {

[[noreturn]] void die(const char* what) {
  std::fprintf(stderr, "tilempi: sim context: %s\n", what);
  std::abort();
}

std::size_t round_up(std::size_t n, std::size_t to) { return (n + to - 1) / to * to; }

#ifdef TILEMPI_CONTEXT_USE_UCONTEXT
// makecontext passes int arguments only: both pointers travel as halves.
std::uintptr_t join(unsigned high, unsigned low) {
  return static_cast<std::uintptr_t>((std::uint64_t{high} << 32) | low);
}
unsigned high_half(std::uintptr_t bits) { return static_cast<unsigned>(std::uint64_t{bits} >> 32); }
unsigned low_half(std::uintptr_t bits) { return static_cast<unsigned>(bits & 0xFFFFFFFFu); }

void ucontext_entry(unsigned start_high, unsigned start_low, unsigned self_high, unsigned self_low) {
  auto* start = reinterpret_cast<void (*)(Context*)>(join(start_high, start_low));
  start(reinterpret_cast<Context*>(join(self_high, self_low)));
}
#endif

}  // namespace

Context::Context() {
#ifdef TILEMPI_CONTEXT_TSAN
  tsan_fiber_ = __tsan_get_current_fiber();
#endif
}

Context::Context(Entry entry, void* arg, std::size_t stack_bytes) : entry_(entry), arg_(arg) {
  if (entry == nullptr) die("a new context needs an entry function");
  const auto page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  const std::size_t guard = round_up(kGuardBytes, page);
  stack_bytes_ = round_up(stack_bytes == 0 ? 1 : stack_bytes, page);
#ifdef TILEMPI_CONTEXT_USE_UCONTEXT
  // The first ucontext_t lives above the stack, where the context's own frames never reach.
  const std::size_t first_state = round_up(sizeof(ucontext_t), page);
#else
  const std::size_t first_state = 0;
#endif
  mapping_bytes_ = guard + stack_bytes_ + first_state;
  void* mapping = mmap(nullptr, mapping_bytes_, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
  if (mapping == MAP_FAILED) throw std::system_error(errno, std::generic_category(), "mmap of a context stack");
  mapping_ = static_cast<std::byte*>(mapping);
  // A guard installed by madvise (Linux 6.13 and later) keeps guard and stack one mapping: with
  // mprotect they are two, and a job of thousands of contexts runs into vm.max_map_count (65530
  // by default) sooner. Where the kernel does not know it, mprotect.
  if (madvise(mapping_, guard, kMadvGuardInstall) != 0 && mprotect(mapping_, guard, PROT_NONE) != 0) {
    const int error = errno;
    munmap(mapping_, mapping_bytes_);
    throw std::system_error(error, std::generic_category(), "mprotect of a context's guard region");
  }
  stack_low_ = mapping_ + guard;
  std::byte* const stack_top = stack_low_ + stack_bytes_;  // page aligned, hence 16-byte aligned

#ifdef TILEMPI_CONTEXT_USE_X86_64_ASM
  // After the switch's ret the stack pointer is stack_top - 16 (16-byte aligned, as at a call
  // site); the trampoline's call then enters Context::start exactly as a normal call would. The
  // 16 bytes above hold zeros, the end of the call chain for debuggers.
  auto* frame = reinterpret_cast<InitialFrame*>(stack_top - 16 - sizeof(InitialFrame));
  std::memset(frame, 0, sizeof(InitialFrame) + 16);
  // A new context starts with its creator's FP control (rounding, exception masks), as a new
  // thread does; not with the creator's accumulated exception flags.
  std::uint32_t mxcsr = 0;
  std::uint16_t x87_control = 0;
  asm volatile("stmxcsr %0" : "=m"(mxcsr));
  asm volatile("fnstcw %0" : "=m"(x87_control));
  frame->mxcsr = mxcsr & ~0x3Fu;
  frame->x87_control = x87_control;
  frame->r12 = reinterpret_cast<std::uint64_t>(&Context::start);
  frame->rbx = reinterpret_cast<std::uint64_t>(this);
  frame->return_address = reinterpret_cast<std::uint64_t>(&tilempi_sim_context_trampoline);
  saved_ = frame;
#else
  auto* first = reinterpret_cast<ucontext_t*>(stack_top);
  std::memset(first, 0, sizeof(ucontext_t));
  if (getcontext(first) != 0) die("getcontext failed");
  first->uc_link = nullptr;
  first->uc_stack.ss_sp = stack_low_;
  first->uc_stack.ss_size = stack_bytes_;
  first->uc_stack.ss_flags = 0;
  const auto start = reinterpret_cast<std::uintptr_t>(&Context::start);
  const auto self = reinterpret_cast<std::uintptr_t>(this);
  makecontext(first, reinterpret_cast<void (*)()>(&ucontext_entry), 4, high_half(start), low_half(start),
              high_half(self), low_half(self));
  saved_ = first;
#endif

#ifdef TILEMPI_CONTEXT_ASAN
  asan_stack_bottom_ = stack_low_;
  asan_stack_size_ = stack_bytes_;
#endif
#ifdef TILEMPI_CONTEXT_TSAN
  tsan_fiber_ = __tsan_create_fiber(0);
  owns_tsan_fiber_ = true;
#endif
}

Context::~Context() {
#ifdef TILEMPI_CONTEXT_TSAN
  if (owns_tsan_fiber_) __tsan_destroy_fiber(tsan_fiber_);
#endif
  if (mapping_ == nullptr) return;
#ifdef TILEMPI_CONTEXT_ASAN
  // Frames still live on a suspended stack leave their redzones poisoned; a later mapping at
  // the same address must not inherit them. They lie above the saved state (plus the switch's
  // own uninstrumented frames below it); unpoisoning the whole stack instead would commit
  // stack_bytes/8 of shadow memory per context.
  std::byte* live_low = stack_low_;
  if (saved_ != nullptr) {
    constexpr std::size_t kSwitchFrames = 4096;
    auto* saved = static_cast<std::byte*>(saved_);
    if (saved - stack_low_ > static_cast<std::ptrdiff_t>(kSwitchFrames)) live_low = saved - kSwitchFrames;
  }
  __asan_unpoison_memory_region(live_low, static_cast<std::size_t>(stack_low_ + stack_bytes_ - live_low));
#endif
  munmap(mapping_, mapping_bytes_);
}

bool Context::in_guard(const void* addr) const {
  const auto* p = static_cast<const std::byte*>(addr);
  return mapping_ != nullptr && p >= mapping_ && p < stack_low_;
}

const char* Context::implementation() {
#ifdef TILEMPI_CONTEXT_USE_X86_64_ASM
  return "x86_64-asm";
#else
  return "ucontext";
#endif
}

void Context::prefetch_stack(std::size_t bytes) const {
  const std::byte* p = static_cast<const std::byte*>(saved_);
  if (p == nullptr || stack_low_ == nullptr) return;
  const std::byte* high = stack_low_ + stack_bytes_;
  const std::byte* end = static_cast<std::size_t>(high - p) < bytes ? high : p + bytes;
  for (; p < end; p += 64) __builtin_prefetch(p, 1, 3);
}

void Context::switch_to(Context& from, Context& to) {
  void* const target = to.saved_;
  if (target == nullptr) die("switch_to: the target context is running (or is the running one)");
  to.saved_ = nullptr;
  to.switched_from_ = &from;
#ifdef TILEMPI_CONTEXT_ASAN
  __sanitizer_start_switch_fiber(&from.asan_fake_stack_, to.asan_stack_bottom_, to.asan_stack_size_);
#endif
#ifdef TILEMPI_CONTEXT_TSAN
  __tsan_switch_to_fiber(to.tsan_fiber_, 0);
#endif

#ifdef TILEMPI_CONTEXT_USE_X86_64_ASM
  tilempi_sim_context_switch(&from.saved_, target);
#else
  ucontext_t here;
  // ASan's swapcontext interceptor clears the shadow of the target's uc_stack: a resumed
  // context's stack holds live frames, so its saved state names no stack.
  std::memset(&here.uc_stack, 0, sizeof(here.uc_stack));
  from.saved_ = &here;
  if (swapcontext(&here, static_cast<ucontext_t*>(target)) != 0) die("swapcontext failed");
#endif
  // Running as `from` again, switched to by from.switched_from_.
  from.finish_switch();
}

void Context::finish_switch() {
#ifdef TILEMPI_CONTEXT_ASAN
  // Also how the maestro's stack becomes known: from the first context it switches to.
  __sanitizer_finish_switch_fiber(asan_fake_stack_, &switched_from_->asan_stack_bottom_,
                                  &switched_from_->asan_stack_size_);
#endif
}

void Context::start(Context* self) {
  self->finish_switch();
  self->entry_(self->arg_);
  std::fprintf(stderr, "tilempi: sim context: the entry function of the context with stack [%p, %p) returned\n",
               self->stack_low(), self->stack_high());
  std::abort();
}

}  // namespace tilempi::transport
