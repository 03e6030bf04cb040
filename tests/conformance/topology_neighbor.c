/* Neighbourhood collectives (MPI-3.1 §7.6): MPI_Neighbor_allgather(v), MPI_Neighbor_alltoall(v/w)
 * and their MPI_Ineighbor_ forms on Cartesian (non-periodic edges: MPI_PROC_NULL, whose blocks
 * stay untouched; periodic dimensions of 1 and 2 processes, whose blocks pair up crosswise as
 * the MPI-4.0 errata to MPI-3.1 say), graph (self loop, repeated edge) and distributed-graph
 * communicators, and the error classes under MPI_ERRORS_RETURN. The data of send block j of
 * rank r is item(r, j, i); what each receive block must hold follows from the topology alone. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conformance_check.h"

enum { K = 3, UNTOUCHED = -77, MAXN = 16 };
static int item(int r, int j, int i) { return r * 1000 + j * 10 + i; }

static int error_class(int rc) {
  int cls = rc;
  MPI_Error_class(rc, &cls);
  return cls;
}

/* A topology and, at this rank, its neighbours in the collectives' order and, for each receive
 * block, the sender's send block it must hold. */
struct topo {
  MPI_Comm comm;
  const char* name;
  int n_in, n_out;
  int src[MAXN], dst[MAXN], slot[MAXN];
};

/* Cartesian: per dimension the lower then the upper neighbour; the block from the lower one is
 * what it sent upwards (its block 2d+1), from the upper one what it sent downwards (2d). */
static void cart_topo(struct topo* t, int ndims, const int* dims, const int* periods, const char* name) {
  MPI_Cart_create(MPI_COMM_WORLD, ndims, dims, periods, 0, &t->comm);
  t->name = name;
  t->n_in = t->n_out = 2 * ndims;
  if (t->comm == MPI_COMM_NULL) return;
  for (int d = 0; d < ndims; ++d) {
    int lo, hi;
    MPI_Cart_shift(t->comm, d, 1, &lo, &hi);
    t->src[2 * d] = t->dst[2 * d] = lo;
    t->src[2 * d + 1] = t->dst[2 * d + 1] = hi;
    t->slot[2 * d] = 2 * d + 1;
    t->slot[2 * d + 1] = 2 * d;
  }
}

/* Graph: node v's neighbours are v-1, v+1 (mod size), and node 0 has a self loop, nodes 1 and 2
 * list each other once more (the neighbourhood collectives of a graph send and receive along
 * the same list: it must be symmetric). The k-th edge from q to this rank matches this rank's
 * k-th edge to q. */
static void graph_topo(struct topo* t, int reorder) {
  int index[MAXN * 4], edges[MAXN * 4], e = 0;
  for (int v = 0; v < size; ++v) {
    edges[e++] = (v + size - 1) % size;
    edges[e++] = (v + 1) % size;
    if (v == 0) edges[e++] = 0;
    if (v == 1) edges[e++] = 2 % size;
    if (v == 2 % size) edges[e++] = 1;
    index[v] = e;
  }
  MPI_Graph_create(MPI_COMM_WORLD, size, index, edges, reorder, &t->comm);
  t->name = reorder ? "graph (reorder)" : "graph";
  int me;
  MPI_Comm_rank(t->comm, &me);
  const int begin = me == 0 ? 0 : index[me - 1];
  t->n_in = t->n_out = index[me] - begin;
  for (int k = 0; k < t->n_in; ++k) t->src[k] = t->dst[k] = edges[begin + k];
  /* slot: the position, in the sender's list, of its k-th edge to me, k = my count of q so far. */
  for (int k = 0; k < t->n_in; ++k) {
    const int q = t->src[k];
    int seen = 0;
    for (int l = 0; l < k; ++l) seen += t->src[l] == q;
    const int qb = q == 0 ? 0 : index[q - 1];
    t->slot[k] = -1;
    for (int l = qb, c = 0; l < index[q]; ++l)
      if (edges[l] == me && c++ == seen) t->slot[k] = l - qb;
  }
}

/* Distributed graph: rank r sends to r+1 and r+2; receives from r-1 (its block 0) and r-2 (its
 * block 1). With 1 or 2 ranks the edges repeat. */
static void dist_topo(struct topo* t, int reorder) {
  int src[2], dst[2];
  for (int k = 0; k < 2; ++k) {
    dst[k] = (rank + 1 + k) % size;
    src[k] = (rank - 1 - k + 2 * size) % size;
  }
  MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 2, src, MPI_UNWEIGHTED, 2, dst, MPI_UNWEIGHTED, MPI_INFO_NULL,
                                 reorder, &t->comm);
  t->name = reorder ? "distributed graph (reorder)" : "distributed graph";
  int me;
  MPI_Comm_rank(t->comm, &me);
  t->n_in = t->n_out = 2;
  for (int k = 0; k < 2; ++k) {
    t->dst[k] = (me + 1 + k) % size;
    t->src[k] = (me - 1 - k + 2 * size) % size;
    t->slot[k] = k;
  }
}

