// bcast static_route ([Yagna 2013] §3.2.3): the broadcast tree (the root's column, then the rows) set
// up as static routes, one switch setting per tile, and sent as one StaticRoutes::bcast; the same
// tree over point-to-point where there is no static network or no static route for it. The
// static routes also release barrier ktree_static (ktree.cpp).
#include <map>

#include "coll/coll.h"
#include "runtime.h"

namespace tilempi::mpi::coll {

namespace {

namespace sch = schedule;

const sch::Tree& bcast_tree(Comm& c, int root) {
  CollState& st = state(c);
  auto it = st.bcast_trees.find(root);
  if (it != st.bcast_trees.end()) return *it->second;
  const CollState& g = geometry(c);
  auto t = shared_by_members<sch::Tree>(c, kSharedBcastTree, root, [&] { return sch::static_route_tree(g.mesh, g.members, root); });
  return *st.bcast_trees.emplace(root, std::move(t)).first->second;
}

unsigned port_of(sch::Dir d) {
  switch (d) {
    case sch::Dir::North: return transport::kPortNorth;
    case sch::Dir::East: return transport::kPortEast;
    case sch::Dir::South: return transport::kPortSouth;
    case sch::Dir::West: return transport::kPortWest;
    default: return transport::kPortLocal;
  }
}
unsigned opposite(unsigned p) {
  switch (p) {
    case transport::kPortNorth: return transport::kPortSouth;
    case transport::kPortSouth: return transport::kPortNorth;
    case transport::kPortEast: return transport::kPortWest;
    case transport::kPortWest: return transport::kPortEast;
    default: return transport::kPortLocal;
  }
}

/// One switch setting per tile for the broadcast tree: each edge's XY route through the mesh,
/// delivering to the core at every member. Empty when the tree cannot be expressed as static
/// routes (a tile on a route hosts no rank, or would need two input ports).
std::vector<transport::StaticRouteHop> static_routes(Comm& c, const sch::Tree& t) {
  const auto& topo = transport_of_job().rank_placement();
  const CollState& g = geometry(c);
  std::map<std::pair<int, int>, int> tile_rank;  // (x, y) -> a world rank on that tile
  for (std::size_t w = 0; w < topo.coord.size(); ++w) tile_rank.emplace(std::make_pair(topo.coord[w].x, topo.coord[w].y), static_cast<int>(w));
  std::map<std::pair<int, int>, transport::StaticRouteHop> hops;
  auto hop_at = [&](int x, int y, bool* ok) -> transport::StaticRouteHop* {
    auto tr = tile_rank.find({x, y});
    if (tr == tile_rank.end()) {
      *ok = false;
      return nullptr;
    }
    auto [it, fresh] = hops.try_emplace({x, y}, transport::StaticRouteHop{tr->second, 0u, 0u});
    return &it->second;
  };
  bool ok = true;
  const sch::Point rp = g.members[static_cast<std::size_t>(t.root)];
  if (auto* h = hop_at(rp.x, rp.y, &ok)) h->in_port = transport::kPortLocal;
  for (std::size_t child = 0; child < t.parent.size() && ok; ++child) {
    const int parent = t.parent[child];
    if (parent < 0) continue;
    const sch::Point a = g.members[static_cast<std::size_t>(parent)], b = g.members[child];
    for (const sch::Link& l : sch::xy_path(a, b)) {
      auto* from = hop_at(l.x, l.y, &ok);
      if (!ok) break;
      const unsigned out = port_of(l.dir);
      from->out_mask |= out;
      int nx = l.x + (l.dir == sch::Dir::East) - (l.dir == sch::Dir::West);
      int ny = l.y + (l.dir == sch::Dir::South) - (l.dir == sch::Dir::North);
      auto* to = hop_at(nx, ny, &ok);
      if (!ok) break;
      if (to->in_port != 0 && to->in_port != opposite(out)) ok = false;
      to->in_port = opposite(out);
    }
    if (!ok) break;
    if (auto* h = hop_at(b.x, b.y, &ok)) h->out_mask |= transport::kPortLocal;
  }
  std::vector<transport::StaticRouteHop> routes;
  if (!ok) return routes;
  for (auto& [xy, h] : hops) routes.push_back(h);
  return routes;
}

}  // namespace

/// A static-network broadcast's id on this communicator: the groups of one MPI_Comm_split may
/// share a context, so the root's world rank (unique among concurrent groups) is in it too. The
/// rest is the call's number (its tag range, the same at every member, counted before any
/// argument is checked) and the transfer's place in the call. With a count of the transfers
/// instead, a call that failed at its root before the transfer would shift the root's later ids
/// against the others': its next broadcast would pair with the failed one (wrong data), and
/// every later one would wait.
std::uint64_t static_id(Comm& c, int world_root) {
  CollState& st = state(c);
  const std::uint32_t call = static_cast<std::uint32_t>(coll_tag_offset(c)) / kTagsPerCall;
  if (call != st.static_call) {
    st.static_call = call;
    st.static_seq = 0;
  }
  return ((c.context & 0xffffffull) << 40) | ((static_cast<std::uint64_t>(world_root) & 0xffffull) << 24) |
         ((static_cast<std::uint64_t>(call) & 0xfffull) << 12) | (st.static_seq++ & 0xfffull);
}

/// The static routes of the broadcast tree rooted at root, computed once per communicator: a
/// barrier of mesh_rounds' round loop asks for them every round.
const std::vector<transport::StaticRouteHop>& cached_static_routes(Comm& c, int root) {
  CollState& st = state(c);
  auto it = st.static_routes.find(root);
  if (it == st.static_routes.end()) {
    auto routes = shared_by_members<std::vector<transport::StaticRouteHop>>(
        c, kSharedStaticRoutes, root, [&] { return static_routes(c, bcast_tree(c, root)); });
    it = st.static_routes.emplace(root, std::move(routes)).first;
  }
  return *it->second;
}

int bcast_static_route(void* buf, std::size_t bytes, int root, Comm& c, int) {
  const sch::Tree& t = bcast_tree(c, root);
  if (transport::StaticRoutes* sn = static_routes_now()) {
    const auto& routes = cached_static_routes(c, root);
    if (!routes.empty()) {
      const int world_root = c.world[static_cast<std::size_t>(root)];
      const std::size_t sent = sn->bcast(static_id(c, world_root), routes, world_root, buf, bytes);
      // A size other than the root's: this rank fails alone (the network delivered to everyone).
      SizedCall call(c);
      if (sent != bytes) call.mismatch(sent, bytes);
      return call.result();
    }
  }
  // The same tree over point-to-point: receive from the parent, forward to the children (what
  // came: a rank whose size differs from the root's fails alone, bcast.cpp).
  SizedCall call(c);
  const int parent = t.parent[static_cast<std::size_t>(c.rank)];
  if (parent >= 0)
    if (int rc = call.recv(buf, bytes, parent, kTagBcast, &bytes)) return rc;
  const auto& kids = t.children[static_cast<std::size_t>(c.rank)];
  std::vector<MPI_Request> reqs(kids.size());
  for (std::size_t i = 0; i < kids.size(); ++i)
    if (int rc = isend_bytes(buf, bytes, kids[i], kTagBcast, c, &reqs[i])) return rc;
  if (int rc = waitall(reqs)) return rc;
  return call.result();
}

// ---- registry entries (registry.cpp lists them) ----------------------------------------------

namespace entry {

extern const Algorithm bcast_static_route{
    .kind = Collective::Bcast, .name = "static_route", .family = Family::Mesh, .fn = any(&coll::bcast_static_route),
    .help = "static-network tree: root's column, then the rows ([Yagna 2013] §3.2.3); the same tree over "
            "point-to-point without a static network",
    .default_on = DefaultOn::MultiRow,
    .schedule = [](const schedule::Mesh& mesh, const Members& m, int root, int) {
      return schedule::tree_scatter_rounds(schedule::static_route_tree(mesh, m, root));
    }};

}  // namespace entry

}  // namespace tilempi::mpi::coll
