#include "sim/sim_engine.h"

#include "tilempi/transport/job.h"

#include <linux/futex.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <stdexcept>

namespace tilempi::transport::sim {

namespace hw = tilempi::hwmodel;
namespace ad = tilempi::hwmodel::adapter;

namespace {

hw::Dir dir_of_port(unsigned port) {
  switch (port) {
    case kPortNorth: return hw::Dir::North;
    case kPortEast: return hw::Dir::East;
    case kPortSouth: return hw::Dir::South;
    case kPortWest: return hw::Dir::West;
    default: return hw::Dir::Local;
  }
}

/// Adapter ids of offloaded collective transfers: apart from the messages' handles (a count above
/// kMsgSlotBits, which reaches bit 59 only after 2^35 messages), and below 2^60 so that a
/// packet's tag (id << 4) keeps them.
constexpr std::uint64_t kOffloadBit = 1ull << 59;

hw::PortMask mask_of_ports(unsigned mask) {
  hw::PortMask m = 0;
  if (mask & kPortNorth) m |= hw::port_bit(hw::Dir::North);
  if (mask & kPortEast) m |= hw::port_bit(hw::Dir::East);
  if (mask & kPortSouth) m |= hw::port_bit(hw::Dir::South);
  if (mask & kPortWest) m |= hw::port_bit(hw::Dir::West);
  if (mask & kPortLocal) m |= hw::port_bit(hw::Dir::Local);
  return m;
}

}  // namespace

Engine::Engine(Segment seg, int nranks, const hw::Config& config, const std::string& adapter,
               std::vector<hw::TileId> tiles, EngineOptions options, RankSink* sink)
    : seg_(seg), n_(nranks), config_(config), adapter_name_(adapter), tiles_(std::move(tiles)),
      opt_(std::move(options)), sink_(sink) {
  chip_ = std::make_unique<hw::Chip>(config_);
  adapter_ = ad::Adapter::create(adapter_name_, config_);
  adapter_->attach(*chip_, *this);
  lookahead_ = std::max<std::uint64_t>(1, adapter_->lookahead());
  wake_cycles_ = adapter_->wake_cycles();
  ranks_.resize(static_cast<std::size_t>(n_));
  if (n_ <= kDensePairRanks) dense_pairs_.resize(static_cast<std::size_t>(n_) * static_cast<std::size_t>(n_));
  tracing_ = !opt_.trace_path.empty();
  chip_->on_delivered([this](const hw::PacketEvent& e) { on_delivered(e); });
  chip_->on_injected([this](const hw::PacketEvent& e) { adapter_->injected(e); });
  // --migrate orders act at their cycle (no lookahead: the OS, not a rank's call, starts them).
  std::uint64_t seq = 0;
  for (const MigrationOrder& o : opt_.migrations) {
    Request q{};
    q.kind = kReqMigrate;
    q.time = o.at;
    q.a = static_cast<std::uint64_t>(o.rank);
    q.b = static_cast<std::uint64_t>(o.tile);
    enqueue(o.at, -1, seq++, q);
  }
}

std::vector<MigrationOrder> parse_migrations(const std::string& text) {
  std::vector<MigrationOrder> out;
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t end = text.find(',', pos);
    if (end == std::string::npos) end = text.size();
    const std::string item = text.substr(pos, end - pos);
    pos = end + 1;
    MigrationOrder o;
    unsigned long long r = 0, t = 0, c = 0;
    int used = 0;
    if (std::sscanf(item.c_str(), "%llu:%llu@%llu%n", &r, &t, &c, &used) != 3 || used != static_cast<int>(item.size()) ||
        item.find('-') != std::string::npos || r > 1u << 20 || t > 1u << 20)
      throw std::runtime_error("--migrate " + item + ": expected RANK:TILE@CYCLE (e.g. 1:5@20000)");
    o.rank = static_cast<int>(r);
    o.tile = static_cast<int>(t);
    o.at = c;
    out.push_back(o);
  }
  return out;
}

Engine::~Engine() {
  if (thread_.joinable()) {
    stop_.store(true, std::memory_order_release);
    Header* h = seg_.header();
    shared(h->engine_bell).fetch_add(1, std::memory_order_seq_cst);
    futex_wake(&h->engine_bell);
    thread_.join();
  }
}

void Engine::start() {
  thread_ = std::thread([this] {
    auto t0 = std::chrono::steady_clock::now();
    try {
      run();
    } catch (const std::exception& e) {
      failure_ = std::string("sim engine: ") + e.what();
      shared(seg_.header()->dead).store(1, std::memory_order_seq_cst);
      for (int r = 0; r < n_; ++r) ring_rank(r);
    }
    wall_seconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  });
}

void Engine::rank_exited(int rank, bool ok) {
  if (rank < 0 || rank >= n_) return;
  if (!ok) failed_any_.store(true, std::memory_order_release);
  shared(seg_.ctl(rank)->exited).store(1, std::memory_order_seq_cst);
  exited_any_.store(true, std::memory_order_release);
  Header* h = seg_.header();
  shared(h->engine_bell).fetch_add(1, std::memory_order_seq_cst);
  futex_wake(&h->engine_bell);
}

void Engine::ring_rank(int r) {
  RankCtl* c = seg_.ctl(r);
  shared(c->bell).fetch_add(1, std::memory_order_seq_cst);
  futex_wake(&c->bell);
}

// ------------------------------------------------------------------ requests

bool Engine::drain_requests() {
  bool any = false;
  for (int r = 0; r < n_; ++r) {
    RankInfo& ri = ranks_[static_cast<std::size_t>(r)];
    RankCtl* c = seg_.ctl(r);
    if (!ri.finished && shared(c->exited).load(std::memory_order_acquire)) {
      // The process ended without saying goodbye (or after it): it posts nothing more.
      ri.finished = true;
      ri.state = kFinished;
      if (ri.end == 0) ri.end = shared(c->clock).load(std::memory_order_acquire);
      shared(c->state).store(kFinished, std::memory_order_seq_cst);
      any = true;
    }
    const std::uint64_t head = shared(c->req_head).load(std::memory_order_acquire);
    if (head == ri.req_tail) continue;
    Request* ring = seg_.req(r);
    while (ri.req_tail != head) {
      const Request q = ring[ri.req_tail % kRing];
      take_request(r, q, ri.req_tail);
      ++ri.req_tail;
    }
    shared(c->req_tail).store(ri.req_tail, std::memory_order_release);
    any = true;
  }
  return any;
}

