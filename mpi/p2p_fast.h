// The fast path of small blocking point-to-point messages on a transport in real time
// (Runtime::direct_p2p): MPI_Send goes from its argument checks straight to the transport's
// send(), MPI_Recv straight from the transport's next record of its source to the user's
// buffer, each before the call's bracket (ApiScope), without a request, a progress pass or a
// second look-up of anything. Each takes only the case whose outcome it can tell alone, and
// otherwise returns false having done nothing: the MPI_ function then runs its general path,
// which checks again (raising the error a bad argument gets), matches and waits as always. So
// every rule of MPI is the general path's; the fast path only adds a way to skip it where the
// result is the same:
//
//   send: a standard-mode send of a contiguous, committed type to another member of an
//   intracommunicator, handed to the transport's send() as the general path would hand it (the
//   envelope is envelope.h's, as every path writes it). It usually leaves at once; when the transport keeps it
//   pending (its ring full, or earlier sends queued, which it keeps in order), it gets a request
//   as in the general path, out of line.
//
//   receive: from one source (not MPI_ANY_SOURCE) of an intracommunicator, into a contiguous,
//   committed type, while no receive is posted and no queued (unexpected) message matches: then
//   the next record from that source in the transport, if it matches, is the oldest message the
//   receive could take (non-overtaking), and it goes straight into the buffer. When nothing is
//   there yet and nothing else is pending at this rank (no transfer in flight, no non-blocking
//   collective, no window), the transport spins on that source's ring (wait_take_next) until
//   it comes or anything else needs attention.
//
// The bracket is skipped because it has nothing to do then: it brackets calls only for a
// transport with virtual time, takes the lock only under MPI_THREAD_MULTIPLE, and keeps errno
// across system calls, which the fast path makes none of that could set it (a doorbell's
// FUTEX_WAKE does not fail, and the spin reads the clock through the vDSO).
#pragma once

#include <cstddef>
#include <cstdint>

#include "comm.h"
#include "datatype.h"
#include "envelope.h"
#include "mpi.h"
#include "runtime.h"

namespace tilempi::mpi {

/// The fast paths' look-ups: this rank's runtime, if it allows them (Runtime::direct_p2p), and
/// the communicator and the type, if their handles are live. One look at the rank slot for the
/// three (a process that is one rank has slot 0; the simulator's contexts never get here).
[[gnu::always_inline]] inline bool fast_lookup(MPI_Comm comm, MPI_Datatype type, const Runtime** rt, const Comm** c,
                                               const Datatype** t) {
  if (transport::current_rank_slot() != 0) [[unlikely]]
    return false;
  const Runtime* r = g_runtime.first();
  const detail::CommTables* ct = detail::g_comm_tables.first();
  const detail::DatatypeTable* dt = detail::g_datatype_table.first();
  if (!r || !r->direct_p2p || !ct || !dt) [[unlikely]]
    return false;
  if (comm <= 0 || static_cast<std::size_t>(comm) >= ct->comms.size() || type <= 0 ||
      static_cast<std::size_t>(type) >= dt->live.size()) [[unlikely]]
    return false;
  *rt = r;
  *c = ct->comms[static_cast<std::size_t>(comm)].get();
  *t = dt->live[static_cast<std::size_t>(type)].get();
  return *c && *t;
}

/// MPI_Send's and MPI_Isend's fast path: the checks, then the transport's send(). True when the
/// message was handed over, with the transport's operation in *op (kDone: it has left the buffer,
/// the usual case; else send_pending() gives it a request); false, having done nothing, when the
/// general path must run.
[[gnu::always_inline]] inline bool send_fast(const void* buf, int count, MPI_Datatype type, int dest, int tag,
                                             MPI_Comm comm, transport::OpId* op) {
  const Runtime* rt;
  const Comm* c;
  const Datatype* t;
  if (!fast_lookup(comm, type, &rt, &c, &t)) [[unlikely]]
    return false;
  if (c->inter || !t->committed || !t->contiguous || count < 0 || tag < 0 ||
      static_cast<unsigned>(dest) >= static_cast<unsigned>(c->size) || dest == c->rank ||
      (!buf && count != 0 && t->size != 0)) [[unlikely]]
    return false;
  *op = rt->transport->send(c->world[static_cast<std::size_t>(dest)], envelope::encode(c->context, c->rank, tag), buf,
                            static_cast<std::size_t>(count) * t->size, transport::SendMode::Standard);
  return true;
}

/// A send of send_fast() to dest that the transport keeps pending (its ring full, or a queue before
/// it): a request for it, completed when the operation is, as the general path's
/// (p2p_shortcuts.cpp). Called right after send_fast(), before any other send.
MPI_Request send_pending(transport::OpId op, MPI_Comm comm, int dest);

/// MPI_Recv's fast path: true when the message was received (*status set, *rc its error:
/// MPI_SUCCESS or MPI_ERR_TRUNCATE, which the caller raises); false, having done nothing, when
/// the general path must run.
bool recv_at_once(void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm, MPI_Status* status,
                  int* rc);

}  // namespace tilempi::mpi
