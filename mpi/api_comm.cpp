// Communicator and group entry points.
#include <algorithm>
#include <numeric>
#include <string>
#include <tuple>
#include <vector>

#include "check.h"
#include "intercomm.h"
#include "p2p.h"

using namespace tilempi::mpi;

namespace {

Group* check_group(MPI_Group h, const char* fn, int* rc) {
  if (!check::initialized(fn, rc)) return nullptr;
  Group* g = group_get(h);
  if (!g) *rc = raise(MPI_COMM_WORLD, MPI_ERR_GROUP, fn, "group handle " + std::to_string(h) + " is not valid");
  return g;
}

int compare_members(const std::vector<int>& a, const std::vector<int>& b) {
  if (a == b) return MPI_IDENT;
  std::vector<int> sa = a, sb = b;
  std::sort(sa.begin(), sa.end());
  std::sort(sb.begin(), sb.end());
  return sa == sb ? MPI_SIMILAR : MPI_UNEQUAL;
}

/// MPI_Comm_create_group's exchange: n ints from each member (world ranks `members`; this process
/// is member `me`) to every member, gathered at the first member and sent back, addressed by
/// ranks of the parent. Not by ranks of the group: only the members call, so the members of
/// consecutive creations (overlapping groups, the same tag) run theirs at the same time, and a
/// message from member 1 of the next creation would match a receive of this one from its member
/// 1. A parent rank names one process, whose messages arrive in the order of its creations.
int members_allgather(Comm& parent, const std::vector<int>& members, int me, const int* mine, int n,
                      std::vector<int>& all, int tag_gather, int tag_bcast) {
  const int count = static_cast<int>(members.size());
  all.assign(static_cast<std::size_t>(n) * static_cast<std::size_t>(count), 0);
  std::copy(mine, mine + n, all.begin() + static_cast<std::ptrdiff_t>(me) * n);
  if (count == 1) return MPI_SUCCESS;
  auto parent_rank = [&](int member) {
    const auto at = std::find(parent.world.begin(), parent.world.end(), members[static_cast<std::size_t>(member)]);
    return static_cast<int>(at - parent.world.begin());
  };
  int rc = MPI_SUCCESS;
  MPI_Request req;
  if (me == 0) {
    for (int m = 1; m < count && rc == MPI_SUCCESS; ++m) {
      rc = irecv(all.data() + static_cast<std::ptrdiff_t>(m) * n, static_cast<std::size_t>(n), MPI_INT, parent_rank(m),
                 tag_gather, parent, Lane::Coll, &req);
      if (rc == MPI_SUCCESS) rc = wait(&req, MPI_STATUS_IGNORE);
    }
    for (int m = 1; m < count && rc == MPI_SUCCESS; ++m) {
      rc = isend(all.data(), all.size(), MPI_INT, parent_rank(m), tag_bcast, parent, Lane::Coll, false, &req);
      if (rc == MPI_SUCCESS) rc = wait(&req, MPI_STATUS_IGNORE);
    }
    return rc;
  }
  rc = isend(mine, static_cast<std::size_t>(n), MPI_INT, parent_rank(0), tag_gather, parent, Lane::Coll, false, &req);
  if (rc == MPI_SUCCESS) rc = wait(&req, MPI_STATUS_IGNORE);
  if (rc == MPI_SUCCESS) rc = irecv(all.data(), all.size(), MPI_INT, parent_rank(0), tag_bcast, parent, Lane::Coll, &req);
  if (rc == MPI_SUCCESS) rc = wait(&req, MPI_STATUS_IGNORE);
  return rc;
}

}  // namespace