// A request comes from a rank's memory, with ranks as processes from shared memory that a faulty
// program can overwrite: one that names a rank that does not exist, or a static route outside
// the root's arena, ends the job with a message instead of indexing out of bounds (found by
// fuzz/fuzz_sim_requests.cpp).
void Engine::check_request(int r, const Request& q) const {
  auto bad = [&](const std::string& what) {
    throw std::runtime_error("rank " + std::to_string(r) + " posted a malformed request (kind " +
                             std::to_string(q.kind) + "): " + what);
  };
  if (q.kind == kReqSend && q.a >= static_cast<std::uint64_t>(n_))
    bad("destination rank " + std::to_string(q.a) + " of " + std::to_string(n_));
  if (q.kind == kReqRemote && q.a >= static_cast<std::uint64_t>(n_))
    bad("one-sided target rank " + std::to_string(q.a) + " of " + std::to_string(n_));
  if (q.kind == kReqStatic) {
    if (q.a >= static_cast<std::uint64_t>(n_)) bad("static broadcast root " + std::to_string(q.a));
    if (q.env.word[0] == 0 || q.env.word[0] > static_cast<std::uint64_t>(n_))
      bad("static broadcast of " + std::to_string(q.env.word[0]) + " participants");
    if (q.a == static_cast<std::uint64_t>(r)) {
      // The root's route list: [count][count hops], at most one hop per tile, inside its arena.
      const std::uint64_t arena = opt_.arena_bytes ? opt_.arena_bytes : seg_.g.arena_bytes;
      std::uint64_t count = 0;
      if (q.c > arena || arena - q.c < sizeof count) bad("static route outside the arena");
      std::memcpy(&count, arena_of(r) + q.c, sizeof count);
      if (count > static_cast<std::uint64_t>(n_) || arena - q.c - sizeof count < count * sizeof(StaticRouteHop))
        bad("static route of " + std::to_string(count) + " hops");
    }
  }
  if (q.kind == kReqOffload) {
    if (q.a >= static_cast<std::uint64_t>(n_)) bad("collective offload root " + std::to_string(q.a));
    if (q.env.word[0] < 2 || q.env.word[0] > static_cast<std::uint64_t>(n_))
      bad("collective offload of " + std::to_string(q.env.word[0]) + " members");
    if (q.d > static_cast<std::uint64_t>(ad::CollKind::Reduce)) bad("collective offload kind " + std::to_string(q.d));
    const auto kind = static_cast<ad::CollKind>(q.d);
    const bool spread = kind == ad::CollKind::Multicast || kind == ad::CollKind::Scatter;
    const std::uint64_t arena = opt_.arena_bytes ? opt_.arena_bytes : seg_.g.arena_bytes;
    const std::uint64_t members = q.env.word[0];
    // What the engine reads from the arena: a spreading root's [count][ranks][data], a
    // collecting sender's data (copied by the root from there).
    std::uint64_t need = 0;
    if (spread && q.a == static_cast<std::uint64_t>(r)) {
      if (q.b > arena) bad("collective offload of " + std::to_string(q.b) + " bytes");
      need = 8 + (members * 4 + 7) / 8 * 8 + q.b * (kind == ad::CollKind::Scatter ? members : 1);
      std::uint64_t count = 0;
      if (q.c <= arena && arena - q.c >= sizeof count) std::memcpy(&count, arena_of(r) + q.c, sizeof count);
      if (count != members) bad("collective offload list of " + std::to_string(count) + " members");
    } else if (!spread && q.a != static_cast<std::uint64_t>(r)) {
      need = q.b;
    }
    if (need && (q.c > arena || arena - q.c < need)) bad("collective offload data outside the arena");
  }
}

void Engine::take_request(int r, const Request& q, std::uint64_t seq) {
  check_request(r, q);
  RankInfo& ri = ranks_[static_cast<std::size_t>(r)];
  ri.used_mpi = true;
  // With ranks as contexts (a sink) there is no segment: no control words to point at.
  RankCtl* c = sink_ ? nullptr : seg_.ctl(r);
  switch (q.kind) {
    case kReqBlock: {
      ri.blocked_at = q.time;
      ri.wants_space = q.c != 0;
      // (A wake-up handler on the rank's core, the adapter's wake-up mode, is timed at each
      // wake-up: then every completion wakes it.)
      ri.sleep_through = wake_cycles_ ? 0 : q.d;
      ri.wake_op = q.op;
      ++ri.blocks;
      ++blocks_total_;
      // b: the earliest event the rank holds but may not look at yet (its time lies beyond the
      // horizon it saw); it must be woken then even though nothing new is published.
      if (q.b != hw::kNever) timers_.push({q.b, r, ri.blocks});
      if (ri.evt_head > q.a || !ri.overflow.empty()) {
        // Something was published after the rank last looked: it need not sleep.
        if (sink_) return;
        shared(c->wake_clock).store(q.time, std::memory_order_relaxed);
        shared(c->state).store(kRunning, std::memory_order_seq_cst);
        ring_rank(r);
      } else {
        ri.state = kBlocked;
        if (!sink_) shared(c->state).store(kBlocked, std::memory_order_seq_cst);
      }
      return;
    }
    case kReqNote: {
      char text[kNoteChars + 1] = {};
      std::memcpy(text, &q.env, sizeof q.env);
      std::memcpy(text + sizeof q.env, q.spare, sizeof q.spare);
      ri.notes[text] += q.a;
      return;
    }
    case kReqFinish:
      ri.finished = true;
      ri.said_goodbye = true;
      ri.state = kFinished;
      ri.end = q.time;
      ri.comm = q.b;
      ri.compute = q.c;
      ri.counted = q.a != 0;
      ri.blocked_cycles = q.d;
      rank_horizon_waits_ += q.spare[0];
      rank_horizon_sleeps_ += q.spare[1];
      if (!sink_) shared(c->state).store(kFinished, std::memory_order_seq_cst);
      return;
    default:
      enqueue(q.time + lookahead_, r, seq, q);
      return;
  }
}

void Engine::enqueue(std::uint64_t eff, int rank, std::uint64_t seq, const Request& q) {
  queue_.push(Queued{eff, rank, queued_reqs_.put(q), seq});
}

