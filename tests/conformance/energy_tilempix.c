/* TILEMPIX_Energy (issue 37): the energy a rank has spent so far, as MPI_Wtime returns its time.
 * On the sim transport it never decreases, a send raises the sender's, and a rank that sends
 * more gets more; on the host transport (no model) it is 0.0 throughout. Prints each rank's
 * energies at full precision, so that two runs with --compute none can be compared
 * (sim.determinism.energy). */
#include <string.h>

#include "conformance_check.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  char transport[64] = "";
  TILEMPIX_Transport_name(transport, (int)sizeof transport);
  const int modeled = strcmp(transport, "sim") == 0;

  double last = TILEMPIX_Energy();
  CHECK(last >= 0.0, "energy %g at the start is negative", last);
  if (!modeled) CHECK(last == 0.0, "energy %g on the %s transport, which models none", last, transport);
  /* Rank 0 sends 8 messages of 4 KiB to rank 1, rank 2 one of 8 bytes to rank 3, the others
     nothing: the energy never falls, and a send raises its sender's. */
  static char buf[4096];
  const int messages = rank == 0 ? 8 : rank == 2 ? 1 : 0;
  const int bytes = rank == 0 ? (int)sizeof buf : 8;
  for (int i = 0; i < messages; ++i) {
    MPI_Send(buf, bytes, MPI_BYTE, rank + 1, 5, MPI_COMM_WORLD);
    const double now = TILEMPIX_Energy();
    if (modeled) CHECK(now > last, "send %d: energy %.17g after it, %.17g before", i, now, last);
    else CHECK(now == 0.0, "energy %g on the %s transport", now, transport);
    last = now;
  }
  if (rank == 1)
    for (int i = 0; i < 8; ++i) MPI_Recv(buf, (int)sizeof buf, MPI_BYTE, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  if (rank == 3) MPI_Recv(buf, 8, MPI_BYTE, 2, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  double now = TILEMPIX_Energy();
  CHECK(now >= last, "energy fell from %.17g to %.17g", last, now);
  last = now;
  MPI_Barrier(MPI_COMM_WORLD);
  now = TILEMPIX_Energy();
  CHECK(now >= last, "energy fell from %.17g to %.17g across a barrier", last, now);

  double all[64] = {0};
  if (size <= 64) {
    MPI_Allgather(&now, 1, MPI_DOUBLE, all, 1, MPI_DOUBLE, MPI_COMM_WORLD);
    if (modeled && size >= 4) {
      CHECK(all[0] > all[2], "rank 0 sent 32 KiB and spent %.17g J, rank 2 sent 8 bytes and spent %.17g J", all[0], all[2]);
      CHECK(all[2] > 0.0, "rank 2 sent a message and spent nothing");
    }
    if (!modeled)
      for (int r = 0; r < size; ++r) CHECK(all[r] == 0.0, "rank %d: energy %g on the %s transport", r, all[r], transport);
  }
  /* Monotone across everything that came since (the allgather). */
  const double end = TILEMPIX_Energy();
  CHECK(end >= now, "energy fell from %.17g to %.17g", now, end);
  /* One line, from rank 0 (ranks as processes interleave their output in any order). */
  if (rank == 0 && size <= 64) {
    printf("energy after the barrier, per rank:");
    for (int r = 0; r < size; ++r) printf(" %.17g", all[r]);
    printf(" J\n");
  }
  MPI_Finalize();
  /* Outside MPI_Init .. MPI_Finalize there is no model to ask. */
  CHECK(TILEMPIX_Energy() == 0.0, "energy %g after MPI_Finalize", TILEMPIX_Energy());
  return failures ? 1 : 0;
}
