// The one interface every backend implements: move messages between ranks of a job,
// wait for progress, tell the time, describe the (virtual) mesh.
//
// The layer above (mpi/) owns matching and the MPI envelope; a transport carries the
// envelope as opaque bytes and never looks inside it. Backends: host (shared memory
// on pinned cores), sim (the modeled chip of hwmodel/, in virtual time).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "tilempi/transport/rank_placement.h"

namespace tilempi::transport {

/// Fixed-size envelope written by the layer above; opaque to the transport.
struct Envelope {
  std::uint64_t word[4];
};

enum class SendMode {
  /// The transport chooses: small messages go at once, large ones by rendezvous.
  Standard,
  /// Completes only once the receiver has taken the data (MPI_Ssend semantics).
  Synchronous,
};

/// A message that has reached this rank. Arrivals from one source are returned in the order
/// they were sent (MPI's non-overtaking rule rests on it).
struct Arrival {
  int source = -1;              ///< world rank of the sender
  Envelope envelope{};
  std::size_t size = 0;         ///< payload bytes
  bool buffered = false;        ///< payload sits in transport buffers: fetch it soon to free them
  std::uint64_t handle = 0;     ///< the transport's id for fetch()
};

using OpId = std::uint64_t;
constexpr OpId kDone = 0;       ///< an operation that completed inside the call that started it

/// Which envelopes a receive would take (Transport::take_next): those whose first two words w
/// satisfy ((w[i] ^ want[i]) & mask[i]) == 0. The layer above writes its own envelope's words
/// and masks; the transport only compares them.
struct EnvelopeMatch {
  std::uint64_t want[2];
  std::uint64_t mask[2];
  bool matches(const Envelope& e) const {
    return (((e.word[0] ^ want[0]) & mask[0]) | ((e.word[1] ^ want[1]) & mask[1])) == 0;
  }
};

class StaticRoutes;
class CollectiveOffload;

/// What a backend offers, so that the layers above ask for a property, never for a backend's name.
struct Capabilities {
  /// MPI_Wtime is the modeled chip's clock, not the host's (compute between calls is modeled too).
  bool virtual_time = false;
  /// All ranks read one clock (MPI_WTIME_IS_GLOBAL).
  bool global_clock = false;
  /// Ranks sit on modeled tiles of a chip: a rank's processor is its tile, named by its coordinates.
  bool modeled_tiles = false;
  /// static_routes() returns a software-routed network (the mesh broadcast can use it).
  bool static_network = false;
  /// Largest standard-mode payload that leaves without waiting for the receiver (0: none is eager).
  std::size_t eager_limit = 0;
  /// collective_offload() moves one buffer to many ranks or many to one by itself: multicast,
  /// scatter and gather set up once and progressed by the network adapter.
  bool hardware_multicast = false;
  /// collective_offload() also reduces in the adapter's data path (Integer ops: HwOp, HwElem).
  bool hardware_reduction = false;
  /// rma_put() and rma_get() reach every rank's memory (one-sided access without the target's
  /// core); without it the layer above carries one-sided operations as messages.
  bool one_sided = false;
  /// migrate() moves a rank's task to another tile during the run.
  bool migration = false;
  /// Every rank of the job runs in this process's address space (the sim transport's ranks as
  /// contexts): memory one rank allocates, every rank can address (TILEMPIX_Shared_alloc folds).
  bool shared_address_space = false;
};

/// The answer to Transport::migrate().
enum class MigrateResult {
  Ok,           ///< the migration started (it completes later, in the transport's time)
  Unsupported,  ///< this transport (or its adapter) cannot move a task
  BadTile,      ///< no such tile
  Occupied,     ///< a rank sits on the tile, or a migration in progress involves it or the rank
};

class Transport {
 public:
  virtual ~Transport() = default;

  virtual int rank() const = 0;
  virtual int size() const = 0;
  virtual const RankPlacement& rank_placement() const = 0;
  virtual const char* name() const = 0;
  virtual Capabilities capabilities() const = 0;

  /// Start sending len bytes at buf to world rank dst. buf stays untouched by the caller until
  /// send_done() says so; returns kDone when the data has already left the buffer.
  virtual OpId send(int dst, const Envelope& envelope, const void* buf, std::size_t len, SendMode mode) = 0;
  virtual bool send_done(OpId id) = 0;

