// A tiny assertion helper for MPI test programs: a failed check names the rank, the line and
// the condition, then ends the job through MPI_Abort (so the launcher reports it).
#pragma once

#include <mpi.h>

#include <cstdio>

#define CHECK(cond)                                                                      \
  do {                                                                                   \
    if (!(cond)) {                                                                       \
      int check_rank_ = -1;                                                              \
      MPI_Comm_rank(MPI_COMM_WORLD, &check_rank_);                                       \
      std::fprintf(stderr, "rank %d: %s:%d: check failed: %s\n", check_rank_, __FILE__, \
                   __LINE__, #cond);                                                     \
      std::fflush(stderr);                                                               \
      MPI_Abort(MPI_COMM_WORLD, 99);                                                     \
    }                                                                                    \
  } while (0)

#define CHECK_EQ(a, b) CHECK((a) == (b))
