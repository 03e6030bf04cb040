/* reorder=1 (MPI-3.1 §7.5.1, §7.5.3, §7.5.4) and the map functions: the new communicator holds
 * every process once and its topology is the one asked for, on any transport. On the sim (ranks
 * on modeled tiles, MPI_Get_processor_name says "tile(x,y)"), with the ranks scattered over a
 * block of tiles by the launcher (--set mapping=list:...), a 2-D grid placed by reorder has every
 * grid neighbour one hop away, and a graph placed by reorder costs at most the hops it costs
 * without. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "conformance_check.h"

/* The tile of every rank of comm (x, y pairs); 0 when the ranks are not on modeled tiles. */
static int tiles_of(MPI_Comm comm, int* xy) {
  char name[MPI_MAX_PROCESSOR_NAME];
  int len, mine[2] = {-1, -1};
  MPI_Get_processor_name(name, &len);
  const int modeled = sscanf(name, "tile(%d,%d)", &mine[0], &mine[1]) == 2;
  MPI_Allgather(mine, 2, MPI_INT, xy, 2, MPI_INT, comm);
  return modeled;
}

static int hops(const int* xy, int a, int b) { return abs(xy[2 * a] - xy[2 * b]) + abs(xy[2 * a + 1] - xy[2 * b + 1]); }

/* Every process once: the new ranks' world ranks are a permutation. */
static void check_permutation(MPI_Comm c, const char* what) {
  int n;
  MPI_Comm_size(c, &n);
  int* world = malloc(sizeof(int) * (size_t)n);
  MPI_Allgather(&rank, 1, MPI_INT, world, 1, MPI_INT, c);
  int* seen = calloc((size_t)size, sizeof(int));
  for (int i = 0; i < n; ++i) seen[world[i]]++;
  for (int i = 0; i < n; ++i) CHECK(seen[world[i]] == 1, "%s: world rank %d appears %d times", what, world[i], seen[world[i]]);
  free(world);
  free(seen);
}

/* Sum over the graph's edges (as listed) of their hops. */
static long graph_hops(MPI_Comm g) {
  int n, me, xy[2 * 64], nb[8], count;
  MPI_Comm_size(g, &n);
  MPI_Comm_rank(g, &me);
  tiles_of(g, xy);
  MPI_Graph_neighbors_count(g, me, &count);
  MPI_Graph_neighbors(g, me, 8, nb);
  long mine = 0, total = 0;
  for (int k = 0; k < count; ++k) mine += hops(xy, me, nb[k]);
  MPI_Allreduce(&mine, &total, 1, MPI_LONG, MPI_SUM, g);
  return total;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size > 64) MPI_Abort(MPI_COMM_WORLD, 2);
  int xy[2 * 64];
  const int modeled = tiles_of(MPI_COMM_WORLD, xy);

  int dims[2] = {0, 0}, periods[2] = {0, 0};
  MPI_Dims_create(size, 2, dims);
  for (int reorder = 0; reorder <= 1; ++reorder) {
    MPI_Comm cart;
    CHECK(MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, reorder, &cart) == MPI_SUCCESS, "MPI_Cart_create failed");
    check_permutation(cart, reorder ? "grid with reorder" : "grid");
    int cxy[2 * 64], me, far = 0, total = 0;
    MPI_Comm_rank(cart, &me);
    tiles_of(cart, cxy);
    for (int d = 0; d < 2; ++d) {
      int lo, hi;
      MPI_Cart_shift(cart, d, 1, &lo, &hi);
      if (hi != MPI_PROC_NULL) far += hops(cxy, me, hi) != 1;
    }
    MPI_Allreduce(&far, &total, 1, MPI_INT, MPI_SUM, cart);
    if (modeled && reorder)
      CHECK(total == 0, "a %dx%d grid placed by reorder has %d neighbour pairs more than one hop apart", dims[0], dims[1], total);
    if (rank == 0 && modeled)
      printf("%dx%d grid, reorder %d: %d neighbour pairs more than one hop apart\n", dims[0], dims[1], reorder, total);
    /* MPI_Cart_map agrees with what MPI_Cart_create with reorder does. */
    int mapped = -1;
    MPI_Cart_map(MPI_COMM_WORLD, 2, dims, periods, &mapped);
    if (reorder) CHECK(mapped == me, "MPI_Cart_map gave rank %d, MPI_Cart_create with reorder %d", mapped, me);
    MPI_Comm_free(&cart);
  }

  /* A ring graph, with and without reorder. */
  int index[64], edges[128];
  for (int v = 0; v < size; ++v) {
    edges[2 * v] = (v + size - 1) % size;
    edges[2 * v + 1] = (v + 1) % size;
    index[v] = 2 * v + 2;
  }
  long cost[2] = {0, 0};
  for (int reorder = 0; reorder <= 1; ++reorder) {
    MPI_Comm g;
    CHECK(MPI_Graph_create(MPI_COMM_WORLD, size, index, edges, reorder, &g) == MPI_SUCCESS, "MPI_Graph_create failed");
    check_permutation(g, reorder ? "ring with reorder" : "ring");
    cost[reorder] = graph_hops(g);
    int newrank = -1, me;
    MPI_Comm_rank(g, &me);
    MPI_Graph_map(MPI_COMM_WORLD, size, index, edges, &newrank);
    if (reorder) CHECK(newrank == me, "MPI_Graph_map gave rank %d, MPI_Graph_create with reorder %d", newrank, me);
    MPI_Comm_free(&g);
  }
  if (modeled) CHECK(cost[1] <= cost[0], "the ring placed by reorder costs %ld hops, %ld without", cost[1], cost[0]);
  if (rank == 0 && modeled) printf("ring of %d: %ld hops without reorder, %ld with\n", size, cost[0], cost[1]);

  int all = 0;
  MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) printf(all ? "topology reorder: %d failures\n" : "topology reorder: all checks passed\n", all);
  MPI_Finalize();
  return all ? 1 : 0;
}
