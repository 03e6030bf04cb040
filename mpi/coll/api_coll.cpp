// MPI_ collective entry points: argument checks (with the MPI error class a user expects), then
// the typed buffers become packed bytes (in place for contiguous datatypes) and the selected
// algorithm runs.
#include <cstring>
#include <functional>
#include <numeric>
#include <string>
#include <vector>

#include "check.h"
#include "coll/coll.h"
#include "coll/intercomm.h"
#include "coll/op.h"
#include "errors.h"
#include "holds.h"
#include "p2p.h"

using namespace tilempi::mpi;
using coll::Bytes;
using coll::Collective;

namespace {

/// Packed view of count elements of t at buf: buf itself for a contiguous type.
const void* in_view(const void* buf, std::size_t count, const Datatype& t, Bytes& tmp) {
  if (t.contiguous || count == 0) return buf;
  tmp.resize(count * t.size);
  pack(buf, count, t, tmp.data());
  return tmp.data();
}
/// Where the algorithm writes count packed elements destined for buf.
void* out_view(void* buf, std::size_t count, const Datatype& t, Bytes& tmp) {
  if (t.contiguous) return buf;
  tmp.resize(count * t.size);
  return tmp.data();
}
void out_finish(void* buf, std::size_t count, const Datatype& t, const Bytes& tmp) {
  if (!t.contiguous && count > 0) unpack(tmp.data(), count * t.size, count, t, buf);
}
/// A fresh packed copy of count elements at buf (for MPI_IN_PLACE, where input and output share buf).
Bytes packed_copy(const void* buf, std::size_t count, const Datatype& t) {
  Bytes b(count * t.size);
  if (count == 0) return b;
  if (t.contiguous) std::memcpy(b.data(), buf, b.size());
  else pack(buf, count, t, b.data());
  return b;
}

std::size_t uz(int v) { return static_cast<std::size_t>(v); }

struct Guard {
  const char* fn;
  int rc = MPI_SUCCESS;
};

bool root_ok(const Comm& c, int root, const char* fn, int* rc) {
  if (root >= 0 && root < c.size) return true;
  *rc = raise(c.handle, MPI_ERR_ROOT, fn, "root " + std::to_string(root) + " is not a rank of the communicator (size " + std::to_string(c.size) + ")");
  return false;
}

bool op_ok(const Comm& c, MPI_Op op, MPI_Datatype t, const char* fn, int* rc) {
  std::string why;
  int e = coll::op_check(op, t, &why);
  if (e == MPI_SUCCESS) return true;
  *rc = raise(c.handle, e, fn, why);
  return false;
}

bool array_ok(const Comm& c, const void* a, const char* what, const char* fn, int* rc) {
  if (a) return true;
  *rc = raise(c.handle, MPI_ERR_ARG, fn, std::string(what) + " is NULL");
  return false;
}

bool counts_ok(const Comm& c, const int* counts, const char* fn, int* rc) {
  for (int i = 0; i < c.size; ++i)
    if (counts[i] < 0) {
      *rc = raise(c.handle, MPI_ERR_COUNT, fn, "count[" + std::to_string(i) + "] = " + std::to_string(counts[i]) + " is negative");
      return false;
    }
  return true;
}

bool not_in_place(const Comm& c, const void* buf, const char* what, const char* fn, int* rc) {
  if (buf != MPI_IN_PLACE) return true;
  *rc = raise(c.handle, MPI_ERR_BUFFER, fn, std::string("MPI_IN_PLACE is not allowed as ") + what);
  return false;
}

bool buf_ok(const Comm& c, const void* buf, std::size_t count, const Datatype& t, const char* fn, int* rc) {
  if (buf || count == 0 || check::bottom_ok(t)) return true;
  *rc = raise(c.handle, MPI_ERR_BUFFER, fn, check::null_buffer_why(count));
  return false;
}

/// A (buffer, count, datatype) argument triple: count >= 0, a committed type, and a buffer that
/// may be NULL only when it holds nothing. Returns the type, or nullptr with *rc set.
const Datatype* typed_buffer(const Comm& c, const void* buf, int count, MPI_Datatype type, const char* fn, int* rc) {
  const Datatype* t = nullptr;
  if (!check::count(c, count, fn, rc) || !(t = check::type(c, type, fn, rc)) || !buf_ok(c, buf, uz(count), *t, fn, rc))
    return nullptr;
  return t;
}

bool same_size(const Comm& c, std::size_t sbytes, std::size_t rbytes, const char* fn, int* rc) {
  if (sbytes == rbytes) return true;
  *rc = raise(c.handle, MPI_ERR_TRUNCATE, fn,
              "send block is " + std::to_string(sbytes) + " bytes but receive block is " + std::to_string(rbytes) + " bytes");
  return false;
}

int finish(Comm& c, int rc, const char* fn) {
  if (rc == MPI_SUCCESS) return rc;
  std::string why = coll::take_failure_note();
  if (why.empty())
    why = rc == MPI_ERR_OTHER ? "the call failed at another member of the communicator, which told this rank so; "
                                "this rank's part of it was abandoned"
                              : "communication failed inside the collective";
  return raise(c.handle, rc, fn, why);
}

/// The algorithm that runs for this call (coll::choose: the user's choice or the default, then
/// the fallbacks of the restrictions the call breaks). Under TILEMPI_COLL_FALLBACK=error a broken
/// restriction of the user's choice is an error of the call, under the communicator's handler.
template <class F>
int pick(Collective k, Comm& c, const coll::Call& call, const char* fn, F* f, int* param) {
  coll::Selected s;
  std::string why;
  if (int e = coll::choose(k, c, call, &s, &why)) return raise(c.handle, e, fn, why);
  *f = coll::as<F>(s.algorithm->fn);
  *param = s.param;
  return MPI_SUCCESS;
}

/// A call on an intercommunicator: the algorithm coll::choose() selects among the registry's
/// intercommunicator entries (Algorithm::intercomm) runs with the call's arguments as the user
/// gave them, and checks them itself.
template <class F, class... A>
int intercomm_call(Collective k, Comm& c, const char* fn, A... args) {
  int p = 0;
  F f = nullptr;
  if (int e = pick(k, c, coll::Call{}, fn, &f, &p)) return e;
  return f(fn, args..., c);
}

/// Byte counts and displacements of a v-collective's buffer, in packed form. For a contiguous
/// datatype they address the user's buffer directly; otherwise a packed scratch buffer.
struct VLayout {
  std::vector<std::size_t> counts, displs;
  std::size_t total = 0;
};
VLayout vlayout(const int* counts, const int* displs, int n, const Datatype& t) {
  VLayout v;
  v.counts.resize(uz(n));
  v.displs.resize(uz(n));
  for (int i = 0; i < n; ++i) {
    v.counts[uz(i)] = uz(counts[i]) * t.size;
    if (t.contiguous) {
      v.displs[uz(i)] = static_cast<std::size_t>(static_cast<MPI_Aint>(displs[i]) * t.extent);
      v.total = std::max(v.total, v.displs[uz(i)] + v.counts[uz(i)]);
    } else {
      v.displs[uz(i)] = v.total;
      v.total += v.counts[uz(i)];
    }
  }
  return v;
}
void vpack(const void* buf, const int* counts, const int* displs, int n, const Datatype& t, unsigned char* dst) {
  std::size_t off = 0;
  for (int i = 0; i < n; ++i) {
    if (counts[i] > 0) pack(coll::at(buf, static_cast<std::size_t>(displs[i] * t.extent)), uz(counts[i]), t, dst + off);
    off += uz(counts[i]) * t.size;
  }
}
void vunpack(const unsigned char* src, const int* counts, const int* displs, int n, const Datatype& t, void* buf) {
  std::size_t off = 0;
  for (int i = 0; i < n; ++i) {
    if (counts[i] > 0) unpack(src + off, uz(counts[i]) * t.size, uz(counts[i]), t, coll::at(buf, static_cast<std::size_t>(displs[i] * t.extent)));
    off += uz(counts[i]) * t.size;
  }
}


/// One collective call in a tag range of its own, and when it fails here, the drain of what the
/// other members send this rank for it (coll/call_sequence.cpp says why).
template <class F>
int sequenced(MPI_Comm comm, F&& call) {
  coll::CallSequence sequence(comm);
  const int rc = call();
  if (rc != MPI_SUCCESS) sequence.failed();
  return rc;
}

/// MPI_Ixxx: the communicator and the request pointer are checked here, everything else by the
/// blocking collective's code, which runs as the coroutine (with the MPI_Ixxx name in messages)
/// in the call's tag range (nbc_start).
///
/// The call holds its communicator, datatypes and op until its code ends (holds.h): the user may
/// free them before the call completes.
int start_nonblocking(const char* fn, MPI_Comm comm, MPI_Request* request, const std::vector<MPI_Datatype>& types,
                      MPI_Op op, std::function<int()> body) {
  int rc = MPI_SUCCESS;
  Comm* c = check::comm(comm, fn, &rc);
  if (!c) return rc;
  if (!request) return raise(comm, MPI_ERR_ARG, fn, "request is NULL");
  return nbc_start(*c, [comm, holds = Holds(comm, types, op), body = std::move(body)] { return sequenced(comm, body); },
                   request);
}
int start_nonblocking(const char* fn, MPI_Comm comm, MPI_Request* request, const std::vector<MPI_Datatype>& types,
                      std::function<int()> body) {
  return start_nonblocking(fn, comm, request, types, MPI_OP_NULL, std::move(body));
}

}  // namespace

