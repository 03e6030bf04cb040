// The packet-level model of the dynamic networks (network_model=packet; private header).
//
// A packet's head claims the output ports on its XY path one after another (the last one is
// the destination core's ejection port), first come, first served, and the body follows one
// flit per cycle. A port stays claimed until the packet's tail has crossed it: flits - 1
// cycles after the head if the head moves on freely, later if the head is held up further on
// and the body fills the router buffers behind it (wormhole chain blocking, with
// input_buffer_flits + output_buffer_flits per hop). So a packet costs a few events per hop,
// whatever its length, instead of one per flit and hop.
//
// Timing without contention is the flit model's exactly (Config's zero-load formula; the
// tests check every pair) whenever the buffers let a worm stream one flit per cycle, as in
// every preset. Under contention it approximates the flit model: arbitration is first come,
// first served rather than round robin, credits are not modeled (a worm streams or stops),
// and a held ejection port (hold_ejection) stops heads at the port instead of after its
// buffer fills. As in the flit model, a core writes its packets one after another into its
// injection buffer, so a packet stuck at its first router holds up the core's next one.
// docs/HWMODEL.md compares the two models. Ports are not divided into virtual channels.
#pragma once

#include <cstdint>
#include <memory>
#include <queue>
#include <vector>

#include "calendar_bits.h"
#include "network_model.h"

namespace tilempi::hwmodel {

struct Chip::PacketNetwork final : Chip::NetworkModel {
  PacketNetwork(Chip& chip, const Config& c, const Topology& topo);

  PacketId inject(int network, TileId src, TileId dst, std::uint32_t payload_flits, Cycle at, std::uint64_t tag,
                  int cls) override;
  Cycle next_event_cycle(Cycle from) const override;
  void run_until(Cycle c) override;
  void hold_ejection(int network, TileId tile, bool hold) override;
  std::uint64_t in_flight() const override { return live_; }
  void fill_stats(Stats& s) const override;
  void reset_stats() override;

 private:
  // A packet at one router of its path.
  // (The router input it came in by is named by the port that feeds it, the previous stage's;
  // see inputs_.)
  struct Stage {
    Cycle took = 0;          // the cycle the head took its port
    std::uint32_t port = 0;  // that port
    std::int32_t next = -1;  // the packet that came in by the same input after it
  };
  struct Packet {
    PacketId id = 0;
    std::uint64_t tag = 0;
    Cycle created = 0, head_in = 0, tail_out = 0, ready = 0, link_wait = 0;
    TileId src = kNoTile, dst = kNoTile, at = kNoTile;  // `at`: the router the head is in
    std::uint32_t flits = 0;
    std::uint32_t span = 0;      // (flits - 1) / buffer_: routers' buffers the body fills behind a held head
    std::uint32_t next_input = 0;  // the router input the head comes in by next (set when it takes a port)
    std::uint32_t hops = 0;      // links crossed so far (= the stage the head is at; its port is taken
                                 // when it takes the next link, or the ejection port, which stays stage hops)
    std::uint32_t released = 0;  // stages whose release cycle is scheduled
    std::int32_t wait_next = -1; // the head after this one in the queue of the port it waits for
    std::int32_t write_next = -1;  // the packet after this one in its core's queue
    std::uint32_t block = 0;       // its block of stages (from the start of its writing on)
    std::uint8_t net = 0;
  };
  // The stages of the packet in `slot`, per router on its path: a fixed block of stages (an XY
  // path crosses at most width + height - 1 routers, rounded up to a power of two). A packet gets its block when its core
  // starts writing it and gives it back when delivered: the packets still queued at their cores
  // have none. (A block per packet from its injection on was 1 KiB each on a 32x32 mesh, 1.1 GB
  // of the 2.2 GB of a 1024-rank exchange that sends every message at once.)
  Stage* stages(std::uint32_t slot) {
    const std::uint32_t b = pkts_[slot].block;
    return stage_chunks_[b >> kBlocksPerChunkLog].get() + (static_cast<std::size_t>(b & (kBlocksPerChunk - 1)) << stage_shift_);
  }
  // Blocks are allocated in chunks that never move: a packet's stages stay where they are while
  // another packet gets its block (start_write runs inside schedule_releases' loop over them).
  static constexpr unsigned kBlocksPerChunkLog = 6;
  static constexpr std::uint32_t kBlocksPerChunk = 1u << kBlocksPerChunkLog;
  std::uint32_t take_block();
  // A router input (a link's far end, or the core's injection port): its packets leave it in
  // the order they came; a head can start its RC and VA stages only once the packet before it
  // has left (head-of-line blocking, the flit model's input FIFO).
  struct Input {
    std::int32_t last = -1;     // the last packet whose head came in here
    std::uint32_t last_stage = 0;
    Cycle last_left = 0;        // when its tail left the router (kNever: not known yet)
  };
  // kReleaseArrive / kReleaseDeliver: a port's release and the event scheduled right after it
  // for the same cycle (the holder's arrival at the next router, its delivery), in one entry;
  // they would have run one after the other (see schedule_after_release).
  enum EventKind : std::uint8_t { kWrite, kArrive, kReady, kInjected, kDelivered, kRelease, kReleaseArrive, kReleaseDeliver };
  struct Event {
    Cycle at;
    std::uint64_t seq;
    std::uint32_t id;  // packet slot, or port index for kRelease
    EventKind kind;
    bool operator>(const Event& o) const { return at != o.at ? at > o.at : seq > o.seq; }
  };
  struct Port {
    std::int64_t holder = -1;  // packet slot whose tail has not crossed yet
    Cycle free = 0;            // when the last holder's tail crossed
    std::uint64_t flits = 0, blocked = 0;
    bool held = false;  // ejection port of a core that does not read
    // Heads waiting for it, in arrival order: a queue linked through Packet::wait_next (a head
    // waits for one port at a time).
    std::int32_t wait_head = -1, wait_tail = -1;
    bool nobody_waits() const { return wait_head < 0; }
  };
  void wait_for(Port& port, std::uint32_t slot) {
    pkts_[slot].wait_next = -1;
    if (port.wait_tail >= 0) pkts_[static_cast<std::size_t>(port.wait_tail)].wait_next = static_cast<std::int32_t>(slot);
    else port.wait_head = static_cast<std::int32_t>(slot);
    port.wait_tail = static_cast<std::int32_t>(slot);
  }
  std::uint32_t first_waiting(Port& port) {  // removes it from the queue
    const std::uint32_t slot = static_cast<std::uint32_t>(port.wait_head);
    port.wait_head = pkts_[slot].wait_next;
    if (port.wait_head < 0) port.wait_tail = -1;
    return slot;
  }

