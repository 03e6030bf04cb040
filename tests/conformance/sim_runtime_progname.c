/* The program's name as the C library knows it (issue 33): program_invocation_name is argv[0]
 * and program_invocation_short_name its last component, in every rank. On the sim with ranks as
 * contexts the ranks run in a simulator process of another name. Also signgam, which lgamma
 * sets in the C math library and a -fPIE program reads from its own copy. */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static int rank, failures;

static void check(int ok, const char* what) {
  if (!ok) {
    printf("rank %d: FAILED: %s\n", rank, what);
    ++failures;
  }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const char* slash = strrchr(argv[0], '/');
  const char* base = slash ? slash + 1 : argv[0];
  check(program_invocation_name && strcmp(program_invocation_name, argv[0]) == 0,
        "program_invocation_name is not argv[0]");
  check(program_invocation_short_name && strcmp(program_invocation_short_name, base) == 0,
        "program_invocation_short_name is not the last component of argv[0]");
  if (failures) printf("rank %d: program_invocation_name %s, short %s, argv[0] %s\n", rank, program_invocation_name,
                       program_invocation_short_name, argv[0]);

  /* lgamma's sign, in signgam: Gamma(-0.5) < 0 < Gamma(0.5); opposite orders in odd and even ranks. */
  volatile double neg = -0.5, pos = 0.5;
  const int first_negative = rank % 2 == 0;
  (void)lgamma(first_negative ? neg : pos);
  check(signgam == (first_negative ? -1 : 1), "signgam after the first lgamma");
  MPI_Barrier(MPI_COMM_WORLD);
  (void)lgamma(first_negative ? pos : neg);
  check(signgam == (first_negative ? 1 : -1), "signgam after the second lgamma");

  int all = 0;
  MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0 && all == 0) printf("sim_runtime_progname: ok\n");
  MPI_Finalize();
  return all != 0;
}
