// A rank's pending operations of the sim transport, by id (sim_rank.h).
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "tilempi/transport/transport.h"

namespace tilempi::transport::sim {

struct OffloadCall;

/// A pending operation of the rank (a send, a fetch, a one-sided operation, a collective part).
struct Op {
  bool done = false;  // written only by OpTable::set_done (which keeps its state byte)
  bool send = false;
  bool listed = false;  // of send() or fetch(): take_finished hands it over once done
  std::uint64_t min_done = 0;
  unsigned char* dst = nullptr;  // static broadcast target
  std::uint64_t len = 0;
  OffloadCall* offload = nullptr;
  std::uint64_t status = 0;  // a migration request's answer (MigrateStatus)
  std::uint64_t sent = 0;    // a static broadcast's length at its root
};

/// Operations by id: ids are handed out in order and mostly finish in order, so a ring indexed
/// from the oldest live id beats a hash map (and a deque's index arithmetic) in the MPI layer's
/// completion loops, which look up every pending operation on every pass. Whether an operation
/// is live and done is also kept in one byte per operation beside the ring (state()), so such a
/// pass reads a few cache lines, not one per operation. A reference to an operation stays
/// valid until the next insert (which may move the ring).
class OpTable {
 public:
  static constexpr std::uint8_t kLive = 1, kDone = 2;
  Op& insert(OpId id) {
    if (count_ == 0) base_ = id;
    while (id - base_ >= count_) {
      if (count_ == ring_.size()) grow();
      const std::size_t i = index(count_++);
      ring_[i] = Op{};
      state_[i] = 0;
    }
    const std::size_t i = index(id - base_);
    if (state_[i] & kDone) --done_;  // (ids are not reused: not expected)
    ring_[i] = Op{};
    state_[i] = kLive;
    return ring_[i];
  }
  /// kLive | kDone of the operation, 0 when no live operation has this id.
  std::uint8_t state(OpId id) const {
    const OpId k = id - base_;  // an id below base_ wraps around to a huge k
    return k < count_ ? state_[index(k)] : std::uint8_t{0};
  }
  Op* find(OpId id) {
    const OpId k = id - base_;
    if (k >= count_) return nullptr;
    const std::size_t i = index(k);
    return state_[i] & kLive ? &ring_[i] : nullptr;
  }
  /// Marks o done (every write of Op::done goes through here).
  void set_done(Op& o) {
    o.done = true;
    const std::size_t i = static_cast<std::size_t>(&o - ring_.data());
    std::uint8_t& st = state_[i];
    if (!(st & kDone)) {
      ++done_;
      if (o.listed) {
        // Outside blocking waits nobody takes the list and send_done/fetch_done erase its
        // operations: drop those now and then, so that it holds about the live ones only.
        if (finished_.size() >= 2 * count_ + 64)
          std::erase_if(finished_, [this](OpId id) { return state(id) != (kLive | kDone); });
        finished_.push_back(base_ + ((i - head_) & (ring_.size() - 1)));
      }
    }
    st |= kDone;
  }
  /// Appends the listed operations marked done (and not erased since) to out, and erases them.
  void take_finished(std::vector<OpId>& out) {
    for (const OpId id : finished_)
      if (state(id) == (kLive | kDone)) {
        out.push_back(id);
        erase(id);
      }
    finished_.clear();
  }
  /// Live operations marked done (not erased yet).
  std::size_t done_count() const { return done_; }
  void erase(OpId id) {
    if (const std::uint8_t st = state(id); st & kLive) {
      if (st & kDone) --done_;
      state_[index(id - base_)] = 0;
    }
    while (count_ > 0 && !(state_[head_] & kLive)) {
      head_ = (head_ + 1) & (ring_.size() - 1);
      --count_;
      ++base_;
    }
  }
  template <class F>
  void for_each(F&& f) {
    for (std::size_t k = 0; k < count_; ++k)
      if (const std::size_t i = index(k); state_[i] & kLive) f(ring_[i]);
  }

 private:
  std::size_t index(std::uint64_t k) const { return (head_ + static_cast<std::size_t>(k)) & (ring_.size() - 1); }
  void grow() {  // twice the size (a power of two), the oldest first
    const std::size_t size = ring_.empty() ? 64 : 2 * ring_.size();
    std::vector<Op> bigger(size);
    std::vector<std::uint8_t> bigger_state(size, 0);
    for (std::size_t k = 0; k < count_; ++k) {
      bigger[k] = ring_[index(k)];
      bigger_state[k] = state_[index(k)];
    }
    ring_.swap(bigger);
    state_.swap(bigger_state);
    head_ = 0;
  }
  std::vector<Op> ring_;
  std::vector<std::uint8_t> state_;
  std::vector<OpId> finished_;  // listed operations in the order they were marked done
  std::size_t head_ = 0, count_ = 0, done_ = 0;
  OpId base_ = 1;
};

}  // namespace tilempi::transport::sim
