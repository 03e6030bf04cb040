#include "sim/static_engine.h"

#include <algorithm>
#include <cstring>

#include "sim/p2p_messages.h"

namespace tilempi::transport::sim {

namespace hw = tilempi::hwmodel;

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

void StaticBroadcasts::take(int r, const StaticRequest& s, std::uint64_t now) {
  Broadcast& b = pending_[s.id];
  b.expected = static_cast<int>(s.participants);
  if (r == s.root) {
    b.root = r;
    b.root_off = s.arena_off;
    b.root_time = s.time;
    b.bytes = s.bytes;  // the root's length is what travels (a receiver's may differ: an MPI error)
  }
  b.parts.emplace_back(r, s);
  if (static_cast<int>(b.parts.size()) == b.expected && b.root >= 0) {
    run(b, now);
    pending_.erase(s.id);
  }
}

void StaticBroadcasts::copied(const StaticCopiedRequest& c) {
  auto it = copies_.find({c.root, c.arena_off});
  if (it == copies_.end()) return;
  if (--it->second.left == 0) {
    release(it->first.first, it->first.second, it->second.time);
    copies_.erase(it);
  }
}

void StaticBroadcasts::run(Broadcast& b, std::uint64_t now) {
  ++count_;
  const int n = core_.nranks();
  const std::uint64_t lookahead = core_.lookahead();
  hw::StaticMesh& sn = core_.chip().static_mesh();
  // The route list sits in the root's arena ahead of the data: [count][hops...][data].
  const unsigned char* base = core_.arena(b.root) + b.root_off;
  std::uint64_t count = 0;
  std::memcpy(&count, base, sizeof count);
  std::vector<StaticRouteHop> hops(count);
  if (count) std::memcpy(hops.data(), base + 8, count * sizeof(StaticRouteHop));
  std::vector<std::uint64_t> when(static_cast<std::size_t>(n), b.root_time);
  for (auto& [rank, q] : b.parts) when[static_cast<std::size_t>(rank)] = q.time;
  sn.clear_all();
  for (const StaticRouteHop& h : hops) {
    if (h.tile < 0 || h.tile >= n) continue;
    sn.configure(core_.tile(h.tile), dir_of_port(h.in_port), mask_of_ports(h.out_mask),
                 when[static_cast<std::size_t>(h.tile)] + lookahead);
  }
  const std::uint64_t fb = static_cast<std::uint64_t>(core_.config().flit_bytes);
  const std::uint32_t words = static_cast<std::uint32_t>(std::max<std::uint64_t>(1, (b.bytes + fb - 1) / fb));
  const std::uint64_t at = std::max<std::uint64_t>(b.root_time + lookahead, core_.chip().now());
  std::vector<hw::StaticArrival> arr = sn.send_words(core_.tile(b.root), words, at);
  std::vector<std::uint64_t> done(static_cast<std::size_t>(n), 0);
  for (const hw::StaticArrival& a : arr) {
    for (int r = 0; r < n; ++r)
      if (core_.tile(r) == a.tile) done[static_cast<std::size_t>(r)] = a.last_word;
  }
  for (auto& [rank, q] : b.parts) {
    std::uint64_t t = rank == b.root ? at + words : done[static_cast<std::size_t>(rank)];
    t = std::max(t, now);
    core_.publish(rank, StaticEvent{t, q.op, b.root, b.bytes, b.root_off});
    core_.trace(rank, "static_bcast", q.time, t);
  }
  // The root's arena space is released when every other participant has copied its data out
  // (each says so with a StaticCopiedRequest), at the cycle the last one's data arrived.
  // Released on publishing alone, the root could reuse the space before a participant's copy
  // ran, and that participant would copy another message's bytes.
  std::uint64_t last = now;
  for (auto& [rank, q] : b.parts) last = std::max(last, rank == b.root ? at + words : done[static_cast<std::size_t>(rank)]);
  const int copies = static_cast<int>(b.parts.size()) - 1;
  if (copies > 0) {
    copies_[{b.root, b.root_off}] = Copies{copies, last};
  } else {
    release(b.root, b.root_off, last);
  }
}

void StaticBroadcasts::release(int root, std::uint64_t root_off, std::uint64_t time) {
  core_.publish(root, ReleaseEvent{time, root_off});
}

}  // namespace tilempi::transport::sim
