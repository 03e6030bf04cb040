// Requests: the state of a pending send or receive, behind an integer handle.
#pragma once

#include <cstdint>
#include <vector>

#include "datatype.h"
#include "mpi.h"
#include "tilempi/transport/transport.h"

namespace tilempi::mpi {

struct Comm;

/// How a send completes: Ready is Standard (the standard allows that; the receive is not
/// checked), Buffered copies into the attached buffer and completes at once.
enum class SendMode { Standard, Synchronous, Ready, Buffered };

/// A generalized request's callbacks (MPI_Grequest_start, api_grequest.cpp), in the language they
/// were given in. `active` until the request is freed (free_fn has run).
struct GrequestCalls {
  bool active = false;
  bool fortran = false;
  void (*query)() = nullptr;
  void (*free)() = nullptr;
  void (*cancel)() = nullptr;
  void* extra_state = nullptr;  ///< Fortran: the INTEGER(KIND=MPI_ADDRESS_KIND) value itself
};

struct Request {
  /// Generic: completed by another part of the library (a non-blocking collective).
  enum class Kind { Send, Recv, Generic };
  Kind kind = Kind::Send;
  bool live = false;               ///< the handle names this request (slots are reused)
  MPI_Comm comm = MPI_COMM_NULL;   ///< for the error handler
  bool done = false;
  bool freed = false;              ///< MPI_Request_free'd while pending: release when it completes
  int error = MPI_SUCCESS;
  MPI_Status status{};
  transport::OpId op = transport::kDone;  ///< pending transport send or fetch
  bool awaited = false;            ///< among the requests an MPI_Waitall in progress waits for
  std::vector<char> staging;       ///< packed data of a non-contiguous send or receive

  // Receives only.
  void* buf = nullptr;
  std::size_t count = 0;
  const Datatype* type = nullptr;
  int source = MPI_ANY_SOURCE;
  int tag = MPI_ANY_TAG;
  std::uint64_t context = 0;
  std::size_t received = 0;        ///< bytes that will land in buf

  // Buffered sends: the segment of the attached buffer that holds the data until it is sent.
  std::size_t bsend_offset = 0;
  std::size_t bsend_size = 0;      ///< 0: none

  // Persistent requests (MPI_Send_init, MPI_Recv_init, ...): the arguments MPI_Start uses. The
  // handle lives until MPI_Request_free; a wait or test of a completed operation makes it
  // inactive again instead of freeing it.
  bool persistent = false;
  bool active = false;
  SendMode mode = SendMode::Standard;
  const void* send_buf = nullptr;   ///< (the type is `type` above, for sends too)
  int peer = MPI_PROC_NULL;

  // What the request holds until it is released (holds.h): a receive's derived datatype, whose
  // description it unpacks into at completion; a persistent request's communicator and datatype,
  // which each MPI_Start uses.
  const Datatype* held_type = nullptr;
  Comm* held_comm = nullptr;

  GrequestCalls grequest;           ///< a generalized request (kind Generic): its callbacks

  // A send to another rank: its number in the envelope (envelope.h, word[2]); `peer` is its
  // destination in the communicator. MPI_Cancel asks the receiver to drop it (p2p_cancel.cpp):
  // until the answer, the request does not complete.
  enum class CancelAsk : unsigned char { None, Asked, AskedAndSent };
  std::uint64_t send_number = 0;
  CancelAsk cancel_ask = CancelAsk::None;

