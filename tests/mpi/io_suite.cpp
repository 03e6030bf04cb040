// MPI-IO through the launcher: explicit offsets, individual and shared pointers, nonblocking
// forms, sizes, a distributed 3D array written with one decomposition and read back with an
// interleaved other, and the error classes of bad calls. Files go to the working directory, named
// after the job, and are deleted at the end.
#include <mpi.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "check.h"

namespace {

int rank = 0, size = 1;
std::string base;  // per-job file name prefix

std::string name(const char* what) { return base + "." + what; }

void explicit_offsets() {
  MPI_File fh;
  CHECK_EQ(MPI_File_open(MPI_COMM_WORLD, name("at").c_str(), MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh),
           MPI_SUCCESS);
  std::vector<int> mine(100);
  for (int i = 0; i < 100; ++i) mine[static_cast<std::size_t>(i)] = rank * 1000 + i;
  MPI_Status st;
  MPI_File_write_at(fh, rank * 100 * sizeof(int), mine.data(), 100, MPI_INT, &st);
  int n = 0;
  MPI_Get_count(&st, MPI_INT, &n);
  CHECK_EQ(n, 100);
  MPI_File_sync(fh);
  MPI_Offset sz = 0;
  MPI_File_get_size(fh, &sz);
  CHECK_EQ(sz, static_cast<MPI_Offset>(size * 100 * sizeof(int)));
  std::vector<int> theirs(100, -1);
  const int other = (rank + 1) % size;
  MPI_File_read_at_all(fh, other * 100 * sizeof(int), theirs.data(), 100, MPI_INT, &st);
  for (int i = 0; i < 100; ++i) CHECK_EQ(theirs[static_cast<std::size_t>(i)], other * 1000 + i);
  // A read past the end stops there: the status says how much came.
  MPI_File_read_at(fh, sz - 2 * sizeof(int), theirs.data(), 10, MPI_INT, &st);
  MPI_Get_count(&st, MPI_INT, &n);
  CHECK_EQ(n, 2);
  MPI_Barrier(MPI_COMM_WORLD);  // every rank saw the size before any extends the file
  // Nonblocking forms.
  MPI_Request rq[2];
  int v = 77 + rank, back = 0;
  MPI_File_iwrite_at(fh, sz + rank * sizeof(int), &v, 1, MPI_INT, &rq[0]);
  MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
  MPI_File_iread_at(fh, sz + rank * sizeof(int), &back, 1, MPI_INT, &rq[1]);
  MPI_Wait(&rq[1], MPI_STATUS_IGNORE);
  CHECK_EQ(back, 77 + rank);
  MPI_Barrier(MPI_COMM_WORLD);
  // Sizes.
  MPI_File_set_size(fh, 40);
  MPI_File_get_size(fh, &sz);
  CHECK_EQ(sz, 40);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_File_preallocate(fh, 4096);
  MPI_File_get_size(fh, &sz);
  CHECK_EQ(sz, 4096);
  int amode = 0;
  MPI_File_get_amode(fh, &amode);
  CHECK_EQ(amode, MPI_MODE_CREATE | MPI_MODE_RDWR);
  MPI_Group g;
  MPI_File_get_group(fh, &g);
  int gs = 0;
  MPI_Group_size(g, &gs);
  CHECK_EQ(gs, size);
  MPI_Group_free(&g);
  CHECK_EQ(MPI_File_close(&fh), MPI_SUCCESS);
  CHECK_EQ(fh, MPI_FILE_NULL);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) CHECK_EQ(MPI_File_delete(name("at").c_str(), MPI_INFO_NULL), MPI_SUCCESS);
}

