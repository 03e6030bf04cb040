// Cost of a context switch of the ranks-as-contexts process model: a round trip
// maestro -> context -> maestro (two switches), with the switch of tilempi/transport/context.h and with
// ucontext's swapcontext, in the same run so that their ratio means something on a busy machine.
// The figures are quoted at the top of tilempi/transport/context.h.
//   bench_context_switch [--benchmark_repetitions=5 ...]
#include <benchmark/benchmark.h>
#include <sys/mman.h>
#include <ucontext.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>

#include "tilempi/transport/context.h"

namespace {

using tilempi::transport::Context;

constexpr std::size_t kStackBytes = 64 * 1024;

void count_switches(benchmark::State& state) {
  state.counters["per_switch"] = benchmark::Counter(
      2, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

struct Link {
  Context* maestro = nullptr;
  Context* self = nullptr;
};

void BM_RoundTrip_Context(benchmark::State& state) {
  Context maestro;
  Link link;
  Context ctx(
      +[](void* p) {
        auto& l = *static_cast<Link*>(p);
        for (;;) Context::switch_to(*l.self, *l.maestro);
      },
      &link, kStackBytes);
  link.maestro = &maestro;
  link.self = &ctx;
  for (auto _ : state) Context::switch_to(maestro, ctx);
  state.SetLabel(Context::implementation());
  count_switches(state);
}
BENCHMARK(BM_RoundTrip_Context);

// The same round trip on bare ucontext, as the fallback of tilempi/transport/context.h does it.
ucontext_t g_maestro_uc;
ucontext_t g_context_uc;

void swapcontext_loop() {
  for (;;) swapcontext(&g_context_uc, &g_maestro_uc);
}

void BM_RoundTrip_Swapcontext(benchmark::State& state) {
  void* stack = mmap(nullptr, kStackBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
  if (stack == MAP_FAILED) {
    state.SkipWithError("mmap failed");
    return;
  }
  getcontext(&g_context_uc);
  g_context_uc.uc_stack.ss_sp = stack;
  g_context_uc.uc_stack.ss_size = kStackBytes;
  g_context_uc.uc_link = nullptr;
  makecontext(&g_context_uc, &swapcontext_loop, 0);
  for (auto _ : state) swapcontext(&g_maestro_uc, &g_context_uc);
  state.SetLabel("swapcontext");
  count_switches(state);
  munmap(stack, kStackBytes);
}
BENCHMARK(BM_RoundTrip_Swapcontext);

// The console report, then how many times the hand-written switch is faster than swapcontext,
// in CPU time (swapcontext's system call counts; other load on the machine does not).
class RatioReporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    ConsoleReporter::ReportRuns(runs);
    for (const Run& run : runs) {
      if (run.run_type != Run::RT_Iteration || run.iterations == 0) continue;
      auto& [total, count] = seconds_[run.run_name.function_name];
      total += run.cpu_accumulated_time / static_cast<double>(run.iterations);
      ++count;
    }
  }
  void Finalize() override {
    ConsoleReporter::Finalize();
    const double context = mean("BM_RoundTrip_Context"), swap = mean("BM_RoundTrip_Swapcontext");
    if (context > 0 && swap > 0) {
      std::printf("CPU time per round trip: %s %.1f ns, swapcontext %.1f ns; per switch %.1f ns vs %.1f ns: %.1fx faster\n",
                  tilempi::transport::Context::implementation(), context * 1e9, swap * 1e9, context * 0.5e9, swap * 0.5e9,
                  swap / context);
    }
  }

 private:
  double mean(const std::string& name) const {
    const auto it = seconds_.find(name);
    return it == seconds_.end() ? 0 : it->second.first / it->second.second;
  }
  std::map<std::string, std::pair<double, int>> seconds_;  // name -> (sum of CPU s per round trip, runs)
};

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  RatioReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  return 0;
}