void Engine::apply(int r, const Request& q, std::uint64_t now) {
  if (q.kind == kReqMigrate) return apply_migrate(r, q, now, r < 0);  // r < 0: a --migrate order
  RankInfo& ri = ranks_[static_cast<std::size_t>(r)];
  switch (q.kind) {
    case kReqSend: {
      Msg& m = new_msg();
      const std::uint64_t h = m.handle;
      m.src = r;
      m.dst = static_cast<int>(q.a);
      m.bytes = q.b;
      m.arena_off = q.c;
      m.sync = (q.d & 1) != 0;
      m.rdv = (q.d & 2) != 0;
      m.send_op = q.op;
      m.sent = q.op == 0;
      m.env = q.env;
      m.start = q.time;
      m.pair_seq = pair_order(r, m.dst).sent++;
      ++messages_;
      ++ri.sends;
      ri.bytes_sent += q.b;
      if (tracing_) spans_.push_back(Span{r, "send", q.time, q.time + adapter_->send_cost(q.b, m.rdv)});
      adapter_->start(ad::Message{h, tiles_[static_cast<std::size_t>(r)],
                                  tiles_[static_cast<std::size_t>(m.dst)], q.b, m.sync},
                      q.time);
      break;
    }
    case kReqFetch: {
      Msg* mp = find_msg(q.msg);
      if (!mp) break;
      Msg& m = *mp;
      ++ri.recvs;
      m.fetched = true;
      m.fetch_op = q.op;
      if (tracing_) spans_.push_back(Span{r, "recv", q.time, q.time + (m.rdv ? adapter_->accept_cost() : adapter_->recv_cost(m.bytes, false))});
      adapter_->accept(q.msg, q.time);
      // The receiver copied the payload out of the sender's arena inside its fetch call.
      Event e{};
      e.kind = kEvRelease;
      e.time = now;
      e.a = m.arena_off;
      publish(m.src, e);
      if (m.sent && (!m.rdv || m.data)) free_msg(m);
      break;
    }
    case kReqRemote: {
      RemoteOp& x = remotes_[q.msg];
      x.origin = r;
      x.target = static_cast<int>(q.a);
      x.op = q.op;
      ++remote_ops_;
      remote_bytes_ += q.b + q.c;
      if (tracing_) spans_.push_back(Span{r, q.c ? "rma_get" : "rma_put", q.time, q.time + adapter_->remote_issue_cost(q.b, q.c)});
      adapter_->remote_start(ad::Remote{q.msg, tiles_[static_cast<std::size_t>(r)],
                                        tiles_[static_cast<std::size_t>(x.target)], q.b, q.c},
                             q.time);
      break;
    }
    case kReqStatic: {
      Static& s = statics_[q.msg];
      s.expected = static_cast<int>(q.env.word[0]);
      if (r == static_cast<int>(q.a)) {
        s.root = r;
        s.root_off = q.c;
        s.root_time = q.time;
        s.bytes = q.b;  // the root's length is what travels (a receiver's may differ: an MPI error)
      }
      s.parts.emplace_back(r, q);
      if (static_cast<int>(s.parts.size()) == s.expected && s.root >= 0) {
        apply_static(s, now);
        statics_.erase(q.msg);
      }
      break;
    }
    case kReqStaticCopied: {
      auto it = static_copies_.find({static_cast<int>(q.a), q.c});
      if (it == static_copies_.end()) break;
      if (--it->second.left == 0) {
        release_static(it->first.first, it->first.second, it->second.time);
        static_copies_.erase(it);
      }
      break;
    }
    case kReqOffload:
      apply_offload(r, q, now);
      break;
    default:
      break;
  }
}

// Task migration ([Wallentowitz 2018] §3.6): the engine owns the placement (which tile a rank's
// messages leave from and go to), the adapter moves the communication. A tile may hold one task:
// a migration needs a tile that no rank occupies and that no migration in progress involves.
void Engine::apply_migrate(int r, const Request& q, std::uint64_t now, bool order) {
  const int who = static_cast<int>(q.a);
  const std::uint64_t tile = q.b;
  MigrateStatus st = MigrateStatus::Ok;
  std::string why;
  if (!adapter_->migration()) {
    st = MigrateStatus::Unsupported;
    why = "the " + adapter_name_ + " adapter cannot move a task (task migration is modeled for namp)";
  } else if (q.a >= static_cast<std::uint64_t>(n_)) {
    st = MigrateStatus::BadRank;
    why = "rank " + std::to_string(q.a) + " does not exist (" + std::to_string(n_) + " ranks)";
  } else if (tile >= static_cast<std::uint64_t>(config_.width) * static_cast<std::uint64_t>(config_.height)) {
    st = MigrateStatus::BadTile;
    why = "tile " + std::to_string(tile) + " is not on the " + std::to_string(config_.width) + "x" +
          std::to_string(config_.height) + " chip";
  } else {
    for (int o = 0; o < n_ && st == MigrateStatus::Ok; ++o)
      if (tiles_[static_cast<std::size_t>(o)] == static_cast<hw::TileId>(tile)) {
        st = MigrateStatus::Occupied;
        why = "tile " + std::to_string(tile) + " holds rank " + std::to_string(o);
      }
    for (const auto& [id, mv] : moves_) {
      if (st != MigrateStatus::Ok || mv.switched) continue;
      if (mv.rank == who || mv.to == static_cast<hw::TileId>(tile)) {
        st = MigrateStatus::Occupied;
        why = "rank " + std::to_string(mv.rank) + " is moving to tile " + std::to_string(mv.to);
      }
    }
  }
  if (order && st != MigrateStatus::Ok)
    throw std::runtime_error("--migrate " + std::to_string(q.a) + ":" + std::to_string(tile) + "@" +
                             std::to_string(q.time) + " at cycle " + std::to_string(now) + ": " + why);
  if (!order) {
    Event e{};
    e.kind = kEvSendDone;
    e.time = now;
    e.op = q.op;
    e.d = static_cast<std::uint64_t>(st);
    publish(r, e);
  }
  if (st != MigrateStatus::Ok) return;
  const std::uint64_t id = moves_.size() + 1;
  Move& mv = moves_[id];
  mv.rank = who;
  mv.from = tiles_[static_cast<std::size_t>(who)];
  mv.to = static_cast<hw::TileId>(tile);
  mv.requested = now;
  ++pending_switches_;
  adapter_->migrate(ad::Migration{id, mv.from, mv.to}, now);
}

void Engine::migration_work(ad::MsgId id, hw::Cycle at, hw::Cycle core_cycles) {
  auto it = moves_.find(id);
  if (it == moves_.end() || core_cycles == 0) return;
  Event e{};
  e.kind = kEvServed;  // the OS's work on the task's core
  e.time = at;
  e.core_cycles = core_cycles;
  publish(it->second.rank, e);
}

void Engine::migration_switch(ad::MsgId id, hw::Cycle stop, hw::Cycle resume) {
  auto it = moves_.find(id);
  if (it == moves_.end()) return;
  Move& mv = it->second;
  mv.stop = stop;
  mv.resume = resume;
  // The task's core does nothing from `stop` to `resume`: its clock loses those cycles there.
  Event e{};
  e.kind = kEvMigrated;
  e.time = stop;
  e.core_cycles = resume - stop;
  e.a = static_cast<std::uint64_t>(mv.to);
  publish(mv.rank, e);
}

void Engine::apply_switches(std::uint64_t now) {
  for (auto& [id, mv] : moves_) {
    if (mv.switched || mv.resume == 0 || now < mv.resume) continue;
    mv.switched = true;
    --pending_switches_;
    tiles_[static_cast<std::size_t>(mv.rank)] = mv.to;
  }
}

