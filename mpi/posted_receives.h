// The receives a rank has posted and not matched yet, found by what can match them: by
// (context, source) for a receive from one source, in one list for MPI_ANY_SOURCE. An arrival
// then looks at the receives from its own source and at the wildcard ones, not at every posted
// receive: a rank with N receives posted (an alltoall's) matched each arrival in O(N) before,
// 10 % of a 1024-rank alltoall's simulation. The order MPI prescribes is kept: of the receives
// that match, the one posted first (a sequence number across both kinds) takes the message.
//
// The receives from one source are kept in a hash table by (context, source) that holds the
// receives posted, nothing for a source with none: a list per source and context (N per rank,
// kept when empty) was O(N^2) memory over a job's N ranks, 56 MB at 1024 ranks and nearly 1 GB
// at 4096, where a pairwise alltoall has one or two receives posted per rank at a time. The
// table is one array with linear probing (SourceTable below): a std::unordered_multimap
// allocated and freed a node per receive, the most frequent allocation of a pairwise alltoall.
#pragma once

#include <algorithm>
#include <cstdint>
#include <deque>
#include <memory>
#include <vector>

#include "envelope.h"
#include "request.h"

namespace tilempi::mpi {

/// The receives from one source, by (context, source): an open-addressing table of the entries
/// themselves (several may share a key), linear probing, deletion by shifting back the entries
/// that follow, so that no slot is ever a tombstone. Empty until the first receive.
class SourceTable {
 public:
  struct Slot {
    std::uint64_t context;
    std::uint64_t seq;  ///< 0: the slot is free
    int source;
    MPI_Request h;
  };

  bool empty() const { return size_ == 0; }

  void insert(std::uint64_t context, int source, std::uint64_t seq, MPI_Request h) {
    if (2 * (size_ + 1) > slots_.size()) grow();
    std::size_t i = home(context, source);
    while (slots_[i].seq != 0) i = (i + 1) & mask();
    slots_[i] = Slot{context, seq, source, h};
    ++size_;
  }

  /// The slots of (context, source), in no order, by index; f(index, slot) returns true to stop.
  template <class F>
  void for_key(std::uint64_t context, int source, F&& f) const {
    if (size_ == 0) return;
    for (std::size_t i = home(context, source); slots_[i].seq != 0; i = (i + 1) & mask())
      if (slots_[i].context == context && slots_[i].source == source && f(i, slots_[i])) return;
  }

  template <class F>
  void for_each(F&& f) const {
    for (const Slot& s : slots_)
      if (s.seq != 0) f(s);
  }

  void erase(std::size_t i) {
    slots_[i].seq = 0;
    --size_;
    // Entries after the hole whose home is at or before it move back into it, so that every
    // entry stays reachable from its home without a gap.
    for (std::size_t j = (i + 1) & mask(); slots_[j].seq != 0; j = (j + 1) & mask()) {
      const std::size_t k = home(slots_[j].context, slots_[j].source);
      const bool between = i <= j ? (i < k && k <= j) : (i < k || k <= j);  // k in (i, j] cyclically
      if (between) continue;
      slots_[i] = slots_[j];
      slots_[j].seq = 0;
      i = j;
    }
  }

 private:
  std::size_t mask() const { return slots_.size() - 1; }
  std::size_t home(std::uint64_t context, int source) const {
    const std::uint64_t x = (context * 0x9E3779B97F4A7C15ull) ^ (static_cast<std::uint32_t>(source) * 0xC2B2AE3D27D4EB4Full);
    return static_cast<std::size_t>(x ^ (x >> 29)) & mask();
  }
  void grow() {
    std::vector<Slot> old = std::move(slots_);
    slots_.assign(old.empty() ? 8 : 2 * old.size(), Slot{0, 0, 0, 0});
    size_ = 0;
    for (const Slot& s : old)
      if (s.seq != 0) insert(s.context, s.source, s.seq, s.h);
  }

  std::vector<Slot> slots_;  // a power of two, at most half full
  std::size_t size_ = 0;
};

class PostedReceives {
 public:
  using Requests = std::vector<std::unique_ptr<Request>>;

  bool empty() const { return count_ == 0; }
  std::size_t size() const { return count_; }

  /// Posts receive h (its context, source and tag are set).
  void push(MPI_Request h, const Request& r) {
    const Entry e{++seq_, h};
    if (r.source == MPI_ANY_SOURCE) any_source_.push_back(e);
    else by_source_.insert(r.context, r.source, e.seq, h);
    ++count_;
  }

  /// The receive posted first among those that take a message (context, source, tag), removed
  /// from the posted ones; MPI_REQUEST_NULL if none does.
  MPI_Request take(std::uint64_t context, int source, int tag, const Requests& requests) {
    if (count_ == 0) return MPI_REQUEST_NULL;
    auto accepts = [&](MPI_Request h) {
      const Request& r = *requests[h];
      return r.context == context && envelope::accepts(r.source, r.tag, source, tag);
    };
    // The first posted of the source's receives that accept it (they are few: in any order).
    constexpr std::size_t kNone = ~std::size_t{0};
    std::size_t one = kNone;
    std::uint64_t one_seq = 0;
    MPI_Request one_h = MPI_REQUEST_NULL;
    by_source_.for_key(context, source, [&](std::size_t i, const SourceTable::Slot& s) {
      if ((one == kNone || s.seq < one_seq) && accepts(s.h)) {
        one = i;
        one_seq = s.seq;
        one_h = s.h;
      }
      return false;
    });
    if (!any_source_.empty()) {
      const auto any = std::find_if(any_source_.begin(), any_source_.end(), [&](const Entry& e) { return accepts(e.h); });
      if (any != any_source_.end() && (one == kNone || any->seq < one_seq)) {
        const MPI_Request h = any->h;
        any_source_.erase(any);
        --count_;
        return h;
      }
    }
    if (one == kNone) return MPI_REQUEST_NULL;
    by_source_.erase(one);
    --count_;
    return one_h;
  }

  /// Takes receive h back (MPI_Cancel); false if it is not posted.
  bool remove(MPI_Request h, const Request& r) {
    if (r.source == MPI_ANY_SOURCE) {
      const auto it = std::find_if(any_source_.begin(), any_source_.end(), [h](const Entry& e) { return e.h == h; });
      if (it == any_source_.end()) return false;
      any_source_.erase(it);
    } else {
      constexpr std::size_t kNone = ~std::size_t{0};
      std::size_t at = kNone;
      by_source_.for_key(r.context, r.source, [&](std::size_t i, const SourceTable::Slot& s) {
        if (s.h != h) return false;
        at = i;
        return true;
      });
      if (at == kNone) return false;
      by_source_.erase(at);
    }
    --count_;
    return true;
  }

  /// The posted receives in posting order (the deadlock report).
  std::vector<MPI_Request> in_order() const {
    std::vector<Entry> all(any_source_.begin(), any_source_.end());
    by_source_.for_each([&](const SourceTable::Slot& s) { all.push_back(Entry{s.seq, s.h}); });
    std::sort(all.begin(), all.end(), [](const Entry& a, const Entry& b) { return a.seq < b.seq; });
    std::vector<MPI_Request> out;
    for (const Entry& e : all) out.push_back(e.h);
    return out;
  }

 private:
  struct Entry {
    std::uint64_t seq;
    MPI_Request h;
  };

  SourceTable by_source_;
  std::deque<Entry> any_source_;  // (a deque: taken from the front, however many)
  std::size_t count_ = 0;
  std::uint64_t seq_ = 0;
};

}  // namespace tilempi::mpi
