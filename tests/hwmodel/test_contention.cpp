// Contention between worms, checked against cycles computed by hand.
//
// All scenarios use a 1-row mesh and the default timing: injection 1 cycle,
// router 1 cycle per hop, ejection 0, credit 1 cycle, 4-flit buffers.
// A flit written by the core at cycle t is at its router at t + 1; a flit
// sent by a router at cycle t is at the next router at t + 1; a flit sent to
// the ejection port at t is consumed by the core at t + 1.
#include <gtest/gtest.h>

#include <map>

#include "tilempi/hwmodel/chip.h"

using namespace tilempi::hwmodel;

namespace {
Config row(int width) {
  Config c;
  c.width = width;
  c.height = 1;
  return c;
}

struct Recorder {
  std::map<std::uint64_t, Cycle> delivered, injected, link_wait;
  explicit Recorder(Chip& chip) {
    chip.on_delivered([this](const PacketEvent& e) {
      delivered[e.tag] = e.cycle;
      link_wait[e.tag] = e.link_wait;
    });
    chip.on_injected([this](const PacketEvent& e) { injected[e.tag] = e.cycle; });
  }
};
}  // namespace

// Two worms that need the same link leave it one after the other, with no
// gap and no overlap.
TEST(Contention, TwoWormsOnOneLinkSerializeExactly) {
 for (bool fast : {false, true}) {
  Config cfg = row(4);
  cfg.fast_worms = fast;
  Chip chip(cfg);
  Recorder rec(chip);
  const int la = 10, lb = 7;  // flits, header included
  // A: 0 -> 3 and B: 1 -> 3 share the links 1->2 and 2->3.
  chip.inject(0, 0, 3, la - 1, 0, 'A');
  chip.inject(0, 1, 3, lb - 1, 0, 'B');
  chip.run_to_idle();
  // B's head is at router 1 at cycle 1, A's only at cycle 2: B wins the link.
  // B: head at router 3 at cycle 3, consumed at 4, tail lb - 1 cycles later.
  EXPECT_EQ(rec.delivered['B'], static_cast<Cycle>(4 + lb - 1));
  // B's tail crosses 1->2 at cycle lb; A's head follows at lb + 1, reaches
  // router 3 at lb + 3, is consumed at lb + 4; its tail la - 1 cycles later.
  EXPECT_EQ(rec.delivered['A'], static_cast<Cycle>(lb + 4 + la - 1));
  EXPECT_EQ(rec.delivered['A'] - rec.delivered['B'], static_cast<Cycle>(la));
  // The shared link carried both worms back to back and nothing else.
  Stats s = chip.stats();
  const LinkStats& shared = s.networks[0].links[static_cast<std::size_t>(Topology::link_index({1, Dir::East}))];
  EXPECT_EQ(shared.flits, static_cast<std::uint64_t>(la + lb));
  // A's head waited at router 1 from cycle 2 to lb + 1.
  const LinkStats& first = s.networks[0].links[static_cast<std::size_t>(Topology::link_index({0, Dir::East}))];
  EXPECT_EQ(first.flits, static_cast<std::uint64_t>(la));
  EXPECT_EQ(shared.blocked_cycles, 0u);  // the link never idled while A waited: B was using it
  // That wait is A's link conflict; B had the link at once.
  EXPECT_EQ(rec.link_wait['A'], static_cast<Cycle>(lb + 1 - 2));
  EXPECT_EQ(rec.link_wait['B'], 0u);
 }
}

// Chain blocking. X (5 -> 7, 16 flits) stalls because core 7 does not read
// until cycle R; X fills every buffer from tile 7's ejection buffer back to
// tile 5's injection buffer. Y (2 -> 6, 20 flits) needs link 5->6, which X
// holds; its head waits at router 5 and its body holds links 2->3, 3->4 and
// 4->5. Z (3 -> 4, 5 flits, injected at cycle 20) needs link 3->4, held by
// the blocked Y, and waits until Y's tail has crossed it.
TEST(Contention, BlockedWormHoldsUpstreamLinks) {
 for (bool fast : {false, true}) {
  SCOPED_TRACE(fast ? "fast_worms" : "flit by flit");
  Config cfg = row(8);
  cfg.fast_worms = fast;
  Chip chip(cfg);
  Recorder rec(chip);
  const Cycle R = 30;
  const int lx = 16, ly = 20, lz = 5;
  chip.hold_ejection(0, 7, true);
  chip.inject(0, 5, 7, lx - 1, 0, 'X');
  chip.inject(0, 2, 6, ly - 1, 0, 'Y');
  chip.inject(0, 3, 4, lz - 1, 20, 'Z');
  chip.run_until(R - 1);
  // Before the release nothing of X, Y or Z has arrived, and X's tail is
  // still in tile 5's injection buffer.
  EXPECT_TRUE(rec.delivered.empty());
  EXPECT_TRUE(rec.injected.empty());
  {
    Stats s = chip.stats();
    // Y holds 2->3, 3->4, 4->5: exactly the first 12 of its flits crossed
    // 2->3 (4 in each of the buffers at routers 3, 4, 5); X's 12 crossed 5->6.
    auto flits = [&](TileId t) {
      return s.networks[0].links[static_cast<std::size_t>(Topology::link_index({t, Dir::East}))].flits;
    };
    EXPECT_EQ(flits(2), 12u);
    EXPECT_EQ(flits(3), 8u);
    EXPECT_EQ(flits(4), 4u);
    EXPECT_EQ(flits(5), 12u);
    EXPECT_EQ(flits(6), 8u);
    // Z has not even entered the network: link 3->4 carries only Y.
  }
  chip.hold_ejection(0, 7, false);
  chip.run_to_idle();
  // X drains one flit per cycle: flit k is read at R + k.
  EXPECT_EQ(rec.delivered['X'], R + lx - 1);
  // X's tail leaves the injection buffer of tile 5 at R + 6.
  EXPECT_EQ(rec.injected['X'], R + 6);
  // Y's head takes 5->6 at R + 7, reaches router 6 at R + 8 behind X's last
  // flits, is ejected at R + 10 and read at R + 11; its tail 19 cycles later.
  EXPECT_EQ(rec.delivered['Y'], R + 11 + ly - 1);
  // Y's flit k crosses 3->4 at R + 1 + k (k >= 8), so its tail at R + 20;
  // Z's head follows at R + 21, queues behind Y's tail at router 4, is
  // ejected at R + 24 and read at R + 25; its tail lz - 1 cycles later.
  EXPECT_EQ(rec.delivered['Z'], R + 25 + lz - 1);
  // Without the blockage Z would have taken its zero-load latency.
  EXPECT_EQ(chip.zero_load_latency(3, 4, lz - 1), static_cast<Cycle>(1 + 2 + lz - 1));
  EXPECT_EQ(rec.delivered['Z'] - 20 - chip.zero_load_latency(3, 4, lz - 1), static_cast<Cycle>(R + 25 + lz - 1 - 20 - (2 + lz)));
  // Link conflicts: X only waited for its core and for credits of links it
  // owned. Y's head reached router 5 at cycle 4 and took 5->6 at R + 7. Z's
  // head reached router 3 at 21 and took 3->4 at R + 21; its wait behind
  // Y's tail in router 4's input buffer is not a wait for a link.
  EXPECT_EQ(rec.link_wait['X'], 0u);
  EXPECT_EQ(rec.link_wait['Y'], R + 7 - 4);
  EXPECT_EQ(rec.link_wait['Z'], R + 21 - 21);
 }
}

