/* MPI_File_get_type_extent (MPI-3.1 §13.5.3): in the "native" representation a type's extent in
 * the file is its extent in memory, for predefined, resized and uncommitted types; a bad type is
 * MPI_ERR_TYPE (files return errors by default). */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char** argv) {
  int rank, failures = 0, all = 0, cls = -1;
  MPI_File fh;
  MPI_Aint extent = -1;
  MPI_Datatype vec, resized;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (MPI_File_open(MPI_COMM_WORLD, "type_extent.dat", MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE,
                    MPI_INFO_NULL, &fh) != MPI_SUCCESS) {
    fprintf(stderr, "rank %d: open failed\n", rank);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  if (MPI_File_get_type_extent(fh, MPI_DOUBLE, &extent) != MPI_SUCCESS || extent != 8) {
    fprintf(stderr, "rank %d: MPI_DOUBLE extent %ld\n", rank, (long)extent);
    ++failures;
  }
  MPI_Type_vector(3, 1, 4, MPI_INT, &vec); /* not committed: the extent is still asked for */
  if (MPI_File_get_type_extent(fh, vec, &extent) != MPI_SUCCESS || extent != 9 * (MPI_Aint)sizeof(int)) {
    fprintf(stderr, "rank %d: vector extent %ld\n", rank, (long)extent);
    ++failures;
  }
  MPI_Type_create_resized(MPI_INT, 0, 24, &resized);
  if (MPI_File_get_type_extent(fh, resized, &extent) != MPI_SUCCESS || extent != 24) {
    fprintf(stderr, "rank %d: resized extent %ld\n", rank, (long)extent);
    ++failures;
  }
  MPI_Error_class(MPI_File_get_type_extent(fh, (MPI_Datatype)12345, &extent), &cls);
  if (cls != MPI_ERR_TYPE) {
    fprintf(stderr, "rank %d: a bad type gives class %d\n", rank, cls);
    ++failures;
  }
  MPI_Type_free(&vec);
  MPI_Type_free(&resized);
  MPI_File_close(&fh);
  MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0 && all == 0) printf("functions.file_type_extent: all checks passed\n");
  MPI_Finalize();
  return all ? 1 : 0;
}
