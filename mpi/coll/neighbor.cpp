// Neighbourhood collectives (MPI-3.1 §7.6): MPI_(I)Neighbor_allgather(v) and
// MPI_(I)Neighbor_alltoall(v/w) on Cartesian, graph and distributed-graph communicators.
//
// Every one of them is, at each rank, a list of typed sends (block j to the j-th destination of
// the topology) and typed receives (block i from the i-th source); the entry points turn their
// arguments into that list (NeighborExchange) and the registered algorithm moves it:
//   linear       every receive posted, then every send, then one wait (what MPICH and Open MPI do);
//   mesh_rounds  the messages in contention-free rounds on the mesh's XY routes
//                (schedule/neighbor_rounds.cpp, the schedule tilempi-coll-check analyses).
// Two messages from one process to another match the receives in the order the standard fixes:
// the k-th send to a process with its k-th receive from this one, and on a Cartesian topology the
// two blocks of a dimension crosswise (NeighborLists::cartesian). Both algorithms post every
// receive first, in that order, and send to any one process in slot order.
#include <algorithm>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "check.h"
#include "coll/coll.h"
#include "errors.h"
#include "holds.h"
#include "p2p.h"
#include "topo.h"

namespace tilempi::mpi::coll {

namespace {

/// Post every receive, in matching order, into reqs (one slot per receive; MPI_REQUEST_NULL for
/// MPI_PROC_NULL).
int post_receives(const NeighborExchange& x, Comm& c, std::vector<MPI_Request>& reqs) {
  reqs.assign(x.recvs.size(), MPI_REQUEST_NULL);
  for (int i : x.recv_order) {
    const NeighborTransfer& t = x.recvs[static_cast<std::size_t>(i)];
    if (t.peer == MPI_PROC_NULL) continue;
    if (int e = coll_irecv(t.buf, t.count, t.type, t.peer, kTagNeighbor, c, &reqs[static_cast<std::size_t>(i)])) return e;
  }
  return MPI_SUCCESS;
}

int post_send(const NeighborTransfer& t, Comm& c, std::vector<MPI_Request>& reqs) {
  if (t.peer == MPI_PROC_NULL) return MPI_SUCCESS;
  reqs.emplace_back();
  return coll_isend(t.buf, t.count, t.type, t.peer, kTagNeighbor, c, &reqs.back());
}

/// Wait for the requests that are not null.
int wait_live(std::vector<MPI_Request> reqs) {
  reqs.erase(std::remove(reqs.begin(), reqs.end(), MPI_REQUEST_NULL), reqs.end());
  return waitall(reqs);
}

int neighbor_linear(const NeighborExchange& x, Comm& c, int) {
  std::vector<MPI_Request> recvs, sends;
  int rc = post_receives(x, c, recvs);
  for (std::size_t j = 0; j < x.sends.size() && rc == MPI_SUCCESS; ++j) rc = post_send(x.sends[j], c, sends);
  for (MPI_Request r : recvs)
    if (r != MPI_REQUEST_NULL) sends.push_back(r);
  const int wrc = wait_live(std::move(sends));
  return rc != MPI_SUCCESS ? rc : wrc;
}

/// This rank's part of the mesh schedule: the round of each send, and of each receive (the round
/// its sender sends it in), computed once per communicator from every rank's neighbours.
struct MyRounds {
  std::vector<int> send, recv;
  int rounds = 0;
};

/// The matching order of rank r's receives (as NeighborExchange::recv_order for its own).
std::vector<int> matching_order(std::size_t n, bool cartesian) {
  std::vector<int> order(n);
  for (std::size_t i = 0; i < n; ++i) order[i] = static_cast<int>(cartesian ? (i ^ 1u) : i);
  return order;
}

MyRounds my_rounds(Comm& c) {
  const CollState& g = geometry(c);
  const schedule::Neighborhood nb = full_neighborhood(c);
  const schedule::NeighborRounds nr = schedule::neighbor_rounds(g.mesh, g.members, nb);
  MyRounds m;
  m.rounds = nr.rounds;
  const auto me = static_cast<std::size_t>(c.rank);
  m.send = nr.send_round[me];
  // The k-th receive from s (in matching order) takes s's k-th send to this rank (in slot order).
  const NeighborLists lists = neighbor_lists(c);
  m.recv.assign(lists.sources.size(), -1);
  std::map<int, std::vector<int>> sends_to_me;  // sender -> its rounds of the sends to this rank, slot order
  for (int s : lists.sources) {
    if (s == MPI_PROC_NULL || sends_to_me.count(s)) continue;
    auto& v = sends_to_me[s];
    const auto& d = nb.destinations[static_cast<std::size_t>(s)];
    for (std::size_t j = 0; j < d.size(); ++j)
      if (d[j] == c.rank) v.push_back(nr.send_round[static_cast<std::size_t>(s)][j]);
  }
  std::map<int, std::size_t> taken;
  for (int i : matching_order(lists.sources.size(), lists.cartesian)) {
    const int s = lists.sources[static_cast<std::size_t>(i)];
    if (s == MPI_PROC_NULL) continue;
    const auto& v = sends_to_me[s];
    const std::size_t k = taken[s]++;
    m.recv[static_cast<std::size_t>(i)] = k < v.size() ? v[k] : 0;
  }
  return m;
}

// Rounds are kept apart by each rank's own waits, not by a barrier: a rank starts its round k + 1
// once its sends and receives of round k are done. A barrier per round ([Yagna 2013] §3.2.1, as
// alltoall's mesh_rounds has) costs more than the few one-hop messages of a round; without it a
// rank runs at most one round ahead of its neighbours, and the messages of a round still never
// meet on a link (docs/COLLECTIVES.md, "Neighbourhood collectives").
int neighbor_mesh_rounds(const NeighborExchange& x, Comm& c, int) {
  CollState& st = state(c);
  if (!st.neighbor_ready) {
    MyRounds m = my_rounds(c);
    st.neighbor_round = m.send;
    st.neighbor_round.insert(st.neighbor_round.end(), m.recv.begin(), m.recv.end());
    st.neighbor_rounds = m.rounds;
    st.neighbor_ready = true;
  }
  const std::size_t ns = x.sends.size();
  if (st.neighbor_round.size() != ns + x.recvs.size()) return neighbor_linear(x, c, 0);  // not reached
  std::vector<MPI_Request> recvs;
  int rc = post_receives(x, c, recvs);
  std::vector<std::vector<MPI_Request>> by_round(static_cast<std::size_t>(std::max(st.neighbor_rounds, 1)));
  for (std::size_t i = 0; i < recvs.size(); ++i)
    if (recvs[i] != MPI_REQUEST_NULL)
      by_round[static_cast<std::size_t>(std::max(st.neighbor_round[ns + i], 0))].push_back(recvs[i]);
  for (std::size_t k = 0; k < by_round.size(); ++k) {
    std::vector<MPI_Request> now = std::move(by_round[k]);
    for (std::size_t j = 0; j < ns && rc == MPI_SUCCESS; ++j)
      if (st.neighbor_round[j] == static_cast<int>(k)) rc = post_send(x.sends[j], c, now);
    const int wrc = wait_live(std::move(now));
    if (rc == MPI_SUCCESS) rc = wrc;
    if (rc != MPI_SUCCESS) return rc;
  }
  return rc;
}

// ---- the entry points ---------------------------------------------------------------------------

std::size_t uz(int v) { return static_cast<std::size_t>(v); }

/// The communicator of a neighbourhood collective: an intracommunicator with a topology.
Comm* topo_comm(MPI_Comm h, const char* fn, int* rc) {
  Comm* c = check::intra(h, fn, rc);
  if (c && topology_kind(*c) == MPI_UNDEFINED) {
    *rc = raise(h, MPI_ERR_TOPOLOGY, fn, "the communicator has no process topology (Cartesian, graph or distributed graph)");
    return nullptr;
  }
  return c;
}

int finish(Comm& c, int rc, const char* fn) {
  if (rc == MPI_SUCCESS) return rc;
  std::string why = take_failure_note();
  if (why.empty())
    why = rc == MPI_ERR_OTHER ? "the call failed at another member of the communicator, which told this rank so; "
                                "this rank's part of it was abandoned"
                              : "communication failed inside the collective";
  return raise(c.handle, rc, fn, why);
}

int run(Collective k, const char* fn, Comm& c, NeighborExchange& x) {
  Selected s;
  std::string why;
  if (int e = choose(k, c, Call{}, &s, &why)) return raise(c.handle, e, fn, why);
  return finish(c, as<NeighborFn>(s.algorithm->fn)(x, c, s.param), fn);
}

/// The common checks of a typed block: count >= 0, a committed type, a buffer where data is.
bool block_ok(const Comm& c, const void* buf, int count, MPI_Datatype type, const char* fn, int* rc) {
  if (!check::count(c, count, fn, rc)) return false;
  const Datatype* t = check::type(c, type, fn, rc);
  if (!t) return false;
  if (buf == MPI_IN_PLACE) {
    *rc = raise(c.handle, MPI_ERR_BUFFER, fn, "MPI_IN_PLACE is not allowed in a neighbourhood collective");
    return false;
  }
  return check::buffer(c, buf, count, *t, fn, rc);
}

bool array_ok(const Comm& c, std::size_t n, const void* a, const char* what, const char* fn, int* rc) {
  if (n == 0 || a) return true;
  *rc = raise(c.handle, MPI_ERR_ARG, fn, std::string(what) + " is NULL");
  return false;
}

NeighborExchange exchange_of(const Comm& c) {
  const NeighborLists l = neighbor_lists(c);
  NeighborExchange x;
  x.sends.resize(l.destinations.size());
  x.recvs.resize(l.sources.size());
  for (std::size_t j = 0; j < l.destinations.size(); ++j) x.sends[j].peer = l.destinations[j];
  for (std::size_t i = 0; i < l.sources.size(); ++i) x.recvs[i].peer = l.sources[i];
  x.recv_order = matching_order(l.sources.size(), l.cartesian);
  return x;
}

std::size_t extent_of(MPI_Datatype t) { return static_cast<std::size_t>(datatype_get(t)->extent); }

int allgather_call(const char* fn, Collective k, const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                   int recvcount, const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm) {
  int rc = MPI_SUCCESS;
  Comm* c = topo_comm(comm, fn, &rc);
  if (!c) return rc;
  NeighborExchange x = exchange_of(*c);
  const bool v = k == Collective::NeighborAllgatherv;
  if (!block_ok(*c, sendbuf, sendcount, sendtype, fn, &rc)) return rc;
  if (v) {
    if (!array_ok(*c, x.recvs.size(), recvcounts, "recvcounts", fn, &rc) || !array_ok(*c, x.recvs.size(), displs, "displs", fn, &rc))
      return rc;
    for (std::size_t i = 0; i < x.recvs.size(); ++i)
      if (!block_ok(*c, recvbuf, recvcounts[i], recvtype, fn, &rc)) return rc;
  } else if (!block_ok(*c, recvbuf, recvcount, recvtype, fn, &rc)) {
    return rc;
  }
  for (auto& s : x.sends) s = {const_cast<void*>(sendbuf), uz(sendcount), sendtype, s.peer};
  const std::size_t ext = extent_of(recvtype);
  for (std::size_t i = 0; i < x.recvs.size(); ++i) {
    const std::size_t count = v ? uz(recvcounts[i]) : uz(recvcount);
    const std::ptrdiff_t at = v ? static_cast<std::ptrdiff_t>(displs[i]) * static_cast<std::ptrdiff_t>(ext)
                                : static_cast<std::ptrdiff_t>(i * uz(recvcount) * ext);
    x.recvs[i] = {static_cast<unsigned char*>(recvbuf) + at, count, recvtype, x.recvs[i].peer};
  }
  return run(k, fn, *c, x);
}

int alltoall_call(const char* fn, Collective k, const void* sendbuf, int sendcount, const int sendcounts[],
                  const MPI_Aint sbytes[], const int sdispls[], const MPI_Datatype sendtypes[], MPI_Datatype sendtype,
                  void* recvbuf, int recvcount, const int recvcounts[], const MPI_Aint rbytes[], const int rdispls[],
                  const MPI_Datatype recvtypes[], MPI_Datatype recvtype, MPI_Comm comm) {
  int rc = MPI_SUCCESS;
  Comm* c = topo_comm(comm, fn, &rc);
  if (!c) return rc;
  NeighborExchange x = exchange_of(*c);
  const bool v = k == Collective::NeighborAlltoallv, w = k == Collective::NeighborAlltoallw;
  const std::size_t ns = x.sends.size(), nr = x.recvs.size();
  if (v || w) {
    if (!array_ok(*c, ns, sendcounts, "sendcounts", fn, &rc) || !array_ok(*c, nr, recvcounts, "recvcounts", fn, &rc) ||
        !array_ok(*c, ns, w ? static_cast<const void*>(sbytes) : sdispls, "sdispls", fn, &rc) ||
        !array_ok(*c, nr, w ? static_cast<const void*>(rbytes) : rdispls, "rdispls", fn, &rc))
      return rc;
    if (w && (!array_ok(*c, ns, sendtypes, "sendtypes", fn, &rc) || !array_ok(*c, nr, recvtypes, "recvtypes", fn, &rc))) return rc;
  }
  for (std::size_t j = 0; j < ns; ++j) {
    const MPI_Datatype t = w ? sendtypes[j] : sendtype;
    const int count = v || w ? sendcounts[j] : sendcount;
    if (!block_ok(*c, sendbuf, count, t, fn, &rc)) return rc;
    const std::ptrdiff_t at = w ? sbytes[j]
                              : static_cast<std::ptrdiff_t>(v ? sdispls[j] : static_cast<std::ptrdiff_t>(j) * sendcount) *
                                    static_cast<std::ptrdiff_t>(extent_of(t));
    x.sends[j] = {const_cast<unsigned char*>(static_cast<const unsigned char*>(sendbuf)) + at, uz(count), t, x.sends[j].peer};
  }
  for (std::size_t i = 0; i < nr; ++i) {
    const MPI_Datatype t = w ? recvtypes[i] : recvtype;
    const int count = v || w ? recvcounts[i] : recvcount;
    if (!block_ok(*c, recvbuf, count, t, fn, &rc)) return rc;
    const std::ptrdiff_t at = w ? rbytes[i]
                              : static_cast<std::ptrdiff_t>(v ? rdispls[i] : static_cast<std::ptrdiff_t>(i) * recvcount) *
                                    static_cast<std::ptrdiff_t>(extent_of(t));
    x.recvs[i] = {static_cast<unsigned char*>(recvbuf) + at, uz(count), t, x.recvs[i].peer};
  }
  // A topology without neighbours still checks its arguments above, at least the scalar ones.
  if (ns == 0 && !v && !w && !check::count(*c, sendcount, fn, &rc)) return rc;
  if (nr == 0 && !v && !w && !check::count(*c, recvcount, fn, &rc)) return rc;
  return run(k, fn, *c, x);
}

/// One collective call in a tag range of its own (call_sequence.cpp).
template <class F>
int sequenced(MPI_Comm comm, F&& call) {
  CallSequence sequence(comm);
  const int rc = call();
  if (rc != MPI_SUCCESS) sequence.failed();
  return rc;
}

/// MPI_Ineighbor_xxx: the blocking call's code as the request's coroutine (nonblocking.cpp). The
/// call holds its communicator and datatypes until its code ends (holds.h): mesh_rounds posts a
/// round's sends after the earlier rounds' waits, when the user may have freed them.
int start(const char* fn, MPI_Comm comm, MPI_Request* request, std::vector<MPI_Datatype> types, std::function<int()> body) {
  int rc = MPI_SUCCESS;
  Comm* c = check::comm(comm, fn, &rc);
  if (!c) return rc;
  if (!request) return raise(comm, MPI_ERR_ARG, fn, "request is NULL");
  // Only live types are held; a bad one is the body's to report.
  types.erase(std::remove_if(types.begin(), types.end(), [](MPI_Datatype t) { return !datatype_get(t); }), types.end());
  return nbc_start(*c, [comm, holds = Holds(comm, types), body = std::move(body)] { return sequenced(comm, body); },
                   request);
}

/// The datatypes of an MPI_Ineighbor_alltoallw call (as many as the topology has neighbours).
std::vector<MPI_Datatype> w_types(MPI_Comm comm, const MPI_Datatype* sendtypes, const MPI_Datatype* recvtypes) {
  std::vector<MPI_Datatype> out;
  Comm* c = comm_get(comm);
  if (!c || topology_kind(*c) == MPI_UNDEFINED || c->inter) return out;
  const NeighborLists l = neighbor_lists(*c);
  if (sendtypes) out.insert(out.end(), sendtypes, sendtypes + l.destinations.size());
  if (recvtypes) out.insert(out.end(), recvtypes, recvtypes + l.sources.size());
  return out;
}

}  // namespace

// ---- registry entries (registry.cpp lists them) ----------------------------------------------

namespace entry {

namespace {
schedule::Schedule linear_schedule(const schedule::Mesh&, const Members&, const schedule::Neighborhood& nb) {
  return schedule::neighbor_all_at_once(nb);
}
schedule::Schedule rounds_schedule(const schedule::Mesh& mesh, const Members& m, const schedule::Neighborhood& nb) {
  return schedule::neighbor_mesh_rounds(mesh, m, nb);
}
constexpr const char* kLinearHelp = "every receive posted, then every send, then one wait (MPICH, Open MPI)";
constexpr const char* kRoundsHelp =
    "contention-free rounds on the mesh's XY routes: one round per direction on a grid placed by reorder";
}  // namespace

#define TILEMPI_NEIGHBOR_ENTRIES(id, collective)                                                                        \
  extern const Algorithm neighbor_##id##_linear{.kind = Collective::collective, .name = "linear", .family = Family::Classic,  \
                                                .fn = any(&neighbor_linear), .help = kLinearHelp,                 \
                                                .default_on = DefaultOn::Always,                                  \
                                                .neighbor_schedule = &linear_schedule};                           \
  extern const Algorithm neighbor_##id##_mesh_rounds{.kind = Collective::collective, .name = "mesh_rounds",                    \
                                                     .family = Family::Mesh, .fn = any(&neighbor_mesh_rounds),     \
                                                     .help = kRoundsHelp, .neighbor_schedule = &rounds_schedule};