extern "C" {

int MPI_Comm_size(MPI_Comm comm, int* size) {
  ApiScope api_scope(__func__);
  int rc;
  Comm* c = check::comm(comm, "MPI_Comm_size", &rc);
  if (!c) return rc;
  if (!size) return raise(comm, MPI_ERR_ARG, "MPI_Comm_size", "size is NULL");
  *size = c->size;
  return MPI_SUCCESS;
}

int MPI_Comm_rank(MPI_Comm comm, int* rank) {
  ApiScope api_scope(__func__);
  int rc;
  Comm* c = check::comm(comm, "MPI_Comm_rank", &rc);
  if (!c) return rc;
  if (!rank) return raise(comm, MPI_ERR_ARG, "MPI_Comm_rank", "rank is NULL");
  *rank = c->rank;
  return MPI_SUCCESS;
}

int MPI_Comm_dup(MPI_Comm comm, MPI_Comm* newcomm) {
  ApiScope api_scope(__func__);
  int rc;
  Comm* c = check::comm(comm, "MPI_Comm_dup", &rc);
  if (!c) return rc;
  if (!newcomm) {
    // The other members derive a context from comm's count of constructors: so does this rank,
    // so that the communicators they all make later still agree on theirs (derive_context).
    derive_context(*c);
    return raise(comm, MPI_ERR_ARG, "MPI_Comm_dup", "newcomm is NULL");
  }
  if (c->inter) {
    intercomm_dup(*c, newcomm);
  } else {
    std::uint64_t context = derive_context(*c);
    *newcomm = comm_register(c->world, context, c->errhandler);
  }
  Comm* n = comm_get(*newcomm);
  n->cart = c->cart;  // a duplicate keeps the topology
  n->cart_dims = c->cart_dims;
  n->cart_periods = c->cart_periods;
  n->graph = c->graph;
  n->hints = c->hints;  // and the info hints (MPI_Comm_get_info of the duplicate shows them)
  // The attributes, through their copy callbacks (MPI-3.1 §6.7.2); a failing one fails the call.
  if (int e = attributes_copy(comm_get(comm)->attributes, comm, n->attributes)) {
    attributes_delete(n->attributes, *newcomm);
    comm_release(*newcomm);
    *newcomm = MPI_COMM_NULL;
    return raise(comm, e, "MPI_Comm_dup", "an attribute's copy callback failed");
  }
  return MPI_SUCCESS;
}

namespace {

/// MPI_Comm_split after its argument checks.
int split(Comm* c, MPI_Comm comm, int color, int key, MPI_Comm* newcomm) {
  if (c->inter) {
    if (int e = intercomm_split(*c, color, key, newcomm)) return raise(comm, e, "MPI_Comm_split", "exchanging colors failed");
    return MPI_SUCCESS;
  }
  int mine[2] = {color, key};
  std::vector<int> all;
  int rc = allgather_ints(*c, mine, 2, all);
  if (rc != MPI_SUCCESS) return raise(comm, rc, "MPI_Comm_split", "exchanging colors failed");
  std::uint64_t context = derive_context(*c);  // every member derives, whatever its color
  if (color == MPI_UNDEFINED) {
    *newcomm = MPI_COMM_NULL;
    return MPI_SUCCESS;
  }
  // Members of my color, ordered by (key, old rank).
  std::vector<std::tuple<int, int>> members;
  for (int r = 0; r < c->size; ++r)
    if (all[2 * r] == color) members.emplace_back(all[2 * r + 1], r);
  std::sort(members.begin(), members.end());
  std::vector<int> world;
  for (auto& [k, r] : members) world.push_back(c->world[r]);
  *newcomm = comm_register(std::move(world), context, c->errhandler);
  return MPI_SUCCESS;
}

}  // namespace

int MPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm* newcomm) {
  ApiScope api_scope(__func__);
  int rc;
  Comm* c = check::comm(comm, "MPI_Comm_split", &rc);
  if (!c) return rc;
  int bad = MPI_SUCCESS;
  if (!newcomm) bad = raise(comm, MPI_ERR_ARG, "MPI_Comm_split", "newcomm is NULL");
  else if (color < 0 && color != MPI_UNDEFINED)
    bad = raise(comm, MPI_ERR_ARG, "MPI_Comm_split", "color " + std::to_string(color) + " is negative");
  if (bad == MPI_SUCCESS) return split(c, comm, color, key, newcomm);
  // A rank with a wrong argument still takes part in the exchange of colors, as MPI_UNDEFINED:
  // the others complete their split without it, and every member derives the new context, so
  // that the communicators made later still agree.
  MPI_Comm none = MPI_COMM_NULL;
  split(c, comm, MPI_UNDEFINED, key, newcomm ? newcomm : &none);
  return bad;
}

int MPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm* newcomm) {
  ApiScope api_scope(__func__);
  int rc;
  Comm* c = check::comm(comm, "MPI_Comm_create", &rc);
  if (!c) return rc;
  Group* g = group_get(group);
  int bad = MPI_SUCCESS;
  if (!g) bad = raise(comm, MPI_ERR_GROUP, "MPI_Comm_create", "group handle " + std::to_string(group) + " is not valid");
  else if (!newcomm) bad = raise(comm, MPI_ERR_ARG, "MPI_Comm_create", "newcomm is NULL");
  else
    for (int w : g->world)
      if (std::find(c->world.begin(), c->world.end(), w) == c->world.end()) {
        bad = raise(comm, MPI_ERR_GROUP, "MPI_Comm_create", "the group has a process outside the communicator");
        break;
      }
  if (bad != MPI_SUCCESS) {
    // Still take part as a rank outside the group: the others' exchange (on an
    // intercommunicator) completes and every member derives the context, so that the
    // communicators made later still agree.
    MPI_Comm none = MPI_COMM_NULL;
    if (c->inter) intercomm_split(*c, MPI_UNDEFINED, 0, &none);
    else derive_context(*c);
    if (newcomm) *newcomm = MPI_COMM_NULL;
    return bad;
  }
  if (c->inter) {
    // MPI-3.1 §6.4.2: each group names a subgroup of its own; the subgroups face each other.
    // That is the split with one color, keyed by the rank in the group.
    const int gr = group_rank_of_self(*g);
    if (int e = intercomm_split(*c, gr == MPI_UNDEFINED ? MPI_UNDEFINED : 0, gr, newcomm))
      return raise(comm, e, "MPI_Comm_create", "exchanging the groups failed");
    return MPI_SUCCESS;
  }
  std::uint64_t context = derive_context(*c);
  if (group_rank_of_self(*g) == MPI_UNDEFINED) {
    *newcomm = MPI_COMM_NULL;
    return MPI_SUCCESS;
  }
  *newcomm = comm_register(g->world, context, c->errhandler);
  return MPI_SUCCESS;
}

int MPI_Comm_create_group(MPI_Comm comm, MPI_Group group, int tag, MPI_Comm* newcomm) {
  ApiScope api_scope(__func__);
  const char* fn = "MPI_Comm_create_group";
  int rc;
  Comm* c = check::intra(comm, fn, &rc);
  if (!c) return rc;
  Group* g = group_get(group);
  if (!g) return raise(comm, MPI_ERR_GROUP, fn, "group handle " + std::to_string(group) + " is not valid");
  if (!newcomm) return raise(comm, MPI_ERR_ARG, fn, "newcomm is NULL");
  if (!check::send_tag(*c, tag, fn, &rc)) return rc;
  for (int w : g->world)
    if (std::find(c->world.begin(), c->world.end(), w) == c->world.end())
      return raise(comm, MPI_ERR_GROUP, fn, "the group has a process outside the communicator");
  const int me = group_rank_of_self(*g);
  *newcomm = MPI_COMM_NULL;
  if (me == MPI_UNDEFINED) return MPI_SUCCESS;  // not a member: nothing to take part in
  // Only the group's members call, so the parent's count of constructors (derive_context) cannot
  // be used: the others would disagree on it later. The members agree among themselves instead,
  // on the parent's collective lane with tags made from the user's tag: each gives how many such
  // creations it took part in; the largest, the members and the parent's context name the new
  // context, and every member moves its count past it. Two creations with the same members thus
  // differ in the count, and creations with different members differ in the members.
  const int base = -(1 << 20) - 2 * (tag % (1 << 28));
  int mine[2] = {static_cast<int>(c->group_children & 0x7fffffff), static_cast<int>(c->group_children >> 31)};
  std::vector<int> all;
  if (int e = members_allgather(*c, g->world, me, mine, 2, all, base, base - 1))
    return raise(comm, e, fn, "agreeing on the context failed");
  std::uint64_t most = 0;
  for (std::size_t r = 0; r < g->world.size(); ++r)
    most = std::max(most, static_cast<std::uint64_t>(static_cast<std::uint32_t>(all[2 * r])) |
                              (static_cast<std::uint64_t>(static_cast<std::uint32_t>(all[2 * r + 1])) << 31));
  c->group_children = most + 1;
  std::uint64_t context = context_variant(c->context, 0xc0ffee);
  for (int w : g->world) context = context_variant(context, static_cast<std::uint64_t>(w));
  context = context_variant(context, most);
  *newcomm = comm_register(g->world, context, c->errhandler);
  return MPI_SUCCESS;
}

int MPI_Comm_free(MPI_Comm* comm) {
  ApiScope api_scope(__func__);
  int rc;
  if (!comm) return raise(MPI_COMM_WORLD, MPI_ERR_COMM, "MPI_Comm_free", "comm pointer is NULL");
  Comm* c = check::comm(*comm, "MPI_Comm_free", &rc);
  if (!c) return rc;
  if (*comm == MPI_COMM_WORLD || *comm == MPI_COMM_SELF)
    return raise(*comm, MPI_ERR_COMM, "MPI_Comm_free", "MPI_COMM_WORLD and MPI_COMM_SELF cannot be freed");
  // The attributes' delete callbacks run first (MPI-3.1 §6.7.2); a failing one fails the call.
  if (int e = attributes_delete(c->attributes, *comm))
    return raise(*comm, e, "MPI_Comm_free", "an attribute's delete callback failed");
  comm_release(*comm);
  *comm = MPI_COMM_NULL;
  return MPI_SUCCESS;
}

