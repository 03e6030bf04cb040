/* A job whose energy the run report splits by kind of MPI call (issue 37): point-to-point sends,
 * a non-blocking alltoall completed by MPI_Wait, and a broadcast. The report must charge the
 * alltoall's messages to the alltoall even though MPI_Wait sent some of them, and nothing to the
 * receives (a message's packets are its sender's call's). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  static char buf[1024];
  for (int i = 0; i < 4; ++i) {
    if (rank == 0) MPI_Send(buf, (int)sizeof buf, MPI_BYTE, 1, 1, MPI_COMM_WORLD);
    if (rank == 1) MPI_Recv(buf, (int)sizeof buf, MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  int* s = malloc(sizeof(int) * 64 * (size_t)size);
  int* r = malloc(sizeof(int) * 64 * (size_t)size);
  for (int i = 0; i < 64 * size; ++i) s[i] = rank;
  MPI_Request req;
  MPI_Ialltoall(s, 64, MPI_INT, r, 64, MPI_INT, MPI_COMM_WORLD, &req);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  int bad = 0;
  for (int i = 0; i < 64 * size; ++i) bad += r[i] != i / 64;
  MPI_Bcast(s, 64, MPI_INT, 0, MPI_COMM_WORLD);
  for (int i = 0; i < 64; ++i) bad += s[i] != 0;
  free(s);
  free(r);
  if (bad) printf("rank %d: %d wrong values\n", rank, bad);
  MPI_Finalize();
  return bad ? 1 : 0;
}
