/* A dynamic window's target memory may be attached piece by piece (MPI-3.1 §11.2.4): one array
 * attached as two halves is one range of attached memory, and an operation that crosses from
 * the first half into the second is valid. Each rank attaches the halves of its array, and the
 * previous rank puts, accumulates and gets a range across the join; every value is checked. */
#include <string.h>

#include "conformance_check.h"

enum { HALF = 512, N = 2 * HALF, SPAN = 300 };
static int region[N];

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Win win;
  MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
  for (int i = 0; i < N; ++i) region[i] = -1;
  int rc = MPI_Win_attach(win, &region[0], HALF * sizeof(int));
  CHECK(rc == MPI_SUCCESS, "attach of the first half: code %d", rc);
  rc = MPI_Win_attach(win, &region[HALF], HALF * sizeof(int));
  CHECK(rc == MPI_SUCCESS, "attach of the second half: code %d", rc);
  MPI_Aint mine, theirs;
  MPI_Get_address(&region[HALF - SPAN / 2], &mine);
  const int to = (rank + 1) % size, from = (rank + size - 1) % size;
  MPI_Sendrecv(&mine, 1, MPI_AINT, from, 0, &theirs, 1, MPI_AINT, to, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);

  int out[SPAN], back[SPAN];
  for (int i = 0; i < SPAN; ++i) out[i] = 1000 * rank + i;
  MPI_Win_lock_all(0, win);
  rc = MPI_Put(out, SPAN, MPI_INT, to, theirs, SPAN, MPI_INT, win);
  CHECK(rc == MPI_SUCCESS, "put across the join: code %d", rc);
  rc = MPI_Win_flush(to, win);
  CHECK(rc == MPI_SUCCESS, "flush after the put: code %d", rc);
  rc = MPI_Accumulate(out, SPAN, MPI_INT, to, theirs, SPAN, MPI_INT, MPI_SUM, win);
  CHECK(rc == MPI_SUCCESS, "accumulate across the join: code %d", rc);
  rc = MPI_Win_flush(to, win);
  CHECK(rc == MPI_SUCCESS, "flush after the accumulate: code %d", rc);
  memset(back, 0, sizeof back);
  rc = MPI_Get(back, SPAN, MPI_INT, to, theirs, SPAN, MPI_INT, win);
  CHECK(rc == MPI_SUCCESS, "get across the join: code %d", rc);
  rc = MPI_Win_flush(to, win);
  CHECK(rc == MPI_SUCCESS, "flush after the get: code %d", rc);
  for (int i = 0; i < SPAN; ++i) CHECK(back[i] == 2 * out[i], "got [%d] = %d, want %d", i, back[i], 2 * out[i]);
  MPI_Win_unlock_all(win);
  MPI_Barrier(MPI_COMM_WORLD);
  /* What the previous rank wrote, and nothing outside it. */
  for (int i = 0; i < N; ++i) {
    const int k = i - (HALF - SPAN / 2);
    const int want = k >= 0 && k < SPAN ? 2 * (1000 * from + k) : -1;
    CHECK(region[i] == want, "region[%d] = %d, want %d", i, region[i], want);
  }
  MPI_Win_detach(win, &region[HALF]);
  MPI_Win_detach(win, &region[0]);
  MPI_Win_free(&win);
  int total = 0;
  MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) printf(total ? "%d failed checks\n" : "ok\n", total);
  MPI_Finalize();
  return total ? 1 : 0;
}
