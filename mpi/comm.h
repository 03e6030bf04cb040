// Communicators and groups: who the members are (as world ranks), the context that keeps their
// traffic apart, and per-communicator state that collectives cache (trees built once).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "attributes.h"
#include "mpi.h"

namespace tilempi::mpi {

struct CollState;  ///< defined by mpi/coll; built lazily, once per communicator

struct Comm {
  MPI_Comm handle = MPI_COMM_NULL;
  int rank = 0;
  int size = 0;
  std::vector<int> world;             ///< world rank of each member
  std::uint64_t context = 0;          ///< even; user traffic uses context, collectives context + 1
  MPI_Errhandler errhandler = MPI_ERRORS_ARE_FATAL;
  std::uint64_t children = 0;         ///< communicators derived so far (new contexts follow from it)
  std::shared_ptr<CollState> coll;    ///< owned by the collectives
  std::vector<int> cart_dims;         ///< Cartesian topology (empty: none), row-major ranks
  std::vector<int> cart_periods;
  AttrMap attributes;                 ///< cached attributes (api_attributes.cpp)

  int world_rank(int r) const { return world[r]; }
};

struct Group {
  std::vector<int> world;  ///< world rank of each member
  int refs = 1;
};

/// nullptr when h is not a live communicator.
Comm* comm_get(MPI_Comm h);
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
/// Gather one int from every member to every member (used to agree on Comm_split's colors).
int allgather_ints(Comm& comm, const int* mine, int n, std::vector<int>& all);

}  // namespace tilempi::mpi
