// Collective calls in sequence: every collective call on a communicator has a tag range of its
// own on the collective lane, and a call that fails at one rank swallows what the other members
// still send that rank for it.
//
// Why: some arguments of a collective are checked only where they are used: the root's
// recvcounts and displacements of MPI_Gatherv, the root's receive buffer of MPI_Gather and
// MPI_Reduce, one rank's count of MPI_Scatter, each rank's own counts of MPI_Alltoallv. When such
// an argument is wrong at one rank, that rank returns its error class (under MPI_ERRORS_RETURN)
// while the others have already sent it their part of the call. With one fixed tag per
// collective, the next collective of the same kind on the communicator received those stale
// messages as its own data: a silent wrong result. Two mechanisms close that:
//
// - The sequence. Every member counts the blocking collective calls it makes on a communicator
//   (MPI requires the same order of collective calls at every member, so the counts agree), and
//   a call's messages carry tags in the range of its count; the non-blocking collectives have
//   had ranges of their own for the same reason (nonblocking.cpp). A later call can then never
//   match a failed call's messages, whatever the algorithm, the collective or the rank that
//   failed: no collective's code needs to know about errors elsewhere. The count is taken when
//   the communicator has been found valid and before any other argument is checked, so that a
//   call that fails on its arguments counts at every member as it does at the others. It costs
//   an increment per call and nothing on the wire (the tag is in every envelope already).
// - The drain. A rank whose call failed posts, for the call's tag range, receives of capacity
//   zero from any source, and posts each again when it has taken a message: the other members'
//   messages for that call are taken (a large one's sender, which waits for its receiver by
//   rendezvous, is released) and dropped, so that nothing piles up in the unexpected queue and no
//   sender waits for ever on a rank that has moved on. Draining in the root instead by running
//   the algorithm with stand-in buffers would need the sizes that the failed arguments were to
//   give, and the drain needs none. A drain ends when its communicator is freed, at
//   MPI_Finalize, or after kDrainCalls more calls on the communicator (long before the tag
//   ranges come round again).
//
// - The notice. A rank whose call fails before it has done its part (its own arguments are wrong,
//   so it sends nothing: a root of MPI_Bcast or MPI_Scatter, a contributor of MPI_Reduce or
//   MPI_Alltoallv, an inner rank of a tree) would leave the members that wait for its messages,
//   directly or through others, waiting for ever. So it also sends every other member an error
//   notice: a zero-byte message on the last tag of the call's range. The progress engine keeps
//   notices apart (p2p.cpp), and every wait of a collective's code (coll_waitall) ends when the
//   notice of its call is there: its receives not yet matched are taken back, and it returns
//   MPI_ERR_OTHER, so that the call fails there too and that rank drains the call as well. A
//   member whose part of the call was done before the notice came returns what it got (success
//   with complete data, or its own error); one that needed what the failed rank was to send can
//   only end by the notice. The notice costs nothing while nothing fails: no message, and a wait
//   looks at the (empty) list of notices only when it has to wait. A rank that failed because it
//   was told, or that did its part and only found a size mismatch (SizedCall), tells nobody.
//
// What this cannot end: the waits inside a transport's own collective operation (the static
// network's broadcast, the adapter's offloaded transfers) and a wait of the local part of an
// intercommunicator collective for a member of the other group (the notice goes to the remote
// group on the intercommunicator). docs/COVERAGE.md, "Errors in collectives".
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "coll/coll.h"
#include "p2p.h"
#include "request.h"
#include "runtime.h"
#include "tilempi/transport/rank_local.h"