TILEMPI_NEIGHBOR_ENTRIES(allgather, NeighborAllgather)
TILEMPI_NEIGHBOR_ENTRIES(allgatherv, NeighborAllgatherv)
TILEMPI_NEIGHBOR_ENTRIES(alltoall, NeighborAlltoall)
TILEMPI_NEIGHBOR_ENTRIES(alltoallv, NeighborAlltoallv)
TILEMPI_NEIGHBOR_ENTRIES(alltoallw, NeighborAlltoallw)
#undef TILEMPI_NEIGHBOR_ENTRIES

}  // namespace entry

}  // namespace tilempi::mpi::coll

using namespace tilempi::mpi;
using coll::Collective;

extern "C" {

int MPI_Neighbor_allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                           MPI_Datatype recvtype, MPI_Comm comm) {
  ApiScope api_scope(__func__);
  return coll::sequenced(comm, [&] {
    return coll::allgather_call("MPI_Neighbor_allgather", Collective::NeighborAllgather, sendbuf, sendcount, sendtype, recvbuf,
                                recvcount, nullptr, nullptr, recvtype, comm);
  });
}

int MPI_Ineighbor_allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                            MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) {
  ApiScope api_scope(__func__);
  const char* fn = "MPI_Ineighbor_allgather";
  return coll::start(fn, comm, request, {sendtype, recvtype}, [=] {
    return coll::allgather_call(fn, Collective::NeighborAllgather, sendbuf, sendcount, sendtype, recvbuf, recvcount, nullptr,
                                nullptr, recvtype, comm);
  });
}