void pointers() {
  MPI_File fh;
  MPI_File_open(MPI_COMM_WORLD, name("ptr").c_str(), MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE,
                MPI_INFO_NULL, &fh);
  // Individual pointers with a view of ints from each rank's own region.
  MPI_File_set_view(fh, rank * 64 * sizeof(int), MPI_INT, MPI_INT, "native", MPI_INFO_NULL);
  std::vector<int> a(10);
  for (int i = 0; i < 10; ++i) a[static_cast<std::size_t>(i)] = rank * 100 + i;
  MPI_File_write(fh, a.data(), 4, MPI_INT, MPI_STATUS_IGNORE);
  MPI_File_write_all(fh, a.data() + 4, 6, MPI_INT, MPI_STATUS_IGNORE);
  MPI_Offset pos = 0;
  MPI_File_get_position(fh, &pos);
  CHECK_EQ(pos, 10);
  MPI_File_seek(fh, 2, MPI_SEEK_SET);
  int x = 0;
  MPI_File_read(fh, &x, 1, MPI_INT, MPI_STATUS_IGNORE);
  CHECK_EQ(x, rank * 100 + 2);
  MPI_File_seek(fh, -2, MPI_SEEK_CUR);
  MPI_Request rq;
  MPI_File_iread(fh, &x, 1, MPI_INT, &rq);
  MPI_Wait(&rq, MPI_STATUS_IGNORE);
  CHECK_EQ(x, rank * 100 + 1);
  MPI_File_seek(fh, 9, MPI_SEEK_SET);
  MPI_File_iwrite(fh, &x, 1, MPI_INT, &rq);
  MPI_Wait(&rq, MPI_STATUS_IGNORE);
  MPI_File_read_all(fh, &x, 0, MPI_INT, MPI_STATUS_IGNORE);
  MPI_Offset byte = 0;
  MPI_File_get_byte_offset(fh, 3, &byte);
  CHECK_EQ(byte, static_cast<MPI_Offset>((rank * 64 + 3) * sizeof(int)));
  // The shared pointer: every rank appends its rank twice, after a byte view at the end.
  MPI_Barrier(MPI_COMM_WORLD);
  const MPI_Offset region = static_cast<MPI_Offset>(size * 64 * sizeof(int));
  MPI_File_set_view(fh, region, MPI_INT, MPI_INT, "native", MPI_INFO_NULL);
  int two[2] = {rank, rank};
  MPI_File_write_shared(fh, two, 2, MPI_INT, MPI_STATUS_IGNORE);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_File_get_position_shared(fh, &pos);
  CHECK_EQ(pos, 2 * size);
  std::vector<int> all(static_cast<std::size_t>(2 * size));
  MPI_File_read_at(fh, 0, all.data(), 2 * size, MPI_INT, MPI_STATUS_IGNORE);
  std::vector<int> seen(static_cast<std::size_t>(size), 0);
  for (std::size_t i = 0; i < all.size(); i += 2) {
    CHECK_EQ(all[i], all[i + 1]);  // each rank's two ints stay together
    ++seen[static_cast<std::size_t>(all[i])];
  }
  for (int s : seen) CHECK_EQ(s, 1);
  // Ordered: rank order after the shared pointer.
  MPI_File_write_ordered(fh, &rank, 1, MPI_INT, MPI_STATUS_IGNORE);
  MPI_File_seek_shared(fh, 2 * size, MPI_SEEK_SET);
  int got = -1;
  MPI_File_read_ordered(fh, &got, 1, MPI_INT, MPI_STATUS_IGNORE);
  CHECK_EQ(got, rank);
  MPI_File_close(&fh);
  MPI_Barrier(MPI_COMM_WORLD);
  CHECK(access(name("ptr").c_str(), F_OK) != 0);  // MPI_MODE_DELETE_ON_CLOSE
}

// The shared pointer under contention: every rank appends 300 records (rank, sequence) at once,
// with write_shared, then iwrite_shared. Each record must land whole and exactly once, and the
// pointer must end after all of them (on host every rank moves the pointer with an atomic add in
// shared memory; a lost or doubled add shows here).
void shared_race() {
  MPI_File fh;
  CHECK_EQ(MPI_File_open(MPI_COMM_WORLD, name("race").c_str(), MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE,
                         MPI_INFO_NULL, &fh),
           MPI_SUCCESS);
  MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "native", MPI_INFO_NULL);
  constexpr int kEach = 300;
  for (int i = 0; i < kEach; ++i) {
    const int rec[2] = {rank, i};
    if (i % 3 == 2) {
      MPI_Request rq;
      MPI_File_iwrite_shared(fh, rec, 2, MPI_INT, &rq);
      MPI_Wait(&rq, MPI_STATUS_IGNORE);
    } else {
      MPI_File_write_shared(fh, rec, 2, MPI_INT, MPI_STATUS_IGNORE);
    }
  }
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Offset pos = -1;
  MPI_File_get_position_shared(fh, &pos);
  CHECK_EQ(pos, static_cast<MPI_Offset>(2 * kEach * size));
  if (rank == 0) {
    std::vector<int> all(static_cast<std::size_t>(2 * kEach * size), -1);
    MPI_File_read_at(fh, 0, all.data(), static_cast<int>(all.size()), MPI_INT, MPI_STATUS_IGNORE);
    std::vector<int> next(static_cast<std::size_t>(size), 0);  // a rank's records land in its order
    for (std::size_t i = 0; i < all.size(); i += 2) {
      const int r = all[i], seq = all[i + 1];
      CHECK(r >= 0 && r < size);
      if (r < 0 || r >= size) break;
      CHECK_EQ(seq, next[static_cast<std::size_t>(r)]);
      next[static_cast<std::size_t>(r)] = seq + 1;
    }
    for (int n : next) CHECK_EQ(n, kEach);
  }
  MPI_File_close(&fh);
}

