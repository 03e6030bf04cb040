// The flit network (network_model=flit; private header): the dynamic networks as flit-level
// wormhole routers with credit flow control and a named pipeline (route computation, VC
// allocation, switch allocation, switch traversal), advanced by a timing wheel of router
// wake-ups: a router is processed in a cycle only when a flit
// or credit reaches it, when it moved a flit in the previous cycle, or when
// its core has something to inject or consume. Every interaction between two
// routers takes at least one cycle, so the order in which the routers of one
// cycle are processed cannot change any result; the packet events they produce
// reach the client in a canonical order (CycleEvent), not in that order.
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <queue>
#include <type_traits>
#include <vector>

#include "calendar_bits.h"
#include "network_model.h"
#include "tilempi/hwmodel/chip.h"
#include "tilempi/hwmodel/routing.h"

namespace tilempi::hwmodel {

inline constexpr int kLocal = static_cast<int>(Dir::Local);
inline constexpr int kOpposite[kPorts] = {1, 0, 3, 2, 4};

// A byte-sized field of the router state, read and written as an int. It is an enumeration, not a
// std::int8_t: a store through a character type may alias any object, so after each one the
// compiler would reload every vector's data pointer from memory; a store of an enumeration
// cannot alias them.
template <class E>
struct ByteField {
  E v{};
  ByteField() = default;
  constexpr ByteField(int x) : v(static_cast<E>(x)) {}  // NOLINT(google-explicit-constructor)
  constexpr operator int() const { return static_cast<int>(v); }  // NOLINT(google-explicit-constructor)
};
enum class SignedByte : std::int8_t {};
enum class UnsignedByte : std::uint8_t {};
using I8 = ByteField<SignedByte>;
using U8 = ByteField<UnsignedByte>;

// Slots in pages of a fixed size: growing never moves an element (a vector's doubling copies
// them and writes twice the memory; at saturation the cores' queues, and with them the packets,
// grow without bound).
template <class T, int Shift = 10>
class Pages {
 public:
  T& operator[](std::size_t i) { return pages_[i >> Shift][i & kMask]; }
  const T& operator[](std::size_t i) const { return pages_[i >> Shift][i & kMask]; }
  std::size_t size() const { return size_; }
  void emplace_back() {
    if ((size_ & kMask) == 0) pages_.push_back(std::make_unique<T[]>(kPage));
    ++size_;
  }

 private:
  static constexpr std::size_t kPage = std::size_t{1} << Shift, kMask = kPage - 1;
  std::vector<std::unique_ptr<T[]>> pages_;
  std::size_t size_ = 0;
};

// Actions by cycle: a calendar of the next kSpan cycles (a list per cycle, in the order they
// were pushed) and, further ahead, a heap whose entries move into the calendar as its window
// reaches them, before anything else is pushed for their cycle. Either way the actions of one
// cycle come in the order they were pushed: the order of one heap by (cycle, sequence), with
// O(1) pushes and takes. T: `at` (its cycle), and operator> by (at, sequence) for the heap.
template <class T>
class CycleCalendar {
 public:
  static constexpr Cycle kSpan = 1024;
  bool empty() const { return count_ == 0 && far_.empty(); }
  Cycle first() const { return first_; }  // the earliest cycle with an action (kNever: none)
  // e.at >= the window's start
  void push(const T& e) {
    if (e.at < base_ + kSpan) push_near(e);
    else far_.push(e);
    if (e.at < first_) first_ = e.at;
  }
  // The window starts at t (no action is left before t): the far ones it now reaches move in.
  void advance(Cycle t) {
    base_ = t;
    while (!far_.empty() && far_.top().at < base_ + kSpan) {
      push_near(far_.top());
      far_.pop();
    }
  }
  // Cycle t's actions (t: the window's start), then take(t) drops them.
  const std::vector<T>& at(Cycle t) const { return near_[static_cast<std::size_t>(t & (kSpan - 1))]; }
  void take(Cycle t) {
    const std::size_t b = static_cast<std::size_t>(t & (kSpan - 1));
    count_ -= near_[b].size();
    near_[b].clear();
    bits_[b >> 6] &= ~(std::uint64_t{1} << (b & 63));
    if (first_ == t) first_ = scan();
  }

