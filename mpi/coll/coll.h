// Internal interface of the collectives: the algorithm function types, the registry, the state
// cached per communicator, and byte-level point-to-point helpers on the collective lane.
//
// The MPI_ entry points (api_coll.cpp) check arguments and turn typed buffers into *packed* bytes
// (a contiguous datatype is used in place); the algorithms see only bytes, or packed reduction
// elements with a Reducer, so each is written once for every datatype.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "coll/op.h"
#include "coll/schedule/schedule.h"
#include "comm.h"
#include "request.h"
#include "mpi.h"
#include "tilempi/transport/transport.h"

namespace tilempi::mpi {

namespace coll {
namespace schedule = ::tilempi::coll::schedule;
struct Algorithm;
}

struct CollState {
  bool geometry_ready = false;
  coll::schedule::Mesh mesh;
  std::vector<coll::schedule::Point> members;  ///< tile of each member
  int rows = 0;                                ///< distinct rows the members occupy
  // The trees and routes, built once (shared_by_members: one copy for every rank of the process).
  std::map<int, std::shared_ptr<const coll::schedule::Tree>> ktrees;  ///< barrier trees by arity
  std::map<int, std::shared_ptr<const coll::schedule::Tree>> bcast_trees;   ///< static-route trees by root
  /// Static-network routes of bcast_trees, by root (empty: the tree has no static route).
  std::map<int, std::shared_ptr<const std::vector<tilempi::transport::StaticRouteHop>>> static_routes;
  std::map<int, std::shared_ptr<const coll::schedule::Tree>> reduce_trees;  ///< two-level reduce trees by root
  bool rounds_ready = false;
  std::vector<int> round_partner;  ///< mesh_rounds: this rank's partner in each round, -1 if idle
  bool neighbor_ready = false;
  std::vector<int> neighbor_round;  ///< neighbourhood mesh_rounds: the round of each of this rank's sends
  int neighbor_rounds = 0;          ///< and how many rounds the schedule has
  std::uint32_t static_call = 0;   ///< the call (its tag range) whose static transfers static_seq counts
  std::uint32_t static_seq = 0;    ///< static-network or offloaded transfers of that call so far
  /// What ran last per collective (TILEMPIX_Coll_selected): with op- and count-dependent
  /// restrictions the algorithm can differ from call to call.
  std::vector<std::pair<const coll::Algorithm*, int>> ran;
  std::set<const coll::Algorithm*> warned;  ///< fallbacks already reported on this communicator
  std::uint32_t nonblocking_started = 0;    ///< MPI_Ixxx calls so far: each gets a tag range of its own
  std::uint32_t blocking_started = 0;       ///< blocking collective calls so far: each gets a tag range too
  int call_tag_offset = 0;                  ///< the range of the blocking call running now (0: none)
};

/// Start a non-blocking collective (coll/nonblocking.cpp): body is the blocking collective's code
/// with the call's arguments; it runs now up to its first wait, then whenever progress() runs.
/// Returns MPI_SUCCESS with *request, or the error class of a call that failed before its first
/// wait (bad arguments: body has reported it) with *request = MPI_REQUEST_NULL.
int nbc_start(Comm& comm, std::function<int()> body, MPI_Request* request);

namespace coll {

/// The collectives the registry has algorithms for (an algorithm's `kind`).
enum class Collective : int {
  Barrier, Bcast, Reduce, Allreduce, Alltoall, Alltoallv, Alltoallw, Gather, Gatherv, Scatter, Scatterv,
  Allgather, Allgatherv, ReduceScatter, ReduceScatterBlock, Scan, Exscan,
  NeighborAllgather, NeighborAllgatherv, NeighborAlltoall, NeighborAlltoallv, NeighborAlltoallw, Count
};
constexpr int kKinds = static_cast<int>(Collective::Count);
const char* kind_name(Collective k);

// Algorithm signatures. Sizes are bytes, or packed elements where a Reducer is involved.
using BarrierFn = int (*)(Comm&, int param);
using BcastFn = int (*)(void* buf, std::size_t bytes, int root, Comm&, int param);
/// sbuf: this rank's n elements; rbuf: the result at the root (distinct from sbuf).
using ReduceFn = int (*)(const void* sbuf, void* rbuf, std::size_t n, const Reducer&, int root, Comm&, int param);
/// sbuf and rbuf are distinct.
using AllreduceFn = int (*)(const void* sbuf, void* rbuf, std::size_t n, const Reducer&, Comm&, int param);
using AlltoallFn = int (*)(const void* sbuf, void* rbuf, std::size_t block, Comm&, int param);
using AlltoallvFn = int (*)(const void* sbuf, const std::size_t* scounts, const std::size_t* sdispls, void* rbuf,
                            const std::size_t* rcounts, const std::size_t* rdispls, Comm&, int param);
/// Root's rbuf holds size blocks; sbuf is this rank's block (at the root it may be its own slot).
using GatherFn = int (*)(const void* sbuf, void* rbuf, std::size_t block, int root, Comm&, int param);
using GathervFn = int (*)(const void* sbuf, std::size_t sbytes, void* rbuf, const std::size_t* counts,
                          const std::size_t* displs, int root, Comm&, int param);
/// Root's sbuf holds size blocks; rbuf receives this rank's block (at the root it may be its slot).
using ScatterFn = int (*)(const void* sbuf, void* rbuf, std::size_t block, int root, Comm&, int param);
using ScattervFn = int (*)(const void* sbuf, const std::size_t* counts, const std::size_t* displs, void* rbuf,
                           std::size_t rbytes, int root, Comm&, int param);
/// In place: this rank's block is already at rbuf + rank * block.
using AllgatherFn = int (*)(void* rbuf, std::size_t block, Comm&, int param);
using AllgathervFn = int (*)(void* rbuf, const std::size_t* counts, const std::size_t* displs, Comm&, int param);
/// sbuf: sum(counts) elements; rbuf: counts[rank] elements.
using ReduceScatterFn = int (*)(const void* sbuf, void* rbuf, const std::size_t* counts, const Reducer&, Comm&,
                                int param);
using ScanFn = int (*)(const void* sbuf, void* rbuf, std::size_t n, const Reducer&, Comm&, int param);

/// A neighbourhood collective (neighbor.cpp) in the typed form every one of them has: send j goes
/// to the j-th destination, receive i comes from the i-th source of the topology (MPI_PROC_NULL:
/// nothing moves).
struct NeighborTransfer {
  void* buf = nullptr;  ///< (a send's is only read)
  std::size_t count = 0;
  MPI_Datatype type = MPI_DATATYPE_NULL;
  int peer = MPI_PROC_NULL;
};
struct NeighborExchange {
  std::vector<NeighborTransfer> sends, recvs;
  /// The order in which the receives match the messages of one sender (topo.h, NeighborLists::cartesian).
  std::vector<int> recv_order;
};
using NeighborFn = int (*)(const NeighborExchange&, Comm&, int param);

/// An MPI_Alltoallw call at one rank, its arguments checked (api_coll.cpp): typed transfers (a
/// datatype per peer has no packed form to give an algorithm). sends[i] goes to and recvs[i]
/// comes from communicator rank i; this rank's own pair is MPI_PROC_NULL, which `local` copies
/// once the transfers are posted.
struct AlltoallwExchange {
  std::vector<NeighborTransfer> sends, recvs;
  std::function<void()> local;
};
using AlltoallwFn = int (*)(const AlltoallwExchange&, Comm&, int param);

using AnyFn = void (*)();

/// The communication schedule of an algorithm, for tilempi-coll-check: rounds of messages between
/// members (communicator ranks) at the given tiles of the mesh.
using ScheduleFn = schedule::Schedule (*)(const schedule::Mesh&, const std::vector<schedule::Point>& members,
                                          int root, int param);

enum class Family : std::uint8_t {
  Classic,  ///< partners depend on ranks only (MPICH, Open MPI, SimGrid)
  Mesh,     ///< partners follow the members' tiles on the mesh ([Yagna 2013] chapter 3)
};

/// What an algorithm needs in order to run. A call that breaks one of them runs the algorithm's
/// fallback instead; TILEMPI_COLL_FALLBACK says whether a user's choice then fails, warns or is
/// silent (registry.cpp, choose()). Each is one fact the library checks per call, so that what
/// runs is what TILEMPIX_Coll_selected and tilempi-bench report.
struct Restrictions {
  bool commutative = false;     ///< combines out of rank order: commutative ops only
  bool power_of_two = false;    ///< communicator sizes 2^k only
  bool static_network = false;  ///< the transport has a static network (Capabilities::static_network)
  bool count_ge_ranks = false;  ///< at least one element per rank (count >= communicator size)
  int max_ranks = 0;            ///< largest communicator (0: no limit)
  /// A condition of the algorithm's own on the communicator (e.g. ktree_static: static routes
  /// for its tree), checked after the others: nullptr when it holds, else why not.
  const char* (*own)(Comm&) = nullptr;
  const char* own_text = nullptr;  ///< what `own` asks for, for the help ("static routes for its tree")
  /// The transport offloads collective transfers (Capabilities::hardware_multicast).
  bool hardware_multicast = false;
  /// The transport reduces in the adapter (Capabilities::hardware_reduction), and this call's op
  /// and element type are among the adapter's (hw_reduction_of).
  bool hardware_reduction = false;
  /// Blocks (alltoall: bytes per peer) above this many bytes only (0: any size). Not a need but
  /// a switch the algorithm itself prescribes (OperaMPI's at 1 KW, [Yagna 2013] §2.2): a call at
  /// or below it runs the fallback without a warning or an error, and is reported as the
  /// fallback, so that what the checker and TILEMPIX_Coll_selected name is what runs.
  std::size_t block_above = 0;
  bool any() const {
    return commutative || power_of_two || static_network || count_ge_ranks || max_ranks > 0 || own != nullptr ||
           hardware_multicast || hardware_reduction || block_above > 0;
  }
};

/// Where the default selector picks an algorithm (at most one per collective and case).
enum class DefaultOn : std::uint8_t {
  None,
  MultiRow,   ///< the communicator's members span more than one mesh row
  SingleRow,  ///< one row (or one rank)
  Always,
};

/// One registered algorithm: the registry (registry.cpp) is the only list of them. The help
/// text, the default selector, tilempi-coll-check's schedules and tilempi-bench's lists
/// (TILEMPIX_Coll_algorithms) are all read from these entries.
struct Algorithm {
  Collective kind = Collective::Barrier;
  const char* name = "";
  Family family = Family::Classic;
  AnyFn fn = nullptr;
  const char* help = "";
  Restrictions restrictions{};
  const char* fallback = nullptr;  ///< same collective; runs when a restriction fails for a call
  DefaultOn default_on = DefaultOn::None;
  ScheduleFn schedule = nullptr;   ///< nullptr: tilempi-coll-check does not know it
  /// A neighbourhood collective's schedule, which depends on the topology (nullptr: none).
  schedule::Schedule (*neighbor_schedule)(const schedule::Mesh&, const std::vector<schedule::Point>& members,
                                          const schedule::Neighborhood&) = nullptr;
  bool takes_param = false;        ///< "name:N" (ktree arity)
  int default_param = 0;
  /// The OperaMPI-like baseline ([Yagna 2013] §2.2) that Yagna compares its mesh algorithm with
  /// (at most one per collective; tilempi-bench's --quick and its figures use it).
  bool baseline = false;
  /// Runs on intercommunicators, and only there; every other algorithm runs on intracommunicators
  /// only. Its function takes the collective's MPI arguments as they are (intercomm.h: what one
  /// group gives arrives in the other, so there is no packed form of both), and its default is
  /// DefaultOn::Always among the collective's intercommunicator algorithms. A user's choice is
  /// kept per kind of communicator: choosing an intercommunicator algorithm leaves what runs on
  /// intracommunicators alone, and the other way round.
  bool intercomm = false;
};

template <class F>
AnyFn any(F f) {
  return reinterpret_cast<AnyFn>(f);
}
template <class F>
F as(AnyFn f) {
  return reinterpret_cast<F>(f);
}

/// The registered algorithms of collective k, in registration order (the order of --coll help).
const std::vector<Algorithm>& algorithms(Collective k);
const Algorithm* find_algorithm(Collective k, const std::string& name);
std::optional<Collective> kind_of(const std::string& name);

/// What the restrictions look at in one call. Fields a collective does not have stay empty
/// (a barrier has no op): their restrictions hold.
struct Call {
  const Reducer* red = nullptr;  ///< reductions: the op
  std::size_t count = 0;         ///< reductions: elements per rank (reduce_scatter: in all)
  std::optional<std::size_t> block;  ///< alltoall: bytes per peer (unset: not known, taken to be any)
  static Call reduction(const Reducer& red, std::size_t count) { return {&red, count, std::nullopt}; }
  static Call of_block(std::size_t bytes) { return {nullptr, 0, bytes}; }
};

struct Selected {
  const Algorithm* algorithm = nullptr;  ///< what runs
  int param = 0;
  bool user = false;                     ///< chosen by TILEMPI_COLL / TILEMPI_COLL_<NAME>, not by the default selector
  const Algorithm* requested = nullptr;  ///< what was asked for (the user's choice or the default)
};
/// The algorithm that runs for this call of collective k on comm: the user's choice, else the
/// default, then the fallbacks of every restriction the call breaks. Applies
/// TILEMPI_COLL_FALLBACK to a user's choice (error: returns the error class with *why; warn: one
/// line on stderr per algorithm and communicator) and records what runs as the communicator's
/// last algorithm of k (TILEMPIX_Coll_selected).
int choose(Collective k, Comm& comm, const Call& call, Selected* out, std::string* why);
/// As choose() for a call whose op and count are not known (they are taken to be fine), without
/// warnings, errors or records.
Selected select(Collective k, Comm& comm);
/// What runs for a call of `a` whose blocks are `block` bytes: `a`, or, at or below its size
/// switch (Restrictions::block_above), its fallback (and that one's, if it switches too). Needs
/// no communicator: tilempi-coll-check asks it.
const Algorithm& at_block_size(Collective k, const Algorithm& a, std::size_t block);
/// The first restriction of a that this call breaks: its MPI error class and a description; 0 if none.
int broken_restriction(const Algorithm& a, Comm& comm, const Call& call, std::string* why);
/// The default selector's algorithm for collective k on comm, before restrictions ("" where k
/// has none for an intercommunicator).
const char* default_algorithm(Collective k, Comm& comm);
/// The default algorithm of collective k on an intracommunicator spanning several mesh rows
/// (multi_row) or one row.
const Algorithm* default_for(Collective k, bool multi_row);
/// The default algorithm of collective k on an intercommunicator; nullptr where k is not defined
/// on one (scans, neighbourhood collectives).
const Algorithm* intercomm_default(Collective k);
/// Replace the user's selection with spec ("alltoall=pairwise,...", "" for the defaults), as if
/// it had been in TILEMPI_COLL. For tests that run every algorithm in one job; every rank must
/// make the same calls. Returns MPI_ERR_ARG (and leaves the selection alone) on a bad spec.
int set_selection(const std::string& spec, std::string* error);

/// The static network the collectives may use now: the transport's, except inside a non-blocking
/// collective, whose code must not block the rank (a static broadcast waits for its word).
transport::StaticRoutes* static_routes_now();
/// The adapter's collective offload the collectives may use now: the transport's, except inside a
/// non-blocking collective (an offloaded transfer waits for its completion, blocking the rank).
transport::CollectiveOffload* collective_offload_now();

// ---- per-communicator state -------------------------------------------------------------------

CollState& state(Comm& comm);
/// Mesh shape and member tiles (from the transport's topology), computed once.
const CollState& geometry(Comm& comm);
/// What every member of a communicator computes alike from its geometry (a tree, static routes),
/// kind and param naming which: with ranks as contexts the job's ranks share one process, and a
/// rank's own copy of a tree of MPI_COMM_WORLD was O(N) memory per rank (O(N^2) for the job) and
/// the k-ary tree O(N^2) time per rank. The first rank to ask builds it; the others of the same
/// members and placement get the same object. Held while some rank holds it.
std::shared_ptr<const void> shared_by_members(Comm& comm, int kind, int param,
                                              const std::function<std::shared_ptr<const void>()>& build);
template <class T, class Build>
std::shared_ptr<const T> shared_by_members(Comm& comm, int kind, int param, Build build) {
  return std::static_pointer_cast<const T>(
      shared_by_members(comm, kind, param, [&]() -> std::shared_ptr<const void> { return std::make_shared<const T>(build()); }));
}
/// The kinds of shared_by_members.
enum SharedKind : int { kSharedKtree, kSharedBcastTree, kSharedStaticRoutes, kSharedReduceTree };
const schedule::Tree& cached_ktree(Comm& comm, int k);

// ---- point-to-point on the collective lane, in bytes ---------------------------------------------

/// The collective lane's tags. Each call adds the start of its tag range (coll_tag_offset():
/// call_sequence.cpp for blocking calls, nonblocking.cpp for MPI_Ixxx), so these stay below
/// kTagsPerCall.
enum Tag : int {
  kTagBarrier = 1, kTagBcast, kTagReduce, kTagAllreduce, kTagAlltoall, kTagAlltoallv, kTagGather, kTagScatter,
  kTagAllgather, kTagReduceScatter, kTagScan, kTagRounds, kTagRoundBarrier, kTagAlltoallw, kTagNeighbor,
  kTagLast = kTagNeighbor
};
/// Tags of one collective call's range; its last is the error notice's (kCollNoticeTag).
constexpr int kTagsPerCall = kCollTagsPerCall;
static_assert(kTagLast < kCollNoticeTag, "the collective lane's fixed tags must stay below the notice's");
/// Ranges of the non-blocking calls (1 .. kNonblockingRanges); the blocking calls' follow.
constexpr std::uint32_t kNonblockingRanges = 1u << 22;

/// One collective call on a communicator (call_sequence.cpp says why): from the constructor to
/// the destructor, the call's messages use its own tag range, so that no later call matches
/// them. Constructed once the communicator is known to be valid, before any other argument is
/// checked, at every member alike. Inside a non-blocking collective's code it does nothing (the
/// MPI_Ixxx call has its range).
class CallSequence {
 public:
  explicit CallSequence(MPI_Comm comm);
  ~CallSequence();
  CallSequence(const CallSequence&) = delete;
  CallSequence& operator=(const CallSequence&) = delete;
  /// The call fails at this rank: what the other members still send this rank for it is taken
  /// and dropped (the drain), so that nothing of it waits in a queue or keeps its sender waiting;
  /// and unless they know already, the other members are told (the error notice), so that none
  /// waits for ever for what this rank was to send.
  void failed();