void Engine::apply_offload(int r, const Request& q, std::uint64_t now) {
  const std::uint64_t key = q.msg;
  auto [it, fresh] = offloads_.try_emplace(key);
  Offload& o = it->second;
  if (fresh) {
    o.kind = static_cast<int>(q.d);
    o.expected = static_cast<int>(q.env.word[0]);
    o.root = static_cast<int>(q.a);
    o.bytes = q.b;
    o.group = kOffloadBit | ++offload_seq_;
    offload_ids_[o.group] = {key, -1};
  }
  Offload::Part& p = o.parts[r];
  p.posted = true;
  p.q = q;
  const auto kind = static_cast<ad::CollKind>(o.kind);
  const bool spread = kind == ad::CollKind::Multicast || kind == ad::CollKind::Scatter;
  const hw::TileId root_tile = tiles_[static_cast<std::size_t>(o.root)];
  if (spread && r == o.root) {
    o.bytes = q.b;  // the root's length is what travels (a member's may differ: an MPI error)
    // The member list sits in the root's arena ahead of the data: [count][ranks...][data].
    o.root_off = q.c;
    const unsigned char* base = arena_of(r) + q.c;
    std::uint64_t count = 0;
    std::memcpy(&count, base, 8);
    std::vector<ad::Message> msgs;
    for (std::uint64_t i = 0; i < count; ++i) {
      std::int32_t m = 0;
      std::memcpy(&m, base + 8 + i * 4, 4);
      if (m == o.root || m < 0 || m >= n_) continue;
      Offload::Part& pm = o.parts[m];
      pm.id = kOffloadBit | ++offload_seq_;
      offload_ids_[pm.id] = {key, m};
      msgs.push_back(ad::Message{pm.id, root_tile, tiles_[static_cast<std::size_t>(m)], o.bytes, false});
      ++messages_;
    }
    ranks_[static_cast<std::size_t>(r)].sends += msgs.size();
    ranks_[static_cast<std::size_t>(r)].bytes_sent += o.bytes * msgs.size();
    adapter_->start_spread(o.group, kind, msgs, q.time);
  } else if (spread) {
    if (p.done != ~0ull) publish_offload(key, o, r, std::max(p.done, now));
  } else if (r == o.root) {
    if (o.root_done != ~0ull) publish_offload(key, o, r, std::max(o.root_done, now));
  } else {
    p.id = kOffloadBit | ++offload_seq_;
    offload_ids_[p.id] = {key, r};
    ++messages_;
    ++ranks_[static_cast<std::size_t>(r)].sends;
    ranks_[static_cast<std::size_t>(r)].bytes_sent += o.bytes;
    adapter_->start_collect(o.group, kind, ad::Message{p.id, tiles_[static_cast<std::size_t>(r)], root_tile, o.bytes, false},
                            o.expected - 1, q.time);
  }
  // The adapter may complete parts inside start_spread/start_collect (offload_progress), which
  // erases a finished offload: look it up again rather than through `o` (found by fuzzing).
  if (auto e = offloads_.find(key); e != offloads_.end() && e->second.published == e->second.expected)
    offloads_.erase(e);
}

void Engine::offload_progress(ad::MsgId id, std::uint64_t at, bool arrival) {
  auto idit = offload_ids_.find(id);
  if (idit == offload_ids_.end()) return;
  const auto [key, rank] = idit->second;
  offload_ids_.erase(idit);
  auto oit = offloads_.find(key);
  if (oit == offloads_.end()) return;
  Offload& o = oit->second;
  if (rank >= 0 && arrival) {
    // A destination's part of a multicast or scatter: its core reads it out of the buffer.
    Offload::Part& p = o.parts[rank];
    p.done = at + adapter_->recv_cost(o.bytes, false);
    if (p.posted) publish_offload(key, o, rank, p.done);
  } else if (rank >= 0) {
    publish_offload(key, o, rank, at);  // a gather or reduce sender's data has left
  } else if (arrival) {
    // Every slot of the root's endpoint is complete. The adapter wrote (gather) or combined
    // (reduce) the data in place, so the core only takes the notification: a receive without
    // data ([Wallentowitz 2018] §3.3.1.3-4, "the receive overhead for the NAMP is always constant").
    o.root_done = at + adapter_->recv_cost(0, false);
    if (o.parts[o.root].posted) publish_offload(key, o, o.root, o.root_done);
  } else {
    o.root_done = at;  // every part of a multicast or scatter has left the root
    publish_offload(key, o, o.root, at);
  }
  if (o.published == o.expected) offloads_.erase(oit);
}

void Engine::publish_offload(std::uint64_t key, Offload& o, int r, std::uint64_t at) {
  (void)key;
  Offload::Part& p = o.parts[r];
  if (p.published) return;
  p.published = true;
  ++o.published;
  const auto kind = static_cast<ad::CollKind>(o.kind);
  const bool spread = kind == ad::CollKind::Multicast || kind == ad::CollKind::Scatter;
  at = std::max(at, processing_);
  if (tracing_) spans_.push_back(Span{r, "offload", p.q.time, at});
  if (!spread && r == o.root) {
    // The root copies (gather) or combines (reduce) every sender's block from its arena, as the
    // adapter wrote it into the endpoint; then the senders' arena space is free.
    for (auto& [s, sp] : o.parts) {
      if (s == o.root) continue;
      Event part{};
      part.kind = kEvOffloadPart;
      part.time = at;
      part.op = p.q.op;
      part.a = static_cast<std::uint64_t>(s);
      part.b = sp.q.b;  // the sender's length (the root's may differ: an MPI error)
      part.c = sp.q.c;
      publish(r, part);
    }
  }
  Event e{};
  e.kind = kEvOffload;
  e.time = at;
  e.op = p.q.op;
  e.a = static_cast<std::uint64_t>(o.root);
  e.b = o.bytes;
  e.c = o.root_off;
  publish(r, e);
  if (spread && r != o.root) {
    ++ranks_[static_cast<std::size_t>(r)].recvs;
    adapter_->accept(p.id, at);  // the destination's buffer is free again
    o.last = std::max(o.last, at);
    int left = 0;
    for (auto& [m, pm] : o.parts) left += m != o.root && !pm.published;
    if (left == 0 && static_cast<int>(o.parts.size()) == o.expected) {
      Event rel{};
      rel.kind = kEvRelease;
      rel.time = o.last;
      rel.a = o.root_off;
      publish(o.root, rel);
    }
  } else if (!spread && r == o.root) {
    ++ranks_[static_cast<std::size_t>(r)].recvs;
    for (auto& [s, sp] : o.parts) {
      if (s == o.root) continue;
      Event rel{};
      rel.kind = kEvRelease;
      rel.time = at;
      rel.a = sp.q.c;
      publish(s, rel);
    }
  }
}