extern "C" {

static int barrier_call(const char* fn, MPI_Comm comm) {
  int rc = MPI_SUCCESS;
  Comm* c = check::comm(comm, fn, &rc);
  if (!c) return rc;
  if (c->inter) return intercomm_call<coll::InterBarrierFn>(Collective::Barrier, *c, fn);
  if (c->size == 1) return MPI_SUCCESS;
  int p = 0;
  coll::BarrierFn f = nullptr;
  if (int e = pick(Collective::Barrier, *c, coll::Call{}, fn, &f, &p)) return e;
  return finish(*c, f(*c, p), fn);
}

static int bcast_call(const char* fn, void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm) {
  int rc = MPI_SUCCESS;
  Comm* c = check::comm(comm, fn, &rc);
  if (!c) return rc;
  if (c->inter) return intercomm_call<coll::InterBcastFn>(Collective::Bcast, *c, fn, buffer, count, datatype, root);
  if (!check::count(*c, count, fn, &rc)) return rc;
  const Datatype* t = check::type(*c, datatype, fn, &rc);
  if (!t || !root_ok(*c, root, fn, &rc) || !not_in_place(*c, buffer, "the buffer", fn, &rc) ||
      !buf_ok(*c, buffer, uz(count), *t, fn, &rc))
    return rc;
  const std::size_t bytes = uz(count) * t->size;
  if (c->size == 1 || bytes == 0) return MPI_SUCCESS;
  int p = 0;
  coll::BcastFn f = nullptr;
  if (int e = pick(Collective::Bcast, *c, coll::Call{}, fn, &f, &p)) return e;
  if (t->contiguous) return finish(*c, f(buffer, bytes, root, *c, p), fn);
  Bytes tmp(bytes);
  if (c->rank == root) pack(buffer, uz(count), *t, tmp.data());
  rc = f(tmp.data(), bytes, root, *c, p);
  if (rc == MPI_SUCCESS && c->rank != root) unpack(tmp.data(), bytes, uz(count), *t, buffer);
  return finish(*c, rc, fn);
}

static int reduce_call(const char* fn, const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root,
               MPI_Comm comm) {
  int rc = MPI_SUCCESS;
  Comm* c = check::comm(comm, fn, &rc);
  if (!c) return rc;
  if (c->inter) return intercomm_call<coll::InterReduceFn>(Collective::Reduce, *c, fn, sendbuf, recvbuf, count, datatype, op, root);
  if (!check::count(*c, count, fn, &rc)) return rc;
  const Datatype* t = check::type(*c, datatype, fn, &rc);
  if (!t || !root_ok(*c, root, fn, &rc) || !op_ok(*c, op, datatype, fn, &rc)) return rc;
  const bool is_root = c->rank == root;
  const bool in_place = sendbuf == MPI_IN_PLACE;
  if (in_place && !is_root) {
    return raise(c->handle, MPI_ERR_BUFFER, fn, "MPI_IN_PLACE as sendbuf is allowed only at the root");
  }
  if (is_root && !not_in_place(*c, recvbuf, "recvbuf", fn, &rc)) return rc;
  if (!in_place && !buf_ok(*c, sendbuf, uz(count), *t, fn, &rc)) return rc;
  if (is_root && !buf_ok(*c, recvbuf, uz(count), *t, fn, &rc)) return rc;
  const std::size_t n = uz(count);
  if (n == 0 || t->size == 0) return MPI_SUCCESS;
  coll::Reducer red(op, datatype);
  Bytes in_tmp, out_tmp;
  const void* in = in_place ? (in_tmp = packed_copy(recvbuf, n, *t), in_tmp.data()) : in_view(sendbuf, n, *t, in_tmp);
  if (c->size == 1) {
    if (!in_place) copy_typed(sendbuf, n, *t, recvbuf, n, *t);
    return MPI_SUCCESS;
  }
  void* out = is_root ? out_view(recvbuf, n, *t, out_tmp) : nullptr;
  int p = 0;
  coll::ReduceFn f = nullptr;
  if (int e = pick(Collective::Reduce, *c, coll::Call::reduction(red, n), fn, &f, &p)) return e;
  rc = f(in, out, n, red, root, *c, p);
  if (rc == MPI_SUCCESS && is_root) out_finish(recvbuf, n, *t, out_tmp);
  return finish(*c, rc, fn);
}

static int allreduce_call(const char* fn, const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  int rc = MPI_SUCCESS;
  Comm* c = check::comm(comm, fn, &rc);
  if (!c) return rc;
  if (c->inter) return intercomm_call<coll::InterAllreduceFn>(Collective::Allreduce, *c, fn, sendbuf, recvbuf, count, datatype, op);
  if (!check::count(*c, count, fn, &rc)) return rc;
  const Datatype* t = check::type(*c, datatype, fn, &rc);
  if (!t || !op_ok(*c, op, datatype, fn, &rc) || !not_in_place(*c, recvbuf, "recvbuf", fn, &rc)) return rc;
  const bool in_place = sendbuf == MPI_IN_PLACE;
  const std::size_t n = uz(count);
  if ((!in_place && !buf_ok(*c, sendbuf, n, *t, fn, &rc)) || !buf_ok(*c, recvbuf, n, *t, fn, &rc)) return rc;
  if (n == 0 || t->size == 0) return MPI_SUCCESS;
  if (c->size == 1) {
    if (!in_place) copy_typed(sendbuf, n, *t, recvbuf, n, *t);
    return MPI_SUCCESS;
  }
  coll::Reducer red(op, datatype);
  Bytes in_tmp, out_tmp;
  const void* in = in_place ? (in_tmp = packed_copy(recvbuf, n, *t), in_tmp.data()) : in_view(sendbuf, n, *t, in_tmp);
  void* out = out_view(recvbuf, n, *t, out_tmp);
  int p = 0;
  coll::AllreduceFn f = nullptr;
  if (int e = pick(Collective::Allreduce, *c, coll::Call::reduction(red, n), fn, &f, &p)) return e;
  rc = f(in, out, n, red, *c, p);
  if (rc == MPI_SUCCESS) out_finish(recvbuf, n, *t, out_tmp);
  return finish(*c, rc, fn);
}

static int alltoall_call(const char* fn, const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                 MPI_Datatype recvtype, MPI_Comm comm) {
  int rc = MPI_SUCCESS;
  Comm* c = check::comm(comm, fn, &rc);
  if (!c) return rc;
  if (c->inter) return intercomm_call<coll::InterAllgatherFn>(Collective::Alltoall, *c, fn, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype);
  const bool in_place = sendbuf == MPI_IN_PLACE;
  if (!check::count(*c, recvcount, fn, &rc)) return rc;
  const Datatype* rt = check::type(*c, recvtype, fn, &rc);
  if (!rt || !not_in_place(*c, recvbuf, "recvbuf", fn, &rc)) return rc;
  const std::size_t n = uz(c->size);
  const std::size_t rblock = uz(recvcount) * rt->size;
  std::size_t sblock = rblock;
  const Datatype* st = rt;
  if (!in_place) {
    if (!check::count(*c, sendcount, fn, &rc)) return rc;
    st = check::type(*c, sendtype, fn, &rc);
    if (!st) return rc;
    sblock = uz(sendcount) * st->size;
    if (!buf_ok(*c, sendbuf, uz(sendcount), *st, fn, &rc)) return rc;
  }
  if (!buf_ok(*c, recvbuf, uz(recvcount), *rt, fn, &rc) || !same_size(*c, sblock, rblock, fn, &rc)) return rc;
  if (rblock == 0) return MPI_SUCCESS;
  Bytes in_tmp, out_tmp;
  const void* in = in_place ? (in_tmp = packed_copy(recvbuf, n * uz(recvcount), *rt), in_tmp.data())
                            : in_view(sendbuf, n * uz(sendcount), *st, in_tmp);
  void* out = out_view(recvbuf, n * uz(recvcount), *rt, out_tmp);
  if (c->size == 1) {
    std::memmove(out, in, rblock);
  } else {
    int p = 0;
    coll::AlltoallFn f = nullptr;
    if (int e = pick(Collective::Alltoall, *c, coll::Call::of_block(rblock), fn, &f, &p)) return e;
    rc = f(in, out, rblock, *c, p);
  }
  if (rc == MPI_SUCCESS) out_finish(recvbuf, n * uz(recvcount), *rt, out_tmp);
  return finish(*c, rc, fn);
}

static int alltoallv_call(const char* fn, const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                  void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm) {
  int rc = MPI_SUCCESS;
  Comm* c = check::comm(comm, fn, &rc);
  if (!c) return rc;
  if (c->inter) return intercomm_call<coll::InterAlltoallvFn>(Collective::Alltoallv, *c, fn, sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype);
  const bool in_place = sendbuf == MPI_IN_PLACE;
  if (!array_ok(*c, recvcounts, "recvcounts", fn, &rc) || !array_ok(*c, rdispls, "rdispls", fn, &rc) ||
      !counts_ok(*c, recvcounts, fn, &rc))
    return rc;
  const Datatype* rt = check::type(*c, recvtype, fn, &rc);
  if (!rt || !not_in_place(*c, recvbuf, "recvbuf", fn, &rc)) return rc;
  const Datatype* st = rt;
  if (!in_place) {
    if (!array_ok(*c, sendcounts, "sendcounts", fn, &rc) || !array_ok(*c, sdispls, "sdispls", fn, &rc) ||
        !counts_ok(*c, sendcounts, fn, &rc))
      return rc;
    st = check::type(*c, sendtype, fn, &rc);
    if (!st) return rc;
  } else {
    sendcounts = recvcounts;
    sdispls = rdispls;
  }
  const int n = c->size;
  VLayout sl = vlayout(sendcounts, sdispls, n, *st), rl = vlayout(recvcounts, rdispls, n, *rt);
  if ((!in_place && sl.total > 0 && !sendbuf && !check::bottom_ok(*st)) || (rl.total > 0 && !recvbuf && !check::bottom_ok(*rt)))
    return raise(c->handle, MPI_ERR_BUFFER, fn, "buffer is NULL but counts are not zero");
  if (!same_size(*c, sl.counts[uz(c->rank)], rl.counts[uz(c->rank)], fn, &rc)) return rc;
  Bytes in_tmp, out_tmp;
  const void* in = sendbuf;
  if (in_place) {
    // The send data is the receive buffer's old content: take a packed copy first.
    VLayout pl = vlayout(recvcounts, rdispls, n, *rt);
    in_tmp.resize(pl.total);
    if (rt->contiguous) {
      if (pl.total) std::memcpy(in_tmp.data(), recvbuf, pl.total);
    } else {
      vpack(recvbuf, recvcounts, rdispls, n, *rt, in_tmp.data());
    }
    in = in_tmp.data();
  } else if (!st->contiguous) {
    in_tmp.resize(sl.total);
    vpack(sendbuf, sendcounts, sdispls, n, *st, in_tmp.data());
    in = in_tmp.data();
  }
  void* out = recvbuf;
  if (!rt->contiguous) {
    out_tmp.resize(rl.total);
    out = out_tmp.data();
  }
  if (n == 1) {
    if (rl.counts[0]) std::memmove(coll::at(out, rl.displs[0]), coll::at(in, sl.displs[0]), rl.counts[0]);
  } else {
    int p = 0;
    coll::AlltoallvFn f = nullptr;
    if (int e = pick(Collective::Alltoallv, *c, coll::Call{}, fn, &f, &p)) return e;
    rc = f(in, sl.counts.data(), sl.displs.data(), out, rl.counts.data(), rl.displs.data(), *c, p);
  }
  if (rc == MPI_SUCCESS && !rt->contiguous) vunpack(out_tmp.data(), recvcounts, rdispls, n, *rt, recvbuf);
  return finish(*c, rc, fn);
}

static int gather_call(const char* fn, const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
               MPI_Datatype recvtype, int root, MPI_Comm comm) {
  int rc = MPI_SUCCESS;
  Comm* c = check::comm(comm, fn, &rc);
  if (!c) return rc;
  if (c->inter) return intercomm_call<coll::InterGatherFn>(Collective::Gather, *c, fn, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root);
  if (!root_ok(*c, root, fn, &rc)) return rc;
  const bool is_root = c->rank == root, in_place = sendbuf == MPI_IN_PLACE;
  if (in_place && !is_root) return raise(c->handle, MPI_ERR_BUFFER, fn, "MPI_IN_PLACE as sendbuf is allowed only at the root");
  const Datatype* st = nullptr;
  const Datatype* rt = nullptr;
  if (!in_place) {
    if (!(st = typed_buffer(*c, sendbuf, sendcount, sendtype, fn, &rc))) return rc;
  }
  if (is_root) {
    if (!not_in_place(*c, recvbuf, "recvbuf", fn, &rc) ||
        !(rt = typed_buffer(*c, recvbuf, recvcount, recvtype, fn, &rc)))
      return rc;
  }
  const std::size_t block = is_root ? uz(recvcount) * rt->size : uz(sendcount) * st->size;
  if (is_root && !in_place && !same_size(*c, uz(sendcount) * st->size, block, fn, &rc)) return rc;
  const std::size_t n = uz(c->size);
  Bytes in_tmp, out_tmp;
  void* out = nullptr;
  const void* in = nullptr;
  if (is_root) {
    out = out_view(recvbuf, n * uz(recvcount), *rt, out_tmp);
    if (in_place) {
      if (!rt->contiguous && block) pack(coll::at(recvbuf, uz(root) * uz(recvcount) * static_cast<std::size_t>(rt->extent)), uz(recvcount), *rt, coll::at(out, uz(root) * block));
      in = coll::at(out, uz(root) * block);
    } else {
      in = in_view(sendbuf, uz(sendcount), *st, in_tmp);
    }
  } else {
    in = in_view(sendbuf, uz(sendcount), *st, in_tmp);
  }
  if (c->size == 1) {
    if (block && in != out) std::memmove(out, in, block);
  } else if (block) {
    int p = 0;
    coll::GatherFn f = nullptr;
    if (int e = pick(Collective::Gather, *c, coll::Call{}, fn, &f, &p)) return e;
    rc = f(in, out, block, root, *c, p);
  }
  if (rc == MPI_SUCCESS && is_root) out_finish(recvbuf, n * uz(recvcount), *rt, out_tmp);
  return finish(*c, rc, fn);
}

static int gatherv_call(const char* fn, const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm) {
  int rc = MPI_SUCCESS;
  Comm* c = check::comm(comm, fn, &rc);
  if (!c) return rc;
  if (c->inter) return intercomm_call<coll::InterGathervFn>(Collective::Gatherv, *c, fn, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root);
  if (!root_ok(*c, root, fn, &rc)) return rc;
  const bool is_root = c->rank == root, in_place = sendbuf == MPI_IN_PLACE;
  if (in_place && !is_root) return raise(c->handle, MPI_ERR_BUFFER, fn, "MPI_IN_PLACE as sendbuf is allowed only at the root");
  const Datatype* st = nullptr;
  const Datatype* rt = nullptr;
  if (!in_place) {
    if (!(st = typed_buffer(*c, sendbuf, sendcount, sendtype, fn, &rc))) return rc;
  }
  VLayout rl;
  if (is_root) {
    if (!array_ok(*c, recvcounts, "recvcounts", fn, &rc) || !array_ok(*c, displs, "displs", fn, &rc) ||
        !counts_ok(*c, recvcounts, fn, &rc) || !(rt = check::type(*c, recvtype, fn, &rc)) ||
        !not_in_place(*c, recvbuf, "recvbuf", fn, &rc))
      return rc;
    rl = vlayout(recvcounts, displs, c->size, *rt);
    if (rl.total > 0 && !recvbuf && !check::bottom_ok(*rt))
      return raise(c->handle, MPI_ERR_BUFFER, fn, "recvbuf is NULL but counts are not zero");
    if (!in_place && !same_size(*c, uz(sendcount) * st->size, rl.counts[uz(root)], fn, &rc)) return rc;
  }
  Bytes in_tmp, out_tmp;
  void* out = nullptr;
  const void* in = nullptr;
  std::size_t sbytes = in_place ? rl.counts[uz(root)] : uz(sendcount) * st->size;
  if (is_root) {
    out = recvbuf;
    if (!rt->contiguous) {
      out_tmp.resize(rl.total);
      out = out_tmp.data();
    }
    if (in_place) {
      if (!rt->contiguous && recvcounts[root] > 0)
        pack(coll::at(recvbuf, static_cast<std::size_t>(displs[root] * rt->extent)), uz(recvcounts[root]), *rt, coll::at(out, rl.displs[uz(root)]));
      in = coll::at(out, rl.displs[uz(root)]);
    } else {
      in = in_view(sendbuf, uz(sendcount), *st, in_tmp);
    }
  } else {
    in = in_view(sendbuf, uz(sendcount), *st, in_tmp);
  }
  if (c->size == 1) {
    if (sbytes && in != coll::at(out, rl.displs[0])) std::memmove(coll::at(out, rl.displs[0]), in, sbytes);
  } else {
    int p = 0;
    coll::GathervFn f = nullptr;
    if (int e = pick(Collective::Gatherv, *c, coll::Call{}, fn, &f, &p)) return e;
    rc = f(in, sbytes, out, is_root ? rl.counts.data() : nullptr, is_root ? rl.displs.data() : nullptr, root, *c, p);
  }
  if (rc == MPI_SUCCESS && is_root && !rt->contiguous) vunpack(out_tmp.data(), recvcounts, displs, c->size, *rt, recvbuf);
  return finish(*c, rc, fn);
}

static int scatter_call(const char* fn, const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                MPI_Datatype recvtype, int root, MPI_Comm comm) {
  int rc = MPI_SUCCESS;
  Comm* c = check::comm(comm, fn, &rc);
  if (!c) return rc;
  if (c->inter) return intercomm_call<coll::InterGatherFn>(Collective::Scatter, *c, fn, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root);
  if (!root_ok(*c, root, fn, &rc)) return rc;
  const bool is_root = c->rank == root, in_place = recvbuf == MPI_IN_PLACE;
  if (in_place && !is_root) return raise(c->handle, MPI_ERR_BUFFER, fn, "MPI_IN_PLACE as recvbuf is allowed only at the root");
  const Datatype* st = nullptr;
  const Datatype* rt = nullptr;
  if (!in_place) {
    if (!(rt = typed_buffer(*c, recvbuf, recvcount, recvtype, fn, &rc))) return rc;
  }
  if (is_root) {
    if (!not_in_place(*c, sendbuf, "sendbuf", fn, &rc) ||
        !(st = typed_buffer(*c, sendbuf, sendcount, sendtype, fn, &rc)))
      return rc;
  }
  const std::size_t block = is_root ? uz(sendcount) * st->size : uz(recvcount) * rt->size;
  if (is_root && !in_place && !same_size(*c, block, uz(recvcount) * rt->size, fn, &rc)) return rc;
  const std::size_t n = uz(c->size);
  Bytes in_tmp, out_tmp;
  const void* in = is_root ? in_view(sendbuf, n * uz(sendcount), *st, in_tmp) : nullptr;
  void* out = in_place ? const_cast<void*>(static_cast<const void*>(coll::at(in, uz(root) * block)))
                       : out_view(recvbuf, uz(recvcount), *rt, out_tmp);
  if (c->size == 1) {
    if (block && in != out) std::memmove(out, in, block);
  } else if (block) {
    int p = 0;
    coll::ScatterFn f = nullptr;
    if (int e = pick(Collective::Scatter, *c, coll::Call{}, fn, &f, &p)) return e;
    rc = f(in, out, block, root, *c, p);
  }
  if (rc == MPI_SUCCESS && !in_place) out_finish(recvbuf, uz(recvcount), *rt, out_tmp);
  return finish(*c, rc, fn);
}

static int scatterv_call(const char* fn, const void* sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype, void* recvbuf,
                 int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
  int rc = MPI_SUCCESS;
  Comm* c = check::comm(comm, fn, &rc);
  if (!c) return rc;
  if (c->inter) return intercomm_call<coll::InterScattervFn>(Collective::Scatterv, *c, fn, sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root);
  if (!root_ok(*c, root, fn, &rc)) return rc;
  const bool is_root = c->rank == root, in_place = recvbuf == MPI_IN_PLACE;
  if (in_place && !is_root) return raise(c->handle, MPI_ERR_BUFFER, fn, "MPI_IN_PLACE as recvbuf is allowed only at the root");
  const Datatype* st = nullptr;
  const Datatype* rt = nullptr;
  if (!in_place) {
    if (!(rt = typed_buffer(*c, recvbuf, recvcount, recvtype, fn, &rc))) return rc;
  }
  VLayout sl;
  if (is_root) {
    if (!array_ok(*c, sendcounts, "sendcounts", fn, &rc) || !array_ok(*c, displs, "displs", fn, &rc) ||
        !counts_ok(*c, sendcounts, fn, &rc) || !(st = check::type(*c, sendtype, fn, &rc)) ||
        !not_in_place(*c, sendbuf, "sendbuf", fn, &rc))
      return rc;
    sl = vlayout(sendcounts, displs, c->size, *st);
    if (sl.total > 0 && !sendbuf && !check::bottom_ok(*st))
      return raise(c->handle, MPI_ERR_BUFFER, fn, "sendbuf is NULL but counts are not zero");
    if (!in_place && !same_size(*c, sl.counts[uz(root)], uz(recvcount) * rt->size, fn, &rc)) return rc;
  }
  Bytes in_tmp, out_tmp;
  const void* in = nullptr;
  if (is_root) {
    in = sendbuf;
    if (!st->contiguous) {
      in_tmp.resize(sl.total);
      vpack(sendbuf, sendcounts, displs, c->size, *st, in_tmp.data());
      in = in_tmp.data();
    }
  }
  const std::size_t rbytes = in_place ? sl.counts[uz(root)] : uz(recvcount) * rt->size;
  void* out = in_place ? const_cast<void*>(static_cast<const void*>(coll::at(in, sl.displs[uz(root)])))
                       : out_view(recvbuf, uz(recvcount), *rt, out_tmp);
  if (c->size == 1) {
    if (rbytes && coll::at(in, sl.displs[0]) != out) std::memmove(out, coll::at(in, sl.displs[0]), rbytes);
  } else {
    int p = 0;
    coll::ScattervFn f = nullptr;
    if (int e = pick(Collective::Scatterv, *c, coll::Call{}, fn, &f, &p)) return e;
    rc = f(in, is_root ? sl.counts.data() : nullptr, is_root ? sl.displs.data() : nullptr, out, rbytes, root, *c, p);
  }
  if (rc == MPI_SUCCESS && !in_place) out_finish(recvbuf, uz(recvcount), *rt, out_tmp);
  return finish(*c, rc, fn);
}

static int allgather_call(const char* fn, const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                  MPI_Datatype recvtype, MPI_Comm comm) {
  int rc = MPI_SUCCESS;
  Comm* c = check::comm(comm, fn, &rc);
  if (!c) return rc;
  if (c->inter) return intercomm_call<coll::InterAllgatherFn>(Collective::Allgather, *c, fn, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype);
  const bool in_place = sendbuf == MPI_IN_PLACE;
  const Datatype* rt = nullptr;
  const Datatype* st = nullptr;
  if (!not_in_place(*c, recvbuf, "recvbuf", fn, &rc) ||
        !(rt = typed_buffer(*c, recvbuf, recvcount, recvtype, fn, &rc)))
      return rc;
  const std::size_t block = uz(recvcount) * rt->size, n = uz(c->size), me = uz(c->rank);
  if (!in_place) {
    if (!(st = typed_buffer(*c, sendbuf, sendcount, sendtype, fn, &rc)) ||
        !same_size(*c, uz(sendcount) * st->size, block, fn, &rc))
      return rc;
  }
  if (block == 0) return MPI_SUCCESS;
  Bytes out_tmp;
  void* out = out_view(recvbuf, n * uz(recvcount), *rt, out_tmp);
  if (in_place) {
    if (!rt->contiguous) pack(coll::at(recvbuf, me * uz(recvcount) * static_cast<std::size_t>(rt->extent)), uz(recvcount), *rt, coll::at(out, me * block));
  } else if (st->contiguous) {
    std::memmove(coll::at(out, me * block), sendbuf, block);
  } else {
    pack(sendbuf, uz(sendcount), *st, coll::at(out, me * block));
  }
  if (c->size > 1) {
    int p = 0;
    coll::AllgatherFn f = nullptr;
    if (int e = pick(Collective::Allgather, *c, coll::Call{}, fn, &f, &p)) return e;
    rc = f(out, block, *c, p);
  }
  if (rc == MPI_SUCCESS) out_finish(recvbuf, n * uz(recvcount), *rt, out_tmp);
  return finish(*c, rc, fn);
}

static int allgatherv_call(const char* fn, const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                   const int displs[], MPI_Datatype recvtype, MPI_Comm comm) {
  int rc = MPI_SUCCESS;
  Comm* c = check::comm(comm, fn, &rc);
  if (!c) return rc;
  if (c->inter) return intercomm_call<coll::InterAllgathervFn>(Collective::Allgatherv, *c, fn, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype);
  const bool in_place = sendbuf == MPI_IN_PLACE;
  const Datatype* rt = nullptr;
  const Datatype* st = nullptr;
  if (!array_ok(*c, recvcounts, "recvcounts", fn, &rc) || !array_ok(*c, displs, "displs", fn, &rc) ||
      !counts_ok(*c, recvcounts, fn, &rc) || !(rt = check::type(*c, recvtype, fn, &rc)) ||
      !not_in_place(*c, recvbuf, "recvbuf", fn, &rc))
    return rc;
  const int me = c->rank;
  VLayout rl = vlayout(recvcounts, displs, c->size, *rt);
  if (rl.total > 0 && !recvbuf && !check::bottom_ok(*rt))
    return raise(c->handle, MPI_ERR_BUFFER, fn, "recvbuf is NULL but counts are not zero");
  if (!in_place) {
    if (!(st = typed_buffer(*c, sendbuf, sendcount, sendtype, fn, &rc)) ||
        !same_size(*c, uz(sendcount) * st->size, rl.counts[uz(me)], fn, &rc))
      return rc;
  }
  Bytes out_tmp;
  void* out = recvbuf;
  if (!rt->contiguous) {
    out_tmp.resize(rl.total);
    out = out_tmp.data();
    if (in_place && recvcounts[me] > 0)
      pack(coll::at(recvbuf, static_cast<std::size_t>(displs[me] * rt->extent)), uz(recvcounts[me]), *rt, coll::at(out, rl.displs[uz(me)]));
  }
  if (!in_place && rl.counts[uz(me)] > 0) {
    if (st->contiguous) std::memmove(coll::at(out, rl.displs[uz(me)]), sendbuf, rl.counts[uz(me)]);
    else pack(sendbuf, uz(sendcount), *st, coll::at(out, rl.displs[uz(me)]));
  }
  if (c->size > 1) {
    int p = 0;
    coll::AllgathervFn f = nullptr;
    if (int e = pick(Collective::Allgatherv, *c, coll::Call{}, fn, &f, &p)) return e;
    rc = f(out, rl.counts.data(), rl.displs.data(), *c, p);
  }
  if (rc == MPI_SUCCESS && !rt->contiguous) vunpack(out_tmp.data(), recvcounts, displs, c->size, *rt, recvbuf);
  return finish(*c, rc, fn);
}

static int reduce_scatter_common(const char* fn, Collective kind, const void* sendbuf, void* recvbuf, const int* recvcounts,
                                 int block_count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  int rc = MPI_SUCCESS;
  Comm* c = check::comm(comm, fn, &rc);
  if (!c) return rc;
  if (c->inter) {
    if (kind != Collective::ReduceScatterBlock)
      return intercomm_call<coll::InterReduceScatterFn>(kind, *c, fn, sendbuf, recvbuf, recvcounts, datatype, op);
    if (!check::count(*c, block_count, fn, &rc)) return rc;
    const std::vector<int> block(uz(c->size), block_count);
    return intercomm_call<coll::InterReduceScatterFn>(kind, *c, fn, sendbuf, recvbuf, block.data(), datatype, op);
  }
  std::vector<int> counts;
  if (kind == Collective::ReduceScatterBlock) {
    if (!check::count(*c, block_count, fn, &rc)) return rc;
    counts.assign(uz(c->size), block_count);
  } else {
    if (!array_ok(*c, recvcounts, "recvcounts", fn, &rc) || !counts_ok(*c, recvcounts, fn, &rc)) return rc;
    counts.assign(recvcounts, recvcounts + c->size);
  }
  const Datatype* t = check::type(*c, datatype, fn, &rc);
  if (!t || !op_ok(*c, op, datatype, fn, &rc) || !not_in_place(*c, recvbuf, "recvbuf", fn, &rc)) return rc;
  const bool in_place = sendbuf == MPI_IN_PLACE;
  std::size_t total = 0;
  for (int v : counts) total += uz(v);
  const std::size_t mine = uz(counts[uz(c->rank)]);
  if ((!in_place && !buf_ok(*c, sendbuf, total, *t, fn, &rc)) ||
      !buf_ok(*c, recvbuf, in_place ? total : mine, *t, fn, &rc))
    return rc;
  if (total == 0 || t->size == 0) return MPI_SUCCESS;
  coll::Reducer red(op, datatype);
  Bytes in_tmp, out_tmp;
  const void* in = in_place ? (in_tmp = packed_copy(recvbuf, total, *t), in_tmp.data()) : in_view(sendbuf, total, *t, in_tmp);
  void* out = out_view(recvbuf, mine, *t, out_tmp);
  std::vector<std::size_t> ucounts(counts.begin(), counts.end());
  if (c->size == 1) {
    if (mine) std::memmove(out, in, mine * t->size);
  } else {
    int p = 0;
    coll::ReduceScatterFn f = nullptr;
    if (int e = pick(kind, *c, coll::Call::reduction(red, total), fn, &f, &p)) return e;
    rc = f(in, out, ucounts.data(), red, *c, p);
  }
  if (rc == MPI_SUCCESS) out_finish(recvbuf, mine, *t, out_tmp);
  return finish(*c, rc, fn);
}

static int scan_common(const char* fn, Collective kind, const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype,
                       MPI_Op op, MPI_Comm comm) {
  int rc = MPI_SUCCESS;
  Comm* c = check::comm(comm, fn, &rc);
  if (!c) return rc;
  if (c->inter) return raise(comm, MPI_ERR_COMM, fn, "scans are defined on intracommunicators only (MPI-3.1 §5.11)");
  if (!check::count(*c, count, fn, &rc)) return rc;
  const Datatype* t = check::type(*c, datatype, fn, &rc);
  if (!t || !op_ok(*c, op, datatype, fn, &rc) || !not_in_place(*c, recvbuf, "recvbuf", fn, &rc)) return rc;
  const bool in_place = sendbuf == MPI_IN_PLACE;
  const std::size_t n = uz(count);
  if ((!in_place && !buf_ok(*c, sendbuf, n, *t, fn, &rc)) || !buf_ok(*c, recvbuf, n, *t, fn, &rc)) return rc;
  if (n == 0 || t->size == 0) return MPI_SUCCESS;
  Bytes in_tmp, out_tmp;
  const void* in = in_place ? (in_tmp = packed_copy(recvbuf, n, *t), in_tmp.data()) : in_view(sendbuf, n, *t, in_tmp);
  if (c->size == 1) {
    if (kind == Collective::Scan && !in_place) copy_typed(sendbuf, n, *t, recvbuf, n, *t);
    return MPI_SUCCESS;
  }
  // Exscan leaves rank 0's recvbuf untouched: the algorithm writes a scratch copy of it.
  if (kind == Collective::Exscan && c->rank == 0) {
    out_tmp = packed_copy(recvbuf, n, *t);
  }
  void* out = (kind == Collective::Exscan && c->rank == 0) ? out_tmp.data() : out_view(recvbuf, n, *t, out_tmp);
  coll::Reducer red(op, datatype);
  int p = 0;
  coll::ScanFn f = nullptr;
  if (int e = pick(kind, *c, coll::Call::reduction(red, n), fn, &f, &p)) return e;
  rc = f(in, out, n, red, *c, p);
  if (rc == MPI_SUCCESS && !(kind == Collective::Exscan && c->rank == 0)) out_finish(recvbuf, n, *t, out_tmp);
  return finish(*c, rc, fn);
}

// ---- the entry points: blocking, and non-blocking (the same code as a coroutine, nonblocking.cpp) ----

int MPI_Barrier(MPI_Comm comm) {
  ApiScope api_scope(__func__);
  const char* fn = "MPI_Barrier";
  return sequenced(comm, [&] { return barrier_call(fn, comm); });
}

int MPI_Ibarrier(MPI_Comm comm, MPI_Request* request) {
  ApiScope api_scope(__func__);
  const char* fn = "MPI_Ibarrier";
  return start_nonblocking(fn, comm, request, {}, [=] { return barrier_call(fn, comm); });
}

int MPI_Bcast(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm) {
  ApiScope api_scope(__func__);
  const char* fn = "MPI_Bcast";
  return sequenced(comm, [&] { return bcast_call(fn, buffer, count, datatype, root, comm); });
}

int MPI_Ibcast(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Request* request) {
  ApiScope api_scope(__func__);
  const char* fn = "MPI_Ibcast";
  return start_nonblocking(fn, comm, request, {datatype}, [=] { return bcast_call(fn, buffer, count, datatype, root, comm); });
}

int MPI_Reduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm) {
  ApiScope api_scope(__func__);
  const char* fn = "MPI_Reduce";
  return sequenced(comm, [&] { return reduce_call(fn, sendbuf, recvbuf, count, datatype, op, root, comm); });
}

