/* A rank that polls with MPI_Test gives its core away to a rank that shares it.
 *
 * Both ranks move to the same CPU and run SCHED_FIFO at the same priority, where the kernel never
 * takes the core from a running task for another of its priority: only the task itself can give
 * it up. Rank 1 goes first, says so, and waits for rank 0's "go" to answer it; rank 0 then posts
 * its receive of the answer, sends "go" (which wakes rank 1, queued behind rank 0 on the CPU) and
 * polls the receive with MPI_Test. Unless a test that finds nothing gives the core away every so
 * often, rank 1 never runs and the job never ends (the launcher's timeout fails it): the kernel's
 * real-time throttling stops both ranks alike, and rank 0 goes on first after it. TILEMPI_HOST_POLL_YIELD=32 is set
 * by the test, since 2 ranks on a machine of 2 or more cores do not share cores by themselves.
 * Where SCHED_FIFO is not allowed it prints "SKIPPED". */
#define _GNU_SOURCE
#include <mpi.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

static int to_fifo(int cpu) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  if (sched_setaffinity(0, sizeof set, &set) != 0) return -1;
  struct sched_param p;
  memset(&p, 0, sizeof p);
  p.sched_priority = 1;
  return sched_setscheduler(0, SCHED_FIFO, &p);
}

static void to_normal(void) {
  struct sched_param p;
  memset(&p, 0, sizeof p);
  sched_setscheduler(0, SCHED_OTHER, &p);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != 2) {
    if (rank == 0) fprintf(stderr, "poll_yield: needs 2 ranks\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  /* Can this process run SCHED_FIFO at all? Both must, or neither tries. */
  struct sched_param p;
  memset(&p, 0, sizeof p);
  p.sched_priority = 1;
  int ok = sched_setscheduler(0, SCHED_FIFO, &p) == 0, all = 0;
  to_normal();
  MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (!all) {
    if (rank == 0) printf("SKIPPED: SCHED_FIFO is not allowed here\n");
    MPI_Finalize();
    return 0;
  }
  int cpu = sched_getcpu();
  MPI_Bcast(&cpu, 1, MPI_INT, 0, MPI_COMM_WORLD);
  int failures = 0;
  if (rank == 1) {
    if (to_fifo(cpu) != 0) failures++;
    int ready = 1, go = 0, answer = 42;
    MPI_Send(&ready, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);  /* only then may rank 0 take the CPU */
    MPI_Recv(&go, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(&answer, 1, MPI_INT, 0, 2, MPI_COMM_WORLD);
    to_normal();
  } else {
    /* Rank 1 first: were it still SCHED_OTHER when this rank polls at SCHED_FIFO, no yield
     * could let it run (the kernel's real-time throttling would, after most of a second). */
    int ready = 0;
    MPI_Recv(&ready, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (to_fifo(cpu) != 0) failures++;
    int go = 1, answer = 0, flag = 0;
    long tests = 0;
    MPI_Request r;
    MPI_Irecv(&answer, 1, MPI_INT, 1, 2, MPI_COMM_WORLD, &r);
    MPI_Send(&go, 1, MPI_INT, 1, 1, MPI_COMM_WORLD);
    while (!flag) {
      MPI_Test(&r, &flag, MPI_STATUS_IGNORE);
      ++tests;
    }
    to_normal();
    if (answer != 42) {
      printf("rank 0: answer %d, not 42\n", answer);
      failures++;
    }
    printf("rank 0: the answer came after %ld tests\n", tests);
  }
  int any = 0;
  MPI_Allreduce(&failures, &any, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) printf(any ? "FAILED\n" : "PASSED\n");
  MPI_Finalize();
  return any ? 1 : 0;
}