void Engine::apply_static(Static& s, std::uint64_t now) {
  ++static_bcasts_;
  hw::StaticNetwork& sn = chip_->static_network();
  // The route list sits in the root's arena ahead of the data: [count][hops...][data].
  const unsigned char* base = arena_of(s.root) + s.root_off;
  std::uint64_t count = 0;
  std::memcpy(&count, base, sizeof count);
  std::vector<StaticRouteHop> hops(count);
  if (count) std::memcpy(hops.data(), base + 8, count * sizeof(StaticRouteHop));
  std::vector<std::uint64_t> when(static_cast<std::size_t>(n_), s.root_time);
  for (auto& [rank, q] : s.parts) when[static_cast<std::size_t>(rank)] = q.time;
  sn.clear_all();
  for (const StaticRouteHop& h : hops) {
    if (h.tile < 0 || h.tile >= n_) continue;
    const hw::TileId tile = tiles_[static_cast<std::size_t>(h.tile)];
    sn.configure(tile, dir_of_port(h.in_port), mask_of_ports(h.out_mask),
                 when[static_cast<std::size_t>(h.tile)] + lookahead_);
  }
  const std::uint64_t fb = static_cast<std::uint64_t>(config_.flit_bytes);
  const std::uint32_t words = static_cast<std::uint32_t>(std::max<std::uint64_t>(1, (s.bytes + fb - 1) / fb));
  const std::uint64_t at = std::max<std::uint64_t>(s.root_time + lookahead_, chip_->now());
  std::vector<hw::StaticArrival> arr = sn.send_words(tiles_[static_cast<std::size_t>(s.root)], words, at);
  std::vector<std::uint64_t> done(static_cast<std::size_t>(n_), 0);
  for (const hw::StaticArrival& a : arr) {
    for (int r = 0; r < n_; ++r)
      if (tiles_[static_cast<std::size_t>(r)] == a.tile) done[static_cast<std::size_t>(r)] = a.last_word;
  }
  for (auto& [rank, q] : s.parts) {
    std::uint64_t t = rank == s.root ? at + words : done[static_cast<std::size_t>(rank)];
    t = std::max(t, now);
    Event e{};
    e.kind = kEvStatic;
    e.time = t;
    e.op = q.op;
    e.a = static_cast<std::uint64_t>(s.root);
    e.b = s.bytes;
    e.c = s.root_off;
    publish(rank, e);
    if (tracing_) spans_.push_back(Span{rank, "static_bcast", q.time, t});
  }
  // The root's arena space is released when every other participant has copied its data out
  // (each says so with kReqStaticCopied), at the cycle the last one's data arrived. Released on
  // publishing alone, the root could reuse the space before a participant's copy ran, and that
  // participant would copy another message's bytes.
  std::uint64_t last = now;
  for (auto& [rank, q] : s.parts) last = std::max(last, rank == s.root ? at + words : done[static_cast<std::size_t>(rank)]);
  const int copies = static_cast<int>(s.parts.size()) - 1;
  if (copies > 0) {
    static_copies_[{s.root, s.root_off}] = StaticCopies{copies, last};
  } else {
    release_static(s.root, s.root_off, last);
  }
}

void Engine::release_static(int root, std::uint64_t root_off, std::uint64_t time) {
  Event rel{};
  rel.kind = kEvRelease;
  rel.time = time;
  rel.a = root_off;
  publish(root, rel);
}

// ------------------------------------------------------------------ events

void Engine::publish(int r, const Event& e0) {
  RankInfo& ri = ranks_[static_cast<std::size_t>(r)];
  if (ri.finished) return;  // e.g. arena space returned after the sender's MPI_Finalize
  Event e = e0;
  if (wake_cycles_ && (e.kind == kEvArrival || e.kind == kEvSendDone || e.kind == kEvDataDone ||
                       e.kind == kEvOffload || e.kind == kEvStatic)) {
    // The event reaches the waiting code through a handler (the adapter's wakeup mode).
    e.time += wake_cycles_;
    ri.handler_cycles += wake_cycles_;
  }
  if (sink_) {
    sink_->deliver(r, e);
    ++ri.evt_head;
  } else if (!ri.overflow.empty()) {
    ri.overflow.push_back(e);
    flush_overflow(r);
  } else {
    RankCtl* c = seg_.ctl(r);
    const std::uint64_t tail = shared(c->evt_tail).load(std::memory_order_acquire);
    if (ri.evt_head - tail >= kRing) {
      ri.overflow.push_back(e);
    } else {
      seg_.evt(r)[ri.evt_head % kRing] = e;
      ++ri.evt_head;
      shared(c->evt_head).store(ri.evt_head, std::memory_order_release);
    }
  }
  // Returned arena space matters only to a rank that waits for it; the completions a rank's
  // wait sleeps through (kReqBlock's d) do not wake it either: they are in its events when the
  // completion or arrival that does wake it comes.
  if (ri.state == kBlocked && (e.kind != kEvRelease || ri.wants_space)) {
    if (ri.sleep_through && (e.kind == kEvSendDone || e.kind == kEvDataDone) && e.core_cycles == 0 &&
        !(ri.sleep_through == kSleepAll && e.op == ri.wake_op)) {
      if (ri.sleep_through != kSleepAll) --ri.sleep_through;
    } else if (e.time <= processing_) {
      wake(r, e.time > ri.blocked_at ? e.time : ri.blocked_at);
    } else {
      timers_.push({e.time, r, ri.blocks});
    }
  }
}

void Engine::flush_overflow(int r) {
  RankInfo& ri = ranks_[static_cast<std::size_t>(r)];
  RankCtl* c = seg_.ctl(r);
  const std::uint64_t tail = shared(c->evt_tail).load(std::memory_order_acquire);
  bool moved = false;
  while (!ri.overflow.empty() && ri.evt_head - tail < kRing) {
    seg_.evt(r)[ri.evt_head % kRing] = ri.overflow.front();
    ri.overflow.pop_front();
    ++ri.evt_head;
    moved = true;
  }
  if (moved) {
    shared(c->evt_head).store(ri.evt_head, std::memory_order_release);
    ring_rank(r);
  }
}

void Engine::wake(int r, std::uint64_t at) {
  RankInfo& ri = ranks_[static_cast<std::size_t>(r)];
  if (ri.state != kBlocked) return;
  if (tracing_ && at > ri.blocked_at) spans_.push_back(Span{r, "wait", ri.blocked_at, at});
  ri.state = kRunning;
  ri.sleep_through = 0;
  ++wakes_total_;
  if (sink_) {
    bound_ = std::min(bound_, at + lookahead_ - 1);
    sink_->woken(r, at);
    return;
  }
  RankCtl* c = seg_.ctl(r);
  shared(c->wake_clock).store(at, std::memory_order_relaxed);
  shared(c->clock).store(at, std::memory_order_seq_cst);
  shared(c->state).store(kRunning, std::memory_order_seq_cst);
  // Rung once the horizon covering `at` is published (end of this pass): woken earlier, the
  // rank would find the horizon behind its clock and sleep again at once.
  to_ring_.push_back(r);
  bound_ = std::min(bound_, at + lookahead_ - 1);
}

