// network_model=packet: zero-load timing identical to the flit model for every pair, the
// behaviour of ports under contention, held ejection ports, and random traffic invariants.
#include <gtest/gtest.h>

#include <map>
#include <random>

#include "tilempi/hwmodel/chip.h"

using namespace tilempi::hwmodel;

namespace {
Config mesh(int w, int h, const std::string& model) {
  Config c;
  c.width = w;
  c.height = h;
  c.network_model = model;
  return c;
}

struct Seen {
  Cycle injected = kNever, delivered = kNever, head_in = kNever, link_wait = 0;
};

// Runs one lone packet and records when its tail left the source and reached the core.
Seen lone(const Config& c, TileId src, TileId dst, std::uint32_t payload) {
  Chip chip(c);
  Seen s;
  chip.on_injected([&](const PacketEvent& e) { s.injected = e.cycle; });
  chip.on_delivered([&](const PacketEvent& e) {
    s.delivered = e.cycle;
    s.head_in = e.head_in;
    s.link_wait = e.link_wait;
  });
  chip.inject(0, src, dst, payload, 3, 1);
  chip.run_to_idle();
  return s;
}
}  // namespace

TEST(PacketModel, ConfigKeyIsValidated) {
  Config c;
  c.set("network_model", "packet");
  EXPECT_EQ(c.network_model, "packet");
  EXPECT_THROW(c.set("network_model", "flits"), ConfigError);
}

// Every source-destination pair, three packet lengths, three timing sets: the same cycles as
// the flit model, which the zero-load formula describes. The formula (and so the packet
// model) assumes that a worm streams one flit per cycle, i.e. that every buffer is at least
// as deep as its credit loop (true of every preset); the second timing set, with slower hops,
// uses the shallowest such buffers.
TEST(PacketModel, ZeroLoadIsTheFlitEnginesForEveryPair) {
  for (int variant = 0; variant < 3; ++variant) {
    Config flit = mesh(5, 4, "flit");
    if (variant == 2) {
      // Route computation and VC allocation stages (2 cycles per head and router).
      flit.routing_delay = 1;
      flit.vc_alloc_delay = 1;
      flit.router_delay = 2;
      flit.link_latency = 1;
      flit.credit_delay = 2;
      flit.input_buffer_flits = 7;      // head_stages + router_delay + link_latency + credit_delay
      flit.injection_buffer_flits = 6;
      flit.ejection_buffer_flits = 5;
    }
    if (variant == 1) {
      flit.router_delay = 2;
      flit.link_latency = 1;
      flit.injection_latency = 3;
      flit.ejection_latency = 2;
      // The shallowest buffers that still stream (one less anywhere and the flit model is slower):
      flit.input_buffer_flits = 4;      // router_delay + link_latency + credit_delay
      flit.injection_buffer_flits = 4;  // injection_latency + 1
      flit.ejection_buffer_flits = 5;   // router_delay + ejection_latency + credit_delay
    }
    Config packet = flit;
    packet.network_model = "packet";
    const Topology topo(flit.width, flit.height);
    Chip ref(flit);
    for (TileId s = 0; s < topo.num_tiles(); ++s)
      for (TileId d = 0; d < topo.num_tiles(); ++d)
        for (std::uint32_t payload : {0u, 3u, 40u}) {
          SCOPED_TRACE(::testing::Message() << "variant " << variant << " " << s << "->" << d << " payload "
                                            << payload);
          const Seen a = lone(flit, s, d, payload), b = lone(packet, s, d, payload);
          EXPECT_EQ(b.delivered, a.delivered);
          EXPECT_EQ(b.injected, a.injected);
          EXPECT_EQ(b.head_in, a.head_in);
          EXPECT_EQ(b.delivered - b.head_in, ref.zero_load_latency(s, d, payload));
          EXPECT_EQ(b.link_wait, 0u);
        }
  }
}

// Two packets whose paths share (1,0)E: the later head waits for the whole of the earlier
// packet to cross, and that wait is its link wait; on disjoint paths nobody waits.
TEST(PacketModel, SharedLinkSerializesPackets) {
  Chip chip(mesh(4, 4, "packet"));
  const Topology& t = chip.topology();
  std::map<std::uint64_t, PacketEvent> got;
  chip.on_delivered([&](const PacketEvent& e) { got[e.tag] = e; });
  const int la = 10, lb = 7;
  chip.inject(0, t.tile(0, 0), t.tile(2, 2), la - 1, 0, 'A');
  chip.inject(0, t.tile(1, 0), t.tile(2, 1), lb - 1, 0, 'B');
  chip.inject(0, t.tile(0, 3), t.tile(3, 3), 20, 0, 'C');  // row 3: disjoint
  chip.run_to_idle();
  // B's head takes (1,0)E at cycle 1 and holds it for lb cycles; A's head is there at 2.
  EXPECT_EQ(got.at('B').link_wait, 0u);
  EXPECT_EQ(got.at('A').link_wait, static_cast<Cycle>(1 + lb - 2));
  EXPECT_EQ(got.at('A').cycle - got.at('A').head_in,
            chip.zero_load_latency(t.tile(0, 0), t.tile(2, 2), la - 1) + got.at('A').link_wait);
  EXPECT_EQ(got.at('C').link_wait, 0u);
  const NetworkStats n = chip.stats().networks[0];
  EXPECT_EQ(n.link_wait_packets, 1u);
  EXPECT_EQ(n.packets_delivered, 3u);
  EXPECT_EQ(n.links[static_cast<std::size_t>(Topology::link_index(Link{t.tile(1, 0), Dir::East}))].flits,
            static_cast<std::uint64_t>(la + lb));
}

