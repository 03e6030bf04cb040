// The order in which the flit model reports one cycle's packet events (on_injected, on_delivered):
// canonical, by kind (injected, then delivered), then tile (the source of an injected packet, the
// destination of a delivered one), then network, then packet id. The routers of one cycle may run
// in any order without changing a flit's cycle; the client (the sim transport) must not see that
// order either, or a change of the simulator's work (which routers it wakes, in what order) would
// reach the ranks as another order of same-cycle events, other packet ids and other cycles.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

#include "tilempi/hwmodel/chip.h"

using namespace tilempi::hwmodel;

namespace {

std::uint64_t splitmix(std::uint64_t& s) {
  std::uint64_t z = (s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

struct Seen {
  int kind;  // 1 injected, 2 delivered
  PacketEvent e;
  TileId tile() const { return kind == 1 ? e.src : e.dst; }
};

// Random traffic with replies injected from delivery callbacks (as the sim transport does). The
// packets of one step are injected source by source, in ascending or descending tile order: the
// routers of the sources then run in that order in their first cycles, and later routers in the
// orders their flits and credits woke them.
std::vector<Seen> run(const Config& c, bool descending, double rate, int max_payload, Cycle cycles) {
  Chip chip(c);
  const int n = chip.topology().num_tiles();
  const int classes = c.vc_classes();
  std::vector<Seen> seen;
  std::uint64_t reply_rng = 7;
  chip.on_injected([&](const PacketEvent& e) { seen.push_back(Seen{1, e}); });
  chip.on_delivered([&](const PacketEvent& e) {
    seen.push_back(Seen{2, e});
    // (a reply per odd tag; its own tag is even: no reply to a reply)
    if (e.tag % 2 == 1 && splitmix(reply_rng) % 3 == 0)
      chip.inject(e.network, e.dst, e.src, static_cast<std::uint32_t>(splitmix(reply_rng) % (max_payload + 1)),
                  chip.now() + splitmix(reply_rng) % 4, e.tag + 1, static_cast<int>(e.tag / 2 % classes));
  });
  std::uint64_t rng = 1;
  struct Packet {
    int net;
    TileId src, dst;
    std::uint32_t payload;
    Cycle at;
    int cls;
  };
  for (Cycle t = 0; t < cycles; t += 16) {
    // The step's packets, drawn in a fixed order (independent of `descending`), then injected.
    std::vector<std::vector<Packet>> by_src(static_cast<std::size_t>(n));
    for (TileId s = 0; s < n; ++s)
      for (Cycle k = 0; k < 16; ++k) {
        if (static_cast<double>(splitmix(rng) >> 11) * 0x1.0p-53 >= rate) continue;
        by_src[static_cast<std::size_t>(s)].push_back(
            Packet{static_cast<int>(splitmix(rng) % static_cast<std::uint64_t>(c.networks)), s,
                   static_cast<TileId>(splitmix(rng) % static_cast<std::uint64_t>(n)),
                   static_cast<std::uint32_t>(splitmix(rng) % static_cast<std::uint64_t>(max_payload + 1)), t + k,
                   static_cast<int>(splitmix(rng) % static_cast<std::uint64_t>(classes))});
      }
    std::uint64_t tag = 2 * t * static_cast<std::uint64_t>(n) + 1;
    std::vector<std::uint64_t> tags(static_cast<std::size_t>(n));
    for (TileId s = 0; s < n; ++s) {
      tags[static_cast<std::size_t>(s)] = tag;
      tag += 2 * by_src[static_cast<std::size_t>(s)].size();
    }
    for (int k = 0; k < n; ++k) {
      const TileId s = descending ? n - 1 - k : k;
      std::uint64_t tg = tags[static_cast<std::size_t>(s)];
      for (const Packet& p : by_src[static_cast<std::size_t>(s)]) {
        chip.inject(p.net, p.src, p.dst, p.payload, p.at, tg, p.cls);
        tg += 2;
      }
    }
    chip.run_until(t + 15);
  }
  chip.run_to_idle();
  return seen;
}

struct Case {
  const char* name;
  std::vector<std::string> settings;  // applied to the preset named first
  double rate;
  int max_payload;
};

const std::vector<Case>& cases() {
  static const std::vector<Case> k = {
      {"default 4x4 (one VC)", {"default"}, 0.1, 6},
      {"tilepro64 one-step worms", {"tilepro64", "fast_worms=true"}, 0.01, 40},
      {"booksim 2 VCs, separable allocators",
       {"booksim", "vcs=2", "vcs_per_class=2", "vc_allocator=separable_input_first",
        "sw_allocator=separable_input_first"},
       0.08, 4},
      // (an adaptive routing: the general router; a routing that draws per packet would draw in the
      // order of the inject() calls)
      {"booksim west_first", {"booksim", "routing=west_first"}, 0.06, 4},
      {"2 networks, torus", {"default", "width=5", "height=4", "torus=true", "vcs=2", "networks=2"}, 0.06, 5},
  };
  return k;
}

Config config_of(const Case& k) {
  Config c = Config::preset_named(k.settings.front());
  c.apply_all(std::vector<std::string>(k.settings.begin() + 1, k.settings.end()));
  return c;
}

}  // namespace

// Within one cycle the events come by kind, then tile, then network (then id): a strict order,
// since a port passes at most one tail per cycle.
TEST(CallbackOrder, OneCyclesEventsComeByKindThenTile) {
  for (const Case& k : cases()) {
    const std::vector<Seen> seen = run(config_of(k), false, k.rate, k.max_payload, 1600);
    std::size_t same_cycle = 0;
    for (std::size_t i = 1; i < seen.size(); ++i) {
      const Seen& a = seen[i - 1];
      const Seen& b = seen[i];
      ASSERT_LE(a.e.cycle, b.e.cycle) << k.name;
      if (a.e.cycle != b.e.cycle) continue;
      ++same_cycle;
      EXPECT_LT(std::make_tuple(a.kind, a.tile(), a.e.network, a.e.id),
                std::make_tuple(b.kind, b.tile(), b.e.network, b.e.id))
          << k.name << ": cycle " << b.e.cycle << ", event " << i << " (kind " << b.kind << ", tile " << b.tile()
          << ") after kind " << a.kind << ", tile " << a.tile();
    }
    EXPECT_GT(same_cycle, 50u) << k.name << ": the workload should put many events in one cycle";
  }
}

// The same packets injected source by source in the opposite order (so that the routers of a
// cycle run in other orders): the client sees the same events in the same order (ids aside, which
// follow the order of the inject() calls).
TEST(CallbackOrder, DoesNotDependOnTheOrderRoutersRun) {
  for (const Case& k : cases()) {
    const Config c = config_of(k);
    const std::vector<Seen> up = run(c, false, k.rate, k.max_payload, 1600);
    const std::vector<Seen> down = run(c, true, k.rate, k.max_payload, 1600);
    ASSERT_EQ(up.size(), down.size()) << k.name;
    ASSERT_GT(up.size(), 200u) << k.name;
    for (std::size_t i = 0; i < up.size(); ++i) {
      const PacketEvent& a = up[i].e;
      const PacketEvent& b = down[i].e;
      ASSERT_EQ(std::make_tuple(up[i].kind, a.tag, a.network, a.src, a.dst, a.cycle, a.created, a.head_in, a.flits,
                                a.link_wait),
                std::make_tuple(down[i].kind, b.tag, b.network, b.src, b.dst, b.cycle, b.created, b.head_in, b.flits,
                                b.link_wait))
          << k.name << ": event " << i << " of " << up.size();
    }
  }
}
