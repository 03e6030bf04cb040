// Group range and set operations (MPI_Group_range_incl/excl, union, intersection, difference)
// and the communicator constructors built on the existing ones: MPI_Comm_split_type (every rank
// of a job shares one node's memory: the host's, or the modeled chip's) and MPI_Comm_idup
// (context ids are derived without messages, so the duplicate exists when the call returns and
// its request is complete).
#include <algorithm>
#include <string>
#include <vector>

#include "attributes.h"
#include "check.h"
#include "info.h"
#include "p2p.h"

using namespace tilempi::mpi;

namespace {

Group* group_arg(MPI_Group h, const char* fn, int* rc) {
  if (!check::initialized(fn, rc)) return nullptr;
  Group* g = group_get(h);
  if (!g) *rc = raise(MPI_COMM_WORLD, MPI_ERR_GROUP, fn, "group handle " + std::to_string(h) + " is not valid");
  return g;
}

MPI_Group make_group(std::vector<int> world) { return world.empty() ? MPI_GROUP_EMPTY : group_register(std::move(world)); }

/// The ranks a list of (first, last, stride) triplets names, in order; MPI_ERR_RANK or
/// MPI_ERR_ARG (with *why) for a rank outside the group, a repeat or a zero stride.
int expand_ranges(const Group& g, int n, const int ranges[][3], std::vector<int>* out, std::string* why) {
  const int size = static_cast<int>(g.world.size());
  std::vector<char> seen(g.world.size(), 0);
  for (int i = 0; i < n; ++i) {
    const int first = ranges[i][0], last = ranges[i][1], stride = ranges[i][2];
    if (stride == 0) {
      *why = "range " + std::to_string(i) + " has stride 0";
      return MPI_ERR_ARG;
    }
    if ((stride > 0 && first > last) || (stride < 0 && first < last)) continue;  // empty range
    for (long long r = first; stride > 0 ? r <= last : r >= last; r += stride) {
      if (r < 0 || r >= size || seen[static_cast<std::size_t>(r)]) {
        *why = "rank " + std::to_string(r) + " of range " + std::to_string(i) + " is outside the group or repeated";
        return MPI_ERR_RANK;
      }
      seen[static_cast<std::size_t>(r)] = 1;
      out->push_back(static_cast<int>(r));
    }
  }
  return MPI_SUCCESS;
}

bool contains(const std::vector<int>& v, int x) { return std::find(v.begin(), v.end(), x) != v.end(); }

}  // namespace