int MPI_Ireduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm, MPI_Request* request) {
  ApiScope api_scope(__func__);
  const char* fn = "MPI_Ireduce";
  return start_nonblocking(fn, comm, request, {datatype}, op, [=] { return reduce_call(fn, sendbuf, recvbuf, count, datatype, op, root, comm); });
}

int MPI_Allreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  ApiScope api_scope(__func__);
  const char* fn = "MPI_Allreduce";
  return sequenced(comm, [&] { return allreduce_call(fn, sendbuf, recvbuf, count, datatype, op, comm); });
}

int MPI_Iallreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request* request) {
  ApiScope api_scope(__func__);
  const char* fn = "MPI_Iallreduce";
  return start_nonblocking(fn, comm, request, {datatype}, op, [=] { return allreduce_call(fn, sendbuf, recvbuf, count, datatype, op, comm); });
}

int MPI_Alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  ApiScope api_scope(__func__);
  const char* fn = "MPI_Alltoall";
  return sequenced(comm, [&] { return alltoall_call(fn, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm); });
}

int MPI_Ialltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) {
  ApiScope api_scope(__func__);
  const char* fn = "MPI_Ialltoall";
  return start_nonblocking(fn, comm, request, {sendtype, recvtype}, [=] { return alltoall_call(fn, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm); });
}