// A global N x N x N array of ints, row-major [i][j][k]. Written by blocks of j (each rank's
// view a subarray n x nj x n), read back by blocks of k (n x n x nk): every rank's view
// interleaves with every other's.
void array3d() {
  const int n = 8;
  auto lo = [&](int r) { return r * n / size; };
  auto value = [](int i, int j, int k) { return i * 10000 + j * 100 + k; };
  MPI_File fh;
  MPI_File_open(MPI_COMM_WORLD, name("3d").c_str(), MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL, &fh);
  const int j0 = lo(rank), j1 = lo(rank + 1), nj = j1 - j0;
  std::vector<int> mine(static_cast<std::size_t>(n * nj * n));
  for (int i = 0; i < n; ++i)
    for (int j = j0; j < j1; ++j)
      for (int k = 0; k < n; ++k) mine[static_cast<std::size_t>((i * nj + (j - j0)) * n + k)] = value(i, j, k);
  const int sizes[3] = {n, n, n};
  const int slab_sizes[3] = {n, nj, n}, slab_starts[3] = {0, j0, 0};
  MPI_Datatype slab;
  MPI_Type_create_subarray(3, sizes, slab_sizes, slab_starts, MPI_ORDER_C, MPI_INT, &slab);
  MPI_Type_commit(&slab);
  MPI_File_set_view(fh, 0, MPI_INT, slab, "native", MPI_INFO_NULL);
  MPI_Status st;
  MPI_File_write_all(fh, mine.data(), static_cast<int>(mine.size()), MPI_INT, &st);
  int count = 0;
  MPI_Get_count(&st, MPI_INT, &count);
  CHECK_EQ(count, static_cast<int>(mine.size()));
  MPI_File_close(&fh);
  MPI_Type_free(&slab);

  MPI_File_open(MPI_COMM_WORLD, name("3d").c_str(), MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
  MPI_Offset sz = 0;
  MPI_File_get_size(fh, &sz);
  CHECK_EQ(sz, static_cast<MPI_Offset>(n * n * n * sizeof(int)));
  const int k0 = lo(rank), k1 = lo(rank + 1), nk = k1 - k0;
  const int column_sizes[3] = {n, n, nk}, column_starts[3] = {0, 0, k0};
  MPI_Datatype columns;
  MPI_Type_create_subarray(3, sizes, column_sizes, column_starts, MPI_ORDER_C, MPI_INT, &columns);
  MPI_Type_commit(&columns);
  MPI_File_set_view(fh, 0, MPI_INT, columns, "native", MPI_INFO_NULL);
  // Into a strided buffer: every other int.
  std::vector<int> got(static_cast<std::size_t>(2 * n * n * nk), -1);
  MPI_Datatype every_other;
  MPI_Type_vector(n * n * nk, 1, 2, MPI_INT, &every_other);
  MPI_Type_commit(&every_other);
  MPI_File_read_at_all(fh, 0, got.data(), 1, every_other, MPI_STATUS_IGNORE);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int k = k0; k < k1; ++k) CHECK_EQ(got[static_cast<std::size_t>(2 * ((i * n + j) * nk + (k - k0)))], value(i, j, k));
  MPI_Type_free(&every_other);
  MPI_Type_free(&columns);
  MPI_File_close(&fh);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) MPI_File_delete(name("3d").c_str(), MPI_INFO_NULL);
}

