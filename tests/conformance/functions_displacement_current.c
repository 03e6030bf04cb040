/* MPI_DISPLACEMENT_CURRENT (MPI-3.1 §13.3): MPI_File_set_view of a file opened
 * MPI_MODE_SEQUENTIAL starts the view where the shared file pointer is; the same constant on a
 * file without MPI_MODE_SEQUENTIAL is MPI_ERR_ARG (a file's default handler returns). */
#include <mpi.h>
#include <stdio.h>

static int rank, errors;

#define CHECK(cond, ...)                                   \
  do {                                                     \
    if (!(cond)) {                                         \
      printf("rank %d: line %d: ", rank, __LINE__);        \
      printf(__VA_ARGS__);                                 \
      printf("\n");                                        \
      ++errors;                                            \
    }                                                      \
  } while (0)

int main(int argc, char** argv) {
  int size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  char name[64];
  snprintf(name, sizeof name, "functions_displacement_current.%d.tmp", size);

  MPI_File fh;
  int rc = MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_CREATE | MPI_MODE_WRONLY | MPI_MODE_SEQUENTIAL |
                         MPI_MODE_DELETE_ON_CLOSE, MPI_INFO_NULL, &fh);
  CHECK(rc == MPI_SUCCESS, "open: rc %d", rc);
  int data[3] = {rank, rank, rank};
  MPI_File_write_ordered(fh, data, 3, MPI_INT, MPI_STATUS_IGNORE);
  rc = MPI_File_set_view(fh, MPI_DISPLACEMENT_CURRENT, MPI_INT, MPI_INT, "native", MPI_INFO_NULL);
  CHECK(rc == MPI_SUCCESS, "set_view(MPI_DISPLACEMENT_CURRENT): rc %d", rc);
  MPI_Offset disp = -1, pos = -1;
  MPI_Datatype etype, filetype;
  char rep[MPI_MAX_DATAREP_STRING];
  MPI_File_get_view(fh, &disp, &etype, &filetype, rep);
  CHECK(disp == (MPI_Offset)(3 * size * sizeof(int)), "the view starts at %lld, want %lld", (long long)disp,
        (long long)(3 * size * sizeof(int)));
  MPI_File_get_position_shared(fh, &pos);
  CHECK(pos == 0, "the shared pointer is %lld in the new view, want 0", (long long)pos);
  MPI_File_close(&fh);

  snprintf(name, sizeof name, "functions_displacement_current.%d.b.tmp", size);
  rc = MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE, MPI_INFO_NULL,
                     &fh);
  rc = MPI_File_set_view(fh, MPI_DISPLACEMENT_CURRENT, MPI_INT, MPI_INT, "native", MPI_INFO_NULL);
  int cls = -1;
  MPI_Error_class(rc, &cls);
  CHECK(cls == MPI_ERR_ARG, "MPI_DISPLACEMENT_CURRENT without MPI_MODE_SEQUENTIAL: class %d", cls);
  MPI_File_close(&fh);

  int all = 0;
  MPI_Allreduce(&errors, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0 && all == 0) printf("functions_displacement_current: %d ranks: ok\n", size);
  MPI_Finalize();
  return all != 0;
}
