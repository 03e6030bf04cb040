#include "engine.h"

#include <algorithm>
#include <bit>
#include <cstdlib>
#include <stdexcept>
#include <string>

namespace tilempi::hwmodel {

namespace {
constexpr int kLocal = static_cast<int>(Dir::Local);
constexpr int kOpposite[kPorts] = {1, 0, 3, 2, 4};

// Signed minimal steps from a to b along a dimension of n positions.
inline int delta(int a, int b, int n, bool ring) {
  int d = b - a;
  if (!ring || d == 0) return d;
  int fwd = d > 0 ? d : d + n;
  int back = n - fwd;
  return fwd <= back ? fwd : -back;
}
}  // namespace

Chip::Engine::Engine(Chip& chip, const Config& c, const Topology& topo)
    : chip_(chip),
      topo_(topo),
      tiles_(topo.num_tiles()),
      vcs_(c.vcs),
      nets_(c.networks),
      classes_(c.torus ? c.vcs / 2 : c.vcs),
      ivcs_(kPorts * c.vcs),
      torus_(c.torus),
      hop_(c.router_delay + c.link_latency),
      eject_delay_(c.router_delay + c.ejection_latency),
      credit_delay_(c.credit_delay),
      inj_latency_(c.injection_latency),
      max_flits_(static_cast<std::uint32_t>(c.max_packet_flits)),
      header_flits_(c.header_flits) {
  const int nodes = nets_ * tiles_;
  nbr_.resize(static_cast<std::size_t>(tiles_) * kMeshDirs);
  wrap_.resize(nbr_.size());
  x_.resize(static_cast<std::size_t>(tiles_));
  y_.resize(static_cast<std::size_t>(tiles_));
  for (TileId t = 0; t < tiles_; ++t) {
    Coord co = topo.coord(t);
    x_[static_cast<std::size_t>(t)] = static_cast<std::int16_t>(co.x);
    y_[static_cast<std::size_t>(t)] = static_cast<std::int16_t>(co.y);
    for (int d = 0; d < kMeshDirs; ++d) {
      TileId nb = topo.neighbor(t, static_cast<Dir>(d));
      std::size_t i = static_cast<std::size_t>(t) * kMeshDirs + static_cast<std::size_t>(d);
      nbr_[i] = nb;
      if (nb != kNoTile) {
        Coord cn = topo.coord(nb);
        wrap_[i] = static_cast<std::uint8_t>(std::abs(cn.x - co.x) + std::abs(cn.y - co.y) != 1);
      }
    }
  }
  for (int p = 0; p < kPorts; ++p)
    for (int v = 0; v < vcs_; ++v) {
      port_mask_[p] |= std::uint64_t{1} << (p * vcs_ + v);
      port_of_[p * vcs_ + v] = static_cast<std::uint8_t>(p);
      vc_of_[p * vcs_ + v] = static_cast<std::uint8_t>(v);
    }

  const int mesh_cap = c.input_buffer_flits + c.output_buffer_flits;
  if (mesh_cap > 65535 || c.injection_buffer_flits > 65535 || c.ejection_buffer_flits > 65535)
    throw ConfigError("input_buffer_flits", "buffers larger than 65535 flits are not supported");
  in_.resize(static_cast<std::size_t>(nodes) * static_cast<std::size_t>(ivcs_));
  out_.resize(in_.size());
  ej_.resize(static_cast<std::size_t>(nodes) * static_cast<std::size_t>(vcs_));
  std::size_t flit_total = 0, ret_total = 0;
  for (int n = 0; n < nodes; ++n) {
    TileId t = n % tiles_;
    for (int p = 0; p < kPorts; ++p) {
      bool exists = p == kLocal || nbr_[static_cast<std::size_t>(t) * kMeshDirs + static_cast<std::size_t>(p)] != kNoTile;
      for (int v = 0; v < vcs_; ++v) {
        std::size_t i = static_cast<std::size_t>(n) * static_cast<std::size_t>(ivcs_) +
                        static_cast<std::size_t>(p * vcs_ + v);
        Fifo& f = in_[i];
        f.cap = static_cast<std::uint16_t>(!exists ? 0 : p == kLocal ? c.injection_buffer_flits : mesh_cap);
        f.off = static_cast<std::uint32_t>(flit_total);
        flit_total += f.cap;
        // Output p feeds the neighbour's input (or the ejection buffer).
        OutVc& o = out_[i];
        o.credits = !exists ? 0 : p == kLocal ? c.ejection_buffer_flits : mesh_cap;
        o.rcap = static_cast<std::uint16_t>(o.credits);
        o.roff = static_cast<std::uint32_t>(ret_total);
        ret_total += o.rcap;
      }
    }
    for (int v = 0; v < vcs_; ++v) {
      Fifo& f = ej_[static_cast<std::size_t>(n) * static_cast<std::size_t>(vcs_) + static_cast<std::size_t>(v)];
      f.cap = static_cast<std::uint16_t>(c.ejection_buffer_flits);
      f.off = static_cast<std::uint32_t>(flit_total);
      flit_total += f.cap;
    }
  }
  if (flit_total > 0xFFFFFFFFu || ret_total > 0xFFFFFFFFu)
    throw ConfigError("input_buffer_flits", "total buffer space too large");
  flits_.resize(flit_total);
  ret_.resize(ret_total);
  wait_since_.assign(in_.size(), 0);
  head_wait_ = c.speculative ? c.head_stages() : c.routing_delay;
  va_stage_ = !c.speculative && c.vc_alloc_delay > 0;
  va_delay_ = c.vc_alloc_delay;
  head_stages_ = head_wait_ > 0 || va_stage_;
  if (head_stages_) {
    front_since_.assign(in_.size(), 0);
    alloc_from_.assign(in_.size(), 0);
    sa_from_.assign(in_.size(), 0);
  }
  port_.resize(static_cast<std::size_t>(nodes) * kPorts);
  inmask_.assign(static_cast<std::size_t>(nodes), 0);
  ejmask_.assign(static_cast<std::size_t>(nodes), 0);
  src_.resize(static_cast<std::size_t>(nodes) * static_cast<std::size_t>(classes_));
  src_rr_.assign(static_cast<std::size_t>(nodes), 0);
  ej_rr_.assign(static_cast<std::size_t>(nodes), 0);
  held_.assign(static_cast<std::size_t>(nodes), 0);
  src_pending_.assign(static_cast<std::size_t>(nodes), 0);
  inj_port_.resize(static_cast<std::size_t>(nodes));

  int maxd = std::max({hop_, eject_delay_, credit_delay_, inj_latency_, head_wait_, va_delay_, 1}) + 2;
  std::size_t wheel = 1;
  while (wheel < static_cast<std::size_t>(maxd)) wheel <<= 1;
  wheel_.resize(wheel);
  wheel_mask_ = wheel - 1;
  last_sched_.assign(static_cast<std::size_t>(nodes), kNever);
  last_proc_.assign(static_cast<std::size_t>(nodes), kNever);
  counters_.resize(static_cast<std::size_t>(nets_));
  fast_ = c.fast_worms && vcs_ == 1;
  inj_credit_delay_ = c.injection_credit_delay;
  if (fast_) {
    in_free_.assign(in_.size(), 0);
    ej_free_.assign(ej_.size(), 0);
    out_free_.assign(out_.size(), 0);
    src_free_.assign(static_cast<std::size_t>(nodes), 0);
  }
  if (fast_ || inj_credit_delay_ > 0) {
    ph_cap_ = static_cast<std::uint32_t>(c.injection_buffer_flits);
    const std::size_t rings = static_cast<std::size_t>(nodes) * static_cast<std::size_t>(vcs_);
    phantom_.assign(rings * ph_cap_, 0);
    ph_head_.assign(rings, 0);
    ph_count_.assign(rings, 0);
  }
}

void Chip::Engine::defer(Cycle at, std::uint32_t id, std::uint8_t kind) { deferred_.push(Deferred{at, seq_++, id, kind}); }

void Chip::Engine::schedule_any(std::uint32_t n, Cycle now, Cycle c) {
  if (c < now + wheel_.size()) schedule(n, c);
  else defer(c, n, kWake);
}

std::uint32_t Chip::Engine::alloc_packet() {
  if (!free_slots_.empty()) {
    std::uint32_t s = free_slots_.back();
    free_slots_.pop_back();
    return s;
  }
  if (pkts_.size() >= (std::size_t{1} << 30)) throw std::length_error("too many packets in flight");
  pkts_.emplace_back();
  link_wait_.push_back(0);
  return static_cast<std::uint32_t>(pkts_.size() - 1);
}

PacketId Chip::Engine::inject(int network, TileId src, TileId dst, std::uint32_t payload_flits, Cycle at,
                              std::uint64_t tag, int cls) {
  const std::uint64_t flits = std::uint64_t{payload_flits} + static_cast<std::uint64_t>(header_flits_);
  check_inject(topo_, network, nets_, src, dst, cls, classes_, flits, max_flits_, at, chip_.now_);
  std::uint32_t slot = alloc_packet();
  Packet& p = pkts_[slot];
  p = Packet{};
  p.id = next_id_++;
  p.tag = tag;
  p.created = at;
  p.src = src;
  p.dst = dst;
  p.flits = static_cast<std::uint32_t>(flits);
  p.net = static_cast<std::uint8_t>(network);
  p.cls = static_cast<std::uint8_t>(cls);
  link_wait_[slot] = 0;
  pending_.push(Pending{at, seq_++, slot});
  ++live_packets_;
  ++counters_[static_cast<std::size_t>(network)].injected;
  return p.id;
}

inline void Chip::Engine::schedule(std::uint32_t n, Cycle c) {
  if (last_sched_[n] == c) return;
  last_sched_[n] = c;
  wheel_[c & wheel_mask_].push_back(n);
  ++wheel_count_;
}

Cycle Chip::Engine::next_event_cycle(Cycle from) const {
  Cycle best = pending_.empty() ? kNever : pending_.top().at;
  if (!deferred_.empty()) best = std::min(best, deferred_.top().at);
  if (wheel_count_ > 0) {
    for (Cycle c = from; c < from + wheel_.size() && c < best; ++c)
      if (!wheel_[c & wheel_mask_].empty()) return c;
  }
  return best;
}

void Chip::Engine::hold_ejection(int network, TileId tile, bool hold) {
  if (network < 0 || network >= nets_ || !topo_.valid(tile))
    throw std::invalid_argument("hold_ejection: bad network or tile");
  std::uint32_t n = node(network, tile);
  held_[n] = hold ? 1 : 0;
  if (!hold && ejmask_[n]) schedule(n, chip_.now_);
}

void Chip::Engine::run_until(Cycle c) {
  for (;;) {
    Cycle t = next_event_cycle(chip_.now_);
    if (t == kNever || t > c) break;
    chip_.now_ = t + 1;  // callbacks of cycle t may inject from t + 1 on
    while (!pending_.empty() && pending_.top().at == t) {
      std::uint32_t slot = pending_.top().slot;
      pending_.pop();
      Packet& p = pkts_[slot];
      std::uint32_t n = node(p.net, p.src);
      Source& s = src_[static_cast<std::size_t>(n) * static_cast<std::size_t>(classes_) + p.cls];
      if (s.qtail >= 0) pkts_[static_cast<std::size_t>(s.qtail)].next = static_cast<std::int32_t>(slot);
      else s.qhead = static_cast<std::int32_t>(slot);
      s.qtail = static_cast<std::int32_t>(slot);
      ++src_pending_[n];
      schedule(n, t);
    }
    due_.clear();
    while (!deferred_.empty() && deferred_.top().at == t) {
      const Deferred d = deferred_.top();
      deferred_.pop();
      if (d.kind == kWake) schedule(d.id, t);
      else due_.push_back(d);
    }
    std::vector<std::uint32_t>& bucket = wheel_[t & wheel_mask_];
    for (std::size_t k = 0; k < bucket.size(); ++k) {
      std::uint32_t n = bucket[k];
      if (last_proc_[n] == t) continue;
      last_proc_[n] = t;
      process(n, t);
    }
    wheel_count_ -= bucket.size();
    bucket.clear();
    for (const Deferred& d : due_) {
      Packet& p = pkts_[d.id];
      if (d.kind == kInjected) {
        if (chip_.on_injected_)
          chip_.on_injected_(
              PacketEvent{p.id, p.tag, p.net, p.src, p.dst, t, p.created, p.head_in, p.flits, link_wait_[d.id]});
      } else {
        deliver(d.id, t);
      }
    }
    // Worms whose head was read this cycle continue in one step, from the
    // state at the end of the cycle.
    for (std::size_t k = 0; k < express_todo_.size(); ++k) express(express_todo_[k], t);
    express_todo_.clear();
  }
  if (c != kNever && chip_.now_ < c + 1) chip_.now_ = c + 1;
}

Dir Chip::Engine::route(TileId at, TileId dst) const {
  int dx = delta(x_[static_cast<std::size_t>(at)], x_[static_cast<std::size_t>(dst)], topo_.width(), torus_);
  if (dx > 0) return Dir::East;
  if (dx < 0) return Dir::West;
  int dy = delta(y_[static_cast<std::size_t>(at)], y_[static_cast<std::size_t>(dst)], topo_.height(), torus_);
  if (dy > 0) return Dir::South;
  if (dy < 0) return Dir::North;
  return Dir::Local;
}

// The head at the front of input VC `idx` begins (or goes on) waiting for a
// link that another packet holds (PacketEvent::link_wait).
inline void Chip::Engine::link_wait_begin(Fifo& f, std::size_t idx, Cycle t) {
  if (!f.conflict) {
    f.conflict = 1;
    wait_since_[idx] = t;
  }
}

inline bool Chip::Engine::credit_ready(OutVc& ov, Cycle t) {
  while (ov.rcount > 0 && ret_[ov.roff + ov.rhead] <= t) {
    ++ov.credits;
    ov.rhead = static_cast<std::uint16_t>(ov.rhead + 1 == ov.rcap ? 0 : ov.rhead + 1);
    --ov.rcount;
  }
  return ov.credits > 0;
}

// A slot of the buffer fed by output `out_index` of `up_node` was freed at t.
inline void Chip::Engine::return_credit(std::uint32_t up_node, int out_index, Cycle t) {
  OutVc& ov = out_[static_cast<std::size_t>(up_node) * static_cast<std::size_t>(ivcs_) +
                   static_cast<std::size_t>(out_index)];
  // A router that ran out of credit sleeps until this credit comes back; with
  // credit or earlier returns still pending it wakes (or is awake) anyway.
  if (ov.credits + ov.rcount == 0) schedule(up_node, t + static_cast<Cycle>(credit_delay_));
  std::uint32_t pos = ov.rhead + ov.rcount;
  if (pos >= ov.rcap) pos -= ov.rcap;
  ret_[ov.roff + pos] = t + static_cast<Cycle>(credit_delay_);
  ++ov.rcount;
}

void Chip::Engine::deliver(std::uint32_t slot, Cycle t) {
  Packet& p = pkts_[slot];
  const Cycle link_wait = link_wait_[slot];
  count_delivery(counters_[p.net], PacketRecord{p.id, p.tag, p.src, p.dst, p.net, static_cast<int>(p.flits),
                                                topo_.hops(p.src, p.dst), p.created, p.head_in, p.tail_out, t,
                                                link_wait});
  PacketEvent ev{p.id, p.tag, p.net, p.src, p.dst, t, p.created, p.head_in, p.flits, link_wait};
  free_slots_.push_back(slot);
  --live_packets_;
  if (chip_.on_delivered_) chip_.on_delivered_(ev);
}

void Chip::Engine::process(std::uint32_t n, Cycle t) {
  ++activations_;
  const std::size_t net = n / static_cast<std::uint32_t>(tiles_);
  const std::uint32_t net_base = static_cast<std::uint32_t>(net) * static_cast<std::uint32_t>(tiles_);
  const TileId tile = static_cast<TileId>(n - net_base);
  const std::size_t base = static_cast<std::size_t>(n) * static_cast<std::size_t>(ivcs_);
  const std::size_t tbase = static_cast<std::size_t>(tile) * kMeshDirs;
  bool worked = false;
  Cycle wake = kNever;  // earliest pending credit of a credit-starved output

  // Switch allocation: each output sends at most one flit, each input port
  // forwards at most one flit per cycle.
  std::uint64_t cand[kPorts] = {0, 0, 0, 0, 0};
  unsigned demand = 0;
  std::uint64_t va_mask = 0;  // output VCs requested in VC allocation
  for (std::uint64_t m = inmask_[n]; m; m &= m - 1) {
    int i = std::countr_zero(m);
    Fifo& f = in_[base + static_cast<std::size_t>(i)];
    const Flit& fl = flits_[f.off + f.head];
    if (fl.ready > t) continue;
    if (fast_ && t < in_free_[base + static_cast<std::size_t>(i)]) continue;  // behind a one-step worm
    int o, ovc;
    if (f.out >= 0) {
      o = f.out;
      ovc = f.ovc;
      if (head_stages_ && sa_from_[base + static_cast<std::size_t>(i)] > t) {
        wake = std::min(wake, sa_from_[base + static_cast<std::size_t>(i)]);  // a head in VA
        continue;
      }
      OutVc& ov = out_[base + static_cast<std::size_t>(o * vcs_ + ovc)];
      demand |= 1u << o;
      if (credit_ready(ov, t)) cand[o] |= std::uint64_t{1} << i;
      else if (ov.rcount) wake = std::min(wake, ret_[ov.roff + ov.rhead]);
    } else {
      if (f.want < 0) {
        // First look at this head: route it once.
        const Packet& p = pkts_[fl.code >> 2];
        o = static_cast<int>(route(tile, p.dst));
        if (!torus_) {
          ovc = p.cls;
        } else if (o == kLocal) {
          ovc = 2 * p.cls;
        } else {
          // Dateline VCs: a packet starts each dimension on the even VC of its
          // class and moves to the odd one after crossing the wrap-around link.
          int in_port = port_of_[i];
          bool same_dim = in_port != kLocal && (in_port / 2) == (o / 2);
          int bit = same_dim ? (vc_of_[i] & 1) : 0;
          if (wrap_[tbase + static_cast<std::size_t>(o)]) bit = 1;
          ovc = 2 * p.cls + bit;
        }
        f.want = static_cast<std::int8_t>(o);
        f.want_vc = static_cast<std::int8_t>(ovc);
        if (head_stages_) {
          // Route computation starts when the head is at the front of its input VC.
          const std::size_t idx = base + static_cast<std::size_t>(i);
          alloc_from_[idx] = std::max(fl.ready, front_since_[idx]) + static_cast<Cycle>(head_wait_);
        }
      }
      o = f.want;
      ovc = f.want_vc;
      if (head_stages_ && alloc_from_[base + static_cast<std::size_t>(i)] > t) {
        wake = std::min(wake, alloc_from_[base + static_cast<std::size_t>(i)]);  // still in RC
        continue;
      }
      OutVc& ov = out_[base + static_cast<std::size_t>(o * vcs_ + ovc)];
      // Reserved by a one-step worm: this router is woken when it ends.
      if (fast_ && t < out_free_[base + static_cast<std::size_t>(o * vcs_ + ovc)]) {
        if (o != kLocal) link_wait_begin(f, base + static_cast<std::size_t>(i), t);
        continue;
      }
      if (va_stage_) {
        // VC allocation: the head asks for its output VC; granted below if free.
        if (ov.owner < 0) {
          va_req_[o * vcs_ + ovc] |= std::uint64_t{1} << i;
          va_mask |= std::uint64_t{1} << (o * vcs_ + ovc);
        } else if (o != kLocal) {
          link_wait_begin(f, base + static_cast<std::size_t>(i), t);
        }
        continue;
      }
      demand |= 1u << o;
      if (ov.owner < 0) {
        if (credit_ready(ov, t)) {
          cand[o] |= std::uint64_t{1} << i;
        } else {
          if (ov.rcount) wake = std::min(wake, ret_[ov.roff + ov.rhead]);
          // The buffer behind the link still holds the last worm's flits: a
          // conflict if that worm came from another source.
          if (o != kLocal && ov.last_src != pkts_[fl.code >> 2].src)
            link_wait_begin(f, base + static_cast<std::size_t>(i), t);
        }
      } else if (o != kLocal) {
        link_wait_begin(f, base + static_cast<std::size_t>(i), t);  // another input's worm holds the link
      }
    }
  }

  // VC allocation: each free output VC goes to one requesting head, round robin; the head
  // may take part in switch allocation va_delay_ cycles later.
  for (std::uint64_t m = va_mask; m; m &= m - 1) {
    const int ovi = std::countr_zero(m);
    OutVc& ov = out_[base + static_cast<std::size_t>(ovi)];
    const std::uint64_t r = va_req_[ovi];
    va_req_[ovi] = 0;
    std::uint64_t hi = ov.va_rr >= 64 ? 0 : r & (~std::uint64_t{0} << ov.va_rr);
    const int i = std::countr_zero(hi ? hi : r);
    ov.va_rr = static_cast<std::uint16_t>(i + 1);
    ov.owner = static_cast<std::int16_t>(i);
    const std::size_t idx = base + static_cast<std::size_t>(i);
    Fifo& f = in_[idx];
    f.out = static_cast<std::int8_t>(ovi / vcs_);
    f.ovc = static_cast<std::int8_t>(ovi % vcs_);
    f.want = f.want_vc = -1;
    const Flit& fl = flits_[f.off + f.head];
    ov.last_src = pkts_[fl.code >> 2].src;
    if (f.conflict) {
      link_wait_[fl.code >> 2] += t - wait_since_[idx];
      f.conflict = 0;
    }
    if (r & (r - 1))
      for (std::uint64_t l = r & ~(std::uint64_t{1} << i); l; l &= l - 1)
        if (f.out != kLocal) link_wait_begin(in_[base + static_cast<std::size_t>(std::countr_zero(l))],
                                             base + static_cast<std::size_t>(std::countr_zero(l)), t);
    sa_from_[idx] = t + static_cast<Cycle>(va_delay_);
    wake = std::min(wake, sa_from_[idx]);
  }

  if (demand) {
    std::uint64_t excluded = 0;  // input VCs of ports that already sent this cycle
    const int first = static_cast<int>(t % kPorts);
    for (int k = 0; k < kPorts; ++k) {
      int o = first + k;
      if (o >= kPorts) o -= kPorts;
      if (!(demand & (1u << o))) continue;
      PortStats& ps = port_[static_cast<std::size_t>(n) * kPorts + static_cast<std::size_t>(o)];
      const std::uint64_t c = cand[o] & ~excluded;
      if (!c) {
        if (ps.blocked_since == kNever) ps.blocked_since = t;
        continue;
      }
      // Round robin: first candidate at or after the pointer.
      std::uint64_t hi = ps.rr >= 64 ? 0 : c & (~std::uint64_t{0} << ps.rr);
      int i = std::countr_zero(hi ? hi : c);
      ps.rr = static_cast<std::uint16_t>(i + 1);
      if (ps.blocked_since != kNever) {
        ps.blocked += t - ps.blocked_since;
        ps.blocked_since = kNever;
      }
      ++ps.flits;
      const int in_port = port_of_[i];
      excluded |= port_mask_[in_port];
      worked = true;

      Fifo& f = in_[base + static_cast<std::size_t>(i)];
      const Flit fl = flits_[f.off + f.head];
      if ((c & (c - 1)) && o != kLocal) {
        // The other candidates lost the link to this packet: heads (a candidate
        // of another VC may be a worm's body) of another source wait for it.
        const TileId winner = pkts_[fl.code >> 2].src;
        for (std::uint64_t m = c & ~(std::uint64_t{1} << i); m; m &= m - 1) {
          const int j = std::countr_zero(m);
          Fifo& fj = in_[base + static_cast<std::size_t>(j)];
          if (fj.out < 0 && (vcs_ == 1 || pkts_[flits_[fj.off + fj.head].code >> 2].src != winner))
            link_wait_begin(fj, base + static_cast<std::size_t>(j), t);
        }
      }
      f.head = static_cast<std::uint16_t>(f.head + 1 == f.cap ? 0 : f.head + 1);
      if (--f.count == 0) inmask_[n] &= ~(std::uint64_t{1} << i);
      if (head_stages_) front_since_[base + static_cast<std::size_t>(i)] = t + 1;
      const bool is_head = fl.code & 1u;
      const bool is_tail = fl.code & 2u;
      if (is_head && f.want >= 0) {  // (a head that went through VC allocation has its output VC)
        f.out = static_cast<std::int8_t>(o);
        f.ovc = f.want_vc;
        f.want = f.want_vc = -1;
        if (f.conflict) {
          link_wait_[fl.code >> 2] += t - wait_since_[base + static_cast<std::size_t>(i)];
          f.conflict = 0;
        }
      }
      const int ovc = f.ovc;
      OutVc& ov = out_[base + static_cast<std::size_t>(o * vcs_ + ovc)];
      if (is_head && !va_stage_) ov.last_src = pkts_[fl.code >> 2].src;
      --ov.credits;
      ov.owner = is_tail ? -1 : static_cast<std::int16_t>(i);
      if (is_tail) f.out = f.ovc = -1;

      // The freed slot's credit goes back upstream (the core sees its
      // injection buffer directly).
      if (in_port != kLocal) {
        TileId up = nbr_[tbase + static_cast<std::size_t>(in_port)];
        return_credit(net_base + static_cast<std::uint32_t>(up), kOpposite[in_port] * vcs_ + vc_of_[i], t);
      } else {
        if (inj_credit_delay_ > 0) {
          // The core sees the freed slot once its credit is back.
          const std::size_t ring = static_cast<std::size_t>(n) * static_cast<std::size_t>(vcs_) + vc_of_[i];
          std::uint32_t pos = ph_head_[ring] + ph_count_[ring];
          if (pos >= ph_cap_) pos -= ph_cap_;
          phantom_[ring * ph_cap_ + pos] = t + static_cast<Cycle>(inj_credit_delay_);
          ++ph_count_[ring];
          if (src_pending_[n]) schedule_any(n, t, t + static_cast<Cycle>(inj_credit_delay_));
        }
      }
      if (in_port == kLocal && is_tail) {
        Packet& p = pkts_[fl.code >> 2];
        p.tail_out = t;
        if (chip_.on_injected_)
          chip_.on_injected_(PacketEvent{p.id, p.tag, p.net, p.src, p.dst, t, p.created, p.head_in, p.flits,
                                         link_wait_[fl.code >> 2]});
      }

      if (o != kLocal) {
        TileId dn = nbr_[tbase + static_cast<std::size_t>(o)];
        std::uint32_t dnode = net_base + static_cast<std::uint32_t>(dn);
        int di = kOpposite[o] * vcs_ + ovc;
        Fifo& d = in_[static_cast<std::size_t>(dnode) * static_cast<std::size_t>(ivcs_) + static_cast<std::size_t>(di)];
        std::uint32_t pos = d.head + d.count;
        if (pos >= d.cap) pos -= d.cap;
        flits_[d.off + pos] = Flit{t + static_cast<Cycle>(hop_), fl.code, 0};
        ++d.count;
        inmask_[dnode] |= std::uint64_t{1} << di;
        schedule(dnode, t + static_cast<Cycle>(hop_));
        ++counters_[net].flit_hops;
      } else {
        Fifo& d = ej_[static_cast<std::size_t>(n) * static_cast<std::size_t>(vcs_) + static_cast<std::size_t>(ovc)];
        std::uint32_t pos = d.head + d.count;
        if (pos >= d.cap) pos -= d.cap;
        flits_[d.off + pos] = Flit{t + static_cast<Cycle>(eject_delay_), fl.code, 0};
        ++d.count;
        ejmask_[n] |= 1u << ovc;
        schedule(n, t + static_cast<Cycle>(eject_delay_));
      }
    }
  }

  // The core reads one flit per cycle from its ejection buffers.
  if (ejmask_[n] && !held_[n]) {
    const std::size_t ebase = static_cast<std::size_t>(n) * static_cast<std::size_t>(vcs_);
    for (int k = 0; k < vcs_; ++k) {
      int v = ej_rr_[n] + k;
      if (v >= vcs_) v -= vcs_;
      if (!(ejmask_[n] & (1u << v))) continue;
      Fifo& f = ej_[ebase + static_cast<std::size_t>(v)];
      const Flit fl = flits_[f.off + f.head];
      if (fl.ready > t) continue;
      if (fast_ && t < ej_free_[ebase + static_cast<std::size_t>(v)]) continue;
      f.head = static_cast<std::uint16_t>(f.head + 1 == f.cap ? 0 : f.head + 1);
      if (--f.count == 0) ejmask_[n] &= ~(1u << v);
      ej_rr_[n] = static_cast<std::uint8_t>(v + 1 == vcs_ ? 0 : v + 1);
      return_credit(n, kLocal * vcs_ + v, t);
      worked = true;
      if (fl.code & 2u) deliver(fl.code >> 2, t);
      else if (fast_ && (fl.code & 1u)) express_todo_.push_back(fl.code >> 2);
      break;
    }
  }

  // The core writes one flit per cycle into its injection buffers.
  if (src_pending_[n] && (!fast_ || t >= src_free_[n])) {
    const std::size_t sbase = static_cast<std::size_t>(n) * static_cast<std::size_t>(classes_);
    PortStats& ip = inj_port_[n];
    bool wrote = false;
    for (int k = 0; k < classes_; ++k) {
      int c = src_rr_[n] + k;
      if (c >= classes_) c -= classes_;
      Source& s = src_[sbase + static_cast<std::size_t>(c)];
      if (s.qhead < 0) continue;
      int lvc = torus_ ? 2 * c : c;
      int li = kLocal * vcs_ + lvc;
      Fifo& f = in_[base + static_cast<std::size_t>(li)];
      std::uint32_t phantom = 0;
      const std::size_t ring = static_cast<std::size_t>(n) * static_cast<std::size_t>(vcs_) +
                               static_cast<std::size_t>(lvc);
      if (!ph_count_.empty() && ph_count_[ring]) {
        // Slots the core does not see free yet: held by a one-step worm's flits, or freed but
        // their credit still on its way (injection_credit_delay).
        const std::size_t pb = ring * ph_cap_;
        while (ph_count_[ring] && phantom_[pb + ph_head_[ring]] <= t) {
          ph_head_[ring] = ph_head_[ring] + 1 == ph_cap_ ? 0 : ph_head_[ring] + 1;
          --ph_count_[ring];
        }
        phantom = ph_count_[ring];
        if (phantom && f.count + phantom >= f.cap) wake = std::min(wake, phantom_[pb + ph_head_[ring]]);
      }
      if (f.count + phantom >= f.cap) continue;
      std::uint32_t slot = static_cast<std::uint32_t>(s.qhead);
      Packet& p = pkts_[slot];
      std::uint32_t code = slot << 2;
      if (p.written == 0) {
        code |= 1u;
        p.head_in = t;
      }
      if (++p.written == p.flits) {
        code |= 2u;
        s.qhead = p.next;
        if (s.qhead < 0) s.qtail = -1;
        --src_pending_[n];
      }
      std::uint32_t pos = f.head + f.count;
      if (pos >= f.cap) pos -= f.cap;
      flits_[f.off + pos] = Flit{t + static_cast<Cycle>(inj_latency_), code, 0};
      ++f.count;
      inmask_[n] |= std::uint64_t{1} << li;
      schedule(n, t + static_cast<Cycle>(inj_latency_));
      src_rr_[n] = static_cast<std::uint8_t>(c + 1 == classes_ ? 0 : c + 1);
      wrote = true;
      worked = true;
      break;
    }
    if (wrote) {
      ++ip.flits;
      if (ip.blocked_since != kNever) {
        ip.blocked += t - ip.blocked_since;
        ip.blocked_since = kNever;
      }
    } else if (ip.blocked_since == kNever) {
      ip.blocked_since = t;
    }
  }

  if (worked) {
    // Come back next cycle only if something here can move then; flits still
    // on their way schedule this router when they arrive.
    bool again = src_pending_[n] != 0;
    for (std::uint64_t m = inmask_[n]; m && !again; m &= m - 1) {
      const Fifo& f = in_[base + static_cast<std::size_t>(std::countr_zero(m))];
      again = flits_[f.off + f.head].ready <= t + 1;
    }
    if (!again && ejmask_[n] && !held_[n]) {
      const std::size_t ebase = static_cast<std::size_t>(n) * static_cast<std::size_t>(vcs_);
      for (int v = 0; v < vcs_ && !again; ++v) {
        const Fifo& f = ej_[ebase + static_cast<std::size_t>(v)];
        again = f.count && flits_[f.off + f.head].ready <= t + 1;
      }
    }
    if (again) schedule(n, t + 1);
    else if (wake != kNever) schedule_any(n, t, wake);
  } else if (wake != kNever) {
    schedule_any(n, t, wake);
  }
}

void Chip::Engine::fill_stats(Stats& s) const {
  const Cycle now = chip_.now_;
  auto blocked = [now](const PortStats& p) {
    return p.blocked + (p.blocked_since != kNever && p.blocked_since < now ? now - p.blocked_since : 0);
  };
  s.router_cycles = activations_;
  s.networks.resize(static_cast<std::size_t>(nets_));
  for (int net = 0; net < nets_; ++net) {
    NetworkStats& ns = s.networks[static_cast<std::size_t>(net)];
    ns.links.assign(static_cast<std::size_t>(tiles_) * kMeshDirs, LinkStats{});
    ns.injection.assign(static_cast<std::size_t>(tiles_), LinkStats{});
    ns.ejection.assign(static_cast<std::size_t>(tiles_), LinkStats{});
    for (TileId t = 0; t < tiles_; ++t) {
      std::uint32_t n = node(net, t);
      for (int d = 0; d < kMeshDirs; ++d) {
        const PortStats& p = port_[static_cast<std::size_t>(n) * kPorts + static_cast<std::size_t>(d)];
        LinkStats& l = ns.links[static_cast<std::size_t>(t) * kMeshDirs + static_cast<std::size_t>(d)];
        l.flits = p.flits;
        l.busy_cycles = p.flits;
        l.blocked_cycles = blocked(p);
      }
      const PortStats& e = port_[static_cast<std::size_t>(n) * kPorts + kLocal];
      ns.ejection[static_cast<std::size_t>(t)] = LinkStats{e.flits, e.flits, blocked(e)};
      const PortStats& i = inj_port_[n];
      ns.injection[static_cast<std::size_t>(t)] = LinkStats{i.flits, i.flits, blocked(i)};
    }
    copy_counters(counters_[static_cast<std::size_t>(net)], ns);
  }
  s.packets = log_;
}

void Chip::Engine::reset_stats() {
  const Cycle now = chip_.now_;
  auto reset = [now](PortStats& p) {
    p.flits = 0;
    p.blocked = 0;
    if (p.blocked_since != kNever) p.blocked_since = now;
  };
  for (PortStats& p : port_) reset(p);
  for (PortStats& p : inj_port_) reset(p);
  for (NetCounters& nc : counters_) nc = NetCounters{};
  activations_ = 0;
  log_.clear();
}

}  // namespace tilempi::hwmodel