  /// Take the next arrival, if any. Non-blocking.
  virtual bool poll(Arrival& out) = 0;
  /// Copy the arrival's payload into dst (len <= arrival.size; the rest is discarded) and consume
  /// the arrival. Returns kDone if finished inside the call.
  virtual OpId fetch(const Arrival& arrival, void* dst, std::size_t len) = 0;
  virtual bool fetch_done(OpId id) = 0;
  /// A blocking receive's short path: when the next arrival from world rank `source` (the
  /// oldest one poll() has not returned yet) is a buffered message whose envelope matches m,
  /// copy it into dst (at most cap bytes), consume it and return 1, with its envelope and size
  /// in *envelope and *size. 0: nothing from `source` yet. -1: something else comes next from
  /// it (poll() returns it), or the transport has no short path; nothing was taken.
  virtual int take_next(int source, const EnvelopeMatch& m, void* dst, std::size_t cap, Envelope* envelope,
                        std::size_t* size) {
    (void)source, (void)m, (void)dst, (void)cap, (void)envelope, (void)size;
    return -1;
  }
  /// take_next() for a caller that has nothing else to do until that message is there: when
  /// nothing from `source` is there yet, waits for it (spinning, never sleeping) and takes it as
  /// take_next() does. Returns 0 as soon as anything else may need the caller (another arrival,
  /// transport work of its own) or a short spin has passed without it: the caller then waits in
  /// its general way (progress passes, wait()). The default waits for nothing: 0.
  virtual int wait_take_next(int source, const EnvelopeMatch& m, void* dst, std::size_t cap, Envelope* envelope,
                             std::size_t* size) {
    (void)source, (void)m, (void)dst, (void)cap, (void)envelope, (void)size;
    return 0;
  }
  /// True only when every send_done and fetch_done of a pending operation would answer false
  /// and change nothing, so a caller about to ask for each of many may skip them all. False
  /// (ask) when the transport cannot tell cheaply.
  virtual bool nothing_completes() const { return false; }
  /// Hands over the operations of send() and fetch() that finished and that nobody has asked
  /// about yet (appended to out; each counts as asked, as by a true send_done or fetch_done),
  /// when the transport can tell that asking about each pending operation in turn would find
  /// these and, after the first that is still pending, no more than one progress step finds.
  /// So a caller may check its pending operations against this list and ask the transport about
  /// the first one not on it only, then take the list again. Returns false (out unchanged) when
  /// the caller must ask about each one (the default; the sim transport inside a blocking wait
  /// returns true).
  virtual bool take_finished(std::vector<OpId>& out) {
    (void)out;
    return false;
  }

  /// Drive outstanding transfers. Cheap when there is nothing to do.
  virtual void progress() = 0;
  /// Block until something may have changed (an arrival, a completion) or timeout_ns passes.
  /// Spins briefly, then sleeps, so that many ranks on few cores still make progress.
  virtual void wait(std::uint64_t timeout_ns) = 0;

  /// The layer above's non-blocking test (MPI_Test, MPI_Iprobe and the like) found nothing done.
  /// An application that polls in a loop holds its core meanwhile; a transport whose ranks share
  /// cores may give the core to another rank when this repeats. Others ignore it.
  virtual void polled_in_vain() {}

  /// Brackets a blocking wait of the layer above (MPI_Wait and friends): in between, a "nothing
  /// yet" from poll(), send_done() or fetch_done() is provisional, because the caller calls
  /// wait() before it acts on it. A modeled transport then answers from what it already knows
  /// instead of synchronizing with the other ranks first, and charges nothing for the empty
  /// looks (the core idles until its next event). After end_blocking_wait() the caller runs one
  /// ordinary progress pass, which brings the view up to the rank's clock. Others ignore it.
  virtual void begin_blocking_wait() {}
  virtual void end_blocking_wait() {}
  /// Inside a blocking wait: what besides an arrival can end it. Either at least n more of this
  /// rank's pending sends and fetches must complete (SIZE_MAX: no completion ends it), or, when
  /// `only` names an operation, its completion alone does (n is then ignored). For its next
  /// sleep, a modeled transport may then leave the rank asleep through the completions that
  /// change nothing the rank would do before the wait can end. Others ignore it.
  virtual void expect_completions(std::size_t n, OpId only = kDone) {
    (void)n;
    (void)only;
  }

