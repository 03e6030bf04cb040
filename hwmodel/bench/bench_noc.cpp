// Simulated router-cycles per second and flit-hops per second of uniform
// traffic on k x k meshes. Router-cycles count every router of the mesh in
// every simulated cycle, busy or idle, so the figure compares directly with
// cycle-by-cycle simulators. Rates are per CPU second of the benchmark
// thread (the default of Google Benchmark), so that other load on the
// machine does not distort them.
#include <benchmark/benchmark.h>

#include <vector>

#include "tilempi/hwmodel/chip.h"
#include "tilempi/hwmodel/traffic.h"

using namespace tilempi::hwmodel;

namespace {

// Arguments: k, offered load in thousandths of a flit per node per cycle,
// virtual channels (each with 8-flit buffers when > 1), payload flits per
// packet, fast_worms (0/1).

// Runs the traffic once per iteration and reports router-cycles and flit hops per second.
static void run_counted(benchmark::State& state, const Config& c, const TrafficSpec& s) {
  double router_cycles = 0, flit_hops = 0, accepted = 0;
  for (auto _ : state) {
    TrafficResult r = run_traffic(c, s);
    router_cycles += r.router_cycles;
    flit_hops += static_cast<double>(r.flit_hops);
    accepted = r.accepted_flits;
    benchmark::DoNotOptimize(r.latency.sum);
  }
  state.counters["router_cycles/s"] = benchmark::Counter(router_cycles, benchmark::Counter::kIsRate);
  state.counters["flit_hops/s"] = benchmark::Counter(flit_hops, benchmark::Counter::kIsRate);
  state.counters["accepted"] = accepted;
}

void BM_UniformTraffic(benchmark::State& state) {
  Config c;
  c.width = c.height = static_cast<int>(state.range(0));
  c.vcs = static_cast<int>(state.range(2));
  if (c.vcs > 1) c.input_buffer_flits = 8;
  c.fast_worms = state.range(4) != 0;
  TrafficSpec s;
  s.rate = static_cast<double>(state.range(1)) / 1000.0;
  s.payload_flits = static_cast<int>(state.range(3));
  s.warmup = 1000;
  s.measure = c.width >= 16 ? 5000 : 20000;
  s.drain_limit = 2000;
  run_counted(state, c, s);
}

}  // namespace

// The BookSim comparison of issue 14: BookSim 2's two pipelines (presets booksim and
// booksim_speculative), 5-flit packets, k x k mesh, ~20 000 simulated cycles as in the
// reference's speed table. Arguments: k, offered load in thousandths, pipeline (0: default = A,
// 1: speculative = B), network model (0: flit, 1: packet).
void BM_BookSimPipeline(benchmark::State& state) {
  Config c = Config::preset_named(state.range(2) ? "booksim_speculative" : "booksim");
  c.width = c.height = static_cast<int>(state.range(0));
  if (state.range(3)) c.network_model = "packet";
  TrafficSpec s;
  s.rate = static_cast<double>(state.range(1)) / 1000.0;
  s.payload_flits = 4;
  s.warmup = 2000;
  s.measure = 18000;
  s.drain_limit = 0;  // ~20 000 cycles whatever the load (BookSim's runs: about 20 000 cycles)
  double router_cycles = 0, packets = 0, accepted = 0;
  for (auto _ : state) {
    TrafficResult r = run_traffic(c, s);
    router_cycles += r.router_cycles;
    packets += static_cast<double>(r.window.networks[0].packets_delivered);
    accepted = r.accepted_flits;
    benchmark::DoNotOptimize(r.latency.sum);
  }
  state.counters["router_cycles/s"] = benchmark::Counter(router_cycles, benchmark::Counter::kIsRate);
  state.counters["packets/s"] = benchmark::Counter(packets, benchmark::Counter::kIsRate);
  state.counters["accepted"] = accepted;
}

// The same with several VCs per port and BookSim's separable input-first allocators (as
// ../shared/reference/booksim-routing-8x8.md configures BookSim: num_vcs, 4-flit buffers per VC,
// both allocators separable_input_first; the general router). Arguments: k, offered load in
// thousandths, pipeline (0: A, 1: B), VCs.
void BM_BookSimVcs(benchmark::State& state) {
  Config c = Config::preset_named(state.range(2) ? "booksim_speculative" : "booksim");
  c.width = c.height = static_cast<int>(state.range(0));
  c.vcs = c.vcs_per_class = static_cast<int>(state.range(3));
  c.vc_allocator = c.sw_allocator = "separable_input_first";
  TrafficSpec s;
  s.rate = static_cast<double>(state.range(1)) / 1000.0;
  s.payload_flits = 4;
  s.warmup = 2000;
  s.measure = 18000;
  s.drain_limit = 0;
  run_counted(state, c, s);
}

