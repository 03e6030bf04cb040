// alltoall and alltoallv mesh_rounds ([Yagna 2013] §3.2.1): contention-free rounds of exchanges on the
// mesh, with a barrier between rounds. The rounds come from the schedule generator in
// schedule/mesh_rounds.cpp, the one tilempi-coll-check analyses.
#include <cstring>

#include "coll/coll.h"
#include "runtime.h"

namespace tilempi::mpi::coll {

namespace {

namespace sch = schedule;

/// Larger communicators run the fallback, pairwise: the first-fit schedule costs
/// O(N^2 * rounds / 64) word operations to build.
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

}  // namespace

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
  // Rounds are separated by a barrier ([Yagna 2013] §3.2.1, Algorithm 1). The barrier the user chose
  // for MPI_Barrier (barrier=...) runs if there is one. Else, on a chip with a static network,
  // ktree_static:3: the k-ary tree of §3.2.2 notifies up to the root over the mesh, one word over
  // the static network (§3.2.3's broadcast tree) releases everyone within a few cycles. Yagna's
  // own release, replies down the tree over the mesh, lets the members nearest the root start the
  // next round while replies are still on their way to the leaves; their data then meets those
  // replies on mesh links (link conflicts in the run report) and the tree's 2 x depth message
  // latencies make the rounds slower than the linear baseline at 8 bytes (docs/COLLECTIVES.md,
  // "Measured on the sim transport"). Without a static network (or inside a non-blocking
  // collective, which does not use it): the dissemination barrier, the fewest message latencies
  // on the critical path.
  Selected b = select(Collective::Barrier, c);
  BarrierFn round_barrier = &barrier_dissemination;
  int param = 0;
  if (b.user) {
    round_barrier = as<BarrierFn>(b.algorithm->fn);
    param = b.param;
  } else if (static_routes_now()) {
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
  return mesh_rounds_run(s, nullptr, nullptr, r, nullptr, nullptr, block, c);
}

int alltoallv_mesh_rounds(const void* s, const std::size_t* sc, const std::size_t* sd, void* r, const std::size_t* rc,
                          const std::size_t* rd, Comm& c, int) {
  return mesh_rounds_run(s, sc, sd, r, rc, rd, 0, c);
}

// ---- registry entries (registry.cpp lists them) ----------------------------------------------

namespace entry {

extern const Algorithm alltoall_mesh_rounds{
    .kind = Collective::Alltoall, .name = "mesh_rounds", .family = Family::Mesh, .fn = any(&coll::alltoall_mesh_rounds),
    .help = "contention-free rounds of exchanges on the mesh with a barrier between rounds ([Yagna 2013] §3.2.1)",
    .restrictions = {.max_ranks = kMeshRoundsMaxRanks}, .fallback = "pairwise", .default_on = DefaultOn::MultiRow,
    .schedule = [](const schedule::Mesh& mesh, const Members& m, int, int) { return schedule::mesh_rounds(mesh, m); }};
extern const Algorithm alltoallv_mesh_rounds{
    .kind = Collective::Alltoallv, .name = "mesh_rounds", .family = Family::Mesh, .fn = any(&coll::alltoallv_mesh_rounds),
    .help = "the mesh_rounds exchange schedule with per-pair sizes ([Yagna 2013] §3.2.1)",
    .restrictions = {.max_ranks = kMeshRoundsMaxRanks}, .fallback = "pairwise", .default_on = DefaultOn::MultiRow,
    .schedule = [](const schedule::Mesh& mesh, const Members& m, int, int) { return schedule::mesh_rounds(mesh, m); }};

}  // namespace entry

}  // namespace tilempi::mpi::coll
