// fast_worms computes a worm's remaining flits in one step once its head is
// delivered; every cycle must stay the same as flit by flit.
#include <gtest/gtest.h>

#include <vector>

#include "tilempi/hwmodel/chip.h"
#include "tilempi/hwmodel/traffic.h"

using namespace tilempi::hwmodel;

namespace {
std::uint64_t next(std::uint64_t& s) {
  s ^= s << 13;
  s ^= s >> 7;
  s ^= s << 17;
  return s;
}

struct Outcome {
  std::vector<Cycle> delivered, injected, link_wait;
  Stats stats;
};

Outcome simulate(Config c, bool fast, std::uint64_t seed, int cycles, int burst) {
  c.fast_worms = fast;
  Chip chip(c);
  Outcome r;
  chip.on_delivered([&](const PacketEvent& e) {
    r.delivered[e.tag] = e.cycle;
    r.link_wait[e.tag] = e.link_wait;
  });
  chip.on_injected([&](const PacketEvent& e) { r.injected[e.tag] = e.cycle; });
  const int n = chip.topology().num_tiles();
  std::uint64_t rng = seed;
  for (Cycle t = 0; t < static_cast<Cycle>(cycles); t += 1 + next(rng) % 4) {
    for (int k = static_cast<int>(next(rng) % static_cast<std::uint64_t>(burst)); k > 0; --k) {
      TileId s = static_cast<TileId>(next(rng) % static_cast<std::uint64_t>(n));
      TileId d = static_cast<TileId>(next(rng) % static_cast<std::uint64_t>(n));
      int net = static_cast<int>(next(rng) % static_cast<std::uint64_t>(c.networks));
      auto payload = static_cast<std::uint32_t>(next(rng) % static_cast<std::uint64_t>(c.max_payload_flits() + 1));
      r.delivered.push_back(kNever);
      r.injected.push_back(kNever);
      r.link_wait.push_back(kNever);
      chip.inject(net, s, d, payload, t, r.delivered.size() - 1);
    }
    if (next(rng) % 3 == 0) chip.run_until(t);
  }
  chip.run_to_idle();
  EXPECT_EQ(chip.packets_in_flight(), 0u);
  r.stats = chip.stats();
  return r;
}
}  // namespace

TEST(FastWorms, SameCyclesAsFlitByFlit) {
  std::uint64_t rng0 = 0xfeedbeef;
  std::uint64_t conflicts = 0;  // the link_wait comparison below must see some
  // Second pass: the same random chips with random router pipelines (RC, VA, speculation, credit
  // delay seen by the core).
  for (int pipelined = 0; pipelined < 2; ++pipelined) {
  std::uint64_t rng = rng0;
  std::uint64_t prng = rng0 ^ 0x9e3779b97f4a7c15ull;
  for (int trial = 0; trial < 40; ++trial) {
    Config c;
    c.width = 1 + static_cast<int>(next(rng) % 6);
    c.height = 1 + static_cast<int>(next(rng) % 6);
    c.networks = 1 + static_cast<int>(next(rng) % 2);
    c.router_delay = 1 + static_cast<int>(next(rng) % 3);
    c.link_latency = static_cast<int>(next(rng) % 2);
    c.credit_delay = 1 + static_cast<int>(next(rng) % 4);
    c.injection_latency = 1 + static_cast<int>(next(rng) % 2);
    c.ejection_latency = static_cast<int>(next(rng) % 3);
    c.input_buffer_flits = 1 + static_cast<int>(next(rng) % 6);
    c.output_buffer_flits = static_cast<int>(next(rng) % 3);
    c.injection_buffer_flits = 1 + static_cast<int>(next(rng) % 4);
    c.ejection_buffer_flits = 1 + static_cast<int>(next(rng) % 6);
    c.header_flits = 1 + static_cast<int>(next(rng) % 2);
    c.max_packet_flits = c.header_flits + 1 + static_cast<int>(next(rng) % 40);
    if (pipelined) {
      c.routing_delay = static_cast<int>(next(prng) % 3);
      c.vc_alloc_delay = static_cast<int>(next(prng) % 3);
      c.speculative = next(prng) % 2 == 0;
      c.sw_alloc_delay = 1 + static_cast<int>(next(prng) % static_cast<std::uint64_t>(c.router_delay));
      c.injection_credit_delay = static_cast<int>(next(prng) % 4);
    }
    SCOPED_TRACE(c.to_text());
    const std::uint64_t seed = next(rng) | 1;
    const int burst = 1 + static_cast<int>(next(rng) % 5);
    Outcome slow = simulate(c, false, seed, 600, burst);
    Outcome fast = simulate(c, true, seed, 600, burst);
    ASSERT_EQ(slow.delivered.size(), fast.delivered.size());
    for (std::size_t i = 0; i < slow.delivered.size(); ++i) {
      ASSERT_EQ(fast.delivered[i], slow.delivered[i]) << "trial " << trial << " packet " << i;
      ASSERT_EQ(fast.injected[i], slow.injected[i]) << "trial " << trial << " packet " << i;
      // Link conflicts are seen the same way whether a worm moves in one step or flit by flit.
      ASSERT_EQ(fast.link_wait[i], slow.link_wait[i]) << "trial " << trial << " packet " << i;
    }
    for (std::size_t net = 0; net < slow.stats.networks.size(); ++net) {
      const NetworkStats& a = slow.stats.networks[net];
      conflicts += a.link_wait_packets;
      const NetworkStats& b = fast.stats.networks[net];
      EXPECT_EQ(a.flit_hops, b.flit_hops);
      EXPECT_EQ(a.latency.sum, b.latency.sum);
      EXPECT_EQ(a.queueing.sum, b.queueing.sum);
      EXPECT_EQ(a.link_wait_packets, b.link_wait_packets);
      EXPECT_EQ(a.link_wait_cycles, b.link_wait_cycles);
      for (std::size_t l = 0; l < a.links.size(); ++l) EXPECT_EQ(a.links[l].flits, b.links[l].flits) << l;
      for (std::size_t t = 0; t < a.ejection.size(); ++t) EXPECT_EQ(a.ejection[t].flits, b.ejection[t].flits);
      for (std::size_t t = 0; t < a.injection.size(); ++t) EXPECT_EQ(a.injection[t].flits, b.injection[t].flits);
    }
  }
  }
  EXPECT_GT(conflicts, 100u);
}

TEST(FastWorms, UniformTrafficMatchesAndIsFaster) {
  Config c;
  c.width = c.height = 8;
  TrafficSpec s;
  s.rate = 0.2;
  s.payload_flits = 32;
  s.warmup = 200;
  s.measure = 2000;
  s.seed = 3;
  TrafficResult a = run_traffic(c, s);
  c.fast_worms = true;
  TrafficResult b = run_traffic(c, s);
  EXPECT_EQ(a.latency.sum, b.latency.sum);
  EXPECT_EQ(a.network_latency.sum, b.network_latency.sum);
  EXPECT_EQ(a.measured_packets, b.measured_packets);
  // Counters of a one-step worm are credited when it is set up, so totals cut
  // while worms are in flight differ by their remaining flits.
  EXPECT_NEAR(static_cast<double>(a.flit_hops), static_cast<double>(b.flit_hops), 0.02 * static_cast<double>(a.flit_hops));
  EXPECT_LT(b.window.router_cycles, a.window.router_cycles * 3 / 5);  // fewer router activations
}
