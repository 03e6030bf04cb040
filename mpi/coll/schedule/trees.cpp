// Mesh-mapped trees of [Yagna 2013] §3.2.2-3.2.4 (barrier, static-route broadcast, two-level reduce),
// built from the members' coordinates so that partly filled meshes and split communicators work.
#include <algorithm>
#include <map>
#include <tuple>

#include "schedule.h"

namespace tilempi::coll::schedule {

namespace {

Tree empty_tree(int n, int root) {
  Tree t;
  t.root = root;
  t.parent.assign(static_cast<std::size_t>(n), -1);
  t.children.assign(static_cast<std::size_t>(n), {});
  t.depth.assign(static_cast<std::size_t>(n), 0);
  return t;
}

void link_child(Tree& t, int parent, int child) {
  t.parent[static_cast<std::size_t>(child)] = parent;
  t.children[static_cast<std::size_t>(parent)].push_back(child);
}

void fill_levels_by_depth(Tree& t) {
  const int h = t.height();
  t.level.assign(t.parent.size(), 0);
  for (std::size_t i = 0; i < t.parent.size(); ++i) t.level[i] = h - t.depth[i] + 1;
}

void fill_depths(Tree& t) {
  // Parents are always linked before their children are used as parents; walk until stable.
  const std::size_t n = t.parent.size();
  std::vector<int> order;
  order.push_back(t.root);
  t.depth[static_cast<std::size_t>(t.root)] = 0;
  for (std::size_t i = 0; i < order.size(); ++i)
    for (int c : t.children[static_cast<std::size_t>(order[i])]) {
      t.depth[static_cast<std::size_t>(c)] = t.depth[static_cast<std::size_t>(order[i])] + 1;
      order.push_back(c);
    }
  (void)n;
  fill_levels_by_depth(t);
}

}  // namespace

Tree ktree(const Mesh&, const std::vector<Point>& members, int k) {
  const int n = static_cast<int>(members.size());
  if (n == 0) return Tree{};
  if (k < 1) k = 1;
  int minx = members[0].x, maxx = minx, miny = members[0].y, maxy = miny;
  for (const Point& p : members) {
    minx = std::min(minx, p.x);
    maxx = std::max(maxx, p.x);
    miny = std::min(miny, p.y);
    maxy = std::max(maxy, p.y);
  }
  // Root: the member nearest the centre of the bounding box (doubled coordinates keep it integral).
  auto centre_dist = [&](const Point& p) { return std::abs(2 * p.x - (minx + maxx)) + std::abs(2 * p.y - (miny + maxy)); };
  int root = 0;
  for (int i = 1; i < n; ++i)
    if (centre_dist(members[static_cast<std::size_t>(i)]) < centre_dist(members[static_cast<std::size_t>(root)])) root = i;
  Tree t = empty_tree(n, root);
  const Point rp = members[static_cast<std::size_t>(root)];

  std::vector<int> order;
  for (int i = 0; i < n; ++i)
    if (i != root) order.push_back(i);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    return hops(members[static_cast<std::size_t>(a)], rp) < hops(members[static_cast<std::size_t>(b)], rp);
  });
  std::vector<int> in_tree{root};
  for (int m : order) {
    const Point mp = members[static_cast<std::size_t>(m)];
    int best = -1;
    std::tuple<int, int, int, int, int> best_key{};
    for (int c : in_tree) {
      const int cap = c == root ? k + 1 : k;
      if (static_cast<int>(t.children[static_cast<std::size_t>(c)].size()) >= cap) continue;
      const Point cp = members[static_cast<std::size_t>(c)];
      auto key = std::make_tuple(hops(mp, cp), cp.y == mp.y ? 0 : 1, cp.x == mp.x ? 0 : 1, hops(cp, rp), c);
      if (best < 0 || key < best_key) {
        best = c;
        best_key = key;
      }
    }
    link_child(t, best, m);
    in_tree.push_back(m);
  }
  for (auto& ch : t.children) std::sort(ch.begin(), ch.end());
  fill_depths(t);
  return t;
}

