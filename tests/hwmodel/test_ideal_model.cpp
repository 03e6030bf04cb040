// network_model=ideal: a packet takes its length whatever the distance, each end moves one flit
// per cycle in order, held ejection ports hold, and events far ahead of the present keep their
// cycle and their order.
#include <gtest/gtest.h>

#include <map>
#include <vector>

#include "tilempi/hwmodel/chip.h"

using namespace tilempi::hwmodel;

namespace {
Config ideal(int w = 5, int h = 4) {
  Config c;
  c.width = w;
  c.height = h;
  c.network_model = "ideal";
  return c;
}

struct Seen {
  Cycle head_in = kNever, injected = kNever, delivered = kNever;
};

// Records every packet's cycles by its user tag.
struct Recorder {
  std::map<std::uint64_t, Seen> by_tag;
  std::vector<std::uint64_t> delivery_order;
  explicit Recorder(Chip& chip) {
    chip.on_injected([this](const PacketEvent& e) { by_tag[e.tag].injected = e.cycle; });
    chip.on_delivered([this](const PacketEvent& e) {
      by_tag[e.tag].delivered = e.cycle;
      by_tag[e.tag].head_in = e.head_in;
      delivery_order.push_back(e.tag);
    });
  }
};
}  // namespace

TEST(IdealModel, ALonePacketTakesItsLengthWhateverTheDistance) {
  for (std::uint32_t payload : {1u, 4u, 41u}) {
    for (TileId dst : {1, 7, 19}) {
      Chip chip(ideal());
      Recorder r(chip);
      const Cycle flits = static_cast<Cycle>(chip.config().header_flits) + payload;
      chip.inject(0, 0, dst, payload, 3, 1);
      chip.run_to_idle();
      const Seen& s = r.by_tag.at(1);
      EXPECT_EQ(s.head_in, 3u);
      EXPECT_EQ(s.injected, 3 + flits - 1) << "payload " << payload << " to " << dst;
      EXPECT_EQ(s.delivered, 3 + flits - 1) << "payload " << payload << " to " << dst;
      EXPECT_EQ(s.delivered - 3, chip.zero_load_latency(0, dst, payload));
    }
  }
}

TEST(IdealModel, EachEndMovesOneFlitPerCycleInOrder) {
  Chip chip(ideal());
  Recorder r(chip);
  const Cycle f = static_cast<Cycle>(chip.config().header_flits) + 8;
  // One core writes two packets: the second follows the first's tail.
  chip.inject(0, 0, 5, 8, 10, 1);
  chip.inject(0, 0, 6, 8, 10, 2);
  // Two cores write to one destination at once: it reads the second after the first.
  chip.inject(0, 1, 7, 8, 10, 3);
  chip.inject(0, 2, 7, 8, 10, 4);
  chip.run_to_idle();
  EXPECT_EQ(r.by_tag.at(1).head_in, 10u);
  EXPECT_EQ(r.by_tag.at(2).head_in, 10 + f);
  EXPECT_EQ(r.by_tag.at(2).delivered, 10 + 2 * f - 1);
  EXPECT_EQ(r.by_tag.at(3).delivered, 10 + f - 1);
  EXPECT_EQ(r.by_tag.at(4).head_in, 10u);
  EXPECT_EQ(r.by_tag.at(4).delivered, 10 + 2 * f - 1);
}

// Packets injected far beyond the model's near calendar (and across its edges) run at their
// cycles, and packets of one cycle keep the order of their inject() calls, whichever way they
// were stored; a delivery may inject the next packet (from the following cycle on).
TEST(IdealModel, EventsFarAheadKeepTheirCycleAndOrder) {
  for (bool reversed : {false, true}) {
    Chip chip(ideal());
    Recorder r(chip);
    const Cycle f = static_cast<Cycle>(chip.config().header_flits) + 4;
    std::uint64_t chained = 0;
    chip.on_delivered([&](const PacketEvent& e) {
      r.by_tag[e.tag].delivered = e.cycle;
      r.by_tag[e.tag].head_in = e.head_in;
      r.delivery_order.push_back(e.tag);
      if (e.tag == 30 && chained == 0) chained = chip.inject(0, 3, 9, 4, chip.now(), 31);
    });
    chip.inject(0, 0, 1, 4, 100000, 10);
    EXPECT_EQ(chip.next_event_cycle(), 100000u);
    const TileId first = reversed ? 5 : 4, second = reversed ? 4 : 5;
    chip.inject(0, first, 8, 4, 5000, first == 4 ? 20 : 21);
    chip.inject(0, second, 8, 4, 5000, second == 4 ? 20 : 21);
    TileId src = 10;  // a core of its own for each, so that none waits for another's write
    for (Cycle at : {1023u, 1024u, 1025u, 2047u, 2048u}) {
      chip.inject(0, src, src + 5, 4, at, 1000 + at);
      ++src;
    }
    chip.inject(0, 3, 9, 4, 4990, 30);
    chip.run_until(4980);
    EXPECT_EQ(r.delivery_order.size(), 5u);  // the five around the calendar's edges
    for (Cycle at : {1023u, 1024u, 1025u, 2047u, 2048u}) {
      EXPECT_EQ(r.by_tag.at(1000 + at).head_in, at);
      EXPECT_EQ(r.by_tag.at(1000 + at).delivered, at + f - 1);
    }
    chip.run_to_idle();
    const Cycle late = reversed ? 20 : 21, early = reversed ? 21 : 20;
    EXPECT_EQ(r.by_tag.at(early).delivered, 5000 + f - 1) << "reversed " << reversed;
    EXPECT_EQ(r.by_tag.at(late).delivered, 5000 + 2 * f - 1) << "reversed " << reversed;
    EXPECT_EQ(r.by_tag.at(30).delivered, 4990 + f - 1);
    EXPECT_NE(chained, 0u);
    EXPECT_EQ(r.by_tag.at(31).head_in, 4990 + f);
    EXPECT_EQ(r.by_tag.at(31).delivered, 4990 + 2 * f - 1);
    EXPECT_EQ(r.by_tag.at(10).head_in, 100000u);
    EXPECT_EQ(r.by_tag.at(10).delivered, 100000 + f - 1);
    EXPECT_TRUE(chip.idle());
  }
}

TEST(IdealModel, AHeldEjectionPortHoldsUntilReleased) {
  Chip chip(ideal());
  Recorder r(chip);
  const Cycle f = static_cast<Cycle>(chip.config().header_flits) + 2;
  chip.hold_ejection(0, 6, true);
  chip.inject(0, 0, 6, 2, 5, 1);
  chip.inject(0, 1, 6, 2, 5, 2);
  chip.run_until(3000);
  EXPECT_TRUE(r.delivery_order.empty());
  EXPECT_EQ(chip.packets_in_flight(), 2u);
  chip.hold_ejection(0, 6, false);  // released at now() = 3001
  chip.run_to_idle();
  ASSERT_EQ(r.delivery_order, (std::vector<std::uint64_t>{1, 2}));
  EXPECT_EQ(r.by_tag.at(1).delivered, 3001 + f - 1);
  EXPECT_EQ(r.by_tag.at(2).delivered, 3001 + 2 * f - 1);
}