int MPI_Alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype, void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm) {
  ApiScope api_scope(__func__);
  const char* fn = "MPI_Alltoallv";
  return sequenced(comm, [&] { return alltoallv_call(fn, sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm); });
}

int MPI_Ialltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype, void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) {
  ApiScope api_scope(__func__);
  const char* fn = "MPI_Ialltoallv";
  return start_nonblocking(fn, comm, request, {sendtype, recvtype}, [=] { return alltoallv_call(fn, sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm); });
}

int MPI_Gather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
  ApiScope api_scope(__func__);
  const char* fn = "MPI_Gather";
  return sequenced(comm, [&] { return gather_call(fn, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm); });
}

int MPI_Igather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* request) {
  ApiScope api_scope(__func__);
  const char* fn = "MPI_Igather";
  return start_nonblocking(fn, comm, request, {sendtype, recvtype}, [=] { return gather_call(fn, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm); });
}

int MPI_Gatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm) {
  ApiScope api_scope(__func__);
  const char* fn = "MPI_Gatherv";
  return sequenced(comm, [&] { return gatherv_call(fn, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm); });
}

int MPI_Igatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* request) {
  ApiScope api_scope(__func__);
  const char* fn = "MPI_Igatherv";
  return start_nonblocking(fn, comm, request, {sendtype, recvtype}, [=] { return gatherv_call(fn, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm); });
}

