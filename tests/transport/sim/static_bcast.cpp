// Static-network broadcast through the sim transport's StaticRoutes capability, with the route
// tree of [Yagna 2013] §3.2.3: the root sends on all its links; tiles in the root's column receive
// along Y and forward along Y and both X directions; all others receive along X and forward
// along X. Uses the transport interface directly (no MPI). usage: static_bcast ROOT BYTES
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "tilempi/transport/transport.h"

using namespace tilempi::transport;

int main(int argc, char** argv) {
  auto t = connect_from_environment();
  const int root = argc > 1 ? std::atoi(argv[1]) : 0;
  const std::size_t bytes = argc > 2 ? static_cast<std::size_t>(std::atoi(argv[2])) : 64;
  StaticRoutes* sn = t->static_routes();
  if (!sn) {
    std::fprintf(stderr, "no static network\n");
    return 2;
  }
  const RankPlacement& topo = t->rank_placement();
  const int n = t->size();
  const Coord rc = topo.coord[static_cast<std::size_t>(root)];
  auto at = [&](int x, int y) -> int {
    if (x < 0 || y < 0 || x >= topo.width || y >= topo.height) return -1;
    int r = y * topo.width + x;
    return r < n ? r : -1;
  };
  std::vector<StaticRouteHop> routes;
  for (int r = 0; r < n; ++r) {
    const Coord c = topo.coord[static_cast<std::size_t>(r)];
    StaticRouteHop h{r, 0, 0};
    if (r == root) {
      h.in_port = kPortLocal;
      if (at(c.x, c.y - 1) >= 0) h.out_mask |= kPortNorth;
      if (at(c.x, c.y + 1) >= 0) h.out_mask |= kPortSouth;
      if (at(c.x + 1, c.y) >= 0) h.out_mask |= kPortEast;
      if (at(c.x - 1, c.y) >= 0) h.out_mask |= kPortWest;
    } else if (c.x == rc.x) {
      h.in_port = c.y > rc.y ? kPortNorth : kPortSouth;
      h.out_mask = kPortLocal;
      if (c.y > rc.y && at(c.x, c.y + 1) >= 0) h.out_mask |= kPortSouth;
      if (c.y < rc.y && at(c.x, c.y - 1) >= 0) h.out_mask |= kPortNorth;
      if (at(c.x + 1, c.y) >= 0) h.out_mask |= kPortEast;
      if (at(c.x - 1, c.y) >= 0) h.out_mask |= kPortWest;
    } else {
      h.in_port = c.x > rc.x ? kPortWest : kPortEast;
      h.out_mask = kPortLocal;
      if (c.x > rc.x && at(c.x + 1, c.y) >= 0) h.out_mask |= kPortEast;
      if (c.x < rc.x && at(c.x - 1, c.y) >= 0) h.out_mask |= kPortWest;
    }
    routes.push_back(h);
  }
  std::vector<unsigned char> buf(bytes);
  for (int round = 0; round < 2; ++round) {
    for (std::size_t i = 0; i < bytes; ++i)
      buf[i] = t->rank() == root ? static_cast<unsigned char>(i * 7 + round) : 0;
    const double t0 = t->wtime();
    sn->bcast(static_cast<std::uint64_t>(round + 1), routes, root, buf.data(), bytes);
    const double t1 = t->wtime();
    for (std::size_t i = 0; i < bytes; ++i)
      if (buf[i] != static_cast<unsigned char>(i * 7 + round)) {
        std::fprintf(stderr, "rank %d: wrong byte %zu in round %d\n", t->rank(), i, round);
        return 1;
      }
    if (t->rank() == n - 1)
      std::printf("static_bcast round %d: rank %d done after %lld cycles\n", round, t->rank(),
                  static_cast<long long>((t1 - t0) / t->wtick() + 0.5));
  }
  t->finalize();
  return 0;
}
