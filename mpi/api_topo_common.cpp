// What every kind of process topology shares: its kind, its neighbour lists in the order of the
// neighbourhood collectives (MPI-3.1 §7.6), and where its ranks go on the mesh when reordering
// is allowed (the placement itself: coll/schedule/placement.cpp).
#include <cctype>
#include <string>

#include "runtime.h"
#include "topo.h"

// The object MPI_WEIGHTS_EMPTY points at (mpi.h).
extern "C" int tilempi_weights_empty[1];
int tilempi_weights_empty[1];

namespace tilempi::mpi {

int topology_kind(const Comm& c) {
  if (c.cart) return MPI_CART;
  if (c.graph) return c.graph->kind;
  return MPI_UNDEFINED;
}

namespace {

/// Per dimension the lower then the upper neighbour of rank, MPI_PROC_NULL off a non-periodic
/// border (what MPI_Cart_shift(d, 1) gives; every neighbourhood collective call asks).
std::vector<int> cart_neighbors(const Comm& c, int rank) {
  const std::size_t nd = c.cart_dims.size();
  std::vector<int> coords(nd), out;
  for (std::size_t d = nd; d-- > 0;) {
    coords[d] = rank % c.cart_dims[d];
    rank /= c.cart_dims[d];
  }
  for (std::size_t d = 0; d < nd; ++d)
    for (int step : {-1, +1}) {
      const int n = c.cart_dims[d];
      int v = coords[d] + step;
      if (c.cart_periods[d]) v = ((v % n) + n) % n;
      if (v < 0 || v >= n) {
        out.push_back(MPI_PROC_NULL);
        continue;
      }
      int to = 0;
      for (std::size_t e = 0; e < nd; ++e) to = to * c.cart_dims[e] + (e == d ? v : coords[e]);
      out.push_back(to);
    }
  return out;
}

std::vector<int> graph_neighbors(const GraphTopology& g, int rank) {
  const int begin = rank == 0 ? 0 : g.index[static_cast<std::size_t>(rank - 1)];
  const int end = g.index[static_cast<std::size_t>(rank)];
  return std::vector<int>(g.edges.begin() + begin, g.edges.begin() + end);
}

}  // namespace

NeighborLists neighbor_lists(const Comm& c) {
  NeighborLists l;
  if (c.cart) {
    l.sources = l.destinations = cart_neighbors(c, c.rank);
    l.cartesian = true;
  } else if (c.graph && c.graph->kind == MPI_GRAPH) {
    l.sources = l.destinations = graph_neighbors(*c.graph, c.rank);
  } else if (c.graph) {
    l.sources = c.graph->sources;
    l.destinations = c.graph->destinations;
  }
  return l;
}

topo_schedule::Neighborhood full_neighborhood(const Comm& c) {
  if (c.cart) return topo_schedule::cartesian_neighborhood(c.cart_dims, c.cart_periods);
  if (c.graph) return c.graph->everyone;
  return {};
}

Placement place_topology(Comm& comm, const WeightedGraph& g, bool reorder, const std::vector<int>& cart_dims) {
  const auto& topo = transport_of_job().rank_placement();
  std::vector<topo_schedule::Point> tiles;
  for (int r = 0; r < comm.size; ++r) {
    const int w = comm.world[static_cast<std::size_t>(r)];
    topo_schedule::Point p{0, 0};
    if (w >= 0 && static_cast<std::size_t>(w) < topo.coord.size())
      p = {topo.coord[static_cast<std::size_t>(w)].x, topo.coord[static_cast<std::size_t>(w)].y};
    tiles.push_back(p);
  }
  Placement p;
  p.order.resize(static_cast<std::size_t>(g.n));
  for (int k = 0; k < g.n; ++k) p.order[static_cast<std::size_t>(k)] = k;
  p.method = "identity";
  const long long identity = g.n <= comm.size ? topo_schedule::weighted_hops(g, tiles, p.order) : 0;
  // Only ranks on modeled tiles move: the host's mesh is a virtual one, and its cores' distances
  // are not what the mesh's hops say (docs/COLLECTIVES.md, "Process topologies").
  if (reorder && transport_of_job().capabilities().modeled_tiles && g.n <= comm.size)
    p.order = topo_schedule::place_graph(g, tiles, cart_dims, &p.method);
  p.identity_hops = identity;
  p.weighted_hops = g.n <= comm.size ? topo_schedule::weighted_hops(g, tiles, p.order) : 0;
  return p;
}

MPI_Comm topology_comm(Comm& comm, const std::vector<int>& order, std::uint64_t context) {
  std::vector<int> world;
  bool mine = false;
  for (int old : order) {
    world.push_back(comm.world[static_cast<std::size_t>(old)]);
    mine = mine || old == comm.rank;
  }
  if (!mine) return MPI_COMM_NULL;
  return comm_register(std::move(world), context, comm.errhandler);
}

void report_placement(Comm& comm, const char* fn, const Placement& p, int new_rank) {
  (void)comm;
  if (new_rank < 0) return;
  // A run report's note holds some 56 characters: "cart_create" for "MPI_Cart_create", ...
  std::string call = fn;
  if (call.rfind("MPI_", 0) == 0) call = call.substr(4);
  for (char& ch : call) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  // Per rank, which rank of the topology it became (the report lists each rank's tile); the
  // totals once: how the placement was found and its weighted hops, without reordering in brackets.
  transport_of_job().annotate("topology_rank", (call + " " + std::to_string(new_rank)).c_str());
  if (new_rank == 0)
    transport_of_job().annotate("topology", (call + " " + p.method + " hops " + std::to_string(p.weighted_hops) + " (" +
                                             std::to_string(p.identity_hops) + ")")
                                                .c_str());
}

}  // namespace tilempi::mpi
