// One-sided communication through the launcher: every window flavor, every operation, every
// synchronization, and the error classes of bad calls (windows use MPI_ERRORS_RETURN here).
#include <mpi.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "check.h"

namespace {

int rank = 0, size = 1;

int right() { return (rank + 1) % size; }
int left() { return (rank + size - 1) % size; }

// Fence: every rank puts its rank into its right neighbour's window, gets from the left one,
// with a strided origin type; accumulates into rank 0.
void fence() {
  const int n = 64;
  std::vector<int> mem(n, -1);
  MPI_Win win;
  CHECK_EQ(MPI_Win_create(mem.data(), n * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win), MPI_SUCCESS);
  int flag = 0;
  int* model = nullptr;
  MPI_Win_get_attr(win, MPI_WIN_MODEL, &model, &flag);
  CHECK(flag && *model == MPI_WIN_UNIFIED);
  void* base = nullptr;
  MPI_Win_get_attr(win, MPI_WIN_BASE, &base, &flag);
  CHECK(flag && base == mem.data());
  MPI_Win_fence(MPI_MODE_NOPRECEDE, win);
  std::vector<int> src(2 * n);
  for (int i = 0; i < 2 * n; ++i) src[static_cast<std::size_t>(i)] = rank * 1000 + i;
  MPI_Datatype every_other;
  MPI_Type_vector(8, 1, 2, MPI_INT, &every_other);
  MPI_Type_commit(&every_other);
  // Elements 0, 2, ..., 14 of src into slots 8..15 of the right neighbour.
  MPI_Put(src.data(), 1, every_other, right(), 8, 8, MPI_INT, win);
  MPI_Win_fence(0, win);
  for (int i = 0; i < 8; ++i) CHECK_EQ(mem[static_cast<std::size_t>(8 + i)], left() * 1000 + 2 * i);
  // Get the left neighbour's slots 8..15 (holding its left's values) into a strided buffer.
  std::vector<int> got(16, -7);
  MPI_Get(got.data(), 1, every_other, left(), 8, 8, MPI_INT, win);
  MPI_Win_fence(0, win);
  const int ll = (rank + 2 * size - 2) % size;
  for (int i = 0; i < 8; ++i) {
    CHECK_EQ(got[static_cast<std::size_t>(2 * i)], ll * 1000 + 2 * i);
    CHECK_EQ(got[static_cast<std::size_t>(2 * i + 1)], -7);
  }
  // Accumulate: every rank adds (rank + 1) to slots 0..3 of rank 0.
  if (rank == 0) mem[0] = mem[1] = mem[2] = mem[3] = 0;
  MPI_Win_fence(0, win);
  std::vector<int> add(4, rank + 1);
  MPI_Accumulate(add.data(), 4, MPI_INT, 0, 0, 4, MPI_INT, MPI_SUM, win);
  MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
  if (rank == 0)
    for (int i = 0; i < 4; ++i) CHECK_EQ(mem[static_cast<std::size_t>(i)], size * (size + 1) / 2);
  MPI_Type_free(&every_other);
  CHECK_EQ(MPI_Win_free(&win), MPI_SUCCESS);
  CHECK_EQ(win, MPI_WIN_NULL);
}

// Passive target: a shared counter on rank 0 that every rank increments by fetch-and-op under
// lock_all; an exclusive lock with put and get; compare-and-swap elects one winner.
void passive() {
  long long* mem = nullptr;
  MPI_Win win;
  CHECK_EQ(MPI_Win_allocate(4 * sizeof(long long), sizeof(long long), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win),
           MPI_SUCCESS);
  int* flavor = nullptr;
  int flag = 0;
  MPI_Win_get_attr(win, MPI_WIN_CREATE_FLAVOR, &flavor, &flag);
  CHECK(flag && *flavor == MPI_WIN_FLAVOR_ALLOCATE);
  MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win);
  for (int i = 0; i < 4; ++i) mem[i] = 0;
  MPI_Win_unlock(rank, win);
  mem[3] = -1;
  MPI_Barrier(MPI_COMM_WORLD);
  const int rounds = 5;
  std::vector<long long> seen;
  MPI_Win_lock_all(0, win);
  for (int k = 0; k < rounds; ++k) {
    long long one = 1, old = -1;
    MPI_Fetch_and_op(&one, &old, MPI_LONG_LONG, 0, 0, MPI_SUM, win);
    MPI_Win_flush(0, win);
    seen.push_back(old);
  }
  // Compare-and-swap: slot 3 of rank 0 from -1 to my rank; exactly one rank wins.
  long long mine = rank, expect = -1, result = -2;
  MPI_Compare_and_swap(&mine, &expect, &result, MPI_LONG_LONG, 0, 3, win);
  MPI_Win_unlock_all(win);
  for (std::size_t i = 1; i < seen.size(); ++i) CHECK(seen[i] > seen[i - 1]);
  MPI_Barrier(MPI_COMM_WORLD);
  int won = result == -1 ? 1 : 0, winners = 0;
  MPI_Allreduce(&won, &winners, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  CHECK_EQ(winners, 1);
  if (rank == 0) {
    MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
    CHECK_EQ(mem[0], static_cast<long long>(size) * rounds);
    CHECK(mem[3] >= 0 && mem[3] < size);
    MPI_Win_unlock(0, win);
  }
  // Every fetched value is distinct across ranks: the sum of all is 0 + 1 + ... + (n - 1).
  long long sum = 0, total = 0;
  for (long long v : seen) sum += v;
  MPI_Allreduce(&sum, &total, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  const long long all = static_cast<long long>(size) * rounds;
  CHECK_EQ(total, all * (all - 1) / 2);
  // Exclusive lock: put my rank into slot 1 of the right neighbour, read it back, then get_accumulate.
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Win_lock(MPI_LOCK_EXCLUSIVE, right(), 0, win);
  long long v = 100 + rank, back = 0;
  MPI_Put(&v, 1, MPI_LONG_LONG, right(), 1, 1, MPI_LONG_LONG, win);
  MPI_Win_flush(right(), win);
  MPI_Get(&back, 1, MPI_LONG_LONG, right(), 1, 1, MPI_LONG_LONG, win);
  MPI_Win_flush_local(right(), win);
  CHECK_EQ(back, 100 + rank);
  long long inc = 5, before = 0;
  MPI_Get_accumulate(&inc, 1, MPI_LONG_LONG, &before, 1, MPI_LONG_LONG, right(), 1, 1, MPI_LONG_LONG, MPI_SUM, win);
  MPI_Win_unlock(right(), win);
  CHECK_EQ(before, 100 + rank);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win);
  CHECK_EQ(mem[1], 105 + left());
  MPI_Win_unlock(rank, win);
  MPI_Win_free(&win);
}

// General active target: rank 0 exposes its window to all others (post/wait); each puts into
// its own slot (start/complete); request-based puts and gets.
void pscw() {
  std::vector<double> mem(static_cast<std::size_t>(size) * 2, 0.0);
  MPI_Win win;
  MPI_Win_create(mem.data(), static_cast<MPI_Aint>(mem.size() * sizeof(double)), sizeof(double), MPI_INFO_NULL,
                 MPI_COMM_WORLD, &win);
  MPI_Group world, zero, others;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  int z = 0;
  MPI_Group_incl(world, 1, &z, &zero);
  MPI_Group_excl(world, 1, &z, &others);
  for (int round = 0; round < 2; ++round) {
    if (rank == 0) {
      if (size > 1) {
        MPI_Win_post(others, 0, win);
        if (round == 0) {
          MPI_Win_wait(win);
        } else {
          int flag = 0;
          while (!flag) MPI_Win_test(win, &flag);
        }
      }
      for (int r = 1; r < size; ++r) CHECK(mem[static_cast<std::size_t>(2 * r)] == r + 0.5 + round);
    } else {
      MPI_Win_start(zero, 0, win);
      double v = rank + 0.5 + round;
      MPI_Request req;
      MPI_Rput(&v, 1, MPI_DOUBLE, 0, 2 * rank, 1, MPI_DOUBLE, win, &req);
      MPI_Wait(&req, MPI_STATUS_IGNORE);
      MPI_Win_complete(win);
    }
    MPI_Barrier(MPI_COMM_WORLD);
  }
  // Rget and Raccumulate in a lock epoch.
  MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
  double got = 0;
  MPI_Request rq[2];
  MPI_Rget(&got, 1, MPI_DOUBLE, 0, 2 * (size - 1), 1, MPI_DOUBLE, win, &rq[0]);
  double one = 1.0;
  MPI_Raccumulate(&one, 1, MPI_DOUBLE, 0, 1, 1, MPI_DOUBLE, MPI_SUM, win, &rq[1]);
  MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
  MPI_Win_unlock(0, win);
  CHECK(size == 1 || got == size - 1 + 1.5);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) CHECK(mem[1] == size);
  MPI_Group_free(&world);
  MPI_Group_free(&zero);
  MPI_Group_free(&others);
  MPI_Win_free(&win);
}

