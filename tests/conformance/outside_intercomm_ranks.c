/* Point-to-point ranks on an intercommunicator whose groups differ in size (MPI-3.1 §6.6.1:
 * the source and destination of a send, receive or probe name a member of the remote group).
 * Every world split into a small and a large group: each member sends its rank to every
 * member of the other group and receives (and probes, blocking and not) from each by its
 * explicit rank, so ranks at and above the local group's size are used. Then, under
 * MPI_ERRORS_RETURN, a source that is a local rank but no remote one is MPI_ERR_RANK (a
 * receive that could never match must not be posted). */
#include "conformance_check.h"

static void exchange(MPI_Comm inter, int low) {
  int me, local, remote;
  MPI_Comm_rank(inter, &me);
  MPI_Comm_size(inter, &local);
  MPI_Comm_remote_size(inter, &remote);
  /* The low group sends first, so both directions run with every receive by explicit source. */
  for (int phase = 0; phase < 2; ++phase) {
    if ((phase == 0) == low) {
      for (int r = 0; r < remote; ++r) {
        int v = 1000 * me + r;
        CHECK(MPI_Send(&v, 1, MPI_INT, r, 7, inter) == MPI_SUCCESS, "send to remote rank %d", r);
      }
    } else {
      for (int s = remote - 1; s >= 0; --s) {  /* highest first: those at or above local */
        MPI_Status st;
        int flag = 0, v = -1, n = -1;
        CHECK(MPI_Probe(s, 7, inter, &st) == MPI_SUCCESS, "probe source %d (local %d, remote %d)", s,
              local, remote);
        CHECK(st.MPI_SOURCE == s, "probe of %d says source %d", s, st.MPI_SOURCE);
        CHECK(MPI_Iprobe(s, 7, inter, &flag, &st) == MPI_SUCCESS && flag, "iprobe source %d", s);
        CHECK(MPI_Recv(&v, 1, MPI_INT, s, 7, inter, &st) == MPI_SUCCESS, "recv source %d", s);
        MPI_Get_count(&st, MPI_INT, &n);
        CHECK(v == 1000 * s + me && st.MPI_SOURCE == s && n == 1,
              "recv from remote %d: value %d source %d count %d (want %d)", s, v, st.MPI_SOURCE, n,
              1000 * s + me);
      }
    }
  }
  if (local > remote) {
    /* A rank of the local group only: no process can ever send from there. */
    MPI_Request req = MPI_REQUEST_NULL;
    int v, rc = MPI_Irecv(&v, 1, MPI_INT, remote, 7, inter, &req);
    int cls = -1;
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_RANK, "irecv from %d with a remote group of %d: class %d, want MPI_ERR_RANK", remote,
          remote, cls);
    if (rc == MPI_SUCCESS) {
      MPI_Cancel(&req);
      MPI_Wait(&req, MPI_STATUS_IGNORE);
    }
    int flag = 1;
    MPI_Status st;
    rc = MPI_Iprobe(remote, 7, inter, &flag, &st);
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_RANK, "iprobe of %d with a remote group of %d: class %d, want MPI_ERR_RANK", remote,
          remote, cls);
  }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  for (int first = 1; first < size; ++first) {  /* groups of first and size - first ranks */
    int low = rank < first;
    MPI_Comm local, inter;
    MPI_Comm_split(MPI_COMM_WORLD, low, rank, &local);
    MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, low ? first : 0, 40 + first, &inter);
    MPI_Comm_set_errhandler(inter, MPI_ERRORS_RETURN);
    exchange(inter, low);
    MPI_Comm_free(&inter);
    MPI_Comm_free(&local);
  }
  int all = 0;
  MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) printf(all ? "%d failed checks\n" : "ok\n", all);
  MPI_Finalize();
  return all ? 1 : 0;
}
