#include "tilempi/hwmodel/topology.h"

#include <algorithm>
#include <charconv>
#include <stdexcept>

namespace tilempi::hwmodel {

const char* dir_name(Dir d) {
  switch (d) {
    case Dir::East: return "E";
    case Dir::West: return "W";
    case Dir::North: return "N";
    case Dir::South: return "S";
    case Dir::Local: return "L";
  }
  return "?";
}

Dir opposite(Dir d) {
  switch (d) {
    case Dir::East: return Dir::West;
    case Dir::West: return Dir::East;
    case Dir::North: return Dir::South;
    case Dir::South: return Dir::North;
    case Dir::Local: return Dir::Local;
  }
  return Dir::Local;
}

Topology::Topology(int width, int height, bool torus) : width_(width), height_(height), torus_(torus) {
  if (width < 1 || height < 1) throw std::invalid_argument("mesh width and height must be >= 1");
  if (width > 4096 || height > 4096 || width * height > (1 << 22))
    throw std::invalid_argument("mesh too large");
  const int n = num_tiles();
  xs_.resize(static_cast<std::size_t>(n));
  ys_.resize(static_cast<std::size_t>(n));
  for (TileId t = 0; t < n; ++t) {
    xs_[static_cast<std::size_t>(t)] = static_cast<std::int16_t>(coord(t).x);
    ys_[static_cast<std::size_t>(t)] = static_cast<std::int16_t>(coord(t).y);
  }
  if (n <= kRouteTableTiles) {
    route_table_.resize(static_cast<std::size_t>(n) * static_cast<std::size_t>(n));
    for (TileId a = 0; a < n; ++a)
      for (TileId b = 0; b < n; ++b)
        route_table_[static_cast<std::size_t>(a) * static_cast<std::size_t>(n) + static_cast<std::size_t>(b)] =
            static_cast<std::uint8_t>(compute_route(a, b));
  }
}

TileId Topology::neighbor(TileId t, Dir d) const {
  Coord c = coord(t);
  switch (d) {
    case Dir::East:
      if (c.x + 1 < width_) return tile(c.x + 1, c.y);
      return torus_ && width_ > 1 ? tile(0, c.y) : kNoTile;
    case Dir::West:
      if (c.x > 0) return tile(c.x - 1, c.y);
      return torus_ && width_ > 1 ? tile(width_ - 1, c.y) : kNoTile;
    case Dir::North:
      if (c.y > 0) return tile(c.x, c.y - 1);
      return torus_ && height_ > 1 ? tile(c.x, height_ - 1) : kNoTile;
    case Dir::South:
      if (c.y + 1 < height_) return tile(c.x, c.y + 1);
      return torus_ && height_ > 1 ? tile(c.x, 0) : kNoTile;
    case Dir::Local: return t;
  }
  return kNoTile;
}

namespace {
// Signed steps along one dimension of size n from a to b (minimal on a ring).
int delta(int a, int b, int n, bool ring) {
  int d = b - a;
  if (!ring) return d;
  int fwd = ((d % n) + n) % n;  // steps in + direction
  int back = n - fwd;
  if (fwd == 0) return 0;
  return fwd <= back ? fwd : -back;
}
}  // namespace

int Topology::hops(TileId src, TileId dst) const {
  Coord a = coord(src), b = coord(dst);
  return std::abs(delta(a.x, b.x, width_, torus_)) + std::abs(delta(a.y, b.y, height_, torus_));
}

Dir Topology::compute_route(TileId at, TileId dst) const {
  const Coord a{xs_[static_cast<std::size_t>(at)], ys_[static_cast<std::size_t>(at)]};
  const Coord b{xs_[static_cast<std::size_t>(dst)], ys_[static_cast<std::size_t>(dst)]};
  int dx = delta(a.x, b.x, width_, torus_);
  if (dx > 0) return Dir::East;
  if (dx < 0) return Dir::West;
  int dy = delta(a.y, b.y, height_, torus_);
  if (dy > 0) return Dir::South;
  if (dy < 0) return Dir::North;
  return Dir::Local;
}

std::vector<Link> Topology::xy_path(TileId src, TileId dst) const {
  std::vector<Link> path;
  path.reserve(static_cast<std::size_t>(hops(src, dst)));
  TileId at = src;
  for (;;) {
    Dir d = route(at, dst);
    if (d == Dir::Local) break;
    path.push_back(Link{at, d});
    at = neighbor(at, d);
  }
  return path;
}

int Topology::max_hops_from(TileId src) const {
  int m = 0;
  for (TileId t = 0; t < num_tiles(); ++t) m = std::max(m, hops(src, t));
  return m;
}

namespace {
std::vector<int> parse_list(const std::string& spec) {
  std::vector<int> out;
  std::string body = spec.substr(5);
  std::size_t pos = 0;
  while (pos <= body.size()) {
    std::size_t comma = body.find(',', pos);
    if (comma == std::string::npos) comma = body.size();
    std::string item = body.substr(pos, comma - pos);
    int v = 0;
    auto [p, ec] = std::from_chars(item.data(), item.data() + item.size(), v);
    if (item.empty() || ec != std::errc() || p != item.data() + item.size() || v < 0)
      throw std::invalid_argument("mapping: bad tile number '" + item + "' in '" + spec + "'");
    out.push_back(v);
    pos = comma + 1;
  }
  return out;
}
}  // namespace

void RankMap::check_spec(const std::string& spec) {
  if (spec == "row_major" || spec == "col_major") return;
  if (spec.rfind("list:", 0) == 0) {
    parse_list(spec);
    return;
  }
  throw std::invalid_argument("mapping: unknown spec '" + spec + "' (row_major, col_major or list:t0,t1,...)");
}

RankMap::RankMap(const Topology& topo, int nranks, const std::string& spec) {
  check_spec(spec);
  if (nranks < 0 || nranks > topo.num_tiles())
    throw std::invalid_argument("mapping: " + std::to_string(nranks) + " ranks do not fit on " +
                                std::to_string(topo.num_tiles()) + " tiles");
  rank_to_tile_.resize(static_cast<std::size_t>(nranks));
  if (spec == "row_major") {
    for (int r = 0; r < nranks; ++r) rank_to_tile_[static_cast<std::size_t>(r)] = r;
  } else if (spec == "col_major") {
    for (int r = 0; r < nranks; ++r)
      rank_to_tile_[static_cast<std::size_t>(r)] = topo.tile(r / topo.height(), r % topo.height());
  } else {
    std::vector<int> list = parse_list(spec);
    if (static_cast<int>(list.size()) < nranks)
      throw std::invalid_argument("mapping: list names " + std::to_string(list.size()) + " tiles for " +
                                  std::to_string(nranks) + " ranks");
    for (int r = 0; r < nranks; ++r) rank_to_tile_[static_cast<std::size_t>(r)] = list[static_cast<std::size_t>(r)];
  }
  tile_to_rank_.assign(static_cast<std::size_t>(topo.num_tiles()), -1);
  for (int r = 0; r < nranks; ++r) {
    TileId t = rank_to_tile_[static_cast<std::size_t>(r)];
    if (!topo.valid(t))
      throw std::invalid_argument("mapping: tile " + std::to_string(t) + " is outside the " +
                                  std::to_string(topo.width()) + "x" + std::to_string(topo.height()) + " mesh");
    if (tile_to_rank_[static_cast<std::size_t>(t)] != -1)
      throw std::invalid_argument("mapping: tile " + std::to_string(t) + " holds two ranks");
    tile_to_rank_[static_cast<std::size_t>(t)] = r;
  }
}

int RankMap::rank_of(TileId tile) const {
  if (tile < 0 || tile >= static_cast<TileId>(tile_to_rank_.size())) return -1;
  return tile_to_rank_[static_cast<std::size_t>(tile)];
}

}  // namespace tilempi::hwmodel