 private:
  void push_near(const T& e) {
    const std::size_t b = static_cast<std::size_t>(e.at & (kSpan - 1));
    near_[b].push_back(e);
    bits_[b >> 6] |= std::uint64_t{1} << (b & 63);
    ++count_;
  }
  Cycle scan() const {  // the first cycle with an action, from the window's start
    if (count_ == 0) return far_.empty() ? kNever : far_.top().at;
    const std::size_t d = first_set_from<kSpan>(bits_, static_cast<std::size_t>(base_ & (kSpan - 1)));
    return d < kSpan ? base_ + static_cast<Cycle>(d) : kNever;  // (always one: count_ > 0)
  }
  std::vector<std::vector<T>> near_ = std::vector<std::vector<T>>(kSpan);
  std::uint64_t bits_[kSpan / 64] = {};
  std::size_t count_ = 0;
  Cycle base_ = 0, first_ = kNever;
  std::priority_queue<T, std::vector<T>, std::greater<T>> far_;
};

// A timing wheel slot: the routers woken for its cycle, in the order they were woken. append()
// writes the entry whether or not it is kept, and keeps it by counting it: waking a router that
// is already queued (it goes either way) costs no branch.
class WakeBucket {
 public:
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  std::uint32_t operator[](std::size_t k) const { return data_[k]; }
  void clear() { size_ = 0; }
  void append(std::uint32_t n, bool keep) {
    if (size_ == cap_) grow();  // (rarely: the bucket keeps its room)
    data_[size_] = n;
    size_ += keep;
  }

 private:
  void grow() {
    const std::size_t cap = cap_ ? 2 * cap_ : 64;
    std::unique_ptr<std::uint32_t[]> d = std::make_unique<std::uint32_t[]>(cap);
    std::copy(data_.get(), data_.get() + size_, d.get());
    data_ = std::move(d);
    cap_ = cap;
  }
  std::unique_ptr<std::uint32_t[]> data_;
  std::size_t size_ = 0, cap_ = 0;
};

struct Chip::FlitNetwork final : Chip::NetworkModel {
  FlitNetwork(Chip& chip, const Config& c, const Topology& topo);

