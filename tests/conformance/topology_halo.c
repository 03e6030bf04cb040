/* A halo exchange, the experiment of docs/EXPERIMENTS.md ("Process topologies on the mesh") and
 * a conformance test of its own: every rank exchanges a block of B bytes with each neighbour of
 * a stencil, either with point-to-point (MPI_Irecv/MPI_Isend/MPI_Waitall) or with
 * MPI_Neighbor_alltoall on a topology communicator, which may be made with reorder. Both give the
 * same data; the program checks it every iteration.
 *
 *   topology_halo [5|27] [p2p|neighbor] [reorder 0|1] [bytes B] [iterations N]
 *     5:  a 2-D grid (MPI_Dims_create), non-periodic, the four face neighbours (MPI_Cart_create)
 *     27: a 3-D grid, non-periodic, all 26 neighbours (MPI_Dist_graph_create_adjacent)
 *
 * Prints one line: stencil, method, reorder, ranks, grid, bytes, iterations and the time per
 * iteration (the slowest rank's, by MPI_Wtime: on the sim, modeled time). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conformance_check.h"

enum { MAXNB = 26 };

/* The neighbours of grid rank r (row-major in dims), in a fixed order, and for each the index
 * of r in that neighbour's list (the opposite offset comes at the mirrored position). */