int count_of(const MPI_Status& st) {
  int c = -1;
  MPI_Get_count(&st, MPI_INT, &c);
  return c;
}

// Split collectives (..._begin / ..._end), nonblocking collectives (MPI_File_iread_all ...) and the
// nonblocking shared-pointer calls; their errors.
void split_and_nonblocking() {
  MPI_File fh;
  MPI_File_open(MPI_COMM_WORLD, name("split").c_str(), MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE,
                MPI_INFO_NULL, &fh);
  MPI_File_set_view(fh, rank * 32 * sizeof(int), MPI_INT, MPI_INT, "native", MPI_INFO_NULL);
  int a[8], b[8] = {};
  for (int i = 0; i < 8; ++i) a[i] = rank * 100 + i;
  MPI_Status st;
  // Explicit offsets: ints 0-1; the individual pointer: ints 0-3 again then 4-5; ordered below.
  CHECK_EQ(MPI_File_write_at_all_begin(fh, 0, a, 2, MPI_INT), MPI_SUCCESS);
  CHECK_EQ(MPI_File_write_at_all_begin(fh, 0, a, 2, MPI_INT), MPI_ERR_IO);  // one at a time
  CHECK_EQ(MPI_File_write_all_end(fh, a, &st), MPI_ERR_IO);                 // not the one begun
  CHECK_EQ(MPI_File_write_at_all_end(fh, b, &st), MPI_ERR_BUFFER);          // not its buffer
  CHECK_EQ(MPI_File_write_at_all_end(fh, a, &st), MPI_SUCCESS);
  CHECK_EQ(count_of(st), 2);
  CHECK_EQ(MPI_File_write_at_all_end(fh, a, &st), MPI_ERR_IO);  // nothing begun
  CHECK_EQ(MPI_File_read_at_all_begin(fh, 0, b, 2, MPI_INT), MPI_SUCCESS);
  CHECK_EQ(MPI_File_read_at_all_end(fh, b, &st), MPI_SUCCESS);
  CHECK_EQ(b[1], rank * 100 + 1);
  CHECK_EQ(MPI_File_write_all_begin(fh, a, 4, MPI_INT), MPI_SUCCESS);
  CHECK_EQ(MPI_File_write_all_end(fh, a, MPI_STATUS_IGNORE), MPI_SUCCESS);
  MPI_Request rq;
  CHECK_EQ(MPI_File_iwrite_all(fh, a + 4, 2, MPI_INT, &rq), MPI_SUCCESS);
  CHECK_EQ(MPI_Wait(&rq, &st), MPI_SUCCESS);
  CHECK_EQ(count_of(st), 2);
  MPI_Offset pos = 0;
  MPI_File_get_position(fh, &pos);
  CHECK_EQ(pos, 6);
  MPI_File_seek(fh, 0, MPI_SEEK_SET);
  CHECK_EQ(MPI_File_read_all_begin(fh, b, 3, MPI_INT), MPI_SUCCESS);
  CHECK_EQ(MPI_File_read_all_end(fh, b, &st), MPI_SUCCESS);
  CHECK_EQ(count_of(st), 3);
  CHECK_EQ(MPI_File_iread_all(fh, b + 3, 3, MPI_INT, &rq), MPI_SUCCESS);
  MPI_Wait(&rq, &st);
  CHECK_EQ(count_of(st), 3);
  for (int i = 0; i < 6; ++i) CHECK_EQ(b[i], rank * 100 + i);
  CHECK_EQ(MPI_File_iwrite_at_all(fh, 6, a + 6, 2, MPI_INT, &rq), MPI_SUCCESS);
  MPI_Wait(&rq, MPI_STATUS_IGNORE);
  CHECK_EQ(MPI_File_iread_at_all(fh, 7, b, 1, MPI_INT, &rq), MPI_SUCCESS);
  MPI_Wait(&rq, MPI_STATUS_IGNORE);
  CHECK_EQ(b[0], rank * 100 + 7);
  CHECK_EQ(MPI_File_iread_all(fh, b, 1, MPI_INT, nullptr), MPI_ERR_ARG);
  CHECK_EQ(MPI_File_iread_at_all(fh, -1, b, 1, MPI_INT, &rq), MPI_ERR_ARG);
  CHECK_EQ(MPI_File_read_all_begin(fh, b, -1, MPI_INT), MPI_ERR_COUNT);
  // The shared pointer, after everyone's region: ordered split, then nonblocking shared accesses.
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_File_set_view(fh, static_cast<MPI_Offset>(size * 32 * sizeof(int)), MPI_INT, MPI_INT, "native", MPI_INFO_NULL);
  CHECK_EQ(MPI_File_write_ordered_begin(fh, &rank, 1, MPI_INT), MPI_SUCCESS);
  CHECK_EQ(MPI_File_write_ordered_end(fh, &rank, &st), MPI_SUCCESS);
  CHECK_EQ(count_of(st), 1);
  MPI_File_seek_shared(fh, 0, MPI_SEEK_SET);
  int got = -1;
  CHECK_EQ(MPI_File_read_ordered_begin(fh, &got, 1, MPI_INT), MPI_SUCCESS);
  CHECK_EQ(MPI_File_read_ordered_end(fh, &got, MPI_STATUS_IGNORE), MPI_SUCCESS);
  CHECK_EQ(got, rank);
  int pair[2] = {rank, rank};
  CHECK_EQ(MPI_File_iwrite_shared(fh, pair, 2, MPI_INT, &rq), MPI_SUCCESS);  // after the ordered ints
  MPI_Wait(&rq, &st);
  CHECK_EQ(count_of(st), 2);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_File_seek_shared(fh, size, MPI_SEEK_SET);
  int back[2] = {-1, -1};
  CHECK_EQ(MPI_File_iread_shared(fh, back, 2, MPI_INT, &rq), MPI_SUCCESS);
  MPI_Wait(&rq, &st);
  CHECK_EQ(count_of(st), 2);
  CHECK(back[0] == back[1] && back[0] >= 0 && back[0] < size);  // some rank's pair, whole
  CHECK_EQ(MPI_File_iwrite_shared(fh, pair, 2, MPI_INT, nullptr), MPI_ERR_ARG);
  MPI_File_close(&fh);
}