extern "C" {

int MPI_Group_range_incl(MPI_Group group, int n, int ranges[][3], MPI_Group* newgroup) {
  ApiScope api_scope(__func__);
  const char* fn = "MPI_Group_range_incl";
  int rc;
  Group* g = group_arg(group, fn, &rc);
  if (!g) return rc;
  if (n < 0) return raise(MPI_COMM_WORLD, MPI_ERR_ARG, fn, "n is negative");
  if ((n > 0 && !ranges) || !newgroup) return raise(MPI_COMM_WORLD, MPI_ERR_ARG, fn, "NULL argument");
  std::vector<int> ranks;
  std::string why;
  if (int e = expand_ranges(*g, n, ranges, &ranks, &why)) return raise(MPI_COMM_WORLD, e, fn, why);
  std::vector<int> world;
  for (int r : ranks) world.push_back(g->world[static_cast<std::size_t>(r)]);
  *newgroup = make_group(std::move(world));
  return MPI_SUCCESS;
}

int MPI_Group_range_excl(MPI_Group group, int n, int ranges[][3], MPI_Group* newgroup) {
  ApiScope api_scope(__func__);
  const char* fn = "MPI_Group_range_excl";
  int rc;
  Group* g = group_arg(group, fn, &rc);
  if (!g) return rc;
  if (n < 0) return raise(MPI_COMM_WORLD, MPI_ERR_ARG, fn, "n is negative");
  if ((n > 0 && !ranges) || !newgroup) return raise(MPI_COMM_WORLD, MPI_ERR_ARG, fn, "NULL argument");
  std::vector<int> ranks;
  std::string why;
  if (int e = expand_ranges(*g, n, ranges, &ranks, &why)) return raise(MPI_COMM_WORLD, e, fn, why);
  std::vector<int> world;
  for (std::size_t r = 0; r < g->world.size(); ++r)
    if (!contains(ranks, static_cast<int>(r))) world.push_back(g->world[r]);
  *newgroup = make_group(std::move(world));
  return MPI_SUCCESS;
}

/// Union: group1's members in order, then group2's that are not in group1 (MPI-3.1 §6.3.2).
int MPI_Group_union(MPI_Group group1, MPI_Group group2, MPI_Group* newgroup) {
  ApiScope api_scope(__func__);
  int rc;
  Group* a = group_arg(group1, "MPI_Group_union", &rc);
  Group* b = a ? group_arg(group2, "MPI_Group_union", &rc) : nullptr;
  if (!b) return rc;
  if (!newgroup) return raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Group_union", "newgroup is NULL");
  std::vector<int> world = a->world;
  for (int w : b->world)
    if (!contains(a->world, w)) world.push_back(w);
  *newgroup = make_group(std::move(world));
  return MPI_SUCCESS;
}

/// Intersection: group1's members that are in group2, in group1's order.
int MPI_Group_intersection(MPI_Group group1, MPI_Group group2, MPI_Group* newgroup) {
  ApiScope api_scope(__func__);
  int rc;
  Group* a = group_arg(group1, "MPI_Group_intersection", &rc);
  Group* b = a ? group_arg(group2, "MPI_Group_intersection", &rc) : nullptr;
  if (!b) return rc;
  if (!newgroup) return raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Group_intersection", "newgroup is NULL");
  std::vector<int> world;
  for (int w : a->world)
    if (contains(b->world, w)) world.push_back(w);
  *newgroup = make_group(std::move(world));
  return MPI_SUCCESS;
}

/// Difference: group1's members that are not in group2, in group1's order.
int MPI_Group_difference(MPI_Group group1, MPI_Group group2, MPI_Group* newgroup) {
  ApiScope api_scope(__func__);
  int rc;
  Group* a = group_arg(group1, "MPI_Group_difference", &rc);
  Group* b = a ? group_arg(group2, "MPI_Group_difference", &rc) : nullptr;
  if (!b) return rc;
  if (!newgroup) return raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Group_difference", "newgroup is NULL");
  std::vector<int> world;
  for (int w : a->world)
    if (!contains(b->world, w)) world.push_back(w);
  *newgroup = make_group(std::move(world));
  return MPI_SUCCESS;
}

int MPI_Comm_split_type(MPI_Comm comm, int split_type, int key, MPI_Info info, MPI_Comm* newcomm) {
  ApiScope api_scope(__func__);
  const char* fn = "MPI_Comm_split_type";
  int rc;
  Comm* c = check::comm(comm, fn, &rc);
  if (!c) return rc;
  // No hints are read, but a bad handle is still an error.
  int bad = MPI_SUCCESS;
  if (info != MPI_INFO_NULL && !info_valid(info))
    bad = raise(comm, MPI_ERR_INFO, fn, "info handle " + std::to_string(info) + " is not valid");
  else if (!newcomm) bad = raise(comm, MPI_ERR_ARG, fn, "newcomm is NULL");
  else if (split_type != MPI_COMM_TYPE_SHARED && split_type != MPI_UNDEFINED)
    bad = raise(comm, MPI_ERR_ARG, fn,
                "split_type " + std::to_string(split_type) + " is neither MPI_COMM_TYPE_SHARED nor MPI_UNDEFINED");
  if (bad != MPI_SUCCESS) {
    // Still take part in the split, as MPI_UNDEFINED, so that the others complete theirs.
    MPI_Comm none = MPI_COMM_NULL;
    MPI_Comm_split(comm, MPI_UNDEFINED, key, newcomm ? newcomm : &none);
    return bad;
  }
  // Every rank shares one memory: all ranks that ask for a shared communicator get one together.
  return MPI_Comm_split(comm, split_type == MPI_UNDEFINED ? MPI_UNDEFINED : 0, key, newcomm);
}

int MPI_Comm_idup(MPI_Comm comm, MPI_Comm* newcomm, MPI_Request* request) {
  ApiScope api_scope(__func__);
  int rc;
  Comm* c = check::comm(comm, "MPI_Comm_idup", &rc);
  if (!c) return rc;
  if (!newcomm || !request) return raise(comm, MPI_ERR_ARG, "MPI_Comm_idup", "newcomm or request is NULL");
  if (int e = MPI_Comm_dup(comm, newcomm)) return e;
  *request = new_generic_request(comm);
  complete_generic_request(*request, MPI_SUCCESS);
  return MPI_SUCCESS;
}

}  // extern "C"

// The names a profiling tool may replace (see TILEMPI_PMPI_ALIAS).
TILEMPI_PMPI_ALIAS(Group_range_incl)
TILEMPI_PMPI_ALIAS(Group_range_excl)
TILEMPI_PMPI_ALIAS(Group_union)
TILEMPI_PMPI_ALIAS(Group_intersection)
TILEMPI_PMPI_ALIAS(Group_difference)
TILEMPI_PMPI_ALIAS(Comm_split_type)
TILEMPI_PMPI_ALIAS(Comm_idup)