  /// A fresh request in a reused slot: every field as a new Request has it, the staging
  /// vector's memory kept (cheaper than assigning a new Request on every message).
  void reset(Kind k, MPI_Comm c) {
    kind = k;
    live = true;
    comm = c;
    done = false;
    freed = false;
    error = MPI_SUCCESS;
    status = MPI_Status{};
    op = transport::kDone;
    awaited = false;
    staging.clear();
    buf = nullptr;
    count = 0;
    type = nullptr;
    source = MPI_ANY_SOURCE;
    tag = MPI_ANY_TAG;
    context = 0;
    received = 0;
    bsend_offset = 0;
    bsend_size = 0;
    persistent = false;
    active = false;
    mode = SendMode::Standard;
    send_buf = nullptr;
    peer = MPI_PROC_NULL;
    held_type = nullptr;
    held_comm = nullptr;
    grequest.active = false;
    send_number = 0;
    cancel_ask = CancelAsk::None;
  }
};

/// The handle of every send that completed inside its MPI_Isend (p2p.cpp, kSendComplete): one
/// permanent, completed request that all such sends share.
constexpr MPI_Request kSendCompleteRequest = 1;

/// nullptr when h is not a live request.
Request* request_get(MPI_Request h);
/// Release a completed request's handle.
void request_release(MPI_Request h);
/// Cancel a pending receive that has not matched, or a synchronous send to this rank that
/// has not matched; false if too late. A pending send to another rank is asked back from its
/// receiver (p2p_cancel.cpp): true, and the request completes, cancelled or not, when the answer
/// has come.
bool request_cancel(MPI_Request h);
/// MPI_REQUEST_NULL or an inactive persistent request: what waits and tests skip.
bool request_inactive(MPI_Request h);
/// After a wait or test saw request *h done: free it and set *h to MPI_REQUEST_NULL, or make a
/// persistent request inactive.
void request_finish(MPI_Request* h);
/// A generalized request that a wait or test completes (its status about to be read, the request
/// about to be freed): runs its query_fn into r.status and then its free_fn; r.error becomes the
/// first failing callback's code (api_grequest.cpp). Nothing for any other request.
void grequest_conclude(Request& r);
/// MPI_Request_free of a generalized request: runs its free_fn now if it is complete, else
/// MPI_Grequest_complete will. Returns the callback's code.
int grequest_free(Request& r);
/// MPI_Grequest_start with C (fortran false) or Fortran callbacks (their extra_state the
/// INTEGER(KIND=MPI_ADDRESS_KIND) value). Errors go to MPI_COMM_WORLD's handler.
int grequest_start(bool fortran, void (*query)(), void (*free)(), void (*cancel)(), void* extra_state,
                   MPI_Request* request);
/// MPI_Cancel of a generalized request: its cancel_fn. Returns the callback's code.
int grequest_cancel(Request& r);
/// Progress the MPI_Isendrecv(_replace) calls in flight (api_grequest.cpp): complete each whose
/// send and receive have both completed. Run by progress().
void isendrecv_progress();
/// Copy a request's status out (no-op for MPI_STATUS_IGNORE), all but its MPI_ERROR: MPI-3.1
/// §3.2.5 leaves that field to the calls that return several statuses, and to them only when
/// they return MPI_ERR_IN_STATUS (as MPICH); the calls that return one status return the error.
void status_set(MPI_Status* out, const MPI_Status& in);
void status_set_bytes(MPI_Status& s, std::size_t bytes);
std::size_t status_bytes(const MPI_Status& s);
/// Sleep in the transport until something may have happened.
void progress_wait();
void progress();

void progress_blocking(bool on);

/// Whether a blocking call may skip the progress passes around its wait: true on a transport in
/// real time (host), where a pass only costs time on the message path (a completed send need not
/// poll for arrivals before returning); a modeled transport keeps time by its passes.
bool wait_may_skip_progress();

// Non-blocking collectives (coll/nonblocking.cpp): the blocking collective's code runs as a
// coroutine; where it would wait, it yields to the MPI call that resumed it.
/// Whether the running code is a non-blocking collective's.
bool nbc_running();
/// No non-blocking collective is in progress and no failed collective call is being drained:
/// nbc_progress() would do nothing, whatever completes.
bool nbc_idle();
/// From a non-blocking collective's code: back to the MPI call that resumed it.
void nbc_yield();
/// Added to the collective lane's tags by the running non-blocking collective (0 outside one).
int nbc_tag_offset();
/// Tags in one collective call's range on the collective lane (coll/coll.h), and the last of them:
/// the tag of the error notice that a member whose call failed sends the call's other members
/// (coll/call_sequence.cpp). The progress engine keeps notices apart from the messages it
/// matches: they end the call's waits (coll_waitall) and never enter a queue.
constexpr int kCollTagsPerCall = 256;
constexpr int kCollNoticeTag = kCollTagsPerCall - 1;
/// Whether a notice for comm's running collective call has arrived at this rank; forget it (the
/// call has ended here).
bool coll_notice_take(const Comm& comm);
/// Drain the collective call running on comm at this rank from now on (coll/call_sequence.cpp):
/// a wait that a notice ended does so before it waits for its own sends, whose receivers may be
/// in the same position (each waiting for its sends to the other would wait for ever).
void coll_drain_call(Comm& comm);
/// Added to the collective lane's tags on comm: the running non-blocking collective's range, else
/// the range of the blocking collective running on comm (coll/call_sequence.cpp), else 0.
int coll_tag_offset(const Comm& comm);
/// Resume every non-blocking collective in progress once (nothing from inside one). Run by
/// progress(), so that every MPI call that progresses point-to-point progresses them too.
void nbc_progress();

/// Block (spin, then sleep in the transport) until pred() holds, running progress. Inside, the
/// transport may answer "nothing yet" provisionally (see Transport::begin_blocking_wait); on a
/// modeled transport the last pass runs in the ordinary mode so that what the rank has seen by
/// its clock is the same whatever the timing of the other ranks.
template <typename Pred>
void progress_until(Pred pred) {
  if (nbc_running()) {  // the caller of the collective waits, not its code
    while (true) {
      progress();
      if (pred()) return;
      nbc_yield();
    }
  }
  const bool lean = wait_may_skip_progress();
  if (lean && pred()) return;
  progress_blocking(true);
  while (true) {
    progress();
    if (pred()) break;
    progress_wait();
  }
  progress_blocking(false);
  if (!lean) progress();
}

}  // namespace tilempi::mpi