// Hints (MPI_File_set_info/get_info) and a user's error handler on files.
int handled = 0, handled_code = 0;
MPI_File handled_file = MPI_FILE_NULL;
void on_file_error(MPI_File* fh, int* code, ...) {
  ++handled;
  handled_file = *fh;
  handled_code = *code;
}

void info_and_handlers() {
  MPI_Info info;
  MPI_Info_create(&info);
  MPI_Info_set(info, "access_style", "write_once");
  MPI_File fh;
  CHECK_EQ(MPI_File_open(MPI_COMM_WORLD, name("hints").c_str(), MPI_MODE_CREATE | MPI_MODE_WRONLY | MPI_MODE_DELETE_ON_CLOSE,
                         info, &fh),
           MPI_SUCCESS);
  MPI_Info_set(info, "cb_nodes", "1");
  CHECK_EQ(MPI_File_set_info(fh, info), MPI_SUCCESS);
  MPI_Info_free(&info);
  MPI_Info used;
  CHECK_EQ(MPI_File_get_info(fh, &used), MPI_SUCCESS);
  int nkeys = 0, flag = 0;
  char value[MPI_MAX_INFO_VAL];
  MPI_Info_get_nkeys(used, &nkeys);
  CHECK_EQ(nkeys, 2);
  MPI_Info_get(used, "access_style", MPI_MAX_INFO_VAL - 1, value, &flag);
  CHECK(flag && std::strcmp(value, "write_once") == 0);
  MPI_Info_free(&used);
  CHECK_EQ(MPI_File_set_info(fh, 12345), MPI_ERR_INFO);
  CHECK_EQ(MPI_File_get_info(fh, nullptr), MPI_ERR_ARG);
  CHECK_EQ(MPI_File_get_info(MPI_FILE_NULL, &used), MPI_ERR_FILE);
  // The user's handler on the file: called with the file and the class; the call returns it.
  MPI_Errhandler eh, got;
  CHECK_EQ(MPI_File_create_errhandler(on_file_error, &eh), MPI_SUCCESS);
  CHECK_EQ(MPI_File_set_errhandler(fh, eh), MPI_SUCCESS);
  MPI_File_get_errhandler(fh, &got);
  CHECK_EQ(got, eh);
  MPI_Errhandler_free(&got);
  int v = 0;
  CHECK_EQ(MPI_File_read_at(fh, 0, &v, 1, MPI_INT, MPI_STATUS_IGNORE), MPI_ERR_ACCESS);
  CHECK_EQ(handled, 1);
  CHECK_EQ(handled_file, fh);
  CHECK_EQ(handled_code, MPI_ERR_ACCESS);
  CHECK_EQ(MPI_File_call_errhandler(fh, MPI_ERR_IO), MPI_SUCCESS);
  CHECK_EQ(handled, 2);
  CHECK_EQ(handled_code, MPI_ERR_IO);
  // On MPI_FILE_NULL: what MPI_File_open reports to.
  CHECK_EQ(MPI_File_set_errhandler(MPI_FILE_NULL, eh), MPI_SUCCESS);
  MPI_File none;
  CHECK_EQ(MPI_File_open(MPI_COMM_WORLD, name("none").c_str(), MPI_MODE_RDONLY, MPI_INFO_NULL, &none),
           MPI_ERR_NO_SUCH_FILE);
  CHECK_EQ(handled, 3);
  CHECK_EQ(handled_file, MPI_FILE_NULL);
  CHECK_EQ(MPI_File_call_errhandler(MPI_FILE_NULL, MPI_ERR_OTHER), MPI_SUCCESS);
  CHECK_EQ(handled, 4);
  MPI_File_set_errhandler(MPI_FILE_NULL, MPI_ERRORS_RETURN);
  // A window's handler does not fit a file; bad arguments.
  MPI_Errhandler win_eh;
  MPI_Win_create_errhandler(reinterpret_cast<MPI_Win_errhandler_function*>(on_file_error), &win_eh);
  CHECK_EQ(MPI_File_set_errhandler(fh, win_eh), MPI_ERR_ARG);
  CHECK_EQ(handled, 5);
  MPI_Errhandler_free(&win_eh);
  CHECK_EQ(MPI_File_create_errhandler(nullptr, &got), MPI_ERR_ARG);
  CHECK_EQ(MPI_File_call_errhandler(12345, MPI_ERR_OTHER), MPI_ERR_FILE);
  MPI_Errhandler_free(&eh);
  MPI_File_set_errhandler(fh, MPI_ERRORS_RETURN);
  MPI_File_close(&fh);
}

