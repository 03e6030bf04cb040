// reduce mesh_tree ([Yagna 2013] §3.2.4): the two-level tree, the root's row, then the columns; and
// allreduce mesh_reduce_bcast ([Yagna 2013] Algorithm 3): mesh_tree to rank 0, then static_route.
#include <cstring>

#include "coll/coll.h"

namespace tilempi::mpi::coll {

namespace {

namespace sch = schedule;

const sch::Tree& reduce_tree(Comm& c, int root) {
  CollState& st = state(c);
  auto it = st.reduce_trees.find(root);
  if (it != st.reduce_trees.end()) return *it->second;
  const CollState& g = geometry(c);
  auto t = shared_by_members<sch::Tree>(c, kSharedReduceTree, root, [&] { return sch::mesh_reduce_tree(g.mesh, g.members, root); });
  return *st.reduce_trees.emplace(root, std::move(t)).first->second;
}

}  // namespace

int reduce_mesh_tree(const void* sbuf, void* rbuf, std::size_t n, const Reducer& red, int root, Comm& c, int) {
  // The tree combines in mesh order, not rank order: the registry runs it for commutative ops
  // only (the restriction below), non-commutative ones take the rank-ordered binomial tree.
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
    // An operand of another length (the members' counts differ) stops the tree here, and the
    // others are told (SizedCall, coll.h): what this rank would pass on could not be right.
    SizedCall call(c, SizedCall::Mode::Stop);
    if (int rc = call.waitall(reqs, std::vector<std::size_t>(kids.size(), bytes))) return rc;
    // Children in the tree's fixed order (column first, nearest first): deterministic bits.
    for (std::size_t i = 0; i < kids.size(); ++i) red.apply(in.data() + i * bytes, acc, n);
  }
  const int parent = t.parent[static_cast<std::size_t>(c.rank)];
  if (parent >= 0) return send_bytes(acc, bytes, parent, kTagReduce, c);
  return MPI_SUCCESS;
}

int allreduce_mesh_reduce_bcast(const void* sbuf, void* rbuf, std::size_t n, const Reducer& red, Comm& c, int) {
  if (int rc = reduce_mesh_tree(sbuf, rbuf, n, red, 0, c, 0)) return stage_failed(c, rc);
  return bcast_static_route(rbuf, n * red.elem_size(), 0, c, 0);
}

// ---- registry entries (registry.cpp lists them) ----------------------------------------------

namespace entry {

extern const Algorithm reduce_mesh_tree{
    .kind = Collective::Reduce, .name = "mesh_tree", .family = Family::Mesh, .fn = any(&coll::reduce_mesh_tree),
    .help = "two-level tree: the root's row, then the columns ([Yagna 2013] §3.2.4)",
    .restrictions = {.commutative = true}, .fallback = "binomial", .default_on = DefaultOn::MultiRow,
    .schedule = [](const schedule::Mesh& mesh, const Members& m, int root, int) {
      return schedule::tree_gather_rounds(schedule::mesh_reduce_tree(mesh, m, root), m);
    }};
extern const Algorithm allreduce_mesh_reduce_bcast{
    .kind = Collective::Allreduce, .name = "mesh_reduce_bcast", .family = Family::Mesh,
    .fn = any(&coll::allreduce_mesh_reduce_bcast),
    .help = "mesh_tree reduce to rank 0, then static_route broadcast ([Yagna 2013] Algorithm 3)",
    .restrictions = {.commutative = true}, .fallback = "recursive_doubling", .default_on = DefaultOn::MultiRow,
    .schedule = [](const schedule::Mesh& mesh, const Members& m, int, int) {
      schedule::Schedule s = schedule::tree_gather_rounds(schedule::mesh_reduce_tree(mesh, m, 0), m);
      for (const auto& r : schedule::tree_scatter_rounds(schedule::static_route_tree(mesh, m, 0)).rounds)
        s.rounds.push_back(r);
      return s;
    }};

}  // namespace entry

}  // namespace tilempi::mpi::coll
