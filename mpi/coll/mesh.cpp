// The NoCMsg mesh collectives of seed 003 chapter 3: contention-free alltoall rounds (§3.2.1),
// the k-ary tree barrier (§3.2.2) and its variant released over the static network (the round
// barrier of the alltoall rounds), the static-route broadcast (§3.2.3), the two-level reduce tree
// (§3.2.4) and allreduce as reduce + broadcast (Algorithm 3). The communication partners come
// from the schedule generators in schedule/, the same ones tilempi-coll-check analyses.
#include <algorithm>
#include <cstring>
#include <map>

#include "coll/coll.h"
#include "runtime.h"

namespace tilempi::mpi::coll {

namespace {

namespace sch = schedule;

/// Communicators larger than this use pairwise instead of mesh_rounds: the first-fit schedule
/// costs O(N^2 * rounds / 64) word operations to build.
constexpr int kMeshRoundsMaxRanks = 256;

const std::vector<int>& round_partners(Comm& c) {
  CollState& st = state(c);
  if (st.rounds_ready) return st.round_partner;
  const CollState& g = geometry(c);
  auto rounds = sch::mesh_rounds_exchanges(g.mesh, g.members);
  st.round_partner.assign(rounds.size(), -1);
  for (std::size_t i = 0; i < rounds.size(); ++i)
    for (const sch::Exchange& e : rounds[i]) {
      if (e.a == c.rank) st.round_partner[i] = e.b;
      if (e.b == c.rank) st.round_partner[i] = e.a;
    }
  st.rounds_ready = true;
  return st.round_partner;
}

const sch::Tree& bcast_tree(Comm& c, int root) {
  CollState& st = state(c);
  auto it = st.bcast_trees.find(root);
  if (it != st.bcast_trees.end()) return it->second;
  const CollState& g = geometry(c);
  return st.bcast_trees.emplace(root, sch::static_route_tree(g.mesh, g.members, root)).first->second;
}

const sch::Tree& reduce_tree(Comm& c, int root) {
  CollState& st = state(c);
  auto it = st.reduce_trees.find(root);
  if (it != st.reduce_trees.end()) return it->second;
  const CollState& g = geometry(c);
  return st.reduce_trees.emplace(root, sch::mesh_reduce_tree(g.mesh, g.members, root)).first->second;
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
  const auto& topo = transport_of_job().topology();
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

/// A static-network broadcast's id on this communicator: the groups of one MPI_Comm_split may
/// share a context, so the root's world rank (unique among concurrent groups) is in it too.
std::uint64_t static_id(Comm& c, int world_root) {
  CollState& st = state(c);
  return ((c.context & 0xffffffull) << 40) | ((static_cast<std::uint64_t>(world_root) & 0xffffull) << 24) |
         (st.static_seq++ & 0xffffffull);
}

/// The k-ary tree's notifications (seed 003 §3.2.2, Algorithm 2 lines 10-19): wait for every child,
/// then notify the parent.
int ktree_gather(Comm& c, const sch::Tree& t) {
  const auto& kids = t.children[static_cast<std::size_t>(c.rank)];
  std::vector<MPI_Request> reqs(kids.size());
  for (std::size_t i = 0; i < kids.size(); ++i)
    if (int rc = irecv_bytes(nullptr, 0, kids[i], kTagBarrier, c, &reqs[i])) return rc;
  if (int rc = waitall(reqs)) return rc;
  const int parent = t.parent[static_cast<std::size_t>(c.rank)];
  if (parent >= 0)
    if (int rc = send_bytes(nullptr, 0, parent, kTagBarrier, c)) return rc;
  return MPI_SUCCESS;
}

/// The tree's replies (Algorithm 2 lines 17-23): wait for the parent's, reply to every child.
int ktree_release(Comm& c, const sch::Tree& t) {
  const int parent = t.parent[static_cast<std::size_t>(c.rank)];
  if (parent >= 0)
    if (int rc = recv_bytes(nullptr, 0, parent, kTagBarrier, c)) return rc;
  for (int kid : t.children[static_cast<std::size_t>(c.rank)])
    if (int rc = send_bytes(nullptr, 0, kid, kTagBarrier, c)) return rc;
  return MPI_SUCCESS;
}

}  // namespace

int barrier_ktree(Comm& c, int k) {
  const sch::Tree& t = cached_ktree(c, k > 0 ? k : 3);
  if (int rc = ktree_gather(c, t)) return rc;
  return ktree_release(c, t);
}

/// The static routes of the broadcast tree rooted at root, computed once per communicator: a
/// barrier of mesh_rounds' round loop asks for them every round.
const std::vector<transport::StaticRouteHop>& cached_static_routes(Comm& c, int root) {
  CollState& st = state(c);
  auto it = st.static_routes.find(root);
  if (it == st.static_routes.end()) it = st.static_routes.emplace(root, static_routes(c, bcast_tree(c, root))).first;
  return it->second;
}

int barrier_ktree_static(Comm& c, int k) {
  const sch::Tree& t = cached_ktree(c, k > 0 ? k : 3);
  if (int rc = ktree_gather(c, t)) return rc;
  // Every member calls the broadcast once it has notified its parent, so its switch is set while
  // the notifications climb; the root sends the word when its children have all notified it.
  if (transport::StaticNetwork* sn = transport_of_job().static_network()) {
    const auto& routes = cached_static_routes(c, t.root);
    if (!routes.empty()) {
      const int world_root = c.world[static_cast<std::size_t>(t.root)];
      unsigned char word = 1;
      sn->bcast(static_id(c, world_root), routes, world_root, &word, 1);
      return MPI_SUCCESS;
    }
  }
  return ktree_release(c, t);
}

int bcast_static_route(void* buf, std::size_t bytes, int root, Comm& c, int) {
  const sch::Tree& t = bcast_tree(c, root);
  if (transport::StaticNetwork* sn = transport_of_job().static_network()) {
    const auto& routes = cached_static_routes(c, root);
    if (!routes.empty()) {
      const int world_root = c.world[static_cast<std::size_t>(root)];
      sn->bcast(static_id(c, world_root), routes, world_root, buf, bytes);
      return MPI_SUCCESS;
    }
  }
  // The same tree over point-to-point: receive from the parent, forward to the children.
  const int parent = t.parent[static_cast<std::size_t>(c.rank)];
  if (parent >= 0)
    if (int rc = recv_bytes(buf, bytes, parent, kTagBcast, c)) return rc;
  const auto& kids = t.children[static_cast<std::size_t>(c.rank)];
  std::vector<MPI_Request> reqs(kids.size());
  for (std::size_t i = 0; i < kids.size(); ++i)
    if (int rc = isend_bytes(buf, bytes, kids[i], kTagBcast, c, &reqs[i])) return rc;
  return waitall(reqs);
}

int reduce_mesh_tree(const void* sbuf, void* rbuf, std::size_t n, const Reducer& red, int root, Comm& c, int) {
  // The tree combines in mesh order, not rank order: non-commutative ops take the rank-ordered
  // binomial tree instead.
  if (!red.commutative()) return reduce_binomial(sbuf, rbuf, n, red, root, c, 0);
  const std::size_t bytes = n * red.elem_size();
  const sch::Tree& t = reduce_tree(c, root);
  const auto& kids = t.children[static_cast<std::size_t>(c.rank)];
  Bytes acc_store;
  void* acc = rbuf;
  if (c.rank != root) {
    acc_store.resize(bytes);
    acc = acc_store.data();
  }
  std::memcpy(acc, sbuf, bytes);
  if (!kids.empty()) {
    Bytes in(kids.size() * bytes);
    std::vector<MPI_Request> reqs(kids.size());
    for (std::size_t i = 0; i < kids.size(); ++i)
      if (int rc = irecv_bytes(in.data() + i * bytes, bytes, kids[i], kTagReduce, c, &reqs[i])) return rc;
    if (int rc = waitall(reqs)) return rc;
    // Children in the tree's fixed order (column first, nearest first): deterministic bits.
    for (std::size_t i = 0; i < kids.size(); ++i) red.apply(in.data() + i * bytes, acc, n);
  }
  const int parent = t.parent[static_cast<std::size_t>(c.rank)];
  if (parent >= 0) return send_bytes(acc, bytes, parent, kTagReduce, c);
  return MPI_SUCCESS;
}

int allreduce_mesh_reduce_bcast(const void* sbuf, void* rbuf, std::size_t n, const Reducer& red, Comm& c, int) {
  if (int rc = reduce_mesh_tree(sbuf, rbuf, n, red, 0, c, 0)) return rc;
  return bcast_static_route(rbuf, n * red.elem_size(), 0, c, 0);
}

namespace {
int mesh_rounds_run(const void* s, const std::size_t* sc, const std::size_t* sd, void* r, const std::size_t* rc,
                    const std::size_t* rd, std::size_t block, Comm& c) {
  auto scount = [&](int i) { return sc ? sc[i] : block; };
  auto sdispl = [&](int i) { return sd ? sd[i] : block * static_cast<std::size_t>(i); };
  auto rcount = [&](int i) { return rc ? rc[i] : block; };
  auto rdispl = [&](int i) { return rd ? rd[i] : block * static_cast<std::size_t>(i); };
  const int me = c.rank;
  if (rcount(me)) std::memmove(at(r, rdispl(me)), at(s, sdispl(me)), rcount(me));
  const auto& partner = round_partners(c);
  const int tag = sc ? kTagAlltoallv : kTagAlltoall;
  // Rounds are separated by a barrier (seed 003 §3.2.1, Algorithm 1). The barrier the user chose
  // for MPI_Barrier (barrier=...) runs if there is one. Else, on a chip with a static network,
  // ktree_static:3: the k-ary tree of §3.2.2 notifies up to the root over the mesh, one word over
  // the static network (§3.2.3's broadcast tree) releases everyone within a few cycles. The seed's
  // own release, replies down the tree over the mesh, lets the members nearest the root start the
  // next round while replies are still on their way to the leaves; their data then meets those
  // replies on mesh links (link conflicts in the run report) and the tree's 2 x depth message
  // latencies make the rounds slower than the linear baseline at 8 bytes (docs/COLLECTIVES.md,
  // "Measured on the sim transport"). Without a static network: the dissemination barrier, the
  // fewest message latencies on the critical path.
  Selected b = select(Kind::Barrier, c);
  BarrierFn round_barrier = &barrier_dissemination;
  int param = 0;
  if (b.user) {
    round_barrier = as<BarrierFn>(b.algorithm->fn);
    param = b.param;
  } else if (transport_of_job().static_network()) {
    round_barrier = &barrier_ktree_static;
    param = 3;
  }
  for (std::size_t i = 0; i < partner.size(); ++i) {
    if (i > 0)
      if (int e = round_barrier(c, param)) return e;
    const int p = partner[i];
    if (p < 0) continue;
    if (int e = sendrecv_bytes(at(s, sdispl(p)), scount(p), p, at(r, rdispl(p)), rcount(p), p, tag, c)) return e;
  }
  return MPI_SUCCESS;
}
}  // namespace

int alltoall_mesh_rounds(const void* s, void* r, std::size_t block, Comm& c, int) {
  if (c.size > kMeshRoundsMaxRanks) return alltoall_pairwise(s, r, block, c, 0);
  return mesh_rounds_run(s, nullptr, nullptr, r, nullptr, nullptr, block, c);
}

int alltoallv_mesh_rounds(const void* s, const std::size_t* sc, const std::size_t* sd, void* r, const std::size_t* rc,
                          const std::size_t* rd, Comm& c, int) {
  if (c.size > kMeshRoundsMaxRanks) return alltoallv_pairwise(s, sc, sd, r, rc, rd, c, 0);
  return mesh_rounds_run(s, sc, sd, r, rc, rd, 0, c);
}

}  // namespace tilempi::mpi::coll
