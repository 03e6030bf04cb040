// Non-blocking collectives (MPI_Ibarrier, MPI_Ibcast, ...): the blocking collective's own code,
// run as a coroutine on a stack of its own.
//
// Why a coroutine and not a second description of every algorithm: a collective algorithm of the
// registry is a sequence of rounds of sends, receives and local work, separated by waits. Run on
// its own stack, its waits are exactly the schedule's round boundaries: where the blocking call
// would wait, the coroutine hands control back to the caller (nbc_yield), and every later MPI
// call that runs the progress engine (MPI_Test, MPI_Wait, MPI_Iprobe, a send, ...) resumes it
// for one more step. So every registered algorithm, the mesh algorithms included, runs
// non-blocking with no second copy of it, and the user's --coll choice, the default selector and
// the fallbacks apply to MPI_Ixxx exactly as to MPI_xxx (docs/COLLECTIVES.md, "Non-blocking
// collectives").
//
// What differs from the blocking call:
// - Messages: every non-blocking collective on a communicator gets a tag range of its own (the
//   communicator's count of them, which every member agrees on because MPI requires them to be
//   started in the same order everywhere), so several of them, and blocking collectives, may be
//   in flight on one communicator at once without their messages matching each other's receives.
// - The static network: its broadcast blocks the rank until the word arrives, which a
//   non-blocking call must not do (the word's sender may be computing), so inside a coroutine
//   the algorithms use their point-to-point form (coll::static_routes_now()).
//
// The coroutines are the user-level contexts the sim transport runs ranks on
// (tilempi/transport/context.h), reused
// from a small pool: starting a collective costs a context switch, not a stack mapping.
#include <functional>
#include <memory>
#include <vector>

#include "coll/coll.h"
#include "p2p.h"
#include "request.h"
#include "tilempi/transport/context.h"
#include "tilempi/transport/rank_local.h"

namespace tilempi::mpi {

namespace {

using transport::Context;

/// A coroutine's stack: committed lazily (MAP_NORESERVE), so only what the collective and a
/// user's reduction function touch costs memory.
constexpr std::size_t kStackBytes = std::size_t{4} << 20;
/// Idle coroutines kept for reuse; more are unmapped when they finish.
constexpr std::size_t kMaxIdle = 8;

struct Op;

/// A coroutine that runs one Op after another.
struct Worker {
  std::unique_ptr<Context> context;
  Op* op = nullptr;
};

/// One non-blocking collective in progress.
struct Op {
  std::function<int()> body;  ///< the blocking collective's code, with the call's arguments
  MPI_Request request = MPI_REQUEST_NULL;
  int tag_offset = 0;
  std::string call_kind;  ///< what its code named (coll::name_call_kind), again at each resume
  int rc = MPI_SUCCESS;
  bool finished = false;
  std::unique_ptr<Worker> worker;
};

struct State {
  Context caller;  ///< the rank's own stack while a coroutine runs
  std::vector<std::unique_ptr<Worker>> idle;
  std::vector<std::unique_ptr<Op>> pending;  ///< in start order: resumed in that order
  Op* current = nullptr;                     ///< the collective whose code runs now
};

State& state_of_rank() {
  static transport::RankLocal<State> s;  // per rank (see rank_local.h)
  return s.get();
}

[[noreturn]] void worker_main(void* arg) {
  auto* w = static_cast<Worker*>(arg);
  for (;;) {
    Op* op = w->op;
    op->rc = op->body();
    op->finished = true;
    Context::switch_to(*w->context, state_of_rank().caller);
  }
}

/// Run op's code until it waits or ends; an ended op gives its coroutine back and completes its
/// request (with the collective's error class, which its code has already reported through the
/// communicator's error handler).
void resume(State& s, Op& op) {
  // Its messages are its own collective's, whichever call resumes it (the energy per call kind).
  std::string outer = coll::call_kind();
  coll::name_call_kind(op.call_kind);
  s.current = &op;
  Context::switch_to(s.caller, *op.worker->context);
  s.current = nullptr;
  op.call_kind = coll::call_kind();
  coll::name_call_kind(outer);
  if (!op.finished) return;
  op.worker->op = nullptr;
  if (s.idle.size() < kMaxIdle) s.idle.push_back(std::move(op.worker));
  op.worker.reset();
  op.body = nullptr;  // the call's arguments and scratch buffers go now, not at the next start
}

std::unique_ptr<Worker> take_worker(State& s) {
  if (!s.idle.empty()) {
    auto w = std::move(s.idle.back());
    s.idle.pop_back();
    return w;
  }
  auto w = std::make_unique<Worker>();
  w->context = std::make_unique<Context>(&worker_main, w.get(), kStackBytes);
  return w;
}

}  // namespace

bool nbc_running() { return state_of_rank().current != nullptr; }

bool nbc_idle() {
  const State& s = state_of_rank();
  return !s.current && s.pending.empty() && coll::drain_idle();
}

void nbc_yield() {
  State& s = state_of_rank();
  Op* op = s.current;
  Context::switch_to(*op->worker->context, s.caller);
}

int nbc_tag_offset() {
  const Op* op = state_of_rank().current;
  return op ? op->tag_offset : 0;
}

void nbc_progress() {
  State& s = state_of_rank();
  if (s.current) return;
  coll::drain_progress();
  if (s.pending.empty()) return;
  for (std::size_t i = 0; i < s.pending.size();) {
    Op& op = *s.pending[i];
    resume(s, op);
    if (!op.finished) {
      ++i;
      continue;
    }
    const MPI_Request h = op.request;
    const int rc = op.rc;
    s.pending.erase(s.pending.begin() + static_cast<std::ptrdiff_t>(i));
    complete_generic_request(h, rc);
  }
}

int nbc_start(Comm& comm, std::function<int()> body, MPI_Request* request) {
  State& s = state_of_rank();
  if (s.current) return body();  // not reached: no collective's code starts another
  auto op = std::make_unique<Op>();
  op->body = std::move(body);
  CollState& cs = coll::state(comm);
  op->tag_offset = static_cast<int>((cs.nonblocking_started++ % coll::kNonblockingRanges) + 1) * coll::kTagsPerCall;
  op->worker = take_worker(s);
  op->worker->op = op.get();
  // The call runs up to its first wait now: arguments are checked (and a bad one reported under
  // the MPI_Ixxx name) and the first round's messages leave before the call returns.
  resume(s, *op);
  if (op->finished) {
    *request = MPI_REQUEST_NULL;
    if (op->rc != MPI_SUCCESS) return op->rc;
    *request = new_generic_request(comm.handle);
    complete_generic_request(*request, MPI_SUCCESS);
    return MPI_SUCCESS;
  }
  op->request = *request = new_generic_request(comm.handle);
  s.pending.push_back(std::move(op));
  return MPI_SUCCESS;
}

}  // namespace tilempi::mpi
