// MPI_THREAD_MULTIPLE: several threads per rank call MPI at once. Each thread has a communicator
// of its own (a duplicate of the world made before the threads start) and runs rounds of
// point-to-point (a ring exchange by Isend/Recv, then an MPI_ANY_SOURCE receive from the left
// neighbour and a synchronous send) and collectives (Allreduce, Bcast, Barrier, Iallreduce) on
// it; every result is checked. A thread that waits inside MPI must let the others in, or the
// ranks would deadlock here. On a transport that does not provide MULTIPLE (the sim: see
// MPI_Init_thread), the program checks the level it got and what it says it is, and stops there.
#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

#include "check.h"

namespace {

constexpr int kThreads = 3;
constexpr int kRounds = 40;

void work(int t, MPI_Comm comm, int rank, int size) {
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;
  for (int round = 0; round < kRounds; ++round) {
    const int mine = 1000 * rank + 10 * t + round % 10;
    int got = -1;
    MPI_Request req;
    CHECK(MPI_Isend(&mine, 1, MPI_INT, right, round, comm, &req) == MPI_SUCCESS);
    CHECK(MPI_Recv(&got, 1, MPI_INT, left, round, comm, MPI_STATUS_IGNORE) == MPI_SUCCESS);
    CHECK(MPI_Wait(&req, MPI_STATUS_IGNORE) == MPI_SUCCESS);
    CHECK(got == 1000 * left + 10 * t + round % 10);
    MPI_Status st;
    CHECK(MPI_Irecv(&got, 1, MPI_INT, MPI_ANY_SOURCE, 7, comm, &req) == MPI_SUCCESS);
    CHECK(MPI_Ssend(&mine, 1, MPI_INT, right, 7, comm) == MPI_SUCCESS);
    CHECK(MPI_Wait(&req, &st) == MPI_SUCCESS && st.MPI_SOURCE == left);
    long sum = 0, v = rank + t;
    CHECK(MPI_Allreduce(&v, &sum, 1, MPI_LONG, MPI_SUM, comm) == MPI_SUCCESS);
    CHECK(sum == static_cast<long>(size) * (size - 1) / 2 + static_cast<long>(size) * t);
    int b = rank == round % size ? round + t : -1;
    CHECK(MPI_Bcast(&b, 1, MPI_INT, round % size, comm) == MPI_SUCCESS && b == round + t);
    if (round % 8 == 0) CHECK(MPI_Barrier(comm) == MPI_SUCCESS);
    long isum = 0;
    CHECK(MPI_Iallreduce(&v, &isum, 1, MPI_LONG, MPI_MAX, comm, &req) == MPI_SUCCESS);
    CHECK(MPI_Wait(&req, MPI_STATUS_IGNORE) == MPI_SUCCESS && isum == size - 1 + t);
  }
}

}  // namespace

int main(int argc, char** argv) {
  int provided = -1;
  CHECK(MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided) == MPI_SUCCESS);
  int rank = 0, size = 0, level = -1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  CHECK(MPI_Query_thread(&level) == MPI_SUCCESS && level == provided);
  const bool want_multiple = argc > 1 && std::atoi(argv[1]) == 1;  // "1": the transport must provide it
  if (provided != MPI_THREAD_MULTIPLE) {
    CHECK(!want_multiple);
    CHECK(provided == MPI_THREAD_FUNNELED);
    if (rank == 0) std::printf("threads_suite: provided level %d (not MULTIPLE): nothing more to test\n", provided);
    MPI_Finalize();
    return 0;
  }
  std::vector<MPI_Comm> comms(kThreads);
  for (auto& c : comms) CHECK(MPI_Comm_dup(MPI_COMM_WORLD, &c) == MPI_SUCCESS);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) threads.emplace_back(work, t, comms[static_cast<std::size_t>(t)], rank, size);
  for (auto& th : threads) th.join();
  for (auto& c : comms) MPI_Comm_free(&c);
  // Threads that share one communicator: point-to-point told apart by tag.
  threads.clear();
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([t, rank, size] {
      for (int round = 0; round < kRounds; ++round) {
        int out = rank * 100 + t, in = -1;
        CHECK(MPI_Sendrecv(&out, 1, MPI_INT, (rank + 1) % size, t, &in, 1, MPI_INT, (rank + size - 1) % size, t,
                           MPI_COMM_WORLD, MPI_STATUS_IGNORE) == MPI_SUCCESS);
        CHECK(in == ((rank + size - 1) % size) * 100 + t);
      }
    });
  for (auto& th : threads) th.join();
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) std::printf("threads_suite: %d ranks x %d threads: ok\n", size, kThreads);
  MPI_Finalize();
  return 0;
}
