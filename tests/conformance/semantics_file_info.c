/* MPI_File_get_info (MPI-3.1 §13.2.8): a new info object with the hints associated with the file,
 * which MPI_Info_get, get_nkeys and get_nthkey read like any other; hints come from
 * MPI_File_open, MPI_File_set_view and MPI_File_set_info. Every rank walks every key, as
 * programs that print the hints do. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "conformance_check.h"

/* Reads every key of the file's info; returns the value of `want` in `found` (empty: absent). */
static void walk(MPI_File fh, const char* when, const char* want, char* found) {
  MPI_Info used = MPI_INFO_NULL;
  int rc = MPI_File_get_info(fh, &used);
  CHECK(rc == MPI_SUCCESS && used != MPI_INFO_NULL, "%s: MPI_File_get_info returned %d", when, rc);
  found[0] = '\0';
  int nkeys = -1;
  rc = MPI_Info_get_nkeys(used, &nkeys);
  CHECK(rc == MPI_SUCCESS && nkeys >= 0, "%s: MPI_Info_get_nkeys on the file's info returned %d", when, rc);
  for (int i = 0; i < nkeys; ++i) {
    char key[MPI_MAX_INFO_KEY + 1], value[MPI_MAX_INFO_VAL + 1];
    int flag = 0, len = -1;
    rc = MPI_Info_get_nthkey(used, i, key);
    CHECK(rc == MPI_SUCCESS, "%s: MPI_Info_get_nthkey(%d) returned %d", when, i, rc);
    rc = MPI_Info_get_valuelen(used, key, &len, &flag);
    CHECK(rc == MPI_SUCCESS && flag, "%s: MPI_Info_get_valuelen(%s) returned %d, flag %d", when, key, rc, flag);
    rc = MPI_Info_get(used, key, MPI_MAX_INFO_VAL - 1, value, &flag);
    CHECK(rc == MPI_SUCCESS && flag && (int)strlen(value) == len, "%s: MPI_Info_get(%s) returned %d, flag %d", when,
          key, rc, flag);
    if (flag && strcmp(key, want) == 0) strcpy(found, value);
  }
  MPI_Info_free(&used);
  CHECK(used == MPI_INFO_NULL, "%s: MPI_Info_free of the file's info did not reset the handle", when);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  char name[256], found[MPI_MAX_INFO_VAL + 1];
  /* One name for the whole job (rank 0's process id), in the working directory. */
  int id = (int)getpid();
  MPI_Bcast(&id, 1, MPI_INT, 0, MPI_COMM_WORLD);
  snprintf(name, sizeof name, "conformance_file_info.%d.tmp", id);
  MPI_File fh;

  /* Opened without hints. */
  MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE, MPI_INFO_NULL, &fh);
  walk(fh, "open without hints", "access_style", found);
  MPI_File_close(&fh);

  /* Hints at open, at set_view and at set_info. */
  MPI_Info hints;
  MPI_Info_create(&hints);
  MPI_Info_set(hints, "access_style", "write_once,random");
  MPI_Info_set(hints, "cb_buffer_size", "8388608");
  MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE, hints, &fh);
  MPI_Info_free(&hints);
  walk(fh, "open with hints", "access_style", found);
  CHECK(strcmp(found, "write_once,random") == 0, "open with hints: access_style is '%s'", found);
  MPI_Info view_hints;
  MPI_Info_create(&view_hints);
  MPI_Info_set(view_hints, "cb_nodes", "1");
  MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "native", view_hints);
  MPI_Info_free(&view_hints);
  walk(fh, "after set_view", "cb_nodes", found);
  CHECK(strcmp(found, "1") == 0, "after set_view with hints: cb_nodes is '%s', expected '1'", found);
  MPI_Info more;
  MPI_Info_create(&more);
  MPI_Info_set(more, "access_style", "read_once");
  MPI_File_set_info(fh, more);
  MPI_Info_free(&more);
  walk(fh, "after set_info", "access_style", found);
  CHECK(strcmp(found, "read_once") == 0, "after set_info: access_style is '%s', expected 'read_once'", found);
  MPI_File_close(&fh);

  int all = 0;
  MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0 && all == 0) printf("file info: all checks passed\n");
  MPI_Finalize();
  return all ? 1 : 0;
}