Tree static_route_tree(const Mesh&, const std::vector<Point>& members, int root) {
  const int n = static_cast<int>(members.size());
  Tree t = empty_tree(n, root);
  if (n == 0) return t;
  const Point rp = members[static_cast<std::size_t>(root)];
  auto pt = [&](int i) { return members[static_cast<std::size_t>(i)]; };

  // Trunk: the root's column, chained north and south from the root.
  std::vector<int> north, south;
  std::map<int, int> trunk_at;  // row -> trunk member
  trunk_at[rp.y] = root;
  for (int i = 0; i < n; ++i) {
    if (i == root || pt(i).x != rp.x) continue;
    if (trunk_at.count(pt(i).y)) continue;  // a second member on one tile: handled with the rows
    trunk_at[pt(i).y] = i;
    (pt(i).y < rp.y ? north : south).push_back(i);
  }
  std::sort(north.begin(), north.end(), [&](int a, int b) { return pt(a).y > pt(b).y; });
  std::sort(south.begin(), south.end(), [&](int a, int b) { return pt(a).y < pt(b).y; });
  for (auto* chain : {&north, &south}) {
    int prev = root;
    for (int m : *chain) {
      link_child(t, prev, m);
      prev = m;
    }
  }
  // Rows, nearest to the root's row first: chained west and east from the row's trunk member. A
  // row without one (a partly filled mesh, a split communicator) starts at its member nearest
  // the trunk column, which hangs off the nearest member already in the tree (same column first).
  std::map<int, std::vector<int>> rows;  // y -> members not yet placed
  for (int i = 0; i < n; ++i)
    if (t.parent[static_cast<std::size_t>(i)] < 0 && i != root) rows[pt(i).y].push_back(i);
  std::vector<int> row_order;
  for (auto& [y, v] : rows) row_order.push_back(y);
  std::stable_sort(row_order.begin(), row_order.end(),
                   [&](int a, int b) { return std::abs(a - rp.y) < std::abs(b - rp.y); });
  std::vector<int> placed{root};
  for (auto& [y, m] : trunk_at)
    if (m != root) placed.push_back(m);
  for (int y : row_order) {
    std::vector<int>& row = rows[y];
    int attach;
    if (auto it = trunk_at.find(y); it != trunk_at.end()) {
      attach = it->second;
    } else {
      // The row's member nearest the trunk column becomes its head.
      int head = row[0];
      for (int m : row)
        if (std::make_pair(std::abs(pt(m).x - rp.x), m) < std::make_pair(std::abs(pt(head).x - rp.x), head)) head = m;
      int best = root;
      auto key = [&](int c) { return std::make_tuple(hops(pt(c), pt(head)), pt(c).x == pt(head).x ? 0 : 1, c); };
      for (int c : placed)
        if (key(c) < key(best)) best = c;
      link_child(t, best, head);
      placed.push_back(head);
      row.erase(std::find(row.begin(), row.end(), head));
      attach = head;
    }
    const int ax = pt(attach).x;
    std::vector<int> west, east;
    for (int m : row) (pt(m).x < ax || (pt(m).x == ax && m < attach) ? west : east).push_back(m);
    std::sort(west.begin(), west.end(), [&](int a, int b) { return std::make_pair(-pt(a).x, a) < std::make_pair(-pt(b).x, b); });
    std::sort(east.begin(), east.end(), [&](int a, int b) { return std::make_pair(pt(a).x, a) < std::make_pair(pt(b).x, b); });
    for (auto* chain : {&west, &east}) {
      int prev = attach;
      for (int m : *chain) {
        link_child(t, prev, m);
        placed.push_back(m);
        prev = m;
      }
    }
  }
  fill_depths(t);
  return t;
}

Tree mesh_reduce_tree(const Mesh&, const std::vector<Point>& members, int root) {
  const int n = static_cast<int>(members.size());
  Tree t = empty_tree(n, root);
  if (n == 0) return t;
  const Point rp = members[static_cast<std::size_t>(root)];
  auto pt = [&](int i) { return members[static_cast<std::size_t>(i)]; };
  std::map<int, int> head;  // column -> head member
  head[rp.x] = root;
  for (int i = 0; i < n; ++i) {
    auto it = head.find(pt(i).x);
    if (it == head.end()) {
      head[pt(i).x] = i;
      continue;
    }
    if (it->second == root) continue;
    auto key = [&](int m) { return std::make_tuple(std::abs(pt(m).y - rp.y), pt(m).y, m); };
    if (key(i) < key(it->second)) it->second = i;
  }
  std::vector<int> level(static_cast<std::size_t>(n), 1);
  for (int i = 0; i < n; ++i) {
    if (i == root) continue;
    int h = head[pt(i).x];
    link_child(t, h == i ? root : h, i);
    if (h == i) level[static_cast<std::size_t>(i)] = 2;  // step 2: heads to the root
  }
  for (int p = 0; p < n; ++p) {
    auto& ch = t.children[static_cast<std::size_t>(p)];
    const Point pp = pt(p);
    std::sort(ch.begin(), ch.end(), [&](int a, int b) {
      auto key = [&](int m) {
        const Point q = pt(m);
        return std::make_tuple(level[static_cast<std::size_t>(m)], hops(q, pp), q.y < pp.y ? 0 : (q.y > pp.y ? 1 : 2),
                               q.x < pp.x ? 0 : 1, m);
      };
      return key(a) < key(b);
    });
  }
  fill_depths(t);
  t.level = level;
  return t;
}

Schedule tree_gather_rounds(const Tree& t, const std::vector<Point>& members) {
  // Grouped by (level, hop distance to the parent): level 1 sends first.
  std::map<std::pair<int, int>, Round> by_key;
  for (std::size_t c = 0; c < t.parent.size(); ++c) {
    if (t.parent[c] < 0) continue;
    const int p = t.parent[c];
    by_key[{t.level[c], hops(members[c], members[static_cast<std::size_t>(p)])}].push_back({static_cast<int>(c), p});
  }
  Schedule s;
  for (auto& [key, round] : by_key) s.rounds.push_back(std::move(round));
  return s;
}

Schedule tree_scatter_rounds(const Tree& t) {
  Schedule s;
  const int h = t.height();
  for (int d = 1; d <= h; ++d) {
    Round round;
    for (std::size_t c = 0; c < t.parent.size(); ++c)
      if (t.depth[c] == d && t.parent[c] >= 0) round.push_back({t.parent[c], static_cast<int>(c)});
    s.rounds.push_back(std::move(round));
  }
  return s;
}

}  // namespace tilempi::coll::schedule