  // A flit in a buffer: the cycle it becomes visible there and its packet.
  struct Flit {
    Cycle ready;
    std::uint32_t code;  // packet slot << 2 | tail << 1 | head
    std::uint32_t unused;
  };
  // A FIFO of flits (router input VC or ejection buffer) inside `flits_`, with a copy of its
  // front flit (valid while count > 0), so that a router looking at its input VCs reads only
  // their Fifo entries.
  struct Fifo {
    Cycle front_ready = 0;
    std::uint32_t front_code = 0;
    std::uint32_t off = 0;
    std::uint16_t cap = 0;
    std::uint16_t head = 0;
    std::uint16_t count = 0;
    I8 out = -1;      // output port held by the worm at the front (-1: none)
    I8 ovc = -1;      // its output VC
    I8 want = -1;     // route of the waiting head at the front (-1: not computed)
    I8 want_vc = -1;  // and its output VC
    U8 conflict = 0;  // the head at the front waits for a link another packet holds
    U8 any_vc = 0;    // the head takes any free VC of its class (want_vc: the first)
  };
  // Output VC: which input VC owns it, credits, credits still on their way back (the cycle of
  // the first one here, so that a router that waits for it reads only this entry), and the
  // source tile of the last worm whose head it carried.
  struct OutVc {
    Cycle next_ret = kNever;  // the first credit on its way back arrives (kNever: none)
    std::int16_t owner = -1;
    TileId last_src = kNoTile;
    std::int32_t credits = 0;
    // The credits on their way back. The general shape keeps their cycles in a ring in ret_
    // (`ring`, and rcount). In the OneVc shape at most one credit a cycle comes back (the
    // buffer behind the output sends at most one flit a cycle), and once those due are taken
    // in, the others arrive within credit_delay cycles (< 64: the shape's wheel): one bit per
    // cycle does, bit k for a credit at next_ret + k (`soon`), and no ring is read or written.
    struct Ring {
      std::uint32_t off;
      std::uint16_t cap, head;
    };
    union {
      Ring ring;
      std::uint64_t soon;
    } back{};
    std::uint16_t rcount = 0;  // (general shape)
    std::uint16_t va_rr = 0;   // round-robin position of VC allocation among input VCs
  };
  static constexpr int kInj = kPorts;  // the core's port into the router, after the outputs
  // A class's queue of packets at the core.
  struct Source {
    std::int32_t qhead = -1;  // packet slots, linked through Packet::next
    std::int32_t qtail = -1;
  };
  // Per local VC, the injection-buffer slots the core does not see free yet (when a one-step
  // worm's flits leave, or when a freed slot's credit reaches the core): a ring of their cycles in
  // phantom_, and the first of them here.
  struct PhantomRing {
    Cycle next = kNever;  // kNever: count == 0
    std::uint32_t head = 0, count = 0;
  };
  // A router's state that is not per VC, in one block (the first thing a router cycle reads):
  // one base pointer instead of an index into a dozen arrays.
  struct alignas(64) Node {
    // First cache line: what every activation reads.
    std::uint64_t inmask = 0;  // non-empty input VCs
    // One VC per port (the OneVc shape): heads that wait for an output another worm holds (input
    // VCs the request scan skips), the outputs they wait for, and per output who waits.
    std::uint64_t held_in = 0, held_outs = 0;
    Cycle last_proc = kNever;
    // Timing wheel slots whose bucket holds this node, not yet processed (a wheel of at most 64
    // slots): a node is queued once per cycle however often it is woken for that cycle.
    std::uint64_t queued = 0;
    std::uint32_t ejmask = 0;          // non-empty ejection VCs
    std::uint32_t src_pending = 0;     // packets queued at the core
    std::uint32_t nbr[kMeshDirs] = {};  // neighbour's node per direction (where a link exists)
    // Second line: what switch allocation, injection and route computation read. Per output and
    // the injection port (kInj): the cycle since which a flit waits for it and none crossed
    // (kNever: none waits); later, flits it carried and cycles of such waits that ended.
    Cycle blocked_since[kPorts + 1] = {kNever, kNever, kNever, kNever, kNever, kNever};
    std::uint16_t rr[kPorts] = {};  // per output: round-robin position among input VCs
    U8 src_rr = 0, ej_rr = 0;
    TileId tile = 0;
    std::uint64_t flits[kPorts + 1] = {};
    std::uint64_t blocked[kPorts + 1] = {};
    Cycle last_sched = kNever;
    std::uint64_t held_on[kPorts] = {};
    U8 held = 0;  // the core holds its ejection (hold_ejection)
    // Switch allocation by sw_allocator=separable_input_first (several VCs per port), per input
    // port: the round-robin position of its input arbiter among the outputs, and of its choice
    // among its VCs asking for one output (BookSim's _sw_rr_offset). rr[] then counts in ports.
    U8 sa_in_rr[kPorts] = {};
    U8 sa_vc_rr[kPorts] = {};
  };
  static_assert(offsetof(Node, blocked_since) == 64 && offsetof(Node, flits) == 128,
                "the fields every activation reads fill one cache line, allocation's the next");
  // A node's block: its Node, then its per-VC state (input VCs, ejection VCs, output VCs, and per
  // input VC the cycle its front head began to wait for a link (Fifo::conflict) and, with head
  // stages, the cycle the front flit got there (the one before it left), its first cycle of VA
  // (or of SA without a VA stage) and after VA its first cycle of SA). One base pointer reaches
  // all of it, and a router's state shares cache lines with nothing else. Byte offsets; the
  // OneVc shape's are constants.
  struct BlockLayout {
    std::size_t in, ej, out, wait_since, front_since, alloc_from, sa_from, src, ph, stride;
  };
  static constexpr BlockLayout layout_for(std::size_t ivcs, std::size_t vcs, std::size_t classes) {
    BlockLayout L{};
    L.in = sizeof(Node);
    L.ej = L.in + ivcs * sizeof(Fifo);
    L.out = L.ej + vcs * sizeof(Fifo);
    L.wait_since = (L.out + ivcs * sizeof(OutVc) + alignof(Cycle) - 1) / alignof(Cycle) * alignof(Cycle);
    L.front_since = L.wait_since + ivcs * sizeof(Cycle);
    L.alloc_from = L.front_since + ivcs * sizeof(Cycle);
    L.sa_from = L.alloc_from + ivcs * sizeof(Cycle);
    L.src = L.sa_from + ivcs * sizeof(Cycle);
    L.ph = L.src + (classes * sizeof(Source) + alignof(Cycle) - 1) / alignof(Cycle) * alignof(Cycle);
    L.stride = (L.ph + vcs * sizeof(PhantomRing) + alignof(Node) - 1) / alignof(Node) * alignof(Node);
    return L;
  }
  struct alignas(Node) BlockLine {
    unsigned char bytes[alignof(Node)];
  };
  struct Packet {
    PacketId id = 0;
    std::uint64_t tag = 0;
    Cycle created = 0;
    Cycle head_in = 0;
    Cycle tail_out = 0;
    TileId src = 0;
    TileId dst = 0;
    std::int32_t next = -1;
    std::uint32_t flits = 0;
    std::uint32_t written = 0;
    U8 net = 0;
    U8 cls = 0;
    U8 vc = 0;  // local VC its flits are written into
  };
  struct Pending {
    Cycle at;
    std::uint64_t seq;
    std::uint32_t slot;
    bool operator>(const Pending& o) const { return at != o.at ? at > o.at : seq > o.seq; }
  };
  // A cycle-stamped action kept outside the timing wheel: a far wake-up or
  // an event of a worm computed in one step.
  struct Deferred {
    Cycle at;
    std::uint64_t seq;
    std::uint32_t id;   // node (wake) or packet slot
    std::uint8_t kind;  // kWake, kInjected, kDelivered
    bool operator>(const Deferred& o) const { return at != o.at ? at > o.at : seq > o.seq; }
  };
  static constexpr std::uint8_t kWake = 0, kInjected = 1, kDelivered = 2;
  // A packet event of the cycle being simulated, reported to the client once the cycle's routers
  // have run, in a canonical order: by kind (kInjected, then kDelivered), then tile (the source of
  // an injected packet, the destination of a delivered one), then network (`key`), then packet id.
  // The routers of one cycle may run in any order without moving a flit; in the order they ran,
  // the callbacks would hand that order to the client (the sim's ranks react to each event: their
  // next packets' ids and order would follow it), and a change of the simulator's work alone
  // (which routers it wakes, and when) would move the client's cycles.
  struct CycleEvent {
    std::uint64_t key;  // kind << 56 | tile << 8 | network
    PacketId id;
    std::uint32_t slot;
    bool operator<(const CycleEvent& o) const { return key != o.key ? key < o.key : id < o.id; }
  };

