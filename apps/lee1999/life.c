/* LIFE as [Lee 1999] §7.2 runs it: Conway's game on an 8x8 torus of cells for G generations
 * (default 1000), on P = 1, 4, 16 or 64 ranks as a sqrt(P) x sqrt(P) grid, each holding a
 * square block of 64 / P cells. In each generation a rank computes its cells' new values one by
 * one and, as soon as a cell's value is new, sends it (a 2-word message: cell and value) to
 * every other rank that needs it, once per rank (no bundling, no redundant messages, §7.2);
 * then it blocks until every update it needs for the next generation has come. Each cell's new
 * value costs C_CELL cycles of a tile core (default 35, §7.2.1: "the time for computing a new
 * cell value, C_cell, is approximately 35 cycles"), charged with TILEMPIX_Compute before its
 * updates are sent: on the sim transport with --compute none the run is deterministic and the
 * computation overlaps the messages in flight as on the M-Machine (slack, §7.1.1, §7.2.1). The
 * host's own time for the loop is not what is measured (on --compute model it is added too).
 * Rank 0 prints
 *   "life P=<P> generations=<G> c_cell=<C_CELL> life_cycles=<C> live=<L>"
 * C: the virtual cycles of the generations (the setup before the first is left out, as §7.2.2
 * factors out initialization), L: live cells at the end (the same for every P).
 * usage: life [GENERATIONS [C_CELL]] */
#include <mpi.h>
#include <tilempi_ext.h>

#include <stdio.h>
#include <stdlib.h>

#define N 8

static int owner(int x, int y, int b, int q) { return ((y + N) % N / b) * q + ((x + N) % N / b); }

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int gens = argc > 1 ? atoi(argv[1]) : 1000;
  const long long c_cell = argc > 2 ? atoll(argv[2]) : 35;
  if (gens < 0 || c_cell < 0) {
    if (rank == 0) fprintf(stderr, "life: GENERATIONS and C_CELL must not be negative\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  int q = 1;
  while (q * q < size) ++q;
  if (q * q != size || N % q != 0) {
    if (rank == 0) fprintf(stderr, "life: needs 1, 4, 16 or 64 ranks (a square grid dividing 8x8), got %d\n", size);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  const int b = N / q, x0 = (rank % q) * b, y0 = (rank / q) * b;
  /* Every rank keeps the whole (old) board; only its block and the cells it is sent are current. */
  static int cur[N][N], nxt[N][N];
  for (int y = 0; y < N; ++y)
    for (int x = 0; x < N; ++x) cur[y][x] = ((x * 5 + y * 3) % 7 == 0) || (x == 2 && y < 3);  /* a glider among others */
  /* Updates expected per generation: the cells outside the block next to it, once per owner. */
  int expected = 0;
  for (int y = y0 - 1; y <= y0 + b; ++y)
    for (int x = x0 - 1; x <= x0 + b; ++x) {
      const int in = x >= x0 && x < x0 + b && y >= y0 && y < y0 + b;
      if (!in && owner(x, y, b, q) != rank) {
        /* counted once even if the torus brings it next to the block twice */
        int dup = 0;
        for (int yy = y0 - 1; yy <= y0 + b && !dup; ++yy)
          for (int xx = x0 - 1; xx <= x0 + b; ++xx) {
            if (yy == y && xx == x) { yy = y0 + b + 1; break; }
            const int in2 = xx >= x0 && xx < x0 + b && yy >= y0 && yy < y0 + b;
            if (!in2 && (xx + N) % N == (x + N) % N && (yy + N) % N == (y + N) % N) { dup = 1; break; }
          }
        expected += !dup;
      }
    }
  MPI_Barrier(MPI_COMM_WORLD);
  const double t0 = MPI_Wtime();
  for (int g = 0; g < gens; ++g) {
    for (int y = y0; y < y0 + b; ++y)
      for (int x = x0; x < x0 + b; ++x) {
        int live = 0;
        for (int dy = -1; dy <= 1; ++dy)
          for (int dx = -1; dx <= 1; ++dx)
            if (dx || dy) live += cur[(y + dy + N) % N][(x + dx + N) % N];
        const int v = cur[y][x] ? (live == 2 || live == 3) : live == 3;
        nxt[y][x] = v;
        TILEMPIX_Compute(c_cell);
        /* Send it at once to each other rank that has it as a neighbour, once per rank. */
        int sent[64], nsent = 0;
        for (int dy = -1; dy <= 1; ++dy)
          for (int dx = -1; dx <= 1; ++dx) {
            if (!dx && !dy) continue;
            const int o = owner(x + dx, y + dy, b, q);
            int seen = o == rank;
            for (int i = 0; i < nsent && !seen; ++i) seen = sent[i] == o;
            if (seen) continue;
            sent[nsent++] = o;
            long long msg[2] = {y * N + x, v};  /* two 64-bit words, §7.2.1's 2-argument message */
            MPI_Send(msg, 2, MPI_LONG_LONG, o, g & 1, MPI_COMM_WORLD);
          }
      }
    for (int y = y0; y < y0 + b; ++y)
      for (int x = x0; x < x0 + b; ++x) cur[y][x] = nxt[y][x];
    for (int i = 0; i < expected; ++i) {
      long long msg[2];
      MPI_Recv(msg, 2, MPI_LONG_LONG, MPI_ANY_SOURCE, g & 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      cur[msg[0] / N][msg[0] % N] = (int)msg[1];
    }
  }
  const double t1 = MPI_Wtime();
  int mine = 0, live = 0;
  for (int y = y0; y < y0 + b; ++y)
    for (int x = x0; x < x0 + b; ++x) mine += cur[y][x];
  MPI_Reduce(&mine, &live, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0)
    printf("life P=%d generations=%d c_cell=%lld life_cycles=%lld live=%d\n", size, gens, c_cell,
           (long long)((t1 - t0) / MPI_Wtick() + 0.5), live);
  MPI_Finalize();
  return 0;
}
