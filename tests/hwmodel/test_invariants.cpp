// Conservation checks under random traffic and random router parameters:
// every packet arrives, never faster than zero-load, in order per source,
// destination and class, and every link carries exactly the flits of the
// packets whose XY route uses it.
#include <gtest/gtest.h>

#include <map>
#include <tuple>
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
}  // namespace

TEST(Invariants, RandomTrafficConservesFlitsAndOrder) {
  std::uint64_t rng0 = 0x1234567;
  // Second pass: the same random chips with random router pipelines (RC, VA, speculation, credit
  // delay seen by the core).
  for (int pipelined = 0; pipelined < 2; ++pipelined) {
  std::uint64_t rng = rng0;
  std::uint64_t prng = rng0 ^ 0x9e3779b97f4a7c15ull;
  for (int trial = 0; trial < 40; ++trial) {
    Config c;
    c.width = 1 + static_cast<int>(next(rng) % 6);
    c.height = 1 + static_cast<int>(next(rng) % 6);
    c.torus = next(rng) % 4 == 0;
    c.vcs = c.torus ? 2 * (1 + static_cast<int>(next(rng) % 2)) : 1 + static_cast<int>(next(rng) % 3);
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
    c.max_packet_flits = c.header_flits + 1 + static_cast<int>(next(rng) % 12);
    if (pipelined) {
      c.routing_delay = static_cast<int>(next(prng) % 3);
      c.vc_alloc_delay = static_cast<int>(next(prng) % 3);
      c.speculative = next(prng) % 2 == 0;
      c.sw_alloc_delay = 1 + static_cast<int>(next(prng) % static_cast<std::uint64_t>(c.router_delay));
      c.injection_credit_delay = static_cast<int>(next(prng) % 4);
    }
    SCOPED_TRACE(c.to_text());
    Chip chip(c);
    const Topology& topo = chip.topology();
    const int classes = c.torus ? c.vcs / 2 : c.vcs;

    struct Sent {
      TileId src, dst;
      int net, cls;
      std::uint32_t payload;
      Cycle at;
    };
    std::vector<Sent> sent;
    std::vector<Cycle> delivered, injected;
    chip.on_delivered([&](const PacketEvent& e) { delivered[e.tag] = e.cycle; });
    chip.on_injected([&](const PacketEvent& e) { injected[e.tag] = e.cycle; });
    const int n = topo.num_tiles();
    for (Cycle t = 0; t < 400; t += 1 + next(rng) % 3) {
      for (int k = static_cast<int>(next(rng) % 4); k > 0; --k) {
        Sent s{static_cast<TileId>(next(rng) % static_cast<std::uint64_t>(n)),
               static_cast<TileId>(next(rng) % static_cast<std::uint64_t>(n)),
               static_cast<int>(next(rng) % static_cast<std::uint64_t>(c.networks)),
               static_cast<int>(next(rng) % static_cast<std::uint64_t>(classes)),
               static_cast<std::uint32_t>(next(rng) % static_cast<std::uint64_t>(c.max_payload_flits() + 1)), t};
        sent.push_back(s);
        delivered.push_back(kNever);
        injected.push_back(kNever);
        chip.inject(s.net, s.src, s.dst, s.payload, t, sent.size() - 1, s.cls);
      }
      // Drive time in uneven steps, as an engine would.
      if (next(rng) % 3 == 0) chip.run_until(t);
    }
    chip.run_to_idle();
    EXPECT_EQ(chip.packets_in_flight(), 0u);

    std::vector<std::vector<std::uint64_t>> expect(static_cast<std::size_t>(c.networks),
                                                   std::vector<std::uint64_t>(static_cast<std::size_t>(topo.num_link_slots())));
    std::map<std::tuple<TileId, TileId, int, int>, Cycle> last;
    for (std::size_t i = 0; i < sent.size(); ++i) {
      const Sent& s = sent[i];
      ASSERT_NE(delivered[i], kNever) << "packet " << i << " lost";
      ASSERT_NE(injected[i], kNever);
      EXPECT_GE(delivered[i] - s.at, chip.zero_load_latency(s.src, s.dst, s.payload)) << i;
      EXPECT_GT(delivered[i], injected[i]);
      // Same source, destination, network and class: delivered in injection order.
      auto key = std::make_tuple(s.src, s.dst, s.net, s.cls);
      auto it = last.find(key);
      if (it != last.end()) {
        EXPECT_GT(delivered[i], it->second) << i;
      }
      last[key] = delivered[i];
      for (const Link& l : topo.xy_path(s.src, s.dst))
        expect[static_cast<std::size_t>(s.net)][static_cast<std::size_t>(Topology::link_index(l))] +=
            s.payload + static_cast<std::uint64_t>(c.header_flits);
    }
    Stats st = chip.stats();
    for (int net = 0; net < c.networks; ++net)
      for (int l = 0; l < topo.num_link_slots(); ++l)
        EXPECT_EQ(st.networks[static_cast<std::size_t>(net)].links[static_cast<std::size_t>(l)].flits,
                  expect[static_cast<std::size_t>(net)][static_cast<std::size_t>(l)])
            << "net " << net << " link " << l;
  }
  }
}

