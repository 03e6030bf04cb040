// The shortcuts of blocking point-to-point on a transport in real time: a send that needs no
// request, a receive that waits without one (recv_direct) or takes its message straight from the
// transport (recv_at_once, p2p_fast.h). Each takes only the case whose outcome it can tell alone
// and otherwise leaves the call to the general path (p2p.cpp), which then does everything.
// Whether they apply at all is Runtime::real_time (and Runtime::direct_p2p for p2p_fast.h).
#include "hooks.h"
#include "p2p_fast.h"
#include "p2p_state.h"

namespace tilempi::mpi {

using namespace pt2pt;

bool send_direct(const void* buf, std::size_t count, const Datatype& type, int dest, int tag, Comm& comm,
                 MPI_Request* pending) {
  return send_now(buf, count, type, dest, tag, comm, Lane::User, MPI_REQUEST_NULL, pending);
}

bool recv_direct(void* buf, std::size_t count, const Datatype& t, int source, int tag, Comm& comm,
                 MPI_Status* status, int* rc) {
  ProgressEngine& e = engine();
  // Under MPI_THREAD_MULTIPLE another thread's receives may be posted while this one waits: they
  // all take the general path, whose matching sees every posted receive.
  if (source == MPI_PROC_NULL || !e.posted.empty() || e.direct || !t.contiguous || !runtime().real_time ||
      threads::g_multiple)
    return false;
  for (const Unexpected& u : e.unexpected)
    if (matches(u, comm.context, source, tag)) return false;  // the general path delivers it
  DirectRecv d;
  d.context = comm.context;
  d.comm = comm.handle;
  d.source = source;
  d.tag = tag;
  d.buf = buf;
  d.capacity = count * t.size;
  transport::Transport& tp = transport_of_job();
  // From one source, the transport may hand over the next message from it at once when it is
  // this one (Transport::take_next). Nothing queued matches, so it is the oldest that could.
  const int first = source == MPI_ANY_SOURCE ? -1 : comm.peers()[source];
  const transport::EnvelopeMatch match = envelope::rule(comm.context, source, tag);
  e.direct = &d;
  // progress() in two halves: once the message is here, the rest (non-blocking collectives,
  // one-sided) waits for the next call instead of delaying this one's return; while it waits,
  // every pass runs it all.
  for (;;) {
    if (first >= 0) {
      transport::Envelope env;
      if (tp.take_next(first, match, buf, d.capacity, &env, &d.size) > 0) {
        d.matched = true;
        d.got_source = source;
        d.got_tag = envelope::tag_of(env);
        break;
      }
    }
    progress_messages(e, tp);
    if (d.matched && (d.fetch == kDone || tp.fetch_done(d.fetch))) break;
    progress_others();
    progress_wait();
  }
  e.direct = nullptr;
  MPI_Status s{d.got_source, d.got_tag, d.size > d.capacity ? MPI_ERR_TRUNCATE : MPI_SUCCESS, 0, 0, 0};
  status_set_bytes(s, std::min(d.size, d.capacity));
  status_set(status, s);
  *rc = s.MPI_ERROR;
  return true;
}

MPI_Request send_pending(transport::OpId op, MPI_Comm comm, int dest) {
  ProgressEngine& e = engine();
  Request* r;
  const MPI_Request h = new_request(e, Request::Kind::Send, comm, &r);
  r->op = op;
  r->peer = dest;
  r->send_number = envelope::g_last_send_number;  // (send_fast's, the last one)
  track(e, h, op, true, false);
  return h;
}

bool recv_at_once(void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm, MPI_Status* status,
                  int* rc) {
  const Runtime* rt;
  const Comm* c;
  const Datatype* t;
  if (!fast_lookup(comm, type, &rt, &c, &t)) [[unlikely]]
    return false;
  // (MPI_ANY_SOURCE and MPI_PROC_NULL are negative: the general path takes them.)
  if (c->inter || !t->committed || !t->contiguous || count < 0 ||
      static_cast<unsigned>(source) >= static_cast<unsigned>(c->size) || (tag < 0 && tag != MPI_ANY_TAG) ||
      (!buf && count != 0 && t->size != 0)) [[unlikely]]
    return false;
  ProgressEngine* first = g_engine.first();  // (fast_lookup() has seen slot 0)
  ProgressEngine& e = first ? *first : engine();
  if (!e.posted.empty() || e.direct) [[unlikely]]
    return false;
  bool fetching = false;  // an unexpected message still being copied in (progress passes finish it)
  for (const Unexpected& u : e.unexpected) {
    if (matches(u, c->context, source, tag)) return false;  // the general path delivers it
    fetching |= u.fetch != kDone;
  }
  const transport::EnvelopeMatch match = envelope::rule(c->context, source, tag);
  const std::size_t capacity = static_cast<std::size_t>(count) * t->size;
  const int from = c->world[static_cast<std::size_t>(source)];
  transport::Transport& tp = *rt->transport;
  transport::Envelope env;
  std::size_t size;
  int got = tp.take_next(from, match, buf, capacity, &env, &size);
  // Not there yet: wait on that source alone while nothing else at this rank needs progress.
  if (got == 0 && e.in_flight.empty() && !fetching && nbc_idle() && onesided_idle())
    got = tp.wait_take_next(from, match, buf, capacity, &env, &size);
  if (got <= 0) return false;
  if (status && status != MPI_STATUS_IGNORE) {
    status->MPI_SOURCE = source;
    status->MPI_TAG = envelope::tag_of(env);
    status->tilempi_cancelled = 0;  // (MPI_ERROR is the caller's: status_set())
    status_set_bytes(*status, size < capacity ? size : capacity);
  }
  *rc = size > capacity ? MPI_ERR_TRUNCATE : MPI_SUCCESS;
  return true;
}

}  // namespace tilempi::mpi
