// XY routes, link accounting and the conflict report.
#include <algorithm>
#include <map>

#include "schedule.h"

namespace tilempi::coll::schedule {

std::size_t Schedule::messages() const {
  std::size_t n = 0;
  for (const Round& r : rounds) n += r.size();
  return n;
}

const char* dir_name(Dir d) {
  switch (d) {
    case Dir::North: return "N";
    case Dir::East: return "E";
    case Dir::South: return "S";
    case Dir::West: return "W";
    case Dir::Inject: return "inject";
    case Dir::Eject: return "eject";
  }
  return "?";
}

std::string Link::str() const {
  return "(" + std::to_string(x) + "," + std::to_string(y) + ")" + dir_name(dir);
}

std::vector<Link> xy_path(Point a, Point b) {
  std::vector<Link> links;
  links.reserve(static_cast<std::size_t>(hops(a, b)));
  int x = a.x;
  while (x != b.x) {
    if (b.x > x) {
      links.push_back({x, a.y, Dir::East});
      ++x;
    } else {
      links.push_back({x, a.y, Dir::West});
      --x;
    }
  }
  int y = a.y;
  while (y != b.y) {
    if (b.y > y) {
      links.push_back({b.x, y, Dir::South});
      ++y;
    } else {
      links.push_back({b.x, y, Dir::North});
      --y;
    }
  }
  return links;
}

int Tree::height() const {
  int h = 0;
  for (int d : depth) h = std::max(h, d);
  return h;
}

Report analyse(const Mesh& mesh, const std::vector<Point>& members, const Schedule& s) {
  Report rep;
  rep.rounds = static_cast<int>(s.rounds.size());
  for (std::size_t ri = 0; ri < s.rounds.size(); ++ri) {
    const Round& round = s.rounds[ri];
    std::map<int, std::pair<Link, std::vector<Msg>>> use;
    std::map<int, int> endpoint_out, endpoint_in;
    for (const Msg& m : round) {
      Point a = members[static_cast<std::size_t>(m.src)], b = members[static_cast<std::size_t>(m.dst)];
      for (const Link& l : xy_path(a, b)) {
        auto& slot = use[l.id(mesh)];
        slot.first = l;
        slot.second.push_back(m);
      }
      rep.max_endpoint_load = std::max(rep.max_endpoint_load, ++endpoint_out[a.y * mesh.width + a.x]);
      rep.max_endpoint_load = std::max(rep.max_endpoint_load, ++endpoint_in[b.y * mesh.width + b.x]);
    }
    RoundReport rr;
    rr.messages = static_cast<int>(round.size());
    for (auto& [id, slot] : use) {
      int load = static_cast<int>(slot.second.size());
      rr.max_link_load = std::max(rr.max_link_load, load);
      if (load > 1) rep.conflicts.push_back({static_cast<int>(ri), slot.first, slot.second});
    }
    rep.max_link_load = std::max(rep.max_link_load, rr.max_link_load);
    rep.messages += round.size();
    rep.per_round.push_back(rr);
  }
  return rep;
}

bool covers_all_pairs_once(const Schedule& s, int n) {
  std::vector<int> seen(static_cast<std::size_t>(n) * static_cast<std::size_t>(n), 0);
  for (const Round& r : s.rounds)
    for (const Msg& m : r) {
      if (m.src < 0 || m.src >= n || m.dst < 0 || m.dst >= n || m.src == m.dst) return false;
      ++seen[static_cast<std::size_t>(m.src) * static_cast<std::size_t>(n) + static_cast<std::size_t>(m.dst)];
    }
  for (int a = 0; a < n; ++a)
    for (int b = 0; b < n; ++b)
      if (a != b && seen[static_cast<std::size_t>(a) * static_cast<std::size_t>(n) + static_cast<std::size_t>(b)] != 1)
        return false;
  return true;
}

std::vector<Point> row_major(const Mesh& mesh, int n) {
  std::vector<Point> pts;
  for (int i = 0; i < n; ++i) pts.push_back({i % mesh.width, i / mesh.width});
  return pts;
}

}  // namespace tilempi::coll::schedule
