// How a rank of the host transport waits for something to change: spin while that is cheap,
// yield when others wait for this core, then sleep on the rank's doorbell (a futex word in its
// RankSlot), and how a writer wakes it.
//
// The doorbell protocol: a writer stores its sequence word and then loads the owner's
// `sleeping` flag, ringing the bell (increment + FUTEX_WAKE) only when it is set; the sleeper
// stores `sleeping` and then re-checks everything it waits for before FUTEX_WAIT. Between each
// side's store and load there must be a full fence, so that one of the two always sees the
// other and no wake-up is lost. The writer's fence would cost every message a drain of the
// store buffer (with the record's lines still on their way from the reader's cache), so where
// the kernel offers membarrier(MEMBARRIER_CMD_GLOBAL_EXPEDITED) the fence is asymmetric: the
// sleeper, about to make a system call anyway, fences every core that runs a registered rank,
// and a registered writer needs only a compiler barrier (the pattern of asymmetric Dekker
// synchronisation). A writer that is not registered, or an owner that cannot fence others
// (RankSlot::heavy_fence = 0), falls back to the full fence. The awake case costs the writer a
// load of a line that rarely changes.
#pragma once

#include <time.h>

#include <atomic>
#include <cstdint>

#include "host/shm_layout.h"
#include "shm/futex.h"

namespace tilempi::transport::host {

inline std::uint64_t now_ns() {
  timespec ts;
  ::clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<std::uint64_t>(ts.tv_sec) * 1000000000ull + static_cast<std::uint64_t>(ts.tv_nsec);
}

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

/// Registers this process for the sleepers' asymmetric fence; true if the kernel allows it
/// (then writers in this process may skip their fence against owners with heavy_fence set).
bool register_light_fence();

/// The sleeper's heavy fence: every core running a registered process executes a full memory
/// barrier before this returns. False when the kernel refuses (then heavy_fence must be 0).
bool heavy_fence();

/// The writer's half, after its sequence store: wake the owner of `slot` if it said it sleeps.
/// light: this process is registered for the sleepers' fence (register_light_fence()).
inline void ring_doorbell(RankSlot* slot, bool light = false) {
  if (light && shared(slot->heavy_fence).load(std::memory_order_relaxed))
    std::atomic_signal_fence(std::memory_order_seq_cst);  // the sleeper fences for us
  else
    std::atomic_thread_fence(std::memory_order_seq_cst);
  if (shared(slot->sleeping).load(std::memory_order_relaxed)) {
    shared(slot->bell).fetch_add(1, std::memory_order_seq_cst);
    shm::futex_wake_all(&slot->bell);
  }
}

/// How long to spin before sleeping.
struct SpinPolicy {
  std::uint64_t spin_ns;      ///< busy-poll this long
  bool yield_while_spinning;  ///< sched_yield() every 64 polls
  int yields_before_sleep;    ///< then this many sched_yield()s, checking after each
};

/// Spinning is cheap while every rank has a core of its own and wasteful when others wait for
/// ours: 50 us alone, 2 us and two yields when oversubscribed (more ranks than cores).
SpinPolicy spin_policy(bool oversubscribed);

enum class WaitEnd {
  Work,     ///< has_work() said yes while spinning or yielding
  Timeout,  ///< the deadline passed before the sleep
  Slept,    ///< went to the doorbell (woken, timed out, or found work at the last check)
};

/// The sleeper's half, and the spinning before it. has_work() must use seq_cst loads of what
/// the writers store seq_cst (see above); nap_cap_ns bounds the sleep (a wake-up that the
/// writer does not fence, e.g. ring space released, can then only delay, never hang).
/// before_nap() runs once, right before the sleep (not while spinning): what the rank publishes
/// about its sleeping costs nothing to a wait that ends in the spin.
template <class HasWork, class BeforeNap>
WaitEnd wait_for_work(RankSlot* me, const SpinPolicy& policy, std::uint64_t timeout_ns, std::uint64_t nap_cap_ns,
                      HasWork&& has_work, BeforeNap&& before_nap);

/// The sleeping step alone: announce, fence (for light writers too, if me->heavy_fence),
/// re-check, FUTEX_WAIT at most nap_ns.
template <class HasWork>
void sleep_on_doorbell(RankSlot* me, std::uint64_t nap_ns, HasWork&& has_work) {
  const std::uint32_t bell = shared(me->bell).load(std::memory_order_acquire);
  shared(me->sleeping).store(1, std::memory_order_seq_cst);
  if (shared(me->heavy_fence).load(std::memory_order_relaxed) && !heavy_fence()) {
    // Refused after all: writers fence from now on; one that did not may have missed us, so
    // this sleep is short.
    shared(me->heavy_fence).store(0, std::memory_order_seq_cst);
    if (nap_ns > 200000) nap_ns = 200000;
  }
  if (!has_work()) shm::futex_wait(&me->bell, bell, nap_ns);
  shared(me->sleeping).store(0, std::memory_order_relaxed);
}

void yield_core();

template <class HasWork, class BeforeNap>
WaitEnd wait_for_work(RankSlot* me, const SpinPolicy& policy, std::uint64_t timeout_ns, std::uint64_t nap_cap_ns,
                      HasWork&& has_work, BeforeNap&& before_nap) {
  const std::uint64_t start = now_ns();
  const std::uint64_t deadline = timeout_ns > UINT64_MAX - start ? UINT64_MAX : start + timeout_ns;
  for (std::uint32_t i = 1;; ++i) {
    if (has_work()) return WaitEnd::Work;
    cpu_relax();
    if ((i & 63) == 0) {
      const std::uint64_t t = now_ns();
      if (t >= deadline) return WaitEnd::Timeout;
      if (t - start >= policy.spin_ns) break;
      if (policy.yield_while_spinning) yield_core();
    }
  }
  for (int i = 0; i < policy.yields_before_sleep; ++i) {
    yield_core();
    if (has_work()) return WaitEnd::Work;
  }
  const std::uint64_t t = now_ns();
  if (t >= deadline) return WaitEnd::Timeout;
  std::uint64_t nap = deadline - t;
  if (nap > nap_cap_ns) nap = nap_cap_ns;
  before_nap();
  sleep_on_doorbell(me, nap, has_work);
  return WaitEnd::Slept;
}

template <class HasWork>
WaitEnd wait_for_work(RankSlot* me, const SpinPolicy& policy, std::uint64_t timeout_ns, std::uint64_t nap_cap_ns,
                      HasWork&& has_work) {
  return wait_for_work(me, policy, timeout_ns, nap_cap_ns, has_work, [] {});
}

}  // namespace tilempi::transport::host
