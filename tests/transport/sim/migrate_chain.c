/* A chain of three tasks whose middle one moves to another tile while data flows
 * ([Wallentowitz 2018] §3.6.3's scenario): rank 0 sends ITEMS items, one every PERIOD cycles, to
 * rank 1, which forwards each to rank 2. Rank 2 checks that every item arrives once, in order,
 * with its contents intact, and measures each item's end-to-end latency: from the cycle the item
 * was due (a source that produces one every PERIOD cycles; an item whose previous send has not
 * completed waits at rank 0, as data piles up at a real source) to rank 2's receive.
 *   sim_migrate_chain ITEMS PERIOD BYTES [K:TILE] [-v]
 * K:TILE: rank 0 calls TILEMPIX_Migrate(MPI_COMM_WORLD, 1, TILE) before item K (else the launcher's
 * --migrate moves it, or nothing does). -v: one line per item.
 * Prints: "chain: items=N ok base=B peak=P extra=E affected=A" (cycles; base = the larger of
 * the median latencies of the first and the last quarter of the items, before and after a
 * migration; extra = peak - base; affected = items slower than base). Exit status 1 if any item is missing, repeated,
 * out of order or damaged. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tilempi_ext.h>

enum { kTag = 7 };

static unsigned char pattern(long item, long i) { return (unsigned char)(item * 31 + i * 7 + 1); }

static int cmp_long(const void* a, const void* b) {
  const long x = *(const long*)a, y = *(const long*)b;
  return x < y ? -1 : x > y;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc < 4 || size < 3) {
    if (rank == 0) fprintf(stderr, "usage: sim_migrate_chain ITEMS PERIOD BYTES [K:TILE] [-v] (3 ranks or more)\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  const long items = atol(argv[1]), period = atol(argv[2]);
  const long bytes = atol(argv[3]) < 16 ? 16 : atol(argv[3]);
  long call_at = -1;
  int call_tile = -1, verbose = 0;
  for (int a = 4; a < argc; ++a) {
    if (strcmp(argv[a], "-v") == 0) verbose = 1;
    else if (sscanf(argv[a], "%ld:%d", &call_at, &call_tile) != 2) MPI_Abort(MPI_COMM_WORLD, 2);
  }
  const double tick = MPI_Wtick();
  unsigned char* buf = malloc((size_t)bytes);
  int failed = 0;
  if (rank == 0) {
    const double start = MPI_Wtime();
    for (long k = 0; k < items; ++k) {
      const double due = start + (double)(k * period) * tick;
      const double now = MPI_Wtime();
      if (now < due) TILEMPIX_Compute((long long)((due - now) / tick + 0.5));
      if (k == call_at) {
        const int rc = TILEMPIX_Migrate(MPI_COMM_WORLD, 1, call_tile);
        if (rc != MPI_SUCCESS) {
          fprintf(stderr, "TILEMPIX_Migrate failed: %d\n", rc);
          failed = 1;
        }
      }
      memcpy(buf, &k, sizeof k);
      memcpy(buf + 8, &due, sizeof due);
      for (long i = 16; i < bytes; ++i) buf[i] = pattern(k, i);
      MPI_Send(buf, (int)bytes, MPI_BYTE, 1, kTag, MPI_COMM_WORLD);
    }
  } else if (rank == 1) {
    for (long k = 0; k < items; ++k) {
      MPI_Recv(buf, (int)bytes, MPI_BYTE, 0, kTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(buf, (int)bytes, MPI_BYTE, 2, kTag, MPI_COMM_WORLD);
    }
  } else if (rank == 2) {
    long* lat = malloc(sizeof(long) * (size_t)items);
    for (long k = 0; k < items; ++k) {
      MPI_Status st;
      int count = 0;
      MPI_Recv(buf, (int)bytes, MPI_BYTE, 1, kTag, MPI_COMM_WORLD, &st);
      MPI_Get_count(&st, MPI_BYTE, &count);
      long item = -1;
      double sent = 0;
      memcpy(&item, buf, sizeof item);
      memcpy(&sent, buf + 8, sizeof sent);
      int intact = count == bytes;
      for (long i = 16; i < bytes && intact; ++i) intact = buf[i] == pattern(item, i);
      if (item != k || !intact) {
        fprintf(stderr, "rank 2: expected item %ld, got item %ld (%d bytes, contents %s)\n", k, item, count,
                intact ? "intact" : "damaged");
        failed = 1;
        break;
      }
      lat[k] = (long)((MPI_Wtime() - sent) / tick + 0.5);
      if (verbose) printf("item %ld latency %ld\n", k, lat[k]);
    }
    if (!failed && items >= 4) {
      const long q = items / 4;
      long* sorted = malloc(sizeof(long) * (size_t)items);
      memcpy(sorted, lat, sizeof(long) * (size_t)q);
      qsort(sorted, (size_t)q, sizeof(long), cmp_long);
      long base = sorted[q / 2];
      memcpy(sorted, lat + items - q, sizeof(long) * (size_t)q);
      qsort(sorted, (size_t)q, sizeof(long), cmp_long);
      if (sorted[q / 2] > base) base = sorted[q / 2];
      long peak = 0, affected = 0;
      for (long k = 0; k < items; ++k) {
        if (lat[k] > peak) peak = lat[k];
        affected += lat[k] > base;
      }
      printf("chain: items=%ld ok base=%ld peak=%ld extra=%ld affected=%ld\n", items, base, peak, peak - base, affected);
      free(sorted);
    }
    free(lat);
  }
  free(buf);
  int any = 0;
  MPI_Allreduce(&failed, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Finalize();
  return any ? 1 : 0;
}
