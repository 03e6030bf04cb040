// Collectives whose arguments are wrong at some ranks only (root-only or rank-specific arguments),
// under MPI_ERRORS_RETURN: the wrong rank gets its error class, the others complete or are told
// (MPI_ERR_OTHER where they wait for a message), and the next collective on the communicator
// gets its own data, never the failed call's messages (mpi/coll/call_sequence.cpp). Run with
// more ranks than cores, bcast and scatter linear (tests/mpi/coll_rank_hangs.cpp has the rest).
#include <mpi.h>

#include <cstdio>
#include <vector>

#include "conformance.h"

namespace {

int rank_ = 0, size_ = 0;

void expect_data(bool ok, const char* what, int line) {
  conformance::expect_class(ok ? MPI_SUCCESS : MPI_ERR_OTHER, MPI_SUCCESS, what, line);
}

/// A rank whose own arguments are right may be told that the call failed at another member
/// (its error notice, mpi/coll/call_sequence.cpp): where it waits for a message, it may then
/// return MPI_ERR_OTHER instead of completing.
void expect_class_or_told(int rc, int want, const char* call, int line) {
  if (want == MPI_SUCCESS && conformance::error_class_of(rc) == MPI_ERR_OTHER) want = MPI_ERR_OTHER;
  conformance::expect_class(rc, want, call, line);
}
#define EXPECT_CLASS_OR_TOLD(call, cls) expect_class_or_told((call), (cls), #call, __LINE__)

/// A correct MPI_Gather and MPI_Gatherv after a failed call: every block is this call's.
void gather_is_right(int root, int tag, int line) {
  std::vector<int> all(static_cast<std::size_t>(size_), -1);
  int mine = tag * 100 + rank_;
  EXPECT_CLASS(MPI_Gather(&mine, 1, MPI_INT, all.data(), 1, MPI_INT, root, MPI_COMM_WORLD), MPI_SUCCESS);
  bool ok = true;
  if (rank_ == root)
    for (int i = 0; i < size_; ++i) ok = ok && all[static_cast<std::size_t>(i)] == tag * 100 + i;
  expect_data(ok, "MPI_Gather after the failed call", line);
  std::vector<int> counts(static_cast<std::size_t>(size_), 1), displs(static_cast<std::size_t>(size_));
  for (int i = 0; i < size_; ++i) displs[static_cast<std::size_t>(i)] = size_ - 1 - i;
  all.assign(static_cast<std::size_t>(size_), -1);
  mine = tag * 100 + 50 + rank_;
  EXPECT_CLASS(MPI_Gatherv(&mine, 1, MPI_INT, all.data(), counts.data(), displs.data(), MPI_INT, root, MPI_COMM_WORLD),
               MPI_SUCCESS);
  ok = true;
  if (rank_ == root)
    for (int i = 0; i < size_; ++i) ok = ok && all[static_cast<std::size_t>(size_ - 1 - i)] == tag * 100 + 50 + i;
  expect_data(ok, "MPI_Gatherv after the failed call", line);
}

/// The root's recvcounts and displacements are the root's only: a negative count there.
void gatherv_bad_root_count() {
  const int root = size_ - 1;
  std::vector<int> counts(static_cast<std::size_t>(size_), 1), displs(static_cast<std::size_t>(size_)), all(
      static_cast<std::size_t>(size_), -1);
  for (int i = 0; i < size_; ++i) displs[static_cast<std::size_t>(i)] = i;
  counts[0] = -1;
  int mine = 1000 + rank_;
  EXPECT_CLASS_OR_TOLD(MPI_Gatherv(&mine, 1, MPI_INT, all.data(), counts.data(), displs.data(), MPI_INT, root, MPI_COMM_WORLD),
               rank_ == root ? MPI_ERR_COUNT : MPI_SUCCESS);
  EXPECT_CLASS_OR_TOLD(MPI_Gatherv(&mine, 1, MPI_INT, all.data(), nullptr, displs.data(), MPI_INT, root, MPI_COMM_WORLD),
               rank_ == root ? MPI_ERR_ARG : MPI_SUCCESS);
  gather_is_right(root, 1, __LINE__);
}

/// Large contributions (sent by rendezvous): the root's drain releases their senders.
void gatherv_bad_root_count_large() {
  const int root = 0;
  const int n = 1 << 16;  // 256 KiB per rank
  std::vector<int> mine(static_cast<std::size_t>(n), rank_);
  std::vector<int> counts(static_cast<std::size_t>(size_), n), displs(static_cast<std::size_t>(size_));
  for (int i = 0; i < size_; ++i) displs[static_cast<std::size_t>(i)] = i * n;
  std::vector<int> all(rank_ == root ? static_cast<std::size_t>(n) * static_cast<std::size_t>(size_) : 1, -1);
  counts[static_cast<std::size_t>(size_ - 1)] = -5;
  EXPECT_CLASS_OR_TOLD(MPI_Gatherv(mine.data(), n, MPI_INT, all.data(), counts.data(), displs.data(), MPI_INT, root, MPI_COMM_WORLD),
               rank_ == root ? MPI_ERR_COUNT : MPI_SUCCESS);
  counts[static_cast<std::size_t>(size_ - 1)] = n;
  for (int& v : mine) v = 7 * rank_ + 1;
  EXPECT_CLASS(MPI_Gatherv(mine.data(), n, MPI_INT, all.data(), counts.data(), displs.data(), MPI_INT, root, MPI_COMM_WORLD),
               MPI_SUCCESS);
  bool ok = true;
  if (rank_ == root)
    for (std::size_t i = 0; i < all.size(); ++i) ok = ok && all[i] == 7 * static_cast<int>(i / static_cast<std::size_t>(n)) + 1;
  expect_data(ok, "large MPI_Gatherv after the failed one", __LINE__);
  gather_is_right(root, 2, __LINE__);
}

/// The root's receive buffer of MPI_Gather and MPI_Reduce.
void gather_reduce_bad_root_buffer() {
  const int root = 1 % size_;
  int mine = rank_ + 1;
  EXPECT_CLASS_OR_TOLD(MPI_Gather(&mine, 1, MPI_INT, nullptr, 1, MPI_INT, root, MPI_COMM_WORLD),
               rank_ == root ? MPI_ERR_BUFFER : MPI_SUCCESS);
  gather_is_right(root, 3, __LINE__);
  int sum = -1;
  EXPECT_CLASS_OR_TOLD(MPI_Reduce(&mine, rank_ == root ? MPI_IN_PLACE : &sum, 1, MPI_INT, MPI_SUM, root, MPI_COMM_WORLD),
               rank_ == root ? MPI_ERR_BUFFER : MPI_SUCCESS);
  mine = 10 * (rank_ + 1);
  EXPECT_CLASS(MPI_Reduce(&mine, &sum, 1, MPI_INT, MPI_SUM, root, MPI_COMM_WORLD), MPI_SUCCESS);
  expect_data(rank_ != root || sum == 10 * size_ * (size_ + 1) / 2, "MPI_Reduce after the failed one", __LINE__);
}

/// A receiving rank's own count or buffer (bcast and scatter linear: every non-root is a leaf).
void bcast_scatter_bad_leaf() {
  const int root = 0, bad = size_ - 1;
  int v = rank_ == root ? 42 : -1;
  EXPECT_CLASS_OR_TOLD(MPI_Bcast(&v, rank_ == bad ? -1 : 1, MPI_INT, root, MPI_COMM_WORLD),
               rank_ == bad && bad != root ? MPI_ERR_COUNT : MPI_SUCCESS);
  v = rank_ == root ? 43 : -1;
  EXPECT_CLASS(MPI_Bcast(&v, 1, MPI_INT, root, MPI_COMM_WORLD), MPI_SUCCESS);
  expect_data(v == 43, "MPI_Bcast after the failed one", __LINE__);
  std::vector<int> blocks(static_cast<std::size_t>(size_));
  for (int i = 0; i < size_; ++i) blocks[static_cast<std::size_t>(i)] = 500 + i;
  int got = -1;
  EXPECT_CLASS_OR_TOLD(MPI_Scatter(blocks.data(), 1, MPI_INT, rank_ == bad ? nullptr : &got, 1, MPI_INT, root, MPI_COMM_WORLD),
               rank_ == bad && bad != root ? MPI_ERR_BUFFER : MPI_SUCCESS);
  for (int i = 0; i < size_; ++i) blocks[static_cast<std::size_t>(i)] = 600 + i;
  got = -1;
  EXPECT_CLASS(MPI_Scatter(blocks.data(), 1, MPI_INT, &got, 1, MPI_INT, root, MPI_COMM_WORLD), MPI_SUCCESS);
  expect_data(got == 600 + rank_, "MPI_Scatter after the failed one", __LINE__);
}

/// The non-blocking forms: the root's MPI_Igatherv fails at once, the others' complete.
void igatherv_bad_root_count() {
  const int root = 0;
  std::vector<int> counts(static_cast<std::size_t>(size_), 1), displs(static_cast<std::size_t>(size_)), all(
      static_cast<std::size_t>(size_), -1);
  for (int i = 0; i < size_; ++i) displs[static_cast<std::size_t>(i)] = i;
  counts[static_cast<std::size_t>(size_ - 1)] = -1;
  int mine = 3000 + rank_;
  MPI_Request r = MPI_REQUEST_NULL;
  EXPECT_CLASS_OR_TOLD(MPI_Igatherv(&mine, 1, MPI_INT, all.data(), counts.data(), displs.data(), MPI_INT, root, MPI_COMM_WORLD, &r),
               rank_ == root ? MPI_ERR_COUNT : MPI_SUCCESS);
  EXPECT_CLASS_OR_TOLD(MPI_Wait(&r, MPI_STATUS_IGNORE), MPI_SUCCESS);
  mine = 4000 + rank_;
  EXPECT_CLASS(MPI_Igather(&mine, 1, MPI_INT, all.data(), 1, MPI_INT, root, MPI_COMM_WORLD, &r), MPI_SUCCESS);
  EXPECT_CLASS(MPI_Wait(&r, MPI_STATUS_IGNORE), MPI_SUCCESS);
  bool ok = true;
  if (rank_ == root)
    for (int i = 0; i < size_; ++i) ok = ok && all[static_cast<std::size_t>(i)] == 4000 + i;
  expect_data(ok, "MPI_Igather after the failed MPI_Igatherv", __LINE__);
  gather_is_right(root, 4, __LINE__);
}

/// An intercommunicator's rooted collective: the root's receive buffer is the root's only.
void intercomm_gather_bad_root_buffer() {
  const int low = rank_ < size_ / 2 ? 1 : 0;
  MPI_Comm half, inter;
  MPI_Comm_split(MPI_COMM_WORLD, low, rank_, &half);
  MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, low ? size_ / 2 : 0, 7, &inter);
  int local = 0, remote = 0;
  MPI_Comm_rank(half, &local);
  MPI_Comm_remote_size(inter, &remote);
  // The low group's first rank is the root; the high group sends.
  const int root = low ? (local == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0;
  std::vector<int> all(static_cast<std::size_t>(remote), -1);
  int mine = 700 + rank_;
  EXPECT_CLASS_OR_TOLD(MPI_Gather(&mine, 1, MPI_INT, nullptr, 1, MPI_INT, root, inter),
               root == MPI_ROOT ? MPI_ERR_BUFFER : MPI_SUCCESS);
  mine = 800 + rank_;
  EXPECT_CLASS(MPI_Gather(&mine, 1, MPI_INT, all.data(), 1, MPI_INT, root, inter), MPI_SUCCESS);
  bool ok = true;
  if (root == MPI_ROOT)
    for (int i = 0; i < remote; ++i) ok = ok && all[static_cast<std::size_t>(i)] == 800 + size_ / 2 + i;
  expect_data(ok, "an intercommunicator MPI_Gather after the failed one", __LINE__);
  MPI_Comm_free(&inter);
  MPI_Comm_free(&half);
}

/// The window constructors are collective too: the group agrees on the arguments first, so a
/// wrong one at one rank makes no window anywhere and leaves nobody waiting.
void window_bad_arguments() {
  const int last = size_ - 1;
  int mem[4] = {0, 0, 0, 0};
  MPI_Win win = MPI_WIN_NULL;
  EXPECT_CLASS(MPI_Win_create(mem, sizeof mem, rank_ == last ? 0 : 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win), MPI_ERR_DISP);
  int* base = nullptr;
  EXPECT_CLASS(MPI_Win_allocate(rank_ == 0 ? -4 : 16, 4, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win), MPI_ERR_SIZE);
  EXPECT_CLASS(MPI_Win_allocate(16, 4, MPI_INFO_NULL, MPI_COMM_WORLD, rank_ == last ? nullptr : &base, &win), MPI_ERR_ARG);
  EXPECT_CLASS(MPI_Win_create(mem, sizeof mem, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win), MPI_SUCCESS);
  const int one = rank_ + 1;
  MPI_Win_fence(0, win);
  EXPECT_CLASS(MPI_Put(&one, 1, MPI_INT, (rank_ + 1) % size_, 0, 1, MPI_INT, win), MPI_SUCCESS);
  MPI_Win_fence(0, win);
  expect_data(mem[0] == (rank_ + size_ - 1) % size_ + 1, "a put through a window made after the errors", __LINE__);
  EXPECT_CLASS(MPI_Win_free(&win), MPI_SUCCESS);
}

/// A duplicate of the world made after the errors works: every rank derived the same contexts.
void dup_is_right(int line) {
  MPI_Comm d = MPI_COMM_NULL;
  EXPECT_CLASS(MPI_Comm_dup(MPI_COMM_WORLD, &d), MPI_SUCCESS);
  int sum = 0, one = 1;
  EXPECT_CLASS(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, d), MPI_SUCCESS);
  expect_data(sum == size_, "an allreduce on a duplicate made after the errors", line);
  MPI_Comm_free(&d);
}

