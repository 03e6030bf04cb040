// Where the ranks sit: the virtual mesh they live on and each rank's coordinate in it. Both
// transports describe the same shape, so mesh-aware collectives run unchanged on host cores and
// on the modeled chip. Not the chip's topology (hwmodel::Topology: its tiles, links and routes)
// nor an MPI process topology (mpi/topo.h: a renaming of ranks).
#pragma once

#include <cstdlib>
#include <vector>

namespace tilempi::transport {

struct Coord {
  int x = 0;
  int y = 0;
  bool operator==(const Coord&) const = default;
};

/// The rank -> tile placement of a job (Transport::rank_placement()).
struct RankPlacement {
  int width = 1;
  int height = 1;
  bool torus = false;
  std::vector<Coord> coord;  ///< coord[world_rank]

  int hops(int a, int b) const {
    int dx = std::abs(coord[a].x - coord[b].x);
    int dy = std::abs(coord[a].y - coord[b].y);
    if (torus) {
      dx = dx < width - dx ? dx : width - dx;
      dy = dy < height - dy ? dy : height - dy;
    }
    return dx + dy;
  }
};

/// The default rank grid for n ranks: width = ceil(sqrt(n)), rows filled in row-major order
/// (4, 9, ..., 49 ranks give the 2x2 .. 7x7 meshes of [Yagna 2013] §4.2).
inline RankPlacement default_placement(int n, int width = 0, int height = 0) {
  RankPlacement t;
  if (width <= 0) {
    width = 1;
    while (width * width < n) ++width;
  }
  if (height <= 0) height = (n + width - 1) / width;
  t.width = width;
  t.height = height;
  t.coord.resize(n);
  for (int r = 0; r < n; ++r) t.coord[r] = Coord{r % width, r / width};
  return t;
}

}  // namespace tilempi::transport