int MPI_Neighbor_allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                            const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm) {
  ApiScope api_scope(__func__);
  return coll::sequenced(comm, [&] {
    return coll::allgather_call("MPI_Neighbor_allgatherv", Collective::NeighborAllgatherv, sendbuf, sendcount, sendtype,
                                recvbuf, 0, recvcounts, displs, recvtype, comm);
  });
}

int MPI_Ineighbor_allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                             const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm,
                             MPI_Request* request) {
  ApiScope api_scope(__func__);
  const char* fn = "MPI_Ineighbor_allgatherv";
  return coll::start(fn, comm, request, {sendtype, recvtype}, [=] {
    return coll::allgather_call(fn, Collective::NeighborAllgatherv, sendbuf, sendcount, sendtype, recvbuf, 0, recvcounts,
                                displs, recvtype, comm);
  });
}

int MPI_Neighbor_alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                          MPI_Datatype recvtype, MPI_Comm comm) {
  ApiScope api_scope(__func__);
  return coll::sequenced(comm, [&] {
    return coll::alltoall_call("MPI_Neighbor_alltoall", Collective::NeighborAlltoall, sendbuf, sendcount, nullptr, nullptr,
                               nullptr, nullptr, sendtype, recvbuf, recvcount, nullptr, nullptr, nullptr, nullptr,
                               recvtype, comm);
  });
}

