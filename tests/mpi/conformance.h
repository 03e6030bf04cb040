// Helpers of the conformance programs (tests/mpi/conformance_*.cpp): each bad call is checked
// for its MPI error class under MPI_ERRORS_RETURN. A wrong class does not stop the program at
// once: every mismatch is printed (rank, line, call, class got and expected) and the program
// fails at the end, so one run lists every wrong class. Every rank makes the same bad calls,
// so a collective with a bad argument is bad everywhere and nothing waits for a partner.
#pragma once

#include <mpi.h>

#include <cstdio>
#include <cstdlib>

namespace conformance {

inline int& mismatches() {
  static int n = 0;
  return n;
}
inline int& checks() {
  static int n = 0;
  return n;
}

inline int error_class_of(int rc) {
  int cls = rc;
  if (rc != MPI_SUCCESS) MPI_Error_class(rc, &cls);
  return cls;
}

inline void expect_class(int rc, int want, const char* call, int line) {
  ++checks();
  const int got = error_class_of(rc);
  if (got == want) return;
  int rank = -1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  std::fprintf(stderr, "rank %d: line %d: %s returned class %d, expected %d\n", rank, line, call, got, want);
  std::fflush(stderr);
  ++mismatches();
}

// The library is still usable after the errors: a ring exchange and an allreduce on the world.
inline void expect_usable(int line) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int out = rank, in = -1;
  expect_class(MPI_Sendrecv(&out, 1, MPI_INT, (rank + 1) % size, 3, &in, 1, MPI_INT, (rank + size - 1) % size, 3,
                            MPI_COMM_WORLD, MPI_STATUS_IGNORE),
               MPI_SUCCESS, "usable: MPI_Sendrecv", line);
  int sum = 0;
  expect_class(MPI_Allreduce(&in, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD), MPI_SUCCESS, "usable: MPI_Allreduce", line);
  if (in != (rank + size - 1) % size || sum != size * (size - 1) / 2) {
    std::fprintf(stderr, "rank %d: line %d: wrong data after the errors\n", rank, line);
    ++mismatches();
  }
}

// Ends the program: 0 when every class was right on every rank.
inline int finish(const char* name) {
  int local = mismatches(), total = 0, rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Allreduce(&local, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) std::printf("%s: %d checks per rank, %d wrong\n", name, checks(), total);
  MPI_Finalize();
  return total == 0 ? 0 : 1;
}

}  // namespace conformance

#define EXPECT_CLASS(call, cls) conformance::expect_class((call), (cls), #call, __LINE__)
#define EXPECT_USABLE() conformance::expect_usable(__LINE__)
