/* The machine's floor for handing data from one core to another: two threads pinned to two
 * cores pass one cache line back and forth (one word, incremented by each side in turn), with
 * nothing else. One-way time = half the round trip; prints the median of 15 batches in us.
 * No MPI: the hardware alone.   line_floor [CPU_A CPU_B] [ROUND_TRIPS_PER_BATCH] [pair]
 *
 * With "pair", each direction has a line of its own (each thread writes one and spins on the
 * other), as a message protocol with a ring per direction hands data over; prints line_pair
 * and line_pair_min instead. Where the two cores share caches this measured about twice the
 * single line's time on the development VM; on separate cores about the same. */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static _Alignas(64) volatile uint64_t line[16];  /* line[0]; with "pair", line[0] and line[8] */
static int pair = 0;
static long trips = 200000;
static int cpu[2] = {0, 1};

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void pin(int c) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(c, &set);
  pthread_setaffinity_np(pthread_self(), sizeof set, &set);
}

static void* echo(void* arg) {
  (void)arg;
  pin(cpu[1]);
  volatile uint64_t* out = pair ? &line[8] : &line[0];
  for (uint64_t v = 1;; v += 2) {
    while (__atomic_load_n(&line[0], __ATOMIC_ACQUIRE) != v) __builtin_ia32_pause();
    __atomic_store_n(out, v + 1, __ATOMIC_RELEASE);
    if (v + 1 == 0) break;
  }
  return NULL;
}

static int cmp(const void* a, const void* b) {
  double x = *(const double*)a, y = *(const double*)b;
  return x < y ? -1 : x > y;
}

int main(int argc, char** argv) {
  if (argc >= 3) {
    cpu[0] = atoi(argv[1]);
    cpu[1] = atoi(argv[2]);
  }
  if (argc >= 4) trips = atol(argv[3]);
  if (argc >= 5) pair = strcmp(argv[4], "pair") == 0;
  volatile uint64_t* in = pair ? &line[8] : &line[0];
  pthread_t t;
  pthread_create(&t, NULL, echo, NULL);
  pin(cpu[0]);
  enum { kBatches = 15 };
  double us[kBatches];
  uint64_t v = 0;
  for (int b = 0; b < kBatches; ++b) {
    const double t0 = now();
    for (long i = 0; i < trips; ++i) {
      __atomic_store_n(&line[0], v + 1, __ATOMIC_RELEASE);
      while (__atomic_load_n(in, __ATOMIC_ACQUIRE) != v + 2) __builtin_ia32_pause();
      v += 2;
    }
    us[b] = (now() - t0) / (2.0 * (double)trips) * 1e6;
  }
  qsort(us, kBatches, sizeof us[0], cmp);
  printf("%s %.4f\n", pair ? "line_pair" : "line_floor", us[kBatches / 2]);
  printf("%s %.4f\n", pair ? "line_pair_min" : "line_floor_min", us[0]);
  /* The echo thread is still waiting: ending the process ends it. */
  return 0;
}
