/* MPI_Comm_create_group with random subgroups (MPI-3.1 §6.4.2): only the members call it, so
 * creations by different groups overlap in time, and a rank may be in the next creation while
 * the members of the last are still in theirs. Each round shuffles MPI_COMM_WORLD (the same
 * seed everywhere), cuts the order into groups of 2, 4 or 8 (the rest is a smaller group), and
 * every group creates its communicator (with a tag that varies by round), checks its ranks,
 * runs an allreduce and a bcast on it and frees it. Some rounds only one group creates.
 * Then rounds in which each rank is a member at random (one group per round, always tag 0): a
 * non-member goes on to the next round at once, so the members of consecutive rounds, which
 * overlap, create their communicators at the same time with the same tag. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "conformance_check.h"

static unsigned long long seed = 12345;
static int next_random(int n) {
  seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
  return (int)((seed >> 33) % (unsigned long long)n);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Group world_group;
  MPI_Comm_group(MPI_COMM_WORLD, &world_group);
  int* order = malloc(sizeof(int) * (size_t)size);
  const int sizes[3] = {2, 4, 8};
  for (int round = 0; round < 60; ++round) {
    for (int i = 0; i < size; ++i) order[i] = i;
    for (int i = size - 1; i > 0; --i) {
      int j = next_random(i + 1), t = order[i];
      order[i] = order[j];
      order[j] = t;
    }
    const int group_size = sizes[round % 3] < size ? sizes[round % 3] : size;
    const int only_first = round % 5 == 4; /* only the first group creates */
    const int tag = (round * 37) % 1000;
    for (int start = 0; start < size; start += group_size) {
      const int n = start + group_size <= size ? group_size : size - start;
      int me = -1;
      for (int i = 0; i < n; ++i)
        if (order[start + i] == rank) me = i;
      if (me < 0 || (only_first && start > 0)) continue;
      MPI_Group g;
      MPI_Group_incl(world_group, n, order + start, &g);
      MPI_Comm c = MPI_COMM_NULL;
      MPI_Comm_create_group(MPI_COMM_WORLD, g, tag, &c);
      CHECK(c != MPI_COMM_NULL, "round %d: a member got MPI_COMM_NULL", round);
      if (c != MPI_COMM_NULL) {
        int crank = -1, csize = -1;
        MPI_Comm_rank(c, &crank);
        MPI_Comm_size(c, &csize);
        CHECK(crank == me && csize == n, "round %d: rank %d of %d in the new communicator, expected %d of %d", round,
              crank, csize, me, n);
        int sum = 0, want = 0;
        for (int i = 0; i < n; ++i) want += order[start + i];
        MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, c);
        CHECK(sum == want, "round %d: allreduce on the new communicator gave %d, expected %d", round, sum, want);
        int root_rank = rank;
        MPI_Bcast(&root_rank, 1, MPI_INT, n - 1, c);
        CHECK(root_rank == order[start + n - 1], "round %d: bcast from the last member gave %d, expected %d", round,
              root_rank, order[start + n - 1]);
        MPI_Comm_free(&c);
      }
      MPI_Group_free(&g);
    }
  }
  /* One random group per round, the same tag every time. */
  int* members = malloc(sizeof(int) * (size_t)size);
  for (int round = 0; round < 100; ++round) {
    int n = 0, me = -1;
    for (int i = 0; i < size; ++i)
      if (next_random(2)) {
        if (i == rank) me = n;
        members[n++] = i;
      }
    if (me < 0) continue;
    MPI_Group g;
    MPI_Group_incl(world_group, n, members, &g);
    MPI_Comm c = MPI_COMM_NULL;
    MPI_Comm_create_group(MPI_COMM_WORLD, g, 0, &c);
    int crank = -1;
    if (c != MPI_COMM_NULL) MPI_Comm_rank(c, &crank);
    CHECK(crank == me, "random round %d: rank %d in the new communicator, expected %d", round, crank, me);
    if (c != MPI_COMM_NULL) {
      int sum = 0, want = 0;
      for (int i = 0; i < n; ++i) want += members[i];
      MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, c);
      CHECK(sum == want, "random round %d: allreduce on the new communicator gave %d, expected %d", round, sum, want);
      MPI_Barrier(c);
      MPI_Comm_free(&c);
    }
    MPI_Group_free(&g);
  }
  free(members);
  free(order);
  MPI_Group_free(&world_group);
  int all = 0;
  MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0 && all == 0) printf("comm_create_group: all checks passed\n");
  MPI_Finalize();
  return all ? 1 : 0;
}
