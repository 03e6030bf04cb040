// Graph and distributed-graph topologies (MPI-3.1 §7.5.3, §7.5.4): constructors, queries, and
// MPI_Graph_map / MPI_Cart_map.
//
// A topology is defined on ranks: new rank k has the neighbours the creation call gave for rank
// k (for MPI_Dist_graph_create_adjacent, the lists that the process of rank k in comm_old passed).
// With reorder the processes may take other ranks (topo.h, place_topology), so every member
// needs every rank's edges: the distributed constructors gather them, which also gives the mesh
// neighbourhood schedule the whole graph (GraphTopology::everyone).
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "check.h"
#include "info.h"
#include "p2p.h"
#include "topo.h"

using namespace tilempi::mpi;

namespace {

Comm* with_kind(MPI_Comm h, int kind, const char* fn, int* rc) {
  Comm* c = check::comm(h, fn, rc);
  if (c && topology_kind(*c) != kind) {
    *rc = raise(h, MPI_ERR_TOPOLOGY, fn,
                kind == MPI_GRAPH ? "the communicator has no graph topology"
                                  : "the communicator has no distributed graph topology");
    return nullptr;
  }
  return c;
}

/// One argument error found at this rank: its class and why.
struct Fault {
  int cls = MPI_SUCCESS;
  std::string why;
  explicit operator bool() const { return cls != MPI_SUCCESS; }
  void set(int c, std::string w) {
    if (!cls) cls = c, why = std::move(w);
  }
};

/// Every member's vector of ints at every member: the lengths first (-1 marks a member whose
/// arguments were wrong), then the vectors padded to the longest. On the constructors' lane.
int allgather_vectors(Comm& c, const std::vector<int>& mine, bool ok, std::vector<std::vector<int>>& all,
                      bool* everyone_ok) {
  const int len = ok ? static_cast<int>(mine.size()) : -1;
  std::vector<int> lens;
  if (int e = allgather_ints(c, &len, 1, lens)) return e;
  int longest = 0;
  *everyone_ok = true;
  for (int l : lens) {
    longest = std::max(longest, l);
    *everyone_ok = *everyone_ok && l >= 0;
  }
  if (!*everyone_ok) return MPI_SUCCESS;
  std::vector<int> padded(static_cast<std::size_t>(longest) + 1, 0);
  std::copy(mine.begin(), mine.end(), padded.begin());
  std::vector<int> flat;
  if (int e = allgather_ints(c, padded.data(), longest + 1, flat)) return e;
  all.assign(static_cast<std::size_t>(c.size), {});
  for (int r = 0; r < c.size; ++r) {
    const auto* p = flat.data() + static_cast<std::size_t>(r) * static_cast<std::size_t>(longest + 1);
    all[static_cast<std::size_t>(r)].assign(p, p + lens[static_cast<std::size_t>(r)]);
  }
  return MPI_SUCCESS;
}

bool weights_given(const int* w) { return w != MPI_UNWEIGHTED; }

/// Checks a list of ranks and its weights; records the first fault.
void check_edges(const Comm& c, int degree, const int* ranks, const int* weights, const char* what, Fault& f) {
  if (degree < 0) return f.set(MPI_ERR_ARG, std::string(what) + " degree " + std::to_string(degree) + " is negative");
  if (degree > 0 && !ranks) return f.set(MPI_ERR_ARG, std::string(what) + " ranks are NULL");
  if (degree > 0 && weights == MPI_WEIGHTS_EMPTY)
    return f.set(MPI_ERR_ARG, std::string(what) + " weights are MPI_WEIGHTS_EMPTY but the degree is " + std::to_string(degree));
  for (int i = 0; i < degree; ++i) {
    if (ranks[i] < 0 || ranks[i] >= c.size)
      return f.set(MPI_ERR_ARG, std::string(what) + "[" + std::to_string(i) + "] = " + std::to_string(ranks[i]) +
                                    " is not a rank of comm_old (size " + std::to_string(c.size) + ")");
    if (weights_given(weights) && weights != MPI_WEIGHTS_EMPTY && weights[i] < 0)
      return f.set(MPI_ERR_ARG, std::string(what) + " weight " + std::to_string(i) + " is negative");
  }
}

/// Every rank's edges, as the distributed constructors gathered them.
struct Edges {
  std::vector<std::vector<std::pair<int, int>>> in, out;  ///< per rank: (neighbour, weight)
  std::vector<char> weighted;
};

/// Build the new communicator from every rank's edges: placement (reorder), then this process's
/// lists are those of its new rank.
int make_dist_graph(Comm& c, MPI_Comm comm_old, const char* fn, Edges edges, bool reorder, MPI_Comm* out) {
  WeightedGraph g;
  g.n = c.size;
  g.out = edges.out;
  Placement p = place_topology(c, g, reorder, {});
  const std::uint64_t context = derive_context(c);
  *out = topology_comm(c, p.order, context);
  Comm* n = comm_get(*out);
  const auto k = static_cast<std::size_t>(n->rank);
  auto t = std::make_shared<GraphTopology>();
  t->kind = MPI_DIST_GRAPH;
  t->weighted = edges.weighted[k] != 0;
  for (const auto& [r, w] : edges.in[k]) t->sources.push_back(r), t->source_weights.push_back(w);
  for (const auto& [r, w] : edges.out[k]) t->destinations.push_back(r), t->destination_weights.push_back(w);
  t->everyone.destinations.resize(edges.out.size());
  for (std::size_t v = 0; v < edges.out.size(); ++v)
    for (const auto& [r, w] : edges.out[v]) t->everyone.destinations[v].push_back(r);
  n->graph = std::move(t);
  if (reorder) report_placement(c, fn, p, n->rank);
  (void)comm_old;
  return MPI_SUCCESS;
}

/// The constructors' common error path: every member learnt (from the gather) that one failed.
int gathered_fault(Comm& c, MPI_Comm comm_old, const char* fn, const Fault& f, MPI_Comm* out) {
  derive_context(c);  // the others derive one too: later communicators stay in step
  if (out) *out = MPI_COMM_NULL;
  if (f) return raise(comm_old, f.cls, fn, f.why);
  return raise(comm_old, MPI_ERR_OTHER, fn, "another member's arguments were wrong; no communicator was made");
}

WeightedGraph graph_of_index(int nnodes, const int* index, const int* edges) {
  WeightedGraph g;
  g.n = nnodes;
  g.out.resize(static_cast<std::size_t>(nnodes));
  for (int v = 0; v < nnodes; ++v)
    for (int e = v == 0 ? 0 : index[v - 1]; e < index[v]; ++e) g.out[static_cast<std::size_t>(v)].push_back({edges[e], 1});
  return g;
}

/// The checks of a graph (nnodes, index, edges) on comm of size size.
void check_graph(int size, int nnodes, const int* index, const int* edges, Fault& f) {
  if (nnodes < 0 || nnodes > size)
    return f.set(MPI_ERR_ARG, "nnodes " + std::to_string(nnodes) + " is not in 0.." + std::to_string(size) + " (the communicator's size)");
  if (nnodes > 0 && (!index || !edges)) return f.set(MPI_ERR_ARG, "index or edges is NULL");
  for (int v = 0; v < nnodes; ++v)
    if (index[v] < (v == 0 ? 0 : index[v - 1]))
      return f.set(MPI_ERR_ARG, "index[" + std::to_string(v) + "] = " + std::to_string(index[v]) +
                                    " is less than the one before it (index is cumulative)");
  for (int e = 0; nnodes > 0 && e < index[nnodes - 1]; ++e)
    if (edges[e] < 0 || edges[e] >= nnodes)
      return f.set(MPI_ERR_ARG, "edges[" + std::to_string(e) + "] = " + std::to_string(edges[e]) + " is not a node (0.." +
                                    std::to_string(nnodes - 1) + ")");
}

}  // namespace

