/* Every rank names the tile the job placed it on: MPI_Get_processor_name and the mesh the
 * collectives use must agree with the chip's rank map.
 *   sim_placement CHIP_WIDTH CHIP_HEIGHT MAPPING
 * MAPPING: row_major, col_major or list:t0,t1,... (the `mapping` value given to the launcher). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int expected_tile(const char* mapping, int w, int h, int rank) {
  if (strcmp(mapping, "row_major") == 0) return rank;
  if (strcmp(mapping, "col_major") == 0) return (rank % h) * w + rank / h;
  if (strncmp(mapping, "list:", 5) == 0) {
    const char* p = mapping + 5;
    for (int i = 0; i < rank; ++i) {
      p = strchr(p, ',');
      if (!p) return -1;
      ++p;
    }
    return atoi(p);
  }
  return -1;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0, len = 0, fails = 0, total = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc != 4) {
    if (rank == 0) fprintf(stderr, "usage: sim_placement CHIP_WIDTH CHIP_HEIGHT MAPPING\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  const int w = atoi(argv[1]), h = atoi(argv[2]);
  const int tile = expected_tile(argv[3], w, h, rank);
  char name[MPI_MAX_PROCESSOR_NAME], want[64];
  MPI_Get_processor_name(name, &len);
  snprintf(want, sizeof want, "tile(%d,%d)", tile % w, tile / w);
  if (strcmp(name, want) != 0) {
    fprintf(stderr, "rank %d: processor name %s, the mapping places it on %s\n", rank, name, want);
    fails = 1;
  }
  /* The collectives' geometry comes from the same placement: an alltoall and a broadcast from
   * the last rank cross every tile's links. */
  int* s = malloc(sizeof(int) * (size_t)size);
  int* d = malloc(sizeof(int) * (size_t)size);
  for (int i = 0; i < size; ++i) s[i] = rank * 1000 + i;
  if (MPI_Alltoall(s, 1, MPI_INT, d, 1, MPI_INT, MPI_COMM_WORLD) != MPI_SUCCESS) fails = 1;
  for (int i = 0; i < size; ++i)
    if (d[i] != i * 1000 + rank) fails = 1;
  int v = rank == size - 1 ? 4242 : 0;
  MPI_Bcast(&v, 1, MPI_INT, size - 1, MPI_COMM_WORLD);
  if (v != 4242) fails = 1;
  MPI_Allreduce(&fails, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) printf("placement %s: %d of %d ranks wrong\n", argv[3], total, size);
  free(s);
  free(d);
  MPI_Finalize();
  return total == 0 ? 0 : 1;
}
