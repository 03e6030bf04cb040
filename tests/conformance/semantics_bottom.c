/* MPI_BOTTOM with datatypes of absolute addresses (MPI-3.1 §4.1.12: "MPI_BOTTOM ... the start
 * of the address range"; displacements from MPI_Get_address). MPI_BOTTOM is a null pointer in C,
 * so a library cannot refuse a null buffer outright: send, receive, sendrecv, a collective, a
 * reduction and a put all take one here. A null buffer with a type whose data starts at offset 0
 * (a predefined type) is still MPI_ERR_BUFFER. */
#include <mpi.h>
#include <stdio.h>

#include "conformance_check.h"

/* A struct type of absolute addresses: an int array of 10 and a double. */
static MPI_Datatype absolute_type(int* ints, double* d) {
  MPI_Aint addrs[2];
  MPI_Get_address(ints, &addrs[0]);
  MPI_Get_address(d, &addrs[1]);
  int lens[2] = {10, 1};
  MPI_Datatype types[2] = {MPI_INT, MPI_DOUBLE}, t;
  MPI_Type_create_struct(2, lens, addrs, types, &t);
  MPI_Type_commit(&t);
  return t;
}

/* One int at an absolute address, extent one int: count n covers n consecutive ints. */
static MPI_Datatype absolute_ints(int* first) {
  MPI_Aint addr;
  MPI_Get_address(first, &addr);
  int len = 1;
  MPI_Datatype t;
  MPI_Type_create_hindexed(1, &len, &addr, MPI_INT, &t);
  MPI_Type_commit(&t);
  return t;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;

  /* Send and receive: a struct of absolute addresses. */
  {
    int out[10], in[10];
    double dout = 0.5 + rank, din = -1;
    for (int i = 0; i < 10; ++i) {
      out[i] = 100 * rank + i;
      in[i] = -1;
    }
    MPI_Datatype st = absolute_type(out, &dout), rt = absolute_type(in, &din);
    MPI_Request req;
    int rc = MPI_Irecv(MPI_BOTTOM, 1, rt, left, 1, MPI_COMM_WORLD, &req);
    CHECK(rc == MPI_SUCCESS, "MPI_Irecv into MPI_BOTTOM returned %d", rc);
    rc = MPI_Send(MPI_BOTTOM, 1, st, right, 1, MPI_COMM_WORLD);
    CHECK(rc == MPI_SUCCESS, "MPI_Send from MPI_BOTTOM returned %d", rc);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    for (int i = 0; i < 10; ++i) CHECK(in[i] == 100 * left + i, "send/recv: in[%d] = %d", i, in[i]);
    CHECK(din == 0.5 + left, "send/recv: the double is %g", din);
    MPI_Type_free(&st);
    MPI_Type_free(&rt);
  }
  /* Sendrecv, count 10 of one absolute int each (the count the failing programs used). */
  {
    int out[10], in[10];
    for (int i = 0; i < 10; ++i) {
      out[i] = 1000 * rank + i;
      in[i] = -1;
    }
    MPI_Datatype st = absolute_ints(out), rt = absolute_ints(in);
    int rc = MPI_Sendrecv(MPI_BOTTOM, 10, st, right, 2, MPI_BOTTOM, 10, rt, left, 2, MPI_COMM_WORLD,
                          MPI_STATUS_IGNORE);
    CHECK(rc == MPI_SUCCESS, "MPI_Sendrecv with MPI_BOTTOM returned %d", rc);
    for (int i = 0; i < 10; ++i) CHECK(in[i] == 1000 * left + i, "sendrecv: in[%d] = %d", i, in[i]);
    /* A collective and a reduction on MPI_BOTTOM. */
    for (int i = 0; i < 10; ++i) in[i] = rank == 0 ? 7 * i : -1;
    rc = MPI_Bcast(MPI_BOTTOM, 10, rt, 0, MPI_COMM_WORLD);
    CHECK(rc == MPI_SUCCESS, "MPI_Bcast of MPI_BOTTOM returned %d", rc);
    for (int i = 0; i < 10; ++i) CHECK(in[i] == 7 * i, "bcast: in[%d] = %d", i, in[i]);
    for (int i = 0; i < 10; ++i) in[i] = rank + i;
    rc = MPI_Allreduce(MPI_IN_PLACE, MPI_BOTTOM, 10, rt, MPI_SUM, MPI_COMM_WORLD);
    CHECK(rc == MPI_SUCCESS, "MPI_Allreduce in place on MPI_BOTTOM returned %d", rc);
    for (int i = 0; i < 10; ++i)
      CHECK(in[i] == size * (size - 1) / 2 + size * i, "allreduce: in[%d] = %d", i, in[i]);
    MPI_Type_free(&st);
    MPI_Type_free(&rt);
  }
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  /* A put from MPI_BOTTOM into the right neighbour's window. */
  {
    int mem[10], src[10];
    for (int i = 0; i < 10; ++i) {
      mem[i] = -1;
      src[i] = 10000 * rank + i;
    }
    MPI_Win win;
    MPI_Win_create(mem, sizeof mem, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Datatype st = absolute_ints(src);
    MPI_Win_fence(0, win);
    int rc = MPI_Put(MPI_BOTTOM, 10, st, right, 0, 10, MPI_INT, win);
    CHECK(rc == MPI_SUCCESS, "MPI_Put from MPI_BOTTOM returned %d", rc);
    MPI_Win_fence(0, win);
    for (int i = 0; i < 10; ++i) CHECK(mem[i] == 10000 * left + i, "put: mem[%d] = %d", i, mem[i]);
    MPI_Type_free(&st);
    MPI_Win_free(&win);
  }
  /* What stays an error: a null buffer whose data would start at address 0. */
  {
    int rc = MPI_Send(NULL, 10, MPI_INT, right, 3, MPI_COMM_WORLD);
    int cls = -1;
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_BUFFER, "MPI_Send(NULL, 10, MPI_INT) gave class %d, expected MPI_ERR_BUFFER", cls);
  }
  int all = 0;
  MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0 && all == 0) printf("MPI_BOTTOM: all checks passed\n");
  MPI_Finalize();
  return all ? 1 : 0;
}
