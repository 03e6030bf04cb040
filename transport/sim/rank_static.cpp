// The rank's half of the static network's broadcasts (static_messages.h).
#include <cstring>
#include <vector>

#include "sim/sim_rank.h"
#include "sim/static_messages.h"

namespace tilempi::transport::sim {

std::size_t SimTransport::bcast(std::uint64_t id, std::span<const StaticRouteHop> routes, int root, void* buf,
                                std::size_t len) {
  Call call(*this);
  // The participants: the tiles the routes deliver to, and the root, each counted once (marks
  // in a table by tile, cleared after; a look-up per hop in a list was quadratic in the ranks,
  // 4 % of a 64-rank mesh_rounds job, and sorting the list still 3 %).
  std::vector<std::uint8_t>& seen = static_seen_;
  std::uint64_t participants = 0;
  auto count = [&](int tile) {
    const std::size_t k = static_cast<std::size_t>(tile);
    if (k >= seen.size()) seen.resize(k + 1, 0);
    participants += seen[k] == 0;
    seen[k] = 1;
  };
  for (const StaticRouteHop& h : routes)
    if (h.out_mask & kPortLocal) count(h.tile);
  count(root);
  for (const StaticRouteHop& h : routes)  // (only the tiles count() marked: the table may be shorter)
    if (h.out_mask & kPortLocal) seen[static_cast<std::size_t>(h.tile)] = 0;
  seen[static_cast<std::size_t>(root)] = 0;
  std::uint64_t off = 0;
  if (rank_ == root) {
    // [count][hops...][data] (static_messages.h)
    const std::uint64_t hops = routes.size();
    off = alloc_or_wait(static_routes_bytes(hops) + len);
    std::memcpy(arena_ + off, &hops, 8);
    if (hops) std::memcpy(arena_ + off + 8, routes.data(), hops * sizeof(StaticRouteHop));
    if (len) std::memcpy(arena_ + off + static_routes_bytes(hops), buf, len);
  }
  const OpId op = next_op_++;
  {
    Op& o = ops_.insert(op);
    o.dst = static_cast<unsigned char*>(buf);
    o.len = len;
  }
  post(StaticRequest{.time = clock_, .id = id, .root = root, .bytes = len, .arena_off = off,
                     .participants = participants, .op = op, .kind = energy_->kind(call_)});
  Op& mine = *ops_.find(op);
  wait_for(mine);
  const std::size_t sent = rank_ == root ? len : static_cast<std::size_t>(mine.sent);
  ops_.erase(op);
  return sent;
}

void SimTransport::apply_static(const EngineEvent& ev) {
  const StaticEvent e = decode<StaticEvent>(ev);
  Op* found = ops_.find(e.op);
  if (!found) return;
  Op& o = *found;
  if (e.rank != rank_) {
    o.sent = e.bytes;
    if (const std::uint64_t len = std::min(o.len, e.bytes)) {  // (the root's data, never beyond it)
      const unsigned char* base = link_->arena(e.rank) + e.arena_off;
      std::uint64_t hops = 0;
      std::memcpy(&hops, base, 8);
      std::memcpy(o.dst, base + static_routes_bytes(hops), len);
    }
    // The root's arena space may be reused from now on.
    post(StaticCopiedRequest{clock_, e.rank, e.arena_off});
  }
  ops_.set_done(o);
  changed_ = true;
}

}  // namespace tilempi::transport::sim