namespace tilempi::mpi {

namespace coll {
namespace {

/// The blocking calls' ranges follow the non-blocking ones': ranges kNonblockingRanges + 1 up to
/// kNonblockingRanges + kBlockingRanges, the last tag of which is 2^31 - 1.
constexpr std::uint32_t kBlockingRanges = (1u << 22) - 1;
static_assert((std::uint64_t{kNonblockingRanges} + kBlockingRanges + 1) * kTagsPerCall - 1 <= 0x7fffffffu,
              "the collective lane's tags must fit an int");
/// A drain ends after this many more collective calls on its communicator.
constexpr std::uint32_t kDrainCalls = 1u << 16;
/// Failed calls drained at once per rank; a further failure ends the oldest drain.
constexpr std::size_t kMaxDrains = 8;

/// The receives that drain one failed call's tag range.
struct Drain {
  MPI_Comm handle = MPI_COMM_NULL;
  std::uint64_t context = 0;  ///< of the communicator the call failed on (a handle may be reused)
  std::uint32_t calls_then = 0;
  std::vector<int> tags;  ///< the absolute tags of the range that a collective uses
  std::vector<MPI_Request> receives;
};

/// A call that failed here after this rank did its part (part_done_with_error).
struct PartDone {
  std::uint64_t context;
  int tag_offset;
};

struct DrainState {
  std::vector<Drain> drains;
  std::vector<PartDone> parts_done;  ///< calls running now whose failure here needs no notice
  std::string failure_note;          ///< note_failure()
  unsigned char sink = 0;  ///< where the zero-byte receives point (never written)
};

DrainState& drain_state() {
  static transport::RankLocal<DrainState> s;  // per rank (see rank_local.h)
  return s.get();
}

std::uint32_t calls_so_far(const CollState& cs) { return cs.blocking_started + cs.nonblocking_started; }

/// Post the drain's receive of an absolute tag: the tag the running call would add (a
/// non-blocking collective's, when one runs) is taken off first, the blocking call's set aside.
MPI_Request post(Comm& comm, int absolute_tag) {
  CollState& cs = state(comm);
  const int saved = cs.call_tag_offset;
  cs.call_tag_offset = 0;
  MPI_Request r = MPI_REQUEST_NULL;
  irecv(&drain_state().sink, 0, MPI_BYTE, MPI_ANY_SOURCE, absolute_tag - coll_tag_offset(comm), comm, Lane::Coll, &r);
  cs.call_tag_offset = saved;
  return r;
}

void end(Drain& d) {
  for (MPI_Request r : d.receives) {
    if (request_get(r) && !request_get(r)->done) request_cancel(r);
    request_release(r);
  }
  d.receives.clear();
}

}  // namespace

namespace {
std::string& named_kind() {
  static transport::RankLocal<std::string> named;  // per rank (see rank_local.h)
  return named.get();
}
}  // namespace

void name_call_kind(const std::string& kind) {
  std::string& k = named_kind();
  if (k == kind) return;
  k = kind;
  transport_of_job().name_call_kind(k.empty() ? nullptr : k.c_str());
}

const std::string& call_kind() { return named_kind(); }

CallSequence::CallSequence(MPI_Comm handle) : handle_(handle) {
  if (nbc_running()) return;  // a non-blocking collective's code: its range is the call's
  Comm* c = comm_get(handle);
  if (!c) return;  // the call fails on its communicator, which it cannot count on
  CollState& cs = state(*c);
  comm_ = c;
  saved_kind_ = call_kind();
  saved_ = cs.call_tag_offset;
  const std::uint32_t range = kNonblockingRanges + 1 + cs.blocking_started++ % kBlockingRanges;
  cs.call_tag_offset = static_cast<int>(range * static_cast<std::uint32_t>(kTagsPerCall));
}

CallSequence::~CallSequence() {
  if (!comm_) return;
  state(*comm_).call_tag_offset = saved_;
  name_call_kind(saved_kind_);
}

void part_done_with_error(Comm& comm) {
  drain_state().parts_done.push_back({comm.context, coll_tag_offset(comm)});
}

int stage_failed(Comm& comm, int rc) {
  const std::uint64_t context = comm.context;
  const int offset = coll_tag_offset(comm);
  std::erase_if(drain_state().parts_done,
                [&](const PartDone& p) { return p.context == context && p.tag_offset == offset; });
  return rc;
}

void note_failure(std::string why) { drain_state().failure_note = std::move(why); }

std::string take_failure_note() { return std::exchange(drain_state().failure_note, std::string()); }

namespace {

/// Tell the call's other members that it failed here: a notice to each (on an
/// intercommunicator, to the remote group, which the call's transfers reach). Nobody waits for
/// these sends: each frees itself when the transport is done with it.
void send_notices(Comm& c) {
  const int n = c.inter ? c.peer_size() : c.size;
  for (int dest = 0; dest < n; ++dest) {
    if (!c.inter && dest == c.rank) continue;
    MPI_Request r = MPI_REQUEST_NULL;
    isend(&drain_state().sink, 0, MPI_BYTE, dest, kCollNoticeTag, c, Lane::Coll, false, &r);
    if (Request* q = request_get(r); q && !q->done) q->freed = true;
    else request_release(r);
  }
}

/// Drain the call running on c at this rank (once: a wait that was told has started it already).
void start_drain(Comm& c) {
  DrainState& s = drain_state();
  const int base = coll_tag_offset(c);
  for (const Drain& d : s.drains)
    if (d.context == c.context && d.tags.front() == base + kTagBarrier) return;
  if (s.drains.size() >= kMaxDrains) {
    end(s.drains.front());
    s.drains.erase(s.drains.begin());
  }
  Drain d;
  d.handle = c.handle;
  d.context = c.context;
  d.calls_then = calls_so_far(state(c));
  for (int t = kTagBarrier; t <= kTagLast; ++t) {
    d.tags.push_back(base + t);
    d.receives.push_back(post(c, base + t));
  }
  s.drains.push_back(std::move(d));
}

}  // namespace

void CallSequence::failed() {
  Comm* c = comm_find(handle_);  // (a non-blocking call's communicator, which may have been freed)
  if (!c) return;
  DrainState& s = drain_state();
  // Whether the others know already, or need not know: told by a notice, or this rank's part done.
  const bool told = coll_notice_take(*c);
  const std::uint64_t context = c->context;
  const int offset = coll_tag_offset(*c);
  const bool part_done = std::erase_if(s.parts_done, [&](const PartDone& p) {
                           return p.context == context && p.tag_offset == offset;
                         }) > 0;
  if (!told && !part_done) send_notices(*c);
  start_drain(*c);
}

bool drain_idle() { return drain_state().drains.empty(); }

void drain_progress() {
  DrainState& s = drain_state();
  if (s.drains.empty()) [[likely]]
    return;
  for (std::size_t i = 0; i < s.drains.size();) {
    Drain& d = s.drains[i];
    Comm* c = comm_get(d.handle);
    if (!c || c->context != d.context || calls_so_far(state(*c)) - d.calls_then > kDrainCalls) {
      end(d);
      s.drains.erase(s.drains.begin() + static_cast<std::ptrdiff_t>(i));
      continue;
    }
    for (std::size_t k = 0; k < d.receives.size(); ++k) {
      const Request* r = request_get(d.receives[k]);
      if (r && !r->done) continue;
      request_release(d.receives[k]);  // a message of the failed call, dropped
      d.receives[k] = post(*c, d.tags[k]);
    }
    ++i;
  }
}

void drains_clear() {
  DrainState& s = drain_state();
  for (Drain& d : s.drains) end(d);
  s.drains.clear();
}

}  // namespace coll

void coll_drain_call(Comm& comm) { coll::start_drain(comm); }

int coll_tag_offset(const Comm& comm) {
  if (int nbc = nbc_tag_offset()) return nbc;
  return comm.coll ? comm.coll->call_tag_offset : 0;
}

}  // namespace tilempi::mpi
