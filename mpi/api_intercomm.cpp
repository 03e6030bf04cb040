// Intercommunicators (MPI-3.1 §6.6): MPI_Intercomm_create, MPI_Intercomm_merge,
// MPI_Comm_remote_size, MPI_Comm_remote_group, and the intercommunicator forms of MPI_Comm_dup,
// MPI_Comm_split and MPI_Comm_create (intercomm.h).
//
// An intercommunicator is a Comm whose rank, size and world describe the local group and whose
// `remote` lists the other group; point-to-point maps a rank through Comm::peers(), so a send
// names a member of the remote group and the receiver sees the sender's rank in its own group
// (the envelope carries the local rank). Both groups use one context, which they agree on at
// creation: each group derives a proposal from its local communicator, the leaders swap them, and
// both combine the pair the same way. Later constructors on the intercommunicator derive from it
// (derive_context), which both groups call in the same order because every constructor is
// collective over both. Each group also gets a hidden intracommunicator of its own (Comm::local)
// on which the intercommunicator collectives run their local parts.
#include <algorithm>
#include <string>
#include <tuple>
#include <vector>

#include "check.h"
#include "intercomm.h"
#include "p2p.h"

using namespace tilempi::mpi;

namespace {

// Tags of the agreement traffic on an intercommunicator's collective lane (collectives use tags
// >= 0; comm.cpp uses -10 and -11 on intracommunicators).
constexpr int kTagLeaderSize = -20;
constexpr int kTagLeaderData = -21;

/// Send `mine` to the remote leader and receive its vector (local leader only; p2p on comm, with
/// the lane and tags given).
int swap_vectors(Comm& comm, int peer, Lane lane, int tag_size, int tag_data, const std::vector<int>& mine,
                 std::vector<int>& theirs) {
  int my_n = static_cast<int>(mine.size()), their_n = 0;
  MPI_Request r[2];
  int rc = irecv(&their_n, 1, MPI_INT, peer, tag_size, comm, lane, &r[0]);
  if (rc == MPI_SUCCESS) rc = isend(&my_n, 1, MPI_INT, peer, tag_size, comm, lane, false, &r[1]);
  if (rc == MPI_SUCCESS) rc = waitall(2, r, MPI_STATUSES_IGNORE);
  if (rc != MPI_SUCCESS) return rc;
  theirs.assign(static_cast<std::size_t>(their_n), 0);
  rc = irecv(theirs.data(), theirs.size(), MPI_INT, peer, tag_data, comm, lane, &r[0]);
  if (rc == MPI_SUCCESS) rc = isend(mine.data(), mine.size(), MPI_INT, peer, tag_data, comm, lane, false, &r[1]);
  if (rc == MPI_SUCCESS) rc = waitall(2, r, MPI_STATUSES_IGNORE);
  return rc;
}

/// The local leader's vector to every member of the local communicator.
int bcast_vector(MPI_Comm local, int root, std::vector<int>& v) {
  int n = static_cast<int>(v.size());
  if (int rc = MPI_Bcast(&n, 1, MPI_INT, root, local)) return rc;
  v.resize(static_cast<std::size_t>(n));
  return n ? MPI_Bcast(v.data(), n, MPI_INT, root, local) : MPI_SUCCESS;
}

/// The remote group's vector, on every member of an intercommunicator's local group: the leaders
/// (rank 0 of each group) swap theirs, then each broadcasts what it got in its group.
int exchange_with_remote(Comm& c, const std::vector<int>& mine, std::vector<int>& theirs) {
  int rc = MPI_SUCCESS;
  if (c.rank == 0) rc = swap_vectors(c, 0, Lane::Coll, kTagLeaderSize, kTagLeaderData, mine, theirs);
  int ok = rc;
  if (int e = MPI_Bcast(&ok, 1, MPI_INT, 0, c.local)) return e;
  if (ok != MPI_SUCCESS) return ok;
  return bcast_vector(c.local, 0, theirs);
}

std::uint64_t combine(std::uint64_t a, std::uint64_t b) {
  // The same on both sides whichever group proposed which.
  return context_variant(std::min(a, b), std::max(a, b));
}

std::vector<int> split_ctx(std::uint64_t c) {
  return {static_cast<int>(c & 0xffffffffu), static_cast<int>(c >> 32)};
}
std::uint64_t join_ctx(int lo, int hi) {
  return static_cast<std::uint64_t>(static_cast<std::uint32_t>(lo)) | (static_cast<std::uint64_t>(static_cast<std::uint32_t>(hi)) << 32);
}

Comm* inter_arg(MPI_Comm h, const char* fn, int* rc) {
  Comm* c = check::comm(h, fn, rc);
  if (c && !c->inter) {
    *rc = raise(h, MPI_ERR_COMM, fn, "the communicator is not an intercommunicator");
    return nullptr;
  }
  return c;
}

/// Members of one color of a split table (color, key pairs by rank), ordered by (key, rank).
std::vector<int> members_of(const std::vector<int>& table, const std::vector<int>& world, int color) {
  std::vector<std::tuple<int, int>> m;
  for (std::size_t r = 0; r < world.size(); ++r)
    if (table[2 * r] == color) m.emplace_back(table[2 * r + 1], static_cast<int>(r));
  std::sort(m.begin(), m.end());
  std::vector<int> out;
  for (auto& [k, r] : m) out.push_back(world[static_cast<std::size_t>(r)]);
  return out;
}

}  // namespace

