// The host transport: ranks are processes on (pinned) host cores that share one segment
// (shm_layout.h). One rank's side, composed of the mechanisms in their own files:
//
//   eager_ring.h      small messages: one record per message in the pair's ring of lines
//   control_ring.h    the receiver's answers to rendezvous requests (FIN, CTS, HELP)
//   rendezvous.cpp    large and synchronous messages: RTS in the ring, then one copy with
//                     cross-memory attach (shared_copy.h: both cores copy pieces from 256 KiB),
//                     or the arena where that is not allowed (arena_stream.h)
//   waiting.h         spin, yield, then sleep on the rank's futex doorbell
//
// host_transport.cpp holds the Transport interface over them, progress and attaching.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <deque>
#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

#include "host/arena_stream.h"
#include "host/control_ring.h"
#include "host/eager_ring.h"
#include "host/platform.h"
#include "host/shared_copy.h"
#include "host/shm_layout.h"
#include "host/waiting.h"
#include "tilempi/transport/transport.h"

namespace tilempi::transport::host {

/// Views of one channel s->r inside the segment.
struct Channel {
  ChannelCtl* ctl = nullptr;
  unsigned char* ring = nullptr;
  CtrlSlot* ctrl = nullptr;
  unsigned char* arena = nullptr;
};
Channel channel_view(const Segment& seg, int sender, int receiver);

/// Rendezvous messages of at least this size go through the arena unless TILEMPI_HOST_CMA is set:
/// the arena's two copies on two cores beat cross-memory attach's one copy, whose cost here is the
/// kernel pinning the sender's pages, one way and, since the arena's pieces follow each other
/// (arena_stream.h), both ways too (docs/HOST_TRANSPORT.md, "The fifth pass", "The seventh pass").
inline constexpr std::uint64_t kArenaFrom = 64u << 10;

/// When ranks share cores: a rank gives its core away once every this many tests of the layer
/// above (MPI_Test and the like) that found nothing (polled_in_vain); in a polling loop that is
/// every 2-4 us, as wait() spins before it yields. TILEMPI_HOST_POLL_YIELD=N sets it (0: never).
inline constexpr std::uint32_t kVainPollsPerYield = 32;

/// Arrival handles: eager records carry (line position, source), rendezvous requests a key.
inline constexpr std::uint64_t kHandleRdv = 1;
inline constexpr int kSourceBits = 19;

class HostTransport final : public Transport {
 public:
  HostTransport(Segment seg, int rank, int size, bool unmap_at_exit);
  ~HostTransport() override;

  void set_placement(const Placement& p);

  int rank() const override { return rank_; }
  int size() const override { return size_; }
  const RankPlacement& rank_placement() const override { return rank_placement_; }
  const char* name() const override { return "host"; }
  Capabilities capabilities() const override;

  OpId send(int dst, const Envelope& envelope, const void* buf, std::size_t len, SendMode mode) override;
  // One-sided access (one_sided.cpp).
  OpId rma_put(int target, std::uint64_t remote_addr, const void* src, std::size_t len) override;
  OpId rma_get(int target, std::uint64_t remote_addr, void* dst, std::size_t len) override;
  bool send_done(OpId id) override;
  bool poll(Arrival& out) override;
  OpId fetch(const Arrival& a, void* dst, std::size_t len) override;
  bool fetch_done(OpId id) override;
  int take_next(int source, const EnvelopeMatch& m, void* dst, std::size_t cap, Envelope* envelope,
                std::size_t* size) override;
  int wait_take_next(int source, const EnvelopeMatch& m, void* dst, std::size_t cap, Envelope* envelope,
                     std::size_t* size) override;
  void progress() override;
  void wait(std::uint64_t timeout_ns) override;
  void polled_in_vain() override;
  double wtime() override;
  double wtick() override;
  [[noreturn]] void abort(int code, const std::string& why) override;
  void set_describer(std::function<std::string()> describe) override { describer_ = std::move(describe); }
  void finalize() override;

 private:
  struct Pending {
    OpId id;
    bool eager;
    Envelope envelope;
  };
  struct ArenaTx {
    OpId id;
    ArenaTransfer t;
  };
  struct Peer {
    Channel tx;  ///< me -> peer (in the peer's block)
    Channel rx;  ///< peer -> me (in my block)
    RankSlot* slot = nullptr;  ///< the peer's doorbell (read after every send to it)
    // sending to the peer
    RingWriter ring_out;
    CtrlWriter ctrl_out;
    std::deque<Pending> backlog;
    std::deque<CtrlMsg> ctrl_backlog;
    bool space_wait = false;
    int expect_ctrl = 0;  ///< rendezvous sends to the peer still waiting for CTS/FIN
    std::uint64_t produced = 0;
    std::deque<ArenaTx> arena_tx;
    // receiving from the peer
    RingReader ring_in;
    CtrlReader ctrl_in;
    std::uint64_t consumed = 0;
    std::deque<OpId> arena_rx;
    std::uint64_t coop_gen = 0;     ///< generation of our last shared copy from the peer
    std::uint64_t coop_pieces = 0;
    std::uint64_t coop_send_id = 0;
    std::uint64_t coop_len = 0;
    OpId coop_fetch = 0;            ///< the fetch waiting for the peer's pieces, 0 if none
    bool cma_verified = false;      ///< we have read this peer's memory before
  };
  struct SendOp {
    int dst = -1;
    const unsigned char* buf = nullptr;
    std::uint64_t len = 0;
    bool done = false;
  };
  struct FetchOp {
    int source = -1;
    unsigned char* dst = nullptr;
    std::uint64_t send_id = 0;
    ArenaTransfer t;
    bool done = false;
  };
  struct Rdv {
    int source;
    std::uint64_t size;
    std::uint64_t addr;
    std::uint64_t send_id;
  };

