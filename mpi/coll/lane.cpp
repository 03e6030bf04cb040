// The collective lane of the progress engine (p2p_state.h): the waits of a collective call's
// code, which end early when another member's call failed (its error notice arrived,
// coll/call_sequence.cpp), and the notices themselves, which matching hands here (take_notice)
// instead of queueing them with the messages.
#include "../p2p_state.h"

namespace tilempi::mpi {

using namespace pt2pt;

namespace {

// The oldest notices go when there are this many (a notice that arrives after its call has
// ended here stays until then).
constexpr std::size_t kKeptNotices = 64;

// Whether the notice of the call running on request r's communicator has arrived.
bool notice_for(ProgressEngine& e, const Request& r) {
  if (!e.notice_fetches.empty()) {
    transport::Transport& tp = transport_of_job();
    std::erase_if(e.notice_fetches, [&](transport::OpId op) { return tp.fetch_done(op); });
  }
  const Comm* c = comm_find(r.comm);  // (a pending collective's, which may have been freed)
  if (!c) return false;
  const std::uint64_t context = c->context + 1;
  const int tag = coll_tag_offset(*c) + kCollNoticeTag;
  for (const ProgressEngine::Notice& n : e.notices)
    if (n.context == context && n.tag == tag) return true;
  return false;
}

}  // namespace

// A collective call's error notice: kept by the call it names, the transport's copy released.
bool pt2pt::take_notice(ProgressEngine& e, transport::Transport& tp, const Arrival& a, const envelope::Fields& f) {
  if (!(f.context & 1) || (f.tag & (kCollTagsPerCall - 1)) != kCollNoticeTag) [[likely]]
    return false;
  static char sink;
  const transport::OpId op = tp.fetch(a, &sink, 0);
  if (op != kDone) e.notice_fetches.push_back(op);
  if (e.notices.size() >= kKeptNotices) e.notices.erase(e.notices.begin());
  e.notices.push_back({f.context, f.tag});
  return true;
}

bool coll_notice_take(const Comm& comm) {
  ProgressEngine& e = engine();
  if (e.notices.empty()) [[likely]]
    return false;
  const std::uint64_t context = comm.context + 1;
  const int tag = coll_tag_offset(comm) + kCollNoticeTag;
  return std::erase_if(e.notices, [&](const ProgressEngine::Notice& n) { return n.context == context && n.tag == tag; }) > 0;
}

int coll_waitall(int count, MPI_Request* requests, MPI_Status* statuses) {
  ProgressEngine& e = engine();
  int rc = MPI_SUCCESS;
  bool told = false;
  // One wait per request in turn, as waitall's: the same progress passes as before there were
  // notices, so that no modeled cycle moves. Only a wait that has to wait looks at notices.
  int i = 0;
  for (; i < count; ++i) {
    MPI_Status* st = statuses == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &statuses[i];
    Request* r = request_get(requests[i]);
    // The algorithms read each status whole, MPI_ERROR included (p2p_bytes.cpp: a truncated
    // receive), unlike a user's wait (status_set()).
    if (!r) {
      if (st != MPI_STATUS_IGNORE) *st = MPI_Status{MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_SUCCESS, 0, 0, 0};
      continue;
    }
    // Only a receive heeds a notice: a send is taken by its receiver or by the drain of a member
    // that failed the call (so a rank that only sends to a failed one completes, as before).
    progress_until([&] {
      if (r->done) return true;
      if (e.notices.empty()) [[likely]] {
        expect_completion_of(*r);
        return false;
      }
      return told = r->kind == Request::Kind::Recv && notice_for(e, *r);
    });
    if (told) break;
    if (st != MPI_STATUS_IGNORE) *st = r->status;
    if (rc == MPI_SUCCESS) rc = r->error;
    request_finish(&requests[i]);
  }
  if (!told) return rc;
  // Another member failed the call: what was to come from it (directly or not) will not. The
  // receives not yet matched are taken back, and what the others still send this rank for the
  // call is drained from now on; a matched receive is under way, and a send is taken by its
  // receiver or, when that member fails the call too, by its drain: both finish.
  const MPI_Comm handle = request_get(requests[i])->comm;
  for (int k = i; k < count; ++k) {
    const Request* r = request_get(requests[k]);
    if (r && !r->done && r->kind == Request::Kind::Recv) request_cancel(requests[k]);
  }
  if (Comm* c = comm_find(handle)) coll_drain_call(*c);
  int first = i;
  progress_until([&] {
    for (; first < count; ++first) {
      const Request* r = request_get(requests[first]);
      if (r && !r->done) return false;
    }
    return true;
  });
  for (int k = i; k < count; ++k) {
    if (statuses != MPI_STATUSES_IGNORE) {
      const Request* r = request_get(requests[k]);
      statuses[k] = r ? r->status : MPI_Status{MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_SUCCESS, 0, 0, 0};
      statuses[k].MPI_ERROR = MPI_ERR_OTHER;
    }
    request_finish(&requests[k]);
  }
  return MPI_ERR_OTHER;
}

int coll_send(const void* buf, std::size_t count, MPI_Datatype type, int dest, int tag, Comm& comm) {
  MPI_Request r;
  int rc = isend(buf, count, type, dest, tag, comm, Lane::Coll, false, &r);
  return rc == MPI_SUCCESS ? coll_waitall(1, &r, MPI_STATUSES_IGNORE) : rc;
}

int coll_recv(void* buf, std::size_t count, MPI_Datatype type, int source, int tag, Comm& comm) {
  MPI_Request r;
  int rc = irecv(buf, count, type, source, tag, comm, Lane::Coll, &r);
  return rc == MPI_SUCCESS ? coll_waitall(1, &r, MPI_STATUSES_IGNORE) : rc;
}

}  // namespace tilempi::mpi
