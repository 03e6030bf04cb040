// The host transport: ranks are processes on (pinned) host cores that share one segment.
//
// Small messages (the ULTRA idea of [Fröning 2007] §3.5): every ordered pair of ranks has its own
// single-producer single-consumer ring of cache lines. A message is one record: the header line
// (sequence word, kind, length, envelope, first payload bytes) and, for longer payloads, the lines
// after it. The sender writes payload and header fields first and the sequence word last; the
// receiver polls that one word. Nothing is shared between different senders, so no locks and no
// atomic read-modify-write on the fast path.
//
// Large messages go by rendezvous: a request (RTS) in the ring carries the size and the sender's
// buffer address. When the layer above fetches it, the receiver pulls the bytes straight from
// the sender's memory with process_vm_readv (one copy) and answers FIN; where the kernel forbids
// that, it answers CTS and the sender streams the bytes through the channel's arena in chunks,
// the sender filling chunk i+1 while the receiver empties chunk i.
//
// Waiting spins briefly, then sleeps on the rank's futex doorbell. A writer rings the doorbell
// only when the owner announced it is asleep (store sequence, then check the sleeping flag; the
// sleeper stores the flag, then re-checks its rings: seq_cst on both sides, so one always sees
// the other).
#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <fcntl.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <memory>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include "backends.h"
#include "host/platform.h"
#include "host/shm_layout.h"
#include "tilempi/transport/settings.h"

namespace tilempi::transport::host {

namespace {

std::uint64_t now_ns() {
  timespec ts;
  ::clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<std::uint64_t>(ts.tv_sec) * 1000000000ull + static_cast<std::uint64_t>(ts.tv_nsec);
}

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

const char* env_str(const char* name) {
  const char* v = std::getenv(name);
  return v && *v ? v : nullptr;
}

/// Views of one channel s->r inside the segment.
struct Channel {
  ChannelCtl* ctl = nullptr;
  unsigned char* ring = nullptr;
  CtrlSlot* ctrl = nullptr;
  unsigned char* arena = nullptr;
};

Channel channel_view(const Segment& seg, int sender, int receiver) {
  unsigned char* c = seg.channel(sender, receiver);
  const Geometry& g = seg.header()->geometry;
  Channel ch;
  ch.ctl = reinterpret_cast<ChannelCtl*>(c);
  ch.ring = c + kChannelCtlBytes;
  ch.ctrl = reinterpret_cast<CtrlSlot*>(ch.ring + g.ring_bytes);
  ch.arena = reinterpret_cast<unsigned char*>(ch.ctrl + g.ctrl_slots);
  return ch;
}

constexpr std::uint64_t kHandleRdv = 1;
// Rendezvous copies of at least kCoopMin bytes are shared: both cores copy pieces in parallel.
constexpr std::uint64_t kCoopMin = 256u << 10;
constexpr std::uint64_t kCoopPiece = 64u << 10;  ///< smallest piece (also the probe read)
inline std::uint64_t coop_piece(std::uint64_t len) {
  return clamp_u64(pow2_floor(len / 16), kCoopPiece, 128u << 10);
}
constexpr int kSourceBits = 19;

class HostTransport final : public Transport {
 public:
  HostTransport(Segment seg, int rank, int size, bool unmap_at_exit)
      : seg_(seg), rank_(rank), size_(size), unmap_(unmap_at_exit) {
    const Geometry& g = seg_.header()->geometry;
    ring_lines_ = g.ring_bytes / kLine;
    ctrl_slots_ = g.ctrl_slots;
    chunk_ = g.arena_chunk;
    chunks_ = g.arena_chunks;
    eager_max_ = g.eager_max;
    // Settings from the environment (tilempi/transport/settings.h); a bad value throws, naming
    // the variable and its range, and MPI_Init fails with that message.
    if (auto v = settings::host_eager(g.ring_bytes / 4 - kSlotPayloadOffset)) eager_max_ = *v;
    // Cross-memory attach (one copy) wherever the kernel allows it; TILEMPI_HOST_CMA=0 streams
    // every large message through the arena instead. A peer that refuses is detected on first
    // use and the arena takes over.
    if (auto cma = tilempi::settings::env_boolean(settings::host_cma_env()))
      cma_ok_ = *cma;
    else
      cma_ok_ = size_ > 1 && cma_allowed();
    me_ = seg_.rank_slot(rank_);
    peers_.resize(static_cast<std::size_t>(size_));
    for (int p = 0; p < size_; ++p) {
      peers_[p].tx = channel_view(seg_, rank_, p);
      peers_[p].rx = channel_view(seg_, p, rank_);
    }
    if (const char* m = env_str(kEnvMesh)) {
      int w = 0, h = 0;
      if (std::sscanf(m, "%dx%d", &w, &h) == 2 && w > 0 && h > 0 && w * h >= size_)
        topo_ = default_topology(size_, w, h);
      else
        topo_ = default_topology(size_);
    } else {
      topo_ = default_topology(size_);
    }
    if (const char* lp = env_str(kEnvLauncherPid)) launcher_pid_ = std::atoi(lp);
  }