int MPI_Ineighbor_alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                           MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) {
  ApiScope api_scope(__func__);
  const char* fn = "MPI_Ineighbor_alltoall";
  return coll::start(fn, comm, request, {sendtype, recvtype}, [=] {
    return coll::alltoall_call(fn, Collective::NeighborAlltoall, sendbuf, sendcount, nullptr, nullptr, nullptr, nullptr,
                               sendtype, recvbuf, recvcount, nullptr, nullptr, nullptr, nullptr, recvtype, comm);
  });
}

int MPI_Neighbor_alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                           void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                           MPI_Comm comm) {
  ApiScope api_scope(__func__);
  return coll::sequenced(comm, [&] {
    return coll::alltoall_call("MPI_Neighbor_alltoallv", Collective::NeighborAlltoallv, sendbuf, 0, sendcounts, nullptr,
                               sdispls, nullptr, sendtype, recvbuf, 0, recvcounts, nullptr, rdispls, nullptr, recvtype,
                               comm);
  });
}

int MPI_Ineighbor_alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                            void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                            MPI_Comm comm, MPI_Request* request) {
  ApiScope api_scope(__func__);
  const char* fn = "MPI_Ineighbor_alltoallv";
  return coll::start(fn, comm, request, {sendtype, recvtype}, [=] {
    return coll::alltoall_call(fn, Collective::NeighborAlltoallv, sendbuf, 0, sendcounts, nullptr, sdispls, nullptr, sendtype,
                               recvbuf, 0, recvcounts, nullptr, rdispls, nullptr, recvtype, comm);
  });
}