extern "C" {

int MPI_Graph_create(MPI_Comm comm_old, int nnodes, const int index[], const int edges[], int reorder,
                     MPI_Comm* comm_graph) {
  ApiScope api_scope(__func__);
  const char* fn = "MPI_Graph_create";
  int rc;
  Comm* c = check::intra(comm_old, fn, &rc);
  if (!c) return rc;
  Fault f;
  if (!comm_graph) f.set(MPI_ERR_ARG, "comm_graph is NULL");
  check_graph(c->size, nnodes, index, edges, f);
  if (f) {
    derive_context(*c);  // the other members derive one: later communicators stay in step
    if (comm_graph) *comm_graph = MPI_COMM_NULL;
    return raise(comm_old, f.cls, fn, f.why);
  }
  const WeightedGraph g = graph_of_index(nnodes, index, edges);
  Placement p = place_topology(*c, g, reorder != 0, {});
  const std::uint64_t context = derive_context(*c);
  *comm_graph = nnodes == 0 ? MPI_COMM_NULL : topology_comm(*c, p.order, context);
  if (*comm_graph == MPI_COMM_NULL) return MPI_SUCCESS;
  Comm* n = comm_get(*comm_graph);
  auto t = std::make_shared<GraphTopology>();
  t->kind = MPI_GRAPH;
  t->index.assign(index, index + nnodes);
  t->edges.assign(edges, edges + index[nnodes - 1]);
  t->everyone.destinations.resize(static_cast<std::size_t>(nnodes));
  for (int v = 0; v < nnodes; ++v)
    for (const auto& [u, w] : g.out[static_cast<std::size_t>(v)]) t->everyone.destinations[static_cast<std::size_t>(v)].push_back(u);
  n->graph = std::move(t);
  if (reorder) report_placement(*c, fn, p, n->rank);
  return MPI_SUCCESS;
}

int MPI_Graphdims_get(MPI_Comm comm, int* nnodes, int* nedges) {
  ApiScope api_scope(__func__);
  const char* fn = "MPI_Graphdims_get";
  int rc;
  Comm* c = with_kind(comm, MPI_GRAPH, fn, &rc);
  if (!c) return rc;
  if (!nnodes || !nedges) return raise(comm, MPI_ERR_ARG, fn, "nnodes or nedges is NULL");
  *nnodes = static_cast<int>(c->graph->index.size());
  *nedges = static_cast<int>(c->graph->edges.size());
  return MPI_SUCCESS;
}

int MPI_Graph_get(MPI_Comm comm, int maxindex, int maxedges, int index[], int edges[]) {
  ApiScope api_scope(__func__);
  const char* fn = "MPI_Graph_get";
  int rc;
  Comm* c = with_kind(comm, MPI_GRAPH, fn, &rc);
  if (!c) return rc;
  if (maxindex < 0 || maxedges < 0) return raise(comm, MPI_ERR_ARG, fn, "maxindex or maxedges is negative");
  const auto& g = *c->graph;
  const int ni = std::min<int>(maxindex, static_cast<int>(g.index.size()));
  const int ne = std::min<int>(maxedges, static_cast<int>(g.edges.size()));
  if ((ni > 0 && !index) || (ne > 0 && !edges)) return raise(comm, MPI_ERR_ARG, fn, "index or edges is NULL");
  std::copy(g.index.begin(), g.index.begin() + ni, index);
  std::copy(g.edges.begin(), g.edges.begin() + ne, edges);
  return MPI_SUCCESS;
}

int MPI_Graph_neighbors_count(MPI_Comm comm, int rank, int* nneighbors) {
  ApiScope api_scope(__func__);
  const char* fn = "MPI_Graph_neighbors_count";
  int rc;
  Comm* c = with_kind(comm, MPI_GRAPH, fn, &rc);
  if (!c) return rc;
  const auto& g = *c->graph;
  if (rank < 0 || rank >= static_cast<int>(g.index.size()))
    return raise(comm, MPI_ERR_RANK, fn, "rank " + std::to_string(rank) + " is not a node of the graph");
  if (!nneighbors) return raise(comm, MPI_ERR_ARG, fn, "nneighbors is NULL");
  *nneighbors = g.index[static_cast<std::size_t>(rank)] - (rank == 0 ? 0 : g.index[static_cast<std::size_t>(rank - 1)]);
  return MPI_SUCCESS;
}

int MPI_Graph_neighbors(MPI_Comm comm, int rank, int maxneighbors, int neighbors[]) {
  ApiScope api_scope(__func__);
  const char* fn = "MPI_Graph_neighbors";
  int rc;
  Comm* c = with_kind(comm, MPI_GRAPH, fn, &rc);
  if (!c) return rc;
  const auto& g = *c->graph;
  if (rank < 0 || rank >= static_cast<int>(g.index.size()))
    return raise(comm, MPI_ERR_RANK, fn, "rank " + std::to_string(rank) + " is not a node of the graph");
  if (maxneighbors < 0) return raise(comm, MPI_ERR_ARG, fn, "maxneighbors is negative");
  const int begin = rank == 0 ? 0 : g.index[static_cast<std::size_t>(rank - 1)];
  const int n = std::min(maxneighbors, g.index[static_cast<std::size_t>(rank)] - begin);
  if (n > 0 && !neighbors) return raise(comm, MPI_ERR_ARG, fn, "neighbors is NULL");
  std::copy(g.edges.begin() + begin, g.edges.begin() + begin + n, neighbors);
  return MPI_SUCCESS;
}

int MPI_Graph_map(MPI_Comm comm, int nnodes, const int index[], const int edges[], int* newrank) {
  ApiScope api_scope(__func__);
  const char* fn = "MPI_Graph_map";
  int rc;
  Comm* c = check::intra(comm, fn, &rc);
  if (!c) return rc;
  Fault f;
  if (!newrank) f.set(MPI_ERR_ARG, "newrank is NULL");
  check_graph(c->size, nnodes, index, edges, f);
  if (nnodes == 0 && !f) f.set(MPI_ERR_ARG, "nnodes is 0");
  if (f) return raise(comm, f.cls, fn, f.why);
  const Placement p = place_topology(*c, graph_of_index(nnodes, index, edges), true, {});
  *newrank = MPI_UNDEFINED;
  for (int k = 0; k < nnodes; ++k)
    if (p.order[static_cast<std::size_t>(k)] == c->rank) *newrank = k;
  return MPI_SUCCESS;
}

int MPI_Cart_map(MPI_Comm comm, int ndims, const int dims[], const int periods[], int* newrank) {
  ApiScope api_scope(__func__);
  const char* fn = "MPI_Cart_map";
  int rc;
  Comm* c = check::intra(comm, fn, &rc);
  if (!c) return rc;
  if (ndims < 0 || (ndims > 0 && (!dims || !periods)) || !newrank)
    return raise(comm, MPI_ERR_ARG, fn, "bad ndims, dims, periods or newrank");
  long total = 1;
  for (int d = 0; d < ndims; ++d) {
    if (dims[d] <= 0) return raise(comm, MPI_ERR_DIMS, fn, "dims[" + std::to_string(d) + "] must be positive");
    total *= dims[d];
  }
  if (total > c->size)
    return raise(comm, MPI_ERR_DIMS, fn,
                 "the grid has " + std::to_string(total) + " cells but the communicator only " + std::to_string(c->size) + " ranks");
  std::vector<int> dv(dims, dims + ndims), pv(periods, periods + ndims);
  for (int& p : pv) p = p ? 1 : 0;
  const Placement p = place_topology(*c, topo_schedule::graph_of(topo_schedule::cartesian_neighborhood(dv, pv)), true, dv);
  *newrank = MPI_UNDEFINED;
  for (std::size_t k = 0; k < p.order.size(); ++k)
    if (p.order[k] == c->rank) *newrank = static_cast<int>(k);
  return MPI_SUCCESS;
}

int MPI_Dist_graph_create_adjacent(MPI_Comm comm_old, int indegree, const int sources[], const int sourceweights[],
                                   int outdegree, const int destinations[], const int destweights[], MPI_Info info,
                                   int reorder, MPI_Comm* comm_dist_graph) {
  ApiScope api_scope(__func__);
  const char* fn = "MPI_Dist_graph_create_adjacent";
  int rc;
  Comm* c = check::intra(comm_old, fn, &rc);
  if (!c) return rc;
  Fault f;
  if (!comm_dist_graph) f.set(MPI_ERR_ARG, "comm_dist_graph is NULL");
  if (info != MPI_INFO_NULL && !info_valid(info)) f.set(MPI_ERR_INFO, "info handle " + std::to_string(info) + " is not valid");
  check_edges(*c, indegree, sources, sourceweights, "sources", f);
  check_edges(*c, outdegree, destinations, destweights, "destinations", f);
  if (!f && weights_given(sourceweights) != weights_given(destweights))
    f.set(MPI_ERR_TOPOLOGY, "sourceweights and destweights must both be MPI_UNWEIGHTED or neither");  // MPICH's class
  // What every member learns of this one: [weighted, indegree, outdegree, sources, their
  // weights, destinations, their weights].
  std::vector<int> mine;
  if (!f) {
    const bool weighted = weights_given(sourceweights);
    mine = {weighted ? 1 : 0, indegree, outdegree};
    for (int i = 0; i < indegree; ++i) mine.push_back(sources[i]);
    for (int i = 0; i < indegree; ++i) mine.push_back(weighted && sourceweights != MPI_WEIGHTS_EMPTY ? sourceweights[i] : 1);
    for (int i = 0; i < outdegree; ++i) mine.push_back(destinations[i]);
    for (int i = 0; i < outdegree; ++i) mine.push_back(weighted && destweights != MPI_WEIGHTS_EMPTY ? destweights[i] : 1);
  }
  std::vector<std::vector<int>> all;
  bool everyone_ok = false;
  if (int e = allgather_vectors(*c, mine, !f, all, &everyone_ok)) return raise(comm_old, e, fn, "exchanging the edges failed");
  if (!everyone_ok) return gathered_fault(*c, comm_old, fn, f, comm_dist_graph);
  Edges edges;
  edges.in.resize(all.size());
  edges.out.resize(all.size());
  edges.weighted.resize(all.size());
  for (std::size_t r = 0; r < all.size(); ++r) {
    const auto& v = all[r];
    const int in = v[1], out = v[2];
    edges.weighted[r] = static_cast<char>(v[0]);
    for (int i = 0; i < in; ++i) edges.in[r].push_back({v[3 + i], v[3 + in + i]});
    for (int i = 0; i < out; ++i) edges.out[r].push_back({v[3 + 2 * in + i], v[3 + 2 * in + out + i]});
  }
  return make_dist_graph(*c, comm_old, fn, std::move(edges), reorder != 0, comm_dist_graph);
}

int MPI_Dist_graph_create(MPI_Comm comm_old, int n, const int sources[], const int degrees[], const int destinations[],
                          const int weights[], MPI_Info info, int reorder, MPI_Comm* comm_dist_graph) {
  ApiScope api_scope(__func__);
  const char* fn = "MPI_Dist_graph_create";
  int rc;
  Comm* c = check::intra(comm_old, fn, &rc);
  if (!c) return rc;
  Fault f;
  if (!comm_dist_graph) f.set(MPI_ERR_ARG, "comm_dist_graph is NULL");
  if (info != MPI_INFO_NULL && !info_valid(info)) f.set(MPI_ERR_INFO, "info handle " + std::to_string(info) + " is not valid");
  if (n < 0) f.set(MPI_ERR_ARG, "n " + std::to_string(n) + " is negative");
  if (n > 0 && (!sources || !degrees)) f.set(MPI_ERR_ARG, "sources or degrees is NULL");
  long total = 0;
  for (int i = 0; !f && i < n; ++i) {
    if (sources[i] < 0 || sources[i] >= c->size)
      f.set(MPI_ERR_ARG, "sources[" + std::to_string(i) + "] = " + std::to_string(sources[i]) + " is not a rank of comm_old");
    else if (degrees[i] < 0)
      f.set(MPI_ERR_ARG, "degrees[" + std::to_string(i) + "] = " + std::to_string(degrees[i]) + " is negative");
    else
      total += degrees[i];
  }
  if (!f && total > 0 && !destinations) f.set(MPI_ERR_ARG, "destinations is NULL");
  if (!f && total > 0 && weights == MPI_WEIGHTS_EMPTY) f.set(MPI_ERR_ARG, "weights are MPI_WEIGHTS_EMPTY but there are edges");
  if (!f) check_edges(*c, static_cast<int>(total), destinations, weights, "destinations", f);
  // What every member learns of this one: [weighted, (source, destination, weight) per edge].
  std::vector<int> mine;
  if (!f) {
    const bool weighted = weights_given(weights);
    mine.push_back(weighted ? 1 : 0);
    for (int i = 0, e = 0; i < n; ++i)
      for (int k = 0; k < degrees[i]; ++k, ++e) {
        mine.push_back(sources[i]);
        mine.push_back(destinations[e]);
        mine.push_back(weighted && weights != MPI_WEIGHTS_EMPTY ? weights[e] : 1);
      }
  }
  std::vector<std::vector<int>> all;
  bool everyone_ok = false;
  if (int e = allgather_vectors(*c, mine, !f, all, &everyone_ok)) return raise(comm_old, e, fn, "exchanging the edges failed");
  if (!everyone_ok) return gathered_fault(*c, comm_old, fn, f, comm_dist_graph);
  // Each rank's edges in the order of the members that gave them, then of their lists (the
  // standard leaves this order to the implementation; it is the same at every call).
  Edges edges;
  edges.in.resize(all.size());
  edges.out.resize(all.size());
  bool weighted = false;
  for (const auto& v : all) {
    weighted = weighted || v[0] != 0;
    for (std::size_t i = 1; i + 3 <= v.size(); i += 3) {
      const int s = v[i], d = v[i + 1], w = v[i + 2];
      edges.out[static_cast<std::size_t>(s)].push_back({d, w});
      edges.in[static_cast<std::size_t>(d)].push_back({s, w});
    }
  }
  edges.weighted.assign(all.size(), weighted ? 1 : 0);
  return make_dist_graph(*c, comm_old, fn, std::move(edges), reorder != 0, comm_dist_graph);
}

int MPI_Dist_graph_neighbors_count(MPI_Comm comm, int* indegree, int* outdegree, int* weighted) {
  ApiScope api_scope(__func__);
  const char* fn = "MPI_Dist_graph_neighbors_count";
  int rc;
  Comm* c = with_kind(comm, MPI_DIST_GRAPH, fn, &rc);
  if (!c) return rc;
  if (!indegree || !outdegree || !weighted) return raise(comm, MPI_ERR_ARG, fn, "indegree, outdegree or weighted is NULL");
  *indegree = static_cast<int>(c->graph->sources.size());
  *outdegree = static_cast<int>(c->graph->destinations.size());
  *weighted = c->graph->weighted ? 1 : 0;
  return MPI_SUCCESS;
}

int MPI_Dist_graph_neighbors(MPI_Comm comm, int maxindegree, int sources[], int sourceweights[], int maxoutdegree,
                             int destinations[], int destweights[]) {
  ApiScope api_scope(__func__);
  const char* fn = "MPI_Dist_graph_neighbors";
  int rc;
  Comm* c = with_kind(comm, MPI_DIST_GRAPH, fn, &rc);
  if (!c) return rc;
  if (maxindegree < 0 || maxoutdegree < 0) return raise(comm, MPI_ERR_ARG, fn, "maxindegree or maxoutdegree is negative");
  const auto& g = *c->graph;
  const int ni = std::min<int>(maxindegree, static_cast<int>(g.sources.size()));
  const int no = std::min<int>(maxoutdegree, static_cast<int>(g.destinations.size()));
  if ((ni > 0 && !sources) || (no > 0 && !destinations)) return raise(comm, MPI_ERR_ARG, fn, "sources or destinations is NULL");
  std::copy(g.sources.begin(), g.sources.begin() + ni, sources);
  std::copy(g.destinations.begin(), g.destinations.begin() + no, destinations);
  // Weights only where the topology has them and the caller asked (MPI_UNWEIGHTED: not asked).
  if (g.weighted && weights_given(sourceweights) && sourceweights != MPI_WEIGHTS_EMPTY)
    std::copy(g.source_weights.begin(), g.source_weights.begin() + ni, sourceweights);
  if (g.weighted && weights_given(destweights) && destweights != MPI_WEIGHTS_EMPTY)
    std::copy(g.destination_weights.begin(), g.destination_weights.begin() + no, destweights);
  return MPI_SUCCESS;
}

}  // extern "C"

// The names a profiling tool may replace (see TILEMPI_PMPI_ALIAS).
TILEMPI_PMPI_ALIAS(Graph_create)
TILEMPI_PMPI_ALIAS(Graphdims_get)
TILEMPI_PMPI_ALIAS(Graph_get)
TILEMPI_PMPI_ALIAS(Graph_neighbors_count)
TILEMPI_PMPI_ALIAS(Graph_neighbors)
TILEMPI_PMPI_ALIAS(Graph_map)
TILEMPI_PMPI_ALIAS(Cart_map)
TILEMPI_PMPI_ALIAS(Dist_graph_create_adjacent)
TILEMPI_PMPI_ALIAS(Dist_graph_create)
TILEMPI_PMPI_ALIAS(Dist_graph_neighbors_count)
TILEMPI_PMPI_ALIAS(Dist_graph_neighbors)
