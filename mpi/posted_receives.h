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
// at 4096, where a pairwise alltoall has one or two receives posted per rank at a time.
#pragma once

#include <algorithm>
#include <cstdint>
#include <deque>
#include <memory>
#include <unordered_map>
#include <vector>

#include "envelope.h"
#include "request.h"

namespace tilempi::mpi {

class PostedReceives {
 public:
  using Requests = std::vector<std::unique_ptr<Request>>;

  bool empty() const { return count_ == 0; }
  std::size_t size() const { return count_; }

  /// Posts receive h (its context, source and tag are set).
  void push(MPI_Request h, const Request& r) {
    const Entry e{++seq_, h};
    if (r.source == MPI_ANY_SOURCE) any_source_.push_back(e);
    else by_source_.emplace(Key{r.context, r.source}, e);
    ++count_;
  }

  /// The receive posted first among those that take a message (context, source, tag), removed
  /// from the posted ones; MPI_REQUEST_NULL if none does.
  MPI_Request take(std::uint64_t context, int source, int tag, const Requests& requests) {
    if (count_ == 0) return MPI_REQUEST_NULL;
    auto accepts = [&](const Entry& e) {
      const Request& r = *requests[e.h];
      return r.context == context && envelope::accepts(r.source, r.tag, source, tag);
    };
    // The first posted of the source's receives that accept it (they are few: in any order).
    BySource::iterator one = by_source_.end();
    if (!by_source_.empty()) {
      const auto [from, to] = by_source_.equal_range(Key{context, source});
      for (auto it = from; it != to; ++it)
        if ((one == by_source_.end() || it->second.seq < one->second.seq) && accepts(it->second)) one = it;
    }
    if (!any_source_.empty()) {
      const auto any = std::find_if(any_source_.begin(), any_source_.end(), accepts);
      if (any != any_source_.end() && (one == by_source_.end() || any->seq < one->second.seq)) {
        const MPI_Request h = any->h;
        any_source_.erase(any);
        --count_;
        return h;
      }
    }
    if (one == by_source_.end()) return MPI_REQUEST_NULL;
    const MPI_Request h = one->second.h;
    by_source_.erase(one);
    --count_;
    return h;
  }

  /// Takes receive h back (MPI_Cancel); false if it is not posted.
  bool remove(MPI_Request h, const Request& r) {
    if (r.source == MPI_ANY_SOURCE) {
      const auto it = std::find_if(any_source_.begin(), any_source_.end(), [h](const Entry& e) { return e.h == h; });
      if (it == any_source_.end()) return false;
      any_source_.erase(it);
    } else {
      const auto [from, to] = by_source_.equal_range(Key{r.context, r.source});
      const auto it = std::find_if(from, to, [h](const auto& kv) { return kv.second.h == h; });
      if (it == to) return false;
      by_source_.erase(it);
    }
    --count_;
    return true;
  }

  /// The posted receives in posting order (the deadlock report).
  std::vector<MPI_Request> in_order() const {
    std::vector<Entry> all(any_source_.begin(), any_source_.end());
    for (const auto& [key, e] : by_source_) all.push_back(e);
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
  struct Key {
    std::uint64_t context;
    int source;
    bool operator==(const Key&) const = default;
  };
  struct KeyHash {
    std::size_t operator()(const Key& k) const {
      return static_cast<std::size_t>((k.context * 0x9E3779B97F4A7C15ull) ^ static_cast<std::uint32_t>(k.source));
    }
  };
  using BySource = std::unordered_multimap<Key, Entry, KeyHash>;

  BySource by_source_;
  std::deque<Entry> any_source_;  // (a deque: taken from the front, however many)
  std::size_t count_ = 0;
  std::uint64_t seq_ = 0;
};

}  // namespace tilempi::mpi