  // host_transport.cpp
  void check_launcher();
  // What the launcher sees of a waiting rank (its no-progress watch, host_job.cpp), all on the
  // way to a sleep, none per message.
  std::uint64_t activity() const;
  void note_idle(std::uint64_t now, bool was_away);
  void before_nap();
  bool describe_wanted() const {
    return shared(me_->describe_req).load(std::memory_order_acquire) != describe_ack_;
  }
  void answer_describe();
  bool work_pending() const {
    return (expect_ctrl_total_ | backlog_peers_ | ctrl_backlog_peers_ | arena_tx_total_ | arena_rx_total_ |
            coop_total_) != 0;
  }
  bool has_work();
  void notify(int r);
  /// (Inline into poll(): it runs once per arrival.)
  [[gnu::always_inline]] inline bool poll_source(int s, Arrival& out);
  bool flush_one(int dst, const Pending& pend);
  void flush_backlog(int dst);
  void announce_space_wait(Peer& p);
  void settle_space_wait(Peer& p);
  /// The reader released ring lines: a sender waiting for space needs a wake-up. Inline: it
  /// runs after every poll and fetch, and lines move only once per eighth of the ring.
  void released_ring(int s) {
    if (peers_[static_cast<std::size_t>(s)].ring_in.take_released()) [[unlikely]]
      wake_space_waiter(s);
  }
  void wake_space_waiter(int s);
  /// The eager record at pos from s, size bytes: copied to dst (cap bytes at most), consumed.
  [[gnu::always_inline]] inline void copy_out(int s, std::uint64_t pos, std::uint64_t size, void* dst,
                                              std::size_t cap);
  void release_rings();
  /// take_next() once the head record h of s's ring is known to be complete.
  [[gnu::always_inline]] inline int take_head(int s, Peer& p, const SlotHeader* h, const EnvelopeMatch& m, void* dst,
                                              std::size_t cap, Envelope* envelope, std::size_t* size);

  // rendezvous.cpp
  OpId fetch_rendezvous(const Arrival& a, void* dst, std::size_t len);
  [[noreturn]] void cma_failed(int peer, int err);
  OpId start_coop(const Rdv& r, unsigned char* dst, std::uint64_t len, pid_t pid, std::uint64_t ready);
  void help(int dst, std::uint64_t gen);
  void finish_coops();
  void send_ctrl(int dst, std::uint32_t kind, std::uint64_t send_id, std::uint64_t bytes);
  void flush_ctrl_backlog(int dst);
  void drain_ctrl(int s);
  void complete_send(std::uint64_t send_id);
  ArenaView arena(const Channel& c) const { return ArenaView{c.ctl, c.arena, chunk_, chunk_ * chunks_}; }
  void produce(int dst);
  void consume_arena(int s);

  Segment seg_;
  int rank_;
  int size_;
  bool unmap_;
  RankSlot* me_ = nullptr;
  RankPlacement rank_placement_;
  Placement placement_;
  SpinPolicy spin_ = spin_policy(false);
  /// Tests of the layer above that found nothing since the last yield (polled_in_vain), and how
  /// many of them give the core away when ranks share cores (0: never).
  std::uint32_t vain_polls_ = 0;
  std::uint32_t vain_polls_per_yield_ = 0;
  bool cma_ok_ = true;
  std::uint64_t cma_below_ = UINT64_MAX;  ///< rendezvous below this size use cross-memory attach
  bool light_fence_ = false;  ///< registered for the sleepers' asymmetric fence (waiting.h)
  int launcher_pid_ = 0;
  std::uint64_t launcher_checked_ns_ = 0;
  std::uint64_t ring_lines_ = 0;
  std::uint64_t ctrl_slots_ = 0;
  std::uint64_t chunk_ = 0;
  std::uint64_t chunks_ = 0;
  std::uint64_t eager_max_ = 0;
  std::vector<Peer> peers_;
  int poll_next_ = 0;
  bool self_ring_used_ = false;  ///< a message to this rank itself went through its own ring
  OpId next_id_ = 1;
  std::uint64_t next_rdv_ = 1;
  std::unordered_map<OpId, SendOp> sends_;
  std::unordered_map<OpId, FetchOp> fetches_;
  std::unordered_map<std::uint64_t, Rdv> rdvs_;
  int expect_ctrl_total_ = 0;
  int backlog_peers_ = 0;
  int ctrl_backlog_peers_ = 0;
  int arena_tx_total_ = 0;
  int arena_rx_total_ = 0;
  int coop_total_ = 0;
  // The rank's current stretch of waiting with nothing to do (note_idle).
  std::uint64_t idle_since_ = 0;     ///< its start (ns), 0 before the first sleep
  std::uint64_t idle_activity_ = 0;  ///< activity() when it began
  std::uint64_t nap_ended_ = 0;      ///< when the last sleep ended (ns)
  std::uint64_t self_looked_ = 0;      ///< when before_nap() last looked at the rank's activity (ns)
  std::uint64_t self_looked_cpu_ = 0;  ///< this thread's CPU time then (ns)
  std::uint64_t naps_ = 0;
  std::uint32_t describe_ack_ = 0;
  std::function<std::string()> describer_;
};

}  // namespace tilempi::transport::host