// Dynamic window: each rank attaches a buffer and publishes its address; the left neighbour
// puts into it; detach afterwards.
void dynamic() {
  MPI_Win win;
  MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  std::vector<int> buf(8, 0);
  MPI_Win_attach(win, buf.data(), static_cast<MPI_Aint>(buf.size() * sizeof(int)));
  MPI_Aint mine = 0;
  MPI_Get_address(buf.data(), &mine);
  std::vector<MPI_Aint> addr(static_cast<std::size_t>(size));
  MPI_Allgather(&mine, 1, MPI_AINT, addr.data(), 1, MPI_AINT, MPI_COMM_WORLD);
  MPI_Win_fence(0, win);
  int vals[3] = {rank, rank * 2, rank * 3};
  MPI_Put(vals, 3, MPI_INT, right(), addr[static_cast<std::size_t>(right())] + sizeof(int), 3, MPI_INT, win);
  MPI_Win_fence(0, win);
  CHECK_EQ(buf[1], left());
  CHECK_EQ(buf[3], left() * 3);
  int back[3] = {};
  MPI_Get(back, 3, MPI_INT, right(), addr[static_cast<std::size_t>(right())] + sizeof(int), 3, MPI_INT, win);
  MPI_Win_fence(0, win);
  CHECK_EQ(back[2], rank * 3);
  // Outside every attached region: the target refuses, the completing call says so.
  MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
  MPI_Put(vals, 1, MPI_INT, right(), addr[static_cast<std::size_t>(right())] + 64 * sizeof(int), 1, MPI_INT, win);
  CHECK_EQ(MPI_Win_fence(0, win), MPI_ERR_RMA_RANGE);
  MPI_Win_detach(win, buf.data());
  CHECK_EQ(MPI_Win_detach(win, buf.data()), MPI_ERR_RMA_ATTACH);
  MPI_Win_free(&win);
}

