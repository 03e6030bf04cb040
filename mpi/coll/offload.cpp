// Collectives offloaded to the network adapter ([Wallentowitz 2018] §3.3, NAMP-CC): the
// transport's CollectiveOffload moves the data; these functions only name the members, the root
// and the id. Registered as needing the capability (Capabilities::hardware_multicast, and
// hardware_reduction for the op and element type of the call): without it the fallback policy
// (TILEMPI_COLL_FALLBACK) decides, as for any restriction.
//   bcast=namp_multicast      one multicast from the root to every member (§3.3.2.1)
//   scatter=namp_scatter      one scatter transfer: block i to member i (§3.3.2.2)
//   gather=namp_gather        every member into its slot of the root's endpoint (§3.3.2.3)
//   reduce=namp_reduce        every member combined by the root's DMA data path (§3.3.2.4)
//   allreduce=namp_reduce_multicast  namp_reduce to rank 0, then namp_multicast from it
#include "coll/coll.h"
#include "runtime.h"

namespace tilempi::mpi::coll {

namespace {

/// The restrictions checked that it exists now (not inside a non-blocking collective).
transport::CollectiveOffload& offload() { return *collective_offload_now(); }

int world_root(Comm& c, int root) { return c.world[static_cast<std::size_t>(root)]; }

/// The root's length (or at a gather or reduce root, a member's) where this rank's differs: this
/// rank fails alone (SizedCall, coll.h).
int root_length(Comm& c, std::size_t sent, std::size_t bytes) {
  SizedCall call(c);
  if (sent != bytes) call.mismatch(sent, bytes);
  return call.result();
}

int bcast_namp_multicast(void* buf, std::size_t bytes, int root, Comm& c, int) {
  const int wr = world_root(c, root);
  return root_length(c, offload().multicast(static_id(c, wr), c.world, wr, buf, bytes), bytes);
}

int scatter_namp(const void* sbuf, void* rbuf, std::size_t block, int root, Comm& c, int) {
  const int wr = world_root(c, root);
  return root_length(c, offload().scatter(static_id(c, wr), c.world, wr, sbuf, rbuf, block), block);
}

int gather_namp(const void* sbuf, void* rbuf, std::size_t block, int root, Comm& c, int) {
  const int wr = world_root(c, root);
  return root_length(c, offload().gather(static_id(c, wr), c.world, wr, sbuf, rbuf, block), block);
}

int reduce_namp(const void* sbuf, void* rbuf, std::size_t n, const Reducer& red, int root, Comm& c, int) {
  transport::HwOp op{};
  transport::HwElem elem{};
  hw_reduction_of(red, &op, &elem);  // the restriction checked that it exists
  const int wr = world_root(c, root);
  const std::size_t bytes = n * red.elem_size();
  return root_length(c, offload().reduce(static_id(c, wr), c.world, wr, sbuf, rbuf, bytes, op, elem), bytes);
}

int allreduce_namp(const void* sbuf, void* rbuf, std::size_t n, const Reducer& red, Comm& c, int) {
  // The multicast runs whatever the reduction gave: the others wait for it inside the adapter,
  // where no notice reaches them. After a reduction that failed at the root (a member's length
  // differs) the root sends nothing, and every member sees a length other than its own and fails.
  const std::size_t bytes = n * red.elem_size();
  const int rc = reduce_namp(sbuf, rbuf, n, red, 0, c, 0);
  const int brc = bcast_namp_multicast(rbuf, rc == MPI_SUCCESS ? bytes : 0, 0, c, 0);
  return rc != MPI_SUCCESS ? rc : brc;
}

}  // namespace

bool hw_reduction_of(const Reducer& red, transport::HwOp* op, transport::HwElem* elem) {
  using transport::HwElem;
  using transport::HwOp;
  const MPI_Op o = red.op();
  if (o == MPI_SUM) *op = HwOp::Sum;
  else if (o == MPI_MIN) *op = HwOp::Min;
  else if (o == MPI_MAX) *op = HwOp::Max;
  else if (o == MPI_BAND) *op = HwOp::Band;
  else if (o == MPI_BOR) *op = HwOp::Bor;
  else if (o == MPI_BXOR) *op = HwOp::Bxor;
  else if (o == MPI_LAND) *op = HwOp::Land;
  else if (o == MPI_LOR) *op = HwOp::Lor;
  else if (o == MPI_LXOR) *op = HwOp::Lxor;
  else return false;  // PROD (no multiplier, §3.3.2.4), MAXLOC/MINLOC, REPLACE, NO_OP, user ops
  const MPI_Datatype b = red.basic();
  if (b == MPI_SIGNED_CHAR || b == MPI_INT8_T || b == MPI_INTEGER1) *elem = HwElem::I8;
  else if (b == MPI_UNSIGNED_CHAR || b == MPI_UINT8_T || b == MPI_BYTE || b == MPI_C_BOOL) *elem = HwElem::U8;
  else if (b == MPI_SHORT || b == MPI_INT16_T || b == MPI_INTEGER2) *elem = HwElem::I16;
  else if (b == MPI_UNSIGNED_SHORT || b == MPI_UINT16_T) *elem = HwElem::U16;
  else if (b == MPI_INT || b == MPI_INT32_T || b == MPI_INTEGER || b == MPI_INTEGER4) *elem = HwElem::I32;
  else if (b == MPI_UNSIGNED || b == MPI_UINT32_T) *elem = HwElem::U32;
  else return false;  // floating point, 64-bit integers, pairs: beyond the 32-bit integer data path
  return true;
}

// ---- registry entries (registry.cpp lists them) ----------------------------------------------

namespace entry {

extern const Algorithm bcast_namp_multicast{
    .kind = Collective::Bcast, .name = "namp_multicast", .family = Family::Classic, .fn = any(&coll::bcast_namp_multicast),
    .help = "one multicast of the network adapter to every member, set up once, destinations progressed "
            "concurrently ([Wallentowitz 2018] §3.3.2.1)",
    .restrictions = {.hardware_multicast = true},
    .fallback = "binomial"};

extern const Algorithm scatter_namp_scatter{
    .kind = Collective::Scatter, .name = "namp_scatter", .family = Family::Classic, .fn = any(&coll::scatter_namp),
    .help = "one scatter transfer of the network adapter, block i to member i ([Wallentowitz 2018] §3.3.2.2)",
    .restrictions = {.hardware_multicast = true},
    .fallback = "binomial"};

extern const Algorithm gather_namp_gather{
    .kind = Collective::Gather, .name = "namp_gather", .family = Family::Classic, .fn = any(&coll::gather_namp),
    .help = "every member writes its block into its slot of the root's endpoint; the root hears once, "
            "when every slot is complete ([Wallentowitz 2018] §3.3.2.3)",
    .restrictions = {.hardware_multicast = true},
    .fallback = "binomial"};

extern const Algorithm reduce_namp_reduce{
    .kind = Collective::Reduce, .name = "namp_reduce", .family = Family::Classic, .fn = any(&coll::reduce_namp),
    .help = "every member's data combined in the root adapter's DMA path as it arrives ([Wallentowitz 2018] "
            "§3.3.2.4: integers up to 32 bits, ops without multiplication)",
    .restrictions = {.hardware_reduction = true},
    .fallback = "binomial"};

extern const Algorithm allreduce_namp_reduce_multicast{
    .kind = Collective::Allreduce, .name = "namp_reduce_multicast", .family = Family::Classic,
    .fn = any(&coll::allreduce_namp),
    .help = "namp_reduce to rank 0, then namp_multicast from it ([Wallentowitz 2018] §3.3)",
    .restrictions = {.hardware_multicast = true, .hardware_reduction = true},
    .fallback = "recursive_doubling"};

}  // namespace entry

}  // namespace tilempi::mpi::coll