  PacketId inject(int network, TileId src, TileId dst, std::uint32_t payload_flits, Cycle at, std::uint64_t tag,
                  int cls) override;
  Cycle next_event_cycle(Cycle from) const override;
  void run_until(Cycle c) override;
  void hold_ejection(int network, TileId tile, bool hold) override;
  std::uint64_t in_flight() const override { return live_packets_; }
  void fill_stats(Stats& s) const override;
  void reset_stats() override;

 private:
  std::uint32_t node(int net, TileId t) const { return static_cast<std::uint32_t>(net * tiles_ + t); }
  // One router in one cycle: where it is, what its input VCs ask for, what it did. (Small, so
  // that starting one is a few stores: with one VC per port an output's candidates fit a byte.)
  template <class M>
  struct RouterCycle {
    using Mask = std::conditional_t<M::fixed, std::uint8_t, std::uint64_t>;
    std::uint32_t n;             // node = network * tiles + tile
    Cycle t;
    Node* nd;                    // its state
    std::size_t base;            // node * VCs per node: its first entry of the per-VC vectors (in_free_, out_free_)
    Mask cand[kPorts] = {};      // per output: input VCs asking for the switch
    unsigned with = 0;           // outputs with a candidate (cand[o] != 0)
    bool retry = false;          // something may move next cycle without another wake-up
    unsigned demand = 0;         // outputs some flit waits for
    std::uint64_t va_mask = 0;   // output VCs heads ask for in VC allocation (requests in va_req_)
    std::uint64_t held_up = 0;   // output VCs that heads wait for because another worm owns them
    Cycle wake = kNever;         // earliest cycle a waiting flit may move (credit back, stage done)
  };

  // The router's shape: what the stages branch on. The router cycle is compiled once for any
  // chip (General: the network's fields) and once per pipeline for the common shape, one VC per
  // port on a mesh, with or without one-step worms (OneVc: constants, so the branches and index
  // arithmetic of the other shapes drop out). Both compute the same cycles.
  struct Shape {
    bool head_stages, va_stage, fast, torus, phantom, inj_credit;
    int vcs, ivcs, per_class, classes;
  };
  // Traits of a shape: fixed (one VC per port: the OneVc logic), const_shape (shape() and the
  // block layout are constants), credit_bits (below), wheel_bits (a wheel of at most 64 slots, so
  // a wake-up tests the node's wheel bit directly).
  //
  // General: any chip, every option read from the network. Vcs (several VCs per port, all of one
  // class, on a mesh, no one-step worms, a wheel of at most 64 slots):
  // the general logic with the pipeline and the VC count as constants, and the credits on their
  // way back as bits (OutVc::soon) instead of a ring: an output VC gets at most one credit a cycle
  // (the input VC behind it sends at most one flit a cycle), and with such a wheel credit_delay <
  // 64.
  struct General {
    static constexpr bool fixed = false, const_shape = false, credit_bits = false, wheel_bits = false;
  };
  template <int V, bool HeadStages, bool VaStage, bool InjCredit>
  struct Vcs {
    static_assert(V > 1 && (V & (V - 1)) == 0, "a power of two, so that port and VC of an index are shifts");
    static constexpr bool fixed = false, const_shape = true, credit_bits = true, wheel_bits = true;
    static constexpr Shape shape{HeadStages, VaStage, false, false, InjCredit, InjCredit, V, kPorts * V, V, 1};
  };
  template <int V, bool InjCredit>
  void choose_vcs();  // sets run_routers_ to the Vcs shape of this chip's pipeline
  template <bool HeadStages, bool VaStage, bool InjCredit, bool Fast>
  struct OneVc {
    static constexpr bool fixed = true, const_shape = true, wheel_bits = true;
    // (One-step worms return a worm's credits at once, over more cycles than 64 bits span: they
    // keep the ring.)
    static constexpr bool credit_bits = !Fast;
    static constexpr Shape shape{HeadStages, VaStage, Fast, false, InjCredit || Fast, InjCredit, 1, kPorts, 1, 1};
  };
  template <bool HeadStages, bool VaStage, bool InjCredit>
  void choose_one_vc();  // sets run_routers_ to the OneVc shape of this chip's options
  template <class M>
  Shape shape() const {
    if constexpr (M::const_shape) return M::shape;
    else return Shape{head_stages_, va_stage_, fast_, torus_, ph_cap_ > 0, inj_credit_delay_ > 0,
                      vcs_,         ivcs_,     per_class_, classes_};
  }