Engine::Msg& Engine::new_msg() {
  std::uint32_t slot;
  if (!free_msgs_.empty()) {
    slot = free_msgs_.back();
    free_msgs_.pop_back();
  } else {
    if (msgs_.size() > kMsgSlotMask) throw std::length_error("sim engine: more than 16M messages in flight");
    slot = static_cast<std::uint32_t>(msgs_.size());
    msgs_.emplace_back();
  }
  Msg& m = msgs_[slot];
  m = Msg{};
  m.handle = (++msg_count_ << kMsgSlotBits) | slot;
  return m;
}

Engine::Msg* Engine::find_msg(std::uint64_t handle) {
  const std::uint64_t slot = handle & kMsgSlotMask;
  if (slot >= msgs_.size() || msgs_[slot].handle != handle) return nullptr;
  return &msgs_[slot];
}

void Engine::free_msg(Msg& m) {
  free_msgs_.push_back(static_cast<std::uint32_t>(m.handle & kMsgSlotMask));
  m.handle = 0;
}

void Engine::arrived(ad::MsgId id, hw::Cycle at, hw::Cycle core_cycles) {
  if (id & kOffloadBit) return offload_progress(id, at + core_cycles, true);
  Msg* mp = find_msg(id);
  if (!mp) return;
  Msg& m = *mp;
  if (!m.arrived) {
    msg_latency_.add(at - m.start);
    m.arrived = true;
  }
  // Handler cycles delay what the core learns rather than being charged when the rank happens
  // to look: that keeps the rank's clock independent of when it drained its events.
  Event e{};
  e.kind = kEvArrival;
  e.time = at + core_cycles;
  e.msg = id;  // the receiver's fetch names the message by this handle
  e.a = static_cast<std::uint64_t>(m.src);
  e.b = m.bytes;
  e.c = m.arena_off;
  e.d = (m.rdv ? 1u : 0u) | (m.sync ? 2u : 0u);
  e.env = m.env;
  publish_arrival(m, e);
}

void Engine::publish_arrival(const Msg& m, const Event& e0) {
  PairOrder& po = pair_order(m.src, m.dst);
  const std::uint64_t key = static_cast<std::uint64_t>(m.src) * static_cast<std::uint64_t>(n_) + static_cast<std::uint64_t>(m.dst);
  if (m.pair_seq < po.published) return publish(m.dst, e0);  // told again (an adapter's later notice)
  if (m.pair_seq > po.published) {
    // An earlier message between the two is still on its way.
    if (held_.insert_or_assign({key, m.pair_seq}, e0).second) ++po.held;
    return;
  }
  Event e = e0;
  for (;;) {
    e.time = std::max(e.time, po.last_time);
    po.last_time = e.time;
    ++po.published;
    publish(m.dst, e);
    if (po.held == 0) break;
    auto next = held_.find({key, po.published});
    if (next == held_.end()) break;
    e = next->second;
    held_.erase(next);
    --po.held;
  }
}

void Engine::send_done(ad::MsgId id, hw::Cycle at, hw::Cycle core_cycles) {
  if (id & kOffloadBit) return offload_progress(id, at + core_cycles, false);
  Msg* mp = find_msg(id);
  if (!mp) return;
  Msg& m = *mp;
  m.sent = true;
  if (m.send_op != 0) {
    Event e{};
    e.kind = kEvSendDone;
    e.time = at + core_cycles;
    e.op = m.send_op;
    publish(m.src, e);
  }
  if (m.fetched && (!m.rdv || m.data)) free_msg(m);
}

void Engine::data_done(ad::MsgId id, hw::Cycle at, hw::Cycle core_cycles) {
  Msg* mp = find_msg(id);
  if (!mp) return;
  Msg& m = *mp;
  m.data = true;
  Event e{};
  e.kind = kEvDataDone;
  e.time = at + core_cycles;
  e.op = m.fetch_op;
  publish(m.dst, e);
  if (m.sent && m.fetched) free_msg(m);
}

void Engine::remote_done(ad::MsgId id, hw::Cycle at, hw::Cycle core_cycles) {
  auto it = remotes_.find(id);
  if (it == remotes_.end()) return;
  Event e{};
  e.kind = kEvSendDone;
  e.time = at + core_cycles;
  e.op = it->second.op;
  publish(it->second.origin, e);
  remotes_.erase(it);
}

void Engine::remote_served(ad::MsgId id, hw::Cycle at, hw::Cycle core_cycles) {
  auto it = remotes_.find(id);
  if (it == remotes_.end() || core_cycles == 0) return;
  // The target's core was interrupted: its clock loses the handler's cycles from `at` on.
  Event e{};
  e.kind = kEvServed;
  e.time = at;
  e.core_cycles = core_cycles;
  publish(it->second.target, e);
}

void Engine::on_delivered(const hw::PacketEvent& e) {
  ++packets_;
  // Link conflict: the head waited for a link that another packet held (the chip model's
  // link_wait; not the ejection port, not the packet's own links, not the source's own packets).
  if (e.link_wait) {
    ++conflicts_;
    conflict_cycles_ += e.link_wait;
  }
  // Delay, for any reason: the packet took longer in the network than it would have alone,
  // waiting for an ejection port included. head_in is when the head entered the source's
  // injection buffer: waiting behind the source's own earlier packets is not part of it.
  const std::uint32_t payload = e.flits > static_cast<std::uint32_t>(config_.header_flits)
                                    ? e.flits - static_cast<std::uint32_t>(config_.header_flits)
                                    : 0;
  const hw::Cycle alone = chip_->zero_load_latency(e.src, e.dst, payload);
  const hw::Cycle took = e.cycle - e.head_in;
  if (took > alone) {
    ++delayed_;
    delay_cycles_ += took - alone;
  }
  if (tracing_ && e.src != e.dst) {
    const hw::Topology& topo = chip_->topology();
    std::vector<hw::Link> path = topo.xy_path(e.src, e.dst);
    const hw::Cycle hop = static_cast<hw::Cycle>(config_.router_delay + config_.link_latency);
    // Approximate busy span per link: the worm's head reaches hop i after i hops at the
    // observed pace, and the body follows for `flits` cycles.
    const double pace = path.empty() ? 0.0 : static_cast<double>(took > e.flits ? took - e.flits : 0) / path.size();
    for (std::size_t i = 0; i < path.size(); ++i) {
      const std::uint64_t b = e.head_in + static_cast<std::uint64_t>(pace * static_cast<double>(i)) + hop;
      link_spans_.push_back(LinkSpan{hw::Topology::link_index(path[i]) + e.network * 1000000, b, b + e.flits});
    }
  }
  adapter_->delivered(e);
}

