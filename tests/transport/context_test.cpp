// The context switch of the sim transport's "ranks as contexts" process model
// (transport/include/tilempi/transport/context.h): what a rank may rely on when it is suspended and resumed.
#include "tilempi/transport/context.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <cfenv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#if defined(__x86_64__)
#include <xmmintrin.h>
#endif

namespace {

using tilempi::transport::Context;

#if defined(__x86_64__)
// Hand-written so that the compiler cannot keep the values anywhere but in the registers under
// test. probe_callee_saved loads seed, seed+1, ... seed+5 into rbx, rbp, r12-r15, calls
// switch_to(from, to) and, once switched back, stores what those registers hold in out[0..5].
// rsp_at_call_site returns the stack pointer its caller had at the call instruction (which the
// ABI wants 16-byte aligned).
extern "C" void probe_callee_saved(void (*switch_to)(Context&, Context&), Context* from, Context* to,
                                   std::uint64_t* out, std::uint64_t seed);
extern "C" std::uintptr_t rsp_at_call_site();
asm(R"(
  .pushsection .text
  .p2align 4
  .type probe_callee_saved, @function
probe_callee_saved:
  pushq %rbx
  pushq %rbp
  pushq %r12
  pushq %r13
  pushq %r14
  pushq %r15
  pushq %rcx
  movq %rdi, %rax
  movq %rsi, %rdi
  movq %rdx, %rsi
  movq %r8, %rbx
  leaq 1(%r8), %rbp
  leaq 2(%r8), %r12
  leaq 3(%r8), %r13
  leaq 4(%r8), %r14
  leaq 5(%r8), %r15
  callq *%rax
  popq %rdx
  movq %rbx, 0(%rdx)
  movq %rbp, 8(%rdx)
  movq %r12, 16(%rdx)
  movq %r13, 24(%rdx)
  movq %r14, 32(%rdx)
  movq %r15, 40(%rdx)
  popq %r15
  popq %r14
  popq %r13
  popq %r12
  popq %rbp
  popq %rbx
  ret
  .size probe_callee_saved, .-probe_callee_saved

  .p2align 4
  .type rsp_at_call_site, @function
rsp_at_call_site:
  leaq 8(%rsp), %rax
  ret
  .size rsp_at_call_site, .-rsp_at_call_site
  .popsection
)");
#endif

constexpr std::size_t kSmallStack = 256 * 1024;

/// What a context's entry gets: the context to return to and itself.
struct Link {
  Context* maestro = nullptr;
  Context* self = nullptr;
};

TEST(Context, ReportsItsImplementation) {
  const std::string impl = Context::implementation();
  std::printf("context switch implementation: %s\n", impl.c_str());
#if defined(TILEMPI_CONTEXT_UCONTEXT) && TILEMPI_CONTEXT_UCONTEXT
  EXPECT_EQ(impl, "ucontext");
#elif defined(__x86_64__) && !(defined(__CET__) && (__CET__ & 2))
  EXPECT_EQ(impl, "x86_64-asm");
#else
  EXPECT_TRUE(impl == "ucontext" || impl == "aarch64-asm") << impl;
#endif
}

TEST(Context, DescribesItsStackAndGuard) {
  Context maestro;
  EXPECT_EQ(maestro.stack_bytes(), 0u);
  EXPECT_EQ(maestro.stack_low(), nullptr);
  int local = 0;
  EXPECT_FALSE(maestro.in_guard(&local));

  const auto page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  Context ctx(+[](void*) { std::abort(); }, nullptr, 100 * 1024 + 1);
  EXPECT_EQ(ctx.stack_bytes() % page, 0u);
  EXPECT_GE(ctx.stack_bytes(), 100 * 1024 + 1u);
  EXPECT_LT(ctx.stack_bytes(), 100 * 1024 + 1 + page);
  const auto* low = static_cast<const std::byte*>(ctx.stack_low());
  EXPECT_EQ(static_cast<const std::byte*>(ctx.stack_high()) - low, static_cast<std::ptrdiff_t>(ctx.stack_bytes()));
  EXPECT_TRUE(ctx.in_guard(low - 1));
  EXPECT_TRUE(ctx.in_guard(low - Context::kGuardBytes));
  EXPECT_FALSE(ctx.in_guard(low - Context::kGuardBytes - 1));
  EXPECT_FALSE(ctx.in_guard(low));
  EXPECT_FALSE(ctx.in_guard(&local));
}

TEST(Context, PingPongsWithTheMaestro) {
  struct State : Link {
    int count = 0;
  } state;
  Context maestro;
  Context ctx(
      +[](void* p) {
        auto& s = *static_cast<State*>(p);
        for (;;) {
          ++s.count;
          Context::switch_to(*s.self, *s.maestro);
        }
      },
      &state, kSmallStack);
  state.maestro = &maestro;
  state.self = &ctx;
  for (int round = 1; round <= 10000; ++round) {
    Context::switch_to(maestro, ctx);
    ASSERT_EQ(state.count, round);
  }
}

TEST(Context, ContextsSwitchToEachOther) {
  struct State {
    Context* maestro = nullptr;
    Context* a = nullptr;
    Context* b = nullptr;
    std::string trace;
    int a_turns = 0, b_turns = 0;
  } state;
  Context maestro;
  // a and b pass the turn to each other 1000 times, then a hands back to the maestro; each
  // time the maestro resumes b, b reports to the maestro.
  Context a(
      +[](void* p) {
        auto& s = *static_cast<State*>(p);
        s.trace += "a";
        for (int i = 0; i < 1000; ++i) {
          ++s.a_turns;
          Context::switch_to(*s.a, *s.b);
        }
        s.trace += "A";
        for (;;) Context::switch_to(*s.a, *s.maestro);
      },
      &state, kSmallStack);
  Context b(
      +[](void* p) {
        auto& s = *static_cast<State*>(p);
        s.trace += "b";
        for (int i = 0; i < 1000; ++i) {
          ++s.b_turns;
          Context::switch_to(*s.b, *s.a);
        }
        // a is now with the maestro: from here on only the maestro resumes b.
        for (;;) {
          s.trace += "B";
          Context::switch_to(*s.b, *s.maestro);
        }
      },
      &state, kSmallStack);
  state.maestro = &maestro;
  state.a = &a;
  state.b = &b;

  Context::switch_to(maestro, a);
  EXPECT_EQ(state.trace, "abA");
  EXPECT_EQ(state.a_turns, 1000);
  EXPECT_EQ(state.b_turns, 1000);
  Context::switch_to(maestro, b);
  Context::switch_to(maestro, b);
  EXPECT_EQ(state.trace, "abABB");
  Context::switch_to(maestro, a);
  EXPECT_EQ(state.trace, "abABB");
}

// Many values live across many switches: the compiler keeps most of them in callee-saved
// registers in optimized builds, on the stack in debug builds; both must survive.
[[gnu::noinline]] std::uint64_t mix_across_switches(Context& self, Context& other, std::uint64_t seed) {
  volatile std::uint64_t start = seed;
  std::uint64_t v0 = start, v1 = start * 3, v2 = start * 5, v3 = start * 7, v4 = start * 11, v5 = start * 13;
  std::uint64_t v6 = start * 17, v7 = start * 19, v8 = start * 23, v9 = start * 29;
  for (int i = 0; i < 100; ++i) {
    Context::switch_to(self, other);
    v0 = v0 * 31 + v9;
    v1 = v1 * 31 + v0;
    v2 = v2 * 31 + v1;
    v3 = v3 * 31 + v2;
    v4 = v4 * 31 + v3;
    v5 = v5 * 31 + v4;
    v6 = v6 * 31 + v5;
    v7 = v7 * 31 + v6;
    v8 = v8 * 31 + v7;
    v9 = v9 * 31 + v8;
  }
  return v0 ^ v1 ^ v2 ^ v3 ^ v4 ^ v5 ^ v6 ^ v7 ^ v8 ^ v9;
}

[[gnu::noinline]] std::uint64_t mix_without_switches(std::uint64_t seed) {
  std::uint64_t v0 = seed, v1 = seed * 3, v2 = seed * 5, v3 = seed * 7, v4 = seed * 11, v5 = seed * 13;
  std::uint64_t v6 = seed * 17, v7 = seed * 19, v8 = seed * 23, v9 = seed * 29;
  for (int i = 0; i < 100; ++i) {
    v0 = v0 * 31 + v9;
    v1 = v1 * 31 + v0;
    v2 = v2 * 31 + v1;
    v3 = v3 * 31 + v2;
    v4 = v4 * 31 + v3;
    v5 = v5 * 31 + v4;
    v6 = v6 * 31 + v5;
    v7 = v7 * 31 + v6;
    v8 = v8 * 31 + v7;
    v9 = v9 * 31 + v8;
  }
  return v0 ^ v1 ^ v2 ^ v3 ^ v4 ^ v5 ^ v6 ^ v7 ^ v8 ^ v9;
}

TEST(Context, KeepsLocalsAcrossSwitches) {
  struct State : Link {
    std::uint64_t result = 0;
  } state;
  Context maestro;
  Context ctx(
      +[](void* p) {
        auto& s = *static_cast<State*>(p);
        s.result = mix_across_switches(*s.self, *s.maestro, 0x9e3779b97f4a7c15u);
        for (;;) Context::switch_to(*s.self, *s.maestro);
      },
      &state, kSmallStack);
  state.maestro = &maestro;
  state.self = &ctx;
  // The maestro runs the same loop with other values, switching in step with the context.
  const std::uint64_t mine = mix_across_switches(maestro, ctx, 12345);
  Context::switch_to(maestro, ctx);  // the context's 100th resume: it computes its result
  EXPECT_EQ(mine, mix_without_switches(12345));
  EXPECT_EQ(state.result, mix_without_switches(0x9e3779b97f4a7c15u));
}

#if defined(__x86_64__)
TEST(Context, KeepsCalleeSavedRegistersAcrossSwitches) {
  // Both sides hold their own values in the same registers across the switch itself.
  constexpr std::uint64_t kMaestroSeed = 0x3300000000000000u, kContextSeed = 0x5100000000000000u;
  constexpr int kRounds = 3;
  struct State : Link {
    std::uint64_t seen[kRounds][6] = {};
  } state;
  Context maestro;
  Context ctx(
      +[](void* p) {
        auto& s = *static_cast<State*>(p);
        for (int i = 0; i < kRounds; ++i) probe_callee_saved(&Context::switch_to, s.self, s.maestro, s.seen[i], kContextSeed + i);
        for (;;) Context::switch_to(*s.self, *s.maestro);
      },
      &state, kSmallStack);
  state.maestro = &maestro;
  state.self = &ctx;
  const char* names[6] = {"rbx", "rbp", "r12", "r13", "r14", "r15"};
  for (int i = 0; i < kRounds; ++i) {
    std::uint64_t mine[6] = {};
    probe_callee_saved(&Context::switch_to, &maestro, &ctx, mine, kMaestroSeed + i);
    for (int r = 0; r < 6; ++r) EXPECT_EQ(mine[r], kMaestroSeed + i + r) << "maestro, " << names[r];
  }
  Context::switch_to(maestro, ctx);
  for (int i = 0; i < kRounds; ++i) {
    for (int r = 0; r < 6; ++r) EXPECT_EQ(state.seen[i][r], kContextSeed + i + r) << "context, " << names[r];
  }
}
#endif

// Rounding to nearest gives 2 for 2.5, rounding upward 3: which one a context sees tells its
// rounding mode (x87 control word and MXCSR both, as fesetround sets both on x86_64).
double round_half(double x) {
  volatile double v = x;
  return std::nearbyint(v);
}

#if defined(__x86_64__)
unsigned mxcsr_rounding() { return (_mm_getcsr() >> 13) & 3u; }  // 0 nearest, 2 upward
unsigned x87_rounding() {
  std::uint16_t cw = 0;
  asm volatile("fnstcw %0" : "=m"(cw));
  return (cw >> 10) & 3u;
}
#endif

TEST(Context, KeepsFloatingPointControlPerContext) {
  struct State : Link {
    std::vector<double> rounded;
    std::vector<int> modes;
    std::vector<unsigned> mxcsr, x87;
  } state;
  ASSERT_EQ(std::fegetround(), FE_TONEAREST);
  Context maestro;
  Context ctx(
      +[](void* p) {
        auto& s = *static_cast<State*>(p);
        s.modes.push_back(std::fegetround());  // inherited from the maestro at creation
        std::fesetround(FE_UPWARD);
        for (;;) {
          s.rounded.push_back(round_half(2.5));
          s.modes.push_back(std::fegetround());
#if defined(__x86_64__)
          s.mxcsr.push_back(mxcsr_rounding());
          s.x87.push_back(x87_rounding());
#endif
          Context::switch_to(*s.self, *s.maestro);
        }
      },
      &state, kSmallStack);
  state.maestro = &maestro;
  state.self = &ctx;
  for (int i = 0; i < 5; ++i) {
    Context::switch_to(maestro, ctx);
    EXPECT_EQ(std::fegetround(), FE_TONEAREST);
    EXPECT_EQ(round_half(2.5), 2.0);
#if defined(__x86_64__)
    EXPECT_EQ(mxcsr_rounding(), 0u);
    EXPECT_EQ(x87_rounding(), 0u);
#endif
  }
  ASSERT_EQ(state.modes.size(), 6u);
  EXPECT_EQ(state.modes[0], FE_TONEAREST);
  for (std::size_t i = 1; i < state.modes.size(); ++i) EXPECT_EQ(state.modes[i], FE_UPWARD);
  for (double r : state.rounded) EXPECT_EQ(r, 3.0);
#if defined(__x86_64__)
  for (unsigned m : state.mxcsr) EXPECT_EQ(m, 2u);
  for (unsigned m : state.x87) EXPECT_EQ(m, 2u);
#endif
  // A context created while the maestro rounds upward starts rounding upward too.
  std::fesetround(FE_UPWARD);
  State second;
  Context ctx2(
      +[](void* p) {
        auto& s = *static_cast<State*>(p);
        s.modes.push_back(std::fegetround());
        for (;;) Context::switch_to(*s.self, *s.maestro);
      },
      &second, kSmallStack);
  second.maestro = &maestro;
  second.self = &ctx2;
  std::fesetround(FE_TONEAREST);
  Context::switch_to(maestro, ctx2);
  ASSERT_EQ(second.modes.size(), 1u);
  EXPECT_EQ(second.modes[0], FE_UPWARD);
  EXPECT_EQ(std::fegetround(), FE_TONEAREST);
}

TEST(Context, StartsWithAnAlignedStack) {
  struct State : Link {
    std::uintptr_t aligned_local = 1;
    std::uintptr_t call_site_rsp = 1;
    std::string printed;
  } state;
  Context maestro;
  Context ctx(
      +[](void* p) {
        auto& s = *static_cast<State*>(p);
        alignas(16) float four[4];
        s.aligned_local = reinterpret_cast<std::uintptr_t>(&four[0]);
#if defined(__x86_64__)
        _mm_store_ps(four, _mm_set1_ps(1.5f));  // movaps: faults on a misaligned address
        s.call_site_rsp = rsp_at_call_site();
#else
        s.call_site_rsp = 0;
        four[0] = 1.5f;
#endif
        volatile double value = 3.25 + four[0];
        char text[32];
        std::snprintf(text, sizeof text, "%.3f", value);  // varargs with SSE registers
        s.printed = text;
        for (;;) Context::switch_to(*s.self, *s.maestro);
      },
      &state, kSmallStack);
  state.maestro = &maestro;
  state.self = &ctx;
  Context::switch_to(maestro, ctx);
  EXPECT_EQ(state.aligned_local % 16, 0u);
  EXPECT_EQ(state.call_site_rsp % 16, 0u);
  EXPECT_EQ(state.printed, "4.750");
}

std::size_t resident_bytes() {
  std::ifstream statm("/proc/self/statm");
  std::size_t size_pages = 0, resident_pages = 0;
  statm >> size_pages >> resident_pages;
  return resident_pages * static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
}

TEST(Context, ThousandsOfLargeStacksCostOnlyWhatTheyTouch) {
  constexpr int kContexts = 1000;
  constexpr std::size_t kStack = 8u << 20;
  struct State : Link {
    int runs = 0;
  };
  Context maestro;
  std::vector<State> states(kContexts);
  std::vector<std::unique_ptr<Context>> contexts;
  contexts.reserve(kContexts);
  const std::size_t before = resident_bytes();
  for (int i = 0; i < kContexts; ++i) {
    contexts.push_back(std::make_unique<Context>(
        +[](void* p) {
          auto& s = *static_cast<State*>(p);
          volatile char scratch[1024];  // touches the stack a little, as any rank does
          for (;;) {
            scratch[s.runs % sizeof scratch] = 1;
            ++s.runs;
            Context::switch_to(*s.self, *s.maestro);
          }
        },
        &states[i], kStack));
    states[i].maestro = &maestro;
    states[i].self = contexts.back().get();
  }
  for (int round = 1; round <= 3; ++round) {
    for (int i = 0; i < kContexts; ++i) {
      Context::switch_to(maestro, *contexts[i]);
      ASSERT_EQ(states[i].runs, round);
    }
  }
  const std::size_t after = resident_bytes();
  const std::size_t growth = after > before ? after - before : 0;
  std::printf("%d contexts of %zu MiB: %.1f GiB of address space, resident memory grew by %.1f MiB\n", kContexts,
              kStack >> 20, static_cast<double>(kContexts * kStack) / (1 << 30), static_cast<double>(growth) / (1 << 20));
  EXPECT_LT(growth, std::size_t{1} << 30);
#if !defined(__SANITIZE_THREAD__)  // GCC's ThreadSanitizer keeps most of a MiB of state per fiber
  EXPECT_LT(growth, std::size_t{64} << 20);  // a page or two per context
#endif
}

// Recursion with a 1 KiB frame down to 32 KiB above the stack's low end. Each frame keeps its
// depth in its first and last byte; the result sums them over all frames, so it is right only
// if every frame kept its bytes while the context was suspended at the bottom.
struct Recursion : Link {
  const std::byte* floor = nullptr;
  const std::byte* deepest = nullptr;
  std::uint64_t max_depth = 0;
  std::uint64_t sum = 0;
  bool done = false;
};

[[gnu::noinline]] std::uint64_t recurse(Recursion& r, std::uint64_t depth) {
  volatile std::byte frame[1024];
  frame[0] = static_cast<std::byte>(depth);
  frame[sizeof frame - 1] = static_cast<std::byte>(depth);
  // The frame's position on the stack (frame itself may live on ASan's fake stack).
  const auto* here = static_cast<const std::byte*>(__builtin_frame_address(0));
  if (here < r.deepest) r.deepest = here;
  if (here - r.floor > 32 * 1024) {
    const std::uint64_t below = recurse(r, depth + 1);
    asm volatile("" ::: "memory");  // no tail-call or accumulator rewrite: real frames only
    return below + std::to_integer<std::uint64_t>(frame[0]);
  }
  // At the bottom: suspend with the whole stack in use, then unwind on resume.
  r.max_depth = depth;
  Context::switch_to(*r.self, *r.maestro);
  return std::to_integer<std::uint64_t>(frame[sizeof frame - 1]);
}

TEST(Context, RunsDeepRecursionOverMostOfItsStack) {
  Recursion state;
  Context maestro;
  Context ctx(
      +[](void* p) {
        auto& s = *static_cast<Recursion*>(p);
        s.floor = static_cast<const std::byte*>(s.self->stack_low());
        s.deepest = static_cast<const std::byte*>(s.self->stack_high());
        s.sum = recurse(s, 0);
        s.done = true;
        for (;;) Context::switch_to(*s.self, *s.maestro);
      },
      &state, 1u << 20);
  state.maestro = &maestro;
  state.self = &ctx;
  Context::switch_to(maestro, ctx);
  ASSERT_FALSE(state.done);
  const auto* low = static_cast<const std::byte*>(ctx.stack_low());
  const auto* high = static_cast<const std::byte*>(ctx.stack_high());
  const double used = static_cast<double>(high - state.deepest) / static_cast<double>(high - low);
  std::printf("recursion reached %.1f%% of a %zu KiB stack, %llu frames deep\n", 100 * used,
              ctx.stack_bytes() >> 10, static_cast<unsigned long long>(state.max_depth));
  EXPECT_GT(used, 0.9);
  EXPECT_GT(state.max_depth, 500u);
  Context::switch_to(maestro, ctx);
  ASSERT_TRUE(state.done);
  std::uint64_t expected = 0;
  for (std::uint64_t d = 0; d <= state.max_depth; ++d) expected += d % 256;
  EXPECT_EQ(state.sum, expected);
}

const Context* g_overflowing = nullptr;
constexpr int kExitGuardHit = 42;
constexpr int kExitOtherFault = 43;

void on_segv(int, siginfo_t* info, void*) {
  _exit(g_overflowing != nullptr && g_overflowing->in_guard(info->si_addr) ? kExitGuardHit : kExitOtherFault);
}

volatile std::uint64_t g_recursion_limit = UINT64_MAX;  // never reached: a stack ends long before

[[gnu::noinline]] std::uint64_t recurse_forever(std::uint64_t depth) {
  volatile std::byte frame[512];
  if (depth == g_recursion_limit) return 0;
  frame[0] = static_cast<std::byte>(depth);
  const std::uint64_t below = recurse_forever(depth + 1);
  asm volatile("" ::: "memory");
  return below + std::to_integer<std::uint64_t>(frame[0]);
}

void overflow_a_context() {
  static std::byte alt_stack[64 * 1024];
  stack_t ss{};
  ss.ss_sp = alt_stack;
  ss.ss_size = sizeof alt_stack;
  if (sigaltstack(&ss, nullptr) != 0) _exit(1);
  struct sigaction sa{};
  sa.sa_sigaction = on_segv;
  sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigemptyset(&sa.sa_mask);
  if (sigaction(SIGSEGV, &sa, nullptr) != 0) _exit(2);

  static Context maestro;
  static Context ctx(
      +[](void*) {
        recurse_forever(0);
        std::abort();
      },
      nullptr, kSmallStack);
  g_overflowing = &ctx;
  Context::switch_to(maestro, ctx);
  _exit(3);  // not reached: the context overflows
}

TEST(ContextDeathTest, StackOverflowHitsTheGuardRegion) {
  EXPECT_EXIT(overflow_a_context(), testing::ExitedWithCode(kExitGuardHit), "");
}

TEST(ContextDeathTest, EntryThatReturnsAborts) {
  EXPECT_DEATH(
      {
        Context maestro;
        Context ctx(+[](void*) {}, nullptr, kSmallStack);
        Context::switch_to(maestro, ctx);
      },
      "entry function of the context .* returned");
}

}  // namespace