namespace tilempi::hwmodel {

// A worm whose head has been read by the destination core owns every output
// on its remaining route, and with one VC nothing else can enter the buffers
// ahead of its tail: its remaining flits follow a fixed pipeline. Compute
// that pipeline (core writes, router sends, core reads) exactly as the flit
// engine would, then remove the flits, reserve the outputs and buffer fronts
// until the tail has passed, queue the credit returns at their cycles and
// defer the packet's events. Returns false (and changes nothing) if the
// state is not the one assumed.
bool Chip::Engine::express(std::uint32_t slot, Cycle t) {
  Packet& p = pkts_[slot];
  const std::uint32_t nb = static_cast<std::uint32_t>(p.net) * static_cast<std::uint32_t>(tiles_);
  const std::size_t L = p.flits;
  xpath_.clear();
  xout_.clear();
  for (TileId at = p.src;;) {
    const int d = static_cast<int>(route(at, p.dst));
    xpath_.push_back(at);
    xout_.push_back(d);
    if (d == kLocal) break;
    at = nbr_[static_cast<std::size_t>(at) * kMeshDirs + static_cast<std::size_t>(d)];
  }
  const int h = static_cast<int>(xpath_.size()) - 1;
  auto node_at = [&](int i) { return nb + static_cast<std::uint32_t>(xpath_[static_cast<std::size_t>(i)]); };
  // Buffer i: 0 = injection buffer at the source, 1..h = router inputs on the
  // way, h + 1 = ejection buffer at the destination (one VC: index = port).
  auto fifo_index = [&](int i) -> std::size_t {
    if (i == h + 1) return node_at(h);
    const int port = i == 0 ? kLocal : kOpposite[xout_[static_cast<std::size_t>(i - 1)]];
    return static_cast<std::size_t>(node_at(i)) * static_cast<std::size_t>(ivcs_) + static_cast<std::size_t>(port);
  };
  auto fifo = [&](int i) -> Fifo& { return i == h + 1 ? ej_[fifo_index(i)] : in_[fifo_index(i)]; };
  auto out_index = [&](int j) {
    return static_cast<std::size_t>(node_at(j)) * static_cast<std::size_t>(ivcs_) +
           static_cast<std::size_t>(xout_[static_cast<std::size_t>(j)]);
  };

  // Where are flits 1 .. L-1 (flit 0, the head, was just read)?
  xloc_.assign(L, -1);
  xready_.assign(L, 0);
  std::size_t k = 1;
  for (int i = h + 1; i >= 0 && k < L; --i) {
    const Fifo& f = fifo(i);
    std::uint32_t pos = f.head;
    for (std::uint32_t c = 0; c < f.count && k < L; ++c) {
      const Flit& fl = flits_[f.off + pos];
      if ((fl.code >> 2) != slot) break;
      xloc_[k] = i;
      xready_[k] = fl.ready;
      ++k;
      pos = pos + 1 == f.cap ? 0 : pos + 1;
    }
  }
  if (k != p.written) return false;
  const std::size_t kw = k;  // first unwritten flit (L: all written)
  const std::size_t U = L - kw;
  const int m = U ? 0 : xloc_[L - 1];  // first stage that still sends P's flits
  // kfirst[i]: first flit that is at or before buffer i (leaves it after t).
  std::vector<std::size_t>& kfirst = xkfirst_;
  kfirst.assign(static_cast<std::size_t>(h) + 2, L);
  for (int i = 0; i <= h + 1; ++i)
    for (std::size_t q = 1; q < L; ++q)
      if (xloc_[q] <= i) {
        kfirst[static_cast<std::size_t>(i)] = q;
        break;
      }
  // The worm must still own its outputs from stage m on.
  for (int j = m; j <= h; ++j) {
    const Fifo& f = fifo(j);
    const OutVc& ov = out_[out_index(j)];
    const int in_port = j == 0 ? kLocal : kOpposite[xout_[static_cast<std::size_t>(j - 1)]];
    if (f.out != xout_[static_cast<std::size_t>(j)] || ov.owner != in_port) return false;
  }
  if (U && src_[node_at(0)].qhead != static_cast<std::int32_t>(slot)) return false;

  // Times: s[j][k] send at stage j, c[k] read by the core, w[k] written by it.
  xs_.assign((static_cast<std::size_t>(h) + 3) * L, 0);
  auto S = [&](int j, std::size_t q) -> Cycle& { return xs_[static_cast<std::size_t>(j) * L + q]; };
  auto C = [&](std::size_t q) -> Cycle& { return xs_[(static_cast<std::size_t>(h) + 1) * L + q]; };
  auto W = [&](std::size_t q) -> Cycle& { return xs_[(static_cast<std::size_t>(h) + 2) * L + q]; };
  auto pop_time = [&](int i, std::size_t q) { return i <= h ? S(i, q) : C(q); };
  const Cycle cd = static_cast<Cycle>(credit_delay_);
  const Cycle icd = static_cast<Cycle>(inj_credit_delay_);
  std::vector<std::int32_t>& credits0 = xcredits_;
  credits0.assign(static_cast<std::size_t>(h) + 1, 0);
  for (int j = m; j <= h; ++j) {
    OutVc& ov = out_[out_index(j)];
    credit_ready(ov, t);  // take in the credits that are back by now
    credits0[static_cast<std::size_t>(j)] = ov.credits;
  }
  std::vector<std::uint64_t>& blocked = xblocked_;
  blocked.assign(static_cast<std::size_t>(h) + 1, 0);
  std::uint64_t inj_blocked = 0;
  // Injection-buffer slots the core does not see free yet (credits still on their way back,
  // injection_credit_delay): the core's next writes take the slots in the order they free,
  // these first, then those of the worm's own flits still in the buffer.
  std::vector<Cycle>& pending = xpending_;
  pending.clear();
  const std::size_t n0ring = node_at(0);  // one VC: the ring of node n0
  if (m == 0 && !ph_count_.empty()) {
    const std::size_t pb = n0ring * ph_cap_;
    for (std::uint32_t r = 0, pos = ph_head_[n0ring]; r < ph_count_[n0ring]; ++r) {
      if (phantom_[pb + pos] > t) pending.push_back(phantom_[pb + pos]);
      pos = pos + 1 == ph_cap_ ? 0 : pos + 1;
    }
  }
  const std::size_t free0 = U ? fifo(0).cap - fifo(0).count - pending.size() : 0;
  for (std::size_t q = 1; q < L; ++q) {
    if (q >= kw) {
      Cycle w = t + 1;
      if (q > kw) w = std::max(w, W(q - 1) + 1);
      if (q - kw >= free0) {
        const std::size_t idx = q - kw - free0;
        w = std::max(w, idx < pending.size() ? pending[idx] : S(0, kfirst[0] + idx - pending.size()) + icd);
      }
      const Cycle want = q > kw ? W(q - 1) + 1 : t + 1;
      inj_blocked += w - want;
      W(q) = w;
    }
    for (int j = std::max(m, xloc_[q] < 0 ? 0 : xloc_[q]); j <= h; ++j) {
      if (xloc_[q] > j) continue;
      Cycle arrive;
      if (xloc_[q] == j) arrive = xready_[q];
      else if (j == 0) arrive = W(q) + static_cast<Cycle>(inj_latency_);
      else arrive = S(j - 1, q) + static_cast<Cycle>(hop_);
      const std::size_t first = kfirst[static_cast<std::size_t>(j)];
      Cycle lo = std::max(t + 1, arrive);
      if (q > first) lo = std::max(lo, S(j, q - 1) + 1);
      const Cycle ready = lo;
      // Credit for the m-th send of this output since t.
      const std::int64_t msend = static_cast<std::int64_t>(q - first) + 1;
      const std::int64_t need = msend - credits0[static_cast<std::size_t>(j)];
      if (need > 0) {
        const OutVc& ov = out_[out_index(j)];
        Cycle back;
        if (need <= ov.rcount) {
          std::uint32_t pos = ov.rhead + static_cast<std::uint32_t>(need - 1);
          if (pos >= ov.rcap) pos -= ov.rcap;
          back = ret_[ov.roff + pos];
        } else {
          const std::size_t q2 = kfirst[static_cast<std::size_t>(j) + 1] +
                                 static_cast<std::size_t>(need - ov.rcount) - 1;
          if (q2 >= q) return false;
          back = pop_time(j + 1, q2) + cd;
        }
        lo = std::max(lo, back);
      }
      blocked[static_cast<std::size_t>(j)] += lo - ready;
      S(j, q) = lo;
    }
    {
      const Cycle arrive = xloc_[q] == h + 1 ? xready_[q] : S(h, q) + static_cast<Cycle>(eject_delay_);
      Cycle c = std::max(t + 1, arrive);
      if (q > 1) c = std::max(c, C(q - 1) + 1);
      C(q) = c;
    }
  }
  // Credit returns still outstanding afterwards, per output feeding buffer i:
  // for an output the worm keeps, only those after its last send (the others
  // are back by the time anyone else may use it).
  auto last_use = [&](int i) -> Cycle { return i - 1 >= m ? S(i - 1, L - 1) : t; };
  for (int i = std::max(m, 1); i <= h + 1; ++i) {
    const OutVc& ov = out_[out_index(i - 1)];
    const Cycle after = last_use(i);
    std::size_t left = 0;
    for (std::uint32_t r = 0; r < ov.rcount; ++r) {
      std::uint32_t pos = ov.rhead + r;
      if (pos >= ov.rcap) pos -= ov.rcap;
      left += ret_[ov.roff + pos] > after;
    }
    for (std::size_t q = kfirst[static_cast<std::size_t>(i)]; q < L; ++q) left += pop_time(i, q) + cd > after;
    if (left > ov.rcap) return false;
  }
  std::size_t phantoms = 0;
  const Cycle written_by = U ? W(L - 1) : t;
  if (m == 0)
    for (std::size_t q = kfirst[0]; q < L; ++q) phantoms += S(0, q) + icd > written_by;
  if (phantoms + pending.size() > ph_cap_) return false;

  // --- Commit.
  for (int i = m; i <= h + 1; ++i) {
    Fifo& f = fifo(i);
    std::uint32_t n_here = 0;
    for (std::size_t q = 1; q < L; ++q) n_here += xloc_[q] == i;
    f.head = static_cast<std::uint16_t>((f.head + n_here) % f.cap);
    f.count = static_cast<std::uint16_t>(f.count - n_here);
    const Cycle free_at = (i <= h ? S(i, L - 1) : C(L - 1)) + 1;
    if (i <= h) {
      f.out = f.ovc = f.want = f.want_vc = -1;
      in_free_[fifo_index(i)] = free_at;
      if (head_stages_) front_since_[fifo_index(i)] = free_at;
      const std::uint32_t nd = node_at(i);
      const int port = i == 0 ? kLocal : kOpposite[xout_[static_cast<std::size_t>(i - 1)]];
      if (f.count == 0) inmask_[nd] &= ~(std::uint64_t{1} << port);
    } else {
      ej_free_[fifo_index(i)] = free_at;
      if (f.count == 0) ejmask_[node_at(h)] &= ~1u;
    }
  }
  const std::uint32_t n0 = node_at(0);
  if (m == 0) {
    const std::size_t pb = static_cast<std::size_t>(n0) * ph_cap_;
    while (ph_count_[n0] && phantom_[pb + ph_head_[n0]] <= t) {
      ph_head_[n0] = ph_head_[n0] + 1 == ph_cap_ ? 0 : ph_head_[n0] + 1;
      --ph_count_[n0];
    }
    for (std::size_t q = kfirst[0]; q < L; ++q) {
      if (S(0, q) + icd <= written_by) continue;
      std::uint32_t pos = ph_head_[n0] + ph_count_[n0];
      if (pos >= ph_cap_) pos -= ph_cap_;
      phantom_[pb + pos] = S(0, q) + icd;
      ++ph_count_[n0];
    }
    // A core waiting for room in its injection buffer wakes as slots free.
    if (ph_count_[n0]) schedule_any(n0, t, phantom_[pb + ph_head_[n0]]);
  }
  NetCounters& nc = counters_[p.net];
  if (U) {
    Source& s = src_[n0];
    s.qhead = p.next;
    if (s.qhead < 0) s.qtail = -1;
    --src_pending_[n0];
    p.written = p.flits;
    src_free_[n0] = W(L - 1) + 1;
    PortStats& ip = inj_port_[n0];
    ip.flits += U;
    if (ip.blocked_since != kNever) {
      ip.blocked += W(kw) - ip.blocked_since;
      ip.blocked_since = kNever;
      inj_blocked -= W(kw) - (t + 1);
    }
    ip.blocked += inj_blocked;
    schedule_any(n0, t, W(L - 1) + 1);
  }
  for (int j = m; j <= h; ++j) {
    const std::size_t first = kfirst[static_cast<std::size_t>(j)];
    const std::uint64_t sends = L - first;
    OutVc& ov = out_[out_index(j)];
    ov.owner = -1;
    ov.credits -= static_cast<std::int32_t>(sends);
    out_free_[out_index(j)] = S(j, L - 1) + 1;
    PortStats& ps = port_[static_cast<std::size_t>(node_at(j)) * kPorts + static_cast<std::size_t>(xout_[static_cast<std::size_t>(j)])];
    ps.flits += sends;
    std::uint64_t b = blocked[static_cast<std::size_t>(j)];
    if (ps.blocked_since != kNever) {
      // The open wait ends with the first send (its own stall is inside).
      const Cycle first_send = S(j, first);
      const Cycle own_ready = std::max(t + 1, xloc_[first] == j ? xready_[first]
                                              : j == 0 ? W(first) + static_cast<Cycle>(inj_latency_)
                                                       : S(j - 1, first) + static_cast<Cycle>(hop_));
      b -= first_send - own_ready;
      b += first_send - ps.blocked_since;
      ps.blocked_since = kNever;
    }
    ps.blocked += b;
    if (j < h) nc.flit_hops += sends;
    schedule_any(node_at(j), t, S(j, L - 1) + 1);
  }
  for (int i = std::max(m, 1); i <= h + 1; ++i) {
    OutVc& ov = out_[out_index(i - 1)];
    const std::size_t first = kfirst[static_cast<std::size_t>(i)];
    if (first >= L) continue;
    if (i - 1 < m) {
      // An output the worm already left: its credits come back one by one.
      if (ov.credits + ov.rcount == 0) schedule_any(node_at(i - 1), t, pop_time(i, first) + cd);
      for (std::size_t q = first; q < L; ++q) {
        std::uint32_t pos = ov.rhead + ov.rcount;
        if (pos >= ov.rcap) pos -= ov.rcap;
        ret_[ov.roff + pos] = pop_time(i, q) + cd;
        ++ov.rcount;
      }
      continue;
    }
    // An output the worm keeps until last_use: returns up to then count now.
    const Cycle after = last_use(i);
    std::vector<Cycle>& keep = xready_;  // reuse as scratch: flit ready times are no longer needed
    keep.clear();
    for (std::uint32_t r = 0; r < ov.rcount; ++r) {
      std::uint32_t pos = ov.rhead + r;
      if (pos >= ov.rcap) pos -= ov.rcap;
      const Cycle back = ret_[ov.roff + pos];
      if (back > after) keep.push_back(back);
      else ++ov.credits;
    }
    for (std::size_t q = first; q < L; ++q) {
      const Cycle back = pop_time(i, q) + cd;
      if (back > after) keep.push_back(back);
      else ++ov.credits;
    }
    ov.rhead = 0;
    ov.rcount = 0;
    for (Cycle back : keep) {
      ret_[ov.roff + ov.rcount] = back;
      ++ov.rcount;
    }
  }
  schedule_any(node_at(h), t, C(L - 1) + 1);
  if (m == 0) {
    p.tail_out = S(0, L - 1);
    defer(S(0, L - 1), slot, kInjected);
  }
  defer(C(L - 1), slot, kDelivered);
  return true;
}

}  // namespace tilempi::hwmodel
