/* Shared bits of the OSU-style host benchmarks (latency.c, bandwidth.c, msgrate.c, colls.c):
 * plain C against mpi.h only, so that every program builds unchanged with tilempicc and with
 * another MPI's mpicc. Output: one line per size, "<bytes> <value>", after a "# ..." header. */
#ifndef TILEMPI_HOSTBENCH_H
#define TILEMPI_HOSTBENCH_H

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  size_t min_bytes, max_bytes;
  int iters;  /* 0: by size (more for small messages) */
  int warmup; /* -1: a tenth of the iterations */
  int window; /* messages in flight (bandwidth, message rate) */
} hb_options;

static inline void hb_usage(const char* prog, const char* what) {
  fprintf(stderr, "usage: %s [-m MIN_BYTES] [-M MAX_BYTES] [-i ITERATIONS] [-x WARMUP] [-w WINDOW]\n%s\n", prog, what);
}

/* Parses the common options; returns 0, or 2 after printing usage. */
static inline int hb_parse(int argc, char** argv, hb_options* o, const char* what) {
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "-m") && i + 1 < argc) o->min_bytes = strtoull(argv[++i], NULL, 10);
    else if (!strcmp(argv[i], "-M") && i + 1 < argc) o->max_bytes = strtoull(argv[++i], NULL, 10);
    else if (!strcmp(argv[i], "-i") && i + 1 < argc) o->iters = atoi(argv[++i]);
    else if (!strcmp(argv[i], "-x") && i + 1 < argc) o->warmup = atoi(argv[++i]);
    else if (!strcmp(argv[i], "-w") && i + 1 < argc) o->window = atoi(argv[++i]);
    else {
      hb_usage(argv[0], what);
      return 2;
    }
  }
  if (o->window < 1 || o->iters < 0 || o->max_bytes < o->min_bytes) {
    hb_usage(argv[0], what);
    return 2;
  }
  return 0;
}

static inline int hb_iters(const hb_options* o, size_t bytes, int small, int large) {
  if (o->iters > 0) return o->iters;
  if (bytes <= 8192) return small;
  if (bytes <= (1u << 20)) return large;
  return large / 4 > 10 ? large / 4 : 10;
}

static inline int hb_warmup(const hb_options* o, int iters) { return o->warmup >= 0 ? o->warmup : iters / 10; }

/* 0, then powers of two from max(1, min) to max. */
static inline size_t hb_next(size_t bytes) { return bytes == 0 ? 1 : bytes * 2; }

/* A window's buffer: every message of a window in its own part, up to 16 MiB (beyond that,
 * parts are reused: the bytes do not matter, only their movement). */
static inline size_t hb_window_bytes(const hb_options* o) {
  size_t want = o->max_bytes * (size_t)o->window, cap = (size_t)16 << 20;
  if (want > cap) want = cap;
  return want > o->max_bytes ? want : o->max_bytes;
}
static inline size_t hb_slot(size_t cap, size_t bytes, int j) {
  const size_t slots = bytes ? cap / bytes : 1;
  return bytes ? ((size_t)j % slots) * bytes : 0;
}

/* Page-aligned, touched buffer. */
static inline char* hb_buffer(size_t bytes, int fill) {
  void* p = NULL;
  if (posix_memalign(&p, 4096, bytes ? bytes : 1) != 0) {
    fprintf(stderr, "out of memory\n");
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  memset(p, fill, bytes ? bytes : 1);
  return (char*)p;
}

#endif