  // Input VC index -> port, VC and the port's VCs; an input VC's output VC: with one VC per
  // port, the index is the port and every VC is 0.
  template <class M> int port_of(int i) const {
    if constexpr (M::fixed) return i;
    else if constexpr (M::const_shape) return i / M::shape.vcs;
    else return port_of_[i];
  }
  template <class M> int vc_of([[maybe_unused]] int i) const {
    if constexpr (M::fixed) return 0;
    else if constexpr (M::const_shape) return i % M::shape.vcs;
    else return vc_of_[i];
  }
  template <class M> std::uint64_t port_mask(int i) const {
    if constexpr (M::fixed) return std::uint64_t{1} << i;
    else if constexpr (M::const_shape)
      return ((std::uint64_t{1} << M::shape.vcs) - 1) << (i / M::shape.vcs * M::shape.vcs);
    else return port_mask_[port_of_[i]];
  }
  template <class M> static int ovc_of([[maybe_unused]] const Fifo& f) {
    if constexpr (M::fixed) return 0;
    else return f.ovc;
  }
  // Node n's block and the per-VC state in it (see BlockLayout).
  // (always_inline: the Debug build, which the sanitizer tests use, runs them as fast as the
  // vector indexing they replace.)
  template <class M> [[gnu::always_inline]] const BlockLayout& layout() const {
    if constexpr (M::const_shape) {
      static constexpr BlockLayout L = layout_for(static_cast<std::size_t>(M::shape.ivcs),
                                                  static_cast<std::size_t>(M::shape.vcs),
                                                  static_cast<std::size_t>(M::shape.classes));
      return L;
    } else {
      return layout_;
    }
  }
  template <class M = General> [[gnu::always_inline]] Node& block(std::uint32_t n) const {
    return *std::launder(reinterpret_cast<Node*>(blocks_ + std::size_t{n} * layout<M>().stride));
  }
  template <class T> [[gnu::always_inline]] static T* part(Node& nd, std::size_t offset) {
    return std::launder(reinterpret_cast<T*>(reinterpret_cast<unsigned char*>(&nd) + offset));
  }
  template <class M = General> [[gnu::always_inline]] Fifo& in_vc(Node& nd, int i) const {
    return part<Fifo>(nd, layout<M>().in)[i];
  }
  template <class M = General> [[gnu::always_inline]] Fifo& ej_vc(Node& nd, int i) const {
    return part<Fifo>(nd, layout<M>().ej)[i];
  }
  template <class M = General> [[gnu::always_inline]] OutVc& out_vc(Node& nd, int i) const {
    return part<OutVc>(nd, layout<M>().out)[i];
  }
  template <class M = General> [[gnu::always_inline]] Cycle& wait_since(Node& nd, int i) const {
    return part<Cycle>(nd, layout<M>().wait_since)[i];
  }
  template <class M = General> [[gnu::always_inline]] Cycle& front_since(Node& nd, int i) const {
    return part<Cycle>(nd, layout<M>().front_since)[i];
  }
  template <class M = General> [[gnu::always_inline]] Cycle& alloc_from(Node& nd, int i) const {
    return part<Cycle>(nd, layout<M>().alloc_from)[i];
  }
  template <class M = General> [[gnu::always_inline]] Cycle& sa_from(Node& nd, int i) const {
    return part<Cycle>(nd, layout<M>().sa_from)[i];
  }
  template <class M = General> [[gnu::always_inline]] Source& source(Node& nd, int i) const {
    return part<Source>(nd, layout<M>().src)[i];
  }
  template <class M = General> [[gnu::always_inline]] PhantomRing& phantom_ring(Node& nd, int i) const {
    return part<PhantomRing>(nd, layout<M>().ph)[i];
  }
  // Phantom ring g (index `ring` = node * vcs_ + local VC): a slot the core sees free at `at`; the
  // slots free by t.
  void phantom_push(PhantomRing& g, std::size_t ring, Cycle at) {
    std::uint32_t pos = g.head + g.count;
    if (pos >= ph_cap_) pos -= ph_cap_;
    phantom_[ring * ph_cap_ + pos] = at;
    if (g.count++ == 0) g.next = at;
  }
  void phantom_free(PhantomRing& g, std::size_t ring, Cycle t) {
    while (g.next <= t) {
      g.head = g.head + 1 == ph_cap_ ? 0 : g.head + 1;
      g.next = --g.count ? phantom_[ring * ph_cap_ + g.head] : kNever;
    }
  }

