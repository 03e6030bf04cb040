// Classic alltoall and alltoallv: linear (OperaMPI turns), pairwise, bruck, xor_direct, scattered.
#include <cstring>

#include "coll/coll.h"

namespace tilempi::mpi::coll {

namespace {

void self_copy(const void* sbuf, void* rbuf, std::size_t soff, std::size_t roff, std::size_t bytes) {
  if (bytes) std::memmove(at(rbuf, roff), at(sbuf, soff), bytes);
}

/// The per-pair views that alltoall and alltoallv share.
struct Blocks {
  const void* sbuf;
  void* rbuf;
  const std::size_t* sc = nullptr;
  const std::size_t* sd = nullptr;
  const std::size_t* rc = nullptr;
  const std::size_t* rd = nullptr;
  std::size_t block = 0;
  std::size_t scount(int i) const { return sc ? sc[i] : block; }
  std::size_t sdispl(int i) const { return sd ? sd[i] : block * static_cast<std::size_t>(i); }
  std::size_t rcount(int i) const { return rc ? rc[i] : block; }
  std::size_t rdispl(int i) const { return rd ? rd[i] : block * static_cast<std::size_t>(i); }
  const void* sptr(int i) const { return at(sbuf, sdispl(i)); }
  void* rptr(int i) const { return at(rbuf, rdispl(i)); }
};

int linear(const Blocks& b, Comm& c, int tag) {
  // [Yagna 2013] §2.2: the tasks take turns, one sender at a time; in turn t, task t sends to every
  // other task. Task t + 1, whose turn is next, gets its block last, so its turn cannot start
  // before task t has injected everything: the turns do not overlap, as in OperaMPI.
  const int n = c.size, r = c.rank;
  for (int t = 0; t < n; ++t) {
    if (t == r) {
      self_copy(b.sbuf, b.rbuf, b.sdispl(r), b.rdispl(r), b.rcount(r));
      for (int k = 2; k <= n + 1; ++k) {  // r + 2, ..., r + n - 1, then r + 1
        const int d = (r + k) % n;
        if (d == r) continue;
        if (int rc = send_bytes(b.sptr(d), b.scount(d), d, tag, c)) return rc;
      }
    } else {
      if (int rc = recv_bytes(b.rptr(t), b.rcount(t), t, tag, c)) return rc;
    }
  }
  return MPI_SUCCESS;
}

int pairwise(const Blocks& b, Comm& c, int tag) {
  const int n = c.size, r = c.rank;
  self_copy(b.sbuf, b.rbuf, b.sdispl(r), b.rdispl(r), b.rcount(r));
  for (int k = 1; k < n; ++k) {
    const int to = schedule::pairwise_send_to(n, r, k), from = schedule::pairwise_recv_from(n, r, k);
    if (int rc = sendrecv_bytes(b.sptr(to), b.scount(to), to, b.rptr(from), b.rcount(from), from, tag, c)) return rc;
  }
  return MPI_SUCCESS;
}

int scattered(const Blocks& b, Comm& c, int tag) {
  const int n = c.size, r = c.rank;
  self_copy(b.sbuf, b.rbuf, b.sdispl(r), b.rdispl(r), b.rcount(r));
  std::vector<MPI_Request> reqs(2 * static_cast<std::size_t>(n - 1));
  std::size_t q = 0;
  for (int k = 1; k < n; ++k) {
    const int from = (r - k + n) % n;
    if (int rc = irecv_bytes(b.rptr(from), b.rcount(from), from, tag, c, &reqs[q++])) return rc;
  }
  for (int k = 1; k < n; ++k) {
    const int to = (r + k) % n;
    if (int rc = isend_bytes(b.sptr(to), b.scount(to), to, tag, c, &reqs[q++])) return rc;
  }
  return waitall(reqs);
}

}  // namespace

int alltoall_linear(const void* s, void* r, std::size_t block, Comm& c, int) {
  return linear(Blocks{s, r, nullptr, nullptr, nullptr, nullptr, block}, c, kTagAlltoall);
}
int alltoall_pairwise(const void* s, void* r, std::size_t block, Comm& c, int) {
  return pairwise(Blocks{s, r, nullptr, nullptr, nullptr, nullptr, block}, c, kTagAlltoall);
}
int alltoall_scattered(const void* s, void* r, std::size_t block, Comm& c, int) {
  return scattered(Blocks{s, r, nullptr, nullptr, nullptr, nullptr, block}, c, kTagAlltoall);
}

int alltoall_xor_direct(const void* s, void* r, std::size_t block, Comm& c, int) {
  const int n = c.size, me = c.rank, p = schedule::pow2_ceil(n);
  self_copy(s, r, block * static_cast<std::size_t>(me), block * static_cast<std::size_t>(me), block);
  for (int k = 1; k < p; ++k) {
    const int partner = me ^ k;
    if (partner >= n) continue;
    const std::size_t off = block * static_cast<std::size_t>(partner);
    if (int rc = sendrecv_bytes(at(s, off), block, partner, at(r, off), block, partner, kTagAlltoall, c)) return rc;
  }
  return MPI_SUCCESS;
}

int alltoall_bruck(const void* s, void* r, std::size_t block, Comm& c, int) {
  const int n = c.size, me = c.rank;
  const std::size_t N = static_cast<std::size_t>(n);
  // Rotate so that slot i holds the block for rank me + i.
  Bytes tmp(N * block), out, in;
  for (int i = 0; i < n; ++i)
    std::memcpy(tmp.data() + static_cast<std::size_t>(i) * block, at(s, static_cast<std::size_t>((me + i) % n) * block), block);
  for (int d = 1; d < n; d <<= 1) {
    std::vector<int> slots;
    for (int i = 1; i < n; ++i)
      if (i & d) slots.push_back(i);
    out.resize(slots.size() * block);
    in.resize(slots.size() * block);
    for (std::size_t k = 0; k < slots.size(); ++k)
      std::memcpy(out.data() + k * block, tmp.data() + static_cast<std::size_t>(slots[k]) * block, block);
    if (int rc = sendrecv_bytes(out.data(), out.size(), (me + d) % n, in.data(), in.size(), (me - d + n) % n, kTagAlltoall, c))
      return rc;
    for (std::size_t k = 0; k < slots.size(); ++k)
      std::memcpy(tmp.data() + static_cast<std::size_t>(slots[k]) * block, in.data() + k * block, block);
  }
  // Slot i now holds the block from rank me - i.
  for (int i = 0; i < n; ++i)
    std::memcpy(at(r, static_cast<std::size_t>((me - i + n) % n) * block), tmp.data() + static_cast<std::size_t>(i) * block, block);
  return MPI_SUCCESS;
}

int alltoallv_linear(const void* s, const std::size_t* sc, const std::size_t* sd, void* r, const std::size_t* rc,
                     const std::size_t* rd, Comm& c, int) {
  return linear(Blocks{s, r, sc, sd, rc, rd, 0}, c, kTagAlltoallv);
}
int alltoallv_pairwise(const void* s, const std::size_t* sc, const std::size_t* sd, void* r, const std::size_t* rc,
                       const std::size_t* rd, Comm& c, int) {
  return pairwise(Blocks{s, r, sc, sd, rc, rd, 0}, c, kTagAlltoallv);
}
int alltoallv_scattered(const void* s, const std::size_t* sc, const std::size_t* sd, void* r, const std::size_t* rc,
                        const std::size_t* rd, Comm& c, int) {
  return scattered(Blocks{s, r, sc, sd, rc, rd, 0}, c, kTagAlltoallv);
}

// ---- registry entries (registry.cpp lists them) ----------------------------------------------

namespace entry {

extern const Algorithm alltoall_linear{
    .kind = Collective::Alltoall, .name = "linear", .family = Family::Classic, .fn = any(&coll::alltoall_linear),
    .help = "OperaMPI baseline ([Yagna 2013] §2.2): the tasks take turns, in turn s task s sends to every other",
    .schedule = [](const schedule::Mesh&, const Members& m, int, int) { return schedule::linear_turns(count_of(m)); },
    .baseline = true};
extern const Algorithm alltoall_pairwise{
    .kind = Collective::Alltoall, .name = "pairwise", .family = Family::Classic, .fn = any(&coll::alltoall_pairwise),
    .help = "N-1 steps, step k: send to r+k, receive from r-k", .default_on = DefaultOn::SingleRow,
    .schedule = [](const schedule::Mesh&, const Members& m, int, int) { return schedule::pairwise(count_of(m)); }};
extern const Algorithm alltoall_bruck{
    .kind = Collective::Alltoall, .name = "bruck", .family = Family::Classic, .fn = any(&coll::alltoall_bruck),
    .help = "ceil(log2 N) steps of combined blocks (Bruck et al.), for small messages",
    .schedule = [](const schedule::Mesh&, const Members& m, int, int) { return schedule::bruck(count_of(m)); }};
extern const Algorithm alltoall_xor_direct{
    .kind = Collective::Alltoall, .name = "xor_direct", .family = Family::Classic, .fn = any(&coll::alltoall_xor_direct),
    .help = "steps k = 1..2^ceil(log2 N)-1 exchanging with r xor k (Thakur & Choudhary): contended on a mesh",
    .schedule = [](const schedule::Mesh&, const Members& m, int, int) { return schedule::xor_direct(count_of(m)); }};
extern const Algorithm alltoall_scattered{
    .kind = Collective::Alltoall, .name = "scattered", .family = Family::Classic, .fn = any(&coll::alltoall_scattered),
    .help = "every send and receive posted at once",
    .schedule = [](const schedule::Mesh&, const Members& m, int, int) { return schedule::scattered(count_of(m)); }};

extern const Algorithm alltoallv_linear{
    .kind = Collective::Alltoallv, .name = "linear", .family = Family::Classic, .fn = any(&coll::alltoallv_linear),
    .help = "the tasks take turns sending to every other (as alltoall linear)"};
extern const Algorithm alltoallv_pairwise{
    .kind = Collective::Alltoallv, .name = "pairwise", .family = Family::Classic, .fn = any(&coll::alltoallv_pairwise),
    .help = "N-1 steps, step k: send to r+k, receive from r-k", .default_on = DefaultOn::SingleRow};
extern const Algorithm alltoallv_scattered{
    .kind = Collective::Alltoallv, .name = "scattered", .family = Family::Classic, .fn = any(&coll::alltoallv_scattered),
    .help = "every send and receive posted at once"};

}  // namespace entry

}  // namespace tilempi::mpi::coll
