// The flit model against BookSim 2's input-queued router: the "booksim" (BookSim's default
// pipeline: route computation, VC allocation, switch allocation, switch traversal) and
// "booksim_speculative" (lookahead routing, speculative switch allocation) presets on BookSim's
// 8x8 mesh, one VC, 4-flit buffers, uniform Bernoulli traffic, 1- and 5-flit packets, measured
// as BookSim measures (5 000 warm-up cycles, 15 000 measured, latency from creation to the
// tail's delivery over the packets created in the window, all drained).
//
// The reference figures are BookSim's, measured by the project (BookSim 2 at commit 28f4329;
// configuration and curves in the project's shared reference file booksim-8x8.md, reproduced
// in docs/HWMODEL.md "Router pipeline"). Checks: mean latency within 5 % of BookSim's at every
// load below 90 % of BookSim's saturation throughput, accepted throughput at overload (offered
// 0.5 and 1.0) within 3 %, and the zero-load latency of every pair against BookSim's formulas.
// Modeled results only; nothing here is timed.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "tilempi/hwmodel/chip.h"
#include "tilempi/hwmodel/traffic.h"

using namespace tilempi::hwmodel;

namespace {

struct Point {
  double offered, latency;
};

struct Curve {
  const char* preset;
  int flits;                 // packet length, header included
  std::vector<Point> below;  // BookSim's latency-load points (all of the reference's, saturated ones left out)
  double accepted_05, accepted_10;  // BookSim's accepted throughput at offered 0.5 and 1.0
  int zero_load_base, zero_load_per_hop;  // BookSim's zero-load latency: base + per_hop * h
};

const Curve kCurves[] = {
    {"booksim", 1, {{0.01, 33.54}, {0.02, 33.67}, {0.05, 34.75}, {0.08, 36.58}, {0.10, 38.90}, {0.12, 47.27}},
     0.1282, 0.1282, 7, 5},
    {"booksim", 5, {{0.01, 38.58}, {0.02, 39.31}, {0.05, 41.34}, {0.08, 45.60}, {0.10, 52.90}, {0.12, 82.72}},
     0.1341, 0.1336, 12, 5},
    {"booksim_speculative", 1,
     {{0.01, 20.82}, {0.02, 20.78}, {0.05, 20.88}, {0.08, 20.99}, {0.10, 21.04}, {0.12, 21.13}, {0.14, 21.27},
      {0.16, 21.38}, {0.18, 21.65}, {0.20, 21.98}, {0.22, 22.43}, {0.24, 23.49}, {0.26, 29.74}},
     0.2732, 0.2732, 5, 3},
    {"booksim_speculative", 5,
     {{0.01, 25.76}, {0.02, 26.06}, {0.05, 26.79}, {0.08, 27.98}, {0.10, 28.61}, {0.12, 29.88}, {0.14, 31.65},
      {0.16, 36.16}, {0.18, 47.03}},
     0.2049, 0.2051, 10, 3},
};

TrafficResult run(const Curve& k, double offered, std::uint64_t seed = 1) {
  TrafficSpec s;
  s.pattern = Pattern::Uniform;
  s.rate = offered;
  s.rate_in_flits = true;  // injection_rate_uses_flits = 1
  s.payload_flits = k.flits - 1;
  s.warmup = 5000;
  s.measure = 15000;
  s.seed = seed;
  return run_traffic(Config::preset_named(k.preset), s);
}

std::string name_of(const Curve& k) { return std::string(k.preset) + ", " + std::to_string(k.flits) + "-flit"; }

void check_latency(const Curve& k) {
  const double saturation = k.accepted_10;
  int checked = 0;
  for (const Point& p : k.below) {
    if (p.offered >= 0.9 * saturation) continue;
    // Close to saturation one 15 000-cycle window is a noisy sample (BookSim's figure too): the
    // booksim preset's 5-flit latency at 0.12 is 73-88 cycles over seeds 1-5. There the mean of
    // four seeds is compared.
    const int seeds = p.offered >= 0.8 * saturation ? 4 : 1;
    double latency = 0;
    TrafficResult r;
    for (int seed = 1; seed <= seeds; ++seed) {
      r = run(k, p.offered, static_cast<std::uint64_t>(seed));
      ASSERT_TRUE(r.drained) << name_of(k) << " at " << p.offered;
      latency += r.latency.mean() / seeds;
    }
    EXPECT_NEAR(latency, p.latency, 0.05 * p.latency)
        << name_of(k) << ": mean latency at offered " << p.offered << " (BookSim " << p.latency << ")";
    EXPECT_NEAR(r.accepted_flits, p.offered, 0.05 * p.offered) << name_of(k) << " at " << p.offered;
    ++checked;
  }
  EXPECT_GE(checked, 5);
}

void check_overload(const Curve& k) {
  const double booksim[2] = {k.accepted_05, k.accepted_10};
  const double offered[2] = {0.5, 1.0};
  for (int i = 0; i < 2; ++i) {
    const TrafficResult r = run(k, offered[i]);
    EXPECT_NEAR(r.accepted_flits, booksim[i], 0.03 * booksim[i])
        << name_of(k) << ": accepted throughput at offered " << offered[i] << " (BookSim " << booksim[i] << ")";
  }
}

// One packet at a time, every pair: BookSim's measured base + per_hop * h.
void check_zero_load(const Curve& k) {
  Chip chip(Config::preset_named(k.preset));
  const Topology& topo = chip.topology();
  Cycle delivered = kNever;
  chip.on_delivered([&](const PacketEvent& e) { delivered = e.cycle; });
  for (TileId s = 0; s < topo.num_tiles(); ++s)
    for (TileId d = 0; d < topo.num_tiles(); ++d) {
      const Cycle at = chip.now();
      chip.inject(0, s, d, static_cast<std::uint32_t>(k.flits - 1), at, 1);
      chip.run_to_idle();
      ASSERT_EQ(delivered - at, static_cast<Cycle>(k.zero_load_base + k.zero_load_per_hop * topo.hops(s, d)))
          << name_of(k) << " " << s << "->" << d;
    }
}

}  // namespace

