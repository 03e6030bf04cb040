// Internal interface of the collectives: the algorithm function types, the registry, the state
// cached per communicator, and byte-level point-to-point helpers on the collective lane.
//
// The MPI_ entry points (api_coll.cpp) check arguments and turn typed buffers into *packed* bytes
// (a contiguous datatype is used in place); the algorithms see only bytes, or packed reduction
// elements with a Reducer, so each is written once for every datatype.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "coll/op.h"
#include "coll/schedule/schedule.h"
#include "comm.h"
#include "mpi.h"
#include "tilempi/transport/transport.h"

namespace tilempi::mpi {

namespace coll {
namespace schedule = ::tilempi::coll::schedule;
}

struct CollState {
  bool geometry_ready = false;
  coll::schedule::Mesh mesh;
  std::vector<coll::schedule::Point> members;  ///< tile of each member
  int rows = 0;                                ///< distinct rows the members occupy
  std::map<int, coll::schedule::Tree> ktrees;  ///< barrier trees by arity, built once
  std::map<int, coll::schedule::Tree> bcast_trees;   ///< static-route trees by root
  /// Static-network routes of bcast_trees, by root (empty: the tree has no static route).
  std::map<int, std::vector<tilempi::transport::StaticRouteHop>> static_routes;
  std::map<int, coll::schedule::Tree> reduce_trees;  ///< two-level reduce trees by root
  bool rounds_ready = false;
  std::vector<int> round_partner;  ///< mesh_rounds: this rank's partner in each round, -1 if idle
  std::uint64_t static_seq = 0;    ///< broadcasts issued on the static network
};

namespace coll {

enum class Kind : int {
  Barrier, Bcast, Reduce, Allreduce, Alltoall, Alltoallv, Gather, Gatherv, Scatter, Scatterv,
  Allgather, Allgatherv, ReduceScatter, ReduceScatterBlock, Scan, Exscan, Count
};
constexpr int kKinds = static_cast<int>(Kind::Count);
const char* kind_name(Kind k);

// Algorithm signatures. Sizes are bytes, or packed elements where a Reducer is involved.
using BarrierFn = int (*)(Comm&, int param);
using BcastFn = int (*)(void* buf, std::size_t bytes, int root, Comm&, int param);
/// sbuf: this rank's n elements; rbuf: the result at the root (distinct from sbuf).
using ReduceFn = int (*)(const void* sbuf, void* rbuf, std::size_t n, const Reducer&, int root, Comm&, int param);
/// sbuf and rbuf are distinct.
using AllreduceFn = int (*)(const void* sbuf, void* rbuf, std::size_t n, const Reducer&, Comm&, int param);
using AlltoallFn = int (*)(const void* sbuf, void* rbuf, std::size_t block, Comm&, int param);
using AlltoallvFn = int (*)(const void* sbuf, const std::size_t* scounts, const std::size_t* sdispls, void* rbuf,
                            const std::size_t* rcounts, const std::size_t* rdispls, Comm&, int param);
/// Root's rbuf holds size blocks; sbuf is this rank's block (at the root it may be its own slot).
using GatherFn = int (*)(const void* sbuf, void* rbuf, std::size_t block, int root, Comm&, int param);
using GathervFn = int (*)(const void* sbuf, std::size_t sbytes, void* rbuf, const std::size_t* counts,
                          const std::size_t* displs, int root, Comm&, int param);
/// Root's sbuf holds size blocks; rbuf receives this rank's block (at the root it may be its slot).
using ScatterFn = int (*)(const void* sbuf, void* rbuf, std::size_t block, int root, Comm&, int param);
using ScattervFn = int (*)(const void* sbuf, const std::size_t* counts, const std::size_t* displs, void* rbuf,
                           std::size_t rbytes, int root, Comm&, int param);
/// In place: this rank's block is already at rbuf + rank * block.
using AllgatherFn = int (*)(void* rbuf, std::size_t block, Comm&, int param);
using AllgathervFn = int (*)(void* rbuf, const std::size_t* counts, const std::size_t* displs, Comm&, int param);
/// sbuf: sum(counts) elements; rbuf: counts[rank] elements.
using ReduceScatterFn = int (*)(const void* sbuf, void* rbuf, const std::size_t* counts, const Reducer&, Comm&,
                                int param);
using ScanFn = int (*)(const void* sbuf, void* rbuf, std::size_t n, const Reducer&, Comm&, int param);

using AnyFn = void (*)();

struct Algorithm {
  const char* name;
  const char* help;
  AnyFn fn;
  bool takes_param = false;  ///< "name:N" (ktree arity)
  int default_param = 0;
};

template <class F>
AnyFn any(F f) {
  return reinterpret_cast<AnyFn>(f);
}
template <class F>
F as(AnyFn f) {
  return reinterpret_cast<F>(f);
}

const std::vector<Algorithm>& algorithms(Kind k);

struct Selected {
  const Algorithm* algorithm = nullptr;
  int param = 0;
  bool user = false;  ///< chosen by TILEMPI_COLL / TILEMPI_COLL_<NAME>, not by the default selector
};
/// The algorithm that runs for collective k on comm: the user's choice, else the default.
Selected select(Kind k, Comm& comm);
const char* default_algorithm(Kind k, Comm& comm);
/// Replace the user's selection with spec ("alltoall=pairwise,...", "" for the defaults), as if
/// it had been in TILEMPI_COLL. For tests that run every algorithm in one job; every rank must
/// make the same calls. Returns MPI_ERR_ARG (and leaves the selection alone) on a bad spec.
int set_selection(const std::string& spec, std::string* error);

// ---- per-communicator state -------------------------------------------------------------------

CollState& state(Comm& comm);
/// Mesh shape and member tiles (from the transport's topology), computed once.
const CollState& geometry(Comm& comm);
const schedule::Tree& cached_ktree(Comm& comm, int k);

// ---- point-to-point on the collective lane, in bytes ---------------------------------------------

enum Tag : int {
  kTagBarrier = 1, kTagBcast, kTagReduce, kTagAllreduce, kTagAlltoall, kTagAlltoallv, kTagGather, kTagScatter,
  kTagAllgather, kTagReduceScatter, kTagScan, kTagRounds, kTagRoundBarrier
};

int send_bytes(const void* buf, std::size_t n, int dest, int tag, Comm& comm);
int recv_bytes(void* buf, std::size_t n, int src, int tag, Comm& comm);
int sendrecv_bytes(const void* sbuf, std::size_t sn, int dest, void* rbuf, std::size_t rn, int src, int tag, Comm& comm);
int isend_bytes(const void* buf, std::size_t n, int dest, int tag, Comm& comm, MPI_Request* req);
int irecv_bytes(void* buf, std::size_t n, int src, int tag, Comm& comm, MPI_Request* req);
int waitall(std::vector<MPI_Request>& reqs);

/// A scratch buffer of bytes.
using Bytes = std::vector<unsigned char>;
inline unsigned char* at(void* p, std::size_t off) { return static_cast<unsigned char*>(p) + off; }
inline const unsigned char* at(const void* p, std::size_t off) { return static_cast<const unsigned char*>(p) + off; }

// ---- algorithms (one file per family) ----------------------------------------------------------

// mesh.cpp: seed 003 chapter 3
int barrier_ktree(Comm&, int k);
int barrier_ktree_static(Comm&, int k);
int bcast_static_route(void*, std::size_t, int, Comm&, int);
int reduce_mesh_tree(const void*, void*, std::size_t, const Reducer&, int, Comm&, int);
int allreduce_mesh_reduce_bcast(const void*, void*, std::size_t, const Reducer&, Comm&, int);
int alltoall_mesh_rounds(const void*, void*, std::size_t, Comm&, int);
int alltoallv_mesh_rounds(const void*, const std::size_t*, const std::size_t*, void*, const std::size_t*,
                          const std::size_t*, Comm&, int);
// barrier.cpp
int barrier_linear(Comm&, int);
int barrier_dissemination(Comm&, int);
int barrier_recursive_doubling(Comm&, int);
// bcast.cpp
int bcast_linear(void*, std::size_t, int, Comm&, int);
int bcast_binomial(void*, std::size_t, int, Comm&, int);
int bcast_scatter_allgather(void*, std::size_t, int, Comm&, int);
// reduce.cpp
int reduce_linear(const void*, void*, std::size_t, const Reducer&, int, Comm&, int);
int reduce_binomial(const void*, void*, std::size_t, const Reducer&, int, Comm&, int);
int allreduce_linear(const void*, void*, std::size_t, const Reducer&, Comm&, int);
int allreduce_recursive_doubling(const void*, void*, std::size_t, const Reducer&, Comm&, int);
int allreduce_ring(const void*, void*, std::size_t, const Reducer&, Comm&, int);
int allreduce_rabenseifner(const void*, void*, std::size_t, const Reducer&, Comm&, int);
int reduce_scatter_nonoverlapping(const void*, void*, const std::size_t*, const Reducer&, Comm&, int);
int reduce_scatter_ring(const void*, void*, const std::size_t*, const Reducer&, Comm&, int);
int scan_linear(const void*, void*, std::size_t, const Reducer&, Comm&, int);
int scan_recursive_doubling(const void*, void*, std::size_t, const Reducer&, Comm&, int);
int exscan_linear(const void*, void*, std::size_t, const Reducer&, Comm&, int);
int exscan_recursive_doubling(const void*, void*, std::size_t, const Reducer&, Comm&, int);
// alltoall.cpp
int alltoall_linear(const void*, void*, std::size_t, Comm&, int);
int alltoall_pairwise(const void*, void*, std::size_t, Comm&, int);
int alltoall_bruck(const void*, void*, std::size_t, Comm&, int);
int alltoall_xor_direct(const void*, void*, std::size_t, Comm&, int);
int alltoall_scattered(const void*, void*, std::size_t, Comm&, int);
int alltoallv_linear(const void*, const std::size_t*, const std::size_t*, void*, const std::size_t*,
                     const std::size_t*, Comm&, int);
int alltoallv_pairwise(const void*, const std::size_t*, const std::size_t*, void*, const std::size_t*,
                       const std::size_t*, Comm&, int);
int alltoallv_scattered(const void*, const std::size_t*, const std::size_t*, void*, const std::size_t*,
                        const std::size_t*, Comm&, int);
// gather.cpp
int gather_linear(const void*, void*, std::size_t, int, Comm&, int);
int gather_binomial(const void*, void*, std::size_t, int, Comm&, int);
int gatherv_linear(const void*, std::size_t, void*, const std::size_t*, const std::size_t*, int, Comm&, int);
int scatter_linear(const void*, void*, std::size_t, int, Comm&, int);
int scatter_binomial(const void*, void*, std::size_t, int, Comm&, int);
int scatterv_linear(const void*, const std::size_t*, const std::size_t*, void*, std::size_t, int, Comm&, int);
int allgather_linear(void*, std::size_t, Comm&, int);
int allgather_ring(void*, std::size_t, Comm&, int);
int allgather_recursive_doubling(void*, std::size_t, Comm&, int);
int allgather_bruck(void*, std::size_t, Comm&, int);
int allgatherv_linear(void*, const std::size_t*, const std::size_t*, Comm&, int);
int allgatherv_ring(void*, const std::size_t*, const std::size_t*, Comm&, int);

}  // namespace coll
}  // namespace tilempi::mpi
