// The host transport's Transport interface over its mechanisms (see host_transport.h): sending
// and polling through the eager rings, progress of what is pending, waiting, attaching to the
// job's segment.
#include "host/host_transport.h"

#include "tilempi/transport/termination.h"

#include <signal.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>

#include "backends.h"
#include "shm/segment.h"
#include "tilempi/transport/transport_settings.h"

namespace tilempi::transport::host {

namespace {

// A rank that leaves main (or calls exit) between MPI_Init and MPI_Finalize: its peers may wait
// for it for ever, and a job whose ranks all do so did not run as MPI says. It ends the job
// the way an abort does, naming the cause (the sim's deadlock report says the same words).
HostTransport* unfinalized = nullptr;
pid_t unfinalized_pid = 0;

extern "C" void on_exit_without_finalize(int status, void*) {
  // (a child the rank forked runs this too: it is not the rank; a rank that exits with a
  // status of its own fails the job with that status, as any failing rank does)
  if (!unfinalized || ::getpid() != unfinalized_pid || status != 0) return;
  TerminationWindow window;  // the job may be ending around us: our output goes out first
  unfinalized->abort(1, kExitedWithoutFinalize);
}

void watch_exit_without_finalize(HostTransport* t) {
  static bool registered = false;
  if (t && !registered) registered = ::on_exit(on_exit_without_finalize, nullptr) == 0;
  unfinalized = t;
  unfinalized_pid = ::getpid();
}

const char* env_str(const char* name) {
  const char* v = std::getenv(name);
  return v && *v ? v : nullptr;
}

bool env_bind() {
  const char* b = env_str(kEnvBind);
  return !b || std::strcmp(b, "none") != 0;
}

}  // namespace

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

HostTransport::HostTransport(Segment seg, int rank, int size, bool unmap_at_exit)
    : seg_(seg), rank_(rank), size_(size), unmap_(unmap_at_exit) {
  const Geometry& g = seg_.header()->geometry;
  ring_lines_ = g.ring_bytes / kLine;
  ctrl_slots_ = g.ctrl_slots;
  chunk_ = g.arena_chunk;
  chunks_ = g.arena_chunks;
  eager_max_ = g.eager_max;
  // Settings from the environment (tilempi/transport/transport_settings.h); a bad value throws, naming
  // the variable and its range, and MPI_Init fails with that message.
  if (auto v = settings::host_eager(g.ring_bytes / 4 - kSlotPayloadOffset)) eager_max_ = *v;
  // Large messages: cross-memory attach (one copy, the kernel pinning every page) below
  // kArenaFrom, the arena (two copies, both cores streaming) from there on, which measured
  // faster for large messages on the development VM (docs/HOST_TRANSPORT.md).
  // TILEMPI_HOST_CMA=1 uses cross-memory attach for every size, 0 the arena for every size. A
  // peer that refuses cross-memory attach is detected on first use and the arena takes over.
  if (auto cma = tilempi::settings::env_boolean(settings::host_cma_env())) {
    cma_ok_ = *cma;
    cma_below_ = UINT64_MAX;
  } else {
    cma_ok_ = size_ > 1 && cma_allowed();
    cma_below_ = kArenaFrom;
  }
  me_ = seg_.rank_slot(rank_);
  // Writers skip the fence per message where the kernel lets sleepers fence for them.
  light_fence_ = register_light_fence();
  shared(me_->heavy_fence).store(light_fence_ ? 1u : 0u, std::memory_order_seq_cst);
  peers_.resize(static_cast<std::size_t>(size_));
  for (int p = 0; p < size_; ++p) {
    Peer& peer = peers_[static_cast<std::size_t>(p)];
    peer.tx = channel_view(seg_, rank_, p);
    peer.rx = channel_view(seg_, p, rank_);
    peer.slot = seg_.rank_slot(p);
    peer.ring_out = RingWriter(peer.tx.ring, ring_lines_, &peer.tx.ctl->tail);
    peer.ring_in = RingReader(peer.rx.ring, ring_lines_, &peer.rx.ctl->tail);
    peer.ctrl_out = CtrlWriter(peer.tx.ctrl, ctrl_slots_, &peer.tx.ctl->ctrl_tail);
    peer.ctrl_in = CtrlReader(peer.rx.ctrl, ctrl_slots_, &peer.rx.ctl->ctrl_tail);
  }
  if (const char* m = env_str(kEnvMesh)) {
    int w = 0, h = 0;
    if (std::sscanf(m, "%dx%d", &w, &h) == 2 && w > 0 && h > 0 && w * h >= size_)
      rank_placement_ = default_placement(size_, w, h);
    else
      rank_placement_ = default_placement(size_);
  } else {
    rank_placement_ = default_placement(size_);
  }
  if (const char* lp = env_str(kEnvLauncherPid)) {
    launcher_pid_ = std::atoi(lp);
    catch_termination();  // only in a launcher's job: it is the launcher that ends ranks so
    watch_exit_without_finalize(this);
  }
}

void HostTransport::set_placement(const Placement& p) {
  placement_ = p;
  const bool oversubscribed = size_ > p.cores;
  spin_ = spin_policy(oversubscribed);
  vain_polls_per_yield_ = oversubscribed ? kVainPollsPerYield : 0;
  if (auto n = settings::host_poll_yield()) vain_polls_per_yield_ = *n;  // (the launcher checked it)
  if (oversubscribed) return;
  // A rank per core, where small-message latency matters: map the control words, eager ring and
  // control ring of every channel (both directions) now, so that the first lap of a ring pays no
  // page fault per page. Not for many ranks on few cores: that would allocate every pair's ring,
  // used or not.
  const Geometry& g = seg_.header()->geometry;
  const std::size_t hot = kChannelCtlBytes + g.ring_bytes + g.ctrl_slots * kLine;
  for (const Peer& peer : peers_) {
    prefault(peer.tx.ctl, hot);
    prefault(peer.rx.ctl, hot);
  }
}

HostTransport::~HostTransport() {
  if (unmap_ && seg_.base) ::munmap(seg_.base, seg_.bytes);
}

Capabilities HostTransport::capabilities() const {
  Capabilities c;
  c.eager_limit = eager_max_;  // every rank reads its own steady clock: not global
  c.one_sided = size_ == 1 || cma_ok_;  // another rank's memory by cross-memory attach (one_sided.cpp)
  return c;
}

// ---------------------------------------------------------------- send side

OpId HostTransport::send(int dst, const Envelope& envelope, const void* buf, std::size_t len, SendMode mode) {
  Peer& p = peers_[static_cast<std::size_t>(dst)];
  if (dst == rank_) [[unlikely]]
    self_ring_used_ = true;
  const bool eager = mode == SendMode::Standard && len <= eager_max_;
  // In order: only while nothing waits in the backlog. A message of one line is written inline
  // (RingWriter::write_line: an 8-byte send is then a few dozen instructions).
  if (eager && p.backlog.empty() &&
      (len <= RingWriter::kLinePayload ? p.ring_out.write_line(envelope, buf, len)
                                       : p.ring_out.write_eager(envelope, buf, len))) {
    if (dst != rank_) ring_doorbell(p.slot, light_fence_);
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

bool HostTransport::send_done(OpId id) {
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

bool HostTransport::flush_one(int dst, const Pending& pend) {
  auto it = sends_.find(pend.id);
  if (it == sends_.end()) return true;
  SendOp& op = it->second;
  RingWriter& ring = peers_[static_cast<std::size_t>(dst)].ring_out;
  if (pend.eager) {
    if (!ring.write_eager(pend.envelope, op.buf, op.len)) return false;
    op.done = true;
    return true;
  }
  return ring.write_rts(pend.envelope, RtsBody{op.len, reinterpret_cast<std::uint64_t>(op.buf), pend.id});
}

void HostTransport::flush_backlog(int dst) {
  Peer& p = peers_[static_cast<std::size_t>(dst)];
  bool wrote = false;
  while (!p.backlog.empty() && flush_one(dst, p.backlog.front())) {
    p.backlog.pop_front();
    wrote = true;
  }
  if (p.backlog.empty()) --backlog_peers_;
  settle_space_wait(p);
  if (wrote) notify(dst);
}

// A full ring never blocks send(): the message waits in the backlog and the receiver, seeing
// space_wait, rings our doorbell when it releases lines.
void HostTransport::announce_space_wait(Peer& p) {
  if (!p.space_wait) {
    p.space_wait = true;
    shared(p.tx.ctl->space_wait).store(1, std::memory_order_seq_cst);
  }
}

void HostTransport::settle_space_wait(Peer& p) {
  if (p.space_wait && p.backlog.empty() && p.ctrl_backlog.empty()) {
    p.space_wait = false;
    shared(p.tx.ctl->space_wait).store(0, std::memory_order_relaxed);
  }
}

void HostTransport::notify(int r) {
  if (r == rank_) return;
  ring_doorbell(seg_.rank_slot(r), light_fence_);
}

// ---------------------------------------------------------------- receive side

bool HostTransport::poll(Arrival& out) {
  if (work_pending()) progress();
  int s = poll_next_;
  for (int n = size_; n > 0; --n) {
    // (The layer above delivers its messages to itself without the transport, usually.)
    if ((s != rank_ || self_ring_used_) && poll_source(s, out)) {
      poll_next_ = s + 1 == size_ ? 0 : s + 1;
      return true;
    }
    if (++s == size_) s = 0;
  }
  return false;
}

// An application that polls (MPI_Test, MPI_Testany, MPI_Iprobe in a loop) never waits in the
// transport, so it never yields or sleeps: on a core shared with another rank it holds the core
// for the scheduler's whole time slice (milliseconds) while the rank it polls for, or one that
// rank waits for, sits on the run queue. Graph500's BFS, which polls in every level's barrier,
// spent nearly all its time so (docs/HOST_TRANSPORT.md, "Real codes"). So every so many tests
// that found nothing give the core away, as wait() does after its short spin; sched_yield()
// returns at once when nobody else wants the core. (Counted here only: the paths of messages
// that arrive are the same as without it.)
void HostTransport::polled_in_vain() {
  if (vain_polls_per_yield_ == 0 || ++vain_polls_ < vain_polls_per_yield_) return;
  vain_polls_ = 0;
  yield_core();
}

void HostTransport::wake_space_waiter(int s) {
  Peer& p = peers_[static_cast<std::size_t>(s)];
  if (shared(p.rx.ctl->space_wait).load(std::memory_order_relaxed)) notify(s);
}

bool HostTransport::poll_source(int s, Arrival& out) {
  Peer& p = peers_[static_cast<std::size_t>(s)];
  // Released lines are handed back lazily (eager_ring.h); not to a writer that waits for them.
  if (p.ring_in.deferred() && shared(p.rx.ctl->space_wait).load(std::memory_order_relaxed)) {
    p.ring_in.flush();
    released_ring(s);
  }
  RingReader::Record rec;
  const bool got = p.ring_in.next(rec);
  released_ring(s);  // pads skipped on the way
  if (!got) return false;
  out.source = s;
  out.envelope = rec.header->envelope;
  if (rec.kind == kSlotEager) {
    out.size = rec.header->len;
    out.buffered = true;
    out.handle = (rec.pos << (kSourceBits + 1)) | (static_cast<std::uint64_t>(s) << 1);
    return true;
  }
  RtsBody body;
  std::memcpy(&body, p.ring_in.body(rec.pos), sizeof body);
  p.ring_in.consume(rec.pos);
  released_ring(s);
  const std::uint64_t key = next_rdv_++;
  rdvs_.emplace(key, Rdv{s, body.size, body.addr, body.send_id});
  out.size = body.size;
  out.buffered = false;
  out.handle = (key << 1) | kHandleRdv;
  return true;
}

OpId HostTransport::fetch(const Arrival& a, void* dst, std::size_t len) {
  if (len > a.size) len = a.size;
  if ((a.handle & kHandleRdv) != 0) return fetch_rendezvous(a, dst, len);
  copy_out(static_cast<int>((a.handle >> 1) & ((1u << kSourceBits) - 1)), a.handle >> (kSourceBits + 1), a.size, dst,
           len);
  return kDone;
}

namespace {
// An eager payload out of the ring: the commonest small sizes without a call (two 8-byte
// copies that may overlap).
[[gnu::always_inline]] inline void copy_payload(void* dst, const unsigned char* body, std::size_t len) {
  auto* out = static_cast<unsigned char*>(dst);
  if (len >= 8 && len <= 16) {
    std::memcpy(out, body, 8);
    std::memcpy(out + len - 8, body + len - 8, 8);
  } else if (len) {
    std::memcpy(out, body, len);
  }
}
}  // namespace

void HostTransport::copy_out(int s, std::uint64_t pos, std::uint64_t size, void* dst, std::size_t cap) {
  Peer& p = peers_[static_cast<std::size_t>(s)];
  copy_payload(dst, p.ring_in.payload(pos, size), cap < size ? cap : size);
  p.ring_in.consume(pos);
  released_ring(s);
}

// The record polled next from s, taken at once when it is the receive's message: no Arrival,
// no round over the other rings, no second call to fetch it.
int HostTransport::take_next(int s, const EnvelopeMatch& m, void* dst, std::size_t cap, Envelope* envelope,
                             std::size_t* size) {
  Peer& p = peers_[static_cast<std::size_t>(s)];
  if (p.ring_in.deferred() && shared(p.rx.ctl->space_wait).load(std::memory_order_relaxed)) {
    p.ring_in.flush();  // (as poll_source: a writer waits for these lines)
    released_ring(s);
  }
  const SlotHeader* h = p.ring_in.peek();
  if (!h) return 0;
  return take_head(s, p, h, m, dst, cap, envelope, size);
}

int HostTransport::take_head(int s, Peer& p, const SlotHeader* h, const EnvelopeMatch& m, void* dst, std::size_t cap,
                             Envelope* envelope, std::size_t* size) {
  const Envelope env = h->envelope;
  if ((h->kind_lines & 0xff) != kSlotEager || !m.matches(env)) return -1;
  const std::uint64_t n = h->len;
  copy_payload(dst, reinterpret_cast<const unsigned char*>(h) + eager_payload_offset(n), cap < n ? cap : n);
  p.ring_in.take_peeked(h);
  released_ring(s);
  *envelope = env;
  *size = n;
  return 1;
}

// A blocking receive with nothing else to do: spin on the one line its message will land on, and
// take it from there (no return through wait() and the layer above's loop first). Whatever else
// could need this rank ends the spin with 0: another ring's record, the transport's own pending
// work (backlogs, rendezvous, arena streams), the spin budget. The caller's general wait does the
// rest, sleeping included; when ranks share cores, it does all of it.
int HostTransport::wait_take_next(int s, const EnvelopeMatch& m, void* dst, std::size_t cap, Envelope* envelope,
                                  std::size_t* size) {
  if (spin_.yield_while_spinning || work_pending()) return 0;
  Peer& p = peers_[static_cast<std::size_t>(s)];
  release_rings();  // as wait() before it spins: the consumed lines' moment (no writer waits then)
  const std::uint64_t start = now_ns();
  for (std::uint32_t i = 1;; ++i) {
    if (const SlotHeader* h = p.ring_in.peek()) return take_head(s, p, h, m, dst, cap, envelope, size);
    if ((i & 3) == 0 && has_work()) {
      const SlotHeader* h = p.ring_in.peek();  // (it may be ours, just arrived)
      return h ? take_head(s, p, h, m, dst, cap, envelope, size) : 0;
    }
    cpu_relax();
    if ((i & 63) == 0 && now_ns() - start >= spin_.spin_ns) return 0;
  }
}

bool HostTransport::fetch_done(OpId id) {
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

void HostTransport::progress() {
  if (!work_pending()) return;
  if (expect_ctrl_total_ > 0) {
    for (int s = 0; s < size_; ++s)
      if (peers_[static_cast<std::size_t>(s)].expect_ctrl > 0) drain_ctrl(s);
  }
  if (backlog_peers_ > 0 || ctrl_backlog_peers_ > 0) {
    for (int d = 0; d < size_; ++d) {
      Peer& p = peers_[static_cast<std::size_t>(d)];
      if (!p.backlog.empty()) flush_backlog(d);
      if (!p.ctrl_backlog.empty()) flush_ctrl_backlog(d);
    }
  }
  if (arena_tx_total_ > 0) {
    for (int d = 0; d < size_; ++d)
      if (!peers_[static_cast<std::size_t>(d)].arena_tx.empty()) produce(d);
  }
  if (arena_rx_total_ > 0) {
    for (int s = 0; s < size_; ++s)
      if (!peers_[static_cast<std::size_t>(s)].arena_rx.empty()) consume_arena(s);
  }
  if (coop_total_ > 0) finish_coops();
}

// Something to do for poll() or progress()? Read-only, seq_cst loads (the doorbell protocol).
bool HostTransport::has_work() {
  for (const Peer& p : peers_)
    if (p.ring_in.ready()) return true;
  if (!work_pending()) return false;
  for (const Peer& p : peers_) {
    if (p.expect_ctrl > 0 && p.ctrl_in.ready()) return true;
    if (!p.backlog.empty() && p.ring_out.space_released()) return true;
    if (!p.ctrl_backlog.empty() && p.ctrl_out.space_released()) return true;
    if (!p.arena_tx.empty() && arena_has_room(arena(p.tx), p.produced, p.arena_tx.front().t)) return true;
    if (!p.arena_rx.empty() && arena_has_data(arena(p.rx), p.consumed)) return true;
    if (p.coop_fetch != 0 && copy_progress(p.rx.ctl) == p.coop_pieces) return true;
  }
  return false;
}

// Hands consumed ring lines back to their writers: the moment to scrub and release them is when
// this rank has nothing else to do.
void HostTransport::release_rings() {
  for (int s = 0; s < size_; ++s) {
    Peer& p = peers_[static_cast<std::size_t>(s)];
    if (!p.ring_in.deferred()) continue;
    p.ring_in.flush();
    released_ring(s);
  }
}

void HostTransport::wait(std::uint64_t timeout_ns) {
  if (timeout_ns == 0) return;
  if (has_work()) return;
  release_rings();
  // A pending sender-side wait on ring space is woken without a fence on the receiver's side,
  // so cap that sleep (rare: only when a ring is full).
  const std::uint64_t nap_cap = backlog_peers_ > 0 || ctrl_backlog_peers_ > 0 ? 200000ull : 100000000ull;
  WaitEnd end;
  {
    TerminationWindow window;  // a SIGTERM now (the job is ending) flushes the rank's output
    end = wait_for_work(
        me_, spin_, timeout_ns, nap_cap,
        [this] { return has_work() || termination_signal() != 0 || describe_wanted(); }, [this] { before_nap(); });
  }
  if (int sig = termination_signal()) end_by_signal(sig);
  if (end == WaitEnd::Slept) {
    nap_ended_ = now_ns();
    check_launcher();
  }
  if (describe_wanted()) answer_describe();
}

// ---------------------------------------------------------------- what the launcher sees of a wait
//
// A job makes no progress when every rank waits with nothing to do and nothing is in flight for
// long. The launcher tells that from each rank's slot: idle_since, the start of the rank's
// current stretch of waiting, and naps, which moves while it sleeps (host_job.cpp). Both are
// written on the way to a sleep, so a message costs nothing more. A stretch goes on from sleep
// to sleep while the rank has done nothing in between: neither has it moved any of its rings
// (activity()), which every message sent, received or answered does, nor been away from its
// waits for long (a rank back from its own work is a new stretch). A rank that is woken by a
// message, or whose peer copies a large message with it, leaves its stretch by the first of
// these; the peer copying is awake, not waiting. "Away" is measured in the rank's own CPU time
// (a rank that waits for a core on a busy machine has done nothing), and in wall time only
// beyond what a busy machine delays a wake-up. A rank that waits sleeps in steps of a
// millisecond (the layer above's wait), so it looks at itself only every few of them: a stretch
// that ended is seen a little late, which only delays a report.

namespace {
constexpr std::uint64_t kSelfLookNs = 20'000'000;  ///< between two looks at the rank's activity
constexpr std::uint64_t kAwayNs = 1'000'000'000;   ///< from a sleep's end to the next: away

std::uint64_t thread_cpu_ns() {
  timespec ts;
  if (::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0) return 0;
  return static_cast<std::uint64_t>(ts.tv_sec) * 1000000000ull + static_cast<std::uint64_t>(ts.tv_nsec);
}
}  // namespace

// Everything this rank's side of the transport has moved: lines and entries written and read,
// arena bytes, operations and rendezvous begun. Only ever compared with itself.
std::uint64_t HostTransport::activity() const {
  std::uint64_t a = next_id_ + next_rdv_;
  for (const Peer& p : peers_)
    a += p.ring_in.position() + p.ring_out.head() + p.ctrl_in.read_count() + p.ctrl_out.written() + p.produced +
         p.consumed;
  return a;
}

void HostTransport::note_idle(std::uint64_t now, bool was_away) {
  const std::uint64_t a = activity();
  if (idle_since_ == 0 || a != idle_activity_ || was_away) {
    idle_since_ = now;
    idle_activity_ = a;
  }
  shared(me_->idle_since).store(idle_since_, std::memory_order_relaxed);
}

void HostTransport::before_nap() {
  const std::uint64_t now = now_ns();
  if (idle_since_ == 0 || now - self_looked_ >= kSelfLookNs || now - nap_ended_ > kAwayNs) {
    const std::uint64_t cpu = thread_cpu_ns();
    // On a core more than a quarter of the time since the last look: its own work between waits
    // (waiting costs it a few microseconds per millisecond).
    const bool worked = cpu - self_looked_cpu_ > (now - self_looked_) / 4;
    note_idle(now, worked || now - nap_ended_ > kAwayNs);
    self_looked_ = now;
    self_looked_cpu_ = cpu;
  }
  shared(me_->nap_bell).store(shared(me_->bell).load(std::memory_order_acquire), std::memory_order_relaxed);
  shared(me_->naps).store(++naps_, std::memory_order_release);
}

// The launcher asks (its no-progress report, --timeout) what this rank waits for: the layer
// above says it (set_describer), from here, where its state is whole (not a signal handler).
void HostTransport::answer_describe() {
  const std::uint32_t req = shared(me_->describe_req).load(std::memory_order_acquire);
  std::string text;
  try {
    text = describer_ ? describer_() : std::string("(no description)");
  } catch (const std::exception&) {
    text = "(no description: out of memory)";
  }
  char* out = seg_.description(rank_);
  const std::size_t n = std::min(text.size(), kDescriptionBytes - 1);
  std::memcpy(out, text.data(), n);
  out[n] = 0;
  // The stretch as of now, for the report's "waiting for" (the rank may have moved since its
  // last sleep).
  note_idle(now_ns(), false);
  describe_ack_ = req;
  shared(me_->describe_ack).store(req, std::memory_order_release);
}

// A rank whose launcher died (SIGKILL leaves no one to end the job) must not sleep forever.
void HostTransport::check_launcher() {
  if (launcher_pid_ <= 1) return;
  const std::uint64_t t = now_ns();
  if (t - launcher_checked_ns_ < 1000000000ull) return;
  launcher_checked_ns_ = t;
  if (::kill(launcher_pid_, 0) != 0 && errno == ESRCH) {
    std::fprintf(stderr, "tilempi: rank %d: the launcher (pid %d) is gone, ending this rank\n", rank_,
                 launcher_pid_);
    flush_program_output();
    shm::record_abort(seg_.header()->abort, rank_, 1, "the launcher is gone");
    ::_exit(1);
  }
}

double HostTransport::wtime() {
  timespec ts;
  ::clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

double HostTransport::wtick() {
  timespec ts;
  if (::clock_getres(CLOCK_MONOTONIC, &ts) != 0) return 1e-9;
  double t = static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
  return t > 0 ? t : 1e-9;
}

void HostTransport::abort(int code, const std::string& why) {
  // Output first: the launcher ends every rank, this one included, once it hears of the abort.
  flush_program_output();
  shm::record_abort(seg_.header()->abort, rank_, code, why.c_str());
  if (launcher_pid_ > 1) ::kill(launcher_pid_, SIGUSR1);
  int status = code & 0xff;
  if (status == 0 && code != 0) status = 1;
  ::_exit(status);
}

void HostTransport::finalize() {
  watch_exit_without_finalize(nullptr);
  release_rings();
  // Answers a peer still waits for (FIN/CTS) and transfers we drive must get out first.
  while (ctrl_backlog_peers_ > 0 || arena_tx_total_ > 0 || backlog_peers_ > 0) {
    progress();
    if (ctrl_backlog_peers_ > 0 || arena_tx_total_ > 0 || backlog_peers_ > 0) wait(1000000);
  }
  // From here on the rank waits for nothing of the job's (the launcher counts it as running
  // until it exits), and the layer above that describes it is going away.
  describer_ = nullptr;
  shared(me_->finalized).store(1, std::memory_order_release);
}

// ---------------------------------------------------------------- attaching

std::unique_ptr<Transport> connect(int rank, int size) {
  const char* name = env_str(kEnvJob);
  if (!name) throw std::runtime_error("tilempi: no job in the environment (TILEMPI_JOB)");
  if (size < 1 || rank < 0 || rank >= size || size >= (1 << kSourceBits))
    throw std::runtime_error("tilempi: bad rank " + std::to_string(rank) + " of " + std::to_string(size));
  const Geometry g = make_geometry(size);
  void* base = nullptr;
  try {
    base = shm::open_segment(name, g.total_bytes);
  } catch (const std::runtime_error& e) {
    throw std::runtime_error(std::string("tilempi: ") + e.what());
  }
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
  shm::count_attach(h->attached, h->unlinked, size, name);
  const Placement place = place_rank(rank, env_bind(), rank_threads());
  if (env_str(kEnvReportBindings)) {  // tilempirun --report-bindings
    const std::string cores = place.bound_cores > 1 ? "cores " + std::to_string(place.bound_core) + "-" +
                                                          std::to_string((place.bound_core + place.bound_cores - 1) % place.cores)
                                                    : "core " + std::to_string(place.bound_core);
    if (place.bound_core >= 0)
      std::fprintf(stderr, "tilempirun: rank %d (pid %d) bound to %s of %d%s\n", rank, static_cast<int>(::getpid()),
                   cores.c_str(), place.cores,
                   place.numa_node >= 0 ? (", NUMA node " + std::to_string(place.numa_node)).c_str() : "");
    else
      std::fprintf(stderr, "tilempirun: rank %d (pid %d) not bound (%s)\n", rank, static_cast<int>(::getpid()),
                   env_bind() ? "the cores could not be read" : "--bind none");
  }
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