int MPI_Comm_compare(MPI_Comm comm1, MPI_Comm comm2, int* result) {
  ApiScope api_scope(__func__);
  int rc;
  Comm* a = check::comm(comm1, "MPI_Comm_compare", &rc);
  if (!a) return rc;
  Comm* b = check::comm(comm2, "MPI_Comm_compare", &rc);
  if (!b) return rc;
  if (!result) return raise(comm1, MPI_ERR_ARG, "MPI_Comm_compare", "result is NULL");
  if (comm1 == comm2) {
    *result = MPI_IDENT;
    return MPI_SUCCESS;
  }
  if (a->inter != b->inter) {
    *result = MPI_UNEQUAL;
    return MPI_SUCCESS;
  }
  int g = compare_members(a->world, b->world);
  if (a->inter) g = std::max(g, compare_members(a->remote, b->remote));  // IDENT < SIMILAR < UNEQUAL
  *result = g == MPI_IDENT ? MPI_CONGRUENT : g;
  return MPI_SUCCESS;
}

int MPI_Comm_group(MPI_Comm comm, MPI_Group* group) {
  ApiScope api_scope(__func__);
  int rc;
  Comm* c = check::comm(comm, "MPI_Comm_group", &rc);
  if (!c) return rc;
  if (!group) return raise(comm, MPI_ERR_ARG, "MPI_Comm_group", "group is NULL");
  *group = group_register(c->world);
  return MPI_SUCCESS;
}

int MPI_Comm_test_inter(MPI_Comm comm, int* flag) {
  ApiScope api_scope(__func__);
  int rc;
  Comm* c = check::comm(comm, "MPI_Comm_test_inter", &rc);
  if (!c) return rc;
  if (!flag) return raise(comm, MPI_ERR_ARG, "MPI_Comm_test_inter", "flag is NULL");
  *flag = c->inter ? 1 : 0;
  return MPI_SUCCESS;
}

int MPI_Group_size(MPI_Group group, int* size) {
  ApiScope api_scope(__func__);
  int rc;
  Group* g = check_group(group, "MPI_Group_size", &rc);
  if (!g) return rc;
  if (!size) return raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Group_size", "size is NULL");
  *size = static_cast<int>(g->world.size());
  return MPI_SUCCESS;
}

int MPI_Group_rank(MPI_Group group, int* rank) {
  ApiScope api_scope(__func__);
  int rc;
  Group* g = check_group(group, "MPI_Group_rank", &rc);
  if (!g) return rc;
  if (!rank) return raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Group_rank", "rank is NULL");
  *rank = group_rank_of_self(*g);
  return MPI_SUCCESS;
}

int MPI_Group_translate_ranks(MPI_Group group1, int n, const int ranks1[], MPI_Group group2, int ranks2[]) {
  ApiScope api_scope(__func__);
  int rc;
  Group* a = check_group(group1, "MPI_Group_translate_ranks", &rc);
  if (!a) return rc;
  Group* b = check_group(group2, "MPI_Group_translate_ranks", &rc);
  if (!b) return rc;
  if (n < 0) return raise(MPI_COMM_WORLD, MPI_ERR_COUNT, "MPI_Group_translate_ranks", "n is negative");
  if (n > 0 && (!ranks1 || !ranks2)) return raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Group_translate_ranks", "NULL rank array");
  for (int i = 0; i < n; ++i) {
    int r = ranks1[i];
    if (r == MPI_PROC_NULL) {
      ranks2[i] = MPI_PROC_NULL;
      continue;
    }
    if (r < 0 || r >= static_cast<int>(a->world.size()))
      return raise(MPI_COMM_WORLD, MPI_ERR_RANK, "MPI_Group_translate_ranks", "rank " + std::to_string(r) + " is not in group1");
    auto it = std::find(b->world.begin(), b->world.end(), a->world[r]);
    ranks2[i] = it == b->world.end() ? MPI_UNDEFINED : static_cast<int>(it - b->world.begin());
  }
  return MPI_SUCCESS;
}