  ~HostTransport() override {
    if (unmap_ && seg_.base) ::munmap(seg_.base, seg_.bytes);
  }

  void set_placement(const Placement& p) {
    placement_ = p;
    oversubscribed_ = size_ > p.cores;
  }

  int rank() const override { return rank_; }
  int size() const override { return size_; }
  const Topology& topology() const override { return topo_; }
  const char* name() const override { return "host"; }
  Capabilities capabilities() const override {
    Capabilities c;
    c.eager_limit = eager_max_;  // every rank reads its own steady clock: not global
    return c;
  }

  // ---------------------------------------------------------------- send side

  OpId send(int dst, const Envelope& envelope, const void* buf, std::size_t len, SendMode mode) override {
    Peer& p = peers_[dst];
    const bool eager = mode == SendMode::Standard && len <= eager_max_;
    if (eager && p.backlog.empty() && write_eager(dst, envelope, buf, len)) {
      notify(dst);
      return kDone;
    }
    const OpId id = next_id_++;
    SendOp& op = sends_[id];
    op.dst = dst;
    op.buf = static_cast<const unsigned char*>(buf);
    op.len = len;
    if (!eager) {
      ++p.expect_ctrl;
      ++expect_ctrl_total_;
    }
    Pending pend{id, eager, envelope};
    if (p.backlog.empty() && flush_one(dst, pend)) {
      notify(dst);
    } else {
      if (p.backlog.empty()) ++backlog_peers_;
      p.backlog.push_back(pend);
      announce_space_wait(p);
    }
    return id;
  }

  bool send_done(OpId id) override {
    if (id == kDone) return true;
    auto it = sends_.find(id);
    if (it == sends_.end()) return true;
    if (!it->second.done) {
      progress();
      if (!it->second.done) return false;
    }
    sends_.erase(it);
    return true;
  }

  // ---------------------------------------------------------------- receive side

  bool poll(Arrival& out) override {
    if (work_pending()) progress();
    for (int i = 0; i < size_; ++i) {
      int s = poll_next_ + i;
      if (s >= size_) s -= size_;
      if (poll_source(s, out)) {
        poll_next_ = s + 1 == size_ ? 0 : s + 1;
        return true;
      }
    }
    return false;
  }

  OpId fetch(const Arrival& a, void* dst, std::size_t len) override {
    if (len > a.size) len = a.size;
    if ((a.handle & kHandleRdv) == 0) {
      const int s = static_cast<int>((a.handle >> 1) & ((1u << kSourceBits) - 1));
      const std::uint64_t pos = a.handle >> (kSourceBits + 1);
      Peer& p = peers_[s];
      const unsigned char* rec = p.rx.ring + (pos % ring_lines_) * kLine;
      if (len) std::memcpy(dst, rec + kSlotPayloadOffset, len);
      consume(s, pos);
      return kDone;
    }
    auto it = rdvs_.find(a.handle >> 1);
    if (it == rdvs_.end()) abort(1, "tilempi host transport: fetch of an unknown or already fetched message");
    const Rdv r = it->second;
    rdvs_.erase(it);
    if (r.source == rank_) {  // to self: plain copy, complete the send directly
      if (len) std::memcpy(dst, reinterpret_cast<const void*>(r.addr), len);
      complete_send(r.send_id);
      Peer& p = peers_[rank_];
      --p.expect_ctrl;
      --expect_ctrl_total_;
      return kDone;
    }
    if (len == 0) {
      send_ctrl(r.source, kCtrlFin, r.send_id, 0);
      return kDone;
    }
    if (cma_ok_) {
      int err = 0;
      const pid_t pid = shared(seg_.rank_slot(r.source)->pid).load(std::memory_order_acquire);
      Peer& p = peers_[r.source];
      if (len >= kCoopMin && p.coop_fetch == 0 && len / coop_piece(len) < CoopWord::kMask) {
        if (p.cma_verified) return start_coop(r, static_cast<unsigned char*>(dst), len, pid, 0);
        // Read one piece alone first, so that a refused peer falls back before anything is shared.
        CmaResult res = cma_read(pid, dst, r.addr, coop_piece(len), &err);
        if (res == CmaResult::Ok) {
          p.cma_verified = true;
          return start_coop(r, static_cast<unsigned char*>(dst), len, pid, 1);
        }
        if (res == CmaResult::Failed) cma_failed(r.source, err);
        cma_ok_ = false;
      } else {
        CmaResult res = cma_read(pid, dst, r.addr, len, &err);
        if (res == CmaResult::Ok) {
          p.cma_verified = true;
          send_ctrl(r.source, kCtrlFin, r.send_id, len);
          return kDone;
        }
        if (res == CmaResult::Failed) cma_failed(r.source, err);
        cma_ok_ = false;  // forbidden here: use the arena from now on
      }
    }
    const OpId id = next_id_++;
    FetchOp& f = fetches_[id];
    f.source = r.source;
    f.dst = static_cast<unsigned char*>(dst);
    f.len = len;
    f.send_id = r.send_id;
    f.csize = piece(len);
    f.chunks = (len + f.csize - 1) / f.csize;
    Peer& p = peers_[r.source];
    // The sender streams CTS'd transfers through the arena in CTS order, and we empty them in
    // the same order, so every matched transfer can be cleared to send at once.
    p.arena_rx.push_back(id);
    ++arena_rx_total_;
    send_ctrl(r.source, kCtrlCts, r.send_id, len);
    return id;
  }