// Per-hop VC allocation on random meshes: every packet arrives, never faster than T0, and every
// link carries exactly the flits of the packets routed over it (packets of a class may
// overtake each other, so order is not checked).
TEST(Invariants, PerHopVcAllocationConservesFlits) {
  std::uint64_t rng = 0x7777;
  for (int trial = 0; trial < 30; ++trial) {
    Config c;
    c.width = 1 + static_cast<int>(next(rng) % 6);
    c.height = 1 + static_cast<int>(next(rng) % 6);
    c.vcs_per_class = 2 + static_cast<int>(next(rng) % 2);
    c.vcs = c.vcs_per_class * (1 + static_cast<int>(next(rng) % 2));
    c.input_buffer_flits = 1 + static_cast<int>(next(rng) % 5);
    c.injection_buffer_flits = 1 + static_cast<int>(next(rng) % 4);
    c.ejection_buffer_flits = 1 + static_cast<int>(next(rng) % 5);
    c.routing_delay = static_cast<int>(next(rng) % 2);
    c.vc_alloc_delay = static_cast<int>(next(rng) % 2);
    c.speculative = next(rng) % 2 == 0;
    c.credit_delay = 1 + static_cast<int>(next(rng) % 3);
    c.max_packet_flits = 2 + static_cast<int>(next(rng) % 10);
    SCOPED_TRACE(c.to_text());
    Chip chip(c);
    const Topology& topo = chip.topology();
    const int n = topo.num_tiles(), classes = c.vc_classes();
    std::vector<Cycle> delivered;
    chip.on_delivered([&](const PacketEvent& e) { delivered[e.tag] = e.cycle; });
    struct Sent {
      TileId src, dst;
      std::uint32_t payload;
      Cycle at;
    };
    std::vector<Sent> sent;
    std::vector<std::uint64_t> expect(static_cast<std::size_t>(topo.num_link_slots()));
    for (Cycle t = 0; t < 400; t += 1 + next(rng) % 3) {
      for (int k = static_cast<int>(next(rng) % 4); k > 0; --k) {
        const TileId s = static_cast<TileId>(next(rng) % static_cast<std::uint64_t>(n));
        const TileId d = static_cast<TileId>(next(rng) % static_cast<std::uint64_t>(n));
        const auto payload = static_cast<std::uint32_t>(next(rng) % static_cast<std::uint64_t>(c.max_payload_flits() + 1));
        sent.push_back({s, d, payload, t});
        delivered.push_back(kNever);
        chip.inject(0, s, d, payload, t, sent.size() - 1, static_cast<int>(next(rng) % static_cast<std::uint64_t>(classes)));
        for (const Link& l : topo.xy_path(s, d))
          expect[static_cast<std::size_t>(Topology::link_index(l))] += payload + static_cast<std::uint64_t>(c.header_flits);
      }
      if (next(rng) % 3 == 0) chip.run_until(t);
    }
    chip.run_to_idle();
    ASSERT_EQ(chip.packets_in_flight(), 0u);
    for (std::size_t i = 0; i < sent.size(); ++i) {
      ASSERT_NE(delivered[i], kNever) << "packet " << i << " lost";
      EXPECT_GE(delivered[i] - sent[i].at, chip.zero_load_latency(sent[i].src, sent[i].dst, sent[i].payload)) << i;
    }
    const Stats st = chip.stats();
    for (int l = 0; l < topo.num_link_slots(); ++l)
      EXPECT_EQ(st.networks[0].links[static_cast<std::size_t>(l)].flits, expect[static_cast<std::size_t>(l)]) << l;
  }
}