/// The communicator constructors: a wrong argument at one rank gets its class there; the others
/// complete (a split without that rank), and the communicators made later still agree.
void communicator_bad_arguments() {
  const int last = size_ - 1;
  MPI_Comm c = MPI_COMM_NULL;
  EXPECT_CLASS(MPI_Comm_dup(MPI_COMM_WORLD, rank_ == 0 ? nullptr : &c), rank_ == 0 ? MPI_ERR_ARG : MPI_SUCCESS);
  if (c != MPI_COMM_NULL) MPI_Comm_free(&c);
  dup_is_right(__LINE__);
  EXPECT_CLASS(MPI_Comm_split(MPI_COMM_WORLD, rank_ == last ? -3 : 0, rank_, &c), rank_ == last ? MPI_ERR_ARG : MPI_SUCCESS);
  if (rank_ == last) {
    expect_data(c == MPI_COMM_NULL, "no communicator where the color was wrong", __LINE__);
  } else {
    int n = 0, sum = 0, one = 1;
    MPI_Comm_size(c, &n);
    EXPECT_CLASS(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, c), MPI_SUCCESS);
    expect_data(n == size_ - 1 && sum == size_ - 1, "the split of the good ranks", __LINE__);
    MPI_Comm_free(&c);
  }
  EXPECT_CLASS(MPI_Comm_split_type(MPI_COMM_WORLD, rank_ == 0 ? 12345 : MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &c),
               rank_ == 0 ? MPI_ERR_ARG : MPI_SUCCESS);
  if (c != MPI_COMM_NULL) MPI_Comm_free(&c);
  MPI_Group world_group;
  MPI_Comm_group(MPI_COMM_WORLD, &world_group);
  EXPECT_CLASS(MPI_Comm_create(MPI_COMM_WORLD, rank_ == last ? MPI_GROUP_NULL : world_group, &c),
               rank_ == last ? MPI_ERR_GROUP : MPI_SUCCESS);
  if (c != MPI_COMM_NULL) MPI_Comm_free(&c);  // holds the wrong rank, which has no such communicator: unused
  MPI_Group_free(&world_group);
  dup_is_right(__LINE__);
  // Cartesian: a wrong dimension at one rank; a NULL remain_dims at another in MPI_Cart_sub.
  int dims[2] = {1, size_}, periods[2] = {0, 0};
  int bad_dims[2] = {0, size_};
  EXPECT_CLASS(MPI_Cart_create(MPI_COMM_WORLD, 2, rank_ == last ? bad_dims : dims, periods, 0, &c),
               rank_ == last ? MPI_ERR_DIMS : MPI_SUCCESS);
  if (c != MPI_COMM_NULL) MPI_Comm_free(&c);
  dup_is_right(__LINE__);
  EXPECT_CLASS(MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &c), MPI_SUCCESS);
  const int remain[2] = {0, 1};
  MPI_Comm row = MPI_COMM_NULL;
  EXPECT_CLASS(MPI_Cart_sub(c, rank_ == 0 ? nullptr : remain, &row), rank_ == 0 ? MPI_ERR_ARG : MPI_SUCCESS);
  if (row != MPI_COMM_NULL) {
    int n = 0;
    MPI_Comm_size(row, &n);
    expect_data(n == size_ - 1, "the Cartesian sub-grid of the good ranks", __LINE__);
    MPI_Comm_free(&row);
  }
  MPI_Comm_free(&c);
  dup_is_right(__LINE__);
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  if (size_ > 1) {
    gatherv_bad_root_count();
    gatherv_bad_root_count_large();
    gather_reduce_bad_root_buffer();
    bcast_scatter_bad_leaf();
    igatherv_bad_root_count();
    intercomm_gather_bad_root_buffer();
  }
  window_bad_arguments();
  communicator_bad_arguments();
  EXPECT_USABLE();
  return conformance::finish("coll_rank_errors");
}