  [[gnu::always_inline]] inline void schedule(std::uint32_t n, Cycle c);
  // schedule() inside a router cycle: the OneVc shape runs only with a wheel of at most 64 slots,
  // so it tests the node's wheel bit without asking which kind of wheel it has.
  template <class M> [[gnu::always_inline]] inline void wake(std::uint32_t n, Cycle c) {
    if constexpr (M::wheel_bits) {
      Node& nd = block<M>(n);
      const std::uint64_t b = std::uint64_t{1} << (c & wheel_mask_);
      const bool fresh = !(nd.queued & b);
      nd.queued |= b;
      wheel_[c & wheel_mask_].append(n, fresh);
      wheel_count_ += fresh;
    } else {
      schedule(n, c);
    }
  }
  // The router's cycle and its stages, in pipeline order.
  template <class M> void run_routers(WakeBucket& bucket, Cycle t);
  template <class M> [[gnu::always_inline]] inline void router_cycle(std::uint32_t n, Cycle t);
  template <class M> [[gnu::always_inline]] inline void prefetch_block(std::uint32_t n) const;
  template <class M> [[gnu::always_inline]] inline void requests(RouterCycle<M>& r);
  template <class M> [[gnu::always_inline]] inline void route_computation(const RouterCycle<M>& r, int i, Fifo& f);
  template <class M> [[gnu::always_inline]] inline void vc_allocation(RouterCycle<M>& r);
  template <class M> void head_request(RouterCycle<M>& r, int i, Fifo& f);
  template <class M> void switch_allocation_separable(RouterCycle<M>& r);
  template <class M> [[gnu::always_inline]] inline int choose_vc(const RouterCycle<M>& r, const Fifo& f, int o, Cycle t);
  template <class M> [[gnu::always_inline]] inline void switch_allocation(RouterCycle<M>& r);
  template <class M> [[gnu::always_inline]] inline void switch_traversal(RouterCycle<M>& r, int i, int o);
  template <class M> [[gnu::always_inline]] inline void credit_return(std::uint32_t up_node, int out_index, Cycle t);
  template <class M> [[gnu::always_inline]] inline void ejection(RouterCycle<M>& r);
  template <class M> [[gnu::always_inline]] inline void injection(RouterCycle<M>& r);
  template <class M> [[gnu::always_inline]] inline void schedule_next(const RouterCycle<M>& r);
  static void hold_head(Node& nd, int i, int o) {
    nd.held_in |= std::uint64_t{1} << i;
    nd.held_outs |= std::uint64_t{1} << o;
    nd.held_on[o] |= std::uint64_t{1} << i;
  }
  template <class M = General> [[gnu::always_inline]] inline bool credit_ready(OutVc& ov, Cycle t);
  // A credit of output VC ov on its way back, arriving at `at` (after those before it; general
  // shape).
  [[gnu::always_inline]] inline void credit_on_way(OutVc& ov, Cycle at) {
    std::uint32_t pos = ov.back.ring.head + ov.rcount;
    if (pos >= ov.back.ring.cap) pos -= ov.back.ring.cap;
    ret_[ov.back.ring.off + pos] = at;
    if (ov.rcount++ == 0) ov.next_ret = at;
  }
  [[gnu::always_inline]] inline void push_flit(Fifo& f, Cycle ready, std::uint32_t code);
  [[gnu::always_inline]] inline bool pop_flit(Fifo& f);
  [[gnu::always_inline]] static inline void link_wait_begin(Fifo& f, Cycle& since, Cycle t);
  Dir route(TileId at, TileId dst) const { return topo_.route(at, dst); }
  // A packet event of cycle t (kInjected or kDelivered), kept for report_cycle_events().
  void note_event(std::uint32_t slot, std::uint8_t kind) {
    const Packet& p = pkts_[slot];
    const std::uint64_t tile = static_cast<std::uint64_t>(kind == kInjected ? p.src : p.dst);
    cycle_events_.push_back(CycleEvent{std::uint64_t{kind} << 56 | tile << 8 | p.net, p.id, slot});
  }
  // Cycle t's packet events, in their canonical order (CycleEvent), to the client's callbacks.
  void report_cycle_events(Cycle t);
  void deliver(std::uint32_t slot, Cycle t);
  [[gnu::always_inline]] inline void schedule_any(std::uint32_t n, Cycle now, Cycle c);
  void defer(Cycle at, std::uint32_t id, std::uint8_t kind);
  // fast_worms: the rest of a worm whose head was just read, in one step (one_step_worm.cpp).
  bool one_step_worm(std::uint32_t slot, Cycle t);
  std::uint32_t alloc_packet();

