#include <gtest/gtest.h>

#include <set>

#include "tilempi/hwmodel/chip.h"
#include "tilempi/hwmodel/topology.h"

using namespace tilempi::hwmodel;

TEST(Topology, CoordinatesAndNeighbours) {
  Topology t(4, 3);
  EXPECT_EQ(t.num_tiles(), 12);
  EXPECT_EQ(t.coord(6), (Coord{2, 1}));
  EXPECT_EQ(t.tile(3, 2), 11);
  EXPECT_EQ(t.neighbor(5, Dir::East), 6);
  EXPECT_EQ(t.neighbor(5, Dir::North), 1);
  EXPECT_EQ(t.neighbor(5, Dir::South), 9);
  EXPECT_EQ(t.neighbor(3, Dir::East), kNoTile);
  EXPECT_EQ(t.neighbor(0, Dir::North), kNoTile);
  Topology r(4, 3, true);
  EXPECT_EQ(r.neighbor(3, Dir::East), 0);
  EXPECT_EQ(r.neighbor(0, Dir::North), 8);
}

TEST(Topology, XYPathGoesXFirstAndIsMinimal) {
  for (bool torus : {false, true}) {
    Topology t(5, 4, torus);
    for (TileId s = 0; s < t.num_tiles(); ++s) {
      for (TileId d = 0; d < t.num_tiles(); ++d) {
        auto path = t.xy_path(s, d);
        ASSERT_EQ(static_cast<int>(path.size()), t.hops(s, d));
        TileId at = s;
        bool in_y = false;
        std::set<int> links;
        for (const Link& l : path) {
          EXPECT_EQ(l.tile, at);
          EXPECT_TRUE(t.link_exists(l));
          bool y = l.dir == Dir::North || l.dir == Dir::South;
          EXPECT_FALSE(in_y && !y) << "X after Y";
          in_y = y;
          EXPECT_TRUE(links.insert(Topology::link_index(l)).second);
          at = t.neighbor(at, l.dir);
        }
        EXPECT_EQ(at, d);
      }
    }
  }
  Topology m(8, 8);
  EXPECT_EQ(m.hops(0, 63), 14);
  EXPECT_EQ(m.max_hops_from(0), 14);
  EXPECT_EQ(m.max_hops_from(m.tile(3, 3)), 8);
  Topology tor(8, 8, true);
  EXPECT_EQ(tor.hops(0, 63), 2);
  auto p = m.xy_path(m.tile(1, 1), m.tile(3, 0));
  ASSERT_EQ(p.size(), 3u);
  EXPECT_EQ(p[0], (Link{m.tile(1, 1), Dir::East}));
  EXPECT_EQ(p[1], (Link{m.tile(2, 1), Dir::East}));
  EXPECT_EQ(p[2], (Link{m.tile(3, 1), Dir::North}));
  EXPECT_EQ(Topology::link_at(Topology::link_index(p[2])), p[2]);
}

TEST(Topology, RankMaps) {
  Topology t(3, 2);
  RankMap rm(t, 6);
  EXPECT_EQ(rm.tile_of(4), 4);
  RankMap cm(t, 6, "col_major");
  EXPECT_EQ(cm.tile_of(0), t.tile(0, 0));
  EXPECT_EQ(cm.tile_of(1), t.tile(0, 1));
  EXPECT_EQ(cm.tile_of(2), t.tile(1, 0));
  EXPECT_EQ(cm.rank_of(t.tile(1, 0)), 2);
  RankMap lm(t, 3, "list:5,0,2");
  EXPECT_EQ(lm.tile_of(0), 5);
  EXPECT_EQ(lm.rank_of(1), -1);
  EXPECT_EQ(lm.size(), 3);
  EXPECT_THROW(RankMap(t, 7), std::invalid_argument);
  EXPECT_THROW(RankMap(t, 2, "list:1,1"), std::invalid_argument);
  EXPECT_THROW(RankMap(t, 2, "list:1,9"), std::invalid_argument);
  EXPECT_THROW(RankMap(t, 3, "list:1,2"), std::invalid_argument);
  EXPECT_THROW(RankMap(t, 2, "spiral"), std::invalid_argument);
  Config c;
  c.width = 7;
  c.height = 7;
  c.mapping = "col_major";
  EXPECT_EQ(make_rank_map(c, 49).tile_of(8), 7 * 1 + 1);
}
