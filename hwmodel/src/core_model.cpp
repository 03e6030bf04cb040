#include "tilempi/hwmodel/core_model.h"

#include <time.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <vector>

#include "tilempi/hwmodel/reference_kernels.h"

namespace tilempi::hwmodel {

namespace {

double thread_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

volatile std::uint64_t g_int_sink;
volatile double g_fp_sink;

}  // namespace

HostSpeed measure_host_speed() {
  using namespace reference;
  Data d;
  constexpr double kRun = static_cast<double>(kElements);
  HostSpeed h{std::numeric_limits<double>::max(), std::numeric_limits<double>::max()};
  // The fastest of several runs: a run the host interrupted only ever takes longer.
  for (int run = 0; run < 7; ++run) {
    double t0 = thread_cpu_seconds();
    g_int_sink = int_kernel(d.keys, d.buckets);
    double t1 = thread_cpu_seconds();
    g_fp_sink = fp_kernel(d.val, d.col, d.x);
    double t2 = thread_cpu_seconds();
    h.int_s = std::min(h.int_s, (t1 - t0) / kRun);
    h.fp_s = std::min(h.fp_s, (t2 - t1) / kRun);
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

OpCosts op_costs(const Config& chip) {
  OpCosts c;
  c.int_op = static_cast<double>(chip.core_int_cycles) / kIntKernelOps;
  // A core whose floating-point element costs less than its integer operations (a generous
  // preset) gets floating point for free rather than a negative cost.
  c.fp_op = std::max(0.0, (static_cast<double>(chip.core_fp_cycles) - kFpKernelIntOps * c.int_op) / kFpKernelFpOps);
  return c;
}

std::string describe(const OpCosts& c) {
  char line[128];
  std::snprintf(line, sizeof line, "model: counted operations, %.3g cycles per integer and %.3g per floating-point operation",
                c.int_op, c.fp_op);
  return line;
}

std::string describe(const CoreRatio& r) {
  char line[128];
  std::snprintf(line, sizeof line, "model: a tile takes %.3gx this host's time (int %.3gx, fp %.3gx)", r.ratio,
                r.int_ratio, r.fp_ratio);
  return line;
}

}  // namespace tilempi::hwmodel
