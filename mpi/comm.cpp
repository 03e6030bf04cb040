#include "comm.h"

#include <memory>

#include "p2p.h"
#include "runtime.h"
#include "tilempi/transport/rank_local.h"

namespace tilempi::mpi {

// Per rank (see rank_local.h); constant-initialised at namespace scope (no guard per call).
constinit transport::RankLocal<detail::CommTables> detail::g_comm_tables;

namespace {

constexpr std::uint64_t kWorldContext = 2;
constexpr std::uint64_t kSelfContext = 4;

using Tables = detail::CommTables;

Tables& tables() { return detail::g_comm_tables.get(); }

template <typename T>
int insert(std::vector<std::unique_ptr<T>>& v, std::unique_ptr<T> item, int first_free) {
  for (std::size_t i = first_free; i < v.size(); ++i) {
    if (!v[i]) {
      v[i] = std::move(item);
      return static_cast<int>(i);
    }
  }
  v.push_back(std::move(item));
  return static_cast<int>(v.size() - 1);
}

std::uint64_t mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

}  // namespace

Group* group_get(MPI_Group h) {
  Tables& t = tables();
  if (h <= 0 || static_cast<std::size_t>(h) >= t.groups.size()) return nullptr;
  return t.groups[h].get();
}

int group_rank_of_self(const Group& g) {
  for (std::size_t i = 0; i < g.world.size(); ++i)
    if (g.world[i] == tables().my_world_rank) return static_cast<int>(i);
  return MPI_UNDEFINED;
}

void comms_init(int world_rank, int world_size) {
  Tables& t = tables();
  t.my_world_rank = world_rank;
  t.comms.clear();
  t.groups.clear();
  t.comms.resize(3);
  t.groups.resize(2);
  t.groups[MPI_GROUP_EMPTY] = std::make_unique<Group>();
  t.groups[MPI_GROUP_EMPTY]->refs = 1 << 30;  // predefined: never freed

  auto world = std::make_unique<Comm>();
  world->handle = MPI_COMM_WORLD;
  world->size = world_size;
  world->rank = world_rank;
  world->world.resize(world_size);
  for (int r = 0; r < world_size; ++r) world->world[r] = r;
  world->context = kWorldContext;
  t.comms[MPI_COMM_WORLD] = std::move(world);

  auto self = std::make_unique<Comm>();
  self->handle = MPI_COMM_SELF;
  self->size = 1;
  self->rank = 0;
  self->world = {world_rank};
  self->context = kSelfContext;
  t.comms[MPI_COMM_SELF] = std::move(self);
}

void comms_clear() {
  tables().parked.clear();
  tables().comms.clear();
  tables().groups.clear();
}

std::uint64_t derive_context(Comm& parent) {
  ++parent.children;
  std::uint64_t c = mix(parent.context ^ mix(parent.children)) & ~std::uint64_t{1};
  if (c <= kSelfContext) c += 8;
  return c;
}

MPI_Comm comm_register(std::vector<int> world_members, std::uint64_t context, MPI_Errhandler handler) {
  Tables& t = tables();
  auto c = std::make_unique<Comm>();
  c->size = static_cast<int>(world_members.size());
  c->rank = MPI_UNDEFINED;
  for (int i = 0; i < c->size; ++i)
    if (world_members[i] == t.my_world_rank) c->rank = i;
  c->world = std::move(world_members);
  c->context = context;
  c->errhandler = handler;
  Comm* raw = c.get();
  // (A parked communicator's slot is empty but not free: skip it.)
  std::size_t h = 3;
  while (h < t.comms.size() && (t.comms[h] || t.parked.count(static_cast<int>(h)))) ++h;
  if (h == t.comms.size()) t.comms.emplace_back();
  t.comms[h] = std::move(c);
  raw->handle = static_cast<int>(h);
  return raw->handle;
}

std::uint64_t context_variant(std::uint64_t base, std::uint64_t salt) {
  std::uint64_t c = mix(base ^ mix(salt ^ 0x5a17c0de00000000ULL)) & ~std::uint64_t{1};
  if (c <= kSelfContext) c += 8;
  return c;
}

MPI_Comm intercomm_register(std::vector<int> local, std::vector<int> remote, std::uint64_t context, bool low_group,
                            MPI_Errhandler handler) {
  // The two groups' local intracommunicators get different contexts (the salt says which group).
  MPI_Comm local_handle = comm_register(local, context_variant(context, low_group ? 1 : 2), handler);
  MPI_Comm h = comm_register(std::move(local), context, handler);
  Comm* c = comm_get(h);
  c->inter = true;
  c->remote = std::move(remote);
  c->local = local_handle;
  c->low_group = low_group;
  return h;
}

namespace {

void destroy(std::unique_ptr<Comm> c) {
  if (c->inter) comm_release(c->local);  // the local group's communicator goes with it
}

}  // namespace

void comm_release(MPI_Comm h) {
  Tables& t = tables();
  if (h <= MPI_COMM_SELF || static_cast<std::size_t>(h) >= t.comms.size() || !t.comms[h]) return;
  std::unique_ptr<Comm>& slot = t.comms[h];
  if (slot->holds.count > 0) {
    slot->holds.freed = true;
    t.parked[h] = std::move(slot);
    return;
  }
  destroy(std::move(slot));
}

Comm* comm_find(MPI_Comm h) {
  if (Comm* c = comm_get(h)) return c;
  Tables& t = tables();
  if (t.parked.empty()) return nullptr;
  auto it = t.parked.find(h);
  return it == t.parked.end() ? nullptr : it->second.get();
}

Comm* comm_hold(MPI_Comm h) {
  if (h <= MPI_COMM_SELF) return nullptr;
  Comm* c = comm_find(h);
  if (c) ++c->holds.count;
  return c;
}

void comm_unhold(Comm* c) {
  if (!c || --c->holds.count > 0 || !c->holds.freed) return;
  Tables& t = tables();
  auto it = t.parked.find(c->handle);
  if (it == t.parked.end() || it->second.get() != c) return;
  std::unique_ptr<Comm> gone = std::move(it->second);
  t.parked.erase(it);
  destroy(std::move(gone));
}

MPI_Group group_register(std::vector<int> world_members) {
  auto g = std::make_unique<Group>();
  g->world = std::move(world_members);
  return insert(tables().groups, std::move(g), 2);
}

void group_release(MPI_Group h) {
  Tables& t = tables();
  if (h > MPI_GROUP_EMPTY && static_cast<std::size_t>(h) < t.groups.size()) t.groups[h].reset();
}

int allgather_ints(Comm& comm, const int* mine, int n, std::vector<int>& all, int tag_gather, int tag_bcast) {
  all.assign(static_cast<std::size_t>(n) * comm.size, 0);
  for (int i = 0; i < n; ++i) all[static_cast<std::size_t>(comm.rank) * n + i] = mine[i];
  if (comm.size == 1) return MPI_SUCCESS;
  int rc = MPI_SUCCESS;
  // Gather to rank 0, then rank 0 sends the whole table to everyone: 2(N-1) small messages.
  if (comm.rank == 0) {
    for (int r = 1; r < comm.size && rc == MPI_SUCCESS; ++r) {
      MPI_Request req;
      rc = irecv(all.data() + static_cast<std::size_t>(r) * n, n, MPI_INT, r, tag_gather, comm, Lane::Coll, &req);
      if (rc == MPI_SUCCESS) rc = wait(&req, MPI_STATUS_IGNORE);
    }
    for (int r = 1; r < comm.size && rc == MPI_SUCCESS; ++r) {
      MPI_Request req;
      rc = isend(all.data(), n * comm.size, MPI_INT, r, tag_bcast, comm, Lane::Coll, false, &req);
      if (rc == MPI_SUCCESS) rc = wait(&req, MPI_STATUS_IGNORE);
    }
  } else {
    MPI_Request req;
    rc = isend(mine, n, MPI_INT, 0, tag_gather, comm, Lane::Coll, false, &req);
    if (rc == MPI_SUCCESS) rc = wait(&req, MPI_STATUS_IGNORE);
    if (rc == MPI_SUCCESS) rc = irecv(all.data(), n * comm.size, MPI_INT, 0, tag_bcast, comm, Lane::Coll, &req);
    if (rc == MPI_SUCCESS) rc = wait(&req, MPI_STATUS_IGNORE);
  }
  return rc;
}

}  // namespace tilempi::mpi
