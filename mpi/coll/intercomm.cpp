// Collectives on intercommunicators, with the standard's semantics (MPI-3.1 §5.2.2): what one
// group contributes arrives in the other group. Rooted collectives name the root with MPI_ROOT
// (the root itself), MPI_PROC_NULL (the rest of the root's group) or the root's rank in the remote
// group (every member of the other group).
//
// The algorithms are entries of the collective registry (Algorithm::intercomm: one per
// collective, the default of its intercommunicators; simple and correct rather than tuned; the
// intracommunicator algorithms' trees are built for one group), so `--coll help`,
// TILEMPIX_Coll_selected and the run report name what runs on an intercommunicator:
// - barrier inter_leaders: local barrier, the leaders (rank 0 of each group) exchange a message,
//   local barrier;
// - bcast inter_leader: the root sends to the remote leader, which broadcasts in its group;
// - reduce inter_leader, allreduce / reduce_scatter(_block) inter_leaders: each group reduces to
//   its leader, the leaders exchange the reductions (reduce: the remote leader sends to the
//   root), and the leader broadcasts (allreduce) or scatters (reduce_scatter) what it received in
//   its group;
// - gather(v), scatter(v), allgather(v), alltoall(v,w) inter_linear: every transfer goes directly
//   between the two processes concerned, all posted at once, then waited for: m x n messages for
//   the all-to-all forms, the root's m for the rooted ones.
// The local parts run on the intercommunicator's local intracommunicator (Comm::local) through the
// library's own entry points, so they take the algorithms the registry picks for one group; the
// transfers between the groups use the intercommunicator's collective lane, so a non-blocking
// form (the same code as a coroutine) gets its tag range there as any collective does.
#include "coll/intercomm.h"

#include <string>
#include <vector>

#include "check.h"
#include "coll/coll.h"
#include "coll/op.h"
#include "p2p.h"

