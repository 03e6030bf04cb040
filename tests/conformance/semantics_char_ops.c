/* Arithmetic reductions on MPI_CHAR. MPI-3.1 §5.9.2 defines MPI_SUM and the other arithmetic and
 * bitwise ops on MPI_SIGNED_CHAR and MPI_UNSIGNED_CHAR but not on MPI_CHAR; MPICH accepts them
 * on MPI_CHAR too (as a C integer), and codes rely on it: OSU's osu_acc_latency accumulates
 * MPI_CHAR with MPI_SUM. Collectives and one-sided accumulates alike. */
#include <mpi.h>
#include <stdio.h>

#include "conformance_check.h"

static int reduce_char(MPI_Op op, char mine, char* out) {
  *out = 0;
  return MPI_Allreduce(&mine, out, 1, MPI_CHAR, op, MPI_COMM_WORLD);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

  /* Expected values from ints, with the ranks' values rank + 1 (small: no overflow of a char). */
  int sum = 0, prod = 1, band = ~0, bor = 0, bxor = 0;
  for (int r = 0; r < size; ++r) {
    sum += r + 1;
    prod *= r + 1;
    band &= r + 1;
    bor |= r + 1;
    bxor ^= r + 1;
  }
  const struct {
    MPI_Op op;
    const char* name;
    char mine;
    int want;
  } cases[] = {
      {MPI_SUM, "MPI_SUM", (char)(rank + 1), sum},
      {MPI_PROD, "MPI_PROD", (char)(rank + 1), size <= 5 ? prod : -1},
      {MPI_MAX, "MPI_MAX", (char)(rank + 1), size},
      {MPI_MIN, "MPI_MIN", (char)(rank + 1), 1},
      {MPI_BAND, "MPI_BAND", (char)(rank + 1), band},
      {MPI_BOR, "MPI_BOR", (char)(rank + 1), bor},
      {MPI_BXOR, "MPI_BXOR", (char)(rank + 1), bxor},
      {MPI_LAND, "MPI_LAND", (char)(rank + 1), 1},
      {MPI_LOR, "MPI_LOR", (char)(rank == 0), 1},
      {MPI_LXOR, "MPI_LXOR", (char)(rank == 0), 1},
  };
  for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
    char out;
    int rc = reduce_char(cases[i].op, cases[i].mine, &out);
    CHECK(rc == MPI_SUCCESS, "MPI_Allreduce(MPI_CHAR, %s) returned %d", cases[i].name, rc);
    if (rc == MPI_SUCCESS && cases[i].want >= 0)
      CHECK(out == (char)cases[i].want, "MPI_Allreduce(MPI_CHAR, %s) gave %d, expected %d", cases[i].name, out,
            cases[i].want);
  }
  /* MPI_Reduce and MPI_Reduce_local too. */
  char in = (char)(rank + 1), out = 0;
  int rc = MPI_Reduce(&in, &out, 1, MPI_CHAR, MPI_SUM, 0, MPI_COMM_WORLD);
  CHECK(rc == MPI_SUCCESS && (rank != 0 || out == (char)sum), "MPI_Reduce(MPI_CHAR, MPI_SUM): rc %d, %d", rc, out);
  char a = 3, b = 4;
  rc = MPI_Reduce_local(&a, &b, 1, MPI_CHAR, MPI_SUM);
  CHECK(rc == MPI_SUCCESS && b == 7, "MPI_Reduce_local(MPI_CHAR, MPI_SUM): rc %d, %d", rc, b);

  /* One-sided: every rank adds rank + 1 to rank 0's chars under a lock, as osu_acc_latency does. */
  char mem[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  char add[8];
  for (int i = 0; i < 8; ++i) add[i] = (char)(rank + 1);
  MPI_Win win;
  MPI_Win_create(mem, sizeof mem, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
  MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
  rc = MPI_Accumulate(add, 8, MPI_CHAR, 0, 0, 8, MPI_CHAR, MPI_SUM, win);
  CHECK(rc == MPI_SUCCESS, "MPI_Accumulate(MPI_CHAR, MPI_SUM) returned %d", rc);
  MPI_Win_unlock(0, win);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win); /* (synchronizes the public and private copies) */
    for (int i = 0; i < 8; ++i) CHECK(mem[i] == (char)sum, "accumulate: mem[%d] = %d, expected %d", i, mem[i], sum);
    MPI_Win_unlock(0, win);
  }
  MPI_Win_free(&win);

  int all = 0;
  MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0 && all == 0) printf("MPI_CHAR reductions: all checks passed\n");
  MPI_Finalize();
  return all ? 1 : 0;
}