int MPI_Scatter(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
  ApiScope api_scope(__func__);
  const char* fn = "MPI_Scatter";
  return sequenced(comm, [&] { return scatter_call(fn, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm); });
}

int MPI_Iscatter(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* request) {
  ApiScope api_scope(__func__);
  const char* fn = "MPI_Iscatter";
  return start_nonblocking(fn, comm, request, {sendtype, recvtype}, [=] { return scatter_call(fn, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm); });
}

int MPI_Scatterv(const void* sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
  ApiScope api_scope(__func__);
  const char* fn = "MPI_Scatterv";
  return sequenced(comm, [&] { return scatterv_call(fn, sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm); });
}

int MPI_Iscatterv(const void* sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* request) {
  ApiScope api_scope(__func__);
  const char* fn = "MPI_Iscatterv";
  return start_nonblocking(fn, comm, request, {sendtype, recvtype}, [=] { return scatterv_call(fn, sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm); });
}

int MPI_Allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  ApiScope api_scope(__func__);
  const char* fn = "MPI_Allgather";
  return sequenced(comm, [&] { return allgather_call(fn, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm); });
}

int MPI_Iallgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) {
  ApiScope api_scope(__func__);
  const char* fn = "MPI_Iallgather";
  return start_nonblocking(fn, comm, request, {sendtype, recvtype}, [=] { return allgather_call(fn, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm); });
}

