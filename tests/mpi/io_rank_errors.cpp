// Collective MPI-IO calls with a wrong argument at some ranks only: the wrong rank gets its error
// class, the others complete (nothing waits for a rank that returned), and the file holds what
// the good ranks wrote. Files go to the working directory, named after the job.
#include <mpi.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "conformance.h"

namespace {

int rank_ = 0, size_ = 0;
std::string base;

void expect_data(bool ok, const char* what, int line) {
  conformance::expect_class(ok ? MPI_SUCCESS : MPI_ERR_OTHER, MPI_SUCCESS, what, line);
}

/// Open: the group agrees on its arguments; a wrong amode at one rank opens the file nowhere.
void open_bad_amode() {
  const std::string path = base + ".open";
  const int last = size_ - 1;
  MPI_File fh = 12345;
  const int amode = rank_ == last ? MPI_MODE_RDONLY | MPI_MODE_CREATE : MPI_MODE_CREATE | MPI_MODE_RDWR;
  EXPECT_CLASS(MPI_File_open(MPI_COMM_WORLD, path.c_str(), amode, MPI_INFO_NULL, &fh), MPI_ERR_AMODE);
  expect_data(fh == MPI_FILE_NULL, "no rank has the file open", __LINE__);
  expect_data(access(path.c_str(), F_OK) != 0, "the file was not created", __LINE__);
  MPI_Barrier(MPI_COMM_WORLD);
  // A NULL handle pointer at rank 0: every rank hears of it.
  EXPECT_CLASS(MPI_File_open(MPI_COMM_WORLD, path.c_str(), MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL,
                             rank_ == 0 ? nullptr : &fh),
               MPI_ERR_ARG);
  EXPECT_CLASS(MPI_File_open(MPI_COMM_WORLD, path.c_str(), MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE,
                             MPI_INFO_NULL, &fh),
               MPI_SUCCESS);
  EXPECT_CLASS(MPI_File_close(&fh), MPI_SUCCESS);
}

/// set_view, the ordered accesses, set_size, preallocate, seek_shared, and the accesses that are
/// each rank's own, each with a wrong argument at one rank.
void collective_calls() {
  const std::string path = base + ".calls";
  const int last = size_ - 1;
  MPI_File fh;
  EXPECT_CLASS(MPI_File_open(MPI_COMM_WORLD, path.c_str(), MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE,
                             MPI_INFO_NULL, &fh),
               MPI_SUCCESS);
  // set_view: a negative displacement at the last rank, an unknown representation at rank 0.
  EXPECT_CLASS(MPI_File_set_view(fh, rank_ == last ? -1 : 0, MPI_INT, MPI_INT, "native", MPI_INFO_NULL),
               rank_ == last ? MPI_ERR_ARG : MPI_SUCCESS);
  EXPECT_CLASS(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, rank_ == 0 ? "external32" : "native", MPI_INFO_NULL),
               rank_ == 0 ? MPI_ERR_UNSUPPORTED_DATAREP : MPI_SUCCESS);
  EXPECT_CLASS(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "native", MPI_INFO_NULL), MPI_SUCCESS);
  // write_ordered: rank 1 passes a negative count and writes nothing; the others follow each
  // other in rank order without a gap.
  const int bad = 1 % size_;
  int block[2] = {10 * rank_, 10 * rank_ + 1};
  EXPECT_CLASS(MPI_File_write_ordered(fh, block, rank_ == bad ? -1 : 2, MPI_INT, MPI_STATUS_IGNORE),
               rank_ == bad ? MPI_ERR_COUNT : MPI_SUCCESS);
  std::vector<int> want;
  for (int r = 0; r < size_; ++r)
    if (r != bad) want.insert(want.end(), {10 * r, 10 * r + 1});
  // The group sees the writes after sync, barrier, sync (MPI-3.1 §13.6.1).
  EXPECT_CLASS(MPI_File_sync(fh), MPI_SUCCESS);
  MPI_Barrier(MPI_COMM_WORLD);
  EXPECT_CLASS(MPI_File_sync(fh), MPI_SUCCESS);
  std::vector<int> got(want.size(), -1);
  EXPECT_CLASS(MPI_File_read_at_all(fh, 0, got.data(), static_cast<int>(got.size()), MPI_INT, MPI_STATUS_IGNORE),
               MPI_SUCCESS);
  expect_data(got == want, "the ordered write of the good ranks", __LINE__);
  // read_ordered with an uncommitted type at the last rank.
  MPI_Datatype loose;
  MPI_Type_contiguous(2, MPI_INT, &loose);
  int one = -1;
  EXPECT_CLASS(MPI_File_seek_shared(fh, 0, MPI_SEEK_SET), MPI_SUCCESS);
  EXPECT_CLASS(MPI_File_read_ordered(fh, &one, 1, rank_ == last ? loose : MPI_INT, MPI_STATUS_IGNORE),
               rank_ == last ? MPI_ERR_TYPE : MPI_SUCCESS);
  expect_data(rank_ == last || one == want[static_cast<std::size_t>(rank_)], "the ordered read of the good ranks", __LINE__);
  MPI_Type_free(&loose);
  // The accesses that are each rank's own: a negative offset, a negative count.
  EXPECT_CLASS(MPI_File_read_at_all(fh, rank_ == last ? -1 : 0, &one, 1, MPI_INT, MPI_STATUS_IGNORE),
               rank_ == last ? MPI_ERR_ARG : MPI_SUCCESS);
  EXPECT_CLASS(MPI_File_write_all(fh, block, rank_ == last ? -1 : 0, MPI_INT, MPI_STATUS_IGNORE),
               rank_ == last ? MPI_ERR_COUNT : MPI_SUCCESS);
  // seek_shared: a whence that is no MPI_SEEK_ value at the last rank, then at rank 0 (which
  // moves the pointer for the group: the others hear that it did not).
  EXPECT_CLASS(MPI_File_seek_shared(fh, 3, rank_ == last ? 77 : MPI_SEEK_SET), rank_ == last ? MPI_ERR_ARG : MPI_SUCCESS);
  MPI_Offset at = -1;
  EXPECT_CLASS(MPI_File_get_position_shared(fh, &at), MPI_SUCCESS);
  expect_data(at == 3, "the shared pointer moved for the good ranks", __LINE__);
  MPI_Barrier(MPI_COMM_WORLD);  // every rank has looked before the next change
  EXPECT_CLASS(MPI_File_seek_shared(fh, 1, rank_ == 0 ? 77 : MPI_SEEK_SET), MPI_ERR_ARG);
  EXPECT_CLASS(MPI_File_get_position_shared(fh, &at), MPI_SUCCESS);
  expect_data(at == 3, "the shared pointer did not move", __LINE__);
  MPI_Barrier(MPI_COMM_WORLD);  // every rank has looked before the next change
  // set_size and preallocate: a negative size at the last rank (rank 0 resizes for the group),
  // then at rank 0 (nothing happens, and every rank hears why).
  EXPECT_CLASS(MPI_File_set_size(fh, rank_ == last ? -8 : 64), rank_ == last ? MPI_ERR_ARG : MPI_SUCCESS);
  MPI_Offset bytes = -1;
  EXPECT_CLASS(MPI_File_get_size(fh, &bytes), MPI_SUCCESS);
  expect_data(bytes == 64, "set_size of the good ranks", __LINE__);
  MPI_Barrier(MPI_COMM_WORLD);  // every rank has looked before the next change
  EXPECT_CLASS(MPI_File_set_size(fh, rank_ == 0 ? -8 : 32), MPI_ERR_ARG);
  EXPECT_CLASS(MPI_File_get_size(fh, &bytes), MPI_SUCCESS);
  expect_data(bytes == 64, "set_size that rank 0 refused", __LINE__);
  MPI_Barrier(MPI_COMM_WORLD);  // every rank has looked before the next change
  EXPECT_CLASS(MPI_File_preallocate(fh, rank_ == last ? -1 : 128), rank_ == last ? MPI_ERR_ARG : MPI_SUCCESS);
  EXPECT_CLASS(MPI_File_get_size(fh, &bytes), MPI_SUCCESS);
  expect_data(bytes == 128, "preallocate of the good ranks", __LINE__);
  EXPECT_CLASS(MPI_File_close(&fh), MPI_SUCCESS);
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  char prefix[64] = {};
  if (rank_ == 0) std::snprintf(prefix, sizeof prefix, "io_rank_errors_%d", static_cast<int>(getpid()));
  MPI_Bcast(prefix, sizeof prefix, MPI_CHAR, 0, MPI_COMM_WORLD);
  base = prefix;
  open_bad_amode();
  collective_calls();
  EXPECT_USABLE();
  return conformance::finish("io_rank_errors");
}
