/* Handles freed while a pending operation uses them (MPI-3.1 §2.5.1, §5.9.5, §4.1.9, §6.4.3):
 * freeing only marks the object for deallocation; the operation completes with it.
 *
 * Each case starts the operation on one rank ("first"), frees the handles there and makes new
 * objects of the same kind (which may take the freed handles' slots), and only then lets the
 * other ranks start their part, so that at "first" the operation is certainly still pending
 * when its handles are freed. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "conformance_check.h"

static void my_sum(void* in, void* inout, int* len, MPI_Datatype* type) {
  (void)type;
  for (int i = 0; i < *len; ++i) ((int*)inout)[i] += ((int*)in)[i];
}
/* The decoy: an op made after the free, which must not be the one applied. */
static void my_max(void* in, void* inout, int* len, MPI_Datatype* type) {
  (void)type;
  for (int i = 0; i < *len; ++i)
    if (((int*)in)[i] > ((int*)inout)[i]) ((int*)inout)[i] = ((int*)in)[i];
}
/* A sum over a strided type: the function sees the type's layout (2 ints, stride 2: [x, -, y, -]). */
static void my_vsum(void* in, void* inout, int* len, MPI_Datatype* type) {
  (void)type;
  int* a = (int*)in;
  int* b = (int*)inout;
  for (int i = 0; i < *len; ++i) {
    b[4 * i] += a[4 * i];
    b[4 * i + 2] += a[4 * i + 2];
  }
}

