// sleep, usleep, nanosleep and clock_nanosleep of a sim rank advance its virtual clock. See
// virtual_sleep.h.
#include "sim/virtual_sleep.h"

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <time.h>
#include <unistd.h>

#include <atomic>

#include "tilempi/transport/contexts.h"
#include "tilempi/transport/rank_local.h"

namespace tilempi::transport::sim {
namespace {

struct Registered {
  VirtualSleeper* sleeper = nullptr;
  pthread_t thread{};
};

/// Whether any rank of this process registered a sleeper: until then every sleep is a real one,
/// without looking at the per-rank table (which must not be created from several threads).
std::atomic<bool> g_any{false};

RankLocal<Registered>& registry() {
  static auto* r = new RankLocal<Registered>;  // never destroyed: atexit handlers may sleep
  return *r;
}

enum class Outcome { Real, Done };

/// What a sleep of ns nanoseconds by the calling code amounts to.
Outcome sleep_for(std::uint64_t ns) {
  if (in_rank_context()) {
    Registered& r = registry().get();
    // Before MPI_Init and after MPI_Finalize there is no virtual clock to advance, and a real
    // sleep would stop every rank of the simulator's one thread: the sleep takes no time.
    if (!r.sleeper) return Outcome::Done;
    return r.sleeper->sleep_virtual(ns) ? Outcome::Done : Outcome::Real;
  }
  // The simulator's own code outside the ranks, or a process that never was a sim rank.
  if (hosts_rank_contexts() || !g_any.load(std::memory_order_acquire)) return Outcome::Real;
  Registered& r = registry().get();
  if (!r.sleeper || !pthread_equal(r.thread, pthread_self())) return Outcome::Real;
  return r.sleeper->sleep_virtual(ns) ? Outcome::Done : Outcome::Real;
}

constexpr std::uint64_t kNsPerSecond = 1000000000ull;

/// ns of a valid duration, saturated; false for what the C library rejects (EINVAL), which the
/// real function then reports.
bool duration_ns(const timespec* t, std::uint64_t& ns) {
  if (!t || t->tv_sec < 0 || t->tv_nsec < 0 || t->tv_nsec >= static_cast<long>(kNsPerSecond)) return false;
  const auto s = static_cast<std::uint64_t>(t->tv_sec);
  ns = s > (~0ull - static_cast<std::uint64_t>(t->tv_nsec)) / kNsPerSecond
           ? ~0ull
           : s * kNsPerSecond + static_cast<std::uint64_t>(t->tv_nsec);
  return true;
}

template <class F>
F real(const char* name) {
  return reinterpret_cast<F>(::dlsym(RTLD_NEXT, name));
}

}  // namespace

void set_virtual_sleeper(VirtualSleeper* sleeper) {
  Registered& r = registry().get();
  r.sleeper = sleeper;
  r.thread = pthread_self();
  if (sleeper) g_any.store(true, std::memory_order_release);
}

void forget_virtual_sleeper(VirtualSleeper* sleeper) {
  if (!g_any.load(std::memory_order_acquire)) return;
  Registered& r = registry().get();
  if (r.sleeper == sleeper) r.sleeper = nullptr;
}

}  // namespace tilempi::transport::sim

namespace ts = tilempi::transport::sim;

extern "C" {

unsigned int sleep(unsigned int seconds) {
  if (ts::sleep_for(std::uint64_t{seconds} * ts::kNsPerSecond) == ts::Outcome::Done) return 0;
  static auto next = ts::real<unsigned int (*)(unsigned int)>("sleep");
  return next(seconds);
}

int usleep(useconds_t usec) {
  if (ts::sleep_for(std::uint64_t{usec} * 1000u) == ts::Outcome::Done) return 0;
  static auto next = ts::real<int (*)(useconds_t)>("usleep");
  return next(usec);
}

int nanosleep(const timespec* req, timespec* rem) {
  std::uint64_t ns = 0;
  if (ts::duration_ns(req, ns) && ts::sleep_for(ns) == ts::Outcome::Done) return 0;
  static auto next = ts::real<int (*)(const timespec*, timespec*)>("nanosleep");
  return next(req, rem);
}

int clock_nanosleep(clockid_t clock, int flags, const timespec* req, timespec* rem) {
  static auto next = ts::real<int (*)(clockid_t, int, const timespec*, timespec*)>("clock_nanosleep");
  // Only the clocks that measure elapsed time: a sleep on a CPU-time clock is not one of waiting.
  const bool elapsed = clock == CLOCK_REALTIME || clock == CLOCK_MONOTONIC || clock == CLOCK_BOOTTIME ||
                       clock == CLOCK_TAI;
  std::uint64_t ns = 0;
  if (!elapsed || !ts::duration_ns(req, ns)) return next(clock, flags, req, rem);
  if (flags & TIMER_ABSTIME) {
    // Until a time of that clock: the time left from now.
    timespec now{};
    std::uint64_t now_ns = 0;
    if (::clock_gettime(clock, &now) != 0 || !ts::duration_ns(&now, now_ns)) return next(clock, flags, req, rem);
    ns = ns > now_ns ? ns - now_ns : 0;
  }
  if (ts::sleep_for(ns) == ts::Outcome::Done) return 0;
  return next(clock, flags, req, rem);
}

}  // extern "C"
