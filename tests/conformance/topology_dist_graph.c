/* Distributed-graph topologies (MPI-3.1 §7.5.4, §7.5.5): MPI_Dist_graph_create_adjacent,
 * MPI_Dist_graph_create, MPI_Dist_graph_neighbors(_count), MPI_Topo_test, weights
 * (MPI_UNWEIGHTED, MPI_WEIGHTS_EMPTY), reorder, and the error classes under MPI_ERRORS_RETURN. */
#include <mpi.h>
#include <stdio.h>

#include "conformance_check.h"

static int error_class(int rc) {
  int cls = rc;
  MPI_Error_class(rc, &cls);
  return cls;
}

/* The test graph: rank r sends to r+1 (weight 10+r) and r+2 (weight 20+r), mod size. */
static int dest(int r, int k) { return (r + 1 + k) % size; }
static int weight(int r, int k) { return (k == 0 ? 10 : 20) + r; }

/* In a communicator made with reorder, new rank k has the edges rank k was given: the graph is
 * the same in new ranks. */
static void check_lists(MPI_Comm g, int weighted, const char* what) {
  int me = -1, status = -1, in = -1, out = -1, w = -1;
  MPI_Comm_rank(g, &me);
  MPI_Topo_test(g, &status);
  CHECK(status == MPI_DIST_GRAPH, "%s: MPI_Topo_test gave %d, expected MPI_DIST_GRAPH", what, status);
  CHECK(MPI_Dist_graph_neighbors_count(g, &in, &out, &w) == MPI_SUCCESS && in == 2 && out == 2 && !!w == weighted,
        "%s: counts in %d out %d weighted %d", what, in, out, w);
  int src[2] = {-1, -1}, sw[2] = {-1, -1}, dst[2] = {-1, -1}, dw[2] = {-1, -1};
  CHECK(MPI_Dist_graph_neighbors(g, 2, src, weighted ? sw : MPI_UNWEIGHTED, 2, dst, weighted ? dw : MPI_UNWEIGHTED) == MPI_SUCCESS,
        "%s: MPI_Dist_graph_neighbors failed", what);
  for (int k = 0; k < 2; ++k) {
    const int s = (me - 1 - k + 2 * size) % size;
    CHECK(dst[k] == dest(me, k), "%s: destination %d is %d, expected %d", what, k, dst[k], dest(me, k));
    CHECK(src[k] == s, "%s: source %d is %d, expected %d", what, k, src[k], s);
    if (weighted) {
      CHECK(dw[k] == weight(me, k), "%s: destination weight %d is %d, expected %d", what, k, dw[k], weight(me, k));
      CHECK(sw[k] == weight(s, k), "%s: source weight %d is %d, expected %d", what, k, sw[k], weight(s, k));
    }
  }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

  for (int reorder = 0; reorder <= 1; ++reorder)
    for (int weighted = 0; weighted <= 1; ++weighted) {
      char what[96];
      /* Adjacent: every rank gives its own in- and out-edges. */
      int src[2], sw[2], dst[2], dw[2];
      for (int k = 0; k < 2; ++k) {
        dst[k] = dest(rank, k);
        dw[k] = weight(rank, k);
        src[k] = (rank - 1 - k + 2 * size) % size;
        sw[k] = weight(src[k], k);
      }
      MPI_Comm g = MPI_COMM_NULL;
      int rc = MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 2, src, weighted ? sw : MPI_UNWEIGHTED, 2, dst,
                                              weighted ? dw : MPI_UNWEIGHTED, MPI_INFO_NULL, reorder, &g);
      CHECK(rc == MPI_SUCCESS && g != MPI_COMM_NULL, "MPI_Dist_graph_create_adjacent returned %d", rc);
      snprintf(what, sizeof what, "adjacent (reorder %d, weighted %d)", reorder, weighted);
      if (g != MPI_COMM_NULL) {
        check_lists(g, weighted, what);
        MPI_Comm dup;
        MPI_Comm_dup(g, &dup);
        check_lists(dup, weighted, "a duplicate");
        MPI_Comm_free(&dup);
        MPI_Comm_free(&g);
      }
      /* General: rank r gives the edges out of rank r+3 (someone else's edges). */
      const int who = (rank + 3) % size;
      int degrees[1] = {2}, sources[1] = {who}, d[2] = {dest(who, 0), dest(who, 1)}, w[2] = {weight(who, 0), weight(who, 1)};
      rc = MPI_Dist_graph_create(MPI_COMM_WORLD, 1, sources, degrees, d, weighted ? w : MPI_UNWEIGHTED, MPI_INFO_NULL,
                                 reorder, &g);
      CHECK(rc == MPI_SUCCESS && g != MPI_COMM_NULL, "MPI_Dist_graph_create returned %d", rc);
      snprintf(what, sizeof what, "general (reorder %d, weighted %d)", reorder, weighted);
      if (g != MPI_COMM_NULL) {
        /* The order of a rank's sources from MPI_Dist_graph_create is the implementation's: check
         * the set. */
        int me, in, out, isw, s2[2], d2[2];
        MPI_Comm_rank(g, &me);
        MPI_Dist_graph_neighbors_count(g, &in, &out, &isw);
        CHECK(in == 2 && out == 2 && !!isw == weighted, "%s: counts in %d out %d weighted %d", what, in, out, isw);
        MPI_Dist_graph_neighbors(g, 2, s2, MPI_UNWEIGHTED, 2, d2, MPI_UNWEIGHTED);
        const int a = (me - 1 + size) % size, b = (me - 2 + 2 * size) % size;
        CHECK((s2[0] == a && s2[1] == b) || (s2[0] == b && s2[1] == a), "%s: sources %d %d, expected %d and %d", what,
              s2[0], s2[1], a, b);
        CHECK(d2[0] == dest(me, 0) && d2[1] == dest(me, 1), "%s: destinations %d %d", what, d2[0], d2[1]);
        MPI_Comm_free(&g);
      }
    }

  /* No edges at all, with MPI_WEIGHTS_EMPTY. */
  MPI_Comm g = MPI_COMM_NULL;
  int rc = MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 0, NULL, MPI_WEIGHTS_EMPTY, 0, NULL, MPI_WEIGHTS_EMPTY,
                                          MPI_INFO_NULL, 0, &g);
  CHECK(rc == MPI_SUCCESS && g != MPI_COMM_NULL, "an empty distributed graph: rc %d", rc);
  if (g != MPI_COMM_NULL) {
    int in = -1, out = -1, w = -1;
    MPI_Dist_graph_neighbors_count(g, &in, &out, &w);
    CHECK(in == 0 && out == 0 && w, "an empty weighted graph: in %d out %d weighted %d", in, out, w);
    MPI_Comm_free(&g);
  }

  /* Errors: every rank is told, nobody gets a communicator, and the next one still agrees. */
  int one[1] = {size}, deg[1] = {1}, zero[1] = {0}, neg[1] = {-1};
  rc = MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, rank == 0 ? one : zero, MPI_UNWEIGHTED, 0, NULL,
                                      MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &g);
  CHECK(error_class(rc) == (rank == 0 ? MPI_ERR_ARG : MPI_ERR_OTHER) && g == MPI_COMM_NULL,
        "a source outside comm_old at rank 0: class %d", error_class(rc));
  rc = MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, -1, NULL, MPI_UNWEIGHTED, 0, NULL, MPI_UNWEIGHTED, MPI_INFO_NULL,
                                      0, &g);
  CHECK(error_class(rc) == MPI_ERR_ARG, "indegree -1: class %d", error_class(rc));
  rc = MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, zero, neg, 0, NULL, MPI_WEIGHTS_EMPTY, MPI_INFO_NULL, 0, &g);
  CHECK(error_class(rc) == MPI_ERR_ARG, "a negative weight: class %d", error_class(rc));
  rc = MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, zero, MPI_WEIGHTS_EMPTY, 0, NULL, MPI_WEIGHTS_EMPTY,
                                      MPI_INFO_NULL, 0, &g);
  CHECK(error_class(rc) == MPI_ERR_ARG, "MPI_WEIGHTS_EMPTY with an edge: class %d", error_class(rc));
  int w1[1] = {1};
  rc = MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, zero, MPI_UNWEIGHTED, 1, zero, w1, MPI_INFO_NULL, 0, &g);
  CHECK(error_class(rc) == MPI_ERR_TOPOLOGY, "weights on one side only: class %d", error_class(rc));
  rc = MPI_Dist_graph_create(MPI_COMM_WORLD, 1, zero, deg, one, MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &g);
  CHECK(error_class(rc) == MPI_ERR_ARG, "MPI_Dist_graph_create: an edge to rank %d: class %d", size, error_class(rc));
  rc = MPI_Dist_graph_create(MPI_COMM_WORLD, 1, zero, neg, one, MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &g);
  CHECK(error_class(rc) == MPI_ERR_ARG, "MPI_Dist_graph_create: a negative degree: class %d", error_class(rc));
  rc = MPI_Dist_graph_create(MPI_COMM_WORLD, 0, NULL, NULL, NULL, MPI_UNWEIGHTED, 12345, 0, &g);
  CHECK(error_class(rc) == MPI_ERR_INFO, "MPI_Dist_graph_create: a bad info: class %d", error_class(rc));
  rc = MPI_Dist_graph_create(MPI_COMM_WORLD, 0, NULL, NULL, NULL, MPI_UNWEIGHTED, MPI_INFO_NULL, 0, NULL);
  CHECK(error_class(rc) == MPI_ERR_ARG, "MPI_Dist_graph_create: comm_dist_graph NULL: class %d", error_class(rc));
  /* Queries on other kinds. */
  int in, out, w;
  rc = MPI_Dist_graph_neighbors_count(MPI_COMM_WORLD, &in, &out, &w);
  CHECK(error_class(rc) == MPI_ERR_TOPOLOGY, "MPI_Dist_graph_neighbors_count on MPI_COMM_WORLD: class %d", error_class(rc));
  rc = MPI_Dist_graph_neighbors(MPI_COMM_WORLD, 0, NULL, MPI_UNWEIGHTED, 0, NULL, MPI_UNWEIGHTED);
  CHECK(error_class(rc) == MPI_ERR_TOPOLOGY, "MPI_Dist_graph_neighbors on MPI_COMM_WORLD: class %d", error_class(rc));
  MPI_Comm after;
  MPI_Comm_dup(MPI_COMM_WORLD, &after);
  int token = rank, total = 0;
  MPI_Allreduce(&token, &total, 1, MPI_INT, MPI_SUM, after);
  CHECK(total == size * (size - 1) / 2, "a communicator made after the failed calls does not work (sum %d)", total);
  MPI_Comm_free(&after);

  int all = 0;
  MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) printf(all ? "topology dist graph: %d failures\n" : "topology dist graph: all checks passed\n", all);
  MPI_Finalize();
  return all ? 1 : 0;
}