  std::size_t node(int net, TileId t) const { return static_cast<std::size_t>(net * tiles_ + t); }
  std::uint32_t port_index(int net, TileId t, Dir d) const {
    return static_cast<std::uint32_t>(node(net, t) * kPorts + static_cast<std::size_t>(d));
  }
  // Events live in a calendar of the next kWheel cycles (one bucket per cycle, in the order they
  // were scheduled) and, further ahead, in a heap whose events move into the calendar as the
  // window reaches them, before anything else is scheduled for their cycle: either way the
  // events of one cycle run in the order they were scheduled.
  // A calendar entry is 4 bytes, id << 3 | kind: its bucket is its cycle and its place in the
  // bucket its order, so neither is stored.
  static constexpr Cycle kWheel = 1024;
  // (first_ is not lowered here: inside run_until nothing is scheduled before the cycle running;
  // inject and hold_ejection, which schedule from outside, lower it themselves.)
  void schedule(Cycle at, std::uint32_t id, EventKind kind) {
    if (at < base_ + kWheel) [[likely]] push_near(at, id << 3 | kind);
    else schedule_far(at, id, kind);
  }
  void schedule_far(Cycle at, std::uint32_t id, EventKind kind);
  // Schedules `kind` (kArrive or kDelivered) of packet `slot` at `at`; when the last entry of that
  // cycle is the release of port `pi`, the two become one entry `merged`.
  void schedule_after_release(Cycle at, std::uint32_t slot, EventKind kind, std::uint32_t pi, EventKind merged) {
    if (at < base_ + kWheel) {
      std::vector<std::uint32_t>& bucket = wheel_[static_cast<std::size_t>(at & (kWheel - 1))];
      if (!bucket.empty() && bucket.back() == (pi << 3 | kRelease)) {
        bucket.back() = slot << 3 | merged;
        return;
      }
    }
    schedule(at, slot, kind);
  }
  void push_near(Cycle at, std::uint32_t entry) {
    const std::size_t b = static_cast<std::size_t>(at & (kWheel - 1));
    wheel_[b].push_back(entry);
    wheel_bits_[b >> 6] |= std::uint64_t{1} << (b & 63);
  }
  // XY route (the topology's, from its table on small meshes) and neighbour on the mesh (the
  // packet model has no torus).
  Dir route(TileId at, TileId dst) const { return topo_.route(at, dst); }
  TileId neighbor(TileId t, Dir d) const {
    return nbr_[static_cast<std::size_t>(t) * kMeshDirs + static_cast<std::size_t>(d)];
  }
  Cycle scan_earliest() const;  // the first cycle with an event, kNever if none, from the calendar and heap
  void advance(Cycle t);   // the window starts at t
  void write_head(std::uint32_t slot, Cycle t);
  void start_write(std::size_t n, Cycle t);
  void head_arrive(std::uint32_t slot, Cycle t);
  void head_ready(std::uint32_t slot, Cycle t);
  void take(std::uint32_t slot, std::uint32_t port, Dir d, Cycle s);
  void schedule_releases(std::uint32_t slot, std::uint32_t upto);
  void release_stage(Packet& p, std::uint32_t slot, const Stage* st, std::uint32_t j, Cycle tail);
  // The tail crossed port `pi`: the port goes to the first head that waits for it, if any.
  void release(std::uint32_t pi, Cycle t) {
    Port& out = ports_[pi];
    out.holder = -1;
    out.free = t;
    if (!out.held && !out.nobody_waits()) hand_over(pi, t);
  }
  void hand_over(std::uint32_t pi, Cycle t);
  void deliver(std::uint32_t slot, Cycle t);
  PacketEvent event_of(const Packet& p, Cycle t) const;