static void check_recv(const struct topo* t, const int* r, const int* counts, const int* displs, int gather,
                       const char* fn) {
  for (int k = 0; k < t->n_in; ++k)
    for (int i = 0; i < counts[k]; ++i) {
      const int want = t->src[k] == MPI_PROC_NULL ? UNTOUCHED : item(t->src[k], gather ? 0 : t->slot[k], i);
      CHECK(r[displs[k] + i] == want, "%s on %s: block %d item %d is %d, expected %d", fn, t->name, k, i,
            r[displs[k] + i], want);
    }
}

static void run_all(const struct topo* t, int nonblocking) {
  int me;
  MPI_Comm_rank(t->comm, &me);
  int s[MAXN * K], r[MAXN * (K + 1)], counts[MAXN], displs[MAXN], sdispls[MAXN], rcounts[MAXN];
  MPI_Aint sbytes[MAXN], rbytes[MAXN];
  MPI_Datatype types[MAXN];
  for (int j = 0; j < t->n_out; ++j)
    for (int i = 0; i < K; ++i) s[j * K + i] = item(me, j, i);
  for (int k = 0; k < MAXN; ++k) {
    counts[k] = K;
    displs[k] = k * (K + 1); /* a gap between blocks */
    sdispls[k] = k * K;
    rcounts[k] = K;
    sbytes[k] = (MPI_Aint)(sizeof(int) * (size_t)(k * K));
    rbytes[k] = (MPI_Aint)(sizeof(int) * (size_t)(k * (K + 1)));
    types[k] = MPI_INT;
  }
  int plain[MAXN];
  for (int k = 0; k < MAXN; ++k) plain[k] = k * K;
  const char* tag = nonblocking ? " (nonblocking)" : "";
  char fn[64];
  for (int which = 0; which < 5; ++which) {
    for (int i = 0; i < MAXN * (K + 1); ++i) r[i] = UNTOUCHED;
    MPI_Request req = MPI_REQUEST_NULL;
    int rc = MPI_SUCCESS;
    const int* d = which == 0 || which == 2 ? plain : displs;
    switch (which) {
      case 0:
        snprintf(fn, sizeof fn, "MPI_Neighbor_allgather%s", tag);
        rc = nonblocking ? MPI_Ineighbor_allgather(s, K, MPI_INT, r, K, MPI_INT, t->comm, &req)
                         : MPI_Neighbor_allgather(s, K, MPI_INT, r, K, MPI_INT, t->comm);
        break;
      case 1:
        snprintf(fn, sizeof fn, "MPI_Neighbor_allgatherv%s", tag);
        rc = nonblocking ? MPI_Ineighbor_allgatherv(s, K, MPI_INT, r, rcounts, displs, MPI_INT, t->comm, &req)
                         : MPI_Neighbor_allgatherv(s, K, MPI_INT, r, rcounts, displs, MPI_INT, t->comm);
        break;
      case 2:
        snprintf(fn, sizeof fn, "MPI_Neighbor_alltoall%s", tag);
        rc = nonblocking ? MPI_Ineighbor_alltoall(s, K, MPI_INT, r, K, MPI_INT, t->comm, &req)
                         : MPI_Neighbor_alltoall(s, K, MPI_INT, r, K, MPI_INT, t->comm);
        break;
      case 3:
        snprintf(fn, sizeof fn, "MPI_Neighbor_alltoallv%s", tag);
        rc = nonblocking ? MPI_Ineighbor_alltoallv(s, counts, sdispls, MPI_INT, r, rcounts, displs, MPI_INT, t->comm, &req)
                         : MPI_Neighbor_alltoallv(s, counts, sdispls, MPI_INT, r, rcounts, displs, MPI_INT, t->comm);
        break;
      default:
        snprintf(fn, sizeof fn, "MPI_Neighbor_alltoallw%s", tag);
        rc = nonblocking ? MPI_Ineighbor_alltoallw(s, counts, sbytes, types, r, rcounts, rbytes, types, t->comm, &req)
                         : MPI_Neighbor_alltoallw(s, counts, sbytes, types, r, rcounts, rbytes, types, t->comm);
        break;
    }
    CHECK(rc == MPI_SUCCESS, "%s on %s returned %d", fn, t->name, rc);
    if (nonblocking) CHECK(MPI_Wait(&req, MPI_STATUS_IGNORE) == MPI_SUCCESS, "%s on %s: the wait failed", fn, t->name);
    check_recv(t, r, rcounts, d, which <= 1, fn);
  }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  if (size > MAXN) {
    if (rank == 0) printf("topology neighbor: at most %d ranks\n", MAXN);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }

  struct topo topos[8];
  int nt = 0;
  int dims2[2] = {0, 0}, open[2] = {0, 0}, wrap[2] = {1, 1};
  MPI_Dims_create(size, 2, dims2);
  cart_topo(&topos[nt++], 2, dims2, open, "non-periodic grid");
  cart_topo(&topos[nt++], 2, dims2, wrap, "periodic grid");
  int thin[3] = {1, 2, size / 2}, mixed[3] = {1, 1, 0};
  cart_topo(&topos[nt++], 3, thin, mixed, "grid with periodic dimensions of 1 and 2 processes");
  graph_topo(&topos[nt++], 0);
  graph_topo(&topos[nt++], 1);
  dist_topo(&topos[nt++], 0);
  dist_topo(&topos[nt++], 1);
  for (int i = 0; i < nt; ++i) {
    if (topos[i].comm == MPI_COMM_NULL) continue;
    run_all(&topos[i], 0);
    run_all(&topos[i], 1);
  }

  /* Errors. */
  int buf[64], counts[MAXN] = {0}, displs[MAXN] = {0};
  MPI_Aint bytes[MAXN] = {0};
  MPI_Datatype types[MAXN];
  for (int k = 0; k < MAXN; ++k) types[k] = MPI_INT;
  int rc = MPI_Neighbor_allgather(buf, 1, MPI_INT, buf, 1, MPI_INT, MPI_COMM_WORLD);
  CHECK(error_class(rc) == MPI_ERR_TOPOLOGY, "MPI_Neighbor_allgather without a topology: class %d", error_class(rc));
  MPI_Request req = MPI_REQUEST_NULL;
  rc = MPI_Ineighbor_alltoall(buf, 1, MPI_INT, buf, 1, MPI_INT, MPI_COMM_WORLD, &req);
  CHECK(error_class(rc) == MPI_ERR_TOPOLOGY, "MPI_Ineighbor_alltoall without a topology: class %d", error_class(rc));
  MPI_Comm c = topos[1].comm;
  MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN);
  rc = MPI_Neighbor_alltoall(buf, -1, MPI_INT, buf, 1, MPI_INT, c);
  CHECK(error_class(rc) == MPI_ERR_COUNT, "a negative count: class %d", error_class(rc));
  rc = MPI_Neighbor_allgather(buf, 1, MPI_DATATYPE_NULL, buf, 1, MPI_INT, c);
  CHECK(error_class(rc) == MPI_ERR_TYPE, "MPI_DATATYPE_NULL: class %d", error_class(rc));
  rc = MPI_Neighbor_alltoall(MPI_IN_PLACE, 1, MPI_INT, buf, 1, MPI_INT, c);
  CHECK(error_class(rc) == MPI_ERR_BUFFER, "MPI_IN_PLACE: class %d", error_class(rc));
  rc = MPI_Neighbor_alltoallv(buf, NULL, displs, MPI_INT, buf, counts, displs, MPI_INT, c);
  CHECK(error_class(rc) == MPI_ERR_ARG, "sendcounts NULL: class %d", error_class(rc));
  rc = MPI_Neighbor_allgatherv(buf, 1, MPI_INT, buf, counts, NULL, MPI_INT, c);
  CHECK(error_class(rc) == MPI_ERR_ARG, "displs NULL: class %d", error_class(rc));
  rc = MPI_Neighbor_alltoallw(buf, counts, bytes, NULL, buf, counts, bytes, types, c);
  CHECK(error_class(rc) == MPI_ERR_ARG, "sendtypes NULL: class %d", error_class(rc));
  rc = MPI_Ineighbor_allgather(buf, 1, MPI_INT, buf, 1, MPI_INT, c, NULL);
  CHECK(error_class(rc) == MPI_ERR_ARG, "request NULL: class %d", error_class(rc));
  /* The communicator still works after the failed calls. */
  run_all(&topos[1], 0);

  for (int i = 0; i < nt; ++i)
    if (topos[i].comm != MPI_COMM_NULL) MPI_Comm_free(&topos[i].comm);
  int all = 0;
  MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) printf(all ? "topology neighbor: %d failures\n" : "topology neighbor: all checks passed\n", all);
  MPI_Finalize();
  return all ? 1 : 0;
}
