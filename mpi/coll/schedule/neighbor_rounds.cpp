// Rounds of a neighbourhood exchange on the mesh (the neighbourhood collectives' mesh_rounds).
//
// A neighbourhood collective moves one message along every edge of the topology. On a mesh with
// XY routes two messages contend when they share a directed link, an injection link (a tile
// sending two at once) or an ejection link (a tile receiving two at once). The rounds below
// never put two such messages together. The order the first fit takes the messages in is what
// keeps the round count low: messages are grouped by their offset on the mesh (dx, dy). Two
// messages of one unit offset ("one tile east") never share a link: their routes are translates
// of one link, their sources and their destinations are distinct. A Cartesian grid whose
// neighbours sit one hop apart (reorder) therefore fills one round per direction: 2 x dimensions
// rounds, the bound its injection links impose. Larger groups go first (the bulk of a grid's
// edges before its wrap-around edges), then shorter offsets, then the offset itself, then ranks,
// so that every rank computes the same rounds.
#include <algorithm>
#include <cstdint>
#include <map>
#include <tuple>

#include "schedule.h"

namespace tilempi::coll::schedule {

namespace {

std::vector<int> message_links(const Space& sp, Point a, Point b) {
  std::vector<int> ids;
  for (const Link& l : xy_path(a, b)) ids.push_back(sp.link_id(l));
  ids.push_back(sp.link_id({a.x, a.y, Dir::Inject}));
  ids.push_back(sp.link_id({b.x, b.y, Dir::Eject}));
  return ids;
}

}  // namespace

Neighborhood cartesian_neighborhood(const std::vector<int>& dims, const std::vector<int>& periods) {
  int n = 1;
  for (int d : dims) n *= d;
  Neighborhood nb;
  nb.destinations.resize(static_cast<std::size_t>(n));
  const std::size_t nd = dims.size();
  std::vector<int> coords(nd);
  for (int r = 0; r < n; ++r) {
    int rest = r;
    for (std::size_t d = nd; d-- > 0;) {
      coords[d] = rest % dims[d];
      rest /= dims[d];
    }
    for (std::size_t d = 0; d < nd; ++d)
      for (int step : {-1, +1}) {
        std::vector<int> c = coords;
        c[d] += step;
        int to = 0;
        bool off = false;
        for (std::size_t e = 0; e < nd; ++e) {
          int v = c[e];
          if (periods[e])
            v = ((v % dims[e]) + dims[e]) % dims[e];
          else if (v < 0 || v >= dims[e])
            off = true;
          to = to * dims[e] + v;
        }
        nb.destinations[static_cast<std::size_t>(r)].push_back(off ? -1 : to);
      }
  }
  return nb;
}

NeighborRounds neighbor_rounds(const Mesh& mesh, const std::vector<Point>& members, const Neighborhood& nb) {
  NeighborRounds out;
  const int n = static_cast<int>(nb.destinations.size());
  out.send_round.resize(static_cast<std::size_t>(n));
  const Space sp = space_of(mesh, members);
  struct Message {
    int src, slot, dst;
    int dx, dy;
  };
  std::vector<Message> msgs;
  std::map<std::pair<int, int>, int> group_size;
  for (int r = 0; r < n; ++r) {
    const auto& d = nb.destinations[static_cast<std::size_t>(r)];
    out.send_round[static_cast<std::size_t>(r)].assign(d.size(), -1);
    for (std::size_t j = 0; j < d.size(); ++j) {
      if (d[j] < 0 || d[j] >= n) continue;
      const Point a = members[static_cast<std::size_t>(r)], b = members[static_cast<std::size_t>(d[j])];
      if (a == b) {
        out.send_round[static_cast<std::size_t>(r)][j] = 0;  // no link: a copy on the tile
        out.rounds = std::max(out.rounds, 1);
        continue;
      }
      msgs.push_back({r, static_cast<int>(j), d[j], b.x - a.x, b.y - a.y});
      ++group_size[{b.x - a.x, b.y - a.y}];
    }
  }
  std::stable_sort(msgs.begin(), msgs.end(), [&](const Message& x, const Message& y) {
    const int gx = group_size[{x.dx, x.dy}], gy = group_size[{y.dx, y.dy}];
    if (gx != gy) return gx > gy;
    const int lx = std::abs(x.dx) + std::abs(x.dy), ly = std::abs(y.dx) + std::abs(y.dy);
    if (lx != ly) return lx < ly;
    if (std::tie(x.dx, x.dy) != std::tie(y.dx, y.dy)) return std::tie(x.dx, x.dy) < std::tie(y.dx, y.dy);
    return std::tie(x.src, x.slot) < std::tie(y.src, y.slot);
  });
  // A rank sends its messages to one destination in slot order (the receiver matches them in
  // that order): a later one never goes in an earlier round than the one before it. (The sort
  // keeps one pair's messages in slot order: they share their offset.)
  std::map<std::pair<int, int>, int> last_round;  // (src, dst) -> round of the latest slot placed
  std::vector<std::vector<std::uint64_t>> used(static_cast<std::size_t>(sp.links()));
  for (const Message& m : msgs) {
    const auto links = message_links(sp, members[static_cast<std::size_t>(m.src)], members[static_cast<std::size_t>(m.dst)]);
    auto lr = last_round.find({m.src, m.dst});
    std::size_t round = lr == last_round.end() ? 0 : static_cast<std::size_t>(lr->second);
    for (;; ++round) {
      bool busy = false;
      for (int id : links) {
        const auto& bits = used[static_cast<std::size_t>(id)];
        if (round / 64 < bits.size() && (bits[round / 64] >> (round % 64) & 1u)) {
          busy = true;
          break;
        }
      }
      if (!busy) break;
    }
    for (int id : links) {
      auto& bits = used[static_cast<std::size_t>(id)];
      if (bits.size() <= round / 64) bits.resize(round / 64 + 1, 0);
      bits[round / 64] |= std::uint64_t{1} << (round % 64);
    }
    last_round[{m.src, m.dst}] = static_cast<int>(round);
    out.send_round[static_cast<std::size_t>(m.src)][static_cast<std::size_t>(m.slot)] = static_cast<int>(round);
    out.rounds = std::max(out.rounds, static_cast<int>(round) + 1);
  }
  return out;
}

Schedule neighbor_mesh_rounds(const Mesh& mesh, const std::vector<Point>& members, const Neighborhood& nb) {
  const NeighborRounds nr = neighbor_rounds(mesh, members, nb);
  Schedule s;
  s.rounds.resize(static_cast<std::size_t>(nr.rounds));
  for (std::size_t r = 0; r < nb.destinations.size(); ++r)
    for (std::size_t j = 0; j < nb.destinations[r].size(); ++j)
      if (nr.send_round[r][j] >= 0)
        s.rounds[static_cast<std::size_t>(nr.send_round[r][j])].push_back({static_cast<int>(r), nb.destinations[r][j]});
  return s;
}

Schedule neighbor_all_at_once(const Neighborhood& nb) {
  Schedule s;
  Round all;
  const int n = static_cast<int>(nb.destinations.size());
  for (int r = 0; r < n; ++r)
    for (int d : nb.destinations[static_cast<std::size_t>(r)])
      if (d >= 0 && d < n) all.push_back({r, d});
  if (!all.empty()) s.rounds.push_back(std::move(all));
  return s;
}

int neighbor_round_lower_bound(const Mesh& mesh, const std::vector<Point>& members, const Neighborhood& nb) {
  const Space sp = space_of(mesh, members);
  std::vector<int> load(static_cast<std::size_t>(sp.links()), 0);
  int best = 0;
  const int n = static_cast<int>(nb.destinations.size());
  for (int r = 0; r < n; ++r)
    for (int d : nb.destinations[static_cast<std::size_t>(r)]) {
      if (d < 0 || d >= n) continue;
      const Point a = members[static_cast<std::size_t>(r)], b = members[static_cast<std::size_t>(d)];
      if (a == b) {
        best = std::max(best, 1);
        continue;
      }
      for (int id : message_links(sp, a, b)) best = std::max(best, ++load[static_cast<std::size_t>(id)]);
    }
  return best;
}

WeightedGraph graph_of(const Neighborhood& nb) {
  WeightedGraph g;
  g.n = static_cast<int>(nb.destinations.size());
  g.out.resize(static_cast<std::size_t>(g.n));
  for (int r = 0; r < g.n; ++r)
    for (int d : nb.destinations[static_cast<std::size_t>(r)])
      if (d >= 0 && d < g.n) g.out[static_cast<std::size_t>(r)].push_back({d, 1});
  return g;
}

}  // namespace tilempi::coll::schedule