  Chip& chip_;
  const Topology& topo_;
  int tiles_, vcs_, nets_, classes_, ivcs_;  // ivcs_ = kPorts * vcs_ per node
  int per_class_ = 1;                        // vcs_per_class (mesh)
  int cycle_mod_ports_ = 0;                  // the cycle being simulated, mod kPorts (switch allocation order)
  bool torus_;
  int hop_, eject_delay_, credit_delay_, inj_latency_;
  std::uint32_t max_flits_;
  int header_flits_;
  std::vector<std::int32_t> nbr_;  // [tile * 4 + dir]
  std::vector<std::uint8_t> wrap_; // [tile * 4 + dir]: the link wraps around

  std::vector<Flit> flits_;
  Pages<Cycle> link_wait_;   // per packet slot: PacketEvent::link_wait so far
  // Router pipeline with head stages (routing_delay, vc_alloc_delay): per in_ entry.
  bool head_stages_ = false;       // a head spends cycles in RC or VA before switch allocation
  bool va_stage_ = false;          // VC allocation is a stage of its own (not speculative, vc_alloc_delay > 0)
  int head_wait_ = 0;              // RC cycles (+ VA beyond SA when speculative)
  int va_delay_ = 0;
  std::uint64_t va_req_[64] = {};  // scratch of VC allocation: requesting input VCs per output VC
  std::vector<Cycle> ret_;  // credit return rings
  // The nodes' blocks (BlockLayout): input and output VC i = port * vcs_ + vc, ejection VC = vc.
  std::vector<BlockLine> block_lines_;
  unsigned char* blocks_ = nullptr;
  BlockLayout layout_{};
  std::uint64_t port_mask_[kPorts] = {};    // input VC bits of each port
  std::uint8_t port_of_[64] = {};           // input VC index -> port
  std::uint8_t vc_of_[64] = {};             // input VC index -> VC

  Pages<Packet> pkts_;
  std::vector<std::uint32_t> free_slots_;
  PacketId next_id_ = 1;
  std::uint64_t seq_ = 0;
  std::uint64_t live_packets_ = 0;
  std::priority_queue<Pending, std::vector<Pending>, std::greater<Pending>> pending_;

  std::vector<WakeBucket> wheel_;
  Cycle wheel_mask_ = 0;
  std::uint64_t wheel_count_ = 0;
  bool wheel_bits_ = false;  // the wheel has at most 64 slots: Node::queued is used

  // Worms computed in one step (fast_worms).
  bool fast_ = false;
  int inj_credit_delay_ = 0;
  std::vector<Cycle> in_free_;   // per input VC (node * ivcs_ + i): first cycle its front may move
  std::vector<Cycle> ej_free_;   // per ejection VC (node * vcs_ + v): likewise
  std::vector<Cycle> out_free_;  // per output VC (node * ivcs_ + i): first cycle after a one-step worm's reservation
  std::vector<Cycle> src_free_;  // per node: first cycle the core may write after a one-step worm
  // Per node and local VC (ring = node * vcs_ + vc), the cycles of PhantomRing, ph_cap_ each
  // (0: no rings).
  std::vector<Cycle> phantom_;
  std::uint32_t ph_cap_ = 0;
  CycleCalendar<Deferred> deferred_;
  std::vector<std::uint32_t> one_step_todo_;  // packets whose head was read this cycle
  std::vector<Cycle> xs_;                    // scratch: send times per stage and flit
  std::vector<std::int32_t> xloc_;           // scratch: where each flit is
  std::vector<Cycle> xready_;                // scratch: when it is visible there
  std::vector<TileId> xpath_;
  std::vector<int> xout_;
  std::vector<std::size_t> xkfirst_;         // scratch of one_step_worm(), kept to avoid allocations
  std::vector<std::int32_t> xcredits_;
  std::vector<std::uint64_t> xblocked_;
  std::vector<Cycle> xpending_;
  std::vector<std::uint32_t> xin_buffer_;
  std::vector<CycleEvent> cycle_events_;  // the packet events of the cycle being simulated
  // The last cycle a one-step worm's reservation ends at a router that was not woken for it (it
  // was empty): the chip counts as busy until then (next_event_cycle), as when that router was
  // woken there, so that the cycle it falls idle (now() after run_to_idle(), the end_cycle of its
  // statistics, by which the sim divides link utilization) stays the same.
  Cycle quiet_end_ = 0;