int MPI_Group_compare(MPI_Group group1, MPI_Group group2, int* result) {
  ApiScope api_scope(__func__);
  int rc;
  Group* a = check_group(group1, "MPI_Group_compare", &rc);
  if (!a) return rc;
  Group* b = check_group(group2, "MPI_Group_compare", &rc);
  if (!b) return rc;
  if (!result) return raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Group_compare", "result is NULL");
  *result = compare_members(a->world, b->world);
  return MPI_SUCCESS;
}

int MPI_Group_incl(MPI_Group group, int n, const int ranks[], MPI_Group* newgroup) {
  ApiScope api_scope(__func__);
  int rc;
  Group* g = check_group(group, "MPI_Group_incl", &rc);
  if (!g) return rc;
  if (n < 0 || n > static_cast<int>(g->world.size()))
    return raise(MPI_COMM_WORLD, MPI_ERR_COUNT, "MPI_Group_incl", "n " + std::to_string(n) + " is out of range");
  if ((n > 0 && !ranks) || !newgroup) return raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Group_incl", "NULL argument");
  std::vector<int> world;
  std::vector<char> seen(g->world.size(), 0);
  for (int i = 0; i < n; ++i) {
    int r = ranks[i];
    if (r < 0 || r >= static_cast<int>(g->world.size()) || seen[r])
      return raise(MPI_COMM_WORLD, MPI_ERR_RANK, "MPI_Group_incl", "rank " + std::to_string(r) + " is invalid or repeated");
    seen[r] = 1;
    world.push_back(g->world[r]);
  }
  *newgroup = n == 0 ? MPI_GROUP_EMPTY : group_register(std::move(world));
  return MPI_SUCCESS;
}

int MPI_Group_excl(MPI_Group group, int n, const int ranks[], MPI_Group* newgroup) {
  ApiScope api_scope(__func__);
  int rc;
  Group* g = check_group(group, "MPI_Group_excl", &rc);
  if (!g) return rc;
  if (n < 0 || n > static_cast<int>(g->world.size()))
    return raise(MPI_COMM_WORLD, MPI_ERR_COUNT, "MPI_Group_excl", "n " + std::to_string(n) + " is out of range");
  if ((n > 0 && !ranks) || !newgroup) return raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Group_excl", "NULL argument");
  std::vector<char> drop(g->world.size(), 0);
  for (int i = 0; i < n; ++i) {
    int r = ranks[i];
    if (r < 0 || r >= static_cast<int>(g->world.size()) || drop[r])
      return raise(MPI_COMM_WORLD, MPI_ERR_RANK, "MPI_Group_excl", "rank " + std::to_string(r) + " is invalid or repeated");
    drop[r] = 1;
  }
  std::vector<int> world;
  for (std::size_t r = 0; r < g->world.size(); ++r)
    if (!drop[r]) world.push_back(g->world[r]);
  *newgroup = world.empty() ? MPI_GROUP_EMPTY : group_register(std::move(world));
  return MPI_SUCCESS;
}

int MPI_Group_free(MPI_Group* group) {
  ApiScope api_scope(__func__);
  int rc;
  if (!group) return raise(MPI_COMM_WORLD, MPI_ERR_GROUP, "MPI_Group_free", "group pointer is NULL");
  if (!check_group(*group, "MPI_Group_free", &rc)) return rc;
  group_release(*group);
  *group = MPI_GROUP_NULL;
  return MPI_SUCCESS;
}

}  // extern "C"

// The names a profiling tool may replace (see TILEMPI_PMPI_ALIAS).
TILEMPI_PMPI_ALIAS(Comm_size)
TILEMPI_PMPI_ALIAS(Comm_rank)
TILEMPI_PMPI_ALIAS(Comm_dup)
TILEMPI_PMPI_ALIAS(Comm_split)
TILEMPI_PMPI_ALIAS(Comm_create)
TILEMPI_PMPI_ALIAS(Comm_create_group)
TILEMPI_PMPI_ALIAS(Comm_free)
TILEMPI_PMPI_ALIAS(Comm_compare)
TILEMPI_PMPI_ALIAS(Comm_group)
TILEMPI_PMPI_ALIAS(Comm_test_inter)
TILEMPI_PMPI_ALIAS(Group_size)
TILEMPI_PMPI_ALIAS(Group_rank)
TILEMPI_PMPI_ALIAS(Group_translate_ranks)
TILEMPI_PMPI_ALIAS(Group_compare)
TILEMPI_PMPI_ALIAS(Group_incl)
TILEMPI_PMPI_ALIAS(Group_excl)
TILEMPI_PMPI_ALIAS(Group_free)
