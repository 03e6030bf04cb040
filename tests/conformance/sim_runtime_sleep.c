/* Sleeping in every rank (issue 33): sleep, usleep, nanosleep and clock_nanosleep let at least
 * the slept time pass on MPI_Wtime. On the sim that time is the rank's virtual time (a rank as a
 * context must not stop the other ranks for it, docs/SIM.md): run with the argument "exact",
 * each rank's MPI_Wtime must advance by exactly the time it slept (no compute is charged with
 * --compute none). Rank r sleeps 2 s + r * 0.1 s. */
#define _GNU_SOURCE
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, failures = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const int exact = argc > 1 && strcmp(argv[1], "exact") == 0;
  MPI_Barrier(MPI_COMM_WORLD);

  const double t0 = MPI_Wtime();
  int rc = (int)sleep(1);                                            /* 1 s */
  rc |= usleep(250000);                                              /* 0.25 s */
  const struct timespec half = {0, 500000000};
  rc |= nanosleep(&half, NULL);                                      /* 0.5 s */
  const struct timespec quarter = {0, 250000000};
  rc |= clock_nanosleep(CLOCK_MONOTONIC, 0, &quarter, NULL);        /* 0.25 s */
  rc |= usleep((useconds_t)(rank * 100000));                         /* r * 0.1 s */
  const double t1 = MPI_Wtime();

  const double slept = 2.0 + rank * 0.1, passed = t1 - t0;
  if (rc != 0) {
    printf("rank %d: FAILED: a sleep function returned an error\n", rank);
    ++failures;
  }
  if (passed < slept - 1e-9) {
    printf("rank %d: FAILED: slept %.3f s, MPI_Wtime advanced only %.9f s\n", rank, slept, passed);
    ++failures;
  }
  if (exact && (passed - slept > 1e-6 || slept - passed > 1e-6)) {
    printf("rank %d: FAILED: slept %.3f s, virtual time advanced %.9f s\n", rank, slept, passed);
    ++failures;
  }

  /* An absolute sleep, until 0.5 s from now on the monotonic clock: at least nearly that. */
  struct timespec until;
  clock_gettime(CLOCK_MONOTONIC, &until);
  until.tv_nsec += 500000000;
  if (until.tv_nsec >= 1000000000) {
    until.tv_nsec -= 1000000000;
    until.tv_sec += 1;
  }
  const double t2 = MPI_Wtime();
  if (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &until, NULL) != 0) {
    printf("rank %d: FAILED: clock_nanosleep(TIMER_ABSTIME) returned an error\n", rank);
    ++failures;
  }
  const double absolute = MPI_Wtime() - t2;
  if (absolute < 0.4 || (exact && absolute > 0.5 + 1e-6)) {
    printf("rank %d: FAILED: an absolute sleep of 0.5 s advanced MPI_Wtime by %.9f s\n", rank, absolute);
    ++failures;
  }

  int all = 0;
  MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0 && all == 0) printf("sim_runtime_sleep: ok\n");
  MPI_Finalize();
  return all != 0;
}
