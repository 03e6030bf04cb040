/* MPI_Cancel (MPI-3.1 §3.8.4): a wait on a request marked for cancellation returns whatever the
 * other ranks do, and then either the cancel succeeded (MPI_Test_cancelled true, and the message
 * is never received) or the communication completed (the message is received), never both.
 * Ranks pair up (0 with 1, 2 with 3, ...; an odd last rank only joins the barriers): the lower
 * sends, the higher receives.
 *   1. a large send (beyond any eager limit) that no receive matches, and a synchronous send
 *      that none matches: cancelled, and the receiver never sees them;
 *   2. a large send the receiver may or may not have matched when the cancel comes: either the
 *      send is cancelled and the receive is not satisfied by it, or the receive gets its data;
 *   3. three receives, the middle one cancelled before any message arrives: the other two get
 *      their messages, the cancelled one is cancelled, and a message for its tag sent later goes
 *      to a receive posted later. */
#include <stdlib.h>
#include <string.h>

#include "conformance_check.h"

#define BIG (1 << 18) /* ints: 1 MiB, beyond any eager limit */

static int check_data(const int* got, int n, int seed) {
  for (int i = 0; i < n; ++i)
    if (got[i] != seed + i) return i;
  return -1;
}

static void fill(int* buf, int n, int seed) {
  for (int i = 0; i < n; ++i) buf[i] = seed + i;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int paired = rank < size - size % 2;
  const int sender = paired && rank % 2 == 0, receiver = paired && rank % 2 == 1;
  const int peer = sender ? rank + 1 : rank - 1;
  int* out = malloc(BIG * sizeof(int));
  int* in = malloc(BIG * sizeof(int));
  fill(out, BIG, 1000 * rank);
  MPI_Status st;
  int flag = -1;

  /* 1. Sends nothing matches. */
  if (sender) {
    MPI_Request r;
    MPI_Isend(out, BIG, MPI_INT, peer, 10, MPI_COMM_WORLD, &r);
    MPI_Cancel(&r);
    MPI_Wait(&r, &st);
    MPI_Test_cancelled(&st, &flag);
    CHECK(flag == 1, "large send nothing matches: MPI_Test_cancelled %d, want 1", flag);
    int small = 7;
    MPI_Issend(&small, 1, MPI_INT, peer, 11, MPI_COMM_WORLD, &r);
    MPI_Cancel(&r);
    MPI_Wait(&r, &st);
    MPI_Test_cancelled(&st, &flag);
    CHECK(flag == 1, "synchronous send nothing matches: MPI_Test_cancelled %d, want 1", flag);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (receiver) {
    /* The senders' waits have returned: a cancelled message is gone for good. */
    MPI_Iprobe(peer, 10, MPI_COMM_WORLD, &flag, &st);
    CHECK(flag == 0, "a cancelled large send can still be probed");
    MPI_Iprobe(peer, 11, MPI_COMM_WORLD, &flag, &st);
    CHECK(flag == 0, "a cancelled synchronous send can still be probed");
  }
  MPI_Barrier(MPI_COMM_WORLD);

  /* 2. A send whose receive is posted: cancelled or received, not both. The sender says which. */
  if (receiver) {
    MPI_Request r;
    memset(in, 0, BIG * sizeof(int));
    MPI_Irecv(in, BIG, MPI_INT, peer, 20, MPI_COMM_WORLD, &r);
    int cancelled = -1;
    MPI_Recv(&cancelled, 1, MPI_INT, peer, 21, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (cancelled) {
      /* Nothing else is sent with tag 20: the receive can only be cancelled now. */
      MPI_Cancel(&r);
      MPI_Wait(&r, &st);
      MPI_Test_cancelled(&st, &flag);
      CHECK(flag == 1, "the send was cancelled, yet its receive got a message");
    } else {
      MPI_Wait(&r, &st);
      MPI_Test_cancelled(&st, &flag);
      int count = -1;
      MPI_Get_count(&st, MPI_INT, &count);
      const int bad = check_data(in, BIG, 1000 * peer);
      CHECK(flag == 0 && count == BIG && bad < 0, "the send was not cancelled: receive cancelled %d count %d, "
            "first wrong int %d", flag, count, bad);
    }
  } else if (sender) {
    MPI_Request r;
    MPI_Isend(out, BIG, MPI_INT, peer, 20, MPI_COMM_WORLD, &r);
    MPI_Cancel(&r);
    MPI_Wait(&r, &st);
    MPI_Test_cancelled(&st, &flag);
    MPI_Send(&flag, 1, MPI_INT, peer, 21, MPI_COMM_WORLD);
  }
  MPI_Barrier(MPI_COMM_WORLD);

  /* 3. The middle of three receives cancelled. */
  if (receiver) {
    int* part[3] = {in, in + BIG / 4, in + BIG / 2};
    const int n = BIG / 4;
    MPI_Request r[3];
    MPI_Status s[3];
    for (int i = 0; i < 3; ++i) MPI_Irecv(part[i], n, MPI_INT, peer, 30 + i, MPI_COMM_WORLD, &r[i]);
    MPI_Cancel(&r[1]);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Waitall(3, r, s);
    for (int i = 0; i < 3; ++i) {
      MPI_Test_cancelled(&s[i], &flag);
      CHECK(flag == (i == 1), "receive %d of 3: MPI_Test_cancelled %d, want %d", i, flag, i == 1);
    }
    CHECK(check_data(part[0], n, 1000 * peer) < 0 && check_data(part[2], n, 1000 * peer + 2) < 0,
          "the receives not cancelled got wrong data");
    MPI_Recv(part[1], n, MPI_INT, peer, 31, MPI_COMM_WORLD, &st);
    CHECK(check_data(part[1], n, 1000 * peer + 1) < 0, "tag 31 after the cancel: wrong data");
  } else {
    MPI_Barrier(MPI_COMM_WORLD);
    if (sender) {
      const int n = BIG / 4;
      for (int i = 0; i < 3; i += 2) {
        fill(out, n, 1000 * rank + i);
        MPI_Send(out, n, MPI_INT, peer, 30 + i, MPI_COMM_WORLD);
      }
      fill(out, n, 1000 * rank + 1);
      MPI_Send(out, n, MPI_INT, peer, 31, MPI_COMM_WORLD);
    }
  }

  free(out);
  free(in);
  int total = 0;
  MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) printf(total ? "%d failed checks\n" : "ok\n", total);
  MPI_Finalize();
  return total != 0;
}
