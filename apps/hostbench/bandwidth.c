/* Streaming bandwidth as in osu_bw, or bidirectional as in osu_bibw (-b): rank 0 posts a
 * window of MPI_Isend (default 64) and waits for them, rank 1 posts as many MPI_Irecv; after
 * each window rank 1 answers with a 4-byte acknowledgement. With -b both ranks post a window of
 * receives and a window of sends each round. Prints "<bytes> <MB/s>" (10^6 bytes per second,
 * both directions counted with -b) per size from MIN (default 1) to MAX (default 4 MiB). */
#include "hostbench.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size, bi = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int argc2 = 0;
  char** argv2 = malloc(sizeof(char*) * (size_t)(argc + 1));
  for (int i = 0; i < argc; ++i) {
    if (!strcmp(argv[i], "-b")) bi = 1;
    else argv2[argc2++] = argv[i];
  }
  hb_options o = {1, 4u << 20, 0, -1, 64};
  if (hb_parse(argc2, argv2, &o, "-b: bidirectional. Bandwidth (MB/s) between ranks 0 and 1") != 0 || size < 2) {
    if (size < 2 && rank == 0) fprintf(stderr, "bandwidth needs two ranks\n");
    MPI_Finalize();
    return 2;
  }
  const int w = o.window;
  const size_t cap = hb_window_bytes(&o);
  char* sbuf = hb_buffer(cap, 'a');
  char* rbuf = hb_buffer(cap, 'b');
  MPI_Request* req = malloc(sizeof(MPI_Request) * 2 * (size_t)w);
  int ack = 0;
  if (rank == 0) printf("# %s bandwidth, MB/s, window %d\n", bi ? "bidirectional" : "streaming", w);
  for (size_t bytes = o.min_bytes; bytes <= o.max_bytes; bytes = hb_next(bytes)) {
    if (bytes == 0) continue;
    const int iters = hb_iters(&o, bytes, 1000, 50), warmup = hb_warmup(&o, iters);
    const int n = (int)bytes;
    double t0 = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    for (int i = 0; i < iters + warmup; ++i) {
      if (i == warmup) t0 = MPI_Wtime();
      if (rank > 1) continue;
      const int peer = 1 - rank;
      int k = 0;
      /* Each message of a window in its own part of the buffer while the window fits in it. */
      if (bi || rank == 1)
        for (int j = 0; j < w; ++j) MPI_Irecv(rbuf + hb_slot(cap, bytes, j), n, MPI_CHAR, peer, 10, MPI_COMM_WORLD, &req[k++]);
      if (bi || rank == 0)
        for (int j = 0; j < w; ++j) MPI_Isend(sbuf + hb_slot(cap, bytes, j), n, MPI_CHAR, peer, 10, MPI_COMM_WORLD, &req[k++]);
      MPI_Waitall(k, req, MPI_STATUSES_IGNORE);
      if (rank == 0) MPI_Recv(&ack, 1, MPI_INT, 1, 11, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      else MPI_Send(&ack, 1, MPI_INT, 0, 11, MPI_COMM_WORLD);
    }
    const double t = MPI_Wtime() - t0;
    if (rank == 0) printf("%zu %.1f\n", bytes, (double)bytes * w * iters * (bi ? 2 : 1) / t / 1e6);
    fflush(stdout);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  free(sbuf);
  free(rbuf);
  free(req);
  free(argv2);
  MPI_Finalize();
  return 0;
}
