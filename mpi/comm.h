// Communicators and groups: who the members are (as world ranks), the context that keeps their
// traffic apart, and per-communicator state that collectives cache (trees built once).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "attributes.h"
#include "holds.h"
#include "info.h"
#include "mpi.h"
#include "tilempi/transport/rank_local.h"

namespace tilempi::mpi {

struct CollState;  ///< defined by mpi/coll; built lazily, once per communicator
struct GraphTopology;  ///< defined in topo.h

struct Comm {
  MPI_Comm handle = MPI_COMM_NULL;
  int rank = 0;
  int size = 0;
  std::vector<int> world;             ///< world rank of each member
  std::uint64_t context = 0;          ///< even; user traffic uses context, collectives context + 1
  MPI_Errhandler errhandler = MPI_ERRORS_ARE_FATAL;
  std::uint64_t children = 0;         ///< communicators derived so far (new contexts follow from it)
  std::shared_ptr<CollState> coll;    ///< owned by the collectives
  bool cart = false;                  ///< has a Cartesian topology (of cart_dims.size() dimensions: may be 0)
  std::vector<int> cart_dims;         ///< the topology's dimensions, row-major ranks
  std::vector<int> cart_periods;
  std::shared_ptr<const GraphTopology> graph;  ///< a graph or distributed-graph topology (topo.h), or none
  AttrMap attributes;                 ///< cached attributes (api_attributes.cpp)
  bool named = false;                 ///< MPI_Comm_set_name was called (then name is the name)
  std::string name;
  std::uint64_t group_children = 0;   ///< MPI_Comm_create_group calls this process took part in
  HoldCount holds;                    ///< pending operations that use it (holds.h)
  Hints hints;                        ///< info hints kept (MPI_Comm_set_info, api_comm_info.cpp)

  // Intercommunicators (api_intercomm.cpp): rank, size and world describe the local group;
  // point-to-point ranks name members of the remote group (MPI-3.1 §6.6).
  bool inter = false;
  std::vector<int> remote;            ///< world rank of each member of the remote group
  MPI_Comm local = MPI_COMM_NULL;     ///< the local group as an intracommunicator of its own
  bool low_group = false;             ///< the group whose leader has the lower world rank

  int world_rank(int r) const { return world[r]; }
  /// World ranks of the processes point-to-point ranks name: the remote group of an
  /// intercommunicator, the members of an intracommunicator.
  const std::vector<int>& peers() const { return inter ? remote : world; }
  int peer_size() const { return static_cast<int>(peers().size()); }
};

struct Group {
  std::vector<int> world;  ///< world rank of each member
  int refs = 1;
};

namespace detail {
/// Communicators and groups by handle (comm.cpp keeps them; declared here so that comm_get(),
/// which every MPI call makes, inlines).
struct CommTables {
  std::vector<std::unique_ptr<Comm>> comms;    // index = handle
  /// Communicators the user freed while operations held them (holds.h), by handle: their slots
  /// in comms stay empty (comm_get finds nothing) and are not reused until the last hold goes.
  std::map<int, std::unique_ptr<Comm>> parked;
  std::vector<std::unique_ptr<Group>> groups;  // index = handle
  int my_world_rank = 0;
};
extern transport::RankLocal<CommTables> g_comm_tables;
}  // namespace detail

/// nullptr when h is not a live communicator.
inline Comm* comm_get(MPI_Comm h) {
  const auto& comms = detail::g_comm_tables.get().comms;
  if (h <= 0 || static_cast<std::size_t>(h) >= comms.size()) return nullptr;
  return comms[static_cast<std::size_t>(h)].get();
}
/// nullptr when h is not a live group.
Group* group_get(MPI_Group h);
/// This process's rank in a group, or MPI_UNDEFINED.
int group_rank_of_self(const Group& g);

}  // namespace tilempi::mpi

namespace tilempi::mpi {

/// Build MPI_COMM_WORLD and MPI_COMM_SELF (at MPI_Init).
void comms_init(int world_rank, int world_size);
/// Drop every communicator and group (at MPI_Finalize).
void comms_clear();
/// A context for a new communicator derived from parent; every member of parent calls this in
/// the same order, so all agree without talking.
std::uint64_t derive_context(Comm& parent);
/// Register a communicator whose members (world ranks, in rank order) include this process.
MPI_Comm comm_register(std::vector<int> world_members, std::uint64_t context, MPI_Errhandler handler);
void comm_release(MPI_Comm h);
MPI_Group group_register(std::vector<int> world_members);
void group_release(MPI_Group h);
/// A context derived from base for another purpose (salt); the same on every process that asks.
std::uint64_t context_variant(std::uint64_t base, std::uint64_t salt);
/// Register an intercommunicator: local and remote groups (world ranks), its context, and whether
/// the local group is the low one. Makes its local intracommunicator too.
MPI_Comm intercomm_register(std::vector<int> local, std::vector<int> remote, std::uint64_t context, bool low_group,
                            MPI_Errhandler handler);
/// Gather n ints from every member to every member (used to agree on Comm_split's colors), on
/// the collective lane with two negative tags (the defaults: the intracommunicator constructors').
int allgather_ints(Comm& comm, const int* mine, int n, std::vector<int>& all, int tag_gather = -10, int tag_bcast = -11);

}  // namespace tilempi::mpi
