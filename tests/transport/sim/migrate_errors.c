/* TILEMPIX_Migrate's error classes under MPI_ERRORS_RETURN.
 *   sim_migrate_errors supported|unsupported
 * supported: the sim transport with the namp adapter on a chip of more tiles than ranks: a bad
 * rank, MPI_PROC_NULL, a negative tile, a tile off the chip, a tile another rank holds and a
 * second move of a rank that is moving are refused with their classes; one migration starts.
 * unsupported: every call is MPI_ERR_UNSUPPORTED_OPERATION (host transport, other adapters).
 * Prints "migrate_errors: ok" on rank 0 when every class was the expected one. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include <tilempi_ext.h>

static int failures = 0;

static void expect(const char* what, int rc, int want) {
  int cls = rc;
  if (rc != MPI_SUCCESS) MPI_Error_class(rc, &cls);
  if (cls != want) {
    fprintf(stderr, "%s: error class %d, expected %d\n", what, cls, want);
    ++failures;
  }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0, w = 0, h = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  const int supported = argc > 1 && strcmp(argv[1], "supported") == 0;
  TILEMPIX_Mesh_shape(&w, &h);
  if (rank == 0) {
    expect("rank = size", TILEMPIX_Migrate(MPI_COMM_WORLD, size, 0), MPI_ERR_RANK);
    expect("MPI_PROC_NULL", TILEMPIX_Migrate(MPI_COMM_WORLD, MPI_PROC_NULL, 0), MPI_ERR_RANK);
    expect("tile -1", TILEMPIX_Migrate(MPI_COMM_WORLD, 1, -1), MPI_ERR_ARG);
    if (supported) {
      int x = 0, y = 0;
      TILEMPIX_Rank_coords(MPI_COMM_WORLD, 1, &x, &y);
      expect("tile off the chip", TILEMPIX_Migrate(MPI_COMM_WORLD, 1, 1 << 20), MPI_ERR_ARG);
      expect("tile of rank 1 itself", TILEMPIX_Migrate(MPI_COMM_WORLD, 1, y * w + x), MPI_ERR_ARG);
      TILEMPIX_Rank_coords(MPI_COMM_WORLD, 0, &x, &y);
      expect("tile of rank 0", TILEMPIX_Migrate(MPI_COMM_WORLD, 1, y * w + x), MPI_ERR_ARG);
      /* The chip's last tile is free (the launcher's grid fills rows from the corner). */
      const int last = 4 * 4 - 1;
      expect("a free tile", TILEMPIX_Migrate(MPI_COMM_WORLD, 1, last), MPI_SUCCESS);
      expect("the same tile again", TILEMPIX_Migrate(MPI_COMM_WORLD, 2, last), MPI_ERR_ARG);
      expect("the moving rank again", TILEMPIX_Migrate(MPI_COMM_WORLD, 1, last - 1), MPI_ERR_ARG);
    } else {
      expect("unsupported", TILEMPIX_Migrate(MPI_COMM_WORLD, 1, 3), MPI_ERR_UNSUPPORTED_OPERATION);
    }
  }
  /* Messages keep flowing around the move. */
  int token = rank, sum = 0;
  MPI_Allreduce(&token, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (sum != size * (size - 1) / 2) ++failures;
  int any = 0;
  MPI_Allreduce(&failures, &any, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0 && any == 0) printf("migrate_errors: ok\n");
  MPI_Finalize();
  return any ? 1 : 0;
}
