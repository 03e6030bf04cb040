/* The MPI_ERROR field of a status (MPI-3.1 §3.2.5): calls that return one status (receives,
 * probes, matched probes and receives, waits and tests of one request, MPI_Sendrecv) never write
 * it, whatever they return; the calls that return several statuses write it in every status they
 * return if and only if they return MPI_ERR_IN_STATUS. Every rank sends to the next; a status's
 * MPI_ERROR starts as a value no call would write. */
#include <string.h>

#include "conformance_check.h"

#define MARK 12345

static void mark(MPI_Status* s, int n) {
  for (int i = 0; i < n; ++i) {
    memset(&s[i], 0xab, sizeof s[i]);
    s[i].MPI_ERROR = MARK + i;
  }
}

#define UNTOUCHED(s, i, what) CHECK((s).MPI_ERROR == MARK + (i), "%s wrote MPI_ERROR: %d", what, (s).MPI_ERROR)

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  const int to = (rank + 1) % size, from = (rank + size - 1) % size;
  int out[4] = {rank, rank + 1, rank + 2, rank + 3}, in[4];
  MPI_Status s[3];
  MPI_Request r[3];
  MPI_Message msg;
  MPI_Request sends[4]; /* (sent before their receives are posted: not waited for until the end) */
  int flag = 0, index = -1, outcount = -1, indices[3];

  /* Probes and matched probes. */
  MPI_Isend(out, 4, MPI_INT, to, 1, MPI_COMM_WORLD, &sends[0]);
  mark(s, 1);
  MPI_Probe(from, 1, MPI_COMM_WORLD, &s[0]);
  UNTOUCHED(s[0], 0, "MPI_Probe");
  CHECK(s[0].MPI_SOURCE == from && s[0].MPI_TAG == 1, "MPI_Probe: source %d tag %d", s[0].MPI_SOURCE, s[0].MPI_TAG);
  mark(s, 1);
  MPI_Iprobe(from, 1, MPI_COMM_WORLD, &flag, &s[0]);
  UNTOUCHED(s[0], 0, "MPI_Iprobe");
  mark(s, 2);
  MPI_Mprobe(from, 1, MPI_COMM_WORLD, &msg, &s[0]);
  UNTOUCHED(s[0], 0, "MPI_Mprobe");
  MPI_Mrecv(in, 4, MPI_INT, &msg, &s[1]);
  UNTOUCHED(s[1], 1, "MPI_Mrecv");
  CHECK(in[3] == from + 3 && s[1].MPI_SOURCE == from, "MPI_Mrecv: data %d source %d", in[3], s[1].MPI_SOURCE);

  MPI_Isend(out, 4, MPI_INT, to, 2, MPI_COMM_WORLD, &sends[1]);
  mark(s, 2);
  flag = 0;
  while (!flag) MPI_Improbe(from, 2, MPI_COMM_WORLD, &flag, &msg, &s[0]);
  UNTOUCHED(s[0], 0, "MPI_Improbe");
  MPI_Imrecv(in, 4, MPI_INT, &msg, &r[0]);
  MPI_Wait(&r[0], &s[1]);
  UNTOUCHED(s[1], 1, "MPI_Imrecv and MPI_Wait");

  /* Receives, one request at a time; a truncated one returns its error and leaves the field. */
  MPI_Isend(out, 4, MPI_INT, to, 3, MPI_COMM_WORLD, &sends[2]);
  mark(s, 1);
  MPI_Recv(in, 4, MPI_INT, from, 3, MPI_COMM_WORLD, &s[0]);
  UNTOUCHED(s[0], 0, "MPI_Recv");
  MPI_Isend(out, 4, MPI_INT, to, 4, MPI_COMM_WORLD, &sends[3]);
  mark(s, 1);
  int rc = MPI_Recv(in, 2, MPI_INT, from, 4, MPI_COMM_WORLD, &s[0]);
  int eclass = -1;
  MPI_Error_class(rc, &eclass);
  CHECK(eclass == MPI_ERR_TRUNCATE, "truncated MPI_Recv returned class %d", eclass);
  UNTOUCHED(s[0], 0, "a truncated MPI_Recv");
  mark(s, 1);
  MPI_Sendrecv(out, 4, MPI_INT, to, 5, in, 4, MPI_INT, from, 5, MPI_COMM_WORLD, &s[0]);
  UNTOUCHED(s[0], 0, "MPI_Sendrecv");
  MPI_Irecv(in, 4, MPI_INT, from, 6, MPI_COMM_WORLD, &r[0]);
  MPI_Send(out, 4, MPI_INT, to, 6, MPI_COMM_WORLD);
  mark(s, 1);
  flag = 0;
  while (!flag) MPI_Test(&r[0], &flag, &s[0]);
  UNTOUCHED(s[0], 0, "MPI_Test");
  MPI_Irecv(in, 4, MPI_INT, from, 7, MPI_COMM_WORLD, &r[0]);
  MPI_Send(out, 4, MPI_INT, to, 7, MPI_COMM_WORLD);
  mark(s, 1);
  MPI_Waitany(1, r, &index, &s[0]);
  UNTOUCHED(s[0], 0, "MPI_Waitany");

  /* Several statuses, every request fine: no MPI_ERROR written. */
  int a[3][4];
  for (int i = 0; i < 3; ++i) MPI_Irecv(a[i], 4, MPI_INT, from, 10 + i, MPI_COMM_WORLD, &r[i]);
  for (int i = 0; i < 3; ++i) MPI_Send(out, 4, MPI_INT, to, 10 + i, MPI_COMM_WORLD);
  mark(s, 3);
  rc = MPI_Waitall(3, r, s);
  CHECK(rc == MPI_SUCCESS, "MPI_Waitall returned %d", rc);
  for (int i = 0; i < 3; ++i) UNTOUCHED(s[i], i, "a successful MPI_Waitall");
  for (int i = 0; i < 3; ++i) MPI_Irecv(a[i], 4, MPI_INT, from, 20 + i, MPI_COMM_WORLD, &r[i]);
  for (int i = 0; i < 3; ++i) MPI_Send(out, 4, MPI_INT, to, 20 + i, MPI_COMM_WORLD);
  int done = 0;
  while (done < 3) {
    mark(s, 3);
    MPI_Waitsome(3, r, &outcount, indices, s);
    for (int k = 0; k < outcount; ++k) UNTOUCHED(s[k], k, "a successful MPI_Waitsome");
    done += outcount;
  }

  /* One request fails: MPI_ERR_IN_STATUS, and every status says its own class. */
  MPI_Irecv(a[0], 4, MPI_INT, from, 30, MPI_COMM_WORLD, &r[0]);
  MPI_Irecv(a[1], 2, MPI_INT, from, 31, MPI_COMM_WORLD, &r[1]); /* too small */
  MPI_Send(out, 4, MPI_INT, to, 30, MPI_COMM_WORLD);
  MPI_Send(out, 4, MPI_INT, to, 31, MPI_COMM_WORLD);
  mark(s, 2);
  rc = MPI_Waitall(2, r, s);
  MPI_Error_class(rc, &eclass);
  CHECK(eclass == MPI_ERR_IN_STATUS, "MPI_Waitall with a truncated receive returned class %d", eclass);
  int e0 = -1, e1 = -1;
  MPI_Error_class(s[0].MPI_ERROR, &e0);
  MPI_Error_class(s[1].MPI_ERROR, &e1);
  CHECK(s[0].MPI_ERROR == MPI_SUCCESS && e1 == MPI_ERR_TRUNCATE, "MPI_ERR_IN_STATUS: MPI_ERROR %d and %d (class %d)",
        s[0].MPI_ERROR, s[1].MPI_ERROR, e1);

  MPI_Waitall(4, sends, MPI_STATUSES_IGNORE);
  int total = 0;
  MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) printf(total ? "%d failed checks\n" : "ok\n", total);
  MPI_Finalize();
  return total != 0;
}