TEST(BookSimFidelity, ZeroLoadEveryPair) {
  for (const Curve& k : kCurves) check_zero_load(k);
}

TEST(BookSimFidelity, DefaultPipeline1Flit) {
  check_latency(kCurves[0]);
  check_overload(kCurves[0]);
}
TEST(BookSimFidelity, DefaultPipeline5Flit) {
  check_latency(kCurves[1]);
  check_overload(kCurves[1]);
}
TEST(BookSimFidelity, SpeculativePipeline1Flit) {
  check_latency(kCurves[2]);
  check_overload(kCurves[2]);
}
TEST(BookSimFidelity, SpeculativePipeline5Flit) {
  check_latency(kCurves[3]);
  check_overload(kCurves[3]);
}

// The head's route computation and VC allocation start when it reaches the front of its input
// VC: a single flow of back-to-back packets between two nodes gets what the reference measured
// on BookSim's 2-node mesh at overload: 1/3, 5/7 and 20/22 flit per cycle with 1-, 5- and
// 20-flit packets in the default pipeline (2 cycles of RC and VA per packet), one flit per
// cycle with lookahead routing and speculative switch allocation, given deep buffers; and 0.8
// flit/cycle in the speculative pipeline with 4-flit buffers (the 5-cycle credit round trip).
// (Not reproduced: with 4-flit buffers the default pipeline gives 0.50 and 0.69 for 5- and
// 20-flit packets where BookSim keeps 5/7 and 20/22; docs/HWMODEL.md "Limits".)
namespace {
double single_flow(const char* preset, int flits, int buffers) {
  Config c = Config::preset_named(preset);
  c.width = 2;
  c.height = 1;
  c.input_buffer_flits = c.injection_buffer_flits = c.ejection_buffer_flits = buffers;
  Chip chip(c);
  std::uint64_t delivered = 0;
  Cycle first = kNever, last = 0;
  chip.on_delivered([&](const PacketEvent& e) {
    ++delivered;
    if (delivered == 100) first = e.cycle;
    last = e.cycle;
  });
  for (int i = 0; i < 1100; ++i) chip.inject(0, 0, 1, static_cast<std::uint32_t>(flits - 1), 0, 1);
  chip.run_to_idle();
  return 1000.0 * flits / static_cast<double>(last - first);
}
}  // namespace

TEST(BookSimFidelity, SingleFlowThroughput) {
  EXPECT_NEAR(single_flow("booksim", 1, 16), 1.0 / 3.0, 0.005);
  EXPECT_NEAR(single_flow("booksim", 5, 16), 5.0 / 7.0, 0.005);
  EXPECT_NEAR(single_flow("booksim", 20, 16), 20.0 / 22.0, 0.005);
  EXPECT_NEAR(single_flow("booksim_speculative", 5, 16), 1.0, 0.005);
  EXPECT_NEAR(single_flow("booksim_speculative", 5, 4), 0.8, 0.005);
  EXPECT_NEAR(single_flow("booksim_speculative", 1, 4), 0.8, 0.005);
}
