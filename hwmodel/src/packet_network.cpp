#include "packet_network.h"

#include <algorithm>
#include <bit>
#include <stdexcept>
#include <string>

#include "registered_network_models.h"

namespace tilempi::hwmodel {

Chip::PacketNetwork::PacketNetwork(Chip& chip, const Config& c, const Topology& topo)
    : chip_(chip),
      topo_(topo),
      tiles_(c.num_tiles()),
      nets_(c.networks),
      classes_(c.vc_classes()),
      header_flits_(c.header_flits),
      max_flits_(static_cast<std::uint32_t>(c.max_packet_flits)),
      inj_latency_(static_cast<Cycle>(c.injection_latency)),
      hop_(static_cast<Cycle>(c.router_delay + c.link_latency)),
      eject_(static_cast<Cycle>(c.router_delay + c.ejection_latency)),
      head_stages_(static_cast<Cycle>(c.head_stages())),
      buffer_(static_cast<std::uint32_t>(c.input_buffer_flits + c.output_buffer_flits)),
      ports_(static_cast<std::size_t>(nets_ * tiles_) * kPorts),
      inputs_(static_cast<std::size_t>(nets_ * tiles_) * kPorts),
      core_free_(static_cast<std::size_t>(nets_ * tiles_), 0),
      writing_(static_cast<std::size_t>(nets_ * tiles_), -1),
      to_write_(static_cast<std::size_t>(nets_ * tiles_)),
      inj_buffer_(static_cast<std::uint32_t>(c.injection_buffer_flits)),
      inj_(static_cast<std::size_t>(nets_ * tiles_)),
      counters_(static_cast<std::size_t>(nets_)) {
  max_stages_ = static_cast<std::size_t>(topo.width() + topo.height() - 1);
  stage_shift_ = static_cast<unsigned>(std::bit_width(max_stages_ - 1));
  tails_.resize(max_stages_);
  // Config::validate refuses a torus with this model: the tables below are the mesh's.
  nbr_.resize(static_cast<std::size_t>(tiles_) * kMeshDirs);
  for (TileId t = 0; t < tiles_; ++t) {
    for (int d = 0; d < kMeshDirs; ++d)
      nbr_[static_cast<std::size_t>(t) * kMeshDirs + static_cast<std::size_t>(d)] = topo.neighbor(t, static_cast<Dir>(d));
  }
}

PacketId Chip::PacketNetwork::inject(int network, TileId src, TileId dst, std::uint32_t payload_flits, Cycle at,
                                    std::uint64_t tag, int cls) {
  const std::uint64_t flits = std::uint64_t{payload_flits} + static_cast<std::uint64_t>(header_flits_);
  check_inject(topo_, network, nets_, src, dst, cls, classes_, flits, max_flits_, at, chip_.now_);
  std::uint32_t slot;
  if (free_slots_.empty()) {
    slot = static_cast<std::uint32_t>(pkts_.size());
    pkts_.emplace_back();
  } else {
    slot = free_slots_.back();
    free_slots_.pop_back();
  }
  Packet& p = pkts_[slot];
  p = Packet{};
  p.id = next_id_++;
  p.tag = tag;
  p.created = at;
  p.src = p.at = src;
  p.dst = dst;
  p.flits = static_cast<std::uint32_t>(flits);
  p.span = (p.flits - 1) / buffer_;
  p.next_input = port_index(network, src, Dir::Local);
  p.net = static_cast<std::uint8_t>(network);
  // Packets of one source leave in order of `at`, then of inject() calls: events of one cycle
  // run in the order they were scheduled.
  schedule(at, slot, kWrite);
  if (at < first_) first_ = at;
  ++live_;
  ++counters_[static_cast<std::size_t>(network)].injected;
  return p.id;
}

void Chip::PacketNetwork::schedule_far(Cycle at, std::uint32_t id, EventKind kind) {
  far_.push(Event{at, seq_++, id, kind});
}

Cycle Chip::PacketNetwork::scan_earliest() const {
  // First non-empty bucket at or after base_, around the calendar; else the heap's first.
  const std::size_t d = first_set_from<kWheel>(wheel_bits_, static_cast<std::size_t>(base_ & (kWheel - 1)));
  if (d < kWheel) return base_ + static_cast<Cycle>(d);
  return far_.empty() ? kNever : far_.top().at;
}

void Chip::PacketNetwork::advance(Cycle t) {
  base_ = t;
  while (!far_.empty() && far_.top().at < base_ + kWheel) {
    const Event& e = far_.top();
    push_near(e.at, e.id << 3 | e.kind);
    far_.pop();
  }
}

Cycle Chip::PacketNetwork::next_event_cycle(Cycle from) const {
  return first_ == kNever ? kNever : std::max(from, first_);
}

void Chip::PacketNetwork::run_until(Cycle c) {
  for (;;) {
    const Cycle t = first_;
    if (t == kNever || t > c) break;
    advance(t);
    const std::size_t bi = static_cast<std::size_t>(t & (kWheel - 1));
    std::vector<std::uint32_t>& bucket = wheel_[bi];
    chip_.now_ = t + 1;  // callbacks of cycle t may inject from t + 1 on
    cur_ = t;
    // Events of cycle t scheduled while these run are appended and run too.
    for (std::size_t k = 0; k < bucket.size(); ++k) {
      const std::uint32_t e = bucket[k];
      const std::uint32_t id = e >> 3;
      switch (static_cast<EventKind>(e & 7)) {
        case kWrite: write_head(id, t); break;
        case kArrive: head_arrive(id, t); break;
        case kReady: head_ready(id, t); break;
        case kInjected:
          if (chip_.on_injected_) chip_.on_injected_(event_of(pkts_[id], t));
          cur_ = t;  // a callback's hold_ejection may have moved it
          break;
        case kDelivered:
          deliver(id, t);
          cur_ = t;
          break;
        case kRelease: release(id, t); break;
        case kReleaseArrive:
          ++activations_;  // two events
          release(stages(id)[pkts_[id].hops - 1].port, t);
          head_arrive(id, t);
          break;
        case kReleaseDeliver:
          ++activations_;
          release(stages(id)[pkts_[id].hops].port, t);
          deliver(id, t);
          cur_ = t;
          break;
      }
    }
    activations_ += bucket.size();
    bucket.clear();
    wheel_bits_[bi >> 6] &= ~(std::uint64_t{1} << (bi & 63));
    first_ = scan_earliest();
  }
  if (c != kNever && chip_.now_ < c + 1) chip_.now_ = c + 1;
}

// The core writes its packets one after another, one flit per cycle, into its injection
// buffer: a packet waits until the one before has left enough of the buffer.
void Chip::PacketNetwork::write_head(std::uint32_t slot, Cycle t) {
  const Packet& p = pkts_[slot];
  const std::size_t n = node(p.net, p.src);
  WriteQueue& q = to_write_[n];
  pkts_[slot].write_next = -1;
  if (q.tail >= 0) pkts_[static_cast<std::size_t>(q.tail)].write_next = static_cast<std::int32_t>(slot);
  else q.head = static_cast<std::int32_t>(slot);
  q.tail = static_cast<std::int32_t>(slot);
  if (writing_[n] < 0) start_write(n, t);
}

std::uint32_t Chip::PacketNetwork::take_block() {
  if (free_blocks_.empty()) {
    const std::uint32_t first = static_cast<std::uint32_t>(stage_chunks_.size()) << kBlocksPerChunkLog;
    stage_chunks_.push_back(std::make_unique<Stage[]>(std::size_t{kBlocksPerChunk} << stage_shift_));
    for (std::uint32_t b = first + kBlocksPerChunk; b-- > first;) free_blocks_.push_back(b);
  }
  const std::uint32_t b = free_blocks_.back();
  free_blocks_.pop_back();
  return b;
}

void Chip::PacketNetwork::start_write(std::size_t n, Cycle t) {
  WriteQueue& q = to_write_[n];
  const std::uint32_t slot = static_cast<std::uint32_t>(q.head);
  q.head = pkts_[slot].write_next;
  if (q.head < 0) q.tail = -1;
  Packet& p = pkts_[slot];
  p.block = take_block();
  p.head_in = std::max(t, core_free_[n]);
  writing_[n] = slot;
  LinkStats& inj = inj_[n];
  inj.flits += p.flits;
  inj.busy_cycles += p.flits;
  inj.blocked_cycles += p.head_in - p.created;
  schedule(p.head_in + inj_latency_, slot, kArrive);
}

// The head reaches router p.at's input at cycle t. It is at the front of that input once the
// packet that came in before it has left, then spends head_stages_ cycles in RC and VA.
void Chip::PacketNetwork::head_arrive(std::uint32_t slot, Cycle t) {
  Packet& p = pkts_[slot];
  const std::uint32_t ii = p.next_input;
  stages(slot)[p.hops].next = -1;  // stage p.hops: its port is taken later
  p.ready = t;  // arrival; head_ready sets the cycle it is ready to take a port
  Input& in = inputs_[ii];
  const std::int32_t before = in.last;
  const std::uint32_t before_stage = in.last_stage;
  const Cycle before_left = in.last_left;
  in.last = static_cast<std::int32_t>(slot);
  in.last_stage = p.hops;
  in.last_left = kNever;
  if (before >= 0 && before_left == kNever) {
    stages(static_cast<std::uint32_t>(before))[before_stage].next = static_cast<std::int32_t>(slot);  // wait
    return;
  }
  const Cycle front = before >= 0 ? std::max(t, before_left + 1) : t;
  if (front + head_stages_ == t) head_ready(slot, t);
  else schedule(front + head_stages_, slot, kReady);
}

// The head is at the input of router p.at from cycle t: it takes the port of its route when
// that port is free and nobody queues for it before, else it joins the queue.
[[gnu::always_inline]] inline void Chip::PacketNetwork::head_ready(std::uint32_t slot, Cycle t) {
  Packet& p = pkts_[slot];
  const Dir d = route(p.at, p.dst);
  const std::uint32_t pi = port_index(p.net, p.at, d);
  Port& out = ports_[pi];
  p.ready = t;
  if (out.holder >= 0 || !out.nobody_waits() || out.held) {
    wait_for(out, slot);
    return;
  }
  take(slot, pi, d, std::max(t, out.free));
}

// The head takes port `pi` at cycle s >= the cycle it was ready there.
[[gnu::always_inline]] inline void Chip::PacketNetwork::take(std::uint32_t slot, std::uint32_t pi, Dir d, Cycle s) {
  Packet& p = pkts_[slot];
  Port& out = ports_[pi];
  const Cycle waited = s - p.ready;
  out.holder = slot;
  out.blocked += waited;
  out.flits += p.flits;
  Stage& st = stages(slot)[p.hops];
  st.took = s;
  st.port = pi;
  if (p.span == 0) {
    // A packet that fits in one router's buffers (every short one): only the stage just taken
    // was still claimed, and its tail follows the head at once.
    release_stage(p, slot, stages(slot), p.hops, s + p.flits - 1);
    p.released = p.hops + 1;
  }
  if (d == Dir::Local) {
    // At the destination: every port still claimed is released as the tail passes.
    if (p.span != 0) schedule_releases(slot, p.hops);
    schedule_after_release(s + eject_ + p.flits - 1, slot, kDelivered, pi, kReleaseDeliver);
    return;
  }
  // Only other packets claim ports: any wait for a link is a link conflict.
  p.link_wait += waited;
  // A link `span` stages back is released now that this stage's cycle is known: the body
  // between them fits in their buffers.
  if (p.span != 0 && p.hops >= p.span) schedule_releases(slot, p.hops - p.span);
  p.at = neighbor(p.at, d);
  p.next_input = pi;
  ++p.hops;
  schedule_after_release(s + hop_, slot, kArrive, pi, kReleaseArrive);
}

// Schedules the release of the packet's stages released .. upto (inclusive): the tail crosses
// stage j after the head plus flits - 1 cycles, or later when the head waited further on at a
// stage i close enough (i - j hops of buffers, buffer_ flits each, hold less than the packet)
// for the body to back up to j.
void Chip::PacketNetwork::schedule_releases(std::uint32_t slot, std::uint32_t upto) {
  Packet& p = pkts_[slot];
  const Stage* st = stages(slot);
  const std::uint32_t last = p.hops;  // the stage whose port was just taken
  const Cycle body = p.flits - 1;
  if (upto > last) upto = last;
  if (p.released > upto) return;
  if (p.released == last) {
    // The last stage alone (every short packet, at every hop): no later stage holds its tail.
    release_stage(p, slot, st, last, st[last].took + body);
    p.released = last + 1;
    return;
  }
  // tails_[j] for j = last down to p.released. Within span stages of the last one every later
  // stage is close enough, and the tail's bound from stage j + 1's is one hop of buffers less:
  // tail_j = max(took_j + body, tail_{j+1} - buffer_). Further back, only the span stages after
  // j count (the body fits in their buffers).
  Cycle* tails = tails_.data();
  for (std::uint32_t j = last + 1; j-- > p.released;) {
    Cycle tail = st[j].took + body;  // the tail crosses stage j at this cycle
    if (last - j <= p.span) {
      if (j < last) tail = std::max(tail, tails[j + 1] - buffer_);
    } else {
      for (std::uint32_t i = j + 1, k = 1; k <= p.span; ++i, ++k)
        tail = std::max(tail, st[i].took + (body - static_cast<Cycle>(k) * buffer_));
    }
    tails[j] = tail;
  }
  for (std::uint32_t j = p.released; j <= upto; ++j) release_stage(p, slot, st, j, tails[j]);
  p.released = upto + 1;
}

// The tail crosses stage j at cycle `tail`: its port is released the cycle after.
[[gnu::always_inline]] inline void Chip::PacketNetwork::release_stage(Packet& p, std::uint32_t slot, const Stage* st, std::uint32_t j,
                                                Cycle tail) {
  if (j == 0) {
    p.tail_out = tail;
    schedule(tail, slot, kInjected);
    // The core wrote the tail when the buffer had room for it; its next packet follows.
    const std::size_t n = node(p.net, p.src);
    const Cycle tail_written = std::max(p.head_in + p.flits - 1, tail + 1 > inj_buffer_ ? tail + 1 - inj_buffer_ : 0);
    core_free_[n] = tail_written + 1;
    writing_[n] = -1;
    if (to_write_[n].head >= 0) start_write(n, std::max(cur_, core_free_[n]));
  }
  schedule(tail + 1, st[j].port, kRelease);
  // The tail has left router j's input: the packet behind it there may start its RC stage.
  Input& in = inputs_[input_of(p, st, j)];
  if (in.last == static_cast<std::int32_t>(slot) && in.last_stage == j) in.last_left = tail;
  const std::int32_t behind = st[j].next;
  if (behind >= 0) {
    const Cycle front = std::max(pkts_[static_cast<std::size_t>(behind)].ready, tail + 1);
    schedule(std::max(front + head_stages_, cur_), static_cast<std::uint32_t>(behind), kReady);
  }
}

// Released port pi goes to the first head that waits for it.
void Chip::PacketNetwork::hand_over(std::uint32_t pi, Cycle t) {
  Port& out = ports_[pi];
  const std::uint32_t next = first_waiting(out);
  take(next, pi, static_cast<Dir>(pi % kPorts), std::max(t, pkts_[next].ready));
}

void Chip::PacketNetwork::hold_ejection(int network, TileId tile, bool hold) {
  if (network < 0 || network >= nets_ || !topo_.valid(tile))
    throw std::invalid_argument("hold_ejection: bad network or tile");
  const std::uint32_t pi = port_index(network, tile, Dir::Local);
  Port& ej = ports_[pi];
  ej.held = hold;
  cur_ = std::max(cur_, chip_.now_);
  if (hold || ej.holder >= 0 || ej.nobody_waits()) return;
  // The core reads again from now on: the first head that waits takes the port.
  const std::uint32_t next = first_waiting(ej);
  take(next, pi, Dir::Local, std::max({pkts_[next].ready, ej.free, chip_.now_}));
  first_ = std::min(first_, scan_earliest());  // the events that take scheduled
}

PacketEvent Chip::PacketNetwork::event_of(const Packet& p, Cycle t) const {
  return PacketEvent{p.id, p.tag, p.net, p.src, p.dst, t, p.created, p.head_in, p.flits, p.link_wait};
}

void Chip::PacketNetwork::deliver(std::uint32_t slot, Cycle t) {
  const Packet& p = pkts_[slot];
  count_delivery(counters_[p.net], PacketRecord{p.id, p.tag, p.src, p.dst, p.net, static_cast<int>(p.flits),
                                                static_cast<int>(p.hops), p.created, p.head_in, p.tail_out, t,
                                                p.link_wait});
  const PacketEvent ev = event_of(p, t);
  free_blocks_.push_back(p.block);
  free_slots_.push_back(slot);
  --live_;
  if (chip_.on_delivered_) chip_.on_delivered_(ev);
}

void Chip::PacketNetwork::fill_stats(Stats& s) const {
  s.router_cycles = activations_;
  s.networks.resize(static_cast<std::size_t>(nets_));
  for (int net = 0; net < nets_; ++net) {
    NetworkStats& ns = s.networks[static_cast<std::size_t>(net)];
    ns.links.assign(static_cast<std::size_t>(tiles_) * kMeshDirs, LinkStats{});
    ns.injection.assign(static_cast<std::size_t>(tiles_), LinkStats{});
    ns.ejection.assign(static_cast<std::size_t>(tiles_), LinkStats{});
    for (TileId t = 0; t < tiles_; ++t) {
      const std::size_t n = node(net, t);
      for (int d = 0; d < kMeshDirs; ++d) {
        const Port& p = ports_[n * kPorts + static_cast<std::size_t>(d)];  // a link's sending port
        ns.links[static_cast<std::size_t>(t) * kMeshDirs + static_cast<std::size_t>(d)] =
            LinkStats{p.flits, p.flits, p.blocked};
      }
      const Port& e = ports_[n * kPorts + static_cast<std::size_t>(Dir::Local)];
      ns.ejection[static_cast<std::size_t>(t)] = LinkStats{e.flits, e.flits, e.blocked};
      ns.injection[static_cast<std::size_t>(t)] = inj_[n];
    }
    // Flit hops: the flits the links' sending ports passed on (reset with them).
    NetCounters nc = counters_[static_cast<std::size_t>(net)];
    nc.flit_hops = 0;
    for (TileId t = 0; t < tiles_; ++t)
      for (int d = 0; d < kMeshDirs; ++d) nc.flit_hops += ports_[node(net, t) * kPorts + static_cast<std::size_t>(d)].flits;
    copy_counters(nc, ns);
  }
  s.packets = log_;
}

void Chip::PacketNetwork::reset_stats() {
  for (Port& p : ports_) {
    p.flits = 0;
    p.blocked = 0;
  }
  for (LinkStats& l : inj_) l = LinkStats{};
  for (NetCounters& nc : counters_) nc = NetCounters{};
  activations_ = 0;
  log_.clear();
}

namespace {

void packet_check(const Config& c) {
  if (c.torus)
    throw ConfigError("network_model", "config key 'network_model': packet is for meshes (it models no dateline "
                                       "virtual channels, so a torus could deadlock); use flit");
  if (c.routing != "xy")
    throw ConfigError("routing", "routing=" + c.routing + " needs network_model=flit: network_model=packet routes "
                                 "XY only (its port claims follow the XY route table)");
}

void packet_ignored(const Config& c, std::vector<std::string>& out) {
  if (c.fast_worms) out.push_back("fast_worms is ignored by network_model=packet (it moves no flits)");
  if (c.vcs > 1) out.push_back("network_model=packet has no virtual channels: vcs=" + std::to_string(c.vcs) +
                               " only sets the number of packet classes");
  if (c.vcs_per_class > 1) out.push_back("vcs_per_class is ignored by network_model=packet (no virtual channels)");
  if (c.routing_delay > 0 || c.vc_alloc_delay > 0)
    out.push_back("network_model=packet adds routing_delay and vc_alloc_delay to every hop as fixed delays; "
                  "it has no input-VC pipeline (HWMODEL.md: its error against BookSim's router)");
  if (c.injection_credit_delay > 0)
    out.push_back("injection_credit_delay is ignored by network_model=packet (no credits)");
}

}  // namespace

TILEMPI_REGISTER_NETWORK_MODEL(
    packet, "each head claims the ports of its path for as many cycles as it has flits (fast, no chain blocking)",
    .create = [](Chip& chip, const Config& c, const Topology& topo) -> std::unique_ptr<Chip::NetworkModel> {
      return std::make_unique<Chip::PacketNetwork>(chip, c, topo);
    },
    .check = packet_check, .ignored = packet_ignored);

}  // namespace tilempi::hwmodel