  /// The layer above brackets each of its API calls: what runs between leave_library() and the
  /// next enter_library() is the application's own work. A modeled transport charges that as
  /// compute time; the library's work inside a call is modeled by the transport's own costs.
  /// call: the API function's name, for reports (e.g. a crash in a rank names its last call).
  virtual void enter_library(const char* call) { (void)call; }
  virtual void leave_library() {}

  /// The application says it does cycles of work now, as a tile core would take them
  /// (TILEMPIX_Compute): a modeled transport advances the rank's clock and counts them as
  /// compute; others ignore it (they have no modeled clock to advance).
  virtual void compute(std::uint64_t cycles) { (void)cycles; }

  /// The layer above says what it chose where the choice is its own, e.g. key "alltoall", value
  /// "mesh_rounds" for the collective algorithm a call ran. A modeled transport counts them and
  /// lists the counts in its run report; others ignore them.
  virtual void annotate(const char* key, const char* value) {
    (void)key;
    (void)value;
  }

  /// The layer above names the kind of MPI call that the traffic started from now on belongs to,
  /// where the API call's own name does not say it (e.g. "alltoall/mesh_rounds" for a
  /// collective's algorithm, whose messages a later MPI_Wait may send); nullptr: each message
  /// belongs to the API call it is sent in (enter_library's name) again. A modeled transport
  /// charges the traffic's energy to that kind in its run report; others ignore it.
  virtual void name_call_kind(const char* kind) { (void)kind; }
  /// The energy this rank has spent so far in joules, as a modeled transport prices it
  /// (TILEMPIX_Energy: transport/sim/rank_energy.h says what it includes); 0 where nothing is
  /// modeled.
  virtual double energy() { return 0.0; }

  virtual double wtime() = 0;
  virtual double wtick() = 0;

  /// One-sided access (Capabilities::one_sided): write len bytes from src into, or read them
  /// from, address remote_addr of world rank target's memory, as that rank sees its own address
  /// space, without the target's core taking part (RDMA on a modeled adapter). The bytes move
  /// inside the call; the operation is complete at the target (and, for a get, the data usable)
  /// once rma_done() says so, which a modeled transport times as the adapter carries it. The
  /// layer above orders and synchronizes (MPI windows, docs/ONESIDED.md). The defaults are
  /// for backends without the capability, whose callers never reach them.
  virtual OpId rma_put(int target, std::uint64_t remote_addr, const void* src, std::size_t len) {
    (void)target, (void)remote_addr, (void)src, (void)len;
    abort(1, "tilempi: this transport has no one-sided access");
    return kDone;
  }
  virtual OpId rma_get(int target, std::uint64_t remote_addr, void* dst, std::size_t len) {
    (void)target, (void)remote_addr, (void)dst, (void)len;
    abort(1, "tilempi: this transport has no one-sided access");
    return kDone;
  }
  virtual bool rma_done(OpId id) { return id == kDone; }

  /// Optional capability: a static network with software-set routes (nullptr when absent).
  virtual StaticRoutes* static_routes() { return nullptr; }
  /// Optional capability: collective transfers offloaded to the network adapter (nullptr when
  /// absent; Capabilities::hardware_multicast and hardware_reduction say what it offers).
  virtual CollectiveOffload* collective_offload() { return nullptr; }
  /// Moves world rank `rank` to `tile` of the modeled chip, starting at the caller's present
  /// ([Wallentowitz 2018] §3.6: task migration; how its communication moves is the adapter's
  /// method). Messages in flight to and from it are delivered once and in order.
  virtual MigrateResult migrate(int rank, int tile) {
    (void)rank, (void)tile;
    return MigrateResult::Unsupported;
  }

  /// End the whole job: the launcher is told which rank and code, the other ranks are stopped.
  [[noreturn]] virtual void abort(int code, const std::string& why) = 0;

  /// The layer above registers a function that lists what this rank is waiting for (posted
  /// receives, pending sends), so that a backend that detects a deadlock can say why.
  virtual void set_describer(std::function<std::string()> describe) { (void)describe; }