int MPI_Allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm) {
  ApiScope api_scope(__func__);
  const char* fn = "MPI_Allgatherv";
  return sequenced(comm, [&] { return allgatherv_call(fn, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm); });
}

int MPI_Iallgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) {
  ApiScope api_scope(__func__);
  const char* fn = "MPI_Iallgatherv";
  return start_nonblocking(fn, comm, request, {sendtype, recvtype}, [=] { return allgatherv_call(fn, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm); });
}

int MPI_Reduce_scatter(const void* sendbuf, void* recvbuf, const int recvcounts[], MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  ApiScope api_scope(__func__);
  const char* fn = "MPI_Reduce_scatter";
  return sequenced(comm, [&] { return reduce_scatter_common(fn, Collective::ReduceScatter, sendbuf, recvbuf, recvcounts, 0, datatype, op, comm); });
}

int MPI_Ireduce_scatter(const void* sendbuf, void* recvbuf, const int recvcounts[], MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request* request) {
  ApiScope api_scope(__func__);
  const char* fn = "MPI_Ireduce_scatter";
  return start_nonblocking(fn, comm, request, {datatype}, op, [=] { return reduce_scatter_common(fn, Collective::ReduceScatter, sendbuf, recvbuf, recvcounts, 0, datatype, op, comm); });
}