// Shared memory: ranks write their neighbours' segments with plain stores.
void shared() {
  int* mine = nullptr;
  MPI_Win win;
  CHECK_EQ(MPI_Win_allocate_shared(4 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &mine, &win),
           MPI_SUCCESS);
  MPI_Aint sz = 0;
  int du = 0;
  int* theirs = nullptr;
  MPI_Win_shared_query(win, right(), &sz, &du, &theirs);
  CHECK_EQ(sz, static_cast<MPI_Aint>(4 * sizeof(int)));
  CHECK_EQ(du, static_cast<int>(sizeof(int)));
  MPI_Win_fence(0, win);
  theirs[2] = 7000 + rank;
  MPI_Win_sync(win);
  MPI_Win_fence(0, win);
  CHECK_EQ(mine[2], 7000 + left());
  // And through the one-sided calls too.
  int v = 9000 + rank;
  MPI_Put(&v, 1, MPI_INT, right(), 3, 1, MPI_INT, win);
  MPI_Win_fence(0, win);
  CHECK_EQ(mine[3], 9000 + left());
  MPI_Win_free(&win);
}

// The error classes of bad calls.
void errors() {
  std::vector<int> mem(4, 0);
  MPI_Win win;
  MPI_Win_create(mem.data(), 4 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
  MPI_Errhandler eh;
  MPI_Win_get_errhandler(win, &eh);
  CHECK_EQ(eh, MPI_ERRORS_RETURN);
  int v = 1;
  // No epoch.
  CHECK_EQ(MPI_Put(&v, 1, MPI_INT, 0, 0, 1, MPI_INT, win), MPI_ERR_RMA_SYNC);
  CHECK_EQ(MPI_Win_unlock(0, win), MPI_ERR_RMA_SYNC);
  CHECK_EQ(MPI_Win_complete(win), MPI_ERR_RMA_SYNC);
  CHECK_EQ(MPI_Win_wait(win), MPI_ERR_RMA_SYNC);
  CHECK_EQ(MPI_Win_flush(0, win), MPI_ERR_RMA_SYNC);
  CHECK_EQ(MPI_Win_lock(99, 0, 0, win), MPI_ERR_LOCKTYPE);
  CHECK_EQ(MPI_Win_lock(MPI_LOCK_SHARED, size, 0, win), MPI_ERR_RANK);
  CHECK_EQ(MPI_Win_fence(1, win), MPI_ERR_ASSERT);
  MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
  CHECK_EQ(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win), MPI_ERR_RMA_SYNC);
  CHECK_EQ(MPI_Win_fence(0, win), MPI_ERR_RMA_SYNC);
  CHECK_EQ(MPI_Win_free(&win), MPI_ERR_RMA_SYNC);
  // Window bounds: 4 ints; displacement 3 with 2 ints reaches beyond.
  int two[2] = {1, 2};
  CHECK_EQ(MPI_Put(two, 2, MPI_INT, 0, 3, 2, MPI_INT, win), MPI_ERR_RMA_RANGE);
  CHECK_EQ(MPI_Put(two, 1, MPI_INT, 0, -1, 1, MPI_INT, win), MPI_ERR_DISP);
  CHECK_EQ(MPI_Put(two, 2, MPI_INT, 0, 0, 1, MPI_INT, win), MPI_ERR_TYPE);
  CHECK_EQ(MPI_Put(two, 1, MPI_DATATYPE_NULL, 0, 0, 1, MPI_INT, win), MPI_ERR_TYPE);
  CHECK_EQ(MPI_Put(two, -1, MPI_INT, 0, 0, 1, MPI_INT, win), MPI_ERR_COUNT);
  CHECK_EQ(MPI_Put(two, 1, MPI_INT, size, 0, 1, MPI_INT, win), MPI_ERR_RANK);
  CHECK_EQ(MPI_Accumulate(two, 1, MPI_INT, 0, 0, 1, MPI_INT, MPI_OP_NULL, win), MPI_ERR_OP);
  CHECK_EQ(MPI_Accumulate(two, 1, MPI_FLOAT, 0, 0, 1, MPI_FLOAT, MPI_BAND, win), MPI_ERR_OP);
  CHECK_EQ(MPI_Accumulate(two, 1, MPI_INT, 0, 0, 1, MPI_UNSIGNED, MPI_SUM, win), MPI_ERR_TYPE);
  CHECK_EQ(MPI_Put(two, 1, MPI_INT, MPI_PROC_NULL, 0, 1, MPI_INT, win), MPI_SUCCESS);
  CHECK_EQ(MPI_Win_shared_query(win, 0, nullptr, nullptr, nullptr), MPI_ERR_RMA_FLAVOR);
  CHECK_EQ(MPI_Win_attach(win, mem.data(), 4), MPI_ERR_RMA_FLAVOR);
  MPI_Win_unlock(0, win);
  // Handles.
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  CHECK_EQ(MPI_Win_fence(0, MPI_WIN_NULL), MPI_ERR_WIN);
  CHECK_EQ(MPI_Put(two, 1, MPI_INT, 0, 0, 1, MPI_INT, 12345), MPI_ERR_WIN);
  MPI_Win bad;
  CHECK_EQ(MPI_Win_create(mem.data(), -4, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &bad), MPI_ERR_SIZE);
  CHECK_EQ(MPI_Win_create(mem.data(), 4, 0, MPI_INFO_NULL, MPI_COMM_WORLD, &bad), MPI_ERR_DISP);
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  MPI_Error_string(MPI_ERR_RMA_SYNC, text, &len);
  CHECK(std::strstr(text, "MPI_ERR_RMA_SYNC") != nullptr);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
  MPI_Win_set_name(win, "errors");
  char name[MPI_MAX_OBJECT_NAME];
  MPI_Win_get_name(win, name, &len);
  CHECK(std::strcmp(name, "errors") == 0);
  MPI_Group g;
  MPI_Win_get_group(win, &g);
  int gs = 0;
  MPI_Group_size(g, &gs);
  CHECK_EQ(gs, size);
  MPI_Group_free(&g);
  CHECK_EQ(MPI_Win_free(&win), MPI_SUCCESS);
}

