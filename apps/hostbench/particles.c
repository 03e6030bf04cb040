/* The communication pattern of Quicksilver's particle tracking, written anew here: every rank
 * tracks particles in vaults; a particle that crosses onto a neighbour's domain is packed into
 * that neighbour's buffer, sent with MPI_Isend after each vault (the send requests kept in a
 * list and retired with MPI_Test), and received through one MPI_Irecv per neighbour of a whole
 * vault's size, polled with MPI_Test and posted again. Whether the cycle is done (every particle
 * born is absorbed) is asked after every pass with a blocking MPI_Allreduce of two counts (as
 * Quicksilver's default build does), or with -a an MPI_Iallreduce polled with MPI_Test and
 * confirmed by a blocking one (its build with HAVE_ASYNC_MPI); then the receives are cancelled
 * (MPI_Cancel, MPI_Wait, MPI_Test_cancelled) and the cycle's tallies reduced.
 *
 *   particles [-a] [-c CYCLES] [-p PARTICLES] [-w WORK]
 *
 * CYCLES cycles (default 10), PARTICLES born per rank and cycle (default 20000), WORK arithmetic
 * steps per particle and segment (default 200). Rank 0 prints "particles <ms per cycle>"
 * ("particles_async" with -a). */
#include <stdint.h>

#include "hostbench.h"

enum { kVault = 2000, kTag = 2300 };

typedef struct {
  double x[12];
  int32_t id, segments;
} Particle;