namespace tilempi::mpi {

int intercomm_dup(Comm& c, MPI_Comm* newcomm) {
  const std::uint64_t context = derive_context(c);
  *newcomm = intercomm_register(c.world, c.remote, context, c.low_group, c.errhandler);
  return MPI_SUCCESS;
}

int intercomm_split(Comm& c, int color, int key, MPI_Comm* newcomm) {
  int mine[2] = {color, key};
  std::vector<int> local_table;
  Comm* local = comm_get(c.local);
  if (int rc = allgather_ints(*local, mine, 2, local_table)) return rc;
  std::vector<int> remote_table;
  if (int rc = exchange_with_remote(c, local_table, remote_table)) return rc;
  const std::uint64_t context = derive_context(c);  // every member derives, whatever its color
  *newcomm = MPI_COMM_NULL;
  if (color == MPI_UNDEFINED) return MPI_SUCCESS;
  std::vector<int> l = members_of(local_table, c.world, color), r = members_of(remote_table, c.remote, color);
  if (r.empty()) return MPI_SUCCESS;  // nobody of this color on the other side
  *newcomm = intercomm_register(std::move(l), std::move(r), context, c.low_group, c.errhandler);
  return MPI_SUCCESS;
}

}  // namespace tilempi::mpi

extern "C" {

int MPI_Intercomm_create(MPI_Comm local_comm, int local_leader, MPI_Comm peer_comm, int remote_leader, int tag,
                         MPI_Comm* newintercomm) {
  ApiScope api_scope(__func__);
  const char* fn = "MPI_Intercomm_create";
  int rc;
  Comm* lc = check::intra(local_comm, fn, &rc);
  if (!lc) return rc;
  if (!newintercomm) return raise(local_comm, MPI_ERR_ARG, fn, "newintercomm is NULL");
  if (local_leader < 0 || local_leader >= lc->size)
    return raise(local_comm, MPI_ERR_RANK, fn, "local_leader " + std::to_string(local_leader) + " is not a rank of local_comm");
  // Only the leader reads peer_comm, remote_leader and tag (MPI-3.1 §6.6.2): the others may pass
  // anything. A bad one is reported to the whole local group (nobody waits for a leader that
  // gave up); the remote group cannot be told.
  const bool leader = lc->rank == local_leader;
  const std::uint64_t proposal = derive_context(*lc);  // every member, in local_comm's order
  // The leaders swap (context proposal, leader's world rank, members); then each tells its group
  // (first word: the leader's error class).
  std::vector<int> theirs;
  std::string why = "the leaders' exchange failed";
  if (leader) {
    int e = MPI_SUCCESS;
    Comm* pc = comm_get(peer_comm);
    const int me = lc->world[static_cast<std::size_t>(local_leader)];
    if (!pc) {
      e = MPI_ERR_COMM;
      why = "peer_comm handle " + std::to_string(peer_comm) + " is not valid";
    } else if (remote_leader < 0 || remote_leader >= pc->peer_size()) {
      e = MPI_ERR_RANK;
      why = "remote_leader " + std::to_string(remote_leader) + " is not a rank of peer_comm";
    } else if (pc->peers()[static_cast<std::size_t>(remote_leader)] == me) {
      e = MPI_ERR_RANK;
      why = "remote_leader is the local leader itself: the groups must be disjoint";
    } else if (tag < 0 || tag > check::kTagUb) {
      e = MPI_ERR_TAG;
      why = "tag " + std::to_string(tag) + " is outside 0..MPI_TAG_UB";
    }
    if (e == MPI_SUCCESS) {
      std::vector<int> mine = split_ctx(proposal);
      mine.push_back(me);
      mine.insert(mine.end(), lc->world.begin(), lc->world.end());
      e = swap_vectors(*pc, remote_leader, Lane::User, tag, tag, mine, theirs);
      if (e == MPI_SUCCESS && theirs.size() < 4) e = MPI_ERR_OTHER;
      for (std::size_t i = 3; e == MPI_SUCCESS && i < theirs.size(); ++i)
        if (std::find(lc->world.begin(), lc->world.end(), theirs[i]) != lc->world.end()) {
          e = MPI_ERR_GROUP;
          why = "the local and remote groups overlap";
        }
    }
    if (e != MPI_SUCCESS) theirs.clear();
    theirs.insert(theirs.begin(), e);
  }
  if (int e = bcast_vector(local_comm, local_leader, theirs)) return raise(local_comm, e, fn, "telling the group failed");
  if (theirs.empty() || theirs[0] != MPI_SUCCESS) {
    const int e = theirs.empty() ? MPI_ERR_OTHER : theirs[0];
    return raise(local_comm, e, fn, leader ? why : "the local leader reported an error (see its message)");
  }
  const std::uint64_t context = combine(proposal, join_ctx(theirs[1], theirs[2]));
  const bool low = lc->world[static_cast<std::size_t>(local_leader)] < theirs[3];
  std::vector<int> remote(theirs.begin() + 4, theirs.end());
  // Ranks keep local_comm's order in the local group, and the remote local_comm's in the remote.
  *newintercomm = intercomm_register(lc->world, std::move(remote), context, low, lc->errhandler);
  return MPI_SUCCESS;
}

int MPI_Intercomm_merge(MPI_Comm intercomm, int high, MPI_Comm* newintracomm) {
  ApiScope api_scope(__func__);
  const char* fn = "MPI_Intercomm_merge";
  int rc;
  Comm* c = inter_arg(intercomm, fn, &rc);
  if (!c) return rc;
  if (!newintracomm) return raise(intercomm, MPI_ERR_ARG, fn, "newintracomm is NULL");
  // The groups' high flags (the leader's speaks for its group); equal flags: the low group first.
  std::vector<int> mine = {high ? 1 : 0}, theirs;
  if (int e = exchange_with_remote(*c, mine, theirs)) return raise(intercomm, e, fn, "exchanging the flags failed");
  int my_high = mine[0];
  if (int e = MPI_Bcast(&my_high, 1, MPI_INT, 0, c->local)) return raise(intercomm, e, fn, "agreeing on high failed");
  const bool first = my_high != theirs.at(0) ? !my_high : c->low_group;
  const std::uint64_t context = derive_context(*c);
  std::vector<int> world = first ? c->world : c->remote;
  const std::vector<int>& second = first ? c->remote : c->world;
  world.insert(world.end(), second.begin(), second.end());
  *newintracomm = comm_register(std::move(world), context, c->errhandler);
  return MPI_SUCCESS;
}

int MPI_Comm_remote_size(MPI_Comm comm, int* size) {
  ApiScope api_scope(__func__);
  int rc;
  Comm* c = inter_arg(comm, "MPI_Comm_remote_size", &rc);
  if (!c) return rc;
  if (!size) return raise(comm, MPI_ERR_ARG, "MPI_Comm_remote_size", "size is NULL");
  *size = static_cast<int>(c->remote.size());
  return MPI_SUCCESS;
}

int MPI_Comm_remote_group(MPI_Comm comm, MPI_Group* group) {
  ApiScope api_scope(__func__);
  int rc;
  Comm* c = inter_arg(comm, "MPI_Comm_remote_group", &rc);
  if (!c) return rc;
  if (!group) return raise(comm, MPI_ERR_ARG, "MPI_Comm_remote_group", "group is NULL");
  *group = group_register(c->remote);
  return MPI_SUCCESS;
}

}  // extern "C"

// The names a profiling tool may replace (see TILEMPI_PMPI_ALIAS).
TILEMPI_PMPI_ALIAS(Intercomm_create)
TILEMPI_PMPI_ALIAS(Intercomm_merge)
TILEMPI_PMPI_ALIAS(Comm_remote_size)
TILEMPI_PMPI_ALIAS(Comm_remote_group)
