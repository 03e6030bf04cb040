/* Point-to-point benchmark in the style of the OSU micro-benchmarks: one-way latency (half the
 * round trip of a blocking ping-pong) and streaming bandwidth (a window of non-blocking sends
 * answered by one short acknowledgement), for sizes from 0 bytes to a maximum.
 *
 *   tilempi-pingpong [-m MAX_BYTES] [-i ITERATIONS] [-w WINDOW] [-x WARMUP] [-t lat|bw|both] [-h]
 *
 * Runs on exactly two ranks (others, if any, wait at the final barrier). Only standard MPI:
 * the same file builds with tilempicc or with another MPI's mpicc. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { TAG_DATA = 1, TAG_ACK = 2 };

static int iterations_for(size_t size, int base) {
  if (base > 0) return base;
  if (size <= 8192) return 10000;
  if (size <= 131072) return 1000;
  return 100;
}

static void usage(FILE* out, const char* prog) {
  fprintf(out, "usage: %s [-m MAX_BYTES] [-i ITERATIONS] [-w WINDOW] [-x WARMUP] [-t lat|bw|both]\n", prog);
}

int main(int argc, char** argv) {
  size_t max_bytes = 4u << 20;
  int iters_opt = 0, window = 64, warmup_opt = -1;
  const char* what = "both";
  int rank, size;

  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "-m") && i + 1 < argc) max_bytes = strtoull(argv[++i], NULL, 10);
    else if (!strcmp(argv[i], "-i") && i + 1 < argc) iters_opt = atoi(argv[++i]);
    else if (!strcmp(argv[i], "-w") && i + 1 < argc) window = atoi(argv[++i]);
    else if (!strcmp(argv[i], "-x") && i + 1 < argc) warmup_opt = atoi(argv[++i]);
    else if (!strcmp(argv[i], "-t") && i + 1 < argc) what = argv[++i];
    else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
      if (rank == 0) {
        usage(stdout, argv[0]);
        printf("One-way latency (half a blocking round trip) and streaming bandwidth (a window of\n"
               "nonblocking sends, then a 1-byte acknowledgement) between ranks 0 and 1, for sizes\n"
               "from 0 (latency) or 1 (bandwidth) byte doubling up to MAX_BYTES (default 4194304).\n"
               "Run it with two ranks: tilempirun -n 2 %s\n", argv[0]);
      }
      MPI_Finalize();
      return 0;
    } else {
      if (rank == 0) usage(stderr, argv[0]);
      MPI_Finalize();
      return 2;
    }
  }
  if (size < 2) {
    if (rank == 0) fprintf(stderr, "pingpong needs two ranks\n");
    MPI_Finalize();
    return 2;
  }
  if (window < 1) window = 1;

  char* sbuf = malloc(max_bytes ? max_bytes : 1);
  char* rbuf = malloc(max_bytes ? max_bytes : 1);
  MPI_Request* reqs = malloc(sizeof(MPI_Request) * (size_t)window);
  MPI_Status* stats = malloc(sizeof(MPI_Status) * (size_t)window);
  memset(sbuf, 'a', max_bytes ? max_bytes : 1);
  memset(rbuf, 'b', max_bytes ? max_bytes : 1);
  const int peer = rank == 0 ? 1 : 0;
  const int active = rank < 2;

  if (strcmp(what, "bw") != 0) {
    if (rank == 0) printf("# one-way latency (half round trip)\n# %-10s %14s\n", "Size", "Latency (us)");
    for (size_t s = 0; s <= max_bytes; s = s ? s * 2 : 1) {
      const int iters = iterations_for(s, iters_opt);
      const int warmup = warmup_opt >= 0 ? warmup_opt : iters / 10;
      MPI_Barrier(MPI_COMM_WORLD);
      double t0 = 0;
      if (active) {
        for (int i = 0; i < warmup + iters; ++i) {
          if (i == warmup) t0 = MPI_Wtime();
          if (rank == 0) {
            MPI_Send(sbuf, (int)s, MPI_CHAR, peer, TAG_DATA, MPI_COMM_WORLD);
            MPI_Recv(rbuf, (int)s, MPI_CHAR, peer, TAG_DATA, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
          } else {
            MPI_Recv(rbuf, (int)s, MPI_CHAR, peer, TAG_DATA, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(sbuf, (int)s, MPI_CHAR, peer, TAG_DATA, MPI_COMM_WORLD);
          }
        }
      }
      if (rank == 0) {
        double us = (MPI_Wtime() - t0) * 1e6 / (2.0 * iters);
        printf("  %-10zu %14.3f\n", s, us);
        fflush(stdout);
      }
    }
  }

  if (strcmp(what, "lat") != 0) {
    if (rank == 0) printf("# bandwidth (window of %d non-blocking sends)\n# %-10s %14s\n", window, "Size", "MB/s");
    for (size_t s = 1; s <= max_bytes; s *= 2) {
      const int iters = iterations_for(s, iters_opt) / 10 + 1;
      const int warmup = warmup_opt >= 0 ? warmup_opt : iters / 10 + 1;
      MPI_Barrier(MPI_COMM_WORLD);
      double t0 = 0;
      if (active) {
        for (int i = 0; i < warmup + iters; ++i) {
          if (i == warmup) t0 = MPI_Wtime();
          if (rank == 0) {
            for (int w = 0; w < window; ++w) MPI_Isend(sbuf, (int)s, MPI_CHAR, peer, TAG_DATA, MPI_COMM_WORLD, &reqs[w]);
            MPI_Waitall(window, reqs, stats);
            MPI_Recv(rbuf, 1, MPI_CHAR, peer, TAG_ACK, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
          } else {
            for (int w = 0; w < window; ++w) MPI_Irecv(rbuf, (int)s, MPI_CHAR, peer, TAG_DATA, MPI_COMM_WORLD, &reqs[w]);
            MPI_Waitall(window, reqs, stats);
            MPI_Send(sbuf, 1, MPI_CHAR, peer, TAG_ACK, MPI_COMM_WORLD);
          }
        }
      }
      if (rank == 0) {
        double secs = MPI_Wtime() - t0;
        printf("  %-10zu %14.1f\n", s, (double)s * window * iters / secs / 1e6);
        fflush(stdout);
      }
    }
  }

  free(stats);
  free(reqs);
  free(rbuf);
  free(sbuf);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
