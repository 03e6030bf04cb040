#include "tilempi/hwmodel/core_model.h"

#include <time.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <vector>

namespace tilempi::hwmodel {

namespace {

double thread_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

// Sizes: the working sets (64 KiB of keys, 16 KiB of buckets; 48 KiB of matrix and 32 KiB of
// vector) fit the L2 cache of a tile and of a host core, so both kernels measure the core.
constexpr std::size_t kKeys = 1 << 14;
constexpr std::size_t kBuckets = 1 << 12;
constexpr std::size_t kNonzeros = 1 << 12;
constexpr std::size_t kVector = 1 << 12;
constexpr int kPasses = 16;  // elements per run: 2^18 of each kernel

/// Integer kernel: count keys into buckets (the core of a bucket sort, as in NPB IS). Per element:
/// a load, a shift, a mask and a load-increment-store to a data-dependent address, which no
/// compiler vectorizes (two keys may hit one bucket).
[[gnu::noinline]] std::uint64_t int_kernel(const std::vector<std::uint32_t>& keys, std::vector<std::uint32_t>& buckets) {
  for (int pass = 0; pass < kPasses; ++pass)
    for (std::size_t i = 0; i < kKeys; ++i) ++buckets[(keys[i] >> 7) & (kBuckets - 1)];
  std::uint64_t sum = 0;
  for (std::uint32_t b : buckets) sum += b;
  return sum;
}

/// Floating-point kernel: a sparse dot product, sum += val[k] * x[col[k]]: per element a double
/// multiply and add, two loads and an indirect load. The sum carries from element to element.
[[gnu::noinline]] double fp_kernel(const std::vector<double>& val, const std::vector<std::uint32_t>& col,
                                   const std::vector<double>& x) {
  double sum = 0;
  for (int pass = 0; pass < kPasses * static_cast<int>(kKeys / kNonzeros); ++pass)
    for (std::size_t k = 0; k < kNonzeros; ++k) sum += val[k] * x[col[k]];
  return sum;
}

volatile std::uint64_t g_int_sink;
volatile double g_fp_sink;

}  // namespace

HostSpeed measure_host_speed() {
  std::vector<std::uint32_t> keys(kKeys), buckets(kBuckets), col(kNonzeros);
  std::vector<double> val(kNonzeros), x(kVector);
  std::uint32_t s = 12345;
  auto next = [&s] { return s = s * 1664525u + 1013904223u; };
  for (auto& k : keys) k = next();
  for (std::size_t i = 0; i < kNonzeros; ++i) {
    col[i] = next() % kVector;
    val[i] = 1.0 + static_cast<double>(next() % 1000) * 1e-3;
  }
  for (auto& v : x) v = static_cast<double>(next() % 1000) * 1e-3;
  constexpr double kElements = static_cast<double>(kKeys) * kPasses;
  HostSpeed h{std::numeric_limits<double>::max(), std::numeric_limits<double>::max()};
  // The fastest of several runs: a run the host interrupted only ever takes longer.
  for (int run = 0; run < 7; ++run) {
    double t0 = thread_cpu_seconds();
    g_int_sink = int_kernel(keys, buckets);
    double t1 = thread_cpu_seconds();
    g_fp_sink = fp_kernel(val, col, x);
    double t2 = thread_cpu_seconds();
    h.int_s = std::min(h.int_s, (t1 - t0) / kElements);
    h.fp_s = std::min(h.fp_s, (t2 - t1) / kElements);
  }
  // A clock too coarse to see a run would divide by zero below: a picosecond per element at least.
  h.int_s = std::max(h.int_s, 1e-12);
  h.fp_s = std::max(h.fp_s, 1e-12);
  return h;
}

CoreRatio core_ratio(const Config& chip, const HostSpeed& host) {
  CoreRatio r;
  r.int_ratio = static_cast<double>(chip.core_int_cycles) / chip.clock_hz / host.int_s;
  r.fp_ratio = static_cast<double>(chip.core_fp_cycles) / chip.clock_hz / host.fp_s;
  const double p = static_cast<double>(chip.core_fp_percent) / 100.0;
  r.ratio = p * r.fp_ratio + (1.0 - p) * r.int_ratio;
  return r;
}

std::string describe(const CoreRatio& r) {
  char line[128];
  std::snprintf(line, sizeof line, "model: a tile takes %.3gx this host's time (int %.3gx, fp %.3gx)", r.ratio,
                r.int_ratio, r.fp_ratio);
  return line;
}

}  // namespace tilempi::hwmodel
