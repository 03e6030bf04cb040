/* Scripts and programs read another launcher's rank variables before MPI_Init (a per-rank output
 * file, a device chosen by local rank). Each rank checks that every such variable tilempirun sets
 * (MPICH's Hydra, Open MPI's and PMIx's names) agrees with MPI_COMM_WORLD, as read both before
 * MPI_Init and after it; prints "rank R: FAILED ..." per wrong one and exits 1, else "rank R ok". */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static const char* const rank_names[] = {"TILEMPI_RANK", "PMI_RANK", "MPI_LOCALRANKID", "OMPI_COMM_WORLD_RANK",
                                         "OMPI_COMM_WORLD_LOCAL_RANK", "OMPI_COMM_WORLD_NODE_RANK", "PMIX_RANK"};
static const char* const size_names[] = {"PMI_SIZE", "MPI_LOCALNRANKS", "OMPI_COMM_WORLD_SIZE",
                                         "OMPI_COMM_WORLD_LOCAL_SIZE", "OMPI_UNIVERSE_SIZE"};
#define COUNT(a) (int)(sizeof(a) / sizeof((a)[0]))

/* The variable's value as a number, -1 when unset or not a number. */
static long value_of(const char* name) {
  const char* v = getenv(name);
  if (!v || !*v) return -1;
  char* end = NULL;
  long n = strtol(v, &end, 10);
  return *end ? -1 : n;
}

int main(int argc, char** argv) {
  long before_rank[COUNT(rank_names)], before_size[COUNT(size_names)];
  for (int i = 0; i < COUNT(rank_names); ++i) before_rank[i] = value_of(rank_names[i]);
  for (int i = 0; i < COUNT(size_names); ++i) before_size[i] = value_of(size_names[i]);

  int rank, size, failures = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  for (int i = 0; i < COUNT(rank_names); ++i) {
    long after = value_of(rank_names[i]);
    if (before_rank[i] != rank || after != rank) {
      printf("rank %d: FAILED %s is %ld before MPI_Init and %ld after\n", rank, rank_names[i], before_rank[i], after);
      ++failures;
    }
  }
  for (int i = 0; i < COUNT(size_names); ++i) {
    long after = value_of(size_names[i]);
    if (before_size[i] != size || after != size) {
      printf("rank %d: FAILED %s is %ld before MPI_Init and %ld after, size %d\n", rank, size_names[i], before_size[i],
             after, size);
      ++failures;
    }
  }
  if (!failures) printf("rank %d ok\n", rank);
  MPI_Finalize();
  return failures ? 1 : 0;
}