 private:
  MPI_Comm handle_;
  Comm* comm_ = nullptr;  ///< set when this object gave the communicator its range
  int saved_ = 0;
  std::string saved_kind_;  ///< the call kind named before this call (name_call_kind)
};
/// The kind of MPI call that the traffic from now on belongs to, for the modeled transport's
/// energy per call kind (Transport::name_call_kind); "": the API call's own name. choose() names
/// the collective and its algorithm ("alltoall/mesh_rounds"), a blocking call's CallSequence puts
/// back at its end what was named before it, and a non-blocking collective's code runs under its
/// own name whichever call resumes it (nonblocking.cpp).
void name_call_kind(const std::string& kind);
const std::string& call_kind();

/// The running call fails at this rank after this rank has done its part of it (it received a
/// message of another size than its arguments give, and went on): its failure leaves nobody
/// waiting, so failed() tells nobody.
void part_done_with_error(Comm& comm);
/// The first stage of an algorithm made of several (allreduce = reduce + bcast) failed here: the
/// later stages do not run, so this rank's part is not done whatever the stage said; returns rc.
int stage_failed(Comm& comm, int rc);
/// Why the running call failed at this rank, for its error message (finish() in api_coll.cpp
/// takes it).
void note_failure(std::string why);
std::string take_failure_note();

/// Renew the drains' receives that have taken a message; end drains of freed communicators and
/// old ones. Run by nbc_progress() on every progress pass (one test when nothing failed).
void drain_progress();
/// No drain is running: drain_progress() would do nothing.
bool drain_idle();
/// End every drain (MPI_Finalize).
void drains_clear();

int send_bytes(const void* buf, std::size_t n, int dest, int tag, Comm& comm);
int recv_bytes(void* buf, std::size_t n, int src, int tag, Comm& comm);
int sendrecv_bytes(const void* sbuf, std::size_t sn, int dest, void* rbuf, std::size_t rn, int src, int tag, Comm& comm);
int isend_bytes(const void* buf, std::size_t n, int dest, int tag, Comm& comm, MPI_Request* req);
int irecv_bytes(void* buf, std::size_t n, int src, int tag, Comm& comm, MPI_Request* req);
int waitall(std::vector<MPI_Request>& reqs);

/// The receives of an algorithm whose message sizes the call's arguments fix at every member (a
/// broadcast's, a scatter's). MPI requires the members' type signatures to match; when they
/// do not, a message's size differs from the receive's. The receive then takes what came (a
/// longer message truncated) and the difference is recorded: MPI_ERR_TRUNCATE for a longer
/// message, as point-to-point reports it; MPI_ERR_OTHER for a shorter one, which leaves part of
/// the buffer unwritten (MPICH's class for a collective size mismatch). What then depends on the
/// algorithm (the mode):
/// - Forward: what this rank forwards is what it received, so its partners get what they would
///   have got. It goes on, so that no partner waits for a message it skipped, and result() fails
///   the call here alone (part_done_with_error: nobody is told).
/// - Stop: what this rank would forward is cut or placed by its own size (pieces of the message),
///   and a partner could not always tell from the size: the first mismatch ends the algorithm
///   here with its class, and failed() tells the others (the error notice), whose waits for what
///   this rank no longer sends end.
/// Other failures (a notice: coll_waitall) end the algorithm at once.
class SizedCall {
 public:
  enum class Mode { Forward, Stop };
  explicit SizedCall(Comm& c, Mode mode = Mode::Forward) : comm_(c), mode_(mode) {}
  /// *got (if not null): the bytes taken, at most n.
  int recv(void* buf, std::size_t n, int src, int tag, std::size_t* got = nullptr);
  int sendrecv(const void* sbuf, std::size_t sn, int dest, void* rbuf, std::size_t rn, int src, int tag);
  /// Wait for receives posted with irecv_bytes, of sizes[i] bytes each (sizes parallel to reqs).
  int waitall(std::vector<MPI_Request>& reqs, const std::vector<std::size_t>& sizes);
  /// A transfer that the transport made (not a receive) brought `sent` bytes where n were expected.
  void mismatch(std::size_t sent, std::size_t n);
  int result();