  bool fetch_done(OpId id) override {
    if (id == kDone) return true;
    auto it = fetches_.find(id);
    if (it == fetches_.end()) return true;
    if (!it->second.done) {
      progress();
      if (!it->second.done) return false;
    }
    fetches_.erase(it);
    return true;
  }

  // ---------------------------------------------------------------- progress and waiting

  void progress() override {
    if (!work_pending()) return;
    if (expect_ctrl_total_ > 0) {
      for (int s = 0; s < size_; ++s)
        if (peers_[s].expect_ctrl > 0) drain_ctrl(s);
    }
    if (backlog_peers_ > 0 || ctrl_backlog_peers_ > 0) {
      for (int d = 0; d < size_; ++d) {
        Peer& p = peers_[d];
        if (!p.backlog.empty()) flush_backlog(d);
        if (!p.ctrl_backlog.empty()) flush_ctrl_backlog(d);
      }
    }
    if (arena_tx_total_ > 0) {
      for (int d = 0; d < size_; ++d)
        if (!peers_[d].arena_tx.empty()) produce(d);
    }
    if (arena_rx_total_ > 0) {
      for (int s = 0; s < size_; ++s)
        if (!peers_[s].arena_rx.empty()) consume_arena(s);
    }
    if (coop_total_ > 0) finish_coops();
  }

  void wait(std::uint64_t timeout_ns) override {
    if (timeout_ns == 0) return;
    if (has_work()) return;
    const std::uint64_t start = now_ns();
    const std::uint64_t deadline = timeout_ns > UINT64_MAX - start ? UINT64_MAX : start + timeout_ns;
    // Spin: cheap while we own a core, wasteful when others wait for ours.
    const std::uint64_t spin_ns = oversubscribed_ ? 2000 : 50000;
    for (std::uint32_t i = 1;; ++i) {
      if (has_work()) return;
      cpu_relax();
      if ((i & 63) == 0) {
        std::uint64_t t = now_ns();
        if (t >= deadline) return;
        if (t - start >= spin_ns) break;
        if (oversubscribed_) ::sched_yield();
      }
    }
    if (oversubscribed_) {
      for (int i = 0; i < 2; ++i) {
        ::sched_yield();
        if (has_work()) return;
      }
    }
    // Sleep. A pending sender-side wait on ring space is woken without a fence on the
    // receiver's side, so cap that sleep (rare: only when a ring is full).
    std::uint64_t t = now_ns();
    if (t >= deadline) return;
    std::uint64_t nap = std::min<std::uint64_t>(deadline - t, 100000000ull);
    if (backlog_peers_ > 0 || ctrl_backlog_peers_ > 0) nap = std::min<std::uint64_t>(nap, 200000ull);
    const std::uint32_t bell = shared(me_->bell).load(std::memory_order_acquire);
    // seq_cst store here and seq_cst loads in has_work(), against the writers' seq_cst store of
    // a sequence word and seq_cst load of `sleeping`: one side always sees the other.
    shared(me_->sleeping).store(1, std::memory_order_seq_cst);
    if (!has_work()) futex_wait(&me_->bell, bell, nap);
    shared(me_->sleeping).store(0, std::memory_order_relaxed);
    check_launcher();
  }

  double wtime() override {
    timespec ts;
    ::clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
  }

  double wtick() override {
    timespec ts;
    if (::clock_getres(CLOCK_MONOTONIC, &ts) != 0) return 1e-9;
    double t = static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
    return t > 0 ? t : 1e-9;
  }

  [[noreturn]] void abort(int code, const std::string& why) override {
    record_abort(seg_.header(), rank_, code, why.c_str());
    if (launcher_pid_ > 1) ::kill(launcher_pid_, SIGUSR1);
    std::fflush(nullptr);
    int status = code & 0xff;
    if (status == 0 && code != 0) status = 1;
    ::_exit(status);
  }

  void finalize() override {
    // Answers a peer still waits for (FIN/CTS) and transfers we drive must get out first.
    while (ctrl_backlog_peers_ > 0 || arena_tx_total_ > 0 || backlog_peers_ > 0) {
      progress();
      if (ctrl_backlog_peers_ > 0 || arena_tx_total_ > 0 || backlog_peers_ > 0) wait(1000000);
    }
  }