int MPI_Neighbor_alltoallw(const void* sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                           const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                           const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm) {
  ApiScope api_scope(__func__);
  return coll::sequenced(comm, [&] {
    return coll::alltoall_call("MPI_Neighbor_alltoallw", Collective::NeighborAlltoallw, sendbuf, 0, sendcounts, sdispls,
                               nullptr, sendtypes, MPI_DATATYPE_NULL, recvbuf, 0, recvcounts, rdispls, nullptr,
                               recvtypes, MPI_DATATYPE_NULL, comm);
  });
}

int MPI_Ineighbor_alltoallw(const void* sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                            const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                            const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                            MPI_Request* request) {
  ApiScope api_scope(__func__);
  const char* fn = "MPI_Ineighbor_alltoallw";
  return coll::start(fn, comm, request, coll::w_types(comm, sendtypes, recvtypes), [=] {
    return coll::alltoall_call(fn, Collective::NeighborAlltoallw, sendbuf, 0, sendcounts, sdispls, nullptr, sendtypes,
                               MPI_DATATYPE_NULL, recvbuf, 0, recvcounts, rdispls, nullptr, recvtypes,
                               MPI_DATATYPE_NULL, comm);
  });
}

}  // extern "C"

// The names a profiling tool may replace (see TILEMPI_PMPI_ALIAS).
TILEMPI_PMPI_ALIAS(Neighbor_allgather)
TILEMPI_PMPI_ALIAS(Neighbor_allgatherv)
TILEMPI_PMPI_ALIAS(Neighbor_alltoall)
TILEMPI_PMPI_ALIAS(Neighbor_alltoallv)
TILEMPI_PMPI_ALIAS(Neighbor_alltoallw)
TILEMPI_PMPI_ALIAS(Ineighbor_allgather)
TILEMPI_PMPI_ALIAS(Ineighbor_allgatherv)
TILEMPI_PMPI_ALIAS(Ineighbor_alltoall)
TILEMPI_PMPI_ALIAS(Ineighbor_alltoallv)
TILEMPI_PMPI_ALIAS(Ineighbor_alltoallw)