/* "first" has started its part and freed its handles: the others may start theirs. */
static void release_others(int first) {
  int token = 1;
  if (rank == first) {
    for (int r = 0; r < size; ++r)
      if (r != first) MPI_Send(&token, 1, MPI_INT, r, 99, MPI_COMM_WORLD);
  } else {
    MPI_Recv(&token, 1, MPI_INT, first, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
}

static void reductions_with_freed_op(void) {
  const int sum = size * (size + 1) / 2; /* of rank + 1 */
  MPI_Op decoys[3];
  /* MPI_Ireduce to root 0, started first at the root. */
  {
    MPI_Op op;
    MPI_Op_create(my_sum, 1, &op);
    int in = rank + 1, out = -1;
    MPI_Request req;
    if (rank == 0) {
      MPI_Ireduce(&in, &out, 1, MPI_INT, op, 0, MPI_COMM_WORLD, &req);
      MPI_Op_free(&op);
      CHECK(op == MPI_OP_NULL, "MPI_Op_free did not set the handle to MPI_OP_NULL");
      MPI_Op_create(my_max, 1, &decoys[0]);
      release_others(0);
    } else {
      release_others(0);
      MPI_Ireduce(&in, &out, 1, MPI_INT, op, 0, MPI_COMM_WORLD, &req);
      MPI_Op_free(&op);
      MPI_Op_create(my_max, 1, &decoys[0]);
    }
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    if (rank == 0) CHECK(out == sum, "MPI_Ireduce with a freed user op gave %d, expected %d", out, sum);
  }
  /* MPI_Iallreduce, started first at the last rank. */
  {
    MPI_Op op;
    MPI_Op_create(my_sum, 1, &op);
    int in[3] = {rank + 1, 2 * (rank + 1), 1}, out[3] = {-1, -1, -1};
    MPI_Request req;
    const int first = size - 1;
    if (rank != first) release_others(first);
    MPI_Iallreduce(in, out, 3, MPI_INT, op, MPI_COMM_WORLD, &req);
    MPI_Op_free(&op);
    MPI_Op_create(my_max, 1, &decoys[1]);
    if (rank == first) release_others(first);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    CHECK(out[0] == sum && out[1] == 2 * sum && out[2] == size,
          "MPI_Iallreduce with a freed user op gave {%d, %d, %d}, expected {%d, %d, %d}", out[0], out[1], out[2], sum,
          2 * sum, size);
  }
  /* MPI_Iscan over a strided derived type, op and type both freed; started first at the last rank,
   * whose result needs every other rank's contribution. */
  {
    MPI_Op op;
    MPI_Op_create(my_vsum, 0, &op);
    MPI_Datatype strided;
    MPI_Type_vector(2, 1, 2, MPI_INT, &strided);
    MPI_Type_commit(&strided);
    int in[4] = {rank + 1, -7, 10 * (rank + 1), -7}, out[4] = {-1, -2, -3, -4};
    MPI_Request req;
    const int first = size - 1;
    if (rank != first) release_others(first);
    MPI_Iscan(in, out, 1, strided, op, MPI_COMM_WORLD, &req);
    MPI_Op_free(&op);
    MPI_Type_free(&strided);
    MPI_Datatype decoy_type;
    MPI_Type_vector(3, 1, 3, MPI_INT, &decoy_type);
    MPI_Type_commit(&decoy_type);
    MPI_Op_create(my_max, 0, &decoys[2]);
    if (rank == first) release_others(first);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    const int prefix = (rank + 1) * (rank + 2) / 2;
    CHECK(out[0] == prefix && out[2] == 10 * prefix && out[1] == -2 && out[3] == -4,
          "MPI_Iscan with a freed user op and type gave {%d, %d, %d, %d}, expected {%d, -2, %d, -4}", out[0], out[1],
          out[2], out[3], prefix, 10 * prefix);
    MPI_Type_free(&decoy_type);
  }
  for (int i = 0; i < 3; ++i) MPI_Op_free(&decoys[i]);
}

static void p2p_with_freed_type(void) {
  /* Irecv with a strided type freed before the message is sent; a decoy type made afterwards. */
  const int left = (rank + size - 1) % size, right = (rank + 1) % size;
  MPI_Datatype strided;
  MPI_Type_vector(4, 1, 3, MPI_INT, &strided);
  MPI_Type_commit(&strided);
  int recvbuf[12], sendbuf[12];
  for (int i = 0; i < 12; ++i) {
    recvbuf[i] = -1;
    sendbuf[i] = 100 * rank + i;
  }
  MPI_Request reqs[2];
  MPI_Irecv(recvbuf, 1, strided, left, 5, MPI_COMM_WORLD, &reqs[0]);
  MPI_Type_free(&strided);
  CHECK(strided == MPI_DATATYPE_NULL, "MPI_Type_free did not set the handle to MPI_DATATYPE_NULL");
  MPI_Datatype decoy;
  MPI_Type_vector(2, 2, 5, MPI_INT, &decoy);
  MPI_Type_commit(&decoy);
  MPI_Barrier(MPI_COMM_WORLD); /* every receive was posted and its type freed before any send */
  /* A persistent send on a type freed between MPI_Send_init and MPI_Start. */
  MPI_Datatype sendtype;
  MPI_Type_vector(4, 1, 3, MPI_INT, &sendtype);
  MPI_Type_commit(&sendtype);
  MPI_Send_init(sendbuf, 1, sendtype, right, 5, MPI_COMM_WORLD, &reqs[1]);
  MPI_Type_free(&sendtype);
  MPI_Start(&reqs[1]);
  MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE);
  MPI_Request_free(&reqs[1]);
  for (int i = 0; i < 12; ++i) {
    const int want = i % 3 == 0 ? 100 * left + i : -1;
    CHECK(recvbuf[i] == want, "Irecv with a freed strided type: element %d is %d, expected %d", i, recvbuf[i], want);
  }
  MPI_Type_free(&decoy);
}

static void collectives_on_freed_comm(void) {
  /* Ibarrier, Iallreduce and an Irecv on a communicator freed while they are pending. */
  MPI_Comm dup;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  const int left = (rank + size - 1) % size, right = (rank + 1) % size;
  int got = -1, in = rank + 1, total = -1;
  MPI_Request reqs[4];
  const int first = 0;
  if (rank != first) release_others(first);
  MPI_Irecv(&got, 1, MPI_INT, left, 3, dup, &reqs[0]);
  MPI_Ibarrier(dup, &reqs[1]);
  MPI_Iallreduce(&in, &total, 1, MPI_INT, MPI_SUM, dup, &reqs[2]);
  MPI_Isend(&rank, 1, MPI_INT, right, 3, dup, &reqs[3]);
  MPI_Comm_free(&dup);
  CHECK(dup == MPI_COMM_NULL, "MPI_Comm_free did not set the handle to MPI_COMM_NULL");
  if (rank == first) release_others(first);
  /* Decoys that may take the freed communicator's handle, made (collectively) and used while the
   * operations on it may still be pending. */
  MPI_Comm decoy, split;
  MPI_Comm_dup(MPI_COMM_WORLD, &decoy);
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, -rank, &split);
  int one = 1, n = 0;
  MPI_Allreduce(&one, &n, 1, MPI_INT, MPI_SUM, decoy);
  CHECK(n == size, "allreduce on a new communicator gave %d, expected %d", n, size);
  MPI_Waitall(4, reqs, MPI_STATUSES_IGNORE);
  const int sum = size * (size + 1) / 2;
  CHECK(got == left, "Irecv on a freed communicator got %d, expected %d", got, left);
  CHECK(total == sum, "Iallreduce on a freed communicator gave %d, expected %d", total, sum);
  MPI_Comm_free(&split);
  MPI_Comm_free(&decoy);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  reductions_with_freed_op();
  p2p_with_freed_type();
  collectives_on_freed_comm();
  int all = 0;
  MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0 && all == 0) printf("freed handles: all checks passed\n");
  MPI_Finalize();
  return all ? 1 : 0;
}