 private:
  struct Pending {
    OpId id;
    bool eager;
    Envelope envelope;
  };
  struct CtrlMsg {
    std::uint32_t kind;
    std::uint64_t send_id;
    std::uint64_t bytes;
  };
  struct InFlight {
    std::uint64_t start;
    std::uint64_t end;
    bool consumed;
  };
  struct ArenaTx {
    OpId id;
    std::uint64_t bytes;
    std::uint64_t csize;
    std::uint64_t chunks;
    std::uint64_t next = 0;
  };
  struct Peer {
    Channel tx;  ///< me -> peer (in the peer's block)
    Channel rx;  ///< peer -> me (in my block)
    // sending to the peer
    std::uint64_t head = 0;
    std::uint64_t tail_seen = 0;
    std::uint64_t ctrl_head = 0;
    std::uint64_t ctrl_tail_seen = 0;
    std::deque<Pending> backlog;
    std::deque<CtrlMsg> ctrl_backlog;
    bool space_wait = false;
    int expect_ctrl = 0;  ///< rendezvous sends to the peer still waiting for CTS/FIN
    std::uint64_t produced = 0;
    std::deque<ArenaTx> arena_tx;
    // receiving from the peer
    std::uint64_t read_pos = 0;
    std::uint64_t released = 0;
    std::deque<InFlight> inflight;
    std::uint64_t ctrl_read = 0;
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
    std::uint64_t len = 0;
    std::uint64_t send_id = 0;
    std::uint64_t csize = 0;
    std::uint64_t chunks = 0;
    std::uint64_t got = 0;
    bool done = false;
  };
  struct Rdv {
    int source;
    std::uint64_t size;
    std::uint64_t addr;
    std::uint64_t send_id;
  };

  // A rank whose launcher died (SIGKILL leaves no one to end the job) must not sleep forever.
  void check_launcher() {
    if (launcher_pid_ <= 1) return;
    const std::uint64_t t = now_ns();
    if (t - launcher_checked_ns_ < 1000000000ull) return;
    launcher_checked_ns_ = t;
    if (::kill(launcher_pid_, 0) != 0 && errno == ESRCH) {
      std::fprintf(stderr, "tilempi: rank %d: the launcher (pid %d) is gone, ending this rank\n", rank_,
                   launcher_pid_);
      record_abort(seg_.header(), rank_, 1, "the launcher is gone");
      std::fflush(nullptr);
      ::_exit(1);
    }
  }

  bool work_pending() const {
    return (expect_ctrl_total_ | backlog_peers_ | ctrl_backlog_peers_ | arena_tx_total_ | arena_rx_total_ |
            coop_total_) != 0;
  }

  [[noreturn]] void cma_failed(int peer, int err) {
    char why[160];
    std::snprintf(why, sizeof why, "tilempi host transport: cannot copy from/to rank %d's memory: %s", peer,
                  std::strerror(err));
    abort(1, why);
  }

  // ---- shared copies: the receiver pulls pieces, the sender (asked by HELP) pushes others

  static bool claim_piece(ChannelCtl* c, std::uint64_t gen, std::uint64_t& piece_out) {
    auto claim = shared(c->coop_claim);
    std::uint64_t w = claim.load(std::memory_order_acquire);
    for (;;) {
      if (CoopWord::gen(w) != gen || CoopWord::next(w) >= CoopWord::pieces(w)) return false;
      if (claim.compare_exchange_weak(w, w + 1, std::memory_order_acq_rel, std::memory_order_acquire)) {
        piece_out = CoopWord::next(w);
        return true;
      }
    }
  }

  // The first `ready` pieces are already in dst (one proves the peer lets us read).
  OpId start_coop(const Rdv& r, unsigned char* dst, std::uint64_t len, pid_t pid, std::uint64_t ready) {
    Peer& p = peers_[r.source];
    ChannelCtl* c = p.rx.ctl;
    const std::uint64_t piece = coop_piece(len);
    const std::uint64_t pieces = (len + piece - 1) / piece;
    const std::uint64_t gen = (++p.coop_gen) & ((1ull << 24) - 1);
    c->coop_dst = reinterpret_cast<std::uint64_t>(dst);
    c->coop_src = r.addr;
    c->coop_len = len;
    c->coop_piece = piece;
    shared(c->coop_done).store(ready, std::memory_order_relaxed);
    shared(c->coop_claim).store(CoopWord::make(gen, pieces, ready), std::memory_order_release);
    send_ctrl(r.source, kCtrlHelp, r.send_id, gen);
    std::uint64_t i = 0;
    while (claim_piece(c, gen, i)) {
      const std::uint64_t off = i * piece;
      const std::uint64_t n = std::min<std::uint64_t>(piece, len - off);
      int err = 0;
      if (cma_read(pid, dst + off, r.addr + off, n, &err) != CmaResult::Ok) cma_failed(r.source, err);
      shared(c->coop_done).fetch_add(1, std::memory_order_acq_rel);
    }
    p.coop_pieces = pieces;
    p.coop_send_id = r.send_id;
    p.coop_len = len;
    if (shared(c->coop_done).load(std::memory_order_acquire) == pieces) {
      send_ctrl(r.source, kCtrlFin, r.send_id, len);
      return kDone;
    }
    const OpId id = next_id_++;
    FetchOp& f = fetches_[id];
    f.source = r.source;
    f.len = len;
    f.send_id = r.send_id;
    p.coop_fetch = id;
    ++coop_total_;
    return id;
  }

