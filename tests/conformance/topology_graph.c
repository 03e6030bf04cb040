/* Graph topologies (MPI-3.1 §7.5.3, §7.5.5): MPI_Graph_create, MPI_Graphdims_get, MPI_Graph_get,
 * MPI_Graph_neighbors(_count), MPI_Graph_map, MPI_Cart_map, MPI_Topo_test, and their error
 * classes under MPI_ERRORS_RETURN. The graph has a self loop and a repeated edge (both allowed). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "conformance_check.h"

static int error_class(int rc) {
  int cls = rc;
  MPI_Error_class(rc, &cls);
  return cls;
}

/* A ring over nnodes nodes, in both directions; node 0 also has a self loop and node 1 lists
 * node 2 twice. */
static void ring(int nnodes, int* index, int* edges, int* nedges) {
  int e = 0;
  for (int v = 0; v < nnodes; ++v) {
    edges[e++] = (v + nnodes - 1) % nnodes;
    edges[e++] = (v + 1) % nnodes;
    if (v == 0) edges[e++] = 0;
    if (v == 1) edges[e++] = 2 % nnodes;
    index[v] = e;
  }
  *nedges = e;
}

static void check_graph(MPI_Comm g, int nnodes, const int* index, const int* edges, int nedges, const char* what) {
  int status = -1, nn = -1, ne = -1, grank = -1;
  MPI_Topo_test(g, &status);
  CHECK(status == MPI_GRAPH, "%s: MPI_Topo_test gave %d, expected MPI_GRAPH", what, status);
  MPI_Comm_rank(g, &grank);
  CHECK(MPI_Graphdims_get(g, &nn, &ne) == MPI_SUCCESS && nn == nnodes && ne == nedges,
        "%s: MPI_Graphdims_get gave %d nodes, %d edges; expected %d, %d", what, nn, ne, nnodes, nedges);
  int* gi = malloc(sizeof(int) * (size_t)nnodes);
  int* ge = malloc(sizeof(int) * (size_t)nedges);
  CHECK(MPI_Graph_get(g, nnodes, nedges, gi, ge) == MPI_SUCCESS, "%s: MPI_Graph_get failed", what);
  for (int v = 0; v < nnodes; ++v) CHECK(gi[v] == index[v], "%s: index[%d] = %d, expected %d", what, v, gi[v], index[v]);
  for (int e = 0; e < nedges; ++e) CHECK(ge[e] == edges[e], "%s: edges[%d] = %d, expected %d", what, e, ge[e], edges[e]);
  for (int v = 0; v < nnodes; ++v) {
    int count = -1, nb[8];
    const int begin = v == 0 ? 0 : index[v - 1];
    CHECK(MPI_Graph_neighbors_count(g, v, &count) == MPI_SUCCESS && count == index[v] - begin,
          "%s: node %d has %d neighbours, expected %d", what, v, count, index[v] - begin);
    CHECK(MPI_Graph_neighbors(g, v, 8, nb) == MPI_SUCCESS, "%s: MPI_Graph_neighbors(%d) failed", what, v);
    for (int k = 0; k < count && k < 8; ++k)
      CHECK(nb[k] == edges[begin + k], "%s: neighbour %d of node %d is %d, expected %d", what, k, v, nb[k], edges[begin + k]);
  }
  /* Fewer than all: only maxneighbors are written. */
  int two[3] = {-7, -7, -7};
  CHECK(MPI_Graph_neighbors(g, 0, 1, two) == MPI_SUCCESS && two[0] == edges[0] && two[1] == -7,
        "%s: MPI_Graph_neighbors with maxneighbors 1 wrote %d %d", what, two[0], two[1]);
  free(gi);
  free(ge);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

  int index[64], edges[256], nedges = 0;
  for (int reorder = 0; reorder <= 1; ++reorder) {
    /* Every rank, then all but the last (which gets MPI_COMM_NULL). */
    for (int nnodes = size; nnodes >= size - 1 && nnodes >= 1; --nnodes) {
      ring(nnodes, index, edges, &nedges);
      MPI_Comm g = MPI_COMM_NULL;
      int rc = MPI_Graph_create(MPI_COMM_WORLD, nnodes, index, edges, reorder, &g);
      CHECK(rc == MPI_SUCCESS, "MPI_Graph_create(nnodes %d, reorder %d) returned %d", nnodes, reorder, rc);
      int in_graph = g != MPI_COMM_NULL, members = 0;
      MPI_Allreduce(&in_graph, &members, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
      CHECK(members == nnodes, "%d processes got the graph of %d nodes", members, nnodes);
      if (g == MPI_COMM_NULL) continue;
      char what[64];
      snprintf(what, sizeof what, "graph of %d nodes (reorder %d)", nnodes, reorder);
      check_graph(g, nnodes, index, edges, nedges, what);
      MPI_Comm dup;
      MPI_Comm_dup(g, &dup);
      snprintf(what, sizeof what, "duplicate of the graph of %d nodes", nnodes);
      check_graph(dup, nnodes, index, edges, nedges, what);
      /* Each process is in the graph exactly once (reorder may permute them). */
      int grank = -1, gsize = -1;
      MPI_Comm_rank(g, &grank);
      MPI_Comm_size(g, &gsize);
      CHECK(gsize == nnodes, "graph communicator of size %d, expected %d", gsize, nnodes);
      int* seen = calloc((size_t)gsize, sizeof(int));
      int one = 1;
      MPI_Allgather(&one, 0, MPI_INT, seen, 0, MPI_INT, g);
      int sum = 0;
      MPI_Allreduce(&grank, &sum, 1, MPI_INT, MPI_SUM, g);
      CHECK(sum == nnodes * (nnodes - 1) / 2, "graph ranks do not cover 0..%d", nnodes - 1);
      free(seen);
      /* Graph queries fail on other kinds: MPI_ERR_TOPOLOGY. */
      int nn, ne;
      rc = MPI_Cartdim_get(g, &nn);
      CHECK(error_class(rc) == MPI_ERR_TOPOLOGY, "MPI_Cartdim_get on a graph: class %d", error_class(rc));
      int in, out, weighted;
      MPI_Comm_set_errhandler(g, MPI_ERRORS_RETURN);
      rc = MPI_Dist_graph_neighbors_count(g, &in, &out, &weighted);
      CHECK(error_class(rc) == MPI_ERR_TOPOLOGY, "MPI_Dist_graph_neighbors_count on a graph: class %d", error_class(rc));
      rc = MPI_Graph_neighbors_count(g, nnodes, &nn);
      CHECK(error_class(rc) == MPI_ERR_RANK, "MPI_Graph_neighbors_count of node %d: class %d", nnodes, error_class(rc));
      rc = MPI_Graph_neighbors(g, -1, 4, edges);
      CHECK(error_class(rc) == MPI_ERR_RANK, "MPI_Graph_neighbors of node -1: class %d", error_class(rc));
      rc = MPI_Graph_get(g, -1, 0, index, edges);
      CHECK(error_class(rc) == MPI_ERR_ARG, "MPI_Graph_get with maxindex -1: class %d", error_class(rc));
      rc = MPI_Graphdims_get(g, NULL, &ne);
      CHECK(error_class(rc) == MPI_ERR_ARG, "MPI_Graphdims_get with nnodes NULL: class %d", error_class(rc));
      MPI_Comm_free(&dup);
      MPI_Comm_free(&g);
    }
  }

  /* Graph queries on a communicator without a topology, and on a Cartesian one. */
  int nn, ne, status = -1;
  int rc = MPI_Graphdims_get(MPI_COMM_WORLD, &nn, &ne);
  CHECK(error_class(rc) == MPI_ERR_TOPOLOGY, "MPI_Graphdims_get on MPI_COMM_WORLD: class %d", error_class(rc));
  MPI_Topo_test(MPI_COMM_WORLD, &status);
  CHECK(status == MPI_UNDEFINED, "MPI_Topo_test of MPI_COMM_WORLD gave %d", status);
  MPI_Comm cart;
  int dims[1] = {size}, periods[1] = {1};
  MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &cart);
  MPI_Comm_set_errhandler(cart, MPI_ERRORS_RETURN);
  rc = MPI_Graph_neighbors_count(cart, 0, &nn);
  CHECK(error_class(rc) == MPI_ERR_TOPOLOGY, "MPI_Graph_neighbors_count on a Cartesian communicator: class %d", error_class(rc));
  MPI_Comm_free(&cart);

  /* Bad graphs: MPI_ERR_ARG (MPICH's class), and the next communicator still agrees everywhere. */
  ring(size, index, edges, &nedges);
  MPI_Comm g = MPI_COMM_NULL;
  rc = MPI_Graph_create(MPI_COMM_WORLD, size + 1, index, edges, 0, &g);
  CHECK(error_class(rc) == MPI_ERR_ARG && g == MPI_COMM_NULL, "nnodes > size: class %d", error_class(rc));
  rc = MPI_Graph_create(MPI_COMM_WORLD, -1, index, edges, 0, &g);
  CHECK(error_class(rc) == MPI_ERR_ARG, "nnodes -1: class %d", error_class(rc));
  int bad_edges[2] = {0, size};
  int bad_index[1] = {2};
  rc = MPI_Graph_create(MPI_COMM_WORLD, 1, bad_index, bad_edges, 0, &g);
  CHECK(error_class(rc) == MPI_ERR_ARG, "an edge to node %d of a 1-node graph: class %d", size, error_class(rc));
  int down_index[2] = {2, 1};
  rc = MPI_Graph_create(MPI_COMM_WORLD, 2, down_index, edges, 0, &g);
  CHECK(error_class(rc) == MPI_ERR_ARG, "a decreasing index: class %d", error_class(rc));
  rc = MPI_Graph_create(MPI_COMM_WORLD, size, index, edges, 0, NULL);
  CHECK(error_class(rc) == MPI_ERR_ARG, "comm_graph NULL: class %d", error_class(rc));
  /* Zero nodes: MPI_COMM_NULL everywhere. */
  rc = MPI_Graph_create(MPI_COMM_WORLD, 0, index, edges, 0, &g);
  CHECK(rc == MPI_SUCCESS && g == MPI_COMM_NULL, "a graph of 0 nodes: rc %d", rc);
  MPI_Comm after;
  MPI_Comm_dup(MPI_COMM_WORLD, &after);
  int token = rank, total = 0;
  MPI_Allreduce(&token, &total, 1, MPI_INT, MPI_SUM, after);
  CHECK(total == size * (size - 1) / 2, "a communicator made after the failed calls does not work (sum %d)", total);
  MPI_Comm_free(&after);

  /* MPI_Graph_map and MPI_Cart_map: a rank in 0..n-1 for n processes, MPI_UNDEFINED beyond. */
  int newrank = -5;
  rc = MPI_Graph_map(MPI_COMM_WORLD, size - 1 > 0 ? size - 1 : 1, index, edges, &newrank);
  if (size > 2) {
    ring(size - 1, index, edges, &nedges);
    rc = MPI_Graph_map(MPI_COMM_WORLD, size - 1, index, edges, &newrank);
    CHECK(rc == MPI_SUCCESS, "MPI_Graph_map returned %d", rc);
    int mapped = newrank != MPI_UNDEFINED, count = 0, sum = 0, mine = mapped ? newrank : 0;
    CHECK(!mapped || (newrank >= 0 && newrank < size - 1), "MPI_Graph_map gave rank %d", newrank);
    MPI_Allreduce(&mapped, &count, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    CHECK(count == size - 1 && sum == (size - 1) * (size - 2) / 2, "MPI_Graph_map: %d mapped, rank sum %d", count, sum);
  }
  int cdims[2] = {2, size / 2}, cper[2] = {0, 1};
  rc = MPI_Cart_map(MPI_COMM_WORLD, 2, cdims, cper, &newrank);
  CHECK(rc == MPI_SUCCESS, "MPI_Cart_map returned %d", rc);
  {
    int mapped = newrank != MPI_UNDEFINED, count = 0, sum = 0, mine = mapped ? newrank : 0, cells = 2 * (size / 2);
    MPI_Allreduce(&mapped, &count, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    CHECK(count == cells && sum == cells * (cells - 1) / 2, "MPI_Cart_map: %d mapped, rank sum %d", count, sum);
  }
  cdims[1] = size;
  rc = MPI_Cart_map(MPI_COMM_WORLD, 2, cdims, cper, &newrank);
  CHECK(error_class(rc) == MPI_ERR_DIMS, "MPI_Cart_map of a grid larger than the communicator: class %d", error_class(rc));
  rc = MPI_Graph_map(MPI_COMM_WORLD, size, index, edges, NULL);
  CHECK(error_class(rc) == MPI_ERR_ARG, "MPI_Graph_map with newrank NULL: class %d", error_class(rc));

  int all = 0;
  MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) printf(all ? "topology graph: %d failures\n" : "topology graph: all checks passed\n", all);
  MPI_Finalize();
  return all ? 1 : 0;
}