// ------------------------------------------------------------------ main loop

// A long run says where it is: virtual cycle, messages, ranks done, wall time, every few seconds
// (sim.progress). The clock is read once every 1024 advances, which costs nothing measurable.
void Engine::report_progress() {
  if (++progress_calls_ % 1024 != 0) return;
  const auto now = std::chrono::steady_clock::now();
  if (progress_started_ == std::chrono::steady_clock::time_point{}) {
    progress_started_ = progress_said_ = now;
    return;
  }
  if (now - progress_said_ < std::chrono::seconds(kProgressSeconds)) return;
  progress_said_ = now;
  int done = 0;
  for (const RankInfo& ri : ranks_) done += ri.finished ? 1 : 0;
  const std::uint64_t cycle = std::min(bound_, chip_->now());
  std::fprintf(stderr, "tilempirun: sim: cycle %llu (%.3f ms virtual), %llu messages, %d of %d ranks done; wall %.0f s\n",
               static_cast<unsigned long long>(cycle), static_cast<double>(cycle) / config_.clock_hz * 1e3,
               static_cast<unsigned long long>(messages_), done, n_,
               std::chrono::duration<double>(now - progress_started_).count());
}

bool Engine::advance_to(std::uint64_t bound) {
  if (opt_.progress) report_progress();
  bound_ = bound;
  bool did = false;
  for (;;) {
    std::uint64_t chip_next = chip_->next_event_cycle();
    std::uint64_t next = chip_next;
    if (!queue_.empty()) next = std::min(next, queue_.top().eff);
    if (!timers_.empty()) next = std::min(next, std::get<0>(timers_.top()));
    if (next == hw::kNever || next > bound_) break;
    processing_ = next;
    if (pending_switches_) apply_switches(next);
    if (!queue_.empty() && queue_.top().eff == next) {
      do {
        const Queued k = queue_.top();
        queue_.pop();
        const Request q = queued_reqs_[k.slot];  // (apply may queue more and move the slots)
        queued_reqs_.release(k.slot);
        apply(k.rank, q, next);
      } while (!queue_.empty() && queue_.top().eff == next);
      chip_next = chip_->next_event_cycle();  // the requests may have given the chip work at `next`
    }
    if (chip_next == next) chip_->run_until(next);
    while (!timers_.empty() && std::get<0>(timers_.top()) <= next) {
      const auto [t, r, block] = timers_.top();
      timers_.pop();
      const RankInfo& ri = ranks_[static_cast<std::size_t>(r)];
      if (ri.blocks == block) wake(r, std::max(next, ri.blocked_at));
    }
    did = true;
  }
  return did;
}

bool Engine::idle() const { return queue_.empty() && timers_.empty() && chip_->next_event_cycle() == hw::kNever; }

void Engine::rank_ended(int r, std::uint64_t at) {
  RankInfo& ri = ranks_[static_cast<std::size_t>(r)];
  if (ri.finished) return;
  ri.finished = true;
  ri.state = kFinished;
  ri.end = at;
}

void Engine::take(int r, const Request& q) {
  RankInfo& ri = ranks_[static_cast<std::size_t>(r)];
  take_request(r, q, ri.req_tail++);
}

void Engine::run() {
  Header* h = seg_.header();
  std::uint64_t last_bound = 0;
  bool first = true;
  for (;;) {
    if (stop_.load(std::memory_order_acquire)) return;
    ++passes_;
    // The bound: every running rank's future requests touch the network at >= clock + L.
    // Clocks are read before the request rings: a rank posts a request before it publishes a
    // clock past the request's time, so every request below the bound is drained below.
    std::uint64_t bound = hw::kNever;
    for (int r = 0; r < n_; ++r) {
      if (ranks_[static_cast<std::size_t>(r)].state != kRunning) continue;
      const std::uint64_t c = shared(seg_.ctl(r)->clock).load(std::memory_order_seq_cst);
      bound = std::min(bound, c + lookahead_ - 1);
    }
    bool progress = drain_requests();
    for (int r = 0; r < n_; ++r)
      if (!ranks_[static_cast<std::size_t>(r)].overflow.empty()) flush_overflow(r);
    int running = 0, blocked = 0;
    for (const RankInfo& ri : ranks_) {
      if (ri.state == kRunning) ++running;
      else if (ri.state == kBlocked) ++blocked;
    }
    const auto model_start = std::chrono::steady_clock::now();
    const bool did = advance_to(bound);
    if (did) chip_seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - model_start).count();
    if (bound_ != hw::kNever && bound_ > horizon_) {
      horizon_ = bound_;
      shared(h->horizon).store(horizon_, std::memory_order_seq_cst);
      for (int r = 0; r < n_; ++r) {
        RankCtl* c = seg_.ctl(r);
        const std::uint64_t want = shared(c->want_horizon).load(std::memory_order_seq_cst);
        if (want != 0 && want <= horizon_) ring_rank(r);
      }
      progress = true;
    }
    for (int r : to_ring_) ring_rank(r);
    to_ring_.clear();
    if (bound != hw::kNever) shared(h->bottleneck).store(bound - (lookahead_ - 1), std::memory_order_seq_cst);
    progress = progress || did || first || bound_ != last_bound;
    last_bound = bound_;
    first = false;

    // Every rank finished: nothing more to do until finish() stops us.
    bool all_done = true;
    for (const RankInfo& ri : ranks_) all_done = all_done && ri.finished;
    if (!all_done && running == 0 && !did && queue_.empty() && timers_.empty() &&
        chip_->next_event_cycle() == hw::kNever && blocked > 0) {
      if (deadlock_check()) return;
      continue;
    }
    if (progress) continue;

    // Sleep until a rank posts, publishes a clock we wait on, or exits.
    const std::uint32_t bell = shared(h->engine_bell).load(std::memory_order_seq_cst);
    shared(h->engine_sleeping).store(1, std::memory_order_seq_cst);
    bool pending = false;
    std::uint64_t now_bound = hw::kNever;
    for (int r = 0; r < n_ && !pending; ++r) {
      RankCtl* c = seg_.ctl(r);
      if (shared(c->req_head).load(std::memory_order_seq_cst) != ranks_[static_cast<std::size_t>(r)].req_tail)
        pending = true;
      else if (ranks_[static_cast<std::size_t>(r)].state == kRunning)
        now_bound = std::min(now_bound, shared(c->clock).load(std::memory_order_seq_cst) + lookahead_ - 1);
    }
    if (now_bound != bound) pending = true;
    if (!pending && !exited_any_.exchange(false)) {
      ++engine_sleeps_;
      futex_wait(&h->engine_bell, bell, 20'000'000);
    }
    shared(h->engine_sleeping).store(0, std::memory_order_seq_cst);
  }
}

