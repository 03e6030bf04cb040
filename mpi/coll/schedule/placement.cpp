// Placing the ranks of a process topology on the tiles of the mesh (reorder=true in
// MPI_Cart_create, MPI_Graph_create and MPI_Dist_graph_create; MPI_Cart_map, MPI_Graph_map).
//
// The cost of a placement is what a neighbourhood exchange pays for it: the sum over the edges of
// weight x XY hops between the tiles of their ends. Three candidates, the cheapest wins (ties
// keep the earlier one, so a placement that is already as good stays as it is):
//   1. the identity (rank k on the k-th candidate tile: today's placement);
//   2. for a grid of at most two non-trivial dimensions, an exact embedding: a rectangle of
//      candidate tiles of the grid's shape, in either orientation, where every grid neighbour is
//      one hop away (a periodic grid's wrap-around edges then cross the rectangle);
//   3. greedy: the rank with the most weight to the ranks already placed goes next (the first is
//      rank 0, on the first candidate), onto the free tile with the least weighted distance to
//      its placed neighbours (ties: the lowest candidate); then every pair of positions (including
//      free tiles) is swapped where that lowers the cost, for as long as a pass finds one (at
//      most 16 passes; only up to 1024 ranks, where a pass costs 10^6 pair evaluations);
//   4. the identity improved by the same swaps.
// Everything is integer arithmetic on the inputs, so every rank computes the same placement.
#include <algorithm>
#include <climits>
#include <map>

#include "schedule.h"

