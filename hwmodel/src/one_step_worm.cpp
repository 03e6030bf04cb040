// One-step worms (fast_worms=true): once a worm's head has been read by the destination core,
// the rest of the worm is computed in one step (docs/HWMODEL.md "One-step worms").
#include <algorithm>

#include "flit_network.h"

namespace tilempi::hwmodel {

// A worm whose head has been read by the destination core owns every output
// on its remaining route, and with one VC nothing else can enter the buffers
// ahead of its tail: its remaining flits follow a fixed pipeline. Compute
// that pipeline (core writes, router sends, core reads) exactly as the flit
// engine would, then remove the flits, reserve the outputs and buffer fronts
// until the tail has passed, queue the credit returns at their cycles and
// defer the packet's events. Returns false (and changes nothing) if the
// state is not the one assumed.
bool Chip::FlitNetwork::one_step_worm(std::uint32_t slot, Cycle t) {
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
  auto fifo = [&](int i) -> Fifo& {
    if (i == h + 1) return ej_vc(block(node_at(h)), 0);
    return in_vc(block(node_at(i)), i == 0 ? kLocal : kOpposite[xout_[static_cast<std::size_t>(i - 1)]]);
  };
  auto out_index = [&](int j) {
    return static_cast<std::size_t>(node_at(j)) * static_cast<std::size_t>(ivcs_) +
           static_cast<std::size_t>(xout_[static_cast<std::size_t>(j)]);
  };
  auto out = [&](int j) -> OutVc& { return out_vc(block(node_at(j)), xout_[static_cast<std::size_t>(j)]); };

  // Where are flits 1 .. L-1 (flit 0, the head, was just read)?
  xloc_.assign(L, -1);
  if (xready_.size() < L) xready_.resize(L);  // (read only where xloc_ names a buffer)
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
  // (The flits' buffers fall from flit to flit: one pass from the furthest buffer back.)
  kfirst.resize(static_cast<std::size_t>(h) + 2);
  for (std::size_t q = 1, i = static_cast<std::size_t>(h) + 2; i-- > 0;) {
    while (q < L && xloc_[q] > static_cast<std::int32_t>(i)) ++q;
    kfirst[i] = q;
  }
  // The worm must still own its outputs from stage m on.
  for (int j = m; j <= h; ++j) {
    const Fifo& f = fifo(j);
    const OutVc& ov = out(j);
    const int in_port = j == 0 ? kLocal : kOpposite[xout_[static_cast<std::size_t>(j - 1)]];
    if (f.out != xout_[static_cast<std::size_t>(j)] || ov.owner != in_port) return false;
  }
  if (U && source(block(node_at(0)), 0).qhead != static_cast<std::int32_t>(slot)) return false;

  // Times: s[j][k] send at stage j, c[k] read by the core, w[k] written by it.
  // (Not cleared: the recurrence reads only cells it wrote, see below.)
  if (xs_.size() < (static_cast<std::size_t>(h) + 3) * L) xs_.resize((static_cast<std::size_t>(h) + 3) * L);
  auto S = [&](int j, std::size_t q) -> Cycle& { return xs_[static_cast<std::size_t>(j) * L + q]; };
  auto C = [&](std::size_t q) -> Cycle& { return xs_[(static_cast<std::size_t>(h) + 1) * L + q]; };
  auto W = [&](std::size_t q) -> Cycle& { return xs_[(static_cast<std::size_t>(h) + 2) * L + q]; };
  auto pop_time = [&](int i, std::size_t q) { return i <= h ? S(i, q) : C(q); };
  const Cycle cd = static_cast<Cycle>(credit_delay_);
  const Cycle icd = static_cast<Cycle>(inj_credit_delay_);
  std::vector<std::int32_t>& credits0 = xcredits_;
  credits0.assign(static_cast<std::size_t>(h) + 1, 0);
  for (int j = m; j <= h; ++j) {
    OutVc& ov = out(j);
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
  if (m == 0 && ph_cap_ > 0) {
    const std::size_t pb = n0ring * ph_cap_;
    const PhantomRing& g = phantom_ring(block(node_at(0)), 0);
    for (std::uint32_t r = 0, pos = g.head; r < g.count; ++r) {
      if (phantom_[pb + pos] > t) pending.push_back(phantom_[pb + pos]);
      pos = pos + 1 == ph_cap_ ? 0 : pos + 1;
    }
  }
  const std::size_t free0 = U ? fifo(0).cap - fifo(0).count - pending.size() : 0;
  // Steady state. The recurrence below is a chain of dependent loads per flit and stage; a long
  // worm soon streams, each flit one cycle after the one before at every stage. From a row q of
  // flits still to be written, suppose every later row is row q plus its distance: that is the
  // recurrence's answer exactly when, in every later row, that value is at least each other term
  // of its maximum (the arrival from the stage before, the credit, the injection slot, the
  // core's read). The terms from rows after q are row q's plus the same distance, so each is one
  // comparison; those from rows up to q (a credit or slot of a flit before q, of earlier
  // traffic) are compared one by one. When they all hold, the later rows are filled in, and no
  // later flit waited (its blocked cycles add nothing).
  std::size_t steady = L;  // rows after this one are this one plus their distance
  auto streams_from = [&](std::size_t q) -> bool {
    const Cycle wq = W(q), cq = C(q);
    if (cq < S(h, q) + static_cast<Cycle>(eject_delay_)) return false;
    if (S(0, q) < wq + static_cast<Cycle>(inj_latency_)) return false;
    for (int j = 1; j <= h; ++j)
      if (S(j, q) < S(j - 1, q) + static_cast<Cycle>(hop_)) return false;
    // The core's writes: the slot of the injection buffer each later flit takes.
    const std::size_t lag_w = kw + free0 + pending.size() - kfirst[0];  // (a row reads row r - lag_w)
    for (std::size_t r = q + 1; r < L; ++r) {
      if (r - kw < free0) continue;
      const std::size_t idx = r - kw - free0;
      const Cycle at = wq + static_cast<Cycle>(r - q);
      if (idx < pending.size()) {
        if (at < pending[idx]) return false;
        continue;
      }
      if (lag_w == 0) return false;  // (not a row before r)
      if (r - lag_w > q) {  // this and every later row read rows after q
        // wq + (r - q) >= S(0, q) + (r - lag_w - q) + icd, the same for every later row
        if (wq + static_cast<Cycle>(lag_w) < S(0, q) + icd) return false;
        break;
      }
      if (at < S(0, r - lag_w) + icd) return false;
    }
    // The credits: each later send at stage j needs the slot freed behind it.
    for (int j = 0; j <= h; ++j) {
      const std::size_t first = kfirst[static_cast<std::size_t>(j)];
      const OutVc& ov = out(j);
      const std::int64_t c0 = credits0[static_cast<std::size_t>(j)];
      const Cycle sq = S(j, q);
      for (std::size_t r = q + 1; r < L; ++r) {
        const std::int64_t need = static_cast<std::int64_t>(r - first) + 1 - c0;
        if (need <= 0) {  // (need grows by one a row)
          r += static_cast<std::size_t>(-need);
          continue;
        }
        const Cycle at = sq + static_cast<Cycle>(r - q);
        if (need <= ov.rcount) {
          std::uint32_t pos = ov.back.ring.head + static_cast<std::uint32_t>(need - 1);
          if (pos >= ov.back.ring.cap) pos -= ov.back.ring.cap;
          if (at < ret_[ov.back.ring.off + pos]) return false;
          continue;
        }
        const std::size_t q2 = kfirst[static_cast<std::size_t>(j) + 1] + static_cast<std::size_t>(need - ov.rcount) - 1;
        if (q2 >= r) return false;  // (the recurrence gives up there)
        if (q2 > q) {  // this and every later row read rows after q
          // sq + (r - q) >= pop(j + 1, q) + (q2 - q) + cd, the same for every later row
          if (sq + static_cast<Cycle>(r - q2) < pop_time(j + 1, q) + cd) return false;
          break;
        }
        if (at < pop_time(j + 1, q2) + cd) return false;
      }
    }
    steady = q;  // (the later rows are not written out: see Sx below)
    return true;
  };
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
        const OutVc& ov = out(j);
        Cycle back;
        if (need <= ov.rcount) {
          std::uint32_t pos = ov.back.ring.head + static_cast<std::uint32_t>(need - 1);
          if (pos >= ov.back.ring.cap) pos -= ov.back.ring.cap;
          back = ret_[ov.back.ring.off + pos];
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
    // Worth a look once this row is the one before plus one everywhere (from row kw on every
    // stage is computed: m is 0 while flits are still to be written).
    if (q > kw && q + 1 < L && W(q) == W(q - 1) + 1 && C(q) == C(q - 1) + 1) {
      bool step = true;
      for (int j = 0; step && j <= h; ++j) step = S(j, q) == S(j, q - 1) + 1;
      if (step && streams_from(q)) break;
    }
  }
  // The rows, the steady ones computed from the last one written.
  auto Sx = [&](int j, std::size_t q) -> Cycle { return q <= steady ? S(j, q) : S(j, steady) + static_cast<Cycle>(q - steady); };
  auto Cx = [&](std::size_t q) -> Cycle { return q <= steady ? C(q) : C(steady) + static_cast<Cycle>(q - steady); };
  auto Wx = [&](std::size_t q) -> Cycle { return q <= steady ? W(q) : W(steady) + static_cast<Cycle>(q - steady); };
  auto popx = [&](int i, std::size_t q) { return i <= h ? Sx(i, q) : Cx(q); };
  // Credit returns still outstanding afterwards, per output feeding buffer i:
  // for an output the worm keeps, only those after its last send (the others
  // are back by the time anyone else may use it).
  auto last_use = [&](int i) -> Cycle { return i - 1 >= m ? Sx(i - 1, L - 1) : t; };
  // The first flit from `from` on whose cycle in row i (a stage's sends, or the core's reads
  // past the last stage) plus `delay` is after `bound`: the cycles rise from flit to flit (a
  // binary search over the rows written, then the steady rows' arithmetic).
  auto first_after = [&](int i, std::size_t from, Cycle delay, Cycle bound) -> std::size_t {
    const Cycle* row = i <= h ? &S(i, 0) : &C(0);
    const std::size_t written = std::min(L, steady + 1);
    if (from < written) {
      const std::size_t q = static_cast<std::size_t>(
          std::partition_point(row + from, row + written, [&](Cycle c) { return c + delay <= bound; }) - row);
      if (q < written) return q;
      from = written;
    }
    if (from >= L) return L;
    // Row steady + d is row[steady] + d: the first d with row[steady] + d + delay > bound.
    const Cycle base = row[steady] + delay;
    if (base > bound) return from;
    return std::min(L, std::max(steady + static_cast<std::size_t>(bound - base) + 1, from));
  };
  auto first_back_after = [&](int i, std::size_t from, Cycle bound) { return first_after(i, from, cd, bound); };
  for (int i = std::max(m, 1); i <= h + 1; ++i) {
    const OutVc& ov = out(i - 1);
    const Cycle after = last_use(i);
    std::size_t left = 0;
    for (std::uint32_t r = 0; r < ov.rcount; ++r) {
      std::uint32_t pos = ov.back.ring.head + r;
      if (pos >= ov.back.ring.cap) pos -= ov.back.ring.cap;
      left += ret_[ov.back.ring.off + pos] > after;
    }
    left += L - first_back_after(i, kfirst[static_cast<std::size_t>(i)], after);
    if (left > ov.back.ring.cap) return false;
  }
  std::size_t phantoms = 0;
  const Cycle written_by = U ? Wx(L - 1) : t;
  if (m == 0) phantoms = L - first_after(0, kfirst[0], icd, written_by);
  if (phantoms + pending.size() > ph_cap_) return false;

  // --- Commit.
  // Flits in each buffer (xloc_: -1 not written, else the buffer).
  std::vector<std::uint32_t>& in_buffer = xin_buffer_;
  in_buffer.assign(static_cast<std::size_t>(h) + 3, 0);
  for (std::size_t q = 1; q < kw; ++q) ++in_buffer[static_cast<std::size_t>(xloc_[q] + 1)];
  in_buffer[0] += static_cast<std::uint32_t>(L - std::max<std::size_t>(kw, 1));  // (not written yet)
  for (int i = m; i <= h + 1; ++i) {
    Fifo& f = fifo(i);
    const std::uint32_t n_here = in_buffer[static_cast<std::size_t>(i + 1)];
    f.head = static_cast<std::uint16_t>((f.head + n_here) % f.cap);
    f.count = static_cast<std::uint16_t>(f.count - n_here);
    if (f.count > 0) {
      f.front_ready = flits_[f.off + f.head].ready;
      f.front_code = flits_[f.off + f.head].code;
    }
    const Cycle free_at = (i <= h ? Sx(i, L - 1) : Cx(L - 1)) + 1;
    if (i <= h) {
      f.out = f.ovc = f.want = f.want_vc = -1;
      in_free_[fifo_index(i)] = free_at;
      const int port = i == 0 ? kLocal : kOpposite[xout_[static_cast<std::size_t>(i - 1)]];
      Node& nd = block(node_at(i));
      if (head_stages_) front_since(nd, port) = free_at;
      if (f.count == 0) nd.inmask &= ~(std::uint64_t{1} << port);
    } else {
      ej_free_[fifo_index(i)] = free_at;
      if (f.count == 0) block(node_at(h)).ejmask &= ~1u;
    }
  }
  const std::uint32_t n0 = node_at(0);
  // The routers on the path are woken when the worm's reservations of their buffers, outputs and
  // core ends only if they hold something now (a flit in a buffer, a packet at the core): a flit
  // or packet that comes later wakes its router when it arrives, and a router that finds it
  // behind a reservation wakes itself at the reservation's end (router_cycle). An empty router's
  // wake-up there would change nothing but the cycle the chip falls idle (quiet_end_).
  auto wake_if_busy = [&](std::uint32_t n, Cycle at) {
    const Node& nd = block(n);
    if (nd.inmask | nd.ejmask | nd.src_pending) schedule_any(n, t, at);
    else quiet_end_ = std::max(quiet_end_, at);
  };
  if (m == 0) {
    PhantomRing& g = phantom_ring(block(n0), 0);
    phantom_free(g, n0, t);
    for (std::size_t q = first_after(0, kfirst[0], icd, written_by); q < L; ++q) phantom_push(g, n0, Sx(0, q) + icd);
  }
  if (U) {
    Source& s = source(block(n0), 0);
    s.qhead = p.next;
    if (s.qhead < 0) s.qtail = -1;
    --block(n0).src_pending;
    p.written = p.flits;
    src_free_[n0] = Wx(L - 1) + 1;
    Node& nd0 = block(n0);
    nd0.flits[kInj] += U;
    if (nd0.blocked_since[kInj] != kNever) {
      nd0.blocked[kInj] += Wx(kw) - nd0.blocked_since[kInj];
      nd0.blocked_since[kInj] = kNever;
      inj_blocked -= Wx(kw) - (t + 1);
    }
    nd0.blocked[kInj] += inj_blocked;
    wake_if_busy(n0, Wx(L - 1) + 1);
  }
  if (m == 0) {
    // A core waiting for room in its injection buffer wakes as slots free.
    const PhantomRing& g = phantom_ring(block(n0), 0);
    if (g.count) wake_if_busy(n0, g.next);
  }
  for (int j = m; j <= h; ++j) {
    const std::size_t first = kfirst[static_cast<std::size_t>(j)];
    const std::uint64_t sends = L - first;
    OutVc& ov = out(j);
    ov.owner = -1;
    ov.credits -= static_cast<std::int32_t>(sends);
    out_free_[out_index(j)] = Sx(j, L - 1) + 1;
    Node& ndj = block(node_at(j));
    const int po = xout_[static_cast<std::size_t>(j)];
    // Heads the OneVc router set aside because this worm owned the output look again (they now
    // see its reservation, as in the general router; the router is woken when it ends, below).
    if (std::uint64_t& w = ndj.held_on[po]) {
      ndj.held_in &= ~w;
      ndj.held_outs &= ~(std::uint64_t{1} << po);
      w = 0;
    }
    ndj.flits[po] += sends;
    std::uint64_t b = blocked[static_cast<std::size_t>(j)];
    if (ndj.blocked_since[po] != kNever) {
      // The open wait ends with the first send (its own stall is inside).
      const Cycle first_send = Sx(j, first);
      const Cycle own_ready = std::max(t + 1, xloc_[first] == j ? xready_[first]
                                              : j == 0 ? Wx(first) + static_cast<Cycle>(inj_latency_)
                                                       : Sx(j - 1, first) + static_cast<Cycle>(hop_));
      b -= first_send - own_ready;
      b += first_send - ndj.blocked_since[po];
      ndj.blocked_since[po] = kNever;
    }
    ndj.blocked[po] += b;
    wake_if_busy(node_at(j), Sx(j, L - 1) + 1);
  }
  for (int i = std::max(m, 1); i <= h + 1; ++i) {
    OutVc& ov = out(i - 1);
    const std::size_t first = kfirst[static_cast<std::size_t>(i)];
    if (first >= L) continue;
    if (i - 1 < m) {
      // An output the worm already left: its credits come back one by one.
      if (ov.credits + ov.rcount == 0) schedule_any(node_at(i - 1), t, popx(i, first) + cd);
      for (std::size_t q = first; q < L; ++q) credit_on_way(ov, popx(i, q) + cd);
      continue;
    }
    // An output the worm keeps until last_use: returns up to then count now.
    const Cycle after = last_use(i);
    std::vector<Cycle>& keep = xready_;  // reuse as scratch: flit ready times are no longer needed
    keep.clear();
    for (std::uint32_t r = 0; r < ov.rcount; ++r) {
      std::uint32_t pos = ov.back.ring.head + r;
      if (pos >= ov.back.ring.cap) pos -= ov.back.ring.cap;
      const Cycle back = ret_[ov.back.ring.off + pos];
      if (back > after) keep.push_back(back);
      else ++ov.credits;
    }
    const std::size_t late = first_back_after(i, first, after);
    ov.credits += static_cast<std::int32_t>(late - first);
    for (std::size_t q = late; q < L; ++q) keep.push_back(popx(i, q) + cd);
    ov.back.ring.head = 0;
    ov.rcount = 0;
    ov.next_ret = kNever;
    for (Cycle back : keep) credit_on_way(ov, back);
  }
  wake_if_busy(node_at(h), Cx(L - 1) + 1);
  if (m == 0) {
    p.tail_out = Sx(0, L - 1);
    defer(Sx(0, L - 1), slot, kInjected);
  }
  defer(Cx(L - 1), slot, kDelivered);
  return true;
}

}  // namespace tilempi::hwmodel
