// allreduce reduce_bcast: OperaMPI's allreduce, "a reduction operation followed by a broadcast"
// ([Yagna 2013] §2.2): the binomial (inverse-tree) reduce to rank 0, then the binomial broadcast
// from rank 0, both over ranks, ignoring the mesh. The same algorithm as Open MPI's
// "nonoverlapping" and SimGrid's "redbcast" with those two trees.
// Cost: 2 ceil(log2 N) dependent messages of the whole vector (the reduce's combining on the way).
#include "coll/coll.h"

namespace tilempi::mpi::coll {

namespace {

int allreduce_reduce_bcast(const void* sbuf, void* rbuf, std::size_t n, const Reducer& red, Comm& c, int) {
  // reduce_binomial keeps rank order for non-commutative ops (it then combines into rank 0).
  if (int rc = reduce_binomial(sbuf, rbuf, n, red, 0, c, 0)) return stage_failed(c, rc);
  return bcast_binomial(rbuf, n * red.elem_size(), 0, c, 0);
}

}  // namespace

namespace entry {

extern const Algorithm allreduce_reduce_bcast{
    .kind = Collective::Allreduce, .name = "reduce_bcast", .family = Family::Classic, .fn = any(&coll::allreduce_reduce_bcast),
    .help = "OperaMPI ([Yagna 2013] §2.2): binomial reduce to rank 0, then binomial broadcast",
    .schedule = [](const schedule::Mesh&, const Members& m, int, int) {
      schedule::Schedule s = schedule::binomial_reduce(count_of(m), 0);
      for (schedule::Round& r : schedule::binomial_bcast(count_of(m), 0).rounds) s.rounds.push_back(std::move(r));
      return s;
    }};

}  // namespace entry

}  // namespace tilempi::mpi::coll
