// The contention-free alltoall rounds ([Yagna 2013] §3.2.1, Algorithm 1).
//
// Yagna splits the exchange into direct-row, direct-column, left and right rounds, in which a
// task exchanges with the partner at +offset and -offset, and leaves the selection of who
// exchanges in a round (Select-col / Select-row) open. tilempi builds the rounds from the members'
// real coordinates so that any W x H mesh, a partly filled one and a split communicator scattered
// over the mesh all work:
//   1. every unordered pair {a, b} of members is one exchange (a -> b and b -> a in the same round;
//      under XY routing the two directions never share a directed link);
//   2. an exchange occupies the mesh links of both XY routes plus the injection and ejection links
//      of a and b, so a member exchanges with at most one partner per round;
//   3. exchanges are placed first-fit, in a fixed priority order, into the earliest round whose
//      links they leave free. The priority puts first the exchanges through the busiest links
//      (sum over their links of how many exchanges use the link), then longer ones, then by rank:
//      the bottleneck links (the mesh's bisection) fill every round, which keeps the round count
//      near the bound that link imposes (alltoall_round_lower_bound).
// Everything is integer arithmetic on the coordinates, so every rank computes the same rounds.
#include <algorithm>
#include <bit>
#include <cstdint>
#include <numeric>

#include "schedule.h"

namespace tilempi::coll::schedule {

namespace {

std::vector<int> exchange_links(const Space& sp, Point a, Point b) {
  std::vector<int> ids;
  for (const Link& l : xy_path(a, b)) ids.push_back(sp.link_id(l));
  for (const Link& l : xy_path(b, a)) ids.push_back(sp.link_id(l));
  ids.push_back(sp.link_id({a.x, a.y, Dir::Inject}));
  ids.push_back(sp.link_id({a.x, a.y, Dir::Eject}));
  ids.push_back(sp.link_id({b.x, b.y, Dir::Inject}));
  ids.push_back(sp.link_id({b.x, b.y, Dir::Eject}));
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());  // members sharing a tile
  return ids;
}

}  // namespace

std::vector<std::vector<Exchange>> mesh_rounds_exchanges(const Mesh& mesh, const std::vector<Point>& members) {
  const int n = static_cast<int>(members.size());
  std::vector<std::vector<Exchange>> rounds;
  if (n < 2) return rounds;
  const Space sp = space_of(mesh, members);

  struct Cand {
    int a, b;
    long long weight;
    int dist;
    std::vector<int> links;
  };
  std::vector<Cand> cands;
  cands.reserve(static_cast<std::size_t>(n) * static_cast<std::size_t>(n - 1) / 2);
  std::vector<long long> load(static_cast<std::size_t>(sp.links()), 0);
  for (int a = 0; a < n; ++a)
    for (int b = a + 1; b < n; ++b) {
      Cand c{a, b, 0, hops(members[static_cast<std::size_t>(a)], members[static_cast<std::size_t>(b)]),
             exchange_links(sp, members[static_cast<std::size_t>(a)], members[static_cast<std::size_t>(b)])};
      for (int id : c.links) ++load[static_cast<std::size_t>(id)];
      cands.push_back(std::move(c));
    }
  for (Cand& c : cands)
    for (int id : c.links) c.weight += load[static_cast<std::size_t>(id)];
  std::sort(cands.begin(), cands.end(), [](const Cand& x, const Cand& y) {
    if (x.weight != y.weight) return x.weight > y.weight;
    if (x.dist != y.dist) return x.dist > y.dist;
    if (x.a != y.a) return x.a < y.a;
    return x.b < y.b;
  });

  // used[link] = bitset of the rounds that already use the link.
  std::vector<std::vector<std::uint64_t>> used(static_cast<std::size_t>(sp.links()));
  for (const Cand& c : cands) {
    std::size_t round = 0;
    for (std::size_t w = 0;; ++w) {
      std::uint64_t busy = 0;
      for (int id : c.links) {
        const auto& bits = used[static_cast<std::size_t>(id)];
        if (w < bits.size()) busy |= bits[w];
      }
      if (busy != ~std::uint64_t{0}) {
        round = w * 64 + static_cast<std::size_t>(std::countr_one(busy));
        break;
      }
    }
    for (int id : c.links) {
      auto& bits = used[static_cast<std::size_t>(id)];
      if (bits.size() <= round / 64) bits.resize(round / 64 + 1, 0);
      bits[round / 64] |= std::uint64_t{1} << (round % 64);
    }
    if (rounds.size() <= round) rounds.resize(round + 1);
    rounds[round].push_back({c.a, c.b});
  }
  for (auto& r : rounds)
    std::sort(r.begin(), r.end(), [](const Exchange& x, const Exchange& y) { return x.a < y.a; });
  return rounds;
}

Schedule mesh_rounds(const Mesh& mesh, const std::vector<Point>& members) {
  Schedule s;
  for (const auto& r : mesh_rounds_exchanges(mesh, members)) {
    Round round;
    for (const Exchange& e : r) {
      round.push_back({e.a, e.b});
      round.push_back({e.b, e.a});
    }
    s.rounds.push_back(std::move(round));
  }
  return s;
}

int alltoall_round_lower_bound(const Mesh& mesh, const std::vector<Point>& members) {
  const int n = static_cast<int>(members.size());
  if (n < 2) return 0;
  const Space sp = space_of(mesh, members);
  std::vector<int> load(static_cast<std::size_t>(sp.links()), 0);
  int best = n % 2 ? n : n - 1;
  for (int a = 0; a < n; ++a)
    for (int b = 0; b < n; ++b) {
      if (a == b) continue;
      for (const Link& l : xy_path(members[static_cast<std::size_t>(a)], members[static_cast<std::size_t>(b)]))
        best = std::max(best, ++load[static_cast<std::size_t>(sp.link_id(l))]);
    }
  return best;
}

}  // namespace tilempi::coll::schedule
