// alltoall operampi: OperaMPI's alltoall as [Yagna 2013] §2.2 describes it, with its switch at
// 1 KW (1024 words of 4 bytes, the TilePro64's 32-bit words, §2.1.1). The switch is the
// registry's (Restrictions::block_above, fallback `linear`), so that the registry, the run
// report and tilempi-coll-check name what runs at each size:
//
//   blocks up to 1 KW: "at each stage, one task takes a turn to send", "a non-blocking send
//     followed by a blocking receive": the tasks take turns, one sender at a time, as the
//     `linear` alltoall does (it runs): N turns of N-1 messages each, all in sequence.
//   blocks above 1 KW (this file): "half the tiles send to the other half": stages of disjoint pairs (a
//     round-robin tournament: N-1 stages for even N, N for odd N with one task idle per stage);
//     in each stage the lower rank of every pair sends while the higher one receives, then the
//     other way round. Every receiver has one sender at a time, so once its channel is set up the
//     transmission has its ejection port to itself (§2.2: "transmission proceeds without
//     contention once a channel has been created"); mesh links can still be shared.
//
// Cost above 1 KW: 2 (N-1) or 2 N dependent transfers of one block per task; the stages are not
// separated by barriers, only by the pairs' own messages.
#include <cstring>

#include "coll/coll.h"

namespace tilempi::mpi::coll {

namespace {

/// [Yagna 2013] §2.2: OperaMPI changes algorithm when a block exceeds 1 KW.
constexpr std::size_t kHalfToHalfAbove = 1024 * 4;

/// Stages of the round-robin tournament on n tasks (circle method).
int stages(int n) { return n % 2 == 0 ? n - 1 : n; }

/// The partner of task r in stage st, or -1 when r sits the stage out (odd n).
int partner(int n, int r, int st) {
  const int m = stages(n);
  if (n % 2 == 0 && r == n - 1) return st;
  int p = ((2 * st - r) % m + m) % m;
  if (p == r) return n % 2 == 0 ? n - 1 : -1;
  return p;
}

int alltoall_operampi(const void* s, void* r, std::size_t block, Comm& c, int) {
  const int n = c.size, me = c.rank;
  const std::size_t mine = block * static_cast<std::size_t>(me);
  std::memmove(at(r, mine), at(s, mine), block);
  for (int st = 0; st < stages(n); ++st) {
    const int p = partner(n, me, st);
    if (p < 0) continue;
    const std::size_t theirs = block * static_cast<std::size_t>(p);
    if (me < p) {  // the lower half of the pairs sends first
      if (int rc = send_bytes(at(s, theirs), block, p, kTagAlltoall, c)) return rc;
      if (int rc = recv_bytes(at(r, theirs), block, p, kTagAlltoall, c)) return rc;
    } else {
      if (int rc = recv_bytes(at(r, theirs), block, p, kTagAlltoall, c)) return rc;
      if (int rc = send_bytes(at(s, theirs), block, p, kTagAlltoall, c)) return rc;
    }
  }
  return MPI_SUCCESS;
}

/// The schedule (above 1 KW; below, `linear` runs): per stage, lower to higher, then back.
schedule::Schedule half_to_half(int n) {
  schedule::Schedule sch;
  for (int st = 0; st < stages(n) && n > 1; ++st) {
    schedule::Round up, down;
    for (int q = 0; q < n; ++q) {
      const int p = partner(n, q, st);
      if (p > q) {
        up.push_back({q, p});
        down.push_back({p, q});
      }
    }
    sch.rounds.push_back(std::move(up));
    sch.rounds.push_back(std::move(down));
  }
  return sch;
}

}  // namespace

namespace entry {

extern const Algorithm alltoall_operampi{
    .kind = Collective::Alltoall, .name = "operampi", .family = Family::Classic, .fn = any(&coll::alltoall_operampi),
    .help = "OperaMPI ([Yagna 2013] §2.2): above 1 KW per block, stages of pairs, half the tiles sending to the "
            "other half; up to 1 KW it switches to linear (one sender at a time)",
    .restrictions = {.block_above = kHalfToHalfAbove},
    .fallback = "linear",
    .schedule = [](const schedule::Mesh&, const Members& m, int, int) { return half_to_half(count_of(m)); }};

}  // namespace entry

}  // namespace tilempi::mpi::coll
