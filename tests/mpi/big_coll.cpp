// Collectives across the 2 GiB boundary: every collective moves blocks of 2 GiB + 8 MiB between
// two ranks and each receiver checks every element, so a byte count clamped to INT_MAX (or any
// 32-bit size on the way) shows as a wrong tail instead of passing silently.
//
// Usage: big_coll COLLECTIVE   (bcast reduce allreduce alltoall alltoallv gather gatherv scatter
//                               scatterv allgather allgatherv reduce_scatter reduce_scatter_block
//                               scan exscan allreduce_user)
//
// Memory: a buffer the call only reads is a *pattern*: one small memfd mapped again and again over
// the whole range, so 2 GiB of input costs 60 MiB. A buffer the call writes is real memory, filled
// with a sentinel first. Block layouts mix the two (e.g. a rank's own slot of an in-place gather is
// a pattern, the slot it receives is real), so each run needs a few GiB, not tens.
#include <mpi.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "check.h"

namespace {

constexpr std::size_t kElem = 1u << 17;                       // doubles per derived-type element (1 MiB)
constexpr std::size_t kCount = 2056;                          // elements per block: 2 GiB + 8 MiB
constexpr std::size_t kBlockDoubles = kElem * kCount;
constexpr std::size_t kBlockBytes = kBlockDoubles * sizeof(double);
// The pattern's period: a page multiple that shares no power of two with transport chunk sizes.
constexpr std::size_t kPeriodBytes = (60u << 20) + (12u << 10);
constexpr std::size_t kPeriod = kPeriodBytes / sizeof(double);
static_assert(kBlockBytes > 2147483647u, "a block must cross the 2 GiB boundary");

/// The value of element i of pattern `seed` (integers: sums of two are exact in double).
double value(int seed, std::size_t i) { return static_cast<double>(seed) * 1e8 + static_cast<double>(i % kPeriod); }

/// A range of virtual memory built from segments of kBlockBytes each.
class Buffer {
 public:
  /// segs[k] >= 0: segment k is pattern seed segs[k] (read-only use); -1: real memory holding -1.0.
  /// seg_bytes: a page multiple.
  explicit Buffer(const std::vector<int>& segs, std::size_t seg_bytes = kBlockBytes) : seg_bytes_(seg_bytes) {
    const std::size_t reserve = segs.size() * seg_bytes;
    base_ = static_cast<char*>(mmap(nullptr, reserve, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0));
    CHECK(base_ != MAP_FAILED);
    reserved_ = reserve;
    // Segments lie at seg_bytes strides. A pattern segment is its memfd mapped
    // period after period, the last mapping cut at the segment's end.
    for (std::size_t k = 0; k < segs.size(); ++k) {
      if (segs[k] < 0) continue;
      char* seg = base_ + k * seg_bytes;
      const int fd = pattern_fd(segs[k]);
      for (std::size_t off = 0; off < seg_bytes; off += kPeriodBytes) {
        const std::size_t len = std::min(kPeriodBytes, seg_bytes - off);
        void* m = mmap(seg + off, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, 0);
        CHECK(m == seg + off);
      }
      close(fd);
    }
    for (std::size_t k = 0; k < segs.size(); ++k) {
      if (segs[k] >= 0) continue;
      char* seg = base_ + k * seg_bytes;
      void* m = mmap(seg, seg_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
      CHECK(m == seg);
      double* d = reinterpret_cast<double*>(seg);
      for (std::size_t i = 0; i < seg_bytes / sizeof(double); ++i) d[i] = -1.0;
    }
  }
  ~Buffer() { munmap(base_, reserved_); }
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;

  double* block(std::size_t k) { return reinterpret_cast<double*>(base_ + k * seg_bytes_); }
  void* data() { return base_; }

 private:
  /// A memfd of one period holding pattern `seed`.
  static int pattern_fd(int seed) {
    const int fd = memfd_create("big_coll_pattern", 0);
    CHECK(fd >= 0);
    CHECK(ftruncate(fd, static_cast<off_t>(kPeriodBytes)) == 0);
    void* m = mmap(nullptr, kPeriodBytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    CHECK(m != MAP_FAILED);
    double* d = static_cast<double*>(m);
    for (std::size_t i = 0; i < kPeriod; ++i) d[i] = value(seed, i);
    munmap(m, kPeriodBytes);
    return fd;
  }

  std::size_t seg_bytes_;
  char* base_ = nullptr;
  std::size_t reserved_ = 0;
};

/// Every element of a received block equals fn(i); names the first wrong one.
template <class F>
void expect_block(const double* b, F fn, const char* what, std::size_t n = kBlockDoubles) {
  for (std::size_t i = 0; i < n; ++i) {
    if (b[i] != fn(i)) {
      int rank = -1;
      MPI_Comm_rank(MPI_COMM_WORLD, &rank);
      std::fprintf(stderr, "rank %d: %s: element %zu (byte %zu) is %.1f, expected %.1f\n", rank, what, i,
                   i * sizeof(double), b[i], fn(i));
      std::fflush(stderr);
      MPI_Abort(MPI_COMM_WORLD, 99);
    }
  }
}
void expect_pattern(const double* b, int seed, const char* what) {
  expect_block(b, [seed](std::size_t i) { return value(seed, i); }, what);
}

void user_sum(void* in, void* inout, int* len, MPI_Datatype* type) {
  int size = 0;
  MPI_Type_size(*type, &size);
  const std::size_t n = static_cast<std::size_t>(*len) * static_cast<std::size_t>(size) / sizeof(double);
  const double* a = static_cast<const double*>(in);
  double* b = static_cast<double*>(inout);
  for (std::size_t i = 0; i < n; ++i) b[i] += a[i];
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  CHECK(size == 2);
  CHECK(argc == 2);
  const std::string coll = argv[1];
  const int other = 1 - rank;
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

  // The derived type: kElem doubles, so counts stay small and the bytes cross 2 GiB.
  MPI_Datatype elem;
  MPI_Type_contiguous(static_cast<int>(kElem), MPI_DOUBLE, &elem);
  MPI_Type_commit(&elem);
  const int count = static_cast<int>(kCount);
  const int dcount = static_cast<int>(kBlockDoubles);  // the same block as doubles, for the ops
  const int counts[2] = {count, count};
  const int displs[2] = {0, count};
  auto seed = [](int from, int to) { return 1 + from * 2 + to; };  // the block `from` sends to `to`
  int rc = MPI_SUCCESS;

  if (coll == "bcast") {
    Buffer b({rank == 0 ? seed(0, 0) : -1});
    rc = MPI_Bcast(b.data(), count, elem, 0, MPI_COMM_WORLD);
    CHECK_EQ(rc, MPI_SUCCESS);
    if (rank == 1) expect_pattern(b.block(0), seed(0, 0), "bcast");
  } else if (coll == "gather" || coll == "gatherv") {
    // The root gathers in place: its own slot is its pattern, the other slot is real.
    Buffer s({seed(rank, 0)});
    Buffer r({seed(0, 0), -1});
    const void* sb = rank == 0 ? MPI_IN_PLACE : s.data();
    rc = coll == "gather" ? MPI_Gather(sb, count, elem, r.data(), count, elem, 0, MPI_COMM_WORLD)
                          : MPI_Gatherv(sb, count, elem, r.data(), counts, displs, elem, 0, MPI_COMM_WORLD);
    CHECK_EQ(rc, MPI_SUCCESS);
    if (rank == 0) expect_pattern(r.block(1), seed(1, 0), coll.c_str());
  } else if (coll == "scatter" || coll == "scatterv") {
    Buffer s({seed(0, 0), seed(0, 1)});
    Buffer r({-1});
    void* rb = rank == 0 ? MPI_IN_PLACE : r.data();
    rc = coll == "scatter" ? MPI_Scatter(s.data(), count, elem, rb, count, elem, 0, MPI_COMM_WORLD)
                           : MPI_Scatterv(s.data(), counts, displs, elem, rb, count, elem, 0, MPI_COMM_WORLD);
    CHECK_EQ(rc, MPI_SUCCESS);
    if (rank == 1) expect_pattern(r.block(0), seed(0, 1), coll.c_str());
  } else if (coll == "allgather" || coll == "allgatherv") {
    Buffer r({rank == 0 ? seed(0, 0) : -1, rank == 1 ? seed(1, 1) : -1});
    rc = coll == "allgather" ? MPI_Allgather(MPI_IN_PLACE, 0, elem, r.data(), count, elem, MPI_COMM_WORLD)
                             : MPI_Allgatherv(MPI_IN_PLACE, 0, elem, r.data(), counts, displs, elem, MPI_COMM_WORLD);
    CHECK_EQ(rc, MPI_SUCCESS);
    expect_pattern(r.block(static_cast<std::size_t>(other)), seed(other, other), coll.c_str());
  } else if (coll == "alltoall" || coll == "alltoallv") {
    // The own block travels sbuf -> rbuf through the same pattern pages: it rewrites equal values.
    Buffer s({seed(rank, 0), seed(rank, 1)});
    Buffer r({rank == 0 ? seed(0, 0) : -1, rank == 1 ? seed(1, 1) : -1});
    rc = coll == "alltoall"
             ? MPI_Alltoall(s.data(), count, elem, r.data(), count, elem, MPI_COMM_WORLD)
             : MPI_Alltoallv(s.data(), counts, displs, elem, r.data(), counts, displs, elem, MPI_COMM_WORLD);
    CHECK_EQ(rc, MPI_SUCCESS);
    expect_pattern(r.block(static_cast<std::size_t>(other)), seed(other, rank), coll.c_str());
  } else if (coll == "reduce" || coll == "allreduce" || coll == "scan" || coll == "exscan" ||
             coll == "allreduce_user") {
    Buffer s({seed(rank, 0)});
    Buffer r({-1});
    const bool result_here = coll == "allreduce" || coll == "allreduce_user" || (coll == "reduce" && rank == 0) ||
                             coll == "scan" || (coll == "exscan" && rank == 1);
    if (coll == "reduce") rc = MPI_Reduce(s.data(), r.data(), dcount, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    if (coll == "allreduce") rc = MPI_Allreduce(s.data(), r.data(), dcount, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    if (coll == "scan") rc = MPI_Scan(s.data(), r.data(), dcount, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    if (coll == "exscan") rc = MPI_Exscan(s.data(), r.data(), dcount, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    if (coll == "allreduce_user") {
      // A user function on the derived type: it sees kElem-double elements.
      MPI_Op op;
      MPI_Op_create(user_sum, 1, &op);
      rc = MPI_Allreduce(s.data(), r.data(), count, elem, op, MPI_COMM_WORLD);
      MPI_Op_free(&op);
    }
    CHECK_EQ(rc, MPI_SUCCESS);
    if (result_here) {
      const bool both = !(coll == "scan" && rank == 0) && coll != "exscan";
      const int s0 = seed(0, 0), s1 = seed(1, 0);
      if (both)
        expect_block(r.block(0), [=](std::size_t i) { return value(s0, i) + value(s1, i); }, coll.c_str());
      else
        expect_pattern(r.block(0), s0, coll.c_str());  // scan at rank 0, exscan at rank 1
    }
  } else if (coll == "reduce_scatter" || coll == "reduce_scatter_block") {
    // Half blocks: the vector reduced (2 GiB + 8 MiB) crosses the boundary, each rank's share is
    // half of it; whole blocks would need a reduction of 4 GiB (over 16 GiB in all).
    const std::size_t half = kBlockBytes / 2;
    Buffer s({seed(rank, 0), seed(rank, 1)}, half);
    Buffer r({-1}, half);
    const int hcount = dcount / 2;
    const int dcounts[2] = {hcount, hcount};
    rc = coll == "reduce_scatter"
             ? MPI_Reduce_scatter(s.data(), r.data(), dcounts, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD)
             : MPI_Reduce_scatter_block(s.data(), r.data(), hcount, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    CHECK_EQ(rc, MPI_SUCCESS);
    const int s0 = seed(0, rank), s1 = seed(1, rank);
    expect_block(r.block(0), [=](std::size_t i) { return value(s0, i) + value(s1, i); }, coll.c_str(),
                 kBlockDoubles / 2);
  } else {
    std::fprintf(stderr, "big_coll: unknown collective '%s'\n", coll.c_str());
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  MPI_Type_free(&elem);
  if (rank == 0) std::printf("big_coll %s: %zu bytes per block, every element checked\n", coll.c_str(), kBlockBytes);
  MPI_Finalize();
  return 0;
}