namespace tilempi::mpi::coll {

namespace {

/// Classifies a rooted collective's root argument on an intercommunicator.
enum class Role { Root, Idle, Remote };

bool root_arg(Comm& c, int root, Role* role, const char* fn, int* rc) {
  if (root == MPI_ROOT) {
    *role = Role::Root;
  } else if (root == MPI_PROC_NULL) {
    *role = Role::Idle;
  } else if (root >= 0 && root < c.peer_size()) {
    *role = Role::Remote;
  } else {
    *rc = raise(c.handle, MPI_ERR_ROOT, fn,
                "root " + std::to_string(root) + " is neither MPI_ROOT, MPI_PROC_NULL nor a rank of the remote group (size " +
                    std::to_string(c.peer_size()) + ")");
    return false;
  }
  return true;
}

bool no_in_place(Comm& c, const void* buf, const char* fn, int* rc) {
  if (buf != MPI_IN_PLACE) return true;
  *rc = raise(c.handle, MPI_ERR_BUFFER, fn, "MPI_IN_PLACE is not allowed on an intercommunicator");
  return false;
}

/// A (buffer, count, type) argument: checked as point-to-point checks its message.
const Datatype* typed(Comm& c, const void* buf, int count, MPI_Datatype type, const char* fn, int* rc) {
  if (!no_in_place(c, buf, fn, rc) || !check::message(c, buf, count, type, fn, rc)) return nullptr;
  return datatype_get(type);
}

bool arrays(Comm& c, const int* counts, const int* displs, int n, const char* fn, int* rc) {
  if (!counts || !displs) {
    *rc = raise(c.handle, MPI_ERR_ARG, fn, "a count or displacement array is NULL");
    return false;
  }
  for (int i = 0; i < n; ++i)
    if (counts[i] < 0) {
      *rc = raise(c.handle, MPI_ERR_COUNT, fn, "count[" + std::to_string(i) + "] = " + std::to_string(counts[i]) + " is negative");
      return false;
    }
  return true;
}

int finish(Comm& c, int rc, const char* fn) {
  if (rc == MPI_SUCCESS) return rc;
  std::string why = take_failure_note();  // (a size that differs: coll.h, SizedCall)
  if (why.empty())
    why = rc == MPI_ERR_OTHER ? "the call failed at another member, which told this rank so; this rank's part of it "
                                "was abandoned"
                              : "communication failed inside the intercommunicator collective";
  return raise(c.handle, rc, fn, why);
}

/// Scratch room for count elements of t: data() is the buffer to pass (its true lower bound
/// lands on the first byte of the storage).
struct Scratch {
  std::vector<unsigned char> bytes;
  std::ptrdiff_t shift = 0;
  Scratch(std::size_t count, const Datatype& t) {
    const std::size_t span =
        count == 0 ? 0 : static_cast<std::size_t>(t.true_extent + static_cast<std::ptrdiff_t>(count - 1) * t.extent);
    bytes.resize(span + 1);
    shift = t.true_lb;
  }
  void* data() { return bytes.data() - shift; }
};

/// A list of transfers between the groups, posted together and then waited for.
struct Exchange {
  Exchange(Comm& comm, int t) : c(comm), tag(t) {}
  Comm& c;
  int tag;
  int rc = MPI_SUCCESS;
  std::vector<MPI_Request> reqs;
  void send(const void* buf, std::size_t count, MPI_Datatype type, int dest) {
    if (rc != MPI_SUCCESS) return;
    reqs.emplace_back();
    rc = coll_isend(buf, count, type, dest, tag, c, &reqs.back());
  }
  void recv(void* buf, std::size_t count, MPI_Datatype type, int source) {
    if (rc != MPI_SUCCESS) return;
    reqs.emplace_back();
    rc = coll_irecv(buf, count, type, source, tag, c, &reqs.back());
  }
  int wait() {
    const int w = coll::waitall(reqs);
    return rc != MPI_SUCCESS ? rc : w;
  }
};

void* at_elem(void* buf, std::size_t index, const Datatype& t) {
  return static_cast<unsigned char*>(buf) + static_cast<std::ptrdiff_t>(index) * t.extent;
}
const void* at_elem(const void* buf, std::size_t index, const Datatype& t) {
  return static_cast<const unsigned char*>(buf) + static_cast<std::ptrdiff_t>(index) * t.extent;
}

/// A local stage (a call on the local intracommunicator, which every member of the group makes):
/// run it if the call has not failed at this rank; else take part as a failed member (counted on
/// the local communicator as the others count the stage, and they are told: call_sequence.cpp),
/// so that no member of this group waits in the stage for this rank. Returns the call's outcome.
template <class F>
int local_stage(int rc, Comm& c, F&& run) {
  if (rc == MPI_SUCCESS) return run();
  CallSequence stage(c.local);
  stage.failed();
  return rc;
}

/// Each group's data reduced to its leader (local rank 0): into scratch there.
int reduce_to_leader(Comm& c, const void* sendbuf, Scratch& s, int count, MPI_Datatype type, MPI_Op op) {
  return MPI_Reduce(sendbuf, c.rank == 0 ? s.data() : nullptr, count, type, op, 0, c.local);
}

/// The leaders swap count elements: mine out of `out`, the remote group's into `in`.
int leaders_swap(Comm& c, const void* out, void* in, int count, MPI_Datatype type, int tag) {
  if (c.rank != 0) return MPI_SUCCESS;
  Exchange x(c, tag);
  x.recv(in, uz(count), type, 0);
  x.send(out, uz(count), type, 0);
  return x.wait();
}

int inter_barrier(const char* fn, Comm& c) {
  int rc = MPI_Barrier(c.local);
  if (rc == MPI_SUCCESS && c.rank == 0) {
    char none = 0, got = 0;
    Exchange x(c, kTagBarrier);
    x.recv(&got, 0, MPI_BYTE, 0);
    x.send(&none, 0, MPI_BYTE, 0);
    rc = x.wait();
  }
  rc = local_stage(rc, c, [&] { return MPI_Barrier(c.local); });
  return finish(c, rc, fn);
}

int inter_bcast(const char* fn, void* buf, int count, MPI_Datatype type, int root, Comm& c) {
  int rc = MPI_SUCCESS;
  Role role;
  if (!root_arg(c, root, &role, fn, &rc)) return rc;
  if (!typed(c, buf, count, type, fn, &rc)) {
    // The receiving group's broadcast from its leader waits for no one else if this rank skips it.
    if (role == Role::Remote) local_stage(rc, c, [] { return MPI_SUCCESS; });
    return rc;
  }
  if (role == Role::Idle) return MPI_SUCCESS;
  if (role == Role::Root) return finish(c, coll_send(buf, uz(count), type, 0, kTagBcast, c), fn);
  if (c.rank == 0) rc = coll_recv(buf, uz(count), type, root, kTagBcast, c);
  rc = local_stage(rc, c, [&] { return MPI_Bcast(buf, count, type, 0, c.local); });
  return finish(c, rc, fn);
}

int inter_reduce(const char* fn, const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op, int root,
                 Comm& c) {
  int rc = MPI_SUCCESS;
  Role role;
  if (!root_arg(c, root, &role, fn, &rc)) return rc;
  if (role == Role::Idle) return MPI_SUCCESS;
  const Datatype* t = typed(c, role == Role::Root ? recvbuf : sendbuf, count, type, fn, &rc);
  std::string why;
  if (int e = t ? op_check(op, type, &why) : MPI_SUCCESS) rc = raise(c.handle, e, fn, why);
  if (rc != MPI_SUCCESS) {
    if (role == Role::Remote) local_stage(rc, c, [] { return MPI_SUCCESS; });  // the reduction to the leader
    return rc;
  }
  if (role == Role::Root) return finish(c, coll_recv(recvbuf, uz(count), type, 0, kTagReduce, c), fn);
  Scratch s(uz(count), *t);
  rc = reduce_to_leader(c, sendbuf, s, count, type, op);
  if (rc == MPI_SUCCESS && c.rank == 0) rc = coll_send(s.data(), uz(count), type, root, kTagReduce, c);
  return finish(c, rc, fn);
}

int inter_allreduce(const char* fn, const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op, Comm& c) {
  int rc = MPI_SUCCESS;
  const Datatype* t = typed(c, sendbuf, count, type, fn, &rc);
  std::string why;
  if (t && typed(c, recvbuf, count, type, fn, &rc))
    if (int e = op_check(op, type, &why)) rc = raise(c.handle, e, fn, why);
  if (rc != MPI_SUCCESS) {  // (both local stages: the reduction to the leader and its broadcast)
    local_stage(rc, c, [] { return MPI_SUCCESS; });
    local_stage(rc, c, [] { return MPI_SUCCESS; });
    return rc;
  }
  Scratch s(uz(count), *t);
  rc = reduce_to_leader(c, sendbuf, s, count, type, op);
  if (rc == MPI_SUCCESS) rc = leaders_swap(c, s.data(), recvbuf, count, type, kTagAllreduce);
  rc = local_stage(rc, c, [&] { return MPI_Bcast(recvbuf, count, type, 0, c.local); });
  return finish(c, rc, fn);
}

int inter_reduce_scatter(const char* fn, const void* sendbuf, void* recvbuf, const int* recvcounts, MPI_Datatype type,
                         MPI_Op op, Comm& c) {
  int rc = MPI_SUCCESS;
  std::vector<int> displs(uz(c.size), 0);
  int total = 0;
  const Datatype* t = nullptr;
  std::string why;
  if (!recvcounts) rc = raise(c.handle, MPI_ERR_ARG, fn, "recvcounts is NULL");
  for (int i = 0; rc == MPI_SUCCESS && i < c.size; ++i) {
    if (recvcounts[i] < 0)
      rc = raise(c.handle, MPI_ERR_COUNT, fn, "recvcounts[" + std::to_string(i) + "] = " + std::to_string(recvcounts[i]) + " is negative");
    displs[uz(i)] = total;
    total += recvcounts[i];
  }
  if (rc == MPI_SUCCESS && (t = typed(c, sendbuf, total, type, fn, &rc)) && typed(c, recvbuf, recvcounts[c.rank], type, fn, &rc))
    if (int e = op_check(op, type, &why)) rc = raise(c.handle, e, fn, why);
  if (rc != MPI_SUCCESS) {  // (both local stages: the reduction to the leader and its scatter)
    local_stage(rc, c, [] { return MPI_SUCCESS; });
    local_stage(rc, c, [] { return MPI_SUCCESS; });
    return rc;
  }
  // This group's reduction goes to the other group; the other group's is scattered here.
  Scratch mine(uz(total), *t), theirs(uz(total), *t);
  rc = reduce_to_leader(c, sendbuf, mine, total, type, op);
  if (rc == MPI_SUCCESS) rc = leaders_swap(c, mine.data(), theirs.data(), total, type, kTagReduceScatter);
  rc = local_stage(rc, c, [&] {
    return MPI_Scatterv(theirs.data(), recvcounts, displs.data(), type, recvbuf, recvcounts[c.rank], type, 0, c.local);
  });
  return finish(c, rc, fn);
}

int inter_gather(const char* fn, const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                 MPI_Datatype recvtype, int root, Comm& c) {
  int rc = MPI_SUCCESS;
  Role role;
  if (!root_arg(c, root, &role, fn, &rc)) return rc;
  if (role == Role::Idle) return MPI_SUCCESS;
  if (role == Role::Remote) {
    if (!typed(c, sendbuf, sendcount, sendtype, fn, &rc)) return rc;
    return finish(c, coll_send(sendbuf, uz(sendcount), sendtype, root, kTagGather, c), fn);
  }
  const Datatype* rt = typed(c, recvbuf, recvcount, recvtype, fn, &rc);
  if (!rt) return rc;
  Exchange x(c, kTagGather);
  for (int i = 0; i < c.peer_size(); ++i) x.recv(at_elem(recvbuf, uz(i) * uz(recvcount), *rt), uz(recvcount), recvtype, i);
  return finish(c, x.wait(), fn);
}

int inter_gatherv(const char* fn, const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                  const int* recvcounts, const int* displs, MPI_Datatype recvtype, int root, Comm& c) {
  int rc = MPI_SUCCESS;
  Role role;
  if (!root_arg(c, root, &role, fn, &rc)) return rc;
  if (role == Role::Idle) return MPI_SUCCESS;
  if (role == Role::Remote) {
    if (!typed(c, sendbuf, sendcount, sendtype, fn, &rc)) return rc;
    return finish(c, coll_send(sendbuf, uz(sendcount), sendtype, root, kTagGather, c), fn);
  }
  if (!arrays(c, recvcounts, displs, c.peer_size(), fn, &rc)) return rc;
  const Datatype* rt = typed(c, recvbuf, 0, recvtype, fn, &rc);
  if (!rt) return rc;
  Exchange x(c, kTagGather);
  for (int i = 0; i < c.peer_size(); ++i)
    x.recv(static_cast<unsigned char*>(recvbuf) + static_cast<std::ptrdiff_t>(displs[i]) * rt->extent, uz(recvcounts[i]),
           recvtype, i);
  return finish(c, x.wait(), fn);
}

int inter_scatter(const char* fn, const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                  MPI_Datatype recvtype, int root, Comm& c) {
  int rc = MPI_SUCCESS;
  Role role;
  if (!root_arg(c, root, &role, fn, &rc)) return rc;
  if (role == Role::Idle) return MPI_SUCCESS;
  if (role == Role::Remote) {
    if (!typed(c, recvbuf, recvcount, recvtype, fn, &rc)) return rc;
    return finish(c, coll_recv(recvbuf, uz(recvcount), recvtype, root, kTagScatter, c), fn);
  }
  const Datatype* st = typed(c, sendbuf, sendcount, sendtype, fn, &rc);
  if (!st) return rc;
  Exchange x(c, kTagScatter);
  for (int i = 0; i < c.peer_size(); ++i) x.send(at_elem(sendbuf, uz(i) * uz(sendcount), *st), uz(sendcount), sendtype, i);
  return finish(c, x.wait(), fn);
}

int inter_scatterv(const char* fn, const void* sendbuf, const int* sendcounts, const int* displs, MPI_Datatype sendtype,
                   void* recvbuf, int recvcount, MPI_Datatype recvtype, int root, Comm& c) {
  int rc = MPI_SUCCESS;
  Role role;
  if (!root_arg(c, root, &role, fn, &rc)) return rc;
  if (role == Role::Idle) return MPI_SUCCESS;
  if (role == Role::Remote) {
    if (!typed(c, recvbuf, recvcount, recvtype, fn, &rc)) return rc;
    return finish(c, coll_recv(recvbuf, uz(recvcount), recvtype, root, kTagScatter, c), fn);
  }
  if (!arrays(c, sendcounts, displs, c.peer_size(), fn, &rc)) return rc;
  const Datatype* st = typed(c, sendbuf, 0, sendtype, fn, &rc);
  if (!st) return rc;
  Exchange x(c, kTagScatter);
  for (int i = 0; i < c.peer_size(); ++i)
    x.send(static_cast<const unsigned char*>(sendbuf) + static_cast<std::ptrdiff_t>(displs[i]) * st->extent,
           uz(sendcounts[i]), sendtype, i);
  return finish(c, x.wait(), fn);
}

int inter_allgather(const char* fn, const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                    int recvcount, MPI_Datatype recvtype, Comm& c) {
  int rc = MPI_SUCCESS;
  const Datatype* rt = typed(c, recvbuf, recvcount, recvtype, fn, &rc);
  if (!rt || !typed(c, sendbuf, sendcount, sendtype, fn, &rc)) return rc;
  Exchange x(c, kTagAllgather);
  for (int i = 0; i < c.peer_size(); ++i) x.recv(at_elem(recvbuf, uz(i) * uz(recvcount), *rt), uz(recvcount), recvtype, i);
  for (int i = 0; i < c.peer_size(); ++i) x.send(sendbuf, uz(sendcount), sendtype, i);
  return finish(c, x.wait(), fn);
}

int inter_allgatherv(const char* fn, const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                     const int* recvcounts, const int* displs, MPI_Datatype recvtype, Comm& c) {
  int rc = MPI_SUCCESS;
  if (!arrays(c, recvcounts, displs, c.peer_size(), fn, &rc)) return rc;
  const Datatype* rt = typed(c, recvbuf, 0, recvtype, fn, &rc);
  if (!rt || !typed(c, sendbuf, sendcount, sendtype, fn, &rc)) return rc;
  Exchange x(c, kTagAllgather);
  for (int i = 0; i < c.peer_size(); ++i)
    x.recv(static_cast<unsigned char*>(recvbuf) + static_cast<std::ptrdiff_t>(displs[i]) * rt->extent, uz(recvcounts[i]),
           recvtype, i);
  for (int i = 0; i < c.peer_size(); ++i) x.send(sendbuf, uz(sendcount), sendtype, i);
  return finish(c, x.wait(), fn);
}

int inter_alltoall(const char* fn, const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                   MPI_Datatype recvtype, Comm& c) {
  int rc = MPI_SUCCESS;
  const Datatype* rt = typed(c, recvbuf, recvcount, recvtype, fn, &rc);
  const Datatype* st = rt ? typed(c, sendbuf, sendcount, sendtype, fn, &rc) : nullptr;
  if (!st) return rc;
  Exchange x(c, kTagAlltoall);
  for (int i = 0; i < c.peer_size(); ++i) x.recv(at_elem(recvbuf, uz(i) * uz(recvcount), *rt), uz(recvcount), recvtype, i);
  for (int i = 0; i < c.peer_size(); ++i) x.send(at_elem(sendbuf, uz(i) * uz(sendcount), *st), uz(sendcount), sendtype, i);
  return finish(c, x.wait(), fn);
}

int inter_alltoallv(const char* fn, const void* sendbuf, const int* sendcounts, const int* sdispls, MPI_Datatype sendtype,
                    void* recvbuf, const int* recvcounts, const int* rdispls, MPI_Datatype recvtype, Comm& c) {
  int rc = MPI_SUCCESS;
  if (!arrays(c, sendcounts, sdispls, c.peer_size(), fn, &rc) || !arrays(c, recvcounts, rdispls, c.peer_size(), fn, &rc))
    return rc;
  const Datatype* rt = typed(c, recvbuf, 0, recvtype, fn, &rc);
  const Datatype* st = rt ? typed(c, sendbuf, 0, sendtype, fn, &rc) : nullptr;
  if (!st) return rc;
  Exchange x(c, kTagAlltoallv);
  for (int i = 0; i < c.peer_size(); ++i)
    x.recv(static_cast<unsigned char*>(recvbuf) + static_cast<std::ptrdiff_t>(rdispls[i]) * rt->extent, uz(recvcounts[i]),
           recvtype, i);
  for (int i = 0; i < c.peer_size(); ++i)
    x.send(static_cast<const unsigned char*>(sendbuf) + static_cast<std::ptrdiff_t>(sdispls[i]) * st->extent,
           uz(sendcounts[i]), sendtype, i);
  return finish(c, x.wait(), fn);
}

int inter_alltoallw(const char* fn, const void* sendbuf, const int* sendcounts, const int* sdispls,
                    const MPI_Datatype* sendtypes, void* recvbuf, const int* recvcounts, const int* rdispls,
                    const MPI_Datatype* recvtypes, Comm& c) {
  int rc = MPI_SUCCESS;
  if (!no_in_place(c, sendbuf, fn, &rc) || !arrays(c, sendcounts, sdispls, c.peer_size(), fn, &rc) ||
      !arrays(c, recvcounts, rdispls, c.peer_size(), fn, &rc))
    return rc;
  if (!sendtypes || !recvtypes) return raise(c.handle, MPI_ERR_ARG, fn, "a datatype array is NULL");
  for (int i = 0; i < c.peer_size(); ++i)
    if (!check::type(c, sendtypes[i], fn, &rc) || !check::type(c, recvtypes[i], fn, &rc)) return rc;
  Exchange x(c, kTagAlltoallw);
  for (int i = 0; i < c.peer_size(); ++i)
    x.recv(static_cast<unsigned char*>(recvbuf) + rdispls[i], uz(recvcounts[i]), recvtypes[i], i);
  for (int i = 0; i < c.peer_size(); ++i)
    x.send(static_cast<const unsigned char*>(sendbuf) + sdispls[i], uz(sendcounts[i]), sendtypes[i], i);
  return finish(c, x.wait(), fn);
}

}  // namespace

namespace {

/// An intercommunicator algorithm's entry: the default of its collective there.
Algorithm intercomm_entry(Collective k, const char* name, AnyFn fn, const char* help) {
  return {.kind = k, .name = name, .family = Family::Classic, .fn = fn, .help = help, .default_on = DefaultOn::Always,
          .intercomm = true};
}

constexpr const char* kBarrierHelp =
    "intercommunicators: a barrier in each group, the leaders exchange a message, a barrier in each group";
constexpr const char* kBcastHelp =
    "intercommunicators: the root sends to the other group's leader, which broadcasts there";
constexpr const char* kReduceHelp =
    "intercommunicators: the other group reduces to its leader, which sends the result to the root";
constexpr const char* kAllreduceHelp =
    "intercommunicators: each group reduces to its leader, the leaders swap, each broadcasts what it got";
constexpr const char* kReduceScatterHelp =
    "intercommunicators: each group reduces to its leader, the leaders swap, each scatters what it got";
constexpr const char* kGatherHelp =
    "intercommunicators: the root posts a receive from every rank of the other group at once, one wait";
constexpr const char* kScatterHelp =
    "intercommunicators: the root posts a send to every rank of the other group at once, one wait";
constexpr const char* kAllHelp =
    "intercommunicators: every receive from and send to the other group posted at once, one wait";

}  // namespace

namespace entry {

extern const Algorithm barrier_inter_leaders =
    intercomm_entry(Collective::Barrier, "inter_leaders", any(InterBarrierFn{&inter_barrier}), kBarrierHelp);
extern const Algorithm bcast_inter_leader =
    intercomm_entry(Collective::Bcast, "inter_leader", any(InterBcastFn{&inter_bcast}), kBcastHelp);
extern const Algorithm reduce_inter_leader =
    intercomm_entry(Collective::Reduce, "inter_leader", any(InterReduceFn{&inter_reduce}), kReduceHelp);
extern const Algorithm allreduce_inter_leaders =
    intercomm_entry(Collective::Allreduce, "inter_leaders", any(InterAllreduceFn{&inter_allreduce}), kAllreduceHelp);
extern const Algorithm reduce_scatter_inter_leaders =
    intercomm_entry(Collective::ReduceScatter, "inter_leaders", any(InterReduceScatterFn{&inter_reduce_scatter}), kReduceScatterHelp);
extern const Algorithm reduce_scatter_block_inter_leaders =
    intercomm_entry(Collective::ReduceScatterBlock, "inter_leaders", any(InterReduceScatterFn{&inter_reduce_scatter}), kReduceScatterHelp);
extern const Algorithm gather_inter_linear =
    intercomm_entry(Collective::Gather, "inter_linear", any(InterGatherFn{&inter_gather}), kGatherHelp);
extern const Algorithm gatherv_inter_linear =
    intercomm_entry(Collective::Gatherv, "inter_linear", any(InterGathervFn{&inter_gatherv}), kGatherHelp);
extern const Algorithm scatter_inter_linear =
    intercomm_entry(Collective::Scatter, "inter_linear", any(InterGatherFn{&inter_scatter}), kScatterHelp);
extern const Algorithm scatterv_inter_linear =
    intercomm_entry(Collective::Scatterv, "inter_linear", any(InterScattervFn{&inter_scatterv}), kScatterHelp);
extern const Algorithm allgather_inter_linear =
    intercomm_entry(Collective::Allgather, "inter_linear", any(InterAllgatherFn{&inter_allgather}), kAllHelp);
extern const Algorithm allgatherv_inter_linear =
    intercomm_entry(Collective::Allgatherv, "inter_linear", any(InterAllgathervFn{&inter_allgatherv}), kAllHelp);
extern const Algorithm alltoall_inter_linear =
    intercomm_entry(Collective::Alltoall, "inter_linear", any(InterAllgatherFn{&inter_alltoall}), kAllHelp);
extern const Algorithm alltoallv_inter_linear =
    intercomm_entry(Collective::Alltoallv, "inter_linear", any(InterAlltoallvFn{&inter_alltoallv}), kAllHelp);
extern const Algorithm alltoallw_inter_linear =
    intercomm_entry(Collective::Alltoallw, "inter_linear", any(InterAlltoallwFn{&inter_alltoallw}), kAllHelp);

}  // namespace entry

}  // namespace tilempi::mpi::coll