int MPI_Reduce_scatter_block(const void* sendbuf, void* recvbuf, int recvcount, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  ApiScope api_scope(__func__);
  const char* fn = "MPI_Reduce_scatter_block";
  return sequenced(comm, [&] { return reduce_scatter_common(fn, Collective::ReduceScatterBlock, sendbuf, recvbuf, nullptr, recvcount, datatype, op, comm); });
}

int MPI_Ireduce_scatter_block(const void* sendbuf, void* recvbuf, int recvcount, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request* request) {
  ApiScope api_scope(__func__);
  const char* fn = "MPI_Ireduce_scatter_block";
  return start_nonblocking(fn, comm, request, {datatype}, op, [=] { return reduce_scatter_common(fn, Collective::ReduceScatterBlock, sendbuf, recvbuf, nullptr, recvcount, datatype, op, comm); });
}

int MPI_Scan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  ApiScope api_scope(__func__);
  const char* fn = "MPI_Scan";
  return sequenced(comm, [&] { return scan_common(fn, Collective::Scan, sendbuf, recvbuf, count, datatype, op, comm); });
}

int MPI_Iscan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request* request) {
  ApiScope api_scope(__func__);
  const char* fn = "MPI_Iscan";
  return start_nonblocking(fn, comm, request, {datatype}, op, [=] { return scan_common(fn, Collective::Scan, sendbuf, recvbuf, count, datatype, op, comm); });
}

int MPI_Exscan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  ApiScope api_scope(__func__);
  const char* fn = "MPI_Exscan";
  return sequenced(comm, [&] { return scan_common(fn, Collective::Exscan, sendbuf, recvbuf, count, datatype, op, comm); });
}

int MPI_Iexscan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request* request) {
  ApiScope api_scope(__func__);
  const char* fn = "MPI_Iexscan";
  return start_nonblocking(fn, comm, request, {datatype}, op, [=] { return scan_common(fn, Collective::Exscan, sendbuf, recvbuf, count, datatype, op, comm); });
}