  // The sender's part: claim and push pieces until none is left.
  void help(int dst, std::uint64_t gen) {
    ChannelCtl* c = peers_[dst].tx.ctl;
    const pid_t pid = shared(seg_.rank_slot(dst)->pid).load(std::memory_order_acquire);
    std::uint64_t i = 0;
    bool any = false;
    while (claim_piece(c, gen, i)) {
      const std::uint64_t piece = c->coop_piece, len = c->coop_len;
      const std::uint64_t off = i * piece;
      const std::uint64_t n = std::min<std::uint64_t>(piece, len - off);
      int err = 0;
      if (cma_write(pid, c->coop_dst + off, reinterpret_cast<const void*>(c->coop_src + off), n, &err) !=
          CmaResult::Ok)
        cma_failed(dst, err);
      shared(c->coop_done).fetch_add(1, std::memory_order_acq_rel);
      any = true;
    }
    if (any) notify(dst);
  }

  void finish_coops() {
    for (int s = 0; s < size_ && coop_total_ > 0; ++s) {
      Peer& p = peers_[s];
      if (p.coop_fetch == 0 || shared(p.rx.ctl->coop_done).load(std::memory_order_acquire) != p.coop_pieces)
        continue;
      fetches_[p.coop_fetch].done = true;
      p.coop_fetch = 0;
      --coop_total_;
      send_ctrl(s, kCtrlFin, p.coop_send_id, p.coop_len);
    }
  }

  void notify(int r) {
    if (r == rank_) return;
    RankSlot* slot = seg_.rank_slot(r);
    if (shared(slot->sleeping).load(std::memory_order_seq_cst)) {
      shared(slot->bell).fetch_add(1, std::memory_order_seq_cst);
      futex_wake_all(&slot->bell);
    }
  }

  // Writes one ring record of `lines` lines at the head (after a pad record when it would run
  // past the ring's end). fill(header) writes the fields and payload; the sequence word is
  // stored last. Returns false when the ring has no room.
  template <class Fill>
  bool write_record(int dst, std::uint64_t lines, std::uint32_t kind, Fill&& fill) {
    Peer& p = peers_[dst];
    std::uint64_t pos = p.head;
    const std::uint64_t off = pos % ring_lines_;
    const std::uint64_t pad = off + lines > ring_lines_ ? ring_lines_ - off : 0;
    const std::uint64_t need = pad + lines;
    if (pos + need - p.tail_seen > ring_lines_) {
      p.tail_seen = shared(p.tx.ctl->tail).load(std::memory_order_acquire);
      if (pos + need - p.tail_seen > ring_lines_) return false;
    }
    if (pad) {
      auto* h = reinterpret_cast<SlotHeader*>(p.tx.ring + off * kLine);
      h->kind_lines = kSlotPad | static_cast<std::uint32_t>(pad << 8);
      h->len = 0;
      shared(h->seq).store(pos + 1, std::memory_order_release);
      pos += pad;
    }
    auto* h = reinterpret_cast<SlotHeader*>(p.tx.ring + (pos % ring_lines_) * kLine);
    fill(h);
    h->kind_lines = kind | static_cast<std::uint32_t>(lines << 8);
    shared(h->seq).store(pos + 1, std::memory_order_seq_cst);
    p.head = pos + lines;
    return true;
  }

  bool write_eager(int dst, const Envelope& env, const void* buf, std::size_t len) {
    const std::uint64_t lines = (kSlotPayloadOffset + len + kLine - 1) / kLine;
    return write_record(dst, lines, kSlotEager, [&](SlotHeader* h) {
      h->len = static_cast<std::uint32_t>(len);
      h->envelope = env;
      if (len) std::memcpy(reinterpret_cast<unsigned char*>(h) + kSlotPayloadOffset, buf, len);
    });
  }

  bool write_rts(int dst, const Envelope& env, const SendOp& op, OpId id) {
    const std::uint64_t lines = (kSlotPayloadOffset + sizeof(RtsBody) + kLine - 1) / kLine;
    return write_record(dst, lines, kSlotRts, [&](SlotHeader* h) {
      h->len = sizeof(RtsBody);
      h->envelope = env;
      RtsBody body{op.len, reinterpret_cast<std::uint64_t>(op.buf), id};
      std::memcpy(reinterpret_cast<unsigned char*>(h) + kSlotPayloadOffset, &body, sizeof body);
    });
  }

  bool flush_one(int dst, const Pending& pend) {
    auto it = sends_.find(pend.id);
    if (it == sends_.end()) return true;
    SendOp& op = it->second;
    if (pend.eager) {
      if (!write_eager(dst, pend.envelope, op.buf, op.len)) return false;
      op.done = true;
      return true;
    }
    return write_rts(dst, pend.envelope, op, pend.id);
  }

  void flush_backlog(int dst) {
    Peer& p = peers_[dst];
    bool wrote = false;
    while (!p.backlog.empty() && flush_one(dst, p.backlog.front())) {
      p.backlog.pop_front();
      wrote = true;
    }
    if (p.backlog.empty()) --backlog_peers_;
    settle_space_wait(p);
    if (wrote) notify(dst);
  }

