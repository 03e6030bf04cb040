// Per-communicator state of the collectives: the cached mesh geometry (members' tiles, rows) and
// the trees built from it.
#include <set>

#include "coll/coll.h"
#include "request.h"
#include "runtime.h"

namespace tilempi::mpi::coll {

CollState& state(Comm& comm) {
  if (!comm.coll) comm.coll = std::make_shared<CollState>();
  return *comm.coll;
}

const CollState& geometry(Comm& comm) {
  CollState& st = state(comm);
  if (st.geometry_ready) return st;
  const auto& topo = transport_of_job().rank_placement();
  st.mesh = {topo.width, topo.height};
  st.members.clear();
  std::set<int> rows;
  for (int r = 0; r < comm.size; ++r) {
    const int w = comm.world[static_cast<std::size_t>(r)];
    schedule::Point p{0, 0};
    if (w >= 0 && static_cast<std::size_t>(w) < topo.coord.size()) p = {topo.coord[static_cast<std::size_t>(w)].x, topo.coord[static_cast<std::size_t>(w)].y};
    st.members.push_back(p);
    rows.insert(p.y);
  }
  st.rows = static_cast<int>(rows.size());
  st.geometry_ready = true;
  return st;
}

const schedule::Tree& cached_ktree(Comm& comm, int k) {
  CollState& st = state(comm);
  auto it = st.ktrees.find(k);
  if (it != st.ktrees.end()) return it->second;
  const CollState& g = geometry(comm);
  return st.ktrees.emplace(k, schedule::ktree(g.mesh, g.members, k)).first->second;
}

transport::StaticRoutes* static_routes_now() {
  return nbc_running() ? nullptr : transport_of_job().static_routes();
}

transport::CollectiveOffload* collective_offload_now() {
  return nbc_running() ? nullptr : transport_of_job().collective_offload();
}

}  // namespace tilempi::mpi::coll
