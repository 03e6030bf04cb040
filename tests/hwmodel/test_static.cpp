// Static network: a broadcast from any root reaches every tile in set-up plus
// hop-distance cycles.
#include <gtest/gtest.h>

#include <algorithm>

#include "tilempi/hwmodel/chip.h"

using namespace tilempi::hwmodel;

namespace {
Config static_cfg(int w, int h, int setup) {
  Config c;
  c.width = w;
  c.height = h;
  c.static_network = true;
  c.static_setup_cycles = setup;
  return c;
}
}  // namespace

TEST(Static, BroadcastFromEveryRootReachesEveryTileInSetupPlusDistance) {
  for (auto [w, h] : {std::pair{1, 1}, {2, 1}, {3, 2}, {4, 4}, {5, 7}, {7, 7}, {8, 8}}) {
    for (int setup : {0, 25}) {
      Config c = static_cfg(w, h, setup);
      for (TileId root = 0; root < w * h; ++root) {
        Chip chip(c);
        const Topology& topo = chip.topology();
        Cycle ready = chip.static_mesh().configure_broadcast(root, 0);
        EXPECT_EQ(ready, static_cast<Cycle>(setup));
        auto arr = chip.static_mesh().send_words(root, 1, 0);
        ASSERT_EQ(arr.size(), static_cast<std::size_t>(w * h - 1)) << w << "x" << h << " root " << root;
        Cycle last = 0;
        for (const StaticArrival& a : arr) {
          EXPECT_NE(a.tile, root);
          EXPECT_EQ(a.first_word, static_cast<Cycle>(setup + topo.hops(root, a.tile)))
              << w << "x" << h << " root " << root << " tile " << a.tile;
          EXPECT_EQ(a.last_word, a.first_word);
          last = std::max(last, a.first_word);
        }
        if (w * h > 1) {
          EXPECT_EQ(last, static_cast<Cycle>(setup + topo.max_hops_from(root)));
        }
      }
    }
  }
}

TEST(Static, WordsPipelineOnePerCycleAndLinksCarryEveryWordOnce) {
  Chip chip(static_cfg(4, 3, 10));
  chip.static_mesh().configure_broadcast(5, 0);
  auto arr = chip.static_mesh().send_words(5, 16, 0);
  ASSERT_EQ(arr.size(), 11u);
  for (const StaticArrival& a : arr) EXPECT_EQ(a.last_word, a.first_word + 15);
  // A broadcast tree over 12 tiles uses 11 links, each carrying 16 words.
  Stats s = chip.stats();
  int used = 0;
  for (const LinkStats& l : s.static_links) {
    if (!l.flits) continue;
    ++used;
    EXPECT_EQ(l.flits, 16u);
  }
  EXPECT_EQ(used, 11);
}

TEST(Static, SecondStreamQueuesBehindFirstOnSharedLinks) {
  Chip chip(static_cfg(4, 1, 0));
  auto& sn = chip.static_mesh();
  sn.configure_broadcast(0, 0);
  auto a = sn.send_words(0, 8, 0);
  auto b = sn.send_words(0, 8, 2);  // the link 0->1 is busy until cycle 8
  ASSERT_EQ(a.size(), 3u);
  ASSERT_EQ(b.size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) EXPECT_EQ(b[i].first_word, a[i].first_word + 8);
}

TEST(Static, ConfigurationNotReadyDelaysWords) {
  Chip chip(static_cfg(3, 1, 5));
  auto& sn = chip.static_mesh();
  EXPECT_EQ(sn.configure(0, Dir::Local, port_bit(Dir::East), 0), 5u);
  EXPECT_EQ(sn.configure(1, Dir::West, port_bit(Dir::East), 0), 5u);
  // Tile 2 is reconfigured later: its route is ready at 40 + 5.
  EXPECT_EQ(sn.configure(2, Dir::West, port_bit(Dir::Local), 40), 45u);
  auto arr = sn.send_words(0, 1, 0);
  ASSERT_EQ(arr.size(), 1u);
  EXPECT_EQ(arr[0].tile, 2);
  EXPECT_EQ(arr[0].first_word, 45u);
  // Configuring the same tile twice charges the set-up twice.
  EXPECT_EQ(sn.configure(1, Dir::West, port_bit(Dir::East) | port_bit(Dir::Local), 0), 10u);
  Dir in;
  ASSERT_TRUE(sn.source_of(1, Dir::Local, &in));
  EXPECT_EQ(in, Dir::West);
  EXPECT_FALSE(sn.source_of(1, Dir::North, &in));
}

TEST(Static, ErrorsNameTheProblem) {
  Config c;  // static network disabled by default
  Chip chip(c);
  EXPECT_THROW(chip.static_mesh().send_words(0, 1, 0), std::invalid_argument);
  Chip chip2(static_cfg(2, 2, 0));
  EXPECT_THROW(chip2.static_mesh().configure(0, Dir::Local, port_bit(Dir::West), 0), std::invalid_argument);
  EXPECT_THROW(chip2.static_mesh().configure(9, Dir::Local, port_bit(Dir::East), 0), std::invalid_argument);
}
