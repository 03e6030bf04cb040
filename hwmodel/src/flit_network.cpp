#include "flit_network.h"

#include <algorithm>
#include <bit>
#include <climits>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "registered_network_models.h"

namespace tilempi::hwmodel {

Chip::FlitNetwork::FlitNetwork(Chip& chip, const Config& c, const Topology& topo)
    : chip_(chip),
      topo_(topo),
      tiles_(topo.num_tiles()),
      vcs_(c.vcs),
      nets_(c.networks),
      classes_(c.vc_classes()),
      ivcs_(kPorts * c.vcs),
      torus_(c.torus),
      hop_(c.router_delay + c.link_latency),
      eject_delay_(c.router_delay + c.ejection_latency),
      credit_delay_(c.credit_delay),
      inj_latency_(c.injection_latency),
      max_flits_(static_cast<std::uint32_t>(c.max_packet_flits)),
      header_flits_(c.header_flits) {
  per_class_ = c.torus ? 1 : c.vcs_per_class;
  const int nodes = nets_ * tiles_;
  nbr_.resize(static_cast<std::size_t>(tiles_) * kMeshDirs);
  wrap_.resize(nbr_.size());
  for (TileId t = 0; t < tiles_; ++t) {
    Coord co = topo.coord(t);
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
  layout_ = layout_for(static_cast<std::size_t>(ivcs_), static_cast<std::size_t>(vcs_), static_cast<std::size_t>(classes_));
  block_lines_.resize(static_cast<std::size_t>(nodes) * (layout_.stride / sizeof(BlockLine)));
  blocks_ = block_lines_.front().bytes;
  for (int n = 0; n < nodes; ++n) {
    unsigned char* b = blocks_ + static_cast<std::size_t>(n) * layout_.stride;
    new (b) Node;
    for (int i = 0; i < ivcs_; ++i) {
      new (b + layout_.in + static_cast<std::size_t>(i) * sizeof(Fifo)) Fifo;
      new (b + layout_.out + static_cast<std::size_t>(i) * sizeof(OutVc)) OutVc;
      for (std::size_t off : {layout_.wait_since, layout_.front_since, layout_.alloc_from, layout_.sa_from})
        new (b + off + static_cast<std::size_t>(i) * sizeof(Cycle)) Cycle{0};
    }
    for (int v = 0; v < vcs_; ++v) {
      new (b + layout_.ej + static_cast<std::size_t>(v) * sizeof(Fifo)) Fifo;
      new (b + layout_.ph + static_cast<std::size_t>(v) * sizeof(PhantomRing)) PhantomRing;
    }
    for (int k = 0; k < classes_; ++k) new (b + layout_.src + static_cast<std::size_t>(k) * sizeof(Source)) Source;
  }
  std::size_t flit_total = 0, ret_total = 0;
  for (int n = 0; n < nodes; ++n) {
    TileId t = n % tiles_;
    Node& nd = block(static_cast<std::uint32_t>(n));
    for (int p = 0; p < kPorts; ++p) {
      bool exists = p == kLocal || nbr_[static_cast<std::size_t>(t) * kMeshDirs + static_cast<std::size_t>(p)] != kNoTile;
      for (int v = 0; v < vcs_; ++v) {
        const int i = p * vcs_ + v;
        Fifo& f = in_vc(nd, i);
        f.cap = static_cast<std::uint16_t>(!exists ? 0 : p == kLocal ? c.injection_buffer_flits : mesh_cap);
        f.off = static_cast<std::uint32_t>(flit_total);
        flit_total += f.cap;
        // Output p feeds the neighbour's input (or the ejection buffer).
        OutVc& o = out_vc(nd, i);
        o.credits = !exists ? 0 : p == kLocal ? c.ejection_buffer_flits : mesh_cap;
        o.back.ring.cap = static_cast<std::uint16_t>(o.credits);
        o.back.ring.off = static_cast<std::uint32_t>(ret_total);
        ret_total += o.back.ring.cap;
      }
    }
    for (int v = 0; v < vcs_; ++v) {
      Fifo& f = ej_vc(nd, v);
      f.cap = static_cast<std::uint16_t>(c.ejection_buffer_flits);
      f.off = static_cast<std::uint32_t>(flit_total);
      flit_total += f.cap;
    }
  }
  if (flit_total > 0xFFFFFFFFu || ret_total > 0xFFFFFFFFu)
    throw ConfigError("input_buffer_flits", "total buffer space too large");
  flits_.resize(flit_total);
  ret_.resize(ret_total);
  head_wait_ = c.speculative ? c.head_stages() : c.routing_delay;
  va_stage_ = !c.speculative && c.vc_alloc_delay > 0;
  va_delay_ = c.vc_alloc_delay;
  head_stages_ = head_wait_ > 0 || va_stage_;
  for (int n = 0; n < nodes; ++n) {
    const int net_base = n - n % tiles_;
    Node& nd = block(static_cast<std::uint32_t>(n));
    nd.tile = n % tiles_;
    for (int d = 0; d < kMeshDirs; ++d) {
      const TileId nb = nbr_[static_cast<std::size_t>(n % tiles_) * kMeshDirs + static_cast<std::size_t>(d)];
      nd.nbr[d] = nb == kNoTile ? 0 : static_cast<std::uint32_t>(net_base + nb);
    }
  }

  int maxd = std::max({hop_ + head_wait_, eject_delay_, credit_delay_, inj_latency_ + head_wait_, va_delay_,
                       inj_credit_delay_, 1}) + 2;
  std::size_t wheel = 1;
  while (wheel < static_cast<std::size_t>(maxd)) wheel <<= 1;
  wheel_.resize(wheel);
  wheel_mask_ = wheel - 1;
  wheel_bits_ = wheel <= 64;
  counters_.resize(static_cast<std::size_t>(nets_));
  {
    const RoutingEntry& re = routing_named(c.routing);
    routing_ = std::string(re.name) == "xy" ? nullptr : &re;
  }
  // (one-step worms follow the XY route)
  fast_ = c.fast_worms && vcs_ == 1 && !routing_;
  sep_va_ = vcs_ > 1 && c.vc_allocator == "separable_input_first";
  sep_sa_ = vcs_ > 1 && c.sw_allocator == "separable_input_first";
  new_heads_ = routing_ != nullptr || sep_va_;
  hold_heads_ = sep_va_ && !routing_;
  rng_ = c.routing_seed;
  if (routing_) opts_.resize(static_cast<std::size_t>(nodes) * static_cast<std::size_t>(ivcs_));
  if (sep_va_) {
    va_in_rr_.assign(static_cast<std::size_t>(nodes) * static_cast<std::size_t>(ivcs_), 0);
    // (so that the first packet takes the class's first VC)
    inj_last_.assign(static_cast<std::size_t>(nodes) * static_cast<std::size_t>(classes_),
                     static_cast<std::uint8_t>(per_class_ - 1));
  }
  inj_credit_delay_ = c.injection_credit_delay;
  if (fast_) {
    in_free_.assign(static_cast<std::size_t>(nodes) * static_cast<std::size_t>(ivcs_), 0);
    ej_free_.assign(static_cast<std::size_t>(nodes) * static_cast<std::size_t>(vcs_), 0);
    out_free_.assign(in_free_.size(), 0);
    src_free_.assign(static_cast<std::size_t>(nodes), 0);
  }
  if (fast_ || inj_credit_delay_ > 0) {
    ph_cap_ = static_cast<std::uint32_t>(c.injection_buffer_flits);
    const std::size_t rings = static_cast<std::size_t>(nodes) * static_cast<std::size_t>(vcs_);
    phantom_.assign(rings * ph_cap_, 0);
  }
  // The common shape (one VC per port on a mesh, a wheel of at most 64 slots) runs a router cycle
  // compiled for it, with the pipeline's options as constants; any other chip runs the general
  // one.
  run_routers_ = &FlitNetwork::run_routers<General>;
  bool credit_bits = false;
  if ((vcs_ == 2 || vcs_ == 4) && per_class_ == vcs_ && !torus_ && !fast_ && wheel_bits_) {
    // Several VCs of one class on a mesh (BookSim's configurations with several VCs).
    static_assert(layout_for(kPorts * 2, 2, 1).stride % alignof(Node) == 0 &&
                  layout_for(kPorts * 4, 4, 1).stride % alignof(Node) == 0);
    const bool ic = inj_credit_delay_ > 0;
    if (vcs_ == 2) ic ? choose_vcs<2, true>() : choose_vcs<2, false>();
    else ic ? choose_vcs<4, true>() : choose_vcs<4, false>();
    credit_bits = true;
  }
  if (vcs_ == 1 && !torus_ && wheel_bits_ && !routing_) {
    static_assert(layout_for(kPorts, 1, 1).stride % alignof(Node) == 0);  // (the OneVc shape's block: vcs_ == 1)
    const bool ic = inj_credit_delay_ > 0;
    if (head_stages_) {
      if (va_stage_) ic ? choose_one_vc<true, true, true>() : choose_one_vc<true, true, false>();
      else ic ? choose_one_vc<true, false, true>() : choose_one_vc<true, false, false>();
    } else {
      if (va_stage_) ic ? choose_one_vc<false, true, true>() : choose_one_vc<false, true, false>();
      else ic ? choose_one_vc<false, false, true>() : choose_one_vc<false, false, false>();
    }
    credit_bits = !fast_;
  }
  if (credit_bits) {
    // Credits on their way back as bits (OutVc::soon; credit_delay_ < 64 with this wheel), no ring.
    for (int n = 0; n < nodes; ++n)
      for (int i = 0; i < ivcs_; ++i) out_vc(block(static_cast<std::uint32_t>(n)), i).back.soon = 0;
    ret_ = std::vector<Cycle>();
  }
}

template <bool HeadStages, bool VaStage, bool InjCredit>
void Chip::FlitNetwork::choose_one_vc() {
  run_routers_ = fast_ ? &FlitNetwork::run_routers<OneVc<HeadStages, VaStage, InjCredit, true>>
                       : &FlitNetwork::run_routers<OneVc<HeadStages, VaStage, InjCredit, false>>;
}

template <int V, bool InjCredit>
void Chip::FlitNetwork::choose_vcs() {
  if (head_stages_) {
    run_routers_ = va_stage_ ? &FlitNetwork::run_routers<Vcs<V, true, true, InjCredit>>
                             : &FlitNetwork::run_routers<Vcs<V, true, false, InjCredit>>;
  } else {
    run_routers_ = va_stage_ ? &FlitNetwork::run_routers<Vcs<V, false, true, InjCredit>>
                             : &FlitNetwork::run_routers<Vcs<V, false, false, InjCredit>>;
  }
}

void Chip::FlitNetwork::defer(Cycle at, std::uint32_t id, std::uint8_t kind) { deferred_.push(Deferred{at, seq_++, id, kind}); }


std::uint32_t Chip::FlitNetwork::alloc_packet() {
  if (!free_slots_.empty()) {
    std::uint32_t s = free_slots_.back();
    free_slots_.pop_back();
    return s;
  }
  if (pkts_.size() >= (std::size_t{1} << 30)) throw std::length_error("too many packets in flight");
  pkts_.emplace_back();
  link_wait_.emplace_back();
  if (routing_) route_state_.emplace_back();
  return static_cast<std::uint32_t>(pkts_.size() - 1);
}

PacketId Chip::FlitNetwork::inject(int network, TileId src, TileId dst, std::uint32_t payload_flits, Cycle at,
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
  if (routing_) {
    PacketRoute& rs = route_state_[slot];
    rs = PacketRoute{};
    if (routing_->choose) routing_->choose(rs, topo_, src, dst, rng_);
  }
  pending_.push(Pending{at, seq_++, slot});
  ++live_packets_;
  ++counters_[static_cast<std::size_t>(network)].injected;
  return p.id;
}

Cycle Chip::FlitNetwork::next_event_cycle(Cycle from) const {
  Cycle best = pending_.empty() ? kNever : pending_.top().at;
  best = std::min(best, deferred_.first());
  if (quiet_end_ >= from && quiet_end_ > 0) best = std::min(best, quiet_end_);  // (0: none; a reservation ends after cycle 0)
  if (wheel_count_ > 0) {
    for (Cycle c = from; c < from + wheel_.size() && c < best; ++c)
      if (!wheel_[c & wheel_mask_].empty()) return c;
  }
  return best;
}

void Chip::FlitNetwork::hold_ejection(int network, TileId tile, bool hold) {
  if (network < 0 || network >= nets_ || !topo_.valid(tile))
    throw std::invalid_argument("hold_ejection: bad network or tile");
  std::uint32_t n = node(network, tile);
  block(n).held = hold ? 1 : 0;
  if (!hold && block(n).ejmask) schedule(n, chip_.now_);
}

void Chip::FlitNetwork::run_until(Cycle c) {
  for (;;) {
    Cycle t = next_event_cycle(chip_.now_);
    if (t == kNever || t > c) break;
    chip_.now_ = t + 1;  // callbacks of cycle t may inject from t + 1 on
    while (!pending_.empty() && pending_.top().at == t) {
      std::uint32_t slot = pending_.top().slot;
      pending_.pop();
      Packet& p = pkts_[slot];
      std::uint32_t n = node(p.net, p.src);
      Source& s = source(block(n), p.cls);
      if (s.qtail >= 0) pkts_[static_cast<std::size_t>(s.qtail)].next = static_cast<std::int32_t>(slot);
      else s.qhead = static_cast<std::int32_t>(slot);
      s.qtail = static_cast<std::int32_t>(slot);
      ++block(n).src_pending;
      schedule(n, t);
    }
    deferred_.advance(t);
    if (deferred_.first() == t) {
      for (const Deferred& d : deferred_.at(t)) {
        if (d.kind == kWake) schedule(d.id, t);
        else note_event(d.id, d.kind);
      }
      deferred_.take(t);
    }
    WakeBucket& bucket = wheel_[t & wheel_mask_];
    cycle_mod_ports_ = static_cast<int>(t % kPorts);
    (this->*run_routers_)(bucket, t);
    wheel_count_ -= bucket.size();
    bucket.clear();
    if (!cycle_events_.empty()) report_cycle_events(t);
    // Worms whose head was read this cycle continue in one step, from the
    // state at the end of the cycle.
    for (std::size_t k = 0; k < one_step_todo_.size(); ++k) one_step_worm(one_step_todo_[k], t);
    one_step_todo_.clear();
  }
  if (c != kNever && chip_.now_ < c + 1) chip_.now_ = c + 1;
}


// The head at the front of input VC f begins (or goes on) waiting for a link that another
// packet holds (PacketEvent::link_wait); `since` is the VC's wait_since.
inline void Chip::FlitNetwork::link_wait_begin(Fifo& f, Cycle& since, Cycle t) {
  if (!f.conflict) {
    f.conflict = 1;
    since = t;
  }
}

// Credit return: a slot of the buffer fed by output `out_index` of `up_node` was freed at t.
template <class M>
inline void Chip::FlitNetwork::credit_return(std::uint32_t up_node, int out_index, Cycle t) {
  OutVc& ov = out_vc<M>(block<M>(up_node), out_index);
  const Cycle at = t + static_cast<Cycle>(credit_delay_);
  // A router that ran out of credit sleeps until this credit comes back; with
  // credit or earlier returns still pending it wakes (or is awake) anyway.
  if constexpr (M::credit_bits) {
    if (ov.back.soon == 0) {
      if (ov.credits == 0) wake<M>(up_node, at);
      ov.next_ret = at;
      ov.back.soon = 1;
    } else {
      // Bits of credits due long ago: taken in, so that the others arrive before `at`.
      if (at - ov.next_ret >= 64) credit_ready<M>(ov, t);
      if (ov.back.soon == 0) ov.next_ret = at;
      ov.back.soon |= std::uint64_t{1} << (at - ov.next_ret);
    }
  } else {
    if (ov.credits + ov.rcount == 0) wake<M>(up_node, at);
    credit_on_way(ov, at);
  }
}

void Chip::FlitNetwork::report_cycle_events(Cycle t) {
  if (cycle_events_.size() > 1) std::sort(cycle_events_.begin(), cycle_events_.end());
  // (A callback may inject: that takes a free slot, never one of these, whose packets are in
  // flight until their own delivery here frees them.)
  for (const CycleEvent& ev : cycle_events_) {
    const std::uint32_t slot = ev.slot;
    if (ev.key >> 56 == kInjected) {
      const Packet& p = pkts_[slot];
      if (chip_.on_injected_)
        chip_.on_injected_(
            PacketEvent{p.id, p.tag, p.net, p.src, p.dst, t, p.created, p.head_in, p.flits, link_wait_[slot]});
    } else {
      deliver(slot, t);
    }
  }
  cycle_events_.clear();
}

void Chip::FlitNetwork::deliver(std::uint32_t slot, Cycle t) {
  Packet& p = pkts_[slot];
  const Cycle link_wait = link_wait_[slot];
  // (through a two-phase routing's intermediate tile, the hops it took)
  const TileId mid = routing_ ? route_state_[slot].mid : kNoTile;
  const int hops = mid == kNoTile ? topo_.hops(p.src, p.dst) : topo_.hops(p.src, mid) + topo_.hops(mid, p.dst);
  count_delivery(counters_[p.net], PacketRecord{p.id, p.tag, p.src, p.dst, p.net, static_cast<int>(p.flits), hops,
                                                p.created, p.head_in, p.tail_out, t, link_wait});
  PacketEvent ev{p.id, p.tag, p.net, p.src, p.dst, t, p.created, p.head_in, p.flits, link_wait};
  free_slots_.push_back(slot);
  --live_packets_;
  if (chip_.on_delivered_) chip_.on_delivered_(ev);
}

// The routers woken for cycle t, each once (a router may be in its bucket twice). The bucket may
// grow while it is processed (a credit back in the same cycle), hence the index.
template <class M>
void Chip::FlitNetwork::run_routers(WakeBucket& bucket, Cycle t) {
  for (std::size_t k = 0; k < bucket.size(); ++k) {
    const std::uint32_t n = bucket[k];
    Node& nd = block<M>(n);
    if (k + 1 < bucket.size()) prefetch_block<M>(bucket[k + 1]);
    nd.queued &= ~(std::uint64_t{1} << (t & wheel_mask_));  // (0 unless wheel_bits_)
    if (nd.last_proc == t) continue;
    nd.last_proc = t;
    // A router with no flit in its buffers and nothing queued at its core has nothing to do (its
    // cycle would change nothing, not even a statistic): woken for a credit or for the end of a
    // one-step worm's reservation that nobody waits for.
    if ((nd.inmask | nd.ejmask | nd.src_pending) == 0) continue;
    router_cycle<M>(n, t);
  }
}

// The lines of router n's block that its cycle reads (the Node's first two, its VC entries, the
// VA and SA time stamps), fetched while the router before it in the bucket runs: they are
// rarely still in the first-level cache, every other router ran since.
template <class M>
void Chip::FlitNetwork::prefetch_block(std::uint32_t n) const {
  const BlockLayout& L = layout<M>();
  const unsigned char* b = reinterpret_cast<const unsigned char*>(&block<M>(n));
  __builtin_prefetch(b);
  __builtin_prefetch(b + 64);
  for (std::size_t off = L.in; off < L.wait_since; off += 64) __builtin_prefetch(b + off);
  for (std::size_t off = L.alloc_from & ~std::size_t{63}; off < L.stride; off += 64) __builtin_prefetch(b + off);
}

// One router in one cycle: its stages in pipeline order. Each input VC's front flit asks for
// the stage it is at (route computation for a new head, VC allocation for a routed head, switch
// allocation for a flit with an output VC); then VC allocation and switch allocation grant, the
// winners traverse the switch (their freed slots' credits return upstream), and the core reads
// from its ejection buffers and writes into its injection buffers.
template <class M>
void Chip::FlitNetwork::router_cycle(std::uint32_t n, Cycle t) {
  const Shape S = shape<M>();
  ++activations_;
  Node& nd = block<M>(n);
  RouterCycle<M> r;
  r.n = n;
  r.t = t;
  r.nd = &nd;
  r.base = static_cast<std::size_t>(n) * static_cast<std::size_t>(S.ivcs);
  requests<M>(r);
  if (r.va_mask) vc_allocation<M>(r);
  if (r.demand) {
    if constexpr (!M::fixed) {
      if (sep_sa_) switch_allocation_separable<M>(r);
      else switch_allocation<M>(r);
    } else {
      switch_allocation<M>(r);
    }
  }
  if (nd.ejmask && !nd.held) ejection<M>(r);
  if (nd.src_pending) {
    if (!S.fast || t >= src_free_[n]) injection<M>(r);
    else r.wake = std::min(r.wake, src_free_[n]);  // the core writes again when a one-step worm's flits are out
  }
  schedule_next<M>(r);
}

template <class M>
void Chip::FlitNetwork::requests(RouterCycle<M>& r) {
  const Shape S = shape<M>();
  const Cycle t = r.t;
  std::uint64_t scan = r.nd->inmask;
  if constexpr (M::fixed) {
    // Heads that wait for an output another worm holds stay as they are until its tail leaves
    // (switch_traversal lets them ask again): they are not looked at, only their demand counts.
    scan &= ~r.nd->held_in;
    if constexpr (!M::shape.va_stage) r.demand |= static_cast<unsigned>(r.nd->held_outs);
  } else if constexpr (M::const_shape) {
    // The same for the heads head_request() holds (hold_heads_; else none is held).
    scan &= ~r.nd->held_in;
    if constexpr (!M::shape.va_stage) r.demand |= static_cast<unsigned>(r.nd->held_outs);
  }
  for (std::uint64_t m = scan; m; m &= m - 1) {
    const int i = std::countr_zero(m);
    Fifo& f = in_vc<M>(*r.nd, i);
    if (f.front_ready > t) continue;
    if (S.fast && t < in_free_[r.base + static_cast<std::size_t>(i)]) {  // behind a one-step worm
      r.wake = std::min(r.wake, in_free_[r.base + static_cast<std::size_t>(i)]);
      continue;
    }
    if (f.out >= 0) {
      // A flit with an output VC (a body flit, or a head past VC allocation) asks for the switch.
      // (A body flit's worm passed VC allocation before its head left: only a head may wait.)
      if (S.head_stages && (f.front_code & 1u) && sa_from<M>(*r.nd, i) > t) {
        r.wake = std::min(r.wake, sa_from<M>(*r.nd, i));  // a head still in VC allocation
        continue;
      }
      const int o = f.out;
      OutVc& ov = out_vc<M>(*r.nd, o * S.vcs + ovc_of<M>(f));
      r.demand |= 1u << o;
      if (credit_ready<M>(ov, t)) {
        r.cand[o] |= static_cast<typename RouterCycle<M>::Mask>(std::uint64_t{1} << i);
        r.with |= 1u << o;
      } else {
        r.wake = std::min(r.wake, ov.next_ret);
      }
      continue;
    }
    if (f.want < 0) route_computation<M>(r, i, f);
    if (S.head_stages && alloc_from<M>(*r.nd, i) > t) {
      r.wake = std::min(r.wake, alloc_from<M>(*r.nd, i));  // still in route computation
      continue;
    }
    if constexpr (!M::fixed) {
      if (new_heads_) {
        head_request<M>(r, i, f);
        continue;
      }
    }
    const int o = f.want;
    if (f.any_vc) f.want_vc = static_cast<std::int8_t>(choose_vc<M>(r, f, o, t));
    const int ovi = o * S.vcs + f.want_vc;
    OutVc& ov = out_vc<M>(*r.nd, ovi);
    // Reserved by a one-step worm: the head asks again when the reservation ends.
    if (S.fast && t < out_free_[r.base + static_cast<std::size_t>(ovi)]) {
      if (o != kLocal) link_wait_begin(f, wait_since<M>(*r.nd, i), t);
      r.wake = std::min(r.wake, out_free_[r.base + static_cast<std::size_t>(ovi)]);
      continue;
    }
    if (S.va_stage) {
      // The head asks for its output VC; vc_allocation() grants it if it is free.
      if (ov.owner < 0) {
        va_req_[ovi] |= std::uint64_t{1} << i;
        r.va_mask |= std::uint64_t{1} << ovi;
      } else {
        r.held_up |= f.any_vc ? ((std::uint64_t{1} << S.per_class) - 1) << (o * S.vcs + f.want_vc) : std::uint64_t{1} << ovi;
        if (o != kLocal) link_wait_begin(f, wait_since<M>(*r.nd, i), t);  // another input's worm holds the link
        if constexpr (M::fixed) hold_head(*r.nd, i, o);
      }
      continue;
    }
    // No VC allocation stage: the head takes its output VC together with the switch.
    r.demand |= 1u << o;
    if (ov.owner < 0) {
      if (credit_ready<M>(ov, t)) {
        r.cand[o] |= static_cast<typename RouterCycle<M>::Mask>(std::uint64_t{1} << i);
        r.with |= 1u << o;
      } else {
        r.wake = std::min(r.wake, ov.next_ret);
        // The buffer behind the link still holds the last worm's flits: a
        // conflict if that worm came from another source.
        if (o != kLocal && ov.last_src != pkts_[f.front_code >> 2].src) link_wait_begin(f, wait_since<M>(*r.nd, i), t);
      }
    } else {
      r.held_up |= f.any_vc ? ((std::uint64_t{1} << S.per_class) - 1) << (o * S.vcs + f.want_vc) : std::uint64_t{1} << ovi;
      if (o != kLocal) link_wait_begin(f, wait_since<M>(*r.nd, i), t);  // another input's worm holds the link
      if constexpr (M::fixed) hold_head(*r.nd, i, o);
    }
  }
}

// Route computation of the head at the front of input VC i, once: its output port (XY) and
// output VC (its class; on a torus the dateline VC). With an RC stage the head may ask for
// the next stage routing_delay cycles after it reached the front of its input VC.
template <class M>
void Chip::FlitNetwork::route_computation(const RouterCycle<M>& r, int i, Fifo& f) {
  const Shape S = shape<M>();
  const Packet& p = pkts_[f.front_code >> 2];
  if constexpr (!M::fixed) {
    if (routing_) {
      // The routing function's options, kept for the head's requests; f.want marks them computed.
      const std::uint32_t slot = f.front_code >> 2;
      const int class_first = p.cls * S.per_class;
      const RouteAt h{r.nd->tile, p.src, p.dst, port_of<M>(i), vc_of<M>(i) - class_first, S.per_class};
      Options& os = opts_[r.base + static_cast<std::size_t>(i)];
      os.n = static_cast<std::uint8_t>(routing_->route(topo_, h, route_state_[slot], os.o));
      f.want = os.o[0].port;
      f.want_vc = static_cast<std::int8_t>(class_first + os.o[0].vc_first);
      f.any_vc = 0;
      if (S.head_stages)
        alloc_from<M>(*r.nd, i) = std::max(f.front_ready, front_since<M>(*r.nd, i)) + static_cast<Cycle>(head_wait_);
      return;
    }
  }
  const int o = static_cast<int>(route(r.nd->tile, p.dst));
  int ovc;
  if (!S.torus) {
    ovc = p.cls * S.per_class;
    f.any_vc = S.per_class > 1;
  } else if (o == kLocal) {
    ovc = 2 * p.cls;
  } else {
    // Dateline VCs: a packet starts each dimension on the even VC of its
    // class and moves to the odd one after crossing the wrap-around link.
    const int in_port = port_of<M>(i);
    const bool same_dim = in_port != kLocal && (in_port / 2) == (o / 2);
    int bit = same_dim ? (vc_of<M>(i) & 1) : 0;
    if (wrap_[static_cast<std::size_t>(r.nd->tile) * kMeshDirs + static_cast<std::size_t>(o)]) bit = 1;
    ovc = 2 * p.cls + bit;
  }
  f.want = static_cast<std::int8_t>(o);
  f.want_vc = static_cast<std::int8_t>(ovc);
  if (S.head_stages) {
    alloc_from<M>(*r.nd, i) = std::max(f.front_ready, front_since<M>(*r.nd, i)) + static_cast<Cycle>(head_wait_);
  }
}

// Per-hop VC allocation (vcs_per_class > 1): the head asks for a free VC of its class at
// output o, one with a credit if there is one, the first of the class if none is free.
template <class M>
int Chip::FlitNetwork::choose_vc(const RouterCycle<M>& r, const Fifo& f, int o, Cycle t) {
  const Shape S = shape<M>();
  const int first = f.want_vc - f.want_vc % S.per_class;
  int free_vc = -1;
  for (int v = first; v < first + S.per_class; ++v) {
    OutVc& ov = out_vc<M>(*r.nd, o * S.vcs + v);
    if (ov.owner >= 0) continue;
    if (S.va_stage || credit_ready<M>(ov, t)) return v;
    if (free_vc < 0) free_vc = v;
  }
  return free_vc >= 0 ? free_vc : first;
}

// A head past route computation asks for an output VC (general shape, with a routing function
// other than xy or vc_allocator=separable_input_first). Its options (the routing function's, or
// the xy route with the class's VCs) give the output VCs it may take; of the options with a free
// VC, only those of the highest priority count (an adaptive routing's escape VC is the last
// resort). With a VA stage the head asks vc_allocation() for one free VC: with the separable
// input-first allocator the next one round robin after the one it got last (BookSim's input
// arbiter), else the one with the most credits. Without a VA stage it takes a VC with the switch:
// the free VC with a credit of the highest priority and the most credits, else it waits for the
// credit of the first free VC.
template <class M>
void Chip::FlitNetwork::head_request(RouterCycle<M>& r, int i, Fifo& f) {
  const Shape S = shape<M>();
  const Cycle t = r.t;
  Node& nd = *r.nd;
  const Packet& p = pkts_[f.front_code >> 2];
  struct Opt {
    int port, first, count, pri;
  };
  Opt op[kMaxRouteOptions] = {};
  int n = 1;
  if (routing_) {
    const Options& os = opts_[r.base + static_cast<std::size_t>(i)];
    n = os.n;
    const int class_first = p.cls * S.per_class;
    for (int k = 0; k < n; ++k)
      op[k] = Opt{os.o[k].port, class_first + os.o[k].vc_first, os.o[k].vc_count, os.o[k].priority};
  } else if (f.any_vc) {
    op[0] = Opt{f.want, p.cls * S.per_class, S.per_class, 0};
  } else {
    op[0] = Opt{f.want, f.want_vc, 1, 0};
  }
  std::uint64_t all = 0;  // every output VC of the options
  bool link = false;      // some option leaves by a link (not the ejection port)
  for (int k = 0; k < n; ++k) {
    all |= ((std::uint64_t{1} << op[k].count) - 1) << (op[k].port * S.vcs + op[k].first);
    link |= op[k].port != kLocal;
  }
  if (S.va_stage) {
    std::uint64_t req = 0;
    int best = INT_MIN;
    for (int k = 0; k < n; ++k) {
      std::uint64_t free_vcs = 0;
      for (int v = op[k].first; v < op[k].first + op[k].count; ++v) {
        const int ovi = op[k].port * S.vcs + v;
        if (out_vc<M>(nd, ovi).owner < 0) free_vcs |= std::uint64_t{1} << ovi;
      }
      if (!free_vcs) continue;
      if (op[k].pri > best) {
        best = op[k].pri;
        req = free_vcs;
      } else if (op[k].pri == best) {
        req |= free_vcs;
      }
    }
    if (!req) {  // every VC it may take is held by another worm
      r.held_up |= all;
      if (link) link_wait_begin(f, wait_since<M>(nd, i), t);
      if constexpr (M::const_shape) {
        if (hold_heads_) hold_head(nd, i, op[0].port);
      }
      return;
    }
    int ovi;
    if (sep_va_) {
      const unsigned pos = va_in_rr_[r.base + static_cast<std::size_t>(i)];
      const std::uint64_t hi = pos >= 64 ? 0 : req & (~std::uint64_t{0} << pos);
      ovi = std::countr_zero(hi ? hi : req);
    } else {
      ovi = std::countr_zero(req);
      int most = -1;
      for (std::uint64_t m = req; m; m &= m - 1) {
        const int v = std::countr_zero(m);
        OutVc& ov = out_vc<M>(nd, v);
        credit_ready<M>(ov, t);
        if (ov.credits > most) {
          most = ov.credits;
          ovi = v;
        }
      }
    }
    va_req_[ovi] |= std::uint64_t{1} << i;
    r.va_mask |= std::uint64_t{1} << ovi;
    return;
  }
  int best_ovi = -1, best_pri = INT_MIN, best_credits = -1, wait_ovi = -1, wait_pri = INT_MIN;
  for (int k = 0; k < n; ++k)
    for (int v = op[k].first; v < op[k].first + op[k].count; ++v) {
      const int ovi = op[k].port * S.vcs + v;
      OutVc& ov = out_vc<M>(nd, ovi);
      if (ov.owner >= 0) continue;
      if (credit_ready<M>(ov, t)) {
        if (op[k].pri > best_pri || (op[k].pri == best_pri && ov.credits > best_credits)) {
          best_ovi = ovi;
          best_pri = op[k].pri;
          best_credits = ov.credits;
        }
      } else if (op[k].pri > wait_pri) {
        wait_ovi = ovi;
        wait_pri = op[k].pri;
      }
    }
  if (best_ovi >= 0) {
    const int o = best_ovi / S.vcs;
    f.want = static_cast<std::int8_t>(o);
    f.want_vc = static_cast<std::int8_t>(best_ovi % S.vcs);
    r.demand |= 1u << o;
    r.cand[o] |= static_cast<typename RouterCycle<M>::Mask>(std::uint64_t{1} << i);
    r.with |= 1u << o;
    return;
  }
  if (wait_ovi >= 0) {
    const int o = wait_ovi / S.vcs;
    OutVc& ov = out_vc<M>(nd, wait_ovi);
    f.want = static_cast<std::int8_t>(o);
    f.want_vc = static_cast<std::int8_t>(wait_ovi % S.vcs);
    r.demand |= 1u << o;
    r.wake = std::min(r.wake, ov.next_ret);
    // The buffer behind the link still holds the last worm's flits: a conflict if that worm came
    // from another source.
    if (o != kLocal && ov.last_src != p.src) link_wait_begin(f, wait_since<M>(nd, i), t);
    return;
  }
  r.demand |= 1u << op[0].port;  // (the output whose statistics count the wait)
  r.held_up |= all;
  if (link) link_wait_begin(f, wait_since<M>(nd, i), t);
  if constexpr (M::const_shape) {
    if (hold_heads_) hold_head(nd, i, op[0].port);
  }
}

// VC allocation: each free output VC that heads asked for goes to one of them, round robin;
// the winner may ask for the switch vc_alloc_delay cycles later.
template <class M>
void Chip::FlitNetwork::vc_allocation(RouterCycle<M>& r) {
  const Shape S = shape<M>();
  const Cycle t = r.t;
  for (std::uint64_t m = r.va_mask; m; m &= m - 1) {
    const int ovi = std::countr_zero(m);
    OutVc& ov = out_vc<M>(*r.nd, ovi);
    const std::uint64_t req = va_req_[ovi];
    va_req_[ovi] = 0;
    const std::uint64_t hi = ov.va_rr >= 64 ? 0 : req & (~std::uint64_t{0} << ov.va_rr);
    const int i = std::countr_zero(hi ? hi : req);
    ov.va_rr = static_cast<std::uint16_t>(i + 1);
    ov.owner = static_cast<std::int16_t>(i);
    if constexpr (!M::fixed) {
      if (sep_va_) va_in_rr_[r.base + static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(ovi + 1);
    }
    Fifo& f = in_vc<M>(*r.nd, i);
    f.out = static_cast<std::int8_t>(ovi / S.vcs);
    f.ovc = static_cast<std::int8_t>(ovi % S.vcs);
    f.want = f.want_vc = -1;
    f.any_vc = 0;
    // (last_src is read only by a router without a VA stage)
    if (f.conflict) {
      link_wait_[f.front_code >> 2] += t - wait_since<M>(*r.nd, i);
      f.conflict = 0;
    }
    if (req & (req - 1)) r.retry = true;  // the losers ask again next cycle
    if (f.out != kLocal)  // the other heads lost the link to this packet
      for (std::uint64_t l = req & ~(std::uint64_t{1} << i); l; l &= l - 1)
        link_wait_begin(in_vc<M>(*r.nd, std::countr_zero(l)), wait_since<M>(*r.nd, std::countr_zero(l)), t);
    sa_from<M>(*r.nd, i) = t + static_cast<Cycle>(va_delay_);
    r.wake = std::min(r.wake, sa_from<M>(*r.nd, i));
  }
}

// Switch allocation: each output sends at most one flit, each input port forwards at most one
// flit per cycle. Outputs are served in an order that rotates with the cycle; each picks among
// its requesting input VCs round robin. Every winner traverses the switch.
template <class M>
void Chip::FlitNetwork::switch_allocation(RouterCycle<M>& r) {
  const Shape S = shape<M>();
  const Cycle t = r.t;
  std::uint64_t excluded = 0;  // input VCs of ports that already sent this cycle
  std::uint64_t asked = 0, granted = 0;
  unsigned served = r.demand;
  if constexpr (M::fixed) {
    // One VC per port: an input VC asks for one output, so a grant never excludes another
    // output's candidate. The demanded outputs without a candidate wait; only those with
    // candidates are served (fewer branches that go either way).
    // (A wait that began stays: an open one is a past cycle, none is kNever. Every output is
    // written, without a branch that goes either way.)
    const unsigned waits = r.demand & ~r.with;
    for (int o = 0; o < kPorts; ++o) {
      Cycle& since = r.nd->blocked_since[o];
      since = (waits >> o) & 1u ? std::min(since, t) : since;
    }
    served = r.with;
  }
  // Outputs in the order first, first + 1, ... (mod kPorts): the demanded ones, rotated.
  const int first = cycle_mod_ports_;
  const unsigned all = (1u << kPorts) - 1;
  for (unsigned rot = ((served >> first) | (served << (kPorts - first))) & all; rot; rot &= rot - 1) {
    int o = first + std::countr_zero(rot);
    if (o >= kPorts) o -= kPorts;
    Node& nd = *r.nd;
    asked |= r.cand[o];
    const std::uint64_t c = r.cand[o] & ~excluded;
    if (!M::fixed && !c) {
      if (nd.blocked_since[o] == kNever) nd.blocked_since[o] = t;
      continue;
    }
    // Round robin: first candidate at or after the pointer.
    const std::uint64_t hi = nd.rr[o] >= 64 ? 0 : c & (~std::uint64_t{0} << nd.rr[o]);
    const int i = std::countr_zero(hi ? hi : c);
    nd.rr[o] = static_cast<std::uint16_t>(i + 1);
    if constexpr (M::fixed) {
      nd.blocked[o] += nd.blocked_since[o] != kNever ? t - nd.blocked_since[o] : 0;  // (no branch)
      nd.blocked_since[o] = kNever;
    } else if (nd.blocked_since[o] != kNever) {
      nd.blocked[o] += t - nd.blocked_since[o];
      nd.blocked_since[o] = kNever;
    }
    ++nd.flits[o];
    granted |= std::uint64_t{1} << i;
    excluded |= port_mask<M>(i);
    if ((c & (c - 1)) && o != kLocal) {
      // The other candidates lost the link to this packet: heads (a candidate
      // of another VC may be a worm's body) of another source wait for it.
      const Fifo& f = in_vc<M>(nd, i);
      const TileId winner = pkts_[f.front_code >> 2].src;
      for (std::uint64_t m = c & ~(std::uint64_t{1} << i); m; m &= m - 1) {
        const int j = std::countr_zero(m);
        Fifo& fj = in_vc<M>(nd, j);
        if (fj.out < 0 && (S.vcs == 1 || pkts_[fj.front_code >> 2].src != winner))
          link_wait_begin(fj, wait_since<M>(nd, j), t);
      }
    }
    switch_traversal<M>(r, i, o);
  }
  if (asked & ~granted) r.retry = true;  // candidates that lost ask again next cycle
}

// Switch allocation by BookSim's separable input-first allocator, one iteration
// (sw_allocator=separable_input_first, several VCs per port): each input port picks, per output,
// one of its VCs asking for it (round robin after the VC it last sent from), then one of those
// outputs (round robin after the output it last won); each output grants one of the ports that
// picked it (round robin after the port it last granted). A port that loses at its output sends
// nothing this cycle, even if another of its VCs could have used another output.
template <class M>
void Chip::FlitNetwork::switch_allocation_separable(RouterCycle<M>& r) {
  const Shape S = shape<M>();
  const Cycle t = r.t;
  Node& nd = *r.nd;
  int pick[kPorts][kPorts];       // [port][output]: the VC the port puts forward for the output
  unsigned asks[kPorts] = {};     // per port: outputs some VC of it asks for
  unsigned proposers[kPorts] = {};  // per output: ports whose input arbiter picked it
  std::uint64_t asked = 0, granted = 0;
  for (unsigned w = r.with; w; w &= w - 1) {
    const int o = std::countr_zero(w);
    const std::uint64_t c = r.cand[o];
    asked |= c;
    // (only the ports with a candidate: most outputs have one or two)
    for (std::uint64_t rest = c; rest;) {
      const int pt = port_of<M>(std::countr_zero(rest));
      rest &= ~port_mask_[pt];
      const std::uint64_t m = (c & port_mask_[pt]) >> (pt * S.vcs);
      const unsigned pos = nd.sa_vc_rr[pt];
      const std::uint64_t hi = pos >= 64 ? 0 : m & (~std::uint64_t{0} << pos);
      pick[pt][o] = std::countr_zero(hi ? hi : m);
      asks[pt] |= 1u << o;
    }
  }
  for (int pt = 0; pt < kPorts; ++pt) {
    if (!asks[pt]) continue;
    const unsigned pos = nd.sa_in_rr[pt];
    const unsigned hi = pos >= kPorts ? 0 : asks[pt] & (~0u << pos);
    proposers[std::countr_zero(hi ? hi : asks[pt])] |= 1u << pt;
  }
  for (int o = 0; o < kPorts; ++o) {
    if (!((r.demand >> o) & 1u)) continue;
    if (!proposers[o]) {  // a flit waits for this output and none crosses it
      if (nd.blocked_since[o] == kNever) nd.blocked_since[o] = t;
      continue;
    }
    const unsigned pos = nd.rr[o];
    const unsigned hi = pos >= kPorts ? 0 : proposers[o] & (~0u << pos);
    const int pt = std::countr_zero(hi ? hi : proposers[o]);
    const int v = pick[pt][o];
    const int i = pt * S.vcs + v;
    nd.rr[o] = static_cast<std::uint16_t>(pt + 1);
    nd.sa_in_rr[pt] = o + 1;
    nd.sa_vc_rr[pt] = v + 1;
    if (nd.blocked_since[o] != kNever) {
      nd.blocked[o] += t - nd.blocked_since[o];
      nd.blocked_since[o] = kNever;
    }
    ++nd.flits[o];
    granted |= std::uint64_t{1} << i;
    const std::uint64_t c = r.cand[o];
    if ((c & (c - 1)) && o != kLocal) {
      // The other candidates lost the link to this packet: heads of another source wait for it.
      const TileId winner = pkts_[in_vc<M>(nd, i).front_code >> 2].src;
      for (std::uint64_t m = c & ~(std::uint64_t{1} << i); m; m &= m - 1) {
        const int j = std::countr_zero(m);
        Fifo& fj = in_vc<M>(nd, j);
        if (fj.out < 0 && pkts_[fj.front_code >> 2].src != winner) link_wait_begin(fj, wait_since<M>(nd, j), t);
      }
    }
    switch_traversal<M>(r, i, o);
  }
  if (asked & ~granted) r.retry = true;  // candidates that lost ask again next cycle
}

// The front flit of input VC i crosses the switch to output o: it leaves its input buffer
// (the slot's credit returns upstream), the output VC follows the worm (taken by a head that
// had no VA stage, released by the tail), and the flit is written into the next router's
// input buffer, or the ejection buffer, where it is visible router_delay (+ link or ejection
// latency) cycles later.
template <class M>
void Chip::FlitNetwork::switch_traversal(RouterCycle<M>& r, int i, int o) {
  const Shape S = shape<M>();
  const Cycle t = r.t;
  Fifo& f = in_vc<M>(*r.nd, i);
  const Flit fl{f.front_ready, f.front_code, 0};
  if (!pop_flit(f)) {
    r.nd->inmask &= ~(std::uint64_t{1} << i);
  } else {
    // The next flit is at the front: it may move next cycle, or a head after its RC stage.
    if (head_wait_ && (f.front_code & 1u))
      schedule_any(r.n, t, std::max(f.front_ready, t + 1) + static_cast<Cycle>(head_wait_));
    else if (f.front_ready <= t + 1) r.retry = true;
  }
  if (S.head_stages) front_since<M>(*r.nd, i) = t + 1;
  const bool is_head = fl.code & 1u;
  const bool is_tail = fl.code & 2u;
  if (is_head && f.want >= 0) {  // (a head that went through VC allocation has its output VC)
    f.out = static_cast<std::int8_t>(o);
    f.ovc = f.want_vc;
    f.want = f.want_vc = -1;
    f.any_vc = 0;
    if (f.conflict) {
      link_wait_[fl.code >> 2] += t - wait_since<M>(*r.nd, i);
      f.conflict = 0;
    }
  }
  const int ovc = ovc_of<M>(f);
  OutVc& ov = out_vc<M>(*r.nd, o * S.vcs + ovc);
  if (is_head && !S.va_stage) ov.last_src = pkts_[fl.code >> 2].src;
  --ov.credits;
  ov.owner = is_tail ? -1 : static_cast<std::int16_t>(i);
  if (is_tail) {
    f.out = f.ovc = -1;
    if constexpr (M::const_shape) {
      // The heads that waited for this output (for any of its VCs: each asks for all of them)
      // ask again next cycle.
      std::uint64_t& w = r.nd->held_on[o];
      if (w) {
        r.nd->held_in &= ~w;
        r.nd->held_outs &= ~(std::uint64_t{1} << o);
        w = 0;
        r.retry = true;
      }
    }
    if constexpr (!M::fixed) {
      if (r.held_up & (std::uint64_t{1} << (o * S.vcs + ovc))) r.retry = true;  // a head waits for it
    }
  }

  const int in_port = port_of<M>(i);
  if (in_port != kLocal) {
    credit_return<M>(r.nd->nbr[in_port], kOpposite[in_port] * S.vcs + vc_of<M>(i), t);
  } else {
    if (S.inj_credit) {
      // The core sees the freed injection slot once its credit is back.
      const std::size_t ring = static_cast<std::size_t>(r.n) * static_cast<std::size_t>(S.vcs) + vc_of<M>(i);
      phantom_push(phantom_ring<M>(*r.nd, vc_of<M>(i)), ring, t + static_cast<Cycle>(inj_credit_delay_));
      if (r.nd->src_pending) schedule_any(r.n, t, t + static_cast<Cycle>(inj_credit_delay_));
    }
    if (is_tail) {
      pkts_[fl.code >> 2].tail_out = t;
      note_event(fl.code >> 2, kInjected);
    }
  }

  if (o != kLocal) {
    const std::uint32_t dnode = r.nd->nbr[o];
    const int di = kOpposite[o] * S.vcs + ovc;
    Node& dn = block<M>(dnode);
    Fifo& d = in_vc<M>(dn, di);
    // A head that will be at the front on arrival has nothing to do before its RC stage ends
    // (the router computes that from the time stamps when it first looks at it).
    const Cycle wake_at = t + static_cast<Cycle>(hop_) + (is_head && d.count == 0 ? static_cast<Cycle>(head_wait_) : 0);
    push_flit(d, t + static_cast<Cycle>(hop_), fl.code);
    dn.inmask |= std::uint64_t{1} << di;
    wake<M>(dnode, wake_at);
  } else {
    Fifo& d = ej_vc<M>(*r.nd, ovc);
    push_flit(d, t + static_cast<Cycle>(eject_delay_), fl.code);
    r.nd->ejmask |= 1u << ovc;
    wake<M>(r.n, t + static_cast<Cycle>(eject_delay_));
  }
}

// Ejection: the core reads one flit per cycle from its ejection buffers (VCs in turn); the
// slot's credit returns to the router; a tail delivers its packet.
template <class M>
void Chip::FlitNetwork::ejection(RouterCycle<M>& r) {
  const Shape S = shape<M>();
  const Cycle t = r.t;
  const std::uint32_t n = r.n;
  const std::size_t ebase = static_cast<std::size_t>(n) * static_cast<std::size_t>(S.vcs);
  for (int k = 0; k < S.vcs; ++k) {
    int v = r.nd->ej_rr + k;
    if (v >= S.vcs) v -= S.vcs;
    if (!(r.nd->ejmask & (1u << v))) continue;
    Fifo& f = ej_vc<M>(*r.nd, v);
    if (f.front_ready > t) continue;
    if (S.fast && t < ej_free_[ebase + static_cast<std::size_t>(v)]) {  // behind a one-step worm
      r.wake = std::min(r.wake, ej_free_[ebase + static_cast<std::size_t>(v)]);
      continue;
    }
    const Flit fl{f.front_ready, f.front_code, 0};
    if (!pop_flit(f)) r.nd->ejmask &= ~(1u << v);
    r.nd->ej_rr = static_cast<std::uint8_t>(v + 1 == S.vcs ? 0 : v + 1);
    credit_return<M>(n, kLocal * S.vcs + v, t);
    for (int w = 0; w < S.vcs && !r.retry; ++w) {
      const Fifo& e = ej_vc<M>(*r.nd, w);
      r.retry = e.count && e.front_ready <= t + 1;
    }
    if (fl.code & 2u) note_event(fl.code >> 2, kDelivered);
    else if (S.fast && (fl.code & 1u)) one_step_todo_.push_back(fl.code >> 2);
    return;
  }
}

// Injection: the core writes one flit per cycle into its injection buffers (VC classes in
// turn), each visible at the router injection_latency cycles later, while its buffer (minus the
// slots whose credit is still on its way back) has room.
template <class M>
void Chip::FlitNetwork::injection(RouterCycle<M>& r) {
  const Shape S = shape<M>();
  const Cycle t = r.t;
  const std::uint32_t n = r.n;
  Node& nd = *r.nd;
  bool wrote = false;
  for (int k = 0; k < S.classes; ++k) {
    int c = nd.src_rr + k;
    if (c >= S.classes) c -= S.classes;
    Source& s = source<M>(nd, c);
    if (s.qhead < 0) continue;
    int lvc = S.torus ? 2 * c : c * S.per_class;
    if (S.per_class > 1) {
      // A packet stays in one local VC; a new one takes the class's VC with the most room.
      const Packet& q = pkts_[static_cast<std::size_t>(s.qhead)];
      if (q.written) {
        lvc = q.vc;
      } else if (!M::fixed && sep_va_) {
        // BookSim: the class's VCs in turn after the one the last new packet took, the first with room.
        const int first = lvc;
        const int last = inj_last_[static_cast<std::size_t>(n) * static_cast<std::size_t>(S.classes) +
                                   static_cast<std::size_t>(c)];
        lvc = first + (last + 1) % S.per_class;
        for (int k = 0; k < S.per_class; ++k) {
          const int v = first + (last + 1 + k) % S.per_class;
          const Fifo& fv = in_vc<M>(nd, kLocal * S.vcs + v);
          if (fv.cap - fv.count - static_cast<int>(!S.phantom ? 0 : phantom_ring<M>(nd, v).count) > 0) {
            lvc = v;
            break;
          }
        }
      } else {
        int best = -1;
        const int first = lvc;
        for (int v = first; v < first + S.per_class; ++v) {
          const Fifo& fv = in_vc<M>(nd, kLocal * S.vcs + v);
          const int room = fv.cap - fv.count - static_cast<int>(!S.phantom ? 0 : phantom_ring<M>(nd, v).count);
          if (room > best) {
            best = room;
            lvc = v;
          }
        }
      }
    }
    int li = kLocal * S.vcs + lvc;
    Fifo& f = in_vc<M>(nd, li);
    std::uint32_t phantom = 0;
    const std::size_t ring = static_cast<std::size_t>(n) * static_cast<std::size_t>(S.vcs) +
                             static_cast<std::size_t>(lvc);
    if (S.phantom) {
      // Slots the core does not see free yet: held by a one-step worm's flits, or freed but
      // their credit still on its way (injection_credit_delay).
      PhantomRing& g = phantom_ring<M>(nd, lvc);
      phantom_free(g, ring, t);
      phantom = g.count;
      if (phantom && f.count + phantom >= f.cap) r.wake = std::min(r.wake, g.next);
    }
    if (f.count + phantom >= f.cap) continue;
    std::uint32_t slot = static_cast<std::uint32_t>(s.qhead);
    Packet& p = pkts_[slot];
    std::uint32_t code = slot << 2;
    if (p.written == 0) {
      code |= 1u;
      p.head_in = t;
      p.vc = static_cast<std::uint8_t>(lvc);
      if (!M::fixed && sep_va_ && S.per_class > 1)
        inj_last_[static_cast<std::size_t>(n) * static_cast<std::size_t>(S.classes) + static_cast<std::size_t>(c)] =
            static_cast<std::uint8_t>(lvc - c * S.per_class);
    }
    if (++p.written == p.flits) {
      code |= 2u;
      s.qhead = p.next;
      if (s.qhead < 0) s.qtail = -1;
      else __builtin_prefetch(&pkts_[static_cast<std::size_t>(s.qhead)]);  // (queued long ago, rarely cached)
      --nd.src_pending;
    }
    wake<M>(n, t + static_cast<Cycle>(inj_latency_) +
                    ((code & 1u) && f.count == 0 ? static_cast<Cycle>(head_wait_) : 0));
    push_flit(f, t + static_cast<Cycle>(inj_latency_), code);
    nd.inmask |= std::uint64_t{1} << li;
    nd.src_rr = static_cast<std::uint8_t>(c + 1 == S.classes ? 0 : c + 1);
    wrote = true;
    if (nd.src_pending) r.retry = true;
    break;
  }
  if (wrote) {
    ++nd.flits[kInj];
    if (nd.blocked_since[kInj] != kNever) {
      nd.blocked[kInj] += t - nd.blocked_since[kInj];
      nd.blocked_since[kInj] = kNever;
    }
  } else if (nd.blocked_since[kInj] == kNever) {
    nd.blocked_since[kInj] = t;
  }
}

// Come back next cycle only if something here may move then without another wake-up (a
// candidate that lost, the next flit of a FIFO at its front, a released output VC, the core
// with more to write or read); flits on their way schedule this router when they arrive, and
// a flit waiting for a credit or for a pipeline stage wakes it at r.wake.
template <class M>
void Chip::FlitNetwork::schedule_next(const RouterCycle<M>& r) {
  if (r.retry) wake<M>(r.n, r.t + 1);
  else if (r.wake != kNever) schedule_any(r.n, r.t, r.wake);
}

void Chip::FlitNetwork::fill_stats(Stats& s) const {
  const Cycle now = chip_.now_;
  // A port's statistics: flits, busy cycles (one flit per cycle), blocked cycles (an open wait
  // counts up to now).
  auto port = [now](const Node& nd, int p) {
    const Cycle since = nd.blocked_since[p];
    return LinkStats{nd.flits[p], nd.flits[p], nd.blocked[p] + (since != kNever && since < now ? now - since : 0)};
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
      for (int d = 0; d < kMeshDirs; ++d)
        ns.links[static_cast<std::size_t>(t) * kMeshDirs + static_cast<std::size_t>(d)] = port(block(n), d);
      ns.ejection[static_cast<std::size_t>(t)] = port(block(n), kLocal);
      ns.injection[static_cast<std::size_t>(t)] = port(block(n), kInj);
    }
    copy_counters(counters_[static_cast<std::size_t>(net)], ns);
    // Flit hops are the flits the routers' mesh outputs sent (counted there, not per hop).
    ns.flit_hops = 0;
    for (const LinkStats& l : ns.links) ns.flit_hops += l.flits;
  }
  s.packets = log_;
}

void Chip::FlitNetwork::reset_stats() {
  const Cycle now = chip_.now_;
  for (std::uint32_t n = 0; n < static_cast<std::uint32_t>(nets_ * tiles_); ++n) {
    Node& nd = block(n);
    for (int p = 0; p <= kInj; ++p) {
      nd.flits[p] = 0;
      nd.blocked[p] = 0;
      if (nd.blocked_since[p] != kNever) nd.blocked_since[p] = now;
    }
  }
  for (NetCounters& nc : counters_) nc = NetCounters{};
  activations_ = 0;
  log_.clear();
}

TILEMPI_REGISTER_NETWORK_MODEL(
    flit, "wormhole routers moved flit by flit with credits (exact)",
    .create = [](Chip& chip, const Config& c, const Topology& topo) -> std::unique_ptr<Chip::NetworkModel> {
      return std::make_unique<Chip::FlitNetwork>(chip, c, topo);
    },
    .ignored = [](const Config& c, std::vector<std::string>& out) {
      one_step_worms_need_one_vc(c, out);
      if (c.fast_worms && c.vcs == 1 && c.routing != "xy")
        out.push_back("fast_worms is ignored with routing=" + c.routing + ": one-step worms follow the XY route");
    });

}  // namespace tilempi::hwmodel