// Hints (MPI_Win_set_info/get_info) and a user's error handler on a window.
int handled = 0, handled_code = 0;
MPI_Win handled_win = MPI_WIN_NULL;
void on_win_error(MPI_Win* win, int* code, ...) {
  ++handled;
  handled_win = *win;
  handled_code = *code;
}
void comm_handler(MPI_Comm*, int*, ...) {}

void info_and_handlers() {
  int mem[2] = {0, 0};
  MPI_Info info;
  MPI_Info_create(&info);
  MPI_Info_set(info, "no_locks", "false");
  MPI_Win win;
  CHECK_EQ(MPI_Win_create(mem, sizeof mem, sizeof(int), info, MPI_COMM_WORLD, &win), MPI_SUCCESS);
  MPI_Info_set(info, "accumulate_ordering", "none");
  CHECK_EQ(MPI_Win_set_info(win, info), MPI_SUCCESS);
  MPI_Info_free(&info);
  MPI_Info used;
  CHECK_EQ(MPI_Win_get_info(win, &used), MPI_SUCCESS);
  char value[MPI_MAX_INFO_VAL];
  int flag = 0, nkeys = 0;
  MPI_Info_get_nkeys(used, &nkeys);
  CHECK_EQ(nkeys, 2);
  MPI_Info_get(used, "accumulate_ordering", MPI_MAX_INFO_VAL - 1, value, &flag);
  CHECK(flag && std::strcmp(value, "none") == 0);
  MPI_Info_free(&used);
  CHECK_EQ(MPI_Win_set_info(win, MPI_INFO_NULL), MPI_SUCCESS);
  // The user's handler: called with the window and the class, and the call returns the class.
  MPI_Errhandler eh, comm_eh, got;
  CHECK_EQ(MPI_Win_create_errhandler(on_win_error, &eh), MPI_SUCCESS);
  CHECK_EQ(MPI_Win_set_errhandler(win, eh), MPI_SUCCESS);
  MPI_Win_get_errhandler(win, &got);
  CHECK_EQ(got, eh);
  MPI_Errhandler_free(&got);
  int v = 1;
  CHECK_EQ(MPI_Put(&v, 1, MPI_INT, 0, 0, 1, MPI_INT, win), MPI_ERR_RMA_SYNC);
  CHECK_EQ(handled, 1);
  CHECK_EQ(handled_win, win);
  CHECK_EQ(handled_code, MPI_ERR_RMA_SYNC);
  CHECK_EQ(MPI_Win_set_info(win, 12345), MPI_ERR_INFO);
  CHECK_EQ(MPI_Win_get_info(win, nullptr), MPI_ERR_ARG);
  CHECK_EQ(handled, 3);
  CHECK_EQ(MPI_Win_call_errhandler(win, MPI_ERR_OTHER), MPI_SUCCESS);
  CHECK_EQ(handled, 4);
  CHECK_EQ(handled_code, MPI_ERR_OTHER);
  // A communicator's handler does not fit a window, nor a window's a communicator.
  MPI_Comm_create_errhandler(comm_handler, &comm_eh);
  CHECK_EQ(MPI_Win_set_errhandler(win, comm_eh), MPI_ERR_ARG);
  CHECK_EQ(handled, 5);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  CHECK_EQ(MPI_Comm_set_errhandler(MPI_COMM_WORLD, eh), MPI_ERR_ARG);
  CHECK_EQ(MPI_Win_create_errhandler(nullptr, &got), MPI_ERR_ARG);
  CHECK_EQ(MPI_Win_call_errhandler(MPI_WIN_NULL, MPI_ERR_OTHER), MPI_ERR_WIN);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
  MPI_Errhandler_free(&comm_eh);
  MPI_Errhandler_free(&eh);
  // Still set on the window after the user freed the handle: it is still called.
  CHECK_EQ(MPI_Put(&v, 1, MPI_INT, 0, 0, 1, MPI_INT, win), MPI_ERR_RMA_SYNC);
  CHECK_EQ(handled, 6);
  MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
  CHECK_EQ(MPI_Win_free(&win), MPI_SUCCESS);
}

