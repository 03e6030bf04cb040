// Communicators and groups through the launcher: dup and split keep traffic apart, ranks and
// sizes follow (color, key), Comm_create from groups, comparisons and rank translation.
#include <mpi.h>

#include <vector>

#include "check.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  // dup: same members, its own context. A message on world and one on the dup with the same
  // tag, received in the opposite order, each reach the right receive.
  MPI_Comm dup;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  int result;
  MPI_Comm_compare(MPI_COMM_WORLD, dup, &result);
  CHECK_EQ(result, MPI_CONGRUENT);
  MPI_Comm_compare(dup, dup, &result);
  CHECK_EQ(result, MPI_IDENT);
  int peer = rank ^ 1;
  if (peer < size) {
    int a = 100 + rank, b = 200 + rank, ra = -1, rb = -1;
    MPI_Request s[2];
    MPI_Isend(&a, 1, MPI_INT, peer, 5, MPI_COMM_WORLD, &s[0]);
    MPI_Isend(&b, 1, MPI_INT, peer, 5, dup, &s[1]);
    MPI_Recv(&rb, 1, MPI_INT, peer, 5, dup, MPI_STATUS_IGNORE);
    MPI_Recv(&ra, 1, MPI_INT, peer, MPI_ANY_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Waitall(2, s, MPI_STATUSES_IGNORE);
    CHECK_EQ(ra, 100 + peer);
    CHECK_EQ(rb, 200 + peer);
  }

  // split: odd and even ranks, keys reversed.
  MPI_Comm half;
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, size - rank, &half);
  int hrank, hsize;
  MPI_Comm_rank(half, &hrank);
  MPI_Comm_size(half, &hsize);
  int members = (size - rank % 2 + 1) / 2;
  CHECK_EQ(hsize, members);
  // Highest world rank first: rank r has (members - 1 - r / 2).
  CHECK_EQ(hrank, members - 1 - rank / 2);
  // A ring inside each half carries the half's own traffic.
  int right = (hrank + 1) % hsize, left = (hrank + hsize - 1) % hsize, got = -1;
  MPI_Sendrecv(&rank, 1, MPI_INT, right, 0, &got, 1, MPI_INT, left, 0, half, MPI_STATUS_IGNORE);
  CHECK_EQ(got % 2, rank % 2);
  MPI_Group world_group, half_group;
  MPI_Comm_group(MPI_COMM_WORLD, &world_group);
  MPI_Comm_group(half, &half_group);
  int zero = 0, in_world;
  MPI_Group_translate_ranks(half_group, 1, &zero, world_group, &in_world);
  // Rank 0 of the half is its highest world rank of that parity.
  int highest = (size - 1) - ((size - 1) % 2 != rank % 2 ? 1 : 0);
  CHECK_EQ(in_world, highest);

  // MPI_UNDEFINED color: no communicator.
  MPI_Comm none;
  MPI_Comm_split(MPI_COMM_WORLD, rank == 0 ? MPI_UNDEFINED : 1, 0, &none);
  if (rank == 0) CHECK_EQ(none, MPI_COMM_NULL);
  else {
    int n;
    MPI_Comm_size(none, &n);
    CHECK_EQ(n, size - 1);
    MPI_Comm_free(&none);
  }

  // Comm_create from a group of the first ceil(size/2) ranks.
  std::vector<int> firsts;
  for (int r = 0; r < (size + 1) / 2; ++r) firsts.push_back(r);
  MPI_Group first_group;
  MPI_Group_incl(world_group, static_cast<int>(firsts.size()), firsts.data(), &first_group);
  int gsize, grank;
  MPI_Group_size(first_group, &gsize);
  MPI_Group_rank(first_group, &grank);
  CHECK_EQ(gsize, (size + 1) / 2);
  CHECK_EQ(grank, rank < gsize ? rank : MPI_UNDEFINED);
  MPI_Comm first;
  MPI_Comm_create(MPI_COMM_WORLD, first_group, &first);
  if (rank < gsize) {
    int n;
    MPI_Comm_size(first, &n);
    CHECK_EQ(n, gsize);
    MPI_Comm_free(&first);
  } else {
    CHECK_EQ(first, MPI_COMM_NULL);
  }
  MPI_Group rest;
  MPI_Group_excl(world_group, static_cast<int>(firsts.size()), firsts.data(), &rest);
  MPI_Group_size(rest, &gsize);
  CHECK_EQ(gsize, size - (size + 1) / 2);
  MPI_Group_compare(world_group, world_group, &result);
  CHECK_EQ(result, MPI_IDENT);

  // Nested: a dup of a split, freed in any order.
  MPI_Comm nested;
  MPI_Comm_dup(half, &nested);
  MPI_Comm_free(&half);
  MPI_Sendrecv(&rank, 1, MPI_INT, right, 1, &got, 1, MPI_INT, left, 1, nested, MPI_STATUS_IGNORE);
  CHECK_EQ(got % 2, rank % 2);
  MPI_Comm_free(&nested);
  MPI_Comm_free(&dup);
  MPI_Group_free(&world_group);
  MPI_Group_free(&half_group);
  MPI_Group_free(&first_group);
  if (rest != MPI_GROUP_EMPTY) MPI_Group_free(&rest);

  int tag_ub_flag;
  int* tag_ub;
  MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &tag_ub, &tag_ub_flag);
  CHECK(tag_ub_flag && *tag_ub >= 32767);
  if (rank == 0) std::printf("comm_suite: ok on %d ranks\n", size);
  MPI_Finalize();
  return 0;
}
