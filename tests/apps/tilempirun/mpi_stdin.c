/* Every rank reads its stdin in two parts, with an MPI call between them (where ranks as contexts
 * let another rank run): one line with fgets, then the rest with getchar, and prints
 * "rank R read L lines". Only rank 0 is given the launcher's stdin (as with MPICH): the test
 * expects all of it at rank 0 and nothing elsewhere, whatever the schedule. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char** argv) {
  int rank, lines = 0, c;
  char line[256];
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (fgets(line, sizeof line, stdin)) ++lines;
  MPI_Barrier(MPI_COMM_WORLD);
  while ((c = getchar()) != EOF)
    if (c == '\n') ++lines;
  printf("rank %d read %d lines\n", rank, lines);
  MPI_Finalize();
  return 0;
}