// With two virtual channels, a worm on the other VC class passes the link a
// blocked worm holds.
TEST(Contention, VirtualChannelBypassesBlockedWorm) {
  Config c = row(8);
  c.vcs = 2;
  Chip chip(c);
  Recorder rec(chip);
  chip.hold_ejection(0, 7, true);
  chip.inject(0, 5, 7, 15, 0, 'X', 0);
  chip.run_until(40);  // X is stuck holding 5->6 and 6->7 on VC 0
  EXPECT_TRUE(rec.delivered.empty());
  chip.inject(0, 4, 6, 3, 41, 'V', 1);
  chip.run_until(200);
  EXPECT_EQ(rec.delivered['V'] - 41, chip.zero_load_latency(4, 6, 3));
  EXPECT_EQ(rec.delivered.count('X'), 0u);
  // On the same VC class it would have waited.
  chip.inject(0, 4, 6, 3, 201, 'W', 0);
  chip.run_until(400);
  EXPECT_EQ(rec.delivered.count('W'), 0u);
  chip.hold_ejection(0, 7, false);
  chip.run_to_idle();
  EXPECT_EQ(rec.delivered.count('W'), 1u);
  EXPECT_EQ(chip.packets_in_flight(), 0u);
  // V passed on its own VC: no link conflict. W waited at router 5 (head
  // there at 203) for 5->6 on VC 0, owned by X until the release at 400.
  EXPECT_EQ(rec.link_wait['V'], 0u);
  EXPECT_GE(rec.link_wait['W'], 400u - 203u);
  EXPECT_EQ(rec.link_wait['X'], 0u);
}

// Per-hop VC allocation (vcs_per_class = 2, one class): a worm of the same class as a blocked
// worm takes the other VC at every hop and passes at zero-load latency; a third worm finds
// both VCs of the link held and waits.
TEST(Contention, PerHopVcAllocationTakesAnyFreeVcOfTheClass) {
  Config c = row(8);
  c.vcs = 2;
  c.vcs_per_class = 2;
  Chip chip(c);
  Recorder rec(chip);
  chip.hold_ejection(0, 7, true);
  chip.inject(0, 5, 7, 15, 0, 'X', 0);
  chip.run_until(40);  // X is stuck holding 5->6 and 6->7 on one VC
  EXPECT_TRUE(rec.delivered.empty());
  chip.inject(0, 4, 7, 15, 41, 'Y', 0);  // takes the other VC, and is stuck behind X at 7's ejection
  chip.run_until(100);
  chip.inject(0, 4, 6, 3, 101, 'V', 0);  // both VCs of 5->6 are held now
  chip.run_until(300);
  EXPECT_EQ(rec.delivered.count('V'), 0u);
  chip.hold_ejection(0, 7, false);
  chip.run_to_idle();
  EXPECT_EQ(rec.delivered.size(), 3u);
  EXPECT_EQ(chip.packets_in_flight(), 0u);

  // Alone behind one blocked worm of its class, a worm passes at zero-load latency.
  Chip chip2(c);
  Recorder rec2(chip2);
  chip2.hold_ejection(0, 7, true);
  chip2.inject(0, 5, 7, 15, 0, 'X', 0);
  chip2.run_until(40);
  chip2.inject(0, 4, 6, 3, 41, 'V', 0);
  chip2.run_until(200);
  EXPECT_EQ(rec2.delivered['V'] - 41, chip2.zero_load_latency(4, 6, 3));
  EXPECT_EQ(rec2.link_wait['V'], 0u);
}