typedef struct Pending {
  MPI_Request req;
  char* buf;
  struct Pending* next;
} Pending;

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  long cycles = 10, born = 20000, work = 200;
  int async = 0;
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "-a")) async = 1;
    else if (!strcmp(argv[i], "-c") && i + 1 < argc) cycles = atol(argv[++i]);
    else if (!strcmp(argv[i], "-p") && i + 1 < argc) born = atol(argv[++i]);
    else if (!strcmp(argv[i], "-w") && i + 1 < argc) work = atol(argv[++i]);
    else {
      if (rank == 0) fprintf(stderr, "usage: %s [-a] [-c CYCLES] [-p PARTICLES] [-w WORK]\n", argv[0]);
      MPI_Finalize();
      return 2;
    }
  }
  /* Neighbours: the ranks one and two away on a ring (Quicksilver's 3-D decomposition gives 4
   * ranks 2 or 3 neighbours each). */
  int nb[4], nnb = 0;
  for (int d = 1; d <= 2 && d < size; ++d) {
    const int cand[2] = {(rank + d) % size, (rank - d + size) % size};
    for (int k = 0; k < 2; ++k) {
      int seen = cand[k] == rank;
      for (int j = 0; j < nnb; ++j) seen = seen || nb[j] == cand[k];
      if (!seen) nb[nnb++] = cand[k];
    }
  }
  const size_t cap = sizeof(Particle) * (size_t)kVault + 8;
  char** recvbuf = malloc(sizeof(char*) * 4);
  MPI_Request rqrecv[4];
  Particle* vault = malloc(sizeof(Particle) * (size_t)(born * size + 2 * kVault));  /* every particle, at most */
  Particle* sendp[4];
  int nsend[4];
  for (int j = 0; j < 4; ++j) {
    recvbuf[j] = hb_buffer(cap, 0);
    sendp[j] = malloc(sizeof(Particle) * (size_t)kVault);
  }
  unsigned seed = 4242u + 131u * (unsigned)rank;
  double sink = 0;
  long passes = 0;
  MPI_Barrier(MPI_COMM_WORLD);
  const double t0 = MPI_Wtime();
  for (long c = 0; c < cycles; ++c) {
    long n = born, gained = born, lost = 0;
    for (long i = 0; i < n; ++i) {
      vault[i].id = (int32_t)i;
      vault[i].segments = 0;
      for (int k = 0; k < 12; ++k) vault[i].x[k] = (double)(rand_r(&seed) % 1000);
    }
    for (int j = 0; j < nnb; ++j)
      MPI_Irecv(recvbuf[j], (int)cap, MPI_BYTE, nb[j], kTag, MPI_COMM_WORLD, &rqrecv[j]);
    Pending* sends = NULL;
    int64_t counts[2] = {0, 0}, sums[2] = {0, 1};
    MPI_Request iallreduce = MPI_REQUEST_NULL;
    int done = 0;
    while (!done) {
      /* Track a vault's worth: each particle one segment; it is absorbed, crosses to a
       * neighbour, or stays for the next pass. */
      long take = n < kVault ? n : kVault;
      for (int j = 0; j < nnb; ++j) nsend[j] = 0;
      long kept = 0;
      Particle* from = vault + (n - take);
      for (long i = 0; i < take; ++i) {
        Particle p = from[i];
        double x = p.x[0];
        for (long k = 0; k < work; ++k) x = x * 1.0000001 + p.x[k % 12];
        sink += x;
        p.segments++;
        const int r = rand_r(&seed) % 100;
        if (r < 10 || p.segments > 40) {
          ++lost;
        } else if (r < 25 && nnb > 0) {
          const int j = r % nnb;
          sendp[j][nsend[j]++] = p;
        } else {
          from[kept++] = p;
        }
      }
      n = n - take + kept;
      for (int j = 0; j < nnb; ++j) {
        if (nsend[j] == 0) continue;
        Pending* s = malloc(sizeof(Pending));
        s->buf = malloc(sizeof(Particle) * (size_t)nsend[j]);
        memcpy(s->buf, sendp[j], sizeof(Particle) * (size_t)nsend[j]);
        MPI_Isend(s->buf, (int)(sizeof(Particle) * (size_t)nsend[j]), MPI_BYTE, nb[j], kTag, MPI_COMM_WORLD, &s->req);
        s->next = sends;
        sends = s;
        for (Pending** q = &sends; *q;) {  /* retire the completed sends */
          int flag = 0;
          MPI_Test(&(*q)->req, &flag, MPI_STATUS_IGNORE);
          if (flag) {
            Pending* d = *q;
            *q = d->next;
            free(d->buf);
            free(d);
          } else {
            q = &(*q)->next;
          }
        }
      }
      for (int j = 0; j < nnb; ++j) {
        int flag = 0, bytes = 0;
        MPI_Status st;
        MPI_Test(&rqrecv[j], &flag, &st);
        if (!flag) continue;
        MPI_Get_count(&st, MPI_BYTE, &bytes);
        memcpy(vault + n, recvbuf[j], (size_t)bytes);
        n += bytes / (int)sizeof(Particle);
        MPI_Irecv(recvbuf[j], (int)cap, MPI_BYTE, nb[j], kTag, MPI_COMM_WORLD, &rqrecv[j]);
      }
      ++passes;
      /* Done? A blocking test, or the non-blocking one confirmed by a blocking one. */
      int flag = 0;
      if (!async) {
        int64_t mine[2] = {gained, lost}, all[2];
        MPI_Allreduce(mine, all, 2, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
        done = all[0] == all[1];
        continue;
      }
      MPI_Test(&iallreduce, &flag, MPI_STATUS_IGNORE);
      if (flag) {
        if (sums[0] == sums[1]) {
          int64_t mine[2] = {gained, lost}, all[2];
          MPI_Allreduce(mine, all, 2, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
          done = all[0] == all[1];
          sums[0] = 0;
          sums[1] = 1;
        } else {
          counts[0] = gained;
          counts[1] = lost;
          MPI_Iallreduce(counts, sums, 2, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD, &iallreduce);
        }
      }
    }
    if (iallreduce != MPI_REQUEST_NULL) MPI_Wait(&iallreduce, MPI_STATUS_IGNORE);
    for (int j = 0; j < nnb; ++j) {
      int cancelled = 0;
      MPI_Status st;
      MPI_Cancel(&rqrecv[j]);
      MPI_Wait(&rqrecv[j], &st);
      MPI_Test_cancelled(&st, &cancelled);
      if (!cancelled) {
        fprintf(stderr, "particles: rank %d: a receive was not cancelled\n", rank);
        MPI_Abort(MPI_COMM_WORLD, 1);
      }
    }
    while (sends) {
      Pending* d = sends;
      sends = d->next;
      MPI_Wait(&d->req, MPI_STATUS_IGNORE);
      free(d->buf);
      free(d);
    }
    double tallies[8] = {(double)lost, (double)passes}, all[8];
    MPI_Allreduce(tallies, all, 8, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
  }
  const double t = MPI_Wtime() - t0;
  if (rank == 0) printf("# particles: %ld cycles of %ld particles per rank, %ld passes on rank 0 (%g)\n%s %.3f\n",
                        cycles, born, passes, sink, async ? "particles_async" : "particles", t / (double)cycles * 1e3);
  for (int j = 0; j < 4; ++j) {
    free(recvbuf[j]);
    free(sendp[j]);
  }
  free(recvbuf);
  free(vault);
  MPI_Finalize();
  return 0;
}