  Chip& chip_;
  const Topology& topo_;
  int tiles_, nets_, classes_, header_flits_;
  std::uint32_t max_flits_;
  Cycle inj_latency_, hop_, eject_;  // hop_: to the next router's input; eject_: ejection port to the core
  Cycle head_stages_;                // RC and VA cycles of a head at every router
  std::uint32_t buffer_;             // flits a router holds per input (chain blocking)
  std::vector<TileId> nbr_;          // [tile * kMeshDirs + dir]
  std::vector<Port> ports_;          // [node * kPorts + dir]
  // A router input is named by the port that feeds it: a link's far end by the link's sending
  // port (node * kPorts + dir), a core's injection port by its node's Local port (an ejection
  // port feeds no router).
  std::vector<Input> inputs_;
  std::uint32_t input_of(const Packet& p, const Stage* st, std::uint32_t j) const {
    return j == 0 ? port_index(p.net, p.src, Dir::Local) : st[j - 1].port;
  }
  std::vector<Cycle> core_free_;     // per node: the core writes its next head from then on
  std::vector<std::int64_t> writing_;  // per node: packet whose tail has not left the injection buffer
  // Per node: packets the core has not started, in order, linked through Packet::write_next.
  struct WriteQueue {
    std::int32_t head = -1, tail = -1;
  };
  std::vector<WriteQueue> to_write_;
  std::uint32_t inj_buffer_;         // injection buffer flits
  Cycle cur_ = 0;                    // the cycle being processed
  std::vector<LinkStats> inj_;       // per node
  std::vector<Packet> pkts_;
  std::vector<std::unique_ptr<Stage[]>> stage_chunks_;  // blocks of stages, kBlocksPerChunk per chunk
  std::size_t max_stages_ = 0;
  unsigned stage_shift_ = 0;   // a slot's block of stages: max_stages_ rounded up to a power of two
  std::vector<Cycle> tails_;   // schedule_releases: the cycle the tail crosses each stage
  std::vector<std::uint32_t> free_slots_;
  std::vector<std::uint32_t> free_blocks_;  // blocks of stage_chunks_ no packet holds
  std::vector<std::vector<std::uint32_t>> wheel_ = std::vector<std::vector<std::uint32_t>>(kWheel);
  std::uint64_t wheel_bits_[kWheel / 64] = {};
  Cycle base_ = 0;  // the calendar holds the events of cycles [base_, base_ + kWheel)
  // The first cycle with an event (kNever: none): lowered by schedule, found again by
  // scan_earliest once a cycle's events have run, so the engine's frequent questions cost nothing.
  Cycle first_ = kNever;
  std::priority_queue<Event, std::vector<Event>, std::greater<Event>> far_;
  std::vector<NetCounters> counters_;
  PacketId next_id_ = 1;
  std::uint64_t seq_ = 0, live_ = 0, activations_ = 0;
};

}  // namespace tilempi::hwmodel
