/* Errors under MPI_ERRORS_RETURN (MPI-3.1 §8.3, §8.4): MPI_Error_string of the code a call
 * returned says what the fatal path would have printed (the call, the class and the detail), not
 * only the class's text; a collective whose members' counts differ names the collective; a NULL
 * request pointer is MPI_ERR_ARG, as in MPICH (MPI_ERR_REQUEST is for a bad request handle). */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#include "conformance_check.h"

static int class_of(int code) {
  int cls = -1;
  MPI_Error_class(code, &cls);
  return cls;
}

static void text_of(int code, char* text) {
  int len = -1;
  MPI_Error_string(code, text, &len);
  CHECK(len == (int)strlen(text), "MPI_Error_string's length %d is not the text's %d", len, (int)strlen(text));
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  char text[MPI_MAX_ERROR_STRING];

  /* A bad rank: the string names the call and the rank. */
  int v = 0;
  int rc = MPI_Send(&v, 1, MPI_INT, size + 3, 0, MPI_COMM_WORLD);
  CHECK(class_of(rc) == MPI_ERR_RANK, "MPI_Send to rank %d: class %d", size + 3, class_of(rc));
  text_of(rc, text);
  char want[64];
  snprintf(want, sizeof want, "%d", size + 3);
  CHECK(strstr(text, "MPI_Send") && strstr(text, "MPI_ERR_RANK") && strstr(text, want),
        "MPI_Error_string of MPI_Send's bad rank says '%s'", text);

  /* NULL request pointers. */
  MPI_Request* none = NULL;
  rc = MPI_Wait(none, MPI_STATUS_IGNORE);
  CHECK(class_of(rc) == MPI_ERR_ARG, "MPI_Wait(NULL): class %d, expected MPI_ERR_ARG", class_of(rc));
  rc = MPI_Test(none, &v, MPI_STATUS_IGNORE);
  CHECK(class_of(rc) == MPI_ERR_ARG, "MPI_Test(NULL): class %d, expected MPI_ERR_ARG", class_of(rc));
  rc = MPI_Isend(&v, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, none);
  CHECK(class_of(rc) == MPI_ERR_ARG, "MPI_Isend(..., NULL): class %d, expected MPI_ERR_ARG", class_of(rc));
  rc = MPI_Irecv(&v, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, none);
  CHECK(class_of(rc) == MPI_ERR_ARG, "MPI_Irecv(..., NULL): class %d, expected MPI_ERR_ARG", class_of(rc));
  rc = MPI_Start(none);
  CHECK(class_of(rc) == MPI_ERR_ARG, "MPI_Start(NULL): class %d, expected MPI_ERR_ARG", class_of(rc));
  rc = MPI_Waitall(2, none, MPI_STATUSES_IGNORE);
  CHECK(class_of(rc) == MPI_ERR_ARG, "MPI_Waitall(2, NULL): class %d, expected MPI_ERR_ARG", class_of(rc));
  rc = MPI_Ibarrier(MPI_COMM_WORLD, none);
  CHECK(class_of(rc) == MPI_ERR_ARG, "MPI_Ibarrier(NULL): class %d, expected MPI_ERR_ARG", class_of(rc));
  /* A bad handle is still MPI_ERR_REQUEST. */
  MPI_Request bogus = (MPI_Request)12345;
  rc = MPI_Wait(&bogus, MPI_STATUS_IGNORE);
  CHECK(class_of(rc) == MPI_ERR_REQUEST, "MPI_Wait(bad handle): class %d, expected MPI_ERR_REQUEST", class_of(rc));

  /* Members' counts that differ: the root broadcasts 10 ints, the others expect 5. */
  MPI_Barrier(MPI_COMM_WORLD);
  int buf[10] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
  rc = MPI_Bcast(buf, rank == 0 ? 10 : 5, MPI_INT, 0, MPI_COMM_WORLD);
  int failed = rc != MPI_SUCCESS, any = 0;
  if (failed) {
    text_of(rc, text);
    CHECK(strstr(text, "MPI_Bcast") != NULL, "MPI_Error_string of a failed MPI_Bcast does not name it: '%s'", text);
    CHECK(class_of(rc) != MPI_ERR_TRUNCATE || strstr(text, "20 bytes") != NULL,
          "MPI_Error_string of a truncated MPI_Bcast does not give this rank's count: '%s'", text);
    CHECK(strstr(text, "known error not in this list") == NULL || strstr(text, ": the") != NULL,
          "MPI_Error_string of a failed MPI_Bcast is only the class's text: '%s'", text);
  }
  MPI_Allreduce(&failed, &any, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  CHECK(any > 0, "no rank reported the MPI_Bcast whose counts differ");

  /* The communicator still works. */
  int one = 1, n = 0;
  rc = MPI_Allreduce(&one, &n, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  CHECK(rc == MPI_SUCCESS && n == size, "MPI_Allreduce after the failed MPI_Bcast: rc %d, %d", rc, n);

  int all = 0;
  MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0 && all == 0) printf("error strings: all checks passed\n");
  MPI_Finalize();
  return all ? 1 : 0;
}