namespace tilempi::coll::schedule {

long long weighted_hops(const WeightedGraph& g, const std::vector<Point>& tiles, const std::vector<int>& order) {
  long long sum = 0;
  for (int v = 0; v < g.n; ++v)
    for (const auto& [u, w] : g.out[static_cast<std::size_t>(v)])
      sum += static_cast<long long>(w) *
             hops(tiles[static_cast<std::size_t>(order[static_cast<std::size_t>(v)])],
                  tiles[static_cast<std::size_t>(order[static_cast<std::size_t>(u)])]);
  return sum;
}

namespace {

/// A rectangle of candidates of the grid's shape: order, or empty when there is none.
std::vector<int> grid_embedding(int n, const std::vector<Point>& tiles, const std::vector<int>& cart_dims) {
  // The non-trivial dimensions: rows (slower) and columns (faster) of the row-major ranks.
  std::vector<int> big;
  for (int d : cart_dims)
    if (d > 1) big.push_back(d);
  if (big.size() > 2 || big.empty()) return {};
  const int rows = big.size() == 2 ? big[0] : 1, cols = big.back();
  if (rows * cols != n) return {};
  std::map<std::pair<int, int>, int> at;
  int max_x = 0, max_y = 0;
  for (std::size_t i = 0; i < tiles.size(); ++i) {
    at.emplace(std::make_pair(tiles[i].x, tiles[i].y), static_cast<int>(i));
    max_x = std::max(max_x, tiles[i].x);
    max_y = std::max(max_y, tiles[i].y);
  }
  // Grid rows along the mesh's y (as row-major placement has them) first, then transposed.
  for (bool transposed : {false, true}) {
    const int w = transposed ? rows : cols, h = transposed ? cols : rows;
    for (int y0 = 0; y0 + h - 1 <= max_y; ++y0)
      for (int x0 = 0; x0 + w - 1 <= max_x; ++x0) {
        std::vector<int> order(static_cast<std::size_t>(n));
        bool ok = true;
        for (int k = 0; k < n && ok; ++k) {
          const int r = k / cols, c = k % cols;
          const int x = x0 + (transposed ? r : c), y = y0 + (transposed ? c : r);
          auto it = at.find({x, y});
          if (it == at.end()) ok = false;
          else order[static_cast<std::size_t>(k)] = it->second;
        }
        if (ok) return order;
      }
  }
  return {};
}

struct Undirected {
  std::vector<std::vector<std::pair<int, long long>>> adj;  ///< both directions, weights summed per pair
};

Undirected undirected(const WeightedGraph& g) {
  std::vector<std::map<int, long long>> m(static_cast<std::size_t>(g.n));
  for (int v = 0; v < g.n; ++v)
    for (const auto& [u, w] : g.out[static_cast<std::size_t>(v)]) {
      if (u == v) continue;  // a self loop costs nothing wherever v goes
      m[static_cast<std::size_t>(v)][u] += w;
      m[static_cast<std::size_t>(u)][v] += w;
    }
  Undirected ud;
  ud.adj.resize(static_cast<std::size_t>(g.n));
  for (int v = 0; v < g.n; ++v)
    for (const auto& [u, w] : m[static_cast<std::size_t>(v)]) ud.adj[static_cast<std::size_t>(v)].push_back({u, w});
  return ud;
}

std::vector<int> greedy(const WeightedGraph& g, const Undirected& ud, const std::vector<Point>& tiles) {
  const int n = g.n, m = static_cast<int>(tiles.size());
  std::vector<int> order(static_cast<std::size_t>(n), -1);
  std::vector<char> tile_used(static_cast<std::size_t>(m), 0);
  std::vector<long long> pull(static_cast<std::size_t>(n), 0);  // weight to placed ranks
  for (int step = 0; step < n; ++step) {
    int v = -1;
    for (int u = 0; u < n; ++u)
      if (order[static_cast<std::size_t>(u)] < 0 && (v < 0 || pull[static_cast<std::size_t>(u)] > pull[static_cast<std::size_t>(v)])) v = u;
    int best = -1;
    long long best_cost = LLONG_MAX;
    for (int t = 0; t < m; ++t) {
      if (tile_used[static_cast<std::size_t>(t)]) continue;
      long long cost = 0;
      for (const auto& [u, w] : ud.adj[static_cast<std::size_t>(v)])
        if (order[static_cast<std::size_t>(u)] >= 0)
          cost += w * hops(tiles[static_cast<std::size_t>(t)], tiles[static_cast<std::size_t>(order[static_cast<std::size_t>(u)])]);
      if (cost < best_cost) {
        best_cost = cost;
        best = t;
      }
    }
    order[static_cast<std::size_t>(v)] = best;
    tile_used[static_cast<std::size_t>(best)] = 1;
    for (const auto& [u, w] : ud.adj[static_cast<std::size_t>(v)]) pull[static_cast<std::size_t>(u)] += w;
  }
  return order;
}

/// Pairwise swaps (of two ranks, or of a rank and a free tile) while one lowers the cost.
void improve(const Undirected& ud, const std::vector<Point>& tiles, std::vector<int>& order) {
  const int n = static_cast<int>(order.size()), m = static_cast<int>(tiles.size());
  if (n > 1024) return;
  std::vector<int> who(static_cast<std::size_t>(m), -1);  // rank on each tile
  for (int v = 0; v < n; ++v) who[static_cast<std::size_t>(order[static_cast<std::size_t>(v)])] = v;
  auto cost_at = [&](int v, int t, int ignore) {
    long long c = 0;
    for (const auto& [u, w] : ud.adj[static_cast<std::size_t>(v)]) {
      if (u == ignore) continue;  // the edge between two swapped ranks keeps its length
      c += w * hops(tiles[static_cast<std::size_t>(t)], tiles[static_cast<std::size_t>(order[static_cast<std::size_t>(u)])]);
    }
    return c;
  };
  for (int pass = 0; pass < 16; ++pass) {
    bool better = false;
    for (int a = 0; a < m; ++a)
      for (int b = a + 1; b < m; ++b) {
        const int va = who[static_cast<std::size_t>(a)], vb = who[static_cast<std::size_t>(b)];
        if (va < 0 && vb < 0) continue;
        long long before = 0, after = 0;
        if (va >= 0) before += cost_at(va, a, vb), after += cost_at(va, b, vb);
        if (vb >= 0) before += cost_at(vb, b, va), after += cost_at(vb, a, va);
        if (after >= before) continue;
        if (va >= 0) order[static_cast<std::size_t>(va)] = b;
        if (vb >= 0) order[static_cast<std::size_t>(vb)] = a;
        std::swap(who[static_cast<std::size_t>(a)], who[static_cast<std::size_t>(b)]);
        better = true;
      }
    if (!better) break;
  }
}

}  // namespace

std::vector<int> place_graph(const WeightedGraph& g, const std::vector<Point>& tiles, const std::vector<int>& cart_dims,
                             std::string* method) {
  std::vector<int> best(static_cast<std::size_t>(g.n));
  for (int v = 0; v < g.n; ++v) best[static_cast<std::size_t>(v)] = v;
  std::string how = "identity";
  if (g.n < 2 || static_cast<int>(tiles.size()) < g.n) {
    if (method) *method = how;
    return best;
  }
  long long best_cost = weighted_hops(g, tiles, best);
  if (!cart_dims.empty()) {
    std::vector<int> grid = grid_embedding(g.n, tiles, cart_dims);
    if (!grid.empty()) {
      const long long c = weighted_hops(g, tiles, grid);
      if (c < best_cost) best_cost = c, best = grid, how = "grid";
    }
  }
  const Undirected ud = undirected(g);
  std::vector<int> gr = greedy(g, ud, tiles);
  improve(ud, tiles, gr);
  if (const long long c = weighted_hops(g, tiles, gr); c < best_cost) best_cost = c, best = gr, how = "greedy";
  // The identity improved by the same swaps: where the ranks sit already is often nearly right.
  std::vector<int> swapped(static_cast<std::size_t>(g.n));
  for (int v = 0; v < g.n; ++v) swapped[static_cast<std::size_t>(v)] = v;
  improve(ud, tiles, swapped);
  if (const long long c = weighted_hops(g, tiles, swapped); c < best_cost) best_cost = c, best = swapped, how = "swaps";
  if (method) *method = how;
  return best;
}

}  // namespace tilempi::coll::schedule