  /// Called once at MPI_Finalize: flush what is pending, say goodbye to the launcher/engine.
  virtual void finalize() = 0;
};

/// Ports of a tile's static-network switch (bit masks).
enum StaticPort : unsigned {
  kPortNorth = 1u << 0,
  kPortEast = 1u << 1,
  kPortSouth = 1u << 2,
  kPortWest = 1u << 3,
  kPortLocal = 1u << 4,  ///< the tile's own core
};

/// One tile's switch setting in a static route: words from in_port go out on every port of out_mask.
struct StaticRouteHop {
  int tile;              ///< world rank whose tile hosts the switch
  unsigned in_port;      ///< a single StaticPort; kPortLocal at the root
  unsigned out_mask;     ///< StaticPort bits; include kPortLocal to deliver to that tile's core
};

/// Software-routed, header-less network (the TilePro64's static network, [Yagna 2013] §2.1), as
/// a rank uses it: transfers along routes it names (the sim models the switches in
/// hwmodel::StaticMesh).
class StaticRoutes {
 public:
  virtual ~StaticRoutes() = default;
  /// Broadcast along a static route tree. Every rank named as delivering to kPortLocal, and the
  /// root, calls this with the same id, routes and root; the root passes its data in buf, the
  /// others receive into buf. Each rank pays the set-up of its own switch. Returns the root's
  /// len: a receiver whose len differs gets min(its len, the root's) bytes, and its caller can
  /// tell (the root's length sets the transfer's words).
  virtual std::size_t bcast(std::uint64_t id, std::span<const StaticRouteHop> routes, int root, void* buf,
                            std::size_t len) = 0;
};

/// Reduction ops of an adapter's data path: MPI's without multiplication ([Wallentowitz 2018]
/// §3.3.2.4, Table 3.28b), on the integer elements of HwElem.
enum class HwOp : std::uint8_t { Sum, Min, Max, Band, Bor, Bxor, Land, Lor, Lxor };
/// Integer elements up to the adapter's 32-bit word ([Wallentowitz 2018] §4.1: 32-bit data path).
enum class HwElem : std::uint8_t { I8, U8, I16, U16, I32, U32 };
std::size_t hw_elem_size(HwElem e);
/// inout[i] = in[i] op inout[i] over `bytes` bytes of elements (integer arithmetic wraps).
void hw_reduce(HwOp op, HwElem elem, const void* in, void* inout, std::size_t bytes);

/// Collective transfers that a network adapter runs by itself ([Wallentowitz 2018] §3.3, NAMP-CC).
/// Every member calls the same operation with the same id, member list (world ranks, the root
/// among them) and root; the call returns when this rank's part is complete. Blocks are `block`
/// bytes; member i's block is the i-th of the root's buffer (scatter) or of its result (gather).
/// multicast and scatter return the root's length (len, block): a member whose length differs
/// gets at most the root's, and its caller can tell. At the root, gather and reduce return the
/// first member's length that differs from the root's (at most the shorter is taken from it),
/// else the root's; elsewhere their own.
class CollectiveOffload {
 public:
  virtual ~CollectiveOffload() = default;
  /// The root's buf goes to every member's buf: one setup, the destinations progressed concurrently.
  virtual std::size_t multicast(std::uint64_t id, std::span<const int> members, int root, void* buf, std::size_t len) = 0;
  /// The root's sbuf, member i's block to member i's rbuf (a strided DMA read per destination).
  virtual std::size_t scatter(std::uint64_t id, std::span<const int> members, int root, const void* sbuf, void* rbuf,
                              std::size_t block) = 0;
  /// Every member's sbuf to block i of the root's rbuf: one endpoint, complete when every slot is.
  virtual std::size_t gather(std::uint64_t id, std::span<const int> members, int root, const void* sbuf, void* rbuf,
                             std::size_t block) = 0;
  /// The root's rbuf = op over every member's sbuf (`bytes` each), combined as the data arrives.
  virtual std::size_t reduce(std::uint64_t id, std::span<const int> members, int root, const void* sbuf, void* rbuf,
                             std::size_t bytes, HwOp op, HwElem elem) = 0;
};

/// Connect this process to its job, as the launcher described it in the environment, or start a
/// one-rank job (singleton init) when there is no launcher.
std::unique_ptr<Transport> connect_from_environment();

}  // namespace tilempi::transport