  // Routing functions other than xy, and BookSim's allocators (General shape only).
  const RoutingEntry* routing_ = nullptr;  // nullptr: xy, the original route computation
  bool sep_va_ = false;                    // vc_allocator=separable_input_first, several VCs per port
  bool sep_sa_ = false;                    // sw_allocator=separable_input_first, several VCs per port
  bool new_heads_ = false;                 // heads ask through head_request (routing_ or sep_va_)
  // The Vcs shape with xy and the separable VC allocator: a head whose every VC (all of its
  // output's, one class) another worm holds leaves the request scan until a tail frees one of them
  // (Node::held_in, as in the OneVc shape), instead of asking again at every activation.
  bool hold_heads_ = false;
  std::uint64_t rng_ = 0;                  // the routing functions' stream (routing_seed)
  // Per input VC (node * ivcs_ + i): the route options of its front head (routing_).
  struct Options {
    RouteOption o[kMaxRouteOptions];
    std::uint8_t n = 0;
  };
  std::vector<Options> opts_;
  Pages<PacketRoute> route_state_;      // per packet slot (routing_)
  std::vector<std::uint8_t> va_in_rr_;  // per input VC: VA input arbiter's position among output VCs (sep_va_)
  std::vector<std::uint8_t> inj_last_;  // per node and class: the class's VC of the core's last new packet (sep_va_)

  std::vector<NetCounters> counters_;
  std::uint64_t activations_ = 0;
  // run_routers for this chip's shape
  void (FlitNetwork::*run_routers_)(WakeBucket&, Cycle) = nullptr;

  friend class Chip;
};

inline void Chip::FlitNetwork::schedule(std::uint32_t n, Cycle c) {
  Node& nd = block(n);
  if (wheel_bits_) {
    const std::uint64_t b = std::uint64_t{1} << (c & wheel_mask_);
    if (nd.queued & b) return;
    nd.queued |= b;
  } else {
    if (nd.last_sched == c) return;  // (a node may then be in a bucket more than once)
    nd.last_sched = c;
  }
  wheel_[c & wheel_mask_].append(n, true);
  ++wheel_count_;
}

// Wakes router n at cycle c, through the timing wheel if c is within its span.
inline void Chip::FlitNetwork::schedule_any(std::uint32_t n, Cycle now, Cycle c) {
  if (c <= now + wheel_mask_) schedule(n, c);
  else defer(c, n, kWake);
}

// Appends a flit to a FIFO with room.
inline void Chip::FlitNetwork::push_flit(Fifo& f, Cycle ready, std::uint32_t code) {
  std::uint32_t pos = f.head + f.count;
  if (pos >= f.cap) pos -= f.cap;
  flits_[f.off + pos] = Flit{ready, code, 0};
  if (f.count == 0) {
    f.front_ready = ready;
    f.front_code = code;
  }
  ++f.count;
}

// Removes the front flit; false if the FIFO is now empty.
inline bool Chip::FlitNetwork::pop_flit(Fifo& f) {
  f.head = static_cast<std::uint16_t>(f.head + 1 == f.cap ? 0 : f.head + 1);
  if (--f.count == 0) return false;
  const Flit& nf = flits_[f.off + f.head];
  f.front_ready = nf.ready;
  f.front_code = nf.code;
  return true;
}

// Takes in the credits that are back by t; true if the output VC has one.
template <class M>
inline bool Chip::FlitNetwork::credit_ready(OutVc& ov, Cycle t) {
  if constexpr (M::credit_bits) {
    if (ov.next_ret <= t) {
      const Cycle d = t - ov.next_ret;  // bits 0 .. d are back
      std::uint64_t s = ov.back.soon;
      // (Counted bit by bit: one or two bits as a rule, and std::popcount is a library call
      // on the baseline x86-64 this is built for.)
      std::uint64_t due = d >= 63 ? s : s & ((std::uint64_t{2} << d) - 1);
      for (; due; due &= due - 1) ++ov.credits;
      s = d >= 63 ? 0 : s >> (d + 1);
      if (s) {
        const int z = std::countr_zero(s);
        ov.next_ret += d + 1 + static_cast<Cycle>(z);
        ov.back.soon = s >> z;
      } else {
        ov.next_ret = kNever;
        ov.back.soon = 0;
      }
    }
  } else {
    while (ov.next_ret <= t) {
      ++ov.credits;
      ov.back.ring.head = static_cast<std::uint16_t>(ov.back.ring.head + 1 == ov.back.ring.cap ? 0 : ov.back.ring.head + 1);
      ov.next_ret = --ov.rcount ? ret_[ov.back.ring.off + ov.back.ring.head] : kNever;
    }
  }
  return ov.credits > 0;
}

}  // namespace tilempi::hwmodel