static int neighbours(int nd, const int* dims, int r, int stencil, int* out) {
  int c[3] = {0, 0, 0}, rest = r, n = 0;
  for (int d = nd - 1; d >= 0; --d) c[d] = rest % dims[d], rest /= dims[d];
  int off[3];
  for (off[0] = -1; off[0] <= 1; ++off[0])
    for (off[1] = -1; off[1] <= 1; ++off[1])
      for (off[2] = -1; off[2] <= 1; ++off[2]) {
        int nonzero = 0, ok = 1, to = 0;
        for (int d = 0; d < 3; ++d) nonzero += off[d] != 0;
        if (nonzero == 0 || (stencil == 5 && nonzero != 1)) continue;
        for (int d = 0; d < 3; ++d) {
          if (d >= nd && off[d] != 0) ok = 0;
          if (d >= nd) continue;
          const int v = c[d] + off[d];
          if (v < 0 || v >= dims[d]) ok = 0;
          to = to * dims[d] + v;
        }
        if (ok) out[n++] = to;
        else if (stencil == 5 && nd == 2 && off[2] == 0) out[n++] = MPI_PROC_NULL; /* keep the Cartesian order */
      }
  return n;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int stencil = 5, use_neighbor = 0, reorder = 0, bytes = 64, iters = 10;
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "27")) stencil = 27;
    else if (!strcmp(argv[i], "5")) stencil = 5;
    else if (!strcmp(argv[i], "neighbor")) use_neighbor = 1;
    else if (!strcmp(argv[i], "p2p")) use_neighbor = 0;
    else if (!strcmp(argv[i], "reorder") && i + 1 < argc) reorder = atoi(argv[++i]);
    else if (!strcmp(argv[i], "bytes") && i + 1 < argc) bytes = atoi(argv[++i]);
    else if (!strcmp(argv[i], "iterations") && i + 1 < argc) iters = atoi(argv[++i]);
  }
  const int nd = stencil == 5 ? 2 : 3;
  int dims[3] = {0, 0, 0}, periods[3] = {0, 0, 0};
  MPI_Dims_create(size, nd, dims);

  /* The topology communicator (reorder may renumber): its ranks are the grid's. */
  MPI_Comm topo;
  int me = rank, nb[MAXNB], n = 0;
  if (stencil == 5) {
    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, reorder, &topo);
    MPI_Comm_rank(topo, &me);
    /* Per dimension the lower then the upper neighbour, as MPI_Cart_shift gives them. */
    for (int d = 0; d < 2; ++d) MPI_Cart_shift(topo, d, 1, &nb[2 * d], &nb[2 * d + 1]);
    n = 4;
  } else {
    /* Which grid rank this process becomes is known only after the call: every process gives
     * the edges of grid rank `rank` (its rank in comm_old), as MPI requires. */
    n = neighbours(nd, dims, rank, stencil, nb);
    MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, n, nb, MPI_UNWEIGHTED, n, nb, MPI_UNWEIGHTED, MPI_INFO_NULL, reorder,
                                   &topo);
    MPI_Comm_rank(topo, &me);
    n = neighbours(nd, dims, me, stencil, nb);
  }
  const int block = bytes / (int)sizeof(int) > 0 ? bytes / (int)sizeof(int) : 1;
  int* s = malloc(sizeof(int) * (size_t)(block * MAXNB));
  int* r = malloc(sizeof(int) * (size_t)(block * MAXNB));
  MPI_Request reqs[2 * MAXNB];
  /* The exchanges run between two barriers, alone on the chip: with 0 iterations the job does
   * everything else exactly as with N (scripts/topology-halo.sh subtracts its link conflicts). */
  double t0 = 0, t1 = 0;
  MPI_Barrier(topo);
  for (int it = iters > 0 ? -1 : 0; it < iters; ++it) { /* iteration -1 warms up */
    if (it == 0) {
      MPI_Barrier(topo);
      t0 = MPI_Wtime();
    }
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < block; ++i) s[j * block + i] = (me * 64 + j) * 1000 + i + it;
    for (int i = 0; i < block * n; ++i) r[i] = -1;
    if (use_neighbor) {
      MPI_Neighbor_alltoall(s, block, MPI_INT, r, block, MPI_INT, topo);
    } else {
      int q = 0;
      for (int j = 0; j < n; ++j) MPI_Irecv(r + j * block, block, MPI_INT, nb[j], 7, topo, &reqs[q++]);
      for (int j = 0; j < n; ++j) MPI_Isend(s + j * block, block, MPI_INT, nb[j], 7, topo, &reqs[q++]);
      MPI_Waitall(q, reqs, MPI_STATUSES_IGNORE);
    }
    /* Block j came from nb[j], which sent it as its block for this rank. */
    for (int j = 0; j < n; ++j) {
      if (nb[j] == MPI_PROC_NULL) continue;
      int theirs[MAXNB], k = 0, at = -1;
      const int m = stencil == 5 ? 4 : neighbours(nd, dims, nb[j], stencil, theirs);
      if (stencil == 5) at = j ^ 1; /* the opposite side */
      for (k = 0; stencil != 5 && k < m; ++k)
        if (theirs[k] == me) at = k;
      for (int i = 0; i < block; ++i)
        if (r[j * block + i] != (nb[j] * 64 + at) * 1000 + i + it) {
          CHECK(0, "iteration %d: block %d item %d is %d, expected %d", it, j, i, r[j * block + i],
                (nb[j] * 64 + at) * 1000 + i + it);
          break;
        }
    }
  }
  t1 = MPI_Wtime();
  if (iters <= 0) {
    MPI_Barrier(topo); /* where the warm-up's barrier would be */
    t0 = t1 = MPI_Wtime();
  }
  MPI_Barrier(topo);
  const double per = (t1 - t0) / (iters > 0 ? iters : 1);
  double worst = 0;
  MPI_Allreduce(&per, &worst, 1, MPI_DOUBLE, MPI_MAX, topo);
  int all = 0;
  MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0)
    printf("halo stencil=%d method=%s reorder=%d ranks=%d grid=%dx%dx%d bytes=%d iterations=%d us_per_iteration=%.3f%s\n",
           stencil, use_neighbor ? "neighbor" : "p2p", reorder, size, dims[0], dims[1], nd == 3 ? dims[2] : 1, bytes,
           iters, worst * 1e6, all ? " FAILED" : "");
  free(s);
  free(r);
  MPI_Comm_free(&topo);
  MPI_Finalize();
  return all ? 1 : 0;
}
