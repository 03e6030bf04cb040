// How long a rank computed between two MPI calls, for `--compute model` and `scale:F`
// (docs/SIM.md, "How model and scale:F measure").
//
// Why two clocks. Most stretches of application code between two MPI calls are short: NPB CG
// class S on 16 ranks has 136 000 of them, 95 % under 2 us. The rank's CPU clock
// (CLOCK_THREAD_CPUTIME_ID for ranks as contexts, CLOCK_PROCESS_CPUTIME_ID for processes) is
// read by a system call of about 0.4 us, and a stretch timed from one read to the next carries
// about one call's cost. Taking off the call's median cost measured at start-up leaves what the
// call costs beyond that: much more when the kernel's data and code are out of the caches, which
// is what other processes on the host cause. Timed that way, CG S on 16 ranks took 1.5 times the
// virtual time it takes now, and a third more again beside a parallel build (now a quarter).
//
// So a stretch is timed by the monotonic clock, which is read in user space (about 20 ns through
// the vDSO, no kernel entry), as long as it is short. The monotonic clock also runs while the OS
// gives the core to another process; but then the stretch lasts at least as long as that, and
// the OS takes a core away for a time slice (milliseconds), not for microseconds. A stretch whose
// monotonic time reaches kShortNs is therefore timed by the CPU clock, which is read at every
// stretch's start for that (one system call per MPI call, where there were two). A short stretch
// in which the OS ran something else for less than kShortNs is charged that time too: at most
// kShortNs, and rare.
#pragma once

#include <time.h>

#include <algorithm>
#include <cstdint>
#include <vector>

namespace tilempi::transport::sim {

class ComputeClock {
 public:
  /// Stretches shorter than this (monotonic time) are timed by the monotonic clock.
  static constexpr std::uint64_t kShortNs = 10000;

  /// The rank's CPU clock in ns (a system call); owner is passed back.
  using CpuClock = std::uint64_t (*)(const void* owner);

  ComputeClock() = default;
  ComputeClock(CpuClock cpu, const void* owner) : cpu_(cpu), owner_(owner) {
    // Each clock's own read would be charged at every stretch: measure its cost once (the
    // median of back-to-back reads) and take it off each interval.
    cpu_read_ns_ = median_read([&] { return cpu_(owner_); });
    wall_read_ns_ = median_read([] { return wall_ns(); });
    start();
  }

  /// The application's code starts (an MPI call returns).
  void start() {
    cpu_start_ = cpu_(owner_);
    wall_start_ = wall_ns();
    running_ = true;
  }

  /// The application's code ends (an MPI call begins): its time in ns since start(), 0 if it
  /// was taken already.
  std::uint64_t elapsed() {
    if (!running_) return 0;
    running_ = false;
    const std::uint64_t wall = wall_ns() - wall_start_;
    if (wall < kShortNs) return wall > wall_read_ns_ ? wall - wall_read_ns_ : 0;
    const std::uint64_t cpu = cpu_(owner_) - cpu_start_;
    return cpu > cpu_read_ns_ ? cpu - cpu_read_ns_ : 0;
  }

  static std::uint64_t wall_ns() {
    timespec ts;
    ::clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<std::uint64_t>(ts.tv_sec) * 1000000000ull + static_cast<std::uint64_t>(ts.tv_nsec);
  }

 private:
  template <class Read>
  static std::uint64_t median_read(Read read) {
    std::vector<std::uint64_t> d(101);
    for (std::uint64_t& x : d) {
      const std::uint64_t a = read();
      x = read() - a;
    }
    std::nth_element(d.begin(), d.begin() + 50, d.end());
    return d[50];
  }

  CpuClock cpu_ = nullptr;
  const void* owner_ = nullptr;
  std::uint64_t cpu_read_ns_ = 0, wall_read_ns_ = 0;
  std::uint64_t cpu_start_ = 0, wall_start_ = 0;
  bool running_ = false;
};

}  // namespace tilempi::transport::sim
