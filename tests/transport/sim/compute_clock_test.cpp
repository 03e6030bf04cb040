// The clock that times a rank's code between MPI calls (transport/sim/compute_clock.h): short
// stretches by the monotonic clock, long ones (where the OS may have run something else) by the
// rank's CPU clock. The CPU clock here is a fake the test moves by hand.
#include "sim/compute_clock.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <thread>

namespace {

using tilempi::transport::sim::ComputeClock;

std::uint64_t g_cpu_ns = 0;
std::uint64_t fake_cpu(const void*) { return g_cpu_ns; }

TEST(ComputeClock, LongStretchIsChargedItsCpuTimeNotItsWallTime) {
  g_cpu_ns = 1000000;
  ComputeClock clock(&fake_cpu, nullptr);
  clock.start();
  // 20 ms of wall time during which the rank used 5 us of CPU (the OS ran others meanwhile).
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  g_cpu_ns += 5000;
  EXPECT_EQ(clock.elapsed(), 5000u);
}

TEST(ComputeClock, ShortStretchIsChargedItsMonotonicTime) {
  g_cpu_ns = 0;
  ComputeClock clock(&fake_cpu, nullptr);
  // The CPU clock jumps by a second, as a system call's worth of noise never does: a short
  // stretch does not read it. The host may preempt the test between the two reads (then the
  // stretch is long and the CPU clock counts), so some of the tries must be short.
  int short_ones = 0;
  for (int i = 0; i < 100; ++i) {
    clock.start();
    g_cpu_ns += 1000000000;
    const std::uint64_t t = clock.elapsed();
    if (t < ComputeClock::kShortNs) ++short_ones;
    else EXPECT_EQ(t, 1000000000u);
  }
  EXPECT_GT(short_ones, 0);
}

TEST(ComputeClock, AStretchIsTakenOnce) {
  g_cpu_ns = 0;
  ComputeClock clock(&fake_cpu, nullptr);
  clock.start();
  std::this_thread::sleep_for(std::chrono::milliseconds(1));
  g_cpu_ns += 7000;
  EXPECT_EQ(clock.elapsed(), 7000u);
  g_cpu_ns += 7000;
  EXPECT_EQ(clock.elapsed(), 0u);  // no start() since: nothing more to charge
}

}  // namespace