  void announce_space_wait(Peer& p) {
    if (!p.space_wait) {
      p.space_wait = true;
      shared(p.tx.ctl->space_wait).store(1, std::memory_order_seq_cst);
    }
  }
  void settle_space_wait(Peer& p) {
    if (p.space_wait && p.backlog.empty() && p.ctrl_backlog.empty()) {
      p.space_wait = false;
      shared(p.tx.ctl->space_wait).store(0, std::memory_order_relaxed);
    }
  }

  // ---- control ring (rendezvous answers)

  bool write_ctrl(int dst, const CtrlMsg& m) {
    Peer& p = peers_[dst];
    if (p.ctrl_head - p.ctrl_tail_seen >= ctrl_slots_) {
      p.ctrl_tail_seen = shared(p.tx.ctl->ctrl_tail).load(std::memory_order_acquire);
      if (p.ctrl_head - p.ctrl_tail_seen >= ctrl_slots_) return false;
    }
    CtrlSlot* c = p.tx.ctrl + (p.ctrl_head % ctrl_slots_);
    c->kind = m.kind;
    c->send_id = m.send_id;
    c->bytes = m.bytes;
    shared(c->seq).store(p.ctrl_head + 1, std::memory_order_seq_cst);
    ++p.ctrl_head;
    return true;
  }

  void send_ctrl(int dst, std::uint32_t kind, std::uint64_t send_id, std::uint64_t bytes) {
    Peer& p = peers_[dst];
    CtrlMsg m{kind, send_id, bytes};
    if (p.ctrl_backlog.empty() && write_ctrl(dst, m)) {
      notify(dst);
      return;
    }
    if (p.ctrl_backlog.empty()) ++ctrl_backlog_peers_;
    p.ctrl_backlog.push_back(m);
    announce_space_wait(p);
  }

  void flush_ctrl_backlog(int dst) {
    Peer& p = peers_[dst];
    bool wrote = false;
    while (!p.ctrl_backlog.empty() && write_ctrl(dst, p.ctrl_backlog.front())) {
      p.ctrl_backlog.pop_front();
      wrote = true;
    }
    if (p.ctrl_backlog.empty()) --ctrl_backlog_peers_;
    settle_space_wait(p);
    if (wrote) notify(dst);
  }

  void drain_ctrl(int s) {
    Peer& p = peers_[s];
    bool any = false;
    for (;;) {
      CtrlSlot* c = p.rx.ctrl + (p.ctrl_read % ctrl_slots_);
      if (shared(c->seq).load(std::memory_order_acquire) != p.ctrl_read + 1) break;
      const CtrlMsg m{c->kind, c->send_id, c->bytes};
      ++p.ctrl_read;
      any = true;
      if (m.kind == kCtrlHelp) {  // an extra message: the FIN still follows
        help(s, m.bytes);
        continue;
      }
      --p.expect_ctrl;
      --expect_ctrl_total_;
      if (m.kind == kCtrlFin) {
        complete_send(m.send_id);
      } else if (m.kind == kCtrlCts) {
        auto it = sends_.find(m.send_id);
        if (it != sends_.end()) {
          const std::uint64_t bytes = std::min<std::uint64_t>(m.bytes, it->second.len);
          if (bytes == 0) {
            it->second.done = true;
          } else {
            if (p.arena_tx.empty()) ++arena_tx_total_;
            const std::uint64_t csize = piece(bytes);
            p.arena_tx.push_back(ArenaTx{m.send_id, bytes, csize, (bytes + csize - 1) / csize, 0});
          }
        }
      }
    }
    if (any) {
      shared(p.rx.ctl->ctrl_tail).store(p.ctrl_read, std::memory_order_release);
      if (shared(p.rx.ctl->space_wait).load(std::memory_order_relaxed)) notify(s);
    }
  }

  void complete_send(std::uint64_t send_id) {
    auto it = sends_.find(send_id);
    if (it != sends_.end()) it->second.done = true;
  }

  // ---- arena streaming (fallback when cross-memory attach is not allowed)

  // Bytes per piece of a transfer through the arena: about an eighth of the message, so that
  // even mid-sized messages overlap the two copies, within [4 KiB, the arena's slot size].
  // Both sides derive it from the byte count in the CTS.
  std::uint64_t piece(std::uint64_t bytes) const {
    return clamp_u64(pow2_floor(std::max<std::uint64_t>(bytes / 8, 1)), std::min<std::uint64_t>(4096, chunk_), chunk_);
  }

  void produce(int dst) {
    Peer& p = peers_[dst];
    bool wrote = false;
    while (!p.arena_tx.empty()) {
      ArenaTx& t = p.arena_tx.front();
      auto it = sends_.find(t.id);
      const unsigned char* src = it == sends_.end() ? nullptr : it->second.buf;
      while (t.next < t.chunks) {
        const std::uint64_t consumed = shared(p.tx.ctl->consumed).load(std::memory_order_acquire);
        if (p.produced - consumed >= chunks_) break;
        const std::uint64_t off = t.next * t.csize;
        const std::uint64_t n = std::min<std::uint64_t>(t.csize, t.bytes - off);
        if (src) std::memcpy(p.tx.arena + (p.produced % chunks_) * chunk_, src + off, n);
        ++p.produced;
        ++t.next;
        shared(p.tx.ctl->produced).store(p.produced, std::memory_order_seq_cst);
        wrote = true;
      }
      if (t.next < t.chunks) break;
      if (it != sends_.end()) it->second.done = true;
      p.arena_tx.pop_front();
      if (p.arena_tx.empty()) --arena_tx_total_;
    }
    if (wrote) notify(dst);
  }

