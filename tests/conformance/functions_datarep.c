/* MPI_Register_datarep (MPI-3.1 §13.5.3): a representation that stores ints big-endian converts
 * every write and read of a view that names it (the file holds big-endian bytes; reading through
 * the view gives the ints back); a representation without conversion functions is the data as it
 * is; a name already defined is MPI_ERR_DUP_DATAREP; an unknown one, or one whose extents differ
 * from memory's (which tilempi's views do not support), is MPI_ERR_UNSUPPORTED_DATAREP. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#include "conformance_check.h"

static int conversions = 0;

static void swap4(const unsigned char* in, unsigned char* out) {
  out[0] = in[3];
  out[1] = in[2];
  out[2] = in[1];
  out[3] = in[0];
}

/* Ints only: memory <-> big-endian. */
static int to_file(void* userbuf, MPI_Datatype type, int count, void* filebuf, MPI_Offset position, void* extra) {
  int i;
  (void)extra;
  if (type != MPI_INT) return MPI_ERR_CONVERSION;
  for (i = 0; i < count; ++i)
    swap4((unsigned char*)userbuf + 4 * (position + i), (unsigned char*)filebuf + 4 * i);
  ++conversions;
  return MPI_SUCCESS;
}
static int from_file(void* userbuf, MPI_Datatype type, int count, void* filebuf, MPI_Offset position, void* extra) {
  int i;
  (void)extra;
  if (type != MPI_INT) return MPI_ERR_CONVERSION;
  for (i = 0; i < count; ++i)
    swap4((unsigned char*)filebuf + 4 * i, (unsigned char*)userbuf + 4 * (position + i));
  ++conversions;
  return MPI_SUCCESS;
}
static int same_extent(MPI_Datatype type, MPI_Aint* extent, void* extra) {
  MPI_Aint lb;
  (void)extra;
  return MPI_Type_get_extent(type, &lb, extent);
}
static int eight_bytes(MPI_Datatype type, MPI_Aint* extent, void* extra) {
  (void)type;
  (void)extra;
  *extent = 8;
  return MPI_SUCCESS;
}

int main(int argc, char** argv) {
  char name[64], rep[MPI_MAX_DATAREP_STRING];
  int v[2] = {1, 0x01020304}, back[2] = {0, 0}, cls = -1;
  unsigned char raw[8];
  MPI_File fh, plain;
  MPI_Offset disp;
  MPI_Datatype et, ft;
  MPI_Aint extent = -1;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  CHECK(MPI_Register_datarep("bigendian_ints", from_file, to_file, same_extent, NULL) == MPI_SUCCESS, "register");
  MPI_Error_class(MPI_Register_datarep("bigendian_ints", from_file, to_file, same_extent, NULL), &cls);
  CHECK(cls == MPI_ERR_DUP_DATAREP, "registered twice: class %d", cls);
  MPI_Error_class(MPI_Register_datarep("native", from_file, to_file, same_extent, NULL), &cls);
  CHECK(cls == MPI_ERR_DUP_DATAREP, "native again: class %d", cls);
  CHECK(MPI_Register_datarep("as_is", MPI_CONVERSION_FN_NULL, MPI_CONVERSION_FN_NULL, same_extent, NULL) ==
            MPI_SUCCESS, "register as_is");
  CHECK(MPI_Register_datarep("wide_ints", from_file, to_file, eight_bytes, NULL) == MPI_SUCCESS, "register wide");

  snprintf(name, sizeof name, "datarep.%d", rank);
  MPI_File_open(MPI_COMM_SELF, name, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh);
  CHECK(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "bigendian_ints", MPI_INFO_NULL) == MPI_SUCCESS, "set_view");
  MPI_File_get_view(fh, &disp, &et, &ft, rep);
  CHECK(strcmp(rep, "bigendian_ints") == 0, "get_view says '%s'", rep);
  CHECK(MPI_File_get_type_extent(fh, MPI_INT, &extent) == MPI_SUCCESS && extent == 4, "file extent %ld", (long)extent);
  CHECK(MPI_File_write_at(fh, 0, v, 2, MPI_INT, MPI_STATUS_IGNORE) == MPI_SUCCESS, "write");
  CHECK(conversions == 1, "write conversions %d", conversions);
  MPI_File_sync(fh);
  /* The file's bytes, as they are: big-endian. */
  MPI_File_open(MPI_COMM_SELF, name, MPI_MODE_RDONLY, MPI_INFO_NULL, &plain);
  MPI_File_read_at(plain, 0, raw, 8, MPI_BYTE, MPI_STATUS_IGNORE);
  MPI_File_close(&plain);
  {
    static const unsigned char want[8] = {0, 0, 0, 1, 1, 2, 3, 4};
    CHECK(memcmp(raw, want, 8) == 0, "file bytes %02x %02x %02x %02x %02x %02x %02x %02x", raw[0], raw[1], raw[2],
          raw[3], raw[4], raw[5], raw[6], raw[7]);
  }
  CHECK(MPI_File_read_at(fh, 0, back, 2, MPI_INT, MPI_STATUS_IGNORE) == MPI_SUCCESS, "read");
  CHECK(back[0] == 1 && back[1] == 0x01020304, "read back %d %d", back[0], back[1]);
  /* The conversion function refuses doubles: its error comes back from the write. */
  {
    double d = 1.0;
    MPI_Error_class(MPI_File_write_at(fh, 0, &d, 1, MPI_DOUBLE, MPI_STATUS_IGNORE), &cls);
    CHECK(cls == MPI_ERR_CONVERSION, "a double through an ints-only conversion: class %d", cls);
  }
  /* No conversion functions: the data as they are. */
  CHECK(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "as_is", MPI_INFO_NULL) == MPI_SUCCESS, "set_view as_is");
  MPI_File_write_at(fh, 0, v, 2, MPI_INT, MPI_STATUS_IGNORE);
  MPI_File_sync(fh);
  MPI_File_open(MPI_COMM_SELF, name, MPI_MODE_RDONLY, MPI_INFO_NULL, &plain);
  MPI_File_read_at(plain, 0, raw, 8, MPI_BYTE, MPI_STATUS_IGNORE);
  MPI_File_close(&plain);
  CHECK(memcmp(raw, v, 8) == 0, "as_is: the bytes as in memory");
  /* Unknown, and extents that differ from memory's. */
  MPI_Error_class(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "no_such_rep", MPI_INFO_NULL), &cls);
  CHECK(cls == MPI_ERR_UNSUPPORTED_DATAREP, "unknown representation: class %d", cls);
  MPI_Error_class(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "wide_ints", MPI_INFO_NULL), &cls);
  CHECK(cls == MPI_ERR_UNSUPPORTED_DATAREP, "8-byte file ints: class %d", cls);
  MPI_File_close(&fh);
  MPI_File_delete(name, MPI_INFO_NULL);
  {
    int all = 0;
    MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    failures = all;
  }
  if (rank == 0 && failures == 0) printf("functions.datarep: all checks passed\n");
  MPI_Finalize();
  return failures ? 1 : 0;
}