// The chip model's share of the 64-rank sim alltoall of issue 14 (20 rounds of 1 KiB per pair,
// 322 560 packets), without the sim transport and adapter: on the tilepro64 preset every tile
// sends 4 packets per destination and round (two of 128 words, two of none, as the udn
// adapter's 1 KiB message) to the other 63 in turn. Arguments: network model (0: flit, about 30
// times slower, 1: packet); burst: 0 injects each packet when the tile's previous one has left
// its injection buffer (a few packets live at a time), 1 injects a tile's whole round (252
// packets) at once and its next round when they have all left, as the sim job does (a rank posts
// its 63 sends together and the adapter injects a message's packets together: about 16 000
// packets live, the model's memory well beyond the caches). Reports seconds per packet
// (s_per_packet, CPU time of the thread).
void BM_AlltoallPackets(benchmark::State& state) {
  Config c = Config::preset_named("tilepro64");
  c.network_model = state.range(0) ? "packet" : "flit";
  const bool burst = state.range(1) != 0;
  constexpr int kRounds = 20, kPerRound = 63 * 4;
  double packets = 0;
  for (auto _ : state) {
    Chip chip(c);
    const int n = chip.topology().num_tiles();
    std::vector<int> sent(static_cast<std::size_t>(n), 0), left(static_cast<std::size_t>(n), 0);
    auto send = [&](TileId s) {
      const int k = sent[static_cast<std::size_t>(s)]++;
      if (k >= kPerRound * kRounds) return;
      const TileId d = static_cast<TileId>((s + 1 + (k / 4) % 63) % n);
      chip.inject(0, s, d, k % 4 < 2 ? 128u : 0u, chip.now(), static_cast<std::uint64_t>(k));
      packets += 1;
    };
    auto round = [&](TileId s) {
      for (int k = 0; k < kPerRound; ++k) send(s);
    };
    chip.on_injected([&](const PacketEvent& e) {
      if (!burst) send(e.src);
      else if (++left[static_cast<std::size_t>(e.src)] % kPerRound == 0) round(e.src);
    });
    for (TileId s = 0; s < n; ++s) {
      if (burst) round(s);
      else send(s);
    }
    benchmark::DoNotOptimize(chip.run_to_idle());
  }
  state.counters["packets/s"] = benchmark::Counter(packets, benchmark::Counter::kIsRate);
  state.counters["s_per_packet"] = benchmark::Counter(packets, benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

BENCHMARK(BM_AlltoallPackets)->ArgNames({"packet_model", "burst"})->Args({1, 0})->Args({1, 1})->Unit(benchmark::kMillisecond);

BENCHMARK(BM_BookSimPipeline)
    ->ArgNames({"k", "load_milli", "spec", "packet_model"})
    ->Args({8, 10, 0, 0})
    ->Args({8, 100, 0, 0})
    ->Args({8, 300, 0, 0})
    ->Args({16, 10, 0, 0})
    ->Args({16, 100, 0, 0})
    ->Args({16, 300, 0, 0})
    ->Args({8, 10, 1, 0})
    ->Args({8, 100, 1, 0})
    ->Args({8, 300, 1, 0})
    ->Args({16, 10, 1, 0})
    ->Args({16, 100, 1, 0})
    ->Args({16, 300, 1, 0})
    ->Args({8, 100, 0, 1})
    ->Args({16, 100, 0, 1})
    ->Unit(benchmark::kMillisecond);

BENCHMARK(BM_BookSimVcs)
    ->ArgNames({"k", "load_milli", "spec", "vcs"})
    ->ArgsProduct({{8, 16}, {10, 100, 300}, {0, 1}, {2, 4}})
    ->Unit(benchmark::kMillisecond);

BENCHMARK(BM_UniformTraffic)
    ->ArgNames({"k", "load_milli", "vcs", "payload", "fast"})
    ->Args({8, 10, 1, 4, 0})
    ->Args({8, 100, 1, 4, 0})
    ->Args({8, 300, 1, 4, 0})
    ->Args({8, 300, 2, 4, 0})
    ->Args({16, 10, 1, 4, 0})
    ->Args({16, 100, 1, 4, 0})
    ->Args({16, 300, 1, 4, 0})
    ->Args({16, 300, 2, 4, 0})
    // Long packets, flit by flit and with fast_worms.
    ->Args({8, 200, 1, 128, 0})
    ->Args({8, 200, 1, 128, 1})
    ->Args({16, 100, 1, 128, 0})
    ->Args({16, 100, 1, 128, 1})
    ->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
