// MPI_THREAD_MULTIPLE on a transport in real time: one lock serialises the whole library (the
// progress engine, requests, communicators, the transport's rings). A thread takes it at the start
// of its outermost MPI call and gives it back at the end, and also while it waits for progress
// (pause_for_others): otherwise a thread blocked in MPI_Recv would keep out the thread whose send
// it waits for. A waiting thread does not sleep in the transport, whose state is the lock's to
// guard; it yields, and after a short spin of yields it naps briefly between looks. Without
// MULTIPLE nothing here runs: the entry points test one flag (ApiScope).
#include <sched.h>
#include <time.h>

#include <mutex>

#include "runtime.h"

namespace tilempi::mpi::threads {

bool g_multiple = false;

namespace {

std::mutex g_lock;
thread_local bool t_holds = false;
thread_local unsigned t_pauses = 0;  // pauses of this thread's current blocking wait

// A message usually arrives within a few microseconds of the wait's start (the other rank is
// running): the first pauses only yield. A wait that lasts is one where the rank idles: then each
// pause naps, so that the waiting threads do not spin on an oversubscribed machine.
constexpr unsigned kYieldOnlyPauses = 2000;

}  // namespace

bool enter() {
  if (t_holds) return false;
  g_lock.lock();
  t_holds = true;
  return true;
}

void leave() {
  t_holds = false;
  g_lock.unlock();
}

bool pause_for_others() {
  if (!g_multiple || !t_holds) return false;
  g_lock.unlock();
  sched_yield();  // lets a runnable thread of this rank in at once
  if (++t_pauses > kYieldOnlyPauses) {
    const timespec nap{0, 20000};
    nanosleep(&nap, nullptr);
  }
  g_lock.lock();
  return true;
}

void wait_begins() { t_pauses = 0; }

}  // namespace tilempi::mpi::threads
