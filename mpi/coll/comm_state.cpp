// Per-communicator state of the collectives: the cached mesh geometry (members' tiles, rows) and
// the trees built from it.
#include <algorithm>
#include <mutex>
#include <unordered_map>
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

namespace {

// The objects built so far, by what they are and from which geometry. The key holds the members'
// tiles and the placement they come from (a static route depends on the whole job's placement):
// a communicator of the same members elsewhere in the job, or in a later run of the same process,
// finds the same object only when both match.
struct SharedEntry {
  int kind = 0, param = 0;
  const void* placement = nullptr;
  std::vector<schedule::Point> members;
  schedule::Mesh mesh;
  std::weak_ptr<const void> object;
};

std::uint64_t hash_members(const std::vector<schedule::Point>& members) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (const schedule::Point& p : members) {
    h ^= static_cast<std::uint32_t>(p.x) | (static_cast<std::uint64_t>(static_cast<std::uint32_t>(p.y)) << 32);
    h *= 0x100000001b3ull;
  }
  return h;
}

}  // namespace

std::shared_ptr<const void> shared_by_members(Comm& comm, int kind, int param,
                                              const std::function<std::shared_ptr<const void>()>& build) {
  static std::mutex mutex;
  static std::unordered_multimap<std::uint64_t, SharedEntry> entries;  // by hash of the members
  static std::size_t sweep_at = 64;
  const CollState& g = geometry(comm);
  const void* placement = &transport_of_job().rank_placement();
  const std::uint64_t hash = hash_members(g.members);
  const auto find = [&]() -> std::shared_ptr<const void> {
    auto [first, last] = entries.equal_range(hash);
    for (auto it = first; it != last; ++it) {
      const SharedEntry& e = it->second;
      if (e.kind == kind && e.param == param && e.placement == placement && e.mesh.width == g.mesh.width &&
          e.mesh.height == g.mesh.height && e.members == g.members)
        if (std::shared_ptr<const void> o = e.object.lock()) return o;
    }
    return nullptr;
  };
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (std::shared_ptr<const void> o = find()) return o;
  }
  // Built unlocked: a build may ask for another shared object (static routes need their tree).
  std::shared_ptr<const void> built = build();
  std::lock_guard<std::mutex> lock(mutex);
  if (std::shared_ptr<const void> o = find()) return o;  // another thread was first
  if (entries.size() >= sweep_at) {  // forget what no rank holds any more, now and then
    std::erase_if(entries, [](const auto& kv) { return kv.second.object.expired(); });
    sweep_at = std::max<std::size_t>(64, 2 * entries.size());
  }
  entries.emplace(hash, SharedEntry{kind, param, placement, g.members, g.mesh, built});
  return built;
}

const schedule::Tree& cached_ktree(Comm& comm, int k) {
  CollState& st = state(comm);
  auto it = st.ktrees.find(k);
  if (it != st.ktrees.end()) return *it->second;
  const CollState& g = geometry(comm);
  auto t = shared_by_members<schedule::Tree>(comm, kSharedKtree, k, [&] { return schedule::ktree(g.mesh, g.members, k); });
  return *st.ktrees.emplace(k, std::move(t)).first->second;
}

transport::StaticRoutes* static_routes_now() {
  return nbc_running() ? nullptr : transport_of_job().static_routes();
}

transport::CollectiveOffload* collective_offload_now() {
  return nbc_running() ? nullptr : transport_of_job().collective_offload();
}

}  // namespace tilempi::mpi::coll
