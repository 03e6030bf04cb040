/* MPI_File_get_view (MPI-3.1 §13.3) returns the view's etype and filetype; a derived one is a
 * new handle the caller frees with MPI_Type_free, also after the types given to
 * MPI_File_set_view have been freed (the view keeps its own), and the view goes on working; a
 * predefined one is returned as itself. Each rank writes and reads its own interleaved ints. */
#include <stdio.h>

#include "conformance_check.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  char name[64];
  snprintf(name, sizeof name, "outside_file_view_types.%d.tmp", size);
  MPI_File fh;
  int rc = MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE,
                         MPI_INFO_NULL, &fh);
  CHECK(rc == MPI_SUCCESS, "MPI_File_open: rc %d", rc);

  /* Rank r's ints: pairs at r, r + size, r + 2 size, ... (in pairs of ints). */
  MPI_Datatype pair, strided, filetype;
  MPI_Type_contiguous(2, MPI_INT, &pair);
  MPI_Type_commit(&pair);
  MPI_Type_create_resized(pair, 0, (MPI_Aint)(size * 2 * sizeof(int)), &strided);
  MPI_Type_commit(&strided);
  filetype = strided;
  rc = MPI_File_set_view(fh, (MPI_Offset)(rank * 2 * sizeof(int)), pair, filetype, "native", MPI_INFO_NULL);
  CHECK(rc == MPI_SUCCESS, "MPI_File_set_view: rc %d", rc);
  MPI_Type_free(&strided);

  MPI_Offset disp = -1;
  MPI_Datatype etype_out = MPI_DATATYPE_NULL, filetype_out = MPI_DATATYPE_NULL;
  char rep[MPI_MAX_DATAREP_STRING];
  MPI_File_get_view(fh, &disp, &etype_out, &filetype_out, rep);
  MPI_Aint lb = -1, extent = -1;
  rc = MPI_Type_get_extent(filetype_out, &lb, &extent);
  CHECK(rc == MPI_SUCCESS && lb == 0 && extent == (MPI_Aint)(size * 2 * sizeof(int)),
        "the filetype returned: rc %d lb %ld extent %ld", rc, (long)lb, (long)extent);
  int type_size = -1;
  MPI_Type_size(etype_out, &type_size);
  CHECK(type_size == (int)(2 * sizeof(int)), "the etype returned: size %d", type_size);
  rc = MPI_Type_free(&filetype_out);
  CHECK(rc == MPI_SUCCESS && filetype_out == MPI_DATATYPE_NULL, "MPI_Type_free of the filetype returned: rc %d", rc);
  rc = MPI_Type_free(&etype_out);
  CHECK(rc == MPI_SUCCESS, "MPI_Type_free of the etype returned: rc %d", rc);
  MPI_Type_free(&pair);

  /* The view still holds its types. */
  int out[6], in[6] = {0};
  for (int i = 0; i < 6; ++i) out[i] = 100 * rank + i;
  rc = MPI_File_write_at_all(fh, 0, out, 6, MPI_INT, MPI_STATUS_IGNORE);
  CHECK(rc == MPI_SUCCESS, "write through the view: rc %d", rc);
  rc = MPI_File_read_at_all(fh, 0, in, 6, MPI_INT, MPI_STATUS_IGNORE);
  for (int i = 0; i < 6; ++i) CHECK(in[i] == out[i], "read back int %d: %d, want %d", i, in[i], out[i]);

  /* A predefined view: the types come back as themselves. */
  rc = MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "native", MPI_INFO_NULL);
  CHECK(rc == MPI_SUCCESS, "MPI_File_set_view(MPI_INT): rc %d", rc);
  MPI_File_get_view(fh, &disp, &etype_out, &filetype_out, rep);
  CHECK(etype_out == MPI_INT && filetype_out == MPI_INT, "a predefined view came back as %d %d", (int)etype_out,
        (int)filetype_out);
  MPI_Barrier(MPI_COMM_WORLD);
  int at = -1;
  MPI_File_read_at(fh, (MPI_Offset)(2 * size), &at, 1, MPI_INT, MPI_STATUS_IGNORE);
  CHECK(at == 2, "rank 0's third int in the file: %d, want 2", at);  /* its second pair starts there */
  MPI_File_close(&fh);

  int total = 0;
  MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) printf(total ? "%d failed checks\n" : "ok\n", total);
  MPI_Finalize();
  return total != 0;
}
