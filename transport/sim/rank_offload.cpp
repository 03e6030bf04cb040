// The rank's half of collective transfers offloaded to the adapter (offload_messages.h).
#include <algorithm>
#include <cstring>

#include "sim/offload_messages.h"
#include "sim/sim_rank.h"

namespace tilempi::transport::sim {

namespace ad = tilempi::hwmodel::adapter;

namespace {
std::size_t index_of(std::span<const int> members, int r) {
  return static_cast<std::size_t>(std::find(members.begin(), members.end(), r) - members.begin());
}
}  // namespace

std::size_t SimTransport::multicast(std::uint64_t id, std::span<const int> members, int root, void* buf, std::size_t len) {
  return offload(OffloadCall{ad::CollKind::Multicast, members, root, buf, buf, len}, id);
}
std::size_t SimTransport::scatter(std::uint64_t id, std::span<const int> members, int root, const void* sbuf, void* rbuf,
                                  std::size_t block) {
  return offload(OffloadCall{ad::CollKind::Scatter, members, root, sbuf, rbuf, block}, id);
}
std::size_t SimTransport::gather(std::uint64_t id, std::span<const int> members, int root, const void* sbuf, void* rbuf,
                                 std::size_t block) {
  return offload(OffloadCall{ad::CollKind::Gather, members, root, sbuf, rbuf, block}, id);
}
std::size_t SimTransport::reduce(std::uint64_t id, std::span<const int> members, int root, const void* sbuf, void* rbuf,
                                 std::size_t bytes, HwOp op, HwElem elem) {
  OffloadCall c{ad::CollKind::Reduce, members, root, sbuf, rbuf, bytes};
  c.op = op;
  c.elem = elem;
  return offload(c, id);
}

/// Returns the root's length at a multicast or scatter destination, else this rank's.
std::size_t SimTransport::offload(OffloadCall c, std::uint64_t id) {
  using K = ad::CollKind;
  Call call(*this);
  const bool spread = c.kind == K::Multicast || c.kind == K::Scatter;
  const bool root = rank_ == c.root;
  const std::size_t n = c.members.size();
  const std::size_t me = index_of(c.members, rank_);
  // This rank's own block never crosses the network.
  if (root && c.kind == K::Scatter && c.rbuf) std::memmove(c.rbuf, static_cast<const unsigned char*>(c.sbuf) + me * c.bytes, c.bytes);
  if (root && c.kind == K::Gather && c.sbuf) std::memmove(static_cast<unsigned char*>(c.rbuf) + me * c.bytes, c.sbuf, c.bytes);
  if (root && c.kind == K::Reduce && c.bytes) std::memmove(c.rbuf, c.sbuf, c.bytes);
  c.sent = c.bytes;
  if (n <= 1) return c.bytes;
  std::uint64_t off = 0;
  if (spread && root) {
    // [count][member ranks][data] (offload_messages.h)
    const std::uint64_t data = c.kind == K::Scatter ? c.bytes * n : c.bytes;
    off = alloc_or_wait(offload_list_bytes(n) + data);
    const std::uint64_t count = n;
    std::memcpy(arena_ + off, &count, 8);
    for (std::size_t i = 0; i < n; ++i) {
      const std::int32_t m = c.members[i];
      std::memcpy(arena_ + off + 8 + i * 4, &m, 4);
    }
    if (data) std::memcpy(arena_ + off + offload_list_bytes(n), c.sbuf, data);
  } else if (!spread && !root) {
    off = alloc_or_wait(c.bytes);
    if (c.bytes) std::memcpy(arena_ + off, c.sbuf, c.bytes);
  }
  const OpId op = next_op_++;
  ops_.insert(op).offload = &c;
  post(OffloadRequest{.time = clock_, .id = id, .root = c.root, .bytes = c.bytes, .arena_off = off, .kind = c.kind,
                      .members = n, .op = op, .call_kind = energy_->kind(call_)});
  clock_ += costs_->coll_call_cost(c.kind, root);
  wait_for(*ops_.find(op));
  ops_.erase(op);
  return c.sent;
}

void SimTransport::apply_offload(const EngineEvent& e) {
  if (e.kind == kEvOffloadPart) {
    const OffloadPartEvent p = decode<OffloadPartEvent>(e);
    if (Op* o = ops_.find(p.op); o && o->offload) o->offload->parts.push_back({p.rank, p.arena_off, p.bytes});
    return;
  }
  const OffloadEvent d = decode<OffloadEvent>(e);
  Op* o = ops_.find(d.op);
  if (!o) return;
  if (o->offload) finish_offload(*o->offload, d.bytes, d.arena_off);
  ops_.set_done(*o);
  changed_ = true;
}

/// This rank's part is complete: take the data as the adapter left it.
void SimTransport::finish_offload(OffloadCall& c, std::uint64_t root_bytes, std::uint64_t root_off) {
  using K = ad::CollKind;
  const std::size_t n = c.members.size();
  if ((c.kind == K::Multicast || c.kind == K::Scatter) && rank_ != c.root) {
    // The root's length places and bounds the data (a member's own may differ: an MPI error).
    c.sent = root_bytes;
    const unsigned char* data = link_->arena(c.root) + root_off + offload_list_bytes(n);
    if (c.kind == K::Scatter) data += index_of(c.members, rank_) * root_bytes;
    if (const std::size_t len = std::min<std::size_t>(c.bytes, root_bytes)) std::memcpy(c.rbuf, data, len);
  } else if ((c.kind == K::Gather || c.kind == K::Reduce) && rank_ == c.root) {
    // Each sender's data is its own length in its arena: never more than that is read.
    for (const OffloadCall::Part& p : c.parts) {
      if (p.bytes != c.bytes && c.sent == c.bytes) c.sent = p.bytes;
      const std::size_t len = std::min<std::size_t>(c.bytes, p.bytes);
      if (c.kind == K::Reduce) hw_reduce(c.op, c.elem, link_->arena(p.sender) + p.off, c.rbuf, len);
      else if (len) std::memcpy(static_cast<unsigned char*>(c.rbuf) + index_of(c.members, p.sender) * c.bytes, link_->arena(p.sender) + p.off, len);
    }
  }
}

}  // namespace tilempi::transport::sim