/// Alltoallw: a datatype per peer and byte displacements, run as a typed exchange by the
/// registry's alltoallw algorithm.
static int alltoallw_call(const char* fn, const void* sendbuf, const int sendcounts[], const int sdispls[],
                          const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[], const int rdispls[],
                          const MPI_Datatype recvtypes[], MPI_Comm comm) {
  int rc = MPI_SUCCESS;
  Comm* c = check::comm(comm, fn, &rc);
  if (!c) return rc;
  if (c->inter) return intercomm_call<coll::InterAlltoallwFn>(Collective::Alltoallw, *c, fn, sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes);
  const bool in_place = sendbuf == MPI_IN_PLACE;
  if (!array_ok(*c, recvcounts, "recvcounts", fn, &rc) || !array_ok(*c, rdispls, "rdispls", fn, &rc) ||
      !array_ok(*c, recvtypes, "recvtypes", fn, &rc) || !counts_ok(*c, recvcounts, fn, &rc) ||
      !not_in_place(*c, recvbuf, "recvbuf", fn, &rc))
    return rc;
  if (!in_place && (!array_ok(*c, sendcounts, "sendcounts", fn, &rc) || !array_ok(*c, sdispls, "sdispls", fn, &rc) ||
                    !array_ok(*c, sendtypes, "sendtypes", fn, &rc) || !counts_ok(*c, sendcounts, fn, &rc)))
    return rc;
  const int n = c->size, me = c->rank;
  std::vector<const Datatype*> rt(uz(n)), st(uz(n));
  for (int i = 0; i < n; ++i) {
    if (!(rt[uz(i)] = check::type(*c, recvtypes[i], fn, &rc)) || !buf_ok(*c, recvbuf, uz(recvcounts[i]), *rt[uz(i)], fn, &rc))
      return rc;
    if (in_place) continue;
    if (!(st[uz(i)] = check::type(*c, sendtypes[i], fn, &rc)) || !buf_ok(*c, sendbuf, uz(sendcounts[i]), *st[uz(i)], fn, &rc))
      return rc;
  }
  auto rblock = [&](int i) { return coll::at(recvbuf, static_cast<std::size_t>(rdispls[i])); };
  // In place, what goes to rank i is what recvbuf holds for it now: packed copies, taken first.
  std::vector<Bytes> outgoing;
  if (in_place)
    for (int i = 0; i < n; ++i) outgoing.push_back(packed_copy(rblock(i), uz(recvcounts[i]), *rt[uz(i)]));
  else if (!same_size(*c, uz(sendcounts[me]) * st[uz(me)]->size, uz(recvcounts[me]) * rt[uz(me)]->size, fn, &rc))
    return rc;
  coll::AlltoallwExchange x;
  x.sends.resize(uz(n));
  x.recvs.resize(uz(n));
  for (int i = 0; i < n; ++i) {
    if (i == me) continue;
    x.recvs[uz(i)] = {rblock(i), uz(recvcounts[i]), recvtypes[i], i};
    x.sends[uz(i)] = in_place ? coll::NeighborTransfer{outgoing[uz(i)].data(), outgoing[uz(i)].size(), MPI_BYTE, i}
                              : coll::NeighborTransfer{const_cast<unsigned char*>(coll::at(sendbuf, static_cast<std::size_t>(sdispls[i]))),
                                                       uz(sendcounts[i]), sendtypes[i], i};
  }
  if (!in_place)
    x.local = [&] {
      copy_typed(coll::at(sendbuf, static_cast<std::size_t>(sdispls[me])), uz(sendcounts[me]), *st[uz(me)], rblock(me),
                 uz(recvcounts[me]), *rt[uz(me)]);
    };
  int p = 0;
  coll::AlltoallwFn f = nullptr;
  if (int e = pick(Collective::Alltoallw, *c, coll::Call{}, fn, &f, &p)) return e;
  return finish(*c, f(x, *c, p), fn);
}

int MPI_Alltoallw(const void* sendbuf, const int sendcounts[], const int sdispls[], const MPI_Datatype sendtypes[],
                  void* recvbuf, const int recvcounts[], const int rdispls[], const MPI_Datatype recvtypes[],
                  MPI_Comm comm) {
  ApiScope api_scope(__func__);
  return sequenced(comm, [&] {
    return alltoallw_call("MPI_Alltoallw", sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls,
                          recvtypes, comm);
  });
}

int MPI_Ialltoallw(const void* sendbuf, const int sendcounts[], const int sdispls[], const MPI_Datatype sendtypes[],
                   void* recvbuf, const int recvcounts[], const int rdispls[], const MPI_Datatype recvtypes[],
                   MPI_Comm comm, MPI_Request* request) {
  ApiScope api_scope(__func__);
  const char* fn = "MPI_Ialltoallw";
  // Its datatypes need no holds of the call's own: every transfer is posted before the call
  // returns, and each receive holds its type (holds.h).
  return start_nonblocking(fn, comm, request, {}, [=] {
    return alltoallw_call(fn, sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes, comm);
  });
}

}  // extern "C"

// The names a profiling tool may replace (see TILEMPI_PMPI_ALIAS).
TILEMPI_PMPI_ALIAS(Barrier)
TILEMPI_PMPI_ALIAS(Bcast)
TILEMPI_PMPI_ALIAS(Reduce)
TILEMPI_PMPI_ALIAS(Allreduce)
TILEMPI_PMPI_ALIAS(Alltoall)
TILEMPI_PMPI_ALIAS(Alltoallv)
TILEMPI_PMPI_ALIAS(Gather)
TILEMPI_PMPI_ALIAS(Gatherv)
TILEMPI_PMPI_ALIAS(Scatter)
TILEMPI_PMPI_ALIAS(Scatterv)
TILEMPI_PMPI_ALIAS(Allgather)
TILEMPI_PMPI_ALIAS(Allgatherv)
TILEMPI_PMPI_ALIAS(Reduce_scatter)
TILEMPI_PMPI_ALIAS(Reduce_scatter_block)
TILEMPI_PMPI_ALIAS(Scan)
TILEMPI_PMPI_ALIAS(Exscan)
TILEMPI_PMPI_ALIAS(Ibarrier)
TILEMPI_PMPI_ALIAS(Ibcast)
TILEMPI_PMPI_ALIAS(Ireduce)
TILEMPI_PMPI_ALIAS(Iallreduce)
TILEMPI_PMPI_ALIAS(Ialltoall)
TILEMPI_PMPI_ALIAS(Ialltoallv)
TILEMPI_PMPI_ALIAS(Igather)
TILEMPI_PMPI_ALIAS(Igatherv)
TILEMPI_PMPI_ALIAS(Iscatter)
TILEMPI_PMPI_ALIAS(Iscatterv)
TILEMPI_PMPI_ALIAS(Iallgather)
TILEMPI_PMPI_ALIAS(Iallgatherv)
TILEMPI_PMPI_ALIAS(Ireduce_scatter)
TILEMPI_PMPI_ALIAS(Ireduce_scatter_block)
TILEMPI_PMPI_ALIAS(Iscan)
TILEMPI_PMPI_ALIAS(Iexscan)
TILEMPI_PMPI_ALIAS(Alltoallw)
TILEMPI_PMPI_ALIAS(Ialltoallw)