// ------------------------------------------------------------------ deadlock

bool Engine::deadlock_check() {
  // Late requests or exits may still be on their way: look once more.
  if (drain_requests()) return false;
  // A rank failed or aborted: the launcher is ending the job; the others wait for nothing.
  if (failed_any_.load(std::memory_order_acquire) ||
      shm::abort_started(seg_.header()->abort)) {
    Header* h = seg_.header();
    const std::uint32_t bell = shared(h->engine_bell).load(std::memory_order_seq_cst);
    if (!stop_.load(std::memory_order_acquire)) futex_wait(&h->engine_bell, bell, 50'000'000);
    return false;
  }
  for (const RankInfo& ri : ranks_)
    if (ri.state == kRunning) return false;
  failure_ = describe_deadlock();
  Header* h = seg_.header();
  shared(h->dead).store(1, std::memory_order_seq_cst);
  for (int r = 0; r < n_; ++r) ring_rank(r);
  return true;
}

std::string Engine::describe_deadlock() {
  if (sink_) {
    std::vector<int> blocked;
    std::uint64_t at = 0;
    for (int r = 0; r < n_; ++r)
      if (ranks_[static_cast<std::size_t>(r)].state == kBlocked) {
        blocked.push_back(r);
        at = std::max(at, ranks_[static_cast<std::size_t>(r)].blocked_at);
      }
    std::string out = "sim: deadlock at virtual cycle " + std::to_string(at) + ": " +
                      std::to_string(blocked.size()) + " rank(s) wait and nothing is in flight";
    for (int r : blocked)
      out += "\n  rank " + std::to_string(r) + " (waiting since cycle " +
             std::to_string(ranks_[static_cast<std::size_t>(r)].blocked_at) + "): " + sink_->describe(r);
    for (int r = 0; r < n_; ++r) {
      const RankInfo& ri = ranks_[static_cast<std::size_t>(r)];
      if (ri.finished && !ri.said_goodbye) out += "\n  rank " + std::to_string(r) + ": exited without MPI_Finalize";
    }
    return out;
  }
  // Ask every blocked rank for its pending operations; give them a few seconds.
  std::vector<int> blocked;
  for (int r = 0; r < n_; ++r) {
    if (ranks_[static_cast<std::size_t>(r)].state != kBlocked) continue;
    blocked.push_back(r);
    RankCtl* c = seg_.ctl(r);
    shared(c->describe_req).fetch_add(1, std::memory_order_seq_cst);
    ring_rank(r);
  }
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(3);
  for (int r : blocked) {
    RankCtl* c = seg_.ctl(r);
    while (shared(c->describe_ack).load(std::memory_order_acquire) !=
               shared(c->describe_req).load(std::memory_order_acquire) &&
           !shared(c->exited).load(std::memory_order_acquire) && std::chrono::steady_clock::now() < deadline)
      ::usleep(1000);
  }
  std::uint64_t at = 0;
  for (int r : blocked) at = std::max(at, ranks_[static_cast<std::size_t>(r)].blocked_at);
  std::string out = "sim: deadlock at virtual cycle " + std::to_string(at) + ": " + std::to_string(blocked.size()) +
                    " rank(s) wait and nothing is in flight";
  for (int r : blocked) {
    RankCtl* c = seg_.ctl(r);
    std::string what;
    if (shared(c->describe_ack).load(std::memory_order_acquire) == shared(c->describe_req).load(std::memory_order_acquire)) {
      c->describe[sizeof c->describe - 1] = 0;
      what = c->describe;
    } else {
      what = "(did not answer)";
    }
    out += "\n  rank " + std::to_string(r) + " (waiting since cycle " +
           std::to_string(ranks_[static_cast<std::size_t>(r)].blocked_at) + "): " + what;
  }
  for (int r = 0; r < n_; ++r) {
    const RankInfo& ri = ranks_[static_cast<std::size_t>(r)];
    if (ri.finished && !ri.said_goodbye) out += "\n  rank " + std::to_string(r) + ": exited without MPI_Finalize";
  }
  return out;
}

// ------------------------------------------------------------------ end of the job

std::string Engine::finish() {
  if (thread_.joinable()) {
    stop_.store(true, std::memory_order_release);
    Header* h = seg_.header();
    shared(h->engine_bell).fetch_add(1, std::memory_order_seq_cst);
    futex_wake(&h->engine_bell);
    thread_.join();
  }
  // Requests the thread had no time to take (the last goodbyes).
  if (!sink_) drain_requests();
  // Ranks that never said goodbye: take their last published clocks.
  for (int r = 0; r < n_; ++r) {
    RankInfo& ri = ranks_[static_cast<std::size_t>(r)];
    if (!ri.finished) ri.end = sink_ ? sink_->clock_of(r) : shared(seg_.ctl(r)->clock).load(std::memory_order_acquire);
  }
  try {
    if (!opt_.report_path.empty()) write_report();
    if (tracing_) write_trace();
  } catch (const std::exception& e) {
    if (failure_.empty()) failure_ = std::string("sim: ") + e.what();
  }
  if (opt_.summary) print_summary();
  // A job whose ranks all ended, some of them between MPI_Init and MPI_Finalize, did not run as
  // MPI says (a program that never used MPI is no MPI job: it may end as it likes).
  AbortRecord aborted;
  if (failure_.empty() && !(!sink_ && shm::read_abort(seg_.header()->abort, aborted))) {
    bool used = false;
    std::string unfinalized;
    for (int r = 0; r < n_; ++r) {
      const RankInfo& ri = ranks_[static_cast<std::size_t>(r)];
      used = used || ri.used_mpi;
      if (ri.finished && !ri.said_goodbye) unfinalized += (unfinalized.empty() ? "" : ", ") + std::to_string(r);
    }
    if (used && !unfinalized.empty())
      failure_ = "sim: rank" + std::string(unfinalized.find(',') == std::string::npos ? " " : "s ") + unfinalized +
                 ": " + kExitedWithoutFinalize;
  }
  // --migrate orders for cycles the job never reached: say so rather than nothing.
  if (failure_.empty()) {
    std::uint64_t end = 0;
    for (const RankInfo& ri : ranks_) end = std::max(end, ri.end);
    for (auto q = queue_; !q.empty(); q.pop()) {
      const Request& req = queued_reqs_[q.top().slot];
      if (req.kind == kReqMigrate && q.top().rank < 0)
        std::fprintf(stderr, "tilempirun: sim: --migrate %llu:%llu@%llu did not happen: the job ended at cycle %llu\n",
                     static_cast<unsigned long long>(req.a), static_cast<unsigned long long>(req.b),
                     static_cast<unsigned long long>(req.time), static_cast<unsigned long long>(end));
    }
  }
  return failure_;
}

}  // namespace tilempi::transport::sim
