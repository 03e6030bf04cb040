/* The four micro-benchmarks of [Lee 1999] §6.2, as MPI programs:
 *   ping  ranks 0, 1: an empty message 0 -> 1, an empty reply 1 -> 0; latency until the reply is in
 *   rpc   ranks 0, 1: one message of 9 words (an instruction pointer and 8 arguments) 0 -> 1;
 *         latency until rank 1 has it (where the spawned thread would start)
 *   dist  ranks 0..8: 8 such messages from rank 0, one to each of ranks 1..8 (4 arguments shared,
 *         4 per receiver); latency until the last receiver has its message
 *   blkw  ranks 0, 1: 1024 words from rank 0's memory to rank 1's (the library splits them into
 *         the network's messages); latency until the last word is at rank 1
 * Every rank starts at once after MPI_Init, with no other traffic, so that the run's adapter
 * statistics are those of the benchmark alone. Each rank prints when its part ended:
 *   "<bench> rank R start_cycles=S end_cycles=E"
 * The latency is the last end minus rank 0's start (the sim's clock is global); nothing else is
 * sent, so a run's adapter statistics (the report's adapter_stats) are the benchmark's alone.
 * usage: microbench ping|rpc|dist|blkw */
#include <mpi.h>

#include <stdio.h>
#include <string.h>

static long long cycles(double t) { return (long long)(t / MPI_Wtick() + 0.5); }

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const char* bench = argc > 1 ? argv[1] : "ping";
  const int ping = !strcmp(bench, "ping"), rpc = !strcmp(bench, "rpc"), dist = !strcmp(bench, "dist"),
            blkw = !strcmp(bench, "blkw");
  const int needed = dist ? 9 : 2;
  if (!(ping || rpc || dist || blkw)) {
    if (rank == 0) fprintf(stderr, "microbench: unknown benchmark '%s' (ping, rpc, dist, blkw)\n", bench);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  if (size < needed) {
    if (rank == 0) fprintf(stderr, "microbench: %s needs %d ranks, got %d\n", bench, needed, size);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  static long long block[1024];
  long long words[9] = {0};
  const double start = MPI_Wtime();
  double end = start;
  if (ping) {
    if (rank == 0) {
      MPI_Send(NULL, 0, MPI_LONG_LONG, 1, 1, MPI_COMM_WORLD);
      MPI_Recv(NULL, 0, MPI_LONG_LONG, 1, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      end = MPI_Wtime();
    } else if (rank == 1) {
      MPI_Recv(NULL, 0, MPI_LONG_LONG, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(NULL, 0, MPI_LONG_LONG, 0, 2, MPI_COMM_WORLD);
    }
  } else if (rpc || dist) {
    const int receivers = rpc ? 1 : 8;
    if (rank == 0) {
      words[0] = 0x1000; /* the instruction pointer of the code to spawn */
      for (int a = 1; a <= 4; ++a) words[a] = a;  /* arguments shared by every child */
      for (int d = 1; d <= receivers; ++d) {
        for (int a = 5; a <= 8; ++a) words[a] = d * 100 + a;  /* this child's own seeds */
        MPI_Send(words, 9, MPI_LONG_LONG, d, 1, MPI_COMM_WORLD);
      }
      end = MPI_Wtime();
    } else if (rank <= receivers) {
      MPI_Recv(words, 9, MPI_LONG_LONG, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      end = MPI_Wtime();
      if (words[0] != 0x1000 || words[8] != rank * 100 + 8) {
        fprintf(stderr, "microbench: rank %d got a wrong message\n", rank);
        MPI_Abort(MPI_COMM_WORLD, 1);
      }
    }
  } else {
    if (rank == 0) {
      for (int i = 0; i < 1024; ++i) block[i] = i * 7;
      MPI_Send(block, 1024, MPI_LONG_LONG, 1, 1, MPI_COMM_WORLD);
      end = MPI_Wtime();
    } else if (rank == 1) {
      MPI_Recv(block, 1024, MPI_LONG_LONG, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      end = MPI_Wtime();
      for (int i = 0; i < 1024; ++i)
        if (block[i] != i * 7) {
          fprintf(stderr, "microbench: word %d arrived wrong\n", i);
          MPI_Abort(MPI_COMM_WORLD, 1);
        }
    }
  }
  if (rank < needed) printf("%s rank %d start_cycles=%lld end_cycles=%lld\n", bench, rank, cycles(start), cycles(end));
  MPI_Finalize();
  return 0;
}
