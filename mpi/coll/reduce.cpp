// Classic reduce: linear, binomial. Both combine in rank order (the lower ranks' operand first),
// so non-commutative ops are right, and the result is computed on one rank only. An operand of
// another size than this rank's count gives (SizedCall, coll.h) fails the call where it arrives:
// at the root of linear, alone; at a rank of binomial, which would pass on a partial result of
// the wrong length, by stopping there and telling the others.
#include <algorithm>
#include <cstring>

#include "coll/coll.h"

namespace tilempi::mpi::coll {

namespace {

Bytes copy_of(const void* p, std::size_t bytes) {
  Bytes b(bytes);
  if (bytes) std::memcpy(b.data(), p, bytes);
  return b;
}

}  // namespace

int reduce_linear(const void* sbuf, void* rbuf, std::size_t n, const Reducer& red, int root, Comm& c, int) {
  const std::size_t bytes = n * red.elem_size();
  if (c.rank != root) return send_bytes(sbuf, bytes, root, kTagReduce, c);
  const int size = c.size;
  Bytes all(bytes * static_cast<std::size_t>(size));
  std::vector<MPI_Request> reqs;
  for (int i = 0; i < size; ++i) {
    if (i == root) continue;
    reqs.emplace_back();
    if (int rc = irecv_bytes(all.data() + bytes * static_cast<std::size_t>(i), bytes, i, kTagReduce, c, &reqs.back())) return rc;
  }
  std::memcpy(all.data() + bytes * static_cast<std::size_t>(root), sbuf, bytes);
  SizedCall call(c);
  if (int rc = call.waitall(reqs, std::vector<std::size_t>(reqs.size(), bytes))) return rc;
  if (int rc = call.result()) return rc;
  // a_0 op (a_1 op (... op a_{n-1})): fold from the highest rank down.
  std::memcpy(rbuf, all.data() + bytes * static_cast<std::size_t>(size - 1), bytes);
  for (int i = size - 2; i >= 0; --i) red.apply(all.data() + bytes * static_cast<std::size_t>(i), rbuf, n);
  return MPI_SUCCESS;
}

int reduce_binomial(const void* sbuf, void* rbuf, std::size_t n, const Reducer& red, int root, Comm& c, int) {
  const std::size_t bytes = n * red.elem_size();
  const int size = c.size;
  // Commutative: a tree over ranks relative to the root. Otherwise over ranks, into rank 0,
  // so that every partial result covers a contiguous range of ranks, lowest first.
  const int top = red.commutative() ? root : 0;
  const int rel = (c.rank - top + size) % size;
  Bytes acc = copy_of(sbuf, bytes), tmp(bytes);
  SizedCall call(c, SizedCall::Mode::Stop);
  for (int mask = 1; mask < size; mask <<= 1) {
    if (rel & mask) {
      if (int rc = send_bytes(acc.data(), bytes, (rel - mask + top) % size, kTagReduce, c)) return rc;
      break;
    }
    if (rel + mask < size) {
      if (int rc = call.recv(tmp.data(), bytes, (rel + mask + top) % size, kTagReduce)) return rc;
      red.apply_into_lo(acc.data(), tmp.data(), n);
    }
  }
  if (c.rank == top) {
    if (top == root) {
      std::memcpy(rbuf, acc.data(), bytes);
      return MPI_SUCCESS;
    }
    return send_bytes(acc.data(), bytes, root, kTagReduce, c);
  }
  if (c.rank == root) return call.recv(rbuf, bytes, top, kTagReduce);
  return MPI_SUCCESS;
}

// ---- registry entries (registry.cpp lists them) ----------------------------------------------

namespace entry {

extern const Algorithm reduce_linear{
    .kind = Collective::Reduce, .name = "linear", .family = Family::Classic, .fn = any(&coll::reduce_linear),
    .help = "root receives from every rank and combines in rank order",
    .schedule = [](const schedule::Mesh&, const Members& m, int root, int) { return schedule::linear_reduce(count_of(m), root); }};
extern const Algorithm reduce_binomial{
    .kind = Collective::Reduce, .name = "binomial", .family = Family::Classic, .fn = any(&coll::reduce_binomial),
    .help = "binomial tree, ceil(log2 N) steps; keeps rank order for non-commutative ops", .default_on = DefaultOn::SingleRow,
    .schedule = [](const schedule::Mesh&, const Members& m, int root, int) { return schedule::binomial_reduce(count_of(m), root); },
    .baseline = true};

}  // namespace entry

}  // namespace tilempi::mpi::coll