 private:
  /// The receive's outcome: MPI_SUCCESS to go on, else the class that ends the algorithm.
  int after(int rc, const MPI_Status& st, std::size_t n, std::size_t* got);
  Comm& comm_;
  Mode mode_;
  int mismatch_ = MPI_SUCCESS;
};

/// A scratch buffer of bytes.
using Bytes = std::vector<unsigned char>;
inline unsigned char* at(void* p, std::size_t off) { return static_cast<unsigned char*>(p) + off; }
inline const unsigned char* at(const void* p, std::size_t off) { return static_cast<const unsigned char*>(p) + off; }
inline std::size_t uz(int v) { return static_cast<std::size_t>(v); }
/// Copies a block within or between buffers; nothing when it is already in place.
inline void move(void* dst, const void* src, std::size_t bytes) {
  if (bytes && dst != src) std::memmove(dst, src, bytes);
}

// ---- schedules in registry entries ---------------------------------------------------------------

using Members = std::vector<schedule::Point>;
inline int count_of(const Members& m) { return static_cast<int>(m.size()); }

// ---- algorithms that other files call -------------------------------------------------------
// Every algorithm's function and entry live in its collective's file (barrier.cpp, ...) or, for
// the mesh algorithms of [Yagna 2013] chapter 3, in a file of its own (ktree.cpp, static_route.cpp,
// mesh_tree.cpp, alltoall_mesh_rounds.cpp). Only what another file calls is declared here.

// barrier.cpp, ktree.cpp
int barrier_dissemination(Comm&, int);
int barrier_ktree_static(Comm&, int k);
// bcast.cpp, static_route.cpp
int bcast_linear(void*, std::size_t, int, Comm&, int);
int bcast_static_route(void*, std::size_t, int, Comm&, int);
int bcast_binomial(void*, std::size_t, int, Comm&, int);
/// The static routes of the broadcast tree rooted at root, computed once per communicator (empty:
/// the tree cannot be routed statically).
const std::vector<transport::StaticRouteHop>& cached_static_routes(Comm& c, int root);
/// A static-network broadcast's id on this communicator.
std::uint64_t static_id(Comm& c, int world_root);
// alltoall.cpp
int alltoall_linear(const void*, void*, std::size_t, Comm&, int);
// reduce.cpp
int reduce_linear(const void*, void*, std::size_t, const Reducer&, int, Comm&, int);
int reduce_binomial(const void*, void*, std::size_t, const Reducer&, int, Comm&, int);
// offload.cpp
/// The adapter's reduction op and element type for this reducer; false when it has none.
bool hw_reduction_of(const Reducer& red, transport::HwOp* op, transport::HwElem* elem);
// scatter.cpp
int scatterv_linear(const void*, const std::size_t*, const std::size_t*, void*, std::size_t, int, Comm&, int);

}  // namespace coll
}  // namespace tilempi::mpi