// User attributes on a window (MPI_Win_create_keyval ...): set, get, replace, delete, the delete
// callback at MPI_Win_free, and the error classes.
int deleted = 0;
void* deleted_value = nullptr;
int on_delete(MPI_Win, int, void* value, void* extra) {
  ++deleted;
  deleted_value = value;
  return *static_cast<int*>(extra);  // the test's chosen result
}
void attributes() {
  int mem = 0, fail_code = MPI_SUCCESS;
  MPI_Win win;
  CHECK_EQ(MPI_Win_create(&mem, sizeof mem, sizeof mem, MPI_INFO_NULL, MPI_COMM_WORLD, &win), MPI_SUCCESS);
  MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
  int key = MPI_KEYVAL_INVALID, plain = MPI_KEYVAL_INVALID;
  CHECK_EQ(MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, on_delete, &key, &fail_code), MPI_SUCCESS);
  CHECK_EQ(MPI_Win_create_keyval(MPI_WIN_DUP_FN, MPI_WIN_NULL_DELETE_FN, &plain, nullptr), MPI_SUCCESS);
  int a = 1, b = 2, flag = 1;
  void* got = nullptr;
  CHECK_EQ(MPI_Win_get_attr(win, key, &got, &flag), MPI_SUCCESS);
  CHECK_EQ(flag, 0);
  CHECK_EQ(MPI_Win_set_attr(win, key, &a), MPI_SUCCESS);
  CHECK_EQ(MPI_Win_set_attr(win, plain, &b), MPI_SUCCESS);
  CHECK_EQ(MPI_Win_get_attr(win, key, &got, &flag), MPI_SUCCESS);
  CHECK(flag && got == &a);
  CHECK_EQ(MPI_Win_set_attr(win, key, &b), MPI_SUCCESS);  // the old value's delete callback runs
  CHECK(deleted == 1 && deleted_value == &a);
  // The predefined attributes are still answered beside the user's.
  MPI_Aint* wsize = nullptr;
  CHECK_EQ(MPI_Win_get_attr(win, MPI_WIN_SIZE, &wsize, &flag), MPI_SUCCESS);
  CHECK(flag && *wsize == static_cast<MPI_Aint>(sizeof mem));
  // Errors: a predefined key cannot be set or deleted, a freed or foreign key is not a window key,
  // deleting what is not set, a failing delete callback's code is the call's.
  CHECK_EQ(MPI_Win_set_attr(win, MPI_WIN_BASE, &a), MPI_ERR_KEYVAL);
  CHECK_EQ(MPI_Win_delete_attr(win, MPI_WIN_SIZE), MPI_ERR_KEYVAL);
  int comm_key = MPI_KEYVAL_INVALID;
  MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &comm_key, nullptr);
  CHECK_EQ(MPI_Win_set_attr(win, comm_key, &a), MPI_ERR_KEYVAL);
  CHECK_EQ(MPI_Win_get_attr(win, 9999, &got, &flag), MPI_ERR_KEYVAL);
  CHECK_EQ(MPI_Win_delete_attr(win, plain), MPI_SUCCESS);
  CHECK_EQ(MPI_Win_delete_attr(win, plain), MPI_ERR_KEYVAL);
  fail_code = MPI_ERR_OTHER;
  CHECK_EQ(MPI_Win_delete_attr(win, key), MPI_ERR_OTHER);
  CHECK(deleted == 2 && deleted_value == &b);
  fail_code = MPI_SUCCESS;
  CHECK_EQ(MPI_Win_get_attr(win, key, &got, &flag), MPI_SUCCESS);  // a failed delete keeps the attribute
  CHECK(flag && got == &b);
  CHECK_EQ(MPI_Win_set_attr(win, key, &a), MPI_SUCCESS);
  CHECK(deleted == 3 && deleted_value == &b);
  // A freed keyval: attributes already set keep their callbacks; the key is no longer usable.
  const int old_key = key;
  CHECK_EQ(MPI_Win_free_keyval(&key), MPI_SUCCESS);
  CHECK_EQ(key, MPI_KEYVAL_INVALID);
  CHECK_EQ(MPI_Win_get_attr(win, old_key, &got, &flag), MPI_ERR_KEYVAL);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);  // no window: MPI_COMM_WORLD's handler
  CHECK_EQ(MPI_Win_set_attr(MPI_WIN_NULL, old_key, &a), MPI_ERR_WIN);
  CHECK_EQ(MPI_Win_free_keyval(&comm_key), MPI_ERR_KEYVAL);
  CHECK_EQ(MPI_Win_free_keyval(nullptr), MPI_ERR_ARG);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
  MPI_Comm_free_keyval(&comm_key);
  MPI_Win_free_keyval(&plain);
  CHECK_EQ(MPI_Win_free(&win), MPI_SUCCESS);  // runs the delete callback of the attribute left
  CHECK(deleted == 4 && deleted_value == &a);
}

