/* One-way latency as in osu_latency: half the round trip of a blocking MPI_Send/MPI_Recv
 * ping-pong between ranks 0 and 1, separate send and receive buffers, after a warm-up.
 * Prints "<bytes> <microseconds>" per size from MIN (default 0) to MAX (default 4 MiB). */
#include "hostbench.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  hb_options o = {0, 4u << 20, 0, -1, 1};
  if (hb_parse(argc, argv, &o, "one-way latency (us) between ranks 0 and 1") != 0 || size < 2) {
    if (size < 2 && rank == 0) fprintf(stderr, "latency needs two ranks\n");
    MPI_Finalize();
    return 2;
  }
  char* sbuf = hb_buffer(o.max_bytes, 'a');
  char* rbuf = hb_buffer(o.max_bytes, 'b');
  if (rank == 0) printf("# one-way latency, us\n");
  for (size_t bytes = o.min_bytes; bytes <= o.max_bytes; bytes = hb_next(bytes)) {
    const int iters = hb_iters(&o, bytes, 20000, 1000), warmup = hb_warmup(&o, iters);
    const int n = (int)bytes;
    double t0 = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    for (int i = 0; i < iters + warmup; ++i) {
      if (i == warmup) t0 = MPI_Wtime();
      if (rank == 0) {
        MPI_Send(sbuf, n, MPI_CHAR, 1, 1, MPI_COMM_WORLD);
        MPI_Recv(rbuf, n, MPI_CHAR, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      } else if (rank == 1) {
        MPI_Recv(rbuf, n, MPI_CHAR, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(sbuf, n, MPI_CHAR, 0, 1, MPI_COMM_WORLD);
      }
    }
    const double t = MPI_Wtime() - t0;
    if (rank == 0) printf("%zu %.4f\n", bytes, t / (2.0 * iters) * 1e6);
    fflush(stdout);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  free(sbuf);
  free(rbuf);
  MPI_Finalize();
  return 0;
}
