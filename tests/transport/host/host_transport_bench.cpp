// Ping-pong between two forked ranks through the host transport alone (no MPI layer):
// one-way latency (half the round trip) and bandwidth per size.
//
//   transport_host_bench [max_bytes] [--no-bind]
//   TILEMPI_HOST_CMA=0 transport_host_bench     (arena streaming instead of cross-memory attach)
#include <sys/mman.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "rank_harness.h"

using namespace tilempi::transport;
using namespace tilempi::transport::testing;

namespace {

int iterations_for(std::size_t size) {
  if (size <= 8192) return 20000;
  if (size <= 131072) return 2000;
  if (size <= (1u << 20)) return 400;
  return 100;
}

// Separate send and receive buffers, as in the OSU benchmarks (a receive into the buffer the
// peer has just read from costs extra invalidations).
void pingpong(Transport& t, std::vector<unsigned char>& sbuf, std::vector<unsigned char>& rbuf, std::size_t size,
              int iters) {
  const int peer = 1 - t.rank();
  for (int i = 0; i < iters; ++i) {
    if (t.rank() == 0) {
      send_blocking(t, peer, env_of(i), sbuf.data(), size);
      Arrival a = next_arrival(t);
      fetch_blocking(t, a, rbuf.data(), size);
    } else {
      Arrival a = next_arrival(t);
      fetch_blocking(t, a, rbuf.data(), size);
      send_blocking(t, peer, env_of(i), sbuf.data(), size);
    }
  }
}

// The hardware floor in the same run: two ranks handing one cache line back and forth.
double raw_handoff_us(Transport& t, std::uint64_t* words, int iters) {
  std::atomic_ref<std::uint64_t> ping(words[0]), pong(words[8]);
  const double t0 = t.wtime();
  for (std::uint64_t i = 1; i <= static_cast<std::uint64_t>(iters); ++i) {
    if (t.rank() == 0) {
      ping.store(i, std::memory_order_release);
      while (pong.load(std::memory_order_acquire) != i) __builtin_ia32_pause();
    } else {
      while (ping.load(std::memory_order_acquire) != i) __builtin_ia32_pause();
      pong.store(i, std::memory_order_release);
    }
  }
  return (t.wtime() - t0) / (2.0 * iters) * 1e6;
}

}  // namespace

int main(int argc, char** argv) {
  std::size_t max_bytes = 4u << 20;
  RunOptions opt;
  opt.bind = true;
  opt.timeout_s = 600;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--no-bind") == 0) opt.bind = false;
    else max_bytes = std::strtoull(argv[i], nullptr, 10);
  }
  auto* words = static_cast<std::uint64_t*>(
      mmap(nullptr, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0));
  auto res = run_ranks(
      2,
      [&](Transport& t) {
        std::vector<unsigned char> sbuf(max_bytes ? max_bytes : 1, 1), rbuf(max_bytes ? max_bytes : 1, 2);
        const double floor_us = raw_handoff_us(t, words, 100000);
        if (t.rank() == 0)
          std::printf("# raw cache-line hand-off between the two ranks: %.3f us one-way\n"
                      "# tilempi host transport ping-pong\n# %-10s %14s %14s\n",
                      floor_us, "bytes", "latency(us)", "MB/s");
        for (std::size_t size = 0; size <= max_bytes; size = size ? size * 2 : 1) {
          const int iters = iterations_for(size);
          pingpong(t, sbuf, rbuf, size, iters / 10 + 1);  // warm up
          const double t0 = t.wtime();
          pingpong(t, sbuf, rbuf, size, iters);
          const double one_way = (t.wtime() - t0) / (2.0 * iters);
          if (t.rank() == 0)
            std::printf("  %-10zu %14.3f %14.1f\n", size, one_way * 1e6,
                        size ? static_cast<double>(size) / one_way / 1e6 : 0.0);
          std::fflush(stdout);
        }
        return 0;
      },
      opt);
  if (!res.all_exited_zero()) {
    std::fprintf(stderr, "%s\n", res.describe().c_str());
    return 1;
  }
  return 0;
}