// Several windows at once, one rank putting big blocks (beyond every eager limit) into all others.
void big() {
  const int n = 1 << 16;  // 256 KiB of ints
  std::vector<int> mem(n, 0);
  MPI_Win win;
  MPI_Win_create(mem.data(), n * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  std::vector<int> src(n);
  for (int i = 0; i < n; ++i) src[static_cast<std::size_t>(i)] = i ^ rank;
  MPI_Win_lock(MPI_LOCK_EXCLUSIVE, right(), 0, win);
  MPI_Put(src.data(), n, MPI_INT, right(), 0, n, MPI_INT, win);
  MPI_Win_unlock(right(), win);
  MPI_Barrier(MPI_COMM_WORLD);
  for (int i = 0; i < n; i += 997) CHECK_EQ(mem[static_cast<std::size_t>(i)], i ^ left());
  std::vector<int> acc(n, 1);
  MPI_Win_fence(0, win);
  MPI_Accumulate(acc.data(), n, MPI_INT, right(), 0, n, MPI_INT, MPI_SUM, win);
  MPI_Win_fence(0, win);
  for (int i = 0; i < n; i += 997) CHECK_EQ(mem[static_cast<std::size_t>(i)], (i ^ left()) + 1);
  MPI_Win_free(&win);
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc > 1 && std::strcmp(argv[1], "fatal") == 0) {
    // MPI_ERR_RMA_SYNC under the default handler ends the job.
    int mem = 0, v = 1;
    MPI_Win win;
    MPI_Win_create(&mem, sizeof mem, sizeof mem, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Put(&v, 1, MPI_INT, 0, 0, 1, MPI_INT, win);
    MPI_Finalize();
    return 0;
  }
  const std::map<std::string, std::function<void()>> cases = {{"fence", fence},     {"passive", passive},
                                                               {"pscw", pscw},       {"dynamic", dynamic},
                                                               {"shared", shared},   {"errors", errors},
                                                               {"info_handlers", info_and_handlers},
                                                               {"attributes", attributes},
                                                               {"big", big}};
  std::vector<std::string> chosen(argv + 1, argv + argc);
  if (chosen.empty())
    for (auto& [name, fn] : cases) chosen.push_back(name);
  for (const std::string& name : chosen) {
    auto it = cases.find(name);
    if (it == cases.end()) {
      if (rank == 0) std::fprintf(stderr, "win_suite: unknown case '%s'\n", name.c_str());
      MPI_Abort(MPI_COMM_WORLD, 2);
    }
    it->second();
    MPI_Barrier(MPI_COMM_WORLD);
  }
  MPI_Finalize();
  return 0;
}