// Packets into one core queue at its ejection port (not a link conflict); a held port keeps
// them until it is released.
TEST(PacketModel, EjectionPortQueuesAndHolds) {
  Chip chip(mesh(5, 5, "packet"));
  const Topology& t = chip.topology();
  std::map<std::uint64_t, PacketEvent> got;
  chip.on_delivered([&](const PacketEvent& e) { got[e.tag] = e; });
  const TileId centre = t.tile(2, 2);
  chip.inject(0, t.tile(2, 1), centre, 9, 0, 'N');
  chip.inject(0, t.tile(2, 3), centre, 9, 0, 'S');
  chip.run_to_idle();
  EXPECT_EQ(got.at('N').link_wait, 0u);
  EXPECT_EQ(got.at('S').link_wait, 0u);
  const Cycle first = std::min(got.at('N').cycle, got.at('S').cycle);
  const Cycle second = std::max(got.at('N').cycle, got.at('S').cycle);
  EXPECT_EQ(second - first, 10u);  // one packet of 10 flits after the other

  chip.hold_ejection(0, centre, true);
  chip.inject(0, t.tile(2, 1), centre, 4, chip.now(), 'H');
  chip.run_until(chip.now() + 100);
  EXPECT_EQ(got.count('H'), 0u);
  const Cycle release = chip.now();
  chip.hold_ejection(0, centre, false);
  chip.run_to_idle();
  ASSERT_EQ(got.count('H'), 1u);
  EXPECT_GE(got.at('H').cycle, release + 4);
}

// Random traffic: everything injected is delivered, once, no sooner than alone, with the
// source's packets leaving in order.
TEST(PacketModel, RandomTrafficInvariants) {
  Config c = mesh(6, 6, "packet");
  c.networks = 2;
  Chip chip(c);
  std::mt19937 rng(7);
  std::map<std::uint64_t, int> delivered;
  std::map<std::uint64_t, std::pair<TileId, Cycle>> injected_at;
  chip.on_injected([&](const PacketEvent& e) { injected_at[e.tag] = {e.src, e.cycle}; });
  chip.on_delivered([&](const PacketEvent& e) {
    ++delivered[e.tag];
    EXPECT_GE(e.cycle - e.head_in, chip.zero_load_latency(e.src, e.dst, e.flits - 1) + e.link_wait);
  });
  const int n = 2000;
  for (int i = 0; i < n; ++i) {
    const TileId s = static_cast<TileId>(rng() % 36), d = static_cast<TileId>(rng() % 36);
    chip.inject(static_cast<int>(rng() % 2), s, d, rng() % 50, rng() % 500, static_cast<std::uint64_t>(i));
  }
  chip.run_to_idle();
  EXPECT_EQ(delivered.size(), static_cast<std::size_t>(n));
  for (const auto& [tag, count] : delivered) EXPECT_EQ(count, 1);
  EXPECT_EQ(chip.packets_in_flight(), 0u);
  const Stats st = chip.stats();
  EXPECT_EQ(st.networks[0].packets_delivered + st.networks[1].packets_delivered, static_cast<std::uint64_t>(n));
}

// Head-of-line blocking, in both models: on a 4x1 row, X (0 -> 3) stalls at core 3's held
// ejection port with its tail in router 1's input buffer (13 flits in the flit model, whose
// ejection buffer fills; 9 in the packet model, which stops the head at the port); Y (0 -> 1)
// comes in by the same input behind it and waits there although router 1's ejection port is
// free.
TEST(PacketModel, HeadWaitsBehindThePacketBeforeItInItsInput) {
  for (const std::string model : {"flit", "packet"}) {
    Chip chip(mesh(4, 1, model));
    std::map<std::uint64_t, Cycle> got;
    chip.on_delivered([&](const PacketEvent& e) { got[e.tag] = e.cycle; });
    chip.hold_ejection(0, 3, true);
    chip.inject(0, 0, 3, model == "flit" ? 12 : 8, 0, 'X');
    chip.inject(0, 0, 1, 0, 0, 'Y');
    chip.run_until(200);
    EXPECT_EQ(got.count('Y'), 0u) << model;
    chip.hold_ejection(0, 3, false);
    chip.run_to_idle();
    ASSERT_EQ(got.size(), 2u) << model;
    EXPECT_GT(got.at('Y'), 200u) << model;
  }
}
