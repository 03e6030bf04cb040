/* Fault injection: a rank of a working job fails at a point drawn from a seed.
 *
 *   fault_rank MODE SEED [TOKEN]
 *
 * Every rank runs rounds of a ring exchange and an allreduce. At round SEED / size % 40 the
 * victims fail, as MODE says:
 *   signal  rank SEED % size raises one of SIGKILL, SIGSEGV, SIGTERM, SIGABRT, SIGBUS, SIGFPE
 *           (chosen by SEED / 7): the job ends with 128 + that signal
 *   exit    rank SEED % size calls exit(3 + SEED % 50) without MPI_Finalize: the job ends with
 *           that status
 *   abort   every rank r with (r + SEED) % 3 != 0 (several at once) calls
 *           MPI_Abort(MPI_COMM_WORLD, 40 + r): the job ends with one of those codes
 *   oom     rank SEED % size limits its address space and allocates until malloc fails, then
 *           aborts as a program does that finds no memory: the job ends with 134 (SIGABRT)
 *   output  every rank prints a line per round without flushing it (stdout is a file), then the
 *           abort case: every line printed before the abort reaches the output
 *   nofinalize  rank SEED % size returns from main without MPI_Finalize while the others wait
 *           for it: the job ends with 1 ("exited without MPI_Finalize")
 *   nonefinalize  every rank returns from main without MPI_Finalize: the job ends with 1
 *   hold    every rank waits 30 s after MPI_Init (poll(2), real time also on the sim): a job
 *           that is still starting or running when scripts/fault.sh kills its launcher
 *   none    nobody fails: the job ends with 0
 * Rank 0 first prints "job=NAME" (the job's shared-memory name) for the cleanliness checks of
 * scripts/fault.sh; TOKEN is unused (it marks the job's processes for pgrep).
 */
#include <mpi.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

static void run_out_of_memory(void) {
  /* Room for a little more than now, then allocate and touch until malloc says no. */
  long pages = 0;
  FILE* f = fopen("/proc/self/statm", "r");
  if (f) {
    if (fscanf(f, "%ld", &pages) != 1) pages = 0;
    fclose(f);
  }
  struct rlimit rl;
  rl.rlim_cur = rl.rlim_max = (rlim_t)pages * (rlim_t)sysconf(_SC_PAGESIZE) + (64u << 20);
  setrlimit(RLIMIT_AS, &rl);
  for (;;) {
    char* p = malloc(1 << 20);
    if (!p) {
      fprintf(stderr, "fault_rank: out of memory\n");
      abort();
    }
    memset(p, 1, 1 << 20);
  }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const char* mode = argc > 1 ? argv[1] : "none";
  const unsigned long seed = argc > 2 ? strtoul(argv[2], NULL, 10) : 0;
  if (rank == 0) {
    const char* job = getenv("TILEMPI_JOB");
    printf("job=%s\n", job ? job : "(none)");
    fflush(stdout);
  }
  if (strcmp(mode, "hold") == 0) poll(NULL, 0, 30000);
  const int victim = (int)(seed % (unsigned long)size);
  const int at = (int)(seed / (unsigned long)size % 40);
  static const int signals[] = {SIGKILL, SIGSEGV, SIGTERM, SIGABRT, SIGBUS, SIGFPE};
  int value = rank, sum = 0;
  const int output = strcmp(mode, "output") == 0;
  if (output) mode = "abort";
  for (int round = 0; round < 60; ++round) {
    if (output) printf("rank %d round %d\n", rank, round);  /* held in stdio's buffer */
    if (round == at) {
      if (strcmp(mode, "signal") == 0 && rank == victim) {
        const int sig = signals[seed / 7 % 6];
        signal(sig, SIG_DFL);
        raise(sig);
      } else if (strcmp(mode, "exit") == 0 && rank == victim) {
        exit(3 + (int)(seed % 50));
      } else if (strcmp(mode, "abort") == 0 && (rank + seed) % 3 != 0) {
        MPI_Abort(MPI_COMM_WORLD, 40 + rank);
      } else if (strcmp(mode, "oom") == 0 && rank == victim) {
        run_out_of_memory();
      } else if ((strcmp(mode, "nofinalize") == 0 && rank == victim) || strcmp(mode, "nonefinalize") == 0) {
        return 0;
      }
    }
    const int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int got = -1;
    MPI_Sendrecv(&value, 1, MPI_INT, right, round, &got, 1, MPI_INT, left, round, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Allreduce(&got, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (sum != size * (size - 1) / 2) {
      fprintf(stderr, "fault_rank: rank %d: wrong sum %d in round %d\n", rank, sum, round);
      MPI_Abort(MPI_COMM_WORLD, 99);
    }
  }
  MPI_Finalize();
  return 0;
}
