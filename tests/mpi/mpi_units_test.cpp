// Unit tests of the MPI layer inside one process (singleton init): datatype maps and packing,
// matching rules on self-messages, argument checks.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstring>
#include <numeric>
#include <vector>

#include "datatype.h"
#include "errors.h"
#include "payload_buffer.h"
#include "posted_receives.h"

using namespace tilempi::mpi;

TEST(Datatype, PredefinedSizes) {
  EXPECT_EQ(datatype_get(MPI_INT)->size, sizeof(int));
  EXPECT_EQ(datatype_get(MPI_DOUBLE_PRECISION)->size, 8u);
  EXPECT_EQ(datatype_get(MPI_DOUBLE_COMPLEX)->size, 16u);
  EXPECT_EQ(datatype_get(MPI_LOGICAL)->size, 4u);
  EXPECT_EQ(datatype_get(MPI_2INT)->size, 2 * sizeof(int));
  EXPECT_TRUE(datatype_get(MPI_DOUBLE)->contiguous);
  EXPECT_EQ(datatype_get(0), nullptr);
  EXPECT_EQ(datatype_get(100000), nullptr);
}

TEST(Datatype, VectorMapAndExtent) {
  const Datatype& d = *datatype_get(MPI_DOUBLE);
  Datatype v = make_hindexed(d, {2, 2, 2}, {0, 40, 80});  // 3 blocks of 2 doubles, stride 5 doubles
  EXPECT_EQ(v.size, 48u);
  EXPECT_EQ(v.extent, 96);
  EXPECT_EQ(v.blocks.size(), 3u);
  EXPECT_FALSE(v.contiguous);
  EXPECT_EQ(v.basic, MPI_DOUBLE);
  EXPECT_EQ(v.basic_count, 6u);
  Datatype c = make_hindexed(d, {4}, {0});
  EXPECT_TRUE(c.contiguous);
  EXPECT_EQ(c.blocks.size(), 1u);
}

TEST(Datatype, PackUnpackRoundTrip) {
  const Datatype& i = *datatype_get(MPI_INT);
  Datatype idx = make_hindexed(i, {1, 3}, {4 * 2, 4 * 6});  // ints 2, 6, 7, 8
  std::vector<int> src(20);
  std::iota(src.begin(), src.end(), 0);
  std::vector<int> packed(8);
  pack(src.data(), 2, idx, packed.data());  // two elements: extent is 9 ints (lb 2 .. 9)
  EXPECT_EQ(idx.lb, 8);
  EXPECT_EQ(idx.extent, 28);
  std::vector<int> expect = {2, 6, 7, 8, 9, 13, 14, 15};
  EXPECT_EQ(packed, expect);
  std::vector<int> back(20, -1);
  unpack(packed.data(), 5 * sizeof(int), 2, idx, back.data());  // a short message: 5 ints
  EXPECT_EQ(back[2], 2);
  EXPECT_EQ(back[8], 8);
  EXPECT_EQ(back[9], 9);
  EXPECT_EQ(back[13], -1);
}

TEST(Datatype, Resized) {
  const Datatype& i = *datatype_get(MPI_INT);
  Datatype r = make_resized(i, 0, 12);
  EXPECT_EQ(r.extent, 12);
  EXPECT_FALSE(r.contiguous);
  std::vector<int> src = {1, 0, 0, 2, 0, 0, 3};
  std::vector<int> out(3);
  pack(src.data(), 3, r, out.data());
  EXPECT_EQ(out, (std::vector<int>{1, 2, 3}));
}

TEST(Errors, Strings) {
  EXPECT_NE(std::string(error_string(MPI_ERR_RANK)).find("rank"), std::string::npos);
  EXPECT_EQ(error_string(9999), nullptr);
}

class Singleton : public ::testing::Test {
 protected:
  void SetUp() override { MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN); }
};

TEST_F(Singleton, WorldIsOneRank) {
  int size, rank;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  EXPECT_EQ(size, 1);
  EXPECT_EQ(rank, 0);
}

TEST_F(Singleton, SelfMessagesMatchInOrderByTag) {
  int a[3] = {10, 20, 30};
  MPI_Request s[3];
  for (int i = 0; i < 3; ++i) MPI_Isend(&a[i], 1, MPI_INT, 0, i == 1 ? 5 : 4, MPI_COMM_WORLD, &s[i]);
  int v;
  MPI_Status st;
  MPI_Recv(&v, 1, MPI_INT, 0, 5, MPI_COMM_WORLD, &st);
  EXPECT_EQ(v, 20);
  MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
  EXPECT_EQ(v, 10);
  EXPECT_EQ(st.MPI_TAG, 4);
  MPI_Recv(&v, 1, MPI_INT, 0, 4, MPI_COMM_WORLD, &st);
  EXPECT_EQ(v, 30);
  EXPECT_EQ(MPI_Waitall(3, s, MPI_STATUSES_IGNORE), MPI_SUCCESS);
}

