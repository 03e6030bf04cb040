// Mesh topology, XY routes and rank-to-tile mappings of the modeled chip.
//
// Coordinates: tile (x, y) with x = column 0..width-1 (West to East) and
// y = row 0..height-1 (North to South); tile id = y * width + x.
// A directed link is named by the tile it leaves and the direction it takes.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace tilempi::hwmodel {

using Cycle = std::uint64_t;
inline constexpr Cycle kNever = std::numeric_limits<Cycle>::max();

using TileId = std::int32_t;
inline constexpr TileId kNoTile = -1;

// Router ports. The four mesh directions double as link directions; Local is
// the port to and from the tile's own core (injection / ejection).
enum class Dir : std::uint8_t { East = 0, West = 1, North = 2, South = 3, Local = 4 };
inline constexpr int kMeshDirs = 4;
inline constexpr int kPorts = 5;

const char* dir_name(Dir d);  // "E", "W", "N", "S", "L"
Dir opposite(Dir d);          // East<->West, North<->South, Local->Local

struct Coord {
  int x = 0;
  int y = 0;
  friend bool operator==(const Coord&, const Coord&) = default;
};

// A directed inter-router link: leaves `tile` towards `dir` (never Local).
struct Link {
  TileId tile = kNoTile;
  Dir dir = Dir::East;
  friend bool operator==(const Link&, const Link&) = default;
};

class Topology {
 public:
  Topology(int width, int height, bool torus = false);

  int width() const { return width_; }
  int height() const { return height_; }
  bool torus() const { return torus_; }
  int num_tiles() const { return width_ * height_; }

  Coord coord(TileId t) const { return Coord{t % width_, t / width_}; }
  TileId tile(int x, int y) const { return y * width_ + x; }
  TileId tile(Coord c) const { return tile(c.x, c.y); }
  bool valid(TileId t) const { return t >= 0 && t < num_tiles(); }

  // Neighbour reached through `d`, or kNoTile at a mesh edge (never on a torus).
  TileId neighbor(TileId t, Dir d) const;
  bool link_exists(Link l) const { return l.dir != Dir::Local && neighbor(l.tile, l.dir) != kNoTile; }

  // Dense link index in [0, num_link_slots()): tile * 4 + dir. Edge slots exist
  // but carry no traffic (link_exists() is false for them).
  int num_link_slots() const { return num_tiles() * kMeshDirs; }
  static int link_index(Link l) { return l.tile * kMeshDirs + static_cast<int>(l.dir); }
  static Link link_at(int index) { return Link{index / kMeshDirs, static_cast<Dir>(index % kMeshDirs)}; }

  // Minimal XY route: X first, then Y. On a torus each dimension takes the
  // shorter way round; a tie goes East resp. South.
  int hops(TileId src, TileId dst) const;
  std::vector<Link> xy_path(TileId src, TileId dst) const;
  // Output port a packet for `dst` takes at router `at` (Local when at == dst). From a table up to
  // kRouteTableTiles tiles (64 KiB): the routers ask at every hop, and the comparisons' branches
  // go either way.
  Dir route(TileId at, TileId dst) const {
    if (!route_table_.empty())
      return static_cast<Dir>(route_table_[static_cast<std::size_t>(at) * static_cast<std::size_t>(num_tiles()) +
                                           static_cast<std::size_t>(dst)]);
    return compute_route(at, dst);
  }
  static constexpr int kRouteTableTiles = 256;
  // Largest hop distance from `src` to any tile.
  int max_hops_from(TileId src) const;

 private:
  Dir compute_route(TileId at, TileId dst) const;
  int width_;
  int height_;
  bool torus_;
  std::vector<std::uint8_t> route_table_;  // [at * tiles + dst]: route(at, dst); empty above kRouteTableTiles
  std::vector<std::int16_t> xs_, ys_;      // per tile: its coordinates (compute_route without divisions)
};

// Which tile runs each rank. Spec strings (also used as the `mapping` config
// value): "row_major" (default), "col_major", or "list:t0,t1,..." giving the
// tile of rank 0, 1, ... explicitly.
class RankMap {
 public:
  RankMap() = default;
  // Throws std::invalid_argument naming the problem if the spec is malformed,
  // maps two ranks to one tile, names a tile outside the mesh, or if nranks
  // exceeds the tiles available.
  RankMap(const Topology& topo, int nranks, const std::string& spec = "row_major");

  int size() const { return static_cast<int>(rank_to_tile_.size()); }
  TileId tile_of(int rank) const { return rank_to_tile_.at(static_cast<std::size_t>(rank)); }
  int rank_of(TileId tile) const;  // -1 if no rank runs there
  const std::vector<TileId>& tiles() const { return rank_to_tile_; }

  // Throws std::invalid_argument if `spec` is not a valid mapping spec syntax.
  static void check_spec(const std::string& spec);

 private:
  std::vector<TileId> rank_to_tile_;
  std::vector<int> tile_to_rank_;
};

}  // namespace tilempi::hwmodel
