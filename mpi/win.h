// One-sided communication: MPI windows (docs/ONESIDED.md).
//
// Two paths carry an operation to its target:
//  - the data path: MPI_Put and MPI_Get on a window whose memory the origin knows (created,
//    allocated or shared, not dynamic) become the transport's one-sided access
//    (Transport::rma_put / rma_get: cross-memory attach on the host, the adapter's RDMA packets
//    on the sim), without the target's core;
//  - the message path: accumulates, atomics and everything on a dynamic window (whose attached
//    regions only the target knows), and puts and gets where the transport has no one-sided
//    access, are messages that the target's progress engine applies and answers. A target
//    applies them one at a time, so accumulates are atomic per element, and in order per origin.
// Synchronization (fence, post/start/complete/wait, locks) is messages on the window's own
// duplicate of its communicator, served by the target's progress engine: a passive target makes
// progress whenever it is inside any MPI call (the progress rule of docs/ONESIDED.md).
#pragma once

#include <cstdint>
#include <deque>
#include <list>
#include <string>
#include <vector>

#include "attributes.h"
#include "datatype.h"
#include "info.h"
#include "mpi.h"
#include "tilempi/transport/transport.h"

namespace tilempi::mpi {

enum class Flavor { Create = MPI_WIN_FLAVOR_CREATE, Allocate = MPI_WIN_FLAVOR_ALLOCATE,
                    Dynamic = MPI_WIN_FLAVOR_DYNAMIC, Shared = MPI_WIN_FLAVOR_SHARED };

/// What the origin knows of each target's memory (exchanged at creation).
struct WinPeer {
  std::uint64_t base = 0;  ///< the target's address of its window memory
  std::uint64_t size = 0;  ///< bytes
  int disp_unit = 1;
};

/// An operation of this rank still to complete (data path: a transport operation; message
/// path: a reply awaited).
struct WinPending {
  int target = 0;
  std::vector<transport::OpId> ops;  ///< data path: the transport operations still running
  std::uint64_t seq = 0;           ///< message path: sequence number of the reply
  bool replied = false;
  // A get's data to unpack into the origin's buffer at completion.
  std::vector<char> staging;
  void* result = nullptr;
  std::size_t result_count = 0;
  Datatype result_type;
  bool unpack = false;
  MPI_Request request = MPI_REQUEST_NULL;  ///< request-based operations (MPI_Rput, ...)
};

struct Win {
  MPI_Win handle = MPI_WIN_NULL;
  MPI_Comm comm = MPI_COMM_NULL;  ///< the user's communicator (group)
  MPI_Comm ctrl = MPI_COMM_NULL;  ///< private duplicate: synchronization and the message path
  Flavor flavor = Flavor::Create;
  void* base = nullptr;
  MPI_Aint size = 0;
  int disp_unit = 1;
  int rank = 0, nranks = 0;
  std::vector<int> world;         ///< world rank of each member
  std::vector<WinPeer> peers;
  bool direct = false;            ///< puts and gets take the data path
  MPI_Errhandler errhandler = MPI_ERRORS_ARE_FATAL;
  std::string name;
  Hints hints;                    ///< MPI_Win_set_info / get_info (none of them changes what the window does)
  AttrMap attributes;  ///< user attributes (MPI_Win_set_attr); their delete callbacks run at MPI_Win_free
  // Attribute values (MPI_Win_get_attr returns pointers to them).
  MPI_Aint attr_size = 0;
  int attr_disp_unit = 1, attr_flavor = 0, attr_model = MPI_WIN_UNIFIED;
  // MPI_Win_allocate / MPI_Win_allocate_shared memory.
  void* owned = nullptr;
  void* shm = nullptr;
  std::size_t shm_bytes = 0;
  std::vector<std::uint64_t> shm_offset;  ///< each member's segment in the shared mapping
  /// Dynamic windows: regions attached here (address, bytes).
  std::vector<std::pair<std::uint64_t, std::uint64_t>> attached;

  // ---- access epochs of this rank (origin side)
  bool fence = false;                   ///< between two fences (not after MPI_MODE_NOSUCCEED)
  bool started = false;                 ///< MPI_Win_start .. MPI_Win_complete
  std::vector<char> in_access;          ///< per member: part of the started group
  std::vector<int> lock_type;           ///< per member: 0, or the lock held on it
  std::vector<char> lock_sent;          ///< per member: the lock was requested by message
  std::vector<char> granted;            ///< per member: grant received
  std::vector<int> unlock_acks;         ///< per member: unlock acknowledgements received
  bool lock_all = false;
  std::list<WinPending> pending;
  std::uint64_t next_seq = 1;
  int deferred_error = MPI_SUCCESS;     ///< an error a target reported (message path)
  std::string deferred_detail;

  // ---- exposure epochs (target side)
  int shared_holders = 0;
  int exclusive_holder = -1;
  std::deque<std::pair<int, int>> lock_waiters;  ///< (origin, lock type), first come first served
  std::vector<int> posts_seen;          ///< per member: MPI_Win_post messages not yet taken by a start
  bool posted = false;
  int post_count = 0;                   ///< members of the posted group
  int completes_seen = 0;

  // Control messages in flight (their buffers live until the send completes).
  struct Out {
    MPI_Request request = MPI_REQUEST_NULL;
    std::vector<char> bytes;
  };
  std::list<Out> sends;
};

/// nullptr when h is not a live window of this rank.
Win* win_get(MPI_Win h);
/// Apply the window's error handler.
int win_raise(const Win* w, int errclass, const char* function, const std::string& detail);

/// Collective creation over comm (already checked). base/size: this rank's memory (ignored for
/// Dynamic; for Allocate and Shared the library allocates it and returns it in *base).
int win_create(Flavor flavor, void** base, MPI_Aint size, int disp_unit, MPI_Comm comm, MPI_Win* out);
int win_free(Win& w);

/// One operation, already checked. kind: the message-path operation or a put or get.
enum class RmaKind { Put, Get, Acc, GetAcc, Cas };
struct RmaArgs {
  RmaKind kind = RmaKind::Put;
  const void* origin = nullptr;
  std::size_t origin_count = 0;
  const Datatype* origin_type = nullptr;
  void* result = nullptr;            ///< Get (= origin buffer), GetAcc, Cas
  std::size_t result_count = 0;
  const Datatype* result_type = nullptr;
  const void* compare = nullptr;     ///< Cas
  int target = 0;                    ///< rank in the window's group
  MPI_Aint disp = 0;
  std::size_t target_count = 0;
  const Datatype* target_type = nullptr;
  MPI_Op op = MPI_REPLACE;
  MPI_Request* request = nullptr;    ///< request-based variants
};
int win_rma(Win& w, const RmaArgs& a);

/// Wait until this rank's operations to target (-1: every target) are complete at the target.
/// Returns an error a target reported (MPI_ERR_RMA_RANGE on a dynamic window), else MPI_SUCCESS.
int win_complete_ops(Win& w, int target);
int win_fence(Win& w, int assert);
int win_lock(Win& w, int type, int target, int assert);
int win_unlock(Win& w, int target);
int win_post(Win& w, const std::vector<int>& members, int assert);
int win_start(Win& w, const std::vector<int>& members, int assert);
int win_complete(Win& w);
int win_wait(Win& w, bool block, bool* done);

}  // namespace tilempi::mpi