TEST_F(Singleton, TruncationReportsClassAndCount) {
  char big[100];
  std::memset(big, 'a', sizeof big);
  MPI_Request s;
  MPI_Isend(big, 100, MPI_CHAR, 0, 1, MPI_COMM_WORLD, &s);
  char small[10];
  MPI_Status st;
  EXPECT_EQ(MPI_Recv(small, 10, MPI_CHAR, 0, 1, MPI_COMM_WORLD, &st), MPI_ERR_TRUNCATE);
  int count;
  MPI_Get_count(&st, MPI_CHAR, &count);
  EXPECT_EQ(count, 10);
  MPI_Wait(&s, MPI_STATUS_IGNORE);
}

TEST_F(Singleton, ProbeThenReceive) {
  double x[4] = {1, 2, 3, 4};
  MPI_Request s;
  MPI_Isend(x, 4, MPI_DOUBLE, 0, 9, MPI_COMM_WORLD, &s);
  int flag = 0;
  MPI_Status st;
  MPI_Iprobe(0, 9, MPI_COMM_WORLD, &flag, &st);
  ASSERT_EQ(flag, 1);
  int count;
  MPI_Get_count(&st, MPI_DOUBLE, &count);
  EXPECT_EQ(count, 4);
  MPI_Get_count(&st, MPI_INT, &count);
  EXPECT_EQ(count, static_cast<int>(4 * sizeof(double) / sizeof(int)));
  double y[4];
  MPI_Recv(y, 4, MPI_DOUBLE, 0, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  EXPECT_EQ(y[3], 4);
  MPI_Wait(&s, MPI_STATUS_IGNORE);
  MPI_Iprobe(0, 9, MPI_COMM_WORLD, &flag, &st);
  EXPECT_EQ(flag, 0);
}

TEST_F(Singleton, ArgumentClasses) {
  int v = 0;
  MPI_Request r;
  EXPECT_EQ(MPI_Isend(&v, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, &r), MPI_ERR_RANK);
  EXPECT_EQ(MPI_Isend(&v, 1, MPI_INT, 0, -3, MPI_COMM_WORLD, &r), MPI_ERR_TAG);
  EXPECT_EQ(MPI_Isend(&v, -1, MPI_INT, 0, 0, MPI_COMM_WORLD, &r), MPI_ERR_COUNT);
  EXPECT_EQ(MPI_Isend(&v, 1, 0, 0, 0, MPI_COMM_WORLD, &r), MPI_ERR_TYPE);
  EXPECT_EQ(MPI_Isend(&v, 1, MPI_INT, 0, 0, 77, &r), MPI_ERR_COMM);
  EXPECT_EQ(MPI_Isend(nullptr, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, &r), MPI_ERR_BUFFER);
  EXPECT_EQ(MPI_Isend(nullptr, 0, MPI_INT, 0, 0, MPI_COMM_WORLD, &r), MPI_SUCCESS);
  EXPECT_EQ(MPI_Wait(&r, MPI_STATUS_IGNORE), MPI_SUCCESS);
  MPI_Recv(nullptr, 0, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Request bad = 31337;
  int flag;
  EXPECT_EQ(MPI_Test(&bad, &flag, MPI_STATUS_IGNORE), MPI_ERR_REQUEST);
}

TEST_F(Singleton, CancelPendingReceive) {
  int v;
  MPI_Request r;
  MPI_Irecv(&v, 1, MPI_INT, 0, 77, MPI_COMM_WORLD, &r);
  MPI_Cancel(&r);
  MPI_Status st;
  MPI_Wait(&r, &st);
  int flag;
  MPI_Test_cancelled(&st, &flag);
  EXPECT_EQ(flag, 1);
}

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  MPI_Init(&argc, &argv);
  int rc = RUN_ALL_TESTS();
  MPI_Finalize();
  return rc;
}

// Buffers of unexpected messages: not zeroed, recycled by size class, the cache bounded.
TEST(PayloadBuffer, RecyclesFreedBlocksOfItsSizeClass) {
  const std::size_t before = PayloadBuffer::cached_bytes();
  char* first = nullptr;
  {
    PayloadBuffer a(30000);  // 32 KiB class
    ASSERT_NE(a.data(), nullptr);
    EXPECT_EQ(a.size(), 30000u);
    std::memset(a.data(), 0x5a, a.size());
    first = a.data();
  }
  EXPECT_EQ(PayloadBuffer::cached_bytes(), before + 32768);
  PayloadBuffer b(32768);  // the same class: the same block, taken from the cache
  EXPECT_EQ(b.data(), first);
  EXPECT_EQ(PayloadBuffer::cached_bytes(), before);
  PayloadBuffer c(40000);  // the next class: a block of its own
  EXPECT_NE(c.data(), first);
  PayloadBuffer moved(std::move(c));
  EXPECT_EQ(c.data(), nullptr);
  EXPECT_EQ(c.size(), 0u);
  EXPECT_EQ(moved.size(), 40000u);
  b = std::move(moved);  // b's block goes back to the cache
  EXPECT_EQ(b.size(), 40000u);
  EXPECT_EQ(PayloadBuffer::cached_bytes(), before + 32768);
}

TEST(PayloadBuffer, SmallAndHugeBlocksAreNotKeptAndTheCacheIsBounded) {
  const std::size_t before = PayloadBuffer::cached_bytes();
  { PayloadBuffer small(100), huge(8u << 20), none(0); EXPECT_EQ(none.data(), nullptr); }
  EXPECT_EQ(PayloadBuffer::cached_bytes(), before);
  {
    std::vector<PayloadBuffer> many;
    for (int i = 0; i < 40; ++i) many.emplace_back(1u << 20);  // 40 MiB in 1 MiB blocks
  }
  EXPECT_LE(PayloadBuffer::cached_bytes(), PayloadBuffer::kMaxCachedBytes);
  EXPECT_GE(PayloadBuffer::cached_bytes(), PayloadBuffer::kMaxCachedBytes - (std::size_t{1} << 20));
}

// The posted receives' table (posted_receives.h) against the rule it implements: of the posted
// receives that accept an arrival, the one posted first takes it. Random posts, arrivals and
// cancels over few sources, contexts and tags, so that keys collide, tables grow and entries are
// shifted back on deletion, compared step by step with a plain list in posting order.
TEST(PostedReceives, FirstPostedMatchingTakesTheMessage) {
  PostedReceives posted;
  PostedReceives::Requests requests;
  std::vector<MPI_Request> reference;  // posted, in posting order
  std::uint64_t rng = 12345;
  auto next = [&](std::uint64_t n) {
    rng = rng * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<int>((rng >> 33) % n);
  };
  for (int step = 0; step < 200000; ++step) {
    const int what = next(10);
    if (what < 5 || reference.empty()) {  // post a receive
      auto r = std::make_unique<Request>();
      r->kind = Request::Kind::Recv;
      r->context = static_cast<std::uint64_t>(next(3)) * 2;
      r->source = next(8) == 0 ? MPI_ANY_SOURCE : next(40);
      r->tag = next(6) == 0 ? MPI_ANY_TAG : next(3);
      const MPI_Request h = static_cast<MPI_Request>(requests.size());
      posted.push(h, *r);
      requests.push_back(std::move(r));
      reference.push_back(h);
    } else if (what < 9) {  // an arrival
      const std::uint64_t context = static_cast<std::uint64_t>(next(3)) * 2;
      const int source = next(40), tag = next(3);
      MPI_Request want = MPI_REQUEST_NULL;
      for (auto it = reference.begin(); it != reference.end(); ++it) {
        const Request& r = *requests[static_cast<std::size_t>(*it)];
        if (r.context == context && envelope::accepts(r.source, r.tag, source, tag)) {
          want = *it;
          reference.erase(it);
          break;
        }
      }
      ASSERT_EQ(posted.take(context, source, tag, requests), want) << "step " << step;
    } else {  // a cancel
      const std::size_t i = static_cast<std::size_t>(next(reference.size()));
      const MPI_Request h = reference[i];
      reference.erase(reference.begin() + static_cast<std::ptrdiff_t>(i));
      ASSERT_TRUE(posted.remove(h, *requests[static_cast<std::size_t>(h)])) << "step " << step;
      ASSERT_FALSE(posted.remove(h, *requests[static_cast<std::size_t>(h)])) << "step " << step;
    }
    ASSERT_EQ(posted.size(), reference.size());
    if (step % 1000 == 0) {
      ASSERT_EQ(posted.in_order(), reference) << "step " << step;
    }
  }
}
