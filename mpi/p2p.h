// The library's own point-to-point: what the MPI_ calls and the collectives are built on.
// Matching follows MPI (source, tag, context; non-overtaking; ANY_SOURCE / ANY_TAG). No argument
// checking and no error handlers here: callers check, these return MPI error codes.
#pragma once

#include <cstddef>
#include <string>

#include "comm.h"
#include "mpi.h"
#include "request.h"

namespace tilempi::mpi {

// Counts are size_t: the MPI_ entry points pass their int counts, the collectives pass byte
// counts of any size (a collective moves what point-to-point moves, beyond 2 GiB too).

/// Traffic lanes of a communicator: user messages never match the collectives' messages.
enum class Lane { User, Coll };

/// MPI_Send's short path on a transport in real time: a standard-mode send of a contiguous type
/// to another rank needs no request when the transport takes it at once. False when the call
/// must take the general path (nothing was sent); true when the message was handed to the
/// transport: *pending is MPI_REQUEST_NULL if it completed, else a request to wait for.
bool send_direct(const void* buf, std::size_t count, const Datatype& type, int dest, int tag, Comm& comm,
                 MPI_Request* pending);

/// MPI_Recv's short path on a transport in real time: with no receive posted and nothing queued
/// that matches, a contiguous receive waits for its message without a request and copies it
/// straight from the transport. False when the call must take the general path (nothing was
/// done); true when the message was received: *status is set, *rc is its error (truncation).
bool recv_direct(void* buf, std::size_t count, const Datatype& type, int source, int tag, Comm& comm,
                 MPI_Status* status, int* rc);

int isend(const void* buf, std::size_t count, MPI_Datatype type, int dest, int tag, Comm& comm, Lane lane,
          bool synchronous, MPI_Request* request);
int irecv(void* buf, std::size_t count, MPI_Datatype type, int source, int tag, Comm& comm, Lane lane,
          MPI_Request* request);
/// The same with the type's description (the entry points have looked it up already).
int isend(const void* buf, std::size_t count, const Datatype& type, int dest, int tag, Comm& comm, Lane lane,
          bool synchronous, MPI_Request* request);
int irecv(void* buf, std::size_t count, const Datatype& type, int source, int tag, Comm& comm, Lane lane,
          MPI_Request* request);
/// A persistent request (inactive until start()). kind Send takes mode; peer is the destination
/// or the source.
int persistent_init(Request::Kind kind, SendMode mode, const void* buf, std::size_t count, MPI_Datatype type,
                    int peer, int tag, Comm& comm, MPI_Request* request);
/// Begin one operation of an inactive persistent request. MPI_ERR_BUFFER if a buffered send
/// does not fit in the attached buffer.
int start(MPI_Request h);

/// A buffered send from this rank's attached buffer (MPI_Bsend): returns once the data is copied
/// there. MPI_ERR_BUFFER if it does not fit (with the free space in *detail).
int bsend(const void* buf, std::size_t count, MPI_Datatype type, int dest, int tag, Comm& comm,
          std::string* detail);
/// MPI_Buffer_attach / MPI_Buffer_detach (detach waits until every buffered send has left).
int buffer_attach(void* buf, std::size_t size);
int buffer_detach(void** buf, std::size_t* size);
bool buffer_attached();
/// Wait until every buffered send has left the attached buffer.
void bsend_drain();

/// Matched probe: takes the first matching unexpected message off the queue and names it with
/// *message (MPI_MESSAGE_NO_PROC for MPI_PROC_NULL); false if there is none yet.
bool improbe(int source, int tag, Comm& comm, MPI_Message* message, MPI_Status* status);
/// Receive a message that improbe took (MPI_Imrecv); *message becomes MPI_MESSAGE_NULL.
int imrecv(void* buf, std::size_t count, MPI_Datatype type, MPI_Message* message, MPI_Request* request);
/// A message handle improbe returned and no receive has taken yet (MPI_MESSAGE_NO_PROC too).
bool message_valid(MPI_Message m);

/// A request that another part of the library completes (a non-blocking collective): pending
/// until complete_generic_request(h, error class).
MPI_Request new_generic_request(MPI_Comm comm);
void complete_generic_request(MPI_Request h, int error);
/// The same with the status a wait or test returns (MPI_Isendrecv: the receive's).
void complete_generic_request(MPI_Request h, int error, const MPI_Status& status);

/// Blocks until done; frees the request (sets it to MPI_REQUEST_NULL). Returns the request's error.
int wait(MPI_Request* request, MPI_Status* status);
/// Returns MPI_ERR_IN_STATUS if some request failed (details in statuses), else MPI_SUCCESS.
int waitall(int count, MPI_Request* requests, MPI_Status* statuses);
/// MPI_Waitall after its checks (every handle MPI_REQUEST_NULL or live): waits for all, then
/// sets each status and frees each request (a persistent one becomes inactive). Returns
/// MPI_SUCCESS, or the failing request's error (MPI_ERR_IN_STATUS with statuses), with that
/// request's communicator in *err_comm.
int waitall_requests(int count, MPI_Request* requests, MPI_Status* statuses, MPI_Comm* err_comm);
/// The index of the first handle that is neither MPI_REQUEST_NULL nor a live request, or -1.
int first_invalid_request(int count, const MPI_Request* requests);
/// Non-blocking probe of the unexpected messages.
bool iprobe(int source, int tag, Comm& comm, Lane lane, MPI_Status* status);
/// Run the progress engine once.
void progress();
/// A one-line list of this rank's posted receives and unfinished sends (for deadlock reports).
std::string describe_pending();

/// The lengths of the rank's point-to-point queues, for the tool information interface's
/// performance variables (api_tool.cpp): receives posted and not matched, messages arrived and
/// not received, transport sends and fetches not finished (p2p_queues.cpp).
struct QueueLengths {
  unsigned long long posted = 0;
  unsigned long long unexpected = 0;
  unsigned long long in_flight = 0;
};
QueueLengths queue_lengths();

/// Wait for requests of one collective call (on the collective lane of one communicator), as
/// waitall does, unless the call fails at another member first: when that member's error notice
/// arrives (coll/call_sequence.cpp), the receives not yet matched are cancelled, the rest (sends,
/// receives under way) are waited for, every request is freed and MPI_ERR_OTHER is returned.
/// Otherwise the first request's error; statuses may be MPI_STATUSES_IGNORE.
int coll_waitall(int count, MPI_Request* requests, MPI_Status* statuses);

// Shorthands for collective algorithms (Lane::Coll, blocking; their waits are coll_waitall's).
int coll_send(const void* buf, std::size_t count, MPI_Datatype type, int dest, int tag, Comm& comm);
int coll_recv(void* buf, std::size_t count, MPI_Datatype type, int source, int tag, Comm& comm);
inline int coll_isend(const void* buf, std::size_t count, MPI_Datatype type, int dest, int tag, Comm& comm,
                      MPI_Request* r) {
  return isend(buf, count, type, dest, tag, comm, Lane::Coll, false, r);
}
inline int coll_irecv(void* buf, std::size_t count, MPI_Datatype type, int source, int tag, Comm& comm,
                      MPI_Request* r) {
  return irecv(buf, count, type, source, tag, comm, Lane::Coll, r);
}

}  // namespace tilempi::mpi
