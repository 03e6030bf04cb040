/* Multiple-pair message rate as in osu_mbw_mr: the first half of the ranks send to the second
 * half (rank i to i + n/2), each a window of MPI_Isend (default 64) per round answered by a
 * 4-byte acknowledgement. Prints "<bytes> <million messages/s>" (all pairs together) per size
 * from MIN (default 1) to MAX (default 4 MiB). */
#include "hostbench.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  hb_options o = {1, 4u << 20, 0, -1, 64};
  if (hb_parse(argc, argv, &o, "message rate (million messages/s) of n/2 sending pairs") != 0 || size < 2 ||
      size % 2) {
    if ((size < 2 || size % 2) && rank == 0) fprintf(stderr, "msgrate needs an even number of ranks\n");
    MPI_Finalize();
    return 2;
  }
  const int w = o.window, pairs = size / 2, sender = rank < pairs;
  const int peer = sender ? rank + pairs : rank - pairs;
  const size_t cap = hb_window_bytes(&o);
  char* buf = hb_buffer(cap, sender ? 'a' : 'b');
  MPI_Request* req = malloc(sizeof(MPI_Request) * (size_t)w);
  int ack = 0;
  if (rank == 0) printf("# message rate, million messages/s, %d pair(s), window %d\n", pairs, w);
  for (size_t bytes = o.min_bytes; bytes <= o.max_bytes; bytes = hb_next(bytes)) {
    if (bytes == 0) continue;
    const int iters = hb_iters(&o, bytes, 2000, 50), warmup = hb_warmup(&o, iters);
    const int n = (int)bytes;
    double t0 = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    for (int i = 0; i < iters + warmup; ++i) {
      if (i == warmup) t0 = MPI_Wtime();
      for (int j = 0; j < w; ++j) {
        if (sender) MPI_Isend(buf + hb_slot(cap, bytes, j), n, MPI_CHAR, peer, 10, MPI_COMM_WORLD, &req[j]);
        else MPI_Irecv(buf + hb_slot(cap, bytes, j), n, MPI_CHAR, peer, 10, MPI_COMM_WORLD, &req[j]);
      }
      MPI_Waitall(w, req, MPI_STATUSES_IGNORE);
      if (sender) MPI_Recv(&ack, 1, MPI_INT, peer, 11, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      else MPI_Send(&ack, 1, MPI_INT, peer, 11, MPI_COMM_WORLD);
    }
    double t = MPI_Wtime() - t0, tmax = 0;
    MPI_Reduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (rank == 0) printf("%zu %.3f\n", bytes, (double)pairs * w * iters / tmax / 1e6);
    fflush(stdout);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  free(buf);
  free(req);
  MPI_Finalize();
  return 0;
}
