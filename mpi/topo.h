// Process topologies beyond the Cartesian grid (which Comm keeps itself: cart, cart_dims,
// cart_periods): graph (MPI_Graph_create) and distributed graph (MPI_Dist_graph_create(_adjacent))
// topologies, the neighbour lists the neighbourhood collectives follow for every kind, and the
// placement of a topology's ranks on the mesh when the user allows reordering (topo_map.cpp).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "coll/schedule/schedule.h"
#include "comm.h"

namespace tilempi::mpi {

/// A graph or distributed-graph topology, shared (immutable) by a communicator and its duplicates.
struct GraphTopology {
  int kind = MPI_GRAPH;  ///< MPI_GRAPH or MPI_DIST_GRAPH
  // MPI_GRAPH: the whole graph, as the user gave it (MPI-3.1 §7.5.3).
  std::vector<int> index;
  std::vector<int> edges;
  // MPI_DIST_GRAPH: this process's edges only, in the order the standard fixes (§7.5.4).
  std::vector<int> sources, source_weights;
  std::vector<int> destinations, destination_weights;
  bool weighted = false;  ///< the edges were given weights (not MPI_UNWEIGHTED)
  /// Every rank's destinations (both kinds), for the mesh neighbourhood schedule.
  ::tilempi::coll::schedule::Neighborhood everyone;
};

/// The neighbours of this process in the order the neighbourhood collectives use (MPI-3.1 §7.6):
/// receive block i comes from sources[i], send block j goes to destinations[j]; MPI_PROC_NULL
/// entries (Cartesian edges off a non-periodic border) send and receive nothing.
struct NeighborLists {
  std::vector<int> sources;
  std::vector<int> destinations;
  /// Cartesian: the two blocks of each dimension pair up crosswise (a block sent towards the
  /// lower neighbour is received as the "from above" block), which decides which message matches
  /// which receive when both neighbours of a dimension are the same process (periodic dimension
  /// of 1 or 2 processes; MPI-4.0 errata to MPI-3.1 §7.6).
  bool cartesian = false;
};

/// The communicator's topology kind: MPI_CART, MPI_GRAPH, MPI_DIST_GRAPH or MPI_UNDEFINED.
int topology_kind(const Comm& c);
/// Its neighbour lists (empty for MPI_UNDEFINED).
NeighborLists neighbor_lists(const Comm& c);

// ---- placement (topo_map.cpp) ------------------------------------------------------------------

namespace topo_schedule = ::tilempi::coll::schedule;
using topo_schedule::WeightedGraph;
/// Every rank's out-edges of comm's topology, in the send order (for MPI_DIST_GRAPH gathered
/// when the communicator was made): what the mesh neighbourhood schedule needs.
topo_schedule::Neighborhood full_neighborhood(const Comm& c);

/// Where the ranks of a new topology go. order[k] is the old rank that becomes new rank k (the
/// first order.size() old ranks' tiles are the candidates: all of comm's members). Identity
/// unless reordering is allowed and the ranks sit on modeled tiles (Capabilities::modeled_tiles).
struct Placement {
  std::vector<int> order;
  long long weighted_hops = 0;  ///< sum over the edges of weight x XY hops between their tiles
  long long identity_hops = 0;  ///< the same for the placement without reordering
  std::string method;           ///< how order was found (for the run report)
};
/// n vertices of g over the tiles of comm's members. cart_dims: the grid's shape when g is a
/// Cartesian grid (an exact embedding is tried first), else empty.
Placement place_topology(Comm& comm, const WeightedGraph& g, bool reorder, const std::vector<int>& cart_dims);

/// A communicator of comm's members in the given order (order[k]: the old rank of new rank k);
/// members not in order get MPI_COMM_NULL. Every member calls it with the same order.
MPI_Comm topology_comm(Comm& comm, const std::vector<int>& order, std::uint64_t context);

/// Tell the transport where a new topology's ranks went (the sim's run report lists it).
void report_placement(Comm& comm, const char* fn, const Placement& p, int new_rank);

}  // namespace tilempi::mpi
