// barrier ktree ([Yagna 2013] §3.2.2): a k-ary tree rooted at the mesh centre, notifications up and
// replies down; and ktree_static, whose release is one word over the static network along the
// broadcast tree of §3.2.3 (static_route.cpp), mesh_rounds' round barrier.
#include "coll/coll.h"
#include "runtime.h"

namespace tilempi::mpi::coll {

namespace {

namespace sch = schedule;

/// The k-ary tree's notifications ([Yagna 2013] §3.2.2, Algorithm 2 lines 10-19): wait for every child,
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

int barrier_ktree_static(Comm& c, int k) {
  const sch::Tree& t = cached_ktree(c, k > 0 ? k : 3);
  if (int rc = ktree_gather(c, t)) return rc;
  // Every member calls the broadcast once it has notified its parent, so its switch is set while
  // the notifications climb; the root sends the word when its children have all notified it.
  // Selected through the registry it always has a static network and routes (its restrictions);
  // mesh_rounds calls it directly as its round barrier, hence the replies down the tree otherwise.
  if (transport::StaticRoutes* sn = static_routes_now()) {
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

// ---- registry entries (registry.cpp lists them) ----------------------------------------------

namespace entry {

namespace {
schedule::Schedule ktree_updown(const schedule::Mesh& mesh, const Members& m, int, int k) {
  const schedule::Tree t = schedule::ktree(mesh, m, k > 0 ? k : 3);
  schedule::Schedule s = schedule::tree_gather_rounds(t, m);
  for (const auto& r : schedule::tree_scatter_rounds(t).rounds) s.rounds.push_back(r);
  return s;
}
}  // namespace

extern const Algorithm barrier_ktree{
    .kind = Collective::Barrier, .name = "ktree", .family = Family::Mesh, .fn = any(&coll::barrier_ktree),
    .help = "k-ary tree rooted at the mesh centre, built once per communicator ([Yagna 2013] §3.2.2); ktree:K sets k "
            "(default 3)",
    .default_on = DefaultOn::MultiRow, .schedule = &ktree_updown, .takes_param = true, .default_param = 3};
// Its schedule: the release goes over the static network, only the notifications use mesh links.
namespace {
/// The release needs static routes for the broadcast tree from the ktree's root (the member
/// nearest the centre, whatever k): a route across a tile without a rank has none.
const char* ktree_static_routable(Comm& c) {
  return cached_static_routes(c, cached_ktree(c, 3).root).empty() ? "its release tree crosses a tile without a rank"
                                                                     : nullptr;
}
}  // namespace

extern const Algorithm barrier_ktree_static{
    .kind = Collective::Barrier, .name = "ktree_static", .family = Family::Mesh, .fn = any(&coll::barrier_ktree_static),
    .help = "ktree's notifications up to the root, released by one word over the static network along the "
            "§3.2.3 tree; mesh_rounds' round barrier",
    .restrictions = {.static_network = true, .own = &ktree_static_routable, .own_text = "static routes for its tree"},
    .fallback = "ktree",
    .schedule = [](const schedule::Mesh& mesh, const Members& m, int, int k) {
      return schedule::tree_gather_rounds(schedule::ktree(mesh, m, k > 0 ? k : 3), m);
    },
    .takes_param = true, .default_param = 3};

}  // namespace entry

}  // namespace tilempi::mpi::coll