  void consume_arena(int s) {
    Peer& p = peers_[s];
    bool freed = false;
    while (!p.arena_rx.empty()) {
      FetchOp& f = fetches_[p.arena_rx.front()];
      while (f.got < f.chunks) {
        const std::uint64_t produced = shared(p.rx.ctl->produced).load(std::memory_order_acquire);
        if (produced <= p.consumed) break;
        const std::uint64_t off = f.got * f.csize;
        const std::uint64_t n = std::min<std::uint64_t>(f.csize, f.len - off);
        std::memcpy(f.dst + off, p.rx.arena + (p.consumed % chunks_) * chunk_, n);
        ++p.consumed;
        ++f.got;
        shared(p.rx.ctl->consumed).store(p.consumed, std::memory_order_seq_cst);
        freed = true;
      }
      if (f.got < f.chunks) break;
      f.done = true;
      p.arena_rx.pop_front();
      --arena_rx_total_;
    }
    if (freed) notify(s);
  }

  // ---- eager ring, receiver side

  bool poll_source(int s, Arrival& out) {
    Peer& p = peers_[s];
    for (;;) {
      // The line still belongs to a record of the previous lap we have not released: the
      // sender cannot have written here yet (and the word may be that record's payload).
      if (p.read_pos >= p.released + ring_lines_) return false;
      auto* h = reinterpret_cast<const SlotHeader*>(p.rx.ring + (p.read_pos % ring_lines_) * kLine);
      if (shared(const_cast<SlotHeader*>(h)->seq).load(std::memory_order_acquire) != p.read_pos + 1) return false;
      const std::uint32_t kind = h->kind_lines & 0xff;
      const std::uint64_t lines = h->kind_lines >> 8;
      const std::uint64_t pos = p.read_pos;
      p.read_pos += lines;
      if (kind == kSlotPad) {
        p.inflight.push_back(InFlight{pos, pos + lines, true});
        release(s);
        continue;
      }
      out.source = s;
      out.envelope = h->envelope;
      if (kind == kSlotEager) {
        out.size = h->len;
        out.buffered = true;
        out.handle = (pos << (kSourceBits + 1)) | (static_cast<std::uint64_t>(s) << 1);
        p.inflight.push_back(InFlight{pos, pos + lines, false});
        return true;
      }
      RtsBody body;
      std::memcpy(&body, reinterpret_cast<const unsigned char*>(h) + kSlotPayloadOffset, sizeof body);
      scrub(p, pos, pos + lines);
      p.inflight.push_back(InFlight{pos, pos + lines, true});
      release(s);
      const std::uint64_t key = next_rdv_++;
      rdvs_.emplace(key, Rdv{s, body.size, body.addr, body.send_id});
      out.size = body.size;
      out.buffered = false;
      out.handle = (key << 1) | kHandleRdv;
      return true;
    }
  }

  void consume(int s, std::uint64_t pos) {
    Peer& p = peers_[s];
    for (InFlight& f : p.inflight) {
      if (f.start == pos) {
        scrub(p, f.start, f.end);
        f.consumed = true;
        break;
      }
    }
    release(s);
  }

  // A payload line may hold anything, also what looks like a valid sequence word for a later
  // lap: zero the first word of each payload line of a record before releasing it. Header
  // lines keep their old sequence numbers, which never match again. (The receiver does this,
  // not the sender, to keep an extra cache miss off the sender's critical path.)
  void scrub(Peer& p, std::uint64_t start, std::uint64_t end) {
    for (std::uint64_t pos = start + 1; pos < end; ++pos)
      shared(reinterpret_cast<SlotHeader*>(p.rx.ring + (pos % ring_lines_) * kLine)->seq)
          .store(0, std::memory_order_relaxed);
  }

  void release(int s) {
    Peer& p = peers_[s];
    std::uint64_t upto = p.released;
    while (!p.inflight.empty() && p.inflight.front().consumed) {
      upto = p.inflight.front().end;
      p.inflight.pop_front();
    }
    if (upto != p.released) {
      p.released = upto;
      shared(p.rx.ctl->tail).store(upto, std::memory_order_release);
      if (shared(p.rx.ctl->space_wait).load(std::memory_order_relaxed)) notify(s);
    }
  }

