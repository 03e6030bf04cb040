/* Atomic mode (MPI_File_set_atomicity, MPI-3.1 §13.6.1): accesses to overlapping bytes by
 * different ranks are as if one completed before the other began, so a read concurrent with a
 * write sees all of the old data or all of the new, never part of each. Rank 0 writes the same
 * region again and again, each time with a single value (the round), while the others read it:
 * every read must hold one value throughout. Twice: through a contiguous view, and through a
 * view of every other int (an access of many pieces). */
#include <stdio.h>
#include <stdlib.h>

#include "conformance_check.h"

#define N 4096
#define ROUNDS 40

static void check_uniform(const int* buf, const char* what, int round) {
  for (int i = 1; i < N; ++i)
    if (buf[i] != buf[0]) {
      CHECK(0, "%s read %d: int %d is %d, int 0 is %d (part of a write)", what, round, i, buf[i], buf[0]);
      return;
    }
  CHECK(buf[0] >= 0 && buf[0] <= ROUNDS, "%s read %d: value %d was never written", what, round, buf[0]);
}

static void run(MPI_File fh, MPI_Datatype filetype, const char* what) {
  int* buf = malloc(N * sizeof(int));
  MPI_File_set_view(fh, 0, MPI_INT, filetype, "native", MPI_INFO_NULL);
  MPI_File_set_atomicity(fh, 1);
  int flag = 0;
  MPI_File_get_atomicity(fh, &flag);
  CHECK(flag == 1, "%s: MPI_File_get_atomicity says %d", what, flag);
  if (rank == 0) {
    for (int i = 0; i < N; ++i) buf[i] = 0;
    MPI_File_write_at(fh, 0, buf, N, MPI_INT, MPI_STATUS_IGNORE);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  for (int round = 1; round <= ROUNDS; ++round) {
    if (rank == 0) {
      for (int i = 0; i < N; ++i) buf[i] = round;
      MPI_File_write_at(fh, 0, buf, N, MPI_INT, MPI_STATUS_IGNORE);
    } else {
      MPI_File_read_at(fh, 0, buf, N, MPI_INT, MPI_STATUS_IGNORE);
      check_uniform(buf, what, round);
    }
  }
  MPI_Barrier(MPI_COMM_WORLD);
  free(buf);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  char name[64];
  snprintf(name, sizeof name, "outside_file_atomic.%d.tmp", size);
  MPI_File fh;
  int rc = MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE,
                         MPI_INFO_NULL, &fh);
  CHECK(rc == MPI_SUCCESS, "MPI_File_open: rc %d", rc);
  run(fh, MPI_INT, "contiguous");
  MPI_Datatype every_other, tile;
  MPI_Type_vector(1, 1, 2, MPI_INT, &every_other);
  MPI_Type_create_resized(every_other, 0, 2 * sizeof(int), &tile);
  MPI_Type_commit(&tile);
  run(fh, tile, "every other int");
  MPI_Type_free(&tile);
  MPI_Type_free(&every_other);
  MPI_File_close(&fh);

  int total = 0;
  MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) printf(total ? "%d failed checks\n" : "ok\n", total);
  MPI_Finalize();
  return total != 0;
}