void errors() {
  MPI_File fh = MPI_FILE_NULL;
  // The default handler of files returns.
  MPI_Errhandler eh;
  MPI_File_get_errhandler(MPI_FILE_NULL, &eh);
  CHECK_EQ(eh, MPI_ERRORS_RETURN);
  CHECK_EQ(MPI_File_open(MPI_COMM_WORLD, name("none").c_str(), MPI_MODE_RDONLY, MPI_INFO_NULL, &fh),
           MPI_ERR_NO_SUCH_FILE);
  CHECK_EQ(fh, MPI_FILE_NULL);
  CHECK_EQ(MPI_File_open(MPI_COMM_WORLD, name("x").c_str(), MPI_MODE_RDONLY | MPI_MODE_WRONLY, MPI_INFO_NULL, &fh),
           MPI_ERR_AMODE);
  CHECK_EQ(MPI_File_open(MPI_COMM_WORLD, name("x").c_str(), MPI_MODE_RDONLY | MPI_MODE_CREATE, MPI_INFO_NULL, &fh),
           MPI_ERR_AMODE);
  CHECK_EQ(MPI_File_delete(name("none").c_str(), MPI_INFO_NULL), MPI_ERR_NO_SUCH_FILE);
  CHECK_EQ(MPI_File_open(MPI_COMM_WORLD, name("ro").c_str(), MPI_MODE_CREATE | MPI_MODE_EXCL | MPI_MODE_WRONLY,
                         MPI_INFO_NULL, &fh),
           MPI_SUCCESS);
  int v = 1;
  CHECK_EQ(MPI_File_read_at(fh, 0, &v, 1, MPI_INT, MPI_STATUS_IGNORE), MPI_ERR_ACCESS);
  CHECK_EQ(MPI_File_write_at(fh, -1, &v, 1, MPI_INT, MPI_STATUS_IGNORE), MPI_ERR_ARG);
  CHECK_EQ(MPI_File_write_at(fh, 0, &v, -1, MPI_INT, MPI_STATUS_IGNORE), MPI_ERR_COUNT);
  CHECK_EQ(MPI_File_write_at(fh, 0, &v, 1, MPI_DATATYPE_NULL, MPI_STATUS_IGNORE), MPI_ERR_TYPE);
  CHECK_EQ(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "external32", MPI_INFO_NULL), MPI_ERR_UNSUPPORTED_DATAREP);
  CHECK_EQ(MPI_File_seek(fh, 0, 12345), MPI_ERR_ARG);
  MPI_File_close(&fh);
  CHECK_EQ(MPI_File_open(MPI_COMM_WORLD, name("ro").c_str(), MPI_MODE_CREATE | MPI_MODE_EXCL | MPI_MODE_WRONLY,
                         MPI_INFO_NULL, &fh),
           MPI_ERR_FILE_EXISTS);
  CHECK_EQ(MPI_File_open(MPI_COMM_WORLD, name("ro").c_str(), MPI_MODE_RDONLY, MPI_INFO_NULL, &fh), MPI_SUCCESS);
  CHECK_EQ(MPI_File_write_at(fh, 0, &v, 1, MPI_INT, MPI_STATUS_IGNORE), MPI_ERR_READ_ONLY);
  CHECK_EQ(MPI_File_set_size(fh, 0), MPI_ERR_READ_ONLY);
  MPI_File_close(&fh);
  CHECK_EQ(MPI_File_open(MPI_COMM_WORLD, name("ro").c_str(), MPI_MODE_WRONLY | MPI_MODE_SEQUENTIAL, MPI_INFO_NULL, &fh),
           MPI_SUCCESS);
  CHECK_EQ(MPI_File_seek(fh, 0, MPI_SEEK_SET), MPI_ERR_UNSUPPORTED_OPERATION);
  CHECK_EQ(MPI_File_write_at(fh, 0, &v, 1, MPI_INT, MPI_STATUS_IGNORE), MPI_ERR_UNSUPPORTED_OPERATION);
  MPI_File_close(&fh);
  CHECK_EQ(MPI_File_close(&fh), MPI_ERR_FILE);
  CHECK_EQ(MPI_File_get_size(12345, nullptr), MPI_ERR_FILE);
  MPI_Barrier(MPI_COMM_WORLD);
  // Append: the pointers start at the end.
  CHECK_EQ(MPI_File_open(MPI_COMM_WORLD, name("ro").c_str(), MPI_MODE_WRONLY | MPI_MODE_APPEND, MPI_INFO_NULL, &fh),
           MPI_SUCCESS);
  MPI_Offset pos = -1;
  MPI_File_get_position(fh, &pos);
  CHECK_EQ(pos, 0);  // the file is empty
  MPI_File_close(&fh);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) MPI_File_delete(name("ro").c_str(), MPI_INFO_NULL);
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  MPI_Error_string(MPI_ERR_NO_SUCH_FILE, text, &len);
  CHECK(std::strstr(text, "MPI_ERR_NO_SUCH_FILE") != nullptr);
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  char prefix[64] = {};
  if (rank == 0) std::snprintf(prefix, sizeof prefix, "io_suite_%d", static_cast<int>(getpid()));
  MPI_Bcast(prefix, sizeof prefix, MPI_CHAR, 0, MPI_COMM_WORLD);
  base = prefix;
  const std::map<std::string, std::function<void()>> cases = {
      {"explicit", explicit_offsets}, {"pointers", pointers}, {"array3d", array3d}, {"errors", errors},
      {"split", split_and_nonblocking}, {"info_handlers", info_and_handlers},
      {"shared_race", shared_race}};
  std::vector<std::string> chosen(argv + 1, argv + argc);
  if (chosen.empty())
    for (auto& [n, fn] : cases) chosen.push_back(n);
  for (const std::string& c : chosen) {
    auto it = cases.find(c);
    if (it == cases.end()) {
      if (rank == 0) std::fprintf(stderr, "io_suite: unknown case '%s'\n", c.c_str());
      MPI_Abort(MPI_COMM_WORLD, 2);
    }
    it->second();
    MPI_Barrier(MPI_COMM_WORLD);
  }
  MPI_Finalize();
  return 0;
}