  // Something to do for poll() or progress()? Read-only.
  bool has_work() {
    for (int s = 0; s < size_; ++s) {
      const Peer& p = peers_[s];
      if (p.read_pos >= p.released + ring_lines_) continue;
      auto* h = reinterpret_cast<SlotHeader*>(p.rx.ring + (p.read_pos % ring_lines_) * kLine);
      if (shared(h->seq).load(std::memory_order_seq_cst) == p.read_pos + 1) return true;
    }
    if (!work_pending()) return false;
    for (int s = 0; s < size_; ++s) {
      Peer& p = peers_[s];
      if (p.expect_ctrl > 0) {
        CtrlSlot* c = p.rx.ctrl + (p.ctrl_read % ctrl_slots_);
        if (shared(c->seq).load(std::memory_order_seq_cst) == p.ctrl_read + 1) return true;
      }
      if (!p.backlog.empty() && shared(p.tx.ctl->tail).load(std::memory_order_seq_cst) != p.tail_seen) return true;
      if (!p.ctrl_backlog.empty() &&
          shared(p.tx.ctl->ctrl_tail).load(std::memory_order_seq_cst) != p.ctrl_tail_seen)
        return true;
      if (!p.arena_tx.empty() &&
          p.produced - shared(p.tx.ctl->consumed).load(std::memory_order_seq_cst) < chunks_)
        return true;
      if (!p.arena_rx.empty() && shared(p.rx.ctl->produced).load(std::memory_order_seq_cst) > p.consumed)
        return true;
      if (p.coop_fetch != 0 && shared(p.rx.ctl->coop_done).load(std::memory_order_seq_cst) == p.coop_pieces)
        return true;
    }
    return false;
  }

  Segment seg_;
  int rank_;
  int size_;
  bool unmap_;
  RankSlot* me_ = nullptr;
  Topology topo_;
  Placement placement_;
  bool oversubscribed_ = false;
  bool cma_ok_ = true;
  int launcher_pid_ = 0;
  std::uint64_t launcher_checked_ns_ = 0;
  std::uint64_t ring_lines_ = 0;
  std::uint64_t ctrl_slots_ = 0;
  std::uint64_t chunk_ = 0;
  std::uint64_t chunks_ = 0;
  std::uint64_t eager_max_ = 0;
  std::vector<Peer> peers_;
  int poll_next_ = 0;
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
};

bool env_bind() {
  const char* b = env_str(kEnvBind);
  return !b || std::strcmp(b, "none") != 0;
}

}  // namespace

std::unique_ptr<Transport> connect(int rank, int size) {
  const char* name = env_str(kEnvJob);
  if (!name) throw std::runtime_error("tilempi: no job in the environment (TILEMPI_JOB)");
  if (size < 1 || rank < 0 || rank >= size || size >= (1 << kSourceBits))
    throw std::runtime_error("tilempi: bad rank " + std::to_string(rank) + " of " + std::to_string(size));
  int fd = ::shm_open(name, O_RDWR, 0);
  if (fd < 0)
    throw std::runtime_error(std::string("tilempi: cannot open the job's shared memory ") + name + ": " +
                             std::strerror(errno) + " (was this rank started by tilempirun?)");
  const Geometry g = make_geometry(size);
  void* base = ::mmap(nullptr, g.total_bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  int e = errno;
  ::close(fd);
  if (base == MAP_FAILED)
    throw std::runtime_error(std::string("tilempi: cannot map the job's shared memory: ") + std::strerror(e));
  Segment seg{static_cast<unsigned char*>(base), g.total_bytes};
  Header* h = seg.header();
  if (shared(h->magic).load(std::memory_order_acquire) != kMagic || h->version != kLayoutVersion ||
      h->nranks != size || h->geometry.total_bytes != g.total_bytes) {
    ::munmap(base, g.total_bytes);
    throw std::runtime_error("tilempi: the job's shared memory does not match this rank (size " +
                             std::to_string(size) + ")");
  }
  RankSlot* slot = seg.rank_slot(rank);
  shared(slot->pid).store(static_cast<std::int32_t>(::getpid()), std::memory_order_release);
  shared(slot->attached).store(1, std::memory_order_release);
  // The last rank to attach removes the name: from then on nothing can outlive the job.
  if (shared(h->attached).fetch_add(1, std::memory_order_acq_rel) + 1 == static_cast<std::uint32_t>(size)) {
    if (shared(h->unlinked).exchange(1) == 0) ::shm_unlink(name);
  }
  const Placement place = place_rank(rank, env_bind());
  bind_memory(seg.block(rank), h->geometry.block_bytes, place.numa_node);
  auto t = std::make_unique<HostTransport>(seg, rank, size, true);
  t->set_placement(place);
  return t;
}

std::unique_ptr<Transport> connect_singleton() {
  const Geometry g = make_geometry(1);
  void* base = ::mmap(nullptr, g.total_bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (base == MAP_FAILED) throw std::runtime_error(std::string("tilempi: cannot map memory: ") + std::strerror(errno));
  Segment seg{static_cast<unsigned char*>(base), g.total_bytes};
  Header* h = seg.header();
  h->version = kLayoutVersion;
  h->nranks = 1;
  h->geometry = g;
  h->magic = kMagic;
  seg.rank_slot(0)->pid = static_cast<std::int32_t>(::getpid());
  auto t = std::make_unique<HostTransport>(seg, 0, 1, true);
  t->set_placement(place_rank(0, false));
  return t;
}

}  // namespace tilempi::transport::host
