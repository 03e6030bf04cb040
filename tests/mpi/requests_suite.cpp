// Persistent requests, buffered and ready sends, the matched probe and info objects through the
// launcher, each with its error cases (under MPI_ERRORS_RETURN, so that a failed check is the
// only thing that ends the job). `requests_suite CASE...`, or all.
// "fatal" checks that a bad MPI_Start under the default handler ends the job.
#include <mpi.h>

#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "check.h"

namespace {

int rank, size;
MPI_Comm comm;  // MPI_COMM_WORLD's duplicate, with MPI_ERRORS_RETURN

// Persistent sends of every mode to the right, persistent receives from the left, restarted
// several times with new data in the same buffers; Startall, Test/Wait on inactive requests,
// MPI_Request_free of an active request, and the errors.
void persistent() {
  int right = (rank + 1) % size, left = (rank + size - 1) % size;
  std::vector<char> bsend_space(4 * (sizeof(int) * 8 + MPI_BSEND_OVERHEAD));
  MPI_Buffer_attach(bsend_space.data(), static_cast<int>(bsend_space.size()));
  int out[4][8], in[4][8];
  MPI_Request reqs[8];
  CHECK_EQ(MPI_Send_init(out[0], 8, MPI_INT, right, 0, comm, &reqs[0]), MPI_SUCCESS);
  CHECK_EQ(MPI_Ssend_init(out[1], 8, MPI_INT, right, 1, comm, &reqs[1]), MPI_SUCCESS);
  CHECK_EQ(MPI_Bsend_init(out[2], 8, MPI_INT, right, 2, comm, &reqs[2]), MPI_SUCCESS);
  for (int m = 0; m < 4; ++m)
    CHECK_EQ(MPI_Recv_init(in[m], 8, MPI_INT, left, m, comm, &reqs[4 + m]), MPI_SUCCESS);
  // A ready send needs its receive posted first: start the receives, agree, then send.
  CHECK_EQ(MPI_Rsend_init(out[3], 8, MPI_INT, right, 3, comm, &reqs[3]), MPI_SUCCESS);

  // Inactive requests: wait and test return at once with an empty status.
  MPI_Status st;
  int flag = 0;
  CHECK_EQ(MPI_Wait(&reqs[0], &st), MPI_SUCCESS);
  CHECK(reqs[0] != MPI_REQUEST_NULL);
  CHECK_EQ(st.MPI_SOURCE, MPI_ANY_SOURCE);
  CHECK_EQ(MPI_Test(&reqs[4], &flag, &st), MPI_SUCCESS);
  CHECK(flag);
  int index = 0;
  CHECK_EQ(MPI_Waitany(8, reqs, &index, &st), MPI_SUCCESS);
  CHECK_EQ(index, MPI_UNDEFINED);

  for (int round = 0; round < 5; ++round) {
    for (int m = 0; m < 4; ++m)
      for (int i = 0; i < 8; ++i) out[m][i] = rank * 1000 + round * 100 + m * 10 + i;
    std::memset(in, -1, sizeof in);
    CHECK_EQ(MPI_Startall(4, &reqs[4]), MPI_SUCCESS);
    CHECK_EQ(MPI_Start(&reqs[4]), MPI_ERR_REQUEST);  // active already
    MPI_Barrier(comm);                                // every receive is posted
    CHECK_EQ(MPI_Startall(4, reqs), MPI_SUCCESS);
    MPI_Status sts[8];
    CHECK_EQ(MPI_Waitall(8, reqs, sts), MPI_SUCCESS);
    for (int m = 0; m < 8; ++m) CHECK(reqs[m] != MPI_REQUEST_NULL);  // persistent: still there
    for (int m = 0; m < 4; ++m) {
      CHECK_EQ(sts[4 + m].MPI_SOURCE, left);
      CHECK_EQ(sts[4 + m].MPI_TAG, m);
      int n = -1;
      MPI_Get_count(&sts[4 + m], MPI_INT, &n);
      CHECK_EQ(n, 8);
      for (int i = 0; i < 8; ++i) CHECK_EQ(in[m][i], left * 1000 + round * 100 + m * 10 + i);
    }
  }

  // One round completed by Test (a persistent request's test makes it inactive, not null).
  CHECK_EQ(MPI_Start(&reqs[4]), MPI_SUCCESS);
  CHECK_EQ(MPI_Start(&reqs[0]), MPI_SUCCESS);
  for (flag = 0; !flag;) MPI_Test(&reqs[4], &flag, &st);
  CHECK(reqs[4] != MPI_REQUEST_NULL);
  CHECK_EQ(st.MPI_SOURCE, left);
  CHECK_EQ(MPI_Wait(&reqs[0], MPI_STATUS_IGNORE), MPI_SUCCESS);

  // Freeing an active persistent receive: the operation still completes (the matching send
  // below is received), the handle is gone at once.
  int keep = -1;
  MPI_Request lone;
  CHECK_EQ(MPI_Recv_init(&keep, 1, MPI_INT, left, 9, comm, &lone), MPI_SUCCESS);
  CHECK_EQ(MPI_Start(&lone), MPI_SUCCESS);
  CHECK_EQ(MPI_Request_free(&lone), MPI_SUCCESS);
  CHECK_EQ(lone, MPI_REQUEST_NULL);
  int nine = rank;
  MPI_Send(&nine, 1, MPI_INT, right, 9, comm);
  MPI_Barrier(comm);

  // Cancelling an active persistent receive that nothing will match.
  MPI_Request never;
  CHECK_EQ(MPI_Recv_init(&keep, 1, MPI_INT, left, 77, comm, &never), MPI_SUCCESS);
  CHECK_EQ(MPI_Cancel(&never), MPI_ERR_REQUEST);  // inactive
  CHECK_EQ(MPI_Start(&never), MPI_SUCCESS);
  CHECK_EQ(MPI_Cancel(&never), MPI_SUCCESS);
  CHECK_EQ(MPI_Wait(&never, &st), MPI_SUCCESS);
  MPI_Test_cancelled(&st, &flag);
  CHECK(flag);
  CHECK_EQ(MPI_Request_free(&never), MPI_SUCCESS);

  // A persistent request keeps its datatype after MPI_Type_free of the handle, even when the
  // handle is reused by another type.
  MPI_Datatype strided, other;
  MPI_Type_vector(3, 1, 2, MPI_INT, &strided);
  MPI_Type_commit(&strided);
  int sv[6], rv[6];
  MPI_Request pair[2];
  CHECK_EQ(MPI_Recv_init(rv, 1, strided, left, 11, comm, &pair[0]), MPI_SUCCESS);
  CHECK_EQ(MPI_Send_init(sv, 1, strided, right, 11, comm, &pair[1]), MPI_SUCCESS);
  MPI_Type_free(&strided);
  MPI_Type_contiguous(5, MPI_DOUBLE, &other);
  MPI_Type_commit(&other);
  for (int round = 0; round < 2; ++round) {
    for (int i = 0; i < 6; ++i) {
      sv[i] = rank * 10 + i + round;
      rv[i] = -1;
    }
    CHECK_EQ(MPI_Startall(2, pair), MPI_SUCCESS);
    CHECK_EQ(MPI_Waitall(2, pair, MPI_STATUSES_IGNORE), MPI_SUCCESS);
    for (int i = 0; i < 6; ++i) CHECK_EQ(rv[i], i % 2 ? -1 : left * 10 + i + round);
  }
  MPI_Type_free(&other);
  MPI_Request_free(&pair[0]);
  MPI_Request_free(&pair[1]);

  // Errors.
  MPI_Request bad;
  CHECK_EQ(MPI_Send_init(out[0], 1, MPI_INT, size, 0, comm, &bad), MPI_ERR_RANK);
  CHECK_EQ(MPI_Ssend_init(out[0], -1, MPI_INT, right, 0, comm, &bad), MPI_ERR_COUNT);
  CHECK_EQ(MPI_Bsend_init(out[0], 1, MPI_DATATYPE_NULL, right, 0, comm, &bad), MPI_ERR_TYPE);
  CHECK_EQ(MPI_Rsend_init(out[0], 1, MPI_INT, right, -3, comm, &bad), MPI_ERR_TAG);
  CHECK_EQ(MPI_Recv_init(in[0], 1, MPI_INT, left, 0, MPI_COMM_NULL, &bad), MPI_ERR_COMM);
  CHECK_EQ(MPI_Recv_init(nullptr, 1, MPI_INT, left, 0, comm, &bad), MPI_ERR_BUFFER);
  CHECK_EQ(MPI_Send_init(out[0], 1, MPI_INT, right, 0, comm, nullptr), MPI_ERR_ARG);
  MPI_Request null_req = MPI_REQUEST_NULL;
  CHECK_EQ(MPI_Start(&null_req), MPI_ERR_REQUEST);
  CHECK_EQ(MPI_Start(nullptr), MPI_ERR_ARG);
  MPI_Request plain;
  MPI_Irecv(in[0], 1, MPI_INT, MPI_PROC_NULL, 0, comm, &plain);
  CHECK_EQ(MPI_Start(&plain), MPI_ERR_REQUEST);  // not persistent
  MPI_Wait(&plain, MPI_STATUS_IGNORE);
  CHECK_EQ(MPI_Startall(-1, reqs), MPI_ERR_COUNT);
  MPI_Request stale = 123456;
  CHECK_EQ(MPI_Startall(1, &stale), MPI_ERR_REQUEST);

  for (MPI_Request& r : reqs) {
    CHECK_EQ(MPI_Request_free(&r), MPI_SUCCESS);
    CHECK_EQ(r, MPI_REQUEST_NULL);
  }
  void* addr;
  int n;
  MPI_Buffer_detach(&addr, &n);
}

// Buffered sends: the data is copied at the call, space is returned as messages leave, a send
// that does not fit is MPI_ERR_BUFFER, detach waits for every buffered message.
void buffered() {
  int right = (rank + 1) % size, left = (rank + size - 1) % size;
  const int n = 1000, msgs = 4;
  int bytes = msgs * (n * static_cast<int>(sizeof(double)) + MPI_BSEND_OVERHEAD);
  char* space = static_cast<char*>(std::malloc(bytes));
  void* addr = nullptr;
  int got_size = 0;
  double data[n] = {};
  CHECK_EQ(MPI_Bsend(data, n, MPI_DOUBLE, right, 0, comm), MPI_ERR_BUFFER);  // nothing attached
  CHECK_EQ(MPI_Buffer_detach(&addr, &got_size), MPI_ERR_BUFFER);
  CHECK_EQ(MPI_Buffer_attach(space, -1), MPI_ERR_ARG);
  CHECK_EQ(MPI_Buffer_attach(space, bytes), MPI_SUCCESS);
  CHECK_EQ(MPI_Buffer_attach(space, bytes), MPI_ERR_BUFFER);  // one at a time
  for (int m = 0; m < msgs; ++m) {
    for (int i = 0; i < n; ++i) data[i] = rank + m * 0.5 + i;
    CHECK_EQ(MPI_Bsend(data, n, MPI_DOUBLE, right, m, comm), MPI_SUCCESS);
  }
  std::memset(data, 0, sizeof data);  // the messages were copied: changing the source is fine
  // Too big for the whole buffer, whatever is pending.
  std::vector<double> big(n * msgs + 100);
  MPI_Request bad_req;
  CHECK_EQ(MPI_Bsend(big.data(), n * msgs + 100, MPI_DOUBLE, right, 0, comm), MPI_ERR_BUFFER);
  CHECK_EQ(MPI_Bsend(data, 1, MPI_DOUBLE, size + 3, 0, comm), MPI_ERR_RANK);
  CHECK_EQ(MPI_Bsend(data, 1, MPI_DOUBLE, right, -1, comm), MPI_ERR_TAG);
  for (int m = 0; m < msgs; ++m) {
    double in[n];
    MPI_Recv(in, n, MPI_DOUBLE, left, m, comm, MPI_STATUS_IGNORE);
    for (int i = 0; i < n; ++i) CHECK_EQ(in[i], left + m * 0.5 + i);
  }
  CHECK_EQ(MPI_Ibsend(big.data(), n * msgs + 100, MPI_DOUBLE, right, 0, comm, &bad_req), MPI_ERR_BUFFER);
  CHECK_EQ(MPI_Buffer_detach(nullptr, &got_size), MPI_ERR_ARG);
  CHECK_EQ(MPI_Buffer_detach(&addr, nullptr), MPI_ERR_ARG);
  CHECK_EQ(MPI_Buffer_detach(&addr, &got_size), MPI_SUCCESS);  // waits until all have left
  CHECK(addr == space);
  CHECK_EQ(got_size, bytes);
  std::free(space);

  // Ibsend completes at once; the receiver gets the data. A strided type is packed into the buffer.
  std::vector<char> small(2 * (4 * sizeof(int) + MPI_BSEND_OVERHEAD));
  MPI_Buffer_attach(small.data(), static_cast<int>(small.size()));
  MPI_Datatype every_other;
  MPI_Type_vector(4, 1, 2, MPI_INT, &every_other);
  MPI_Type_commit(&every_other);
  int src[8] = {0, -1, 1, -1, 2, -1, 3, -1};
  for (int& v : src) v = v < 0 ? v : v + rank * 10;
  MPI_Request r;
  CHECK_EQ(MPI_Ibsend(src, 1, every_other, right, 5, comm, &r), MPI_SUCCESS);
  int flag = 0;
  CHECK_EQ(MPI_Test(&r, &flag, MPI_STATUS_IGNORE), MPI_SUCCESS);
  CHECK(flag);
  CHECK_EQ(MPI_Ibsend(src, 1, every_other, right, 6, comm, nullptr), MPI_ERR_ARG);
  CHECK_EQ(MPI_Bsend(src, 0, MPI_INT, MPI_PROC_NULL, 0, comm), MPI_SUCCESS);
  int got[4];
  MPI_Recv(got, 4, MPI_INT, left, 5, comm, MPI_STATUS_IGNORE);
  for (int i = 0; i < 4; ++i) CHECK_EQ(got[i], i + left * 10);
  MPI_Type_free(&every_other);
  MPI_Buffer_detach(&addr, &got_size);
  CHECK(addr == small.data());
}

// Ready sends: each receive is posted before its sender is told to go.
void ready() {
  int right = (rank + 1) % size, left = (rank + size - 1) % size;
  int in[2] = {-1, -1}, out[2] = {rank, rank + 100};
  MPI_Request r[2];
  MPI_Irecv(&in[0], 1, MPI_INT, left, 1, comm, &r[0]);
  MPI_Irecv(&in[1], 1, MPI_INT, left, 2, comm, &r[1]);
  MPI_Barrier(comm);
  CHECK_EQ(MPI_Rsend(&out[0], 1, MPI_INT, right, 1, comm), MPI_SUCCESS);
  MPI_Request s;
  CHECK_EQ(MPI_Irsend(&out[1], 1, MPI_INT, right, 2, comm, &s), MPI_SUCCESS);
  MPI_Wait(&s, MPI_STATUS_IGNORE);
  MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
  CHECK_EQ(in[0], left);
  CHECK_EQ(in[1], left + 100);
  CHECK_EQ(MPI_Rsend(out, 1, MPI_INT, size, 1, comm), MPI_ERR_RANK);
  CHECK_EQ(MPI_Irsend(out, -2, MPI_INT, right, 1, comm, &s), MPI_ERR_COUNT);
}

// Matched probe: every rank sends two messages of different sizes to rank 0, which takes them with
// Mprobe/Improbe and receives exactly those with Mrecv/Imrecv, even when an ANY_SOURCE receive
// is posted in between (a probed message is no longer in the queue for it to match).
void mprobe() {
  MPI_Status st;
  MPI_Message msg = 12345;
  int flag = 0;
  // MPI_PROC_NULL: the no-process message, received at once.
  CHECK_EQ(MPI_Mprobe(MPI_PROC_NULL, 0, comm, &msg, &st), MPI_SUCCESS);
  CHECK_EQ(msg, MPI_MESSAGE_NO_PROC);
  CHECK_EQ(st.MPI_SOURCE, MPI_PROC_NULL);
  int x = 7;
  CHECK_EQ(MPI_Mrecv(&x, 1, MPI_INT, &msg, &st), MPI_SUCCESS);
  CHECK_EQ(msg, MPI_MESSAGE_NULL);
  CHECK_EQ(st.MPI_SOURCE, MPI_PROC_NULL);
  CHECK_EQ(x, 7);
  CHECK_EQ(MPI_Improbe(MPI_PROC_NULL, 0, comm, &flag, &msg, &st), MPI_SUCCESS);
  CHECK(flag);
  CHECK_EQ(msg, MPI_MESSAGE_NO_PROC);
  MPI_Request r;
  CHECK_EQ(MPI_Imrecv(&x, 1, MPI_INT, &msg, &r), MPI_SUCCESS);
  MPI_Wait(&r, &st);
  CHECK_EQ(st.MPI_SOURCE, MPI_PROC_NULL);

  // Errors.
  CHECK_EQ(MPI_Mprobe(size, 0, comm, &msg, &st), MPI_ERR_RANK);
  CHECK_EQ(MPI_Improbe(0, -4, comm, &flag, &msg, &st), MPI_ERR_TAG);
  CHECK_EQ(MPI_Improbe(0, 0, MPI_COMM_NULL, &flag, &msg, &st), MPI_ERR_COMM);
  CHECK_EQ(MPI_Improbe(0, 0, comm, nullptr, &msg, &st), MPI_ERR_ARG);
  MPI_Message none = MPI_MESSAGE_NULL;
  CHECK_EQ(MPI_Mrecv(&x, 1, MPI_INT, &none, &st), MPI_ERR_REQUEST);
  none = 999;
  CHECK_EQ(MPI_Imrecv(&x, 1, MPI_INT, &none, &r), MPI_ERR_REQUEST);
  // Nothing sent yet on tag 50.
  CHECK_EQ(MPI_Improbe(MPI_ANY_SOURCE, 50, comm, &flag, &msg, &st), MPI_SUCCESS);
  CHECK(!flag);
  MPI_Barrier(comm);

  if (rank != 0) {
    std::vector<int> a(rank), b(2 * rank + 1000);
    for (int i = 0; i < rank; ++i) a[i] = rank * 7 + i;
    for (std::size_t i = 0; i < b.size(); ++i) b[i] = rank - static_cast<int>(i);
    MPI_Send(a.data(), rank, MPI_INT, 0, 50, comm);
    MPI_Send(b.data(), static_cast<int>(b.size()), MPI_INT, 0, 51, comm);
    MPI_Send(&rank, 1, MPI_INT, 0, 52, comm);
  } else {
    for (int k = 1; k < size; ++k) {
      // Probe a message of unknown size, then receive it (and only it) into a buffer of that size.
      CHECK_EQ(MPI_Mprobe(MPI_ANY_SOURCE, 50, comm, &msg, &st), MPI_SUCCESS);
      int src = st.MPI_SOURCE, n = -1;
      MPI_Get_count(&st, MPI_INT, &n);
      CHECK_EQ(n, src);
      // An ANY_SOURCE receive for the same tag posted now must not take the probed message.
      int other[64];
      MPI_Request pending;
      MPI_Irecv(other, 64, MPI_INT, MPI_ANY_SOURCE, 50, comm, &pending);
      std::vector<int> a(static_cast<std::size_t>(n) + 1, -5);
      CHECK_EQ(MPI_Mrecv(a.data(), n, MPI_INT, &msg, &st), MPI_SUCCESS);
      CHECK_EQ(msg, MPI_MESSAGE_NULL);
      CHECK_EQ(st.MPI_SOURCE, src);
      for (int i = 0; i < n; ++i) CHECK_EQ(a[i], src * 7 + i);
      CHECK_EQ(a[n], -5);
      CHECK_EQ(MPI_Cancel(&pending), MPI_SUCCESS);
      MPI_Status cst;
      MPI_Wait(&pending, &cst);
      int cancelled = 0;
      MPI_Test_cancelled(&cst, &cancelled);
      if (!cancelled) {
        // It took another rank's tag-50 message: that one counts as seen.
        int m = -1;
        MPI_Get_count(&cst, MPI_INT, &m);
        CHECK_EQ(m, cst.MPI_SOURCE);
        ++k;
      }
    }
    for (int k = 1; k < size; ++k) {
      flag = 0;
      while (!flag) CHECK_EQ(MPI_Improbe(k, 51, comm, &flag, &msg, &st), MPI_SUCCESS);
      int n = -1;
      MPI_Get_count(&st, MPI_INT, &n);
      CHECK_EQ(n, 2 * k + 1000);
      std::vector<int> b(static_cast<std::size_t>(n));
      CHECK_EQ(MPI_Imrecv(b.data(), n, MPI_INT, &msg, &r), MPI_SUCCESS);
      MPI_Wait(&r, &st);
      CHECK_EQ(st.MPI_TAG, 51);
      for (int i = 0; i < n; ++i) CHECK_EQ(b[i], k - i);
      // Truncation is reported by the receive of the message.
      CHECK_EQ(MPI_Mprobe(k, 52, comm, &msg, &st), MPI_SUCCESS);
      CHECK_EQ(MPI_Mrecv(nullptr, 0, MPI_INT, &msg, &st), MPI_ERR_TRUNCATE);
    }
  }
  // A message beyond any eager limit (the transports fetch it once received): the probe names it,
  // the receive of the message moves it.
  const int big = 1 << 20;
  if (size > 1 && rank == size - 1) {
    std::vector<int> v(big);
    for (int i = 0; i < big; ++i) v[i] = i ^ 0x5a5a;
    MPI_Send(v.data(), big, MPI_INT, 0, 53, comm);
  } else if (size > 1 && rank == 0) {
    CHECK_EQ(MPI_Mprobe(size - 1, 53, comm, &msg, &st), MPI_SUCCESS);
    int n = -1;
    MPI_Get_count(&st, MPI_INT, &n);
    CHECK_EQ(n, big);
    std::vector<int> v(big, -1);
    CHECK_EQ(MPI_Imrecv(v.data(), big, MPI_INT, &msg, &r), MPI_SUCCESS);
    CHECK_EQ(MPI_Wait(&r, &st), MPI_SUCCESS);
    for (int i = 0; i < big; ++i) CHECK_EQ(v[i], i ^ 0x5a5a);
  }
  MPI_Barrier(comm);
}

void info() {
  MPI_Info info, dup;
  char value[MPI_MAX_INFO_VAL + 1], key[MPI_MAX_INFO_KEY + 1];
  int flag = -1, n = -1;
  CHECK_EQ(MPI_Info_create(&info), MPI_SUCCESS);
  CHECK(info != MPI_INFO_NULL);
  CHECK_EQ(MPI_Info_get_nkeys(info, &n), MPI_SUCCESS);
  CHECK_EQ(n, 0);
  CHECK_EQ(MPI_Info_set(info, "alpha", "1"), MPI_SUCCESS);
  CHECK_EQ(MPI_Info_set(info, "beta", "two"), MPI_SUCCESS);
  CHECK_EQ(MPI_Info_set(info, "gamma", "three"), MPI_SUCCESS);
  CHECK_EQ(MPI_Info_set(info, "alpha", "one"), MPI_SUCCESS);  // replaces, keeps its place
  MPI_Info_get_nkeys(info, &n);
  CHECK_EQ(n, 3);
  const char* order[] = {"alpha", "beta", "gamma"};
  for (int i = 0; i < 3; ++i) {
    CHECK_EQ(MPI_Info_get_nthkey(info, i, key), MPI_SUCCESS);
    CHECK(std::strcmp(key, order[i]) == 0);
  }
  CHECK_EQ(MPI_Info_get(info, "alpha", MPI_MAX_INFO_VAL, value, &flag), MPI_SUCCESS);
  CHECK(flag && std::strcmp(value, "one") == 0);
  CHECK_EQ(MPI_Info_get(info, "gamma", 3, value, &flag), MPI_SUCCESS);  // valuelen 3: "thr"
  CHECK(flag && std::strcmp(value, "thr") == 0);
  CHECK_EQ(MPI_Info_get(info, "delta", MPI_MAX_INFO_VAL, value, &flag), MPI_SUCCESS);
  CHECK_EQ(flag, 0);
  int len = -1;
  CHECK_EQ(MPI_Info_get_valuelen(info, "gamma", &len, &flag), MPI_SUCCESS);
  CHECK(flag && len == 5);
  CHECK_EQ(MPI_Info_get_valuelen(info, "delta", &len, &flag), MPI_SUCCESS);
  CHECK_EQ(flag, 0);
  CHECK_EQ(MPI_Info_dup(info, &dup), MPI_SUCCESS);
  CHECK_EQ(MPI_Info_delete(info, "beta"), MPI_SUCCESS);
  MPI_Info_get_nkeys(info, &n);
  CHECK_EQ(n, 2);
  MPI_Info_get_nkeys(dup, &n);
  CHECK_EQ(n, 3);  // the duplicate is independent
  MPI_Info_get_nthkey(dup, 1, key);
  CHECK(std::strcmp(key, "beta") == 0);

  // MPI_INFO_ENV: readable, not changeable.
  CHECK_EQ(MPI_Info_get(MPI_INFO_ENV, "maxprocs", MPI_MAX_INFO_VAL, value, &flag), MPI_SUCCESS);
  CHECK(flag && std::atoi(value) == size);

  // Errors.
  CHECK_EQ(MPI_Info_delete(info, "beta"), MPI_ERR_INFO_NOKEY);
  CHECK_EQ(MPI_Info_set(info, "", "x"), MPI_ERR_INFO_KEY);
  std::string long_key(MPI_MAX_INFO_KEY + 1, 'k');
  CHECK_EQ(MPI_Info_set(info, long_key.c_str(), "x"), MPI_ERR_INFO_KEY);
  CHECK_EQ(MPI_Info_get(info, long_key.c_str(), 10, value, &flag), MPI_ERR_INFO_KEY);
  std::string long_value(MPI_MAX_INFO_VAL + 1, 'v');
  CHECK_EQ(MPI_Info_set(info, "k", long_value.c_str()), MPI_ERR_INFO_VALUE);
  CHECK_EQ(MPI_Info_set(info, "k", ""), MPI_ERR_INFO_VALUE);
  CHECK_EQ(MPI_Info_get_nthkey(info, 2, key), MPI_ERR_ARG);
  CHECK_EQ(MPI_Info_get_nthkey(info, -1, key), MPI_ERR_ARG);
  CHECK_EQ(MPI_Info_get(info, "alpha", -1, value, &flag), MPI_ERR_ARG);
  CHECK_EQ(MPI_Info_get_valuelen(info, long_key.c_str(), &len, &flag), MPI_ERR_INFO_KEY);
  CHECK_EQ(MPI_Info_delete(info, nullptr), MPI_ERR_INFO_KEY);
  CHECK_EQ(MPI_Info_create(nullptr), MPI_ERR_ARG);
  CHECK_EQ(MPI_Info_get_nkeys(info, nullptr), MPI_ERR_ARG);
  CHECK_EQ(MPI_Info_set(MPI_INFO_ENV, "k", "v"), MPI_ERR_INFO);
  MPI_Info env = MPI_INFO_ENV;
  CHECK_EQ(MPI_Info_free(&env), MPI_ERR_INFO);
  CHECK_EQ(MPI_Info_get_nkeys(MPI_INFO_NULL, &n), MPI_ERR_INFO);
  CHECK_EQ(MPI_Info_dup(4242, &dup), MPI_ERR_INFO);
  MPI_Info gone = info;
  CHECK_EQ(MPI_Info_free(&info), MPI_SUCCESS);
  CHECK_EQ(info, MPI_INFO_NULL);
  CHECK_EQ(MPI_Info_set(gone, "a", "b"), MPI_ERR_INFO);  // freed
  CHECK_EQ(MPI_Info_free(&dup), MPI_SUCCESS);

  // Memory.
  double* p = nullptr;
  CHECK_EQ(MPI_Alloc_mem(1000 * sizeof(double), MPI_INFO_NULL, &p), MPI_SUCCESS);
  CHECK(p != nullptr);
  for (int i = 0; i < 1000; ++i) p[i] = i;
  MPI_Info hints;
  MPI_Info_create(&hints);
  MPI_Info_set(hints, "alloc_shared_noncontig", "true");
  char* q = nullptr;
  CHECK_EQ(MPI_Alloc_mem(0, hints, &q), MPI_SUCCESS);
  MPI_Info_free(&hints);
  CHECK_EQ(MPI_Alloc_mem(-1, MPI_INFO_NULL, &q), MPI_ERR_ARG);
  CHECK_EQ(MPI_Alloc_mem(8, 777, &q), MPI_ERR_INFO);
  CHECK_EQ(MPI_Free_mem(q), MPI_SUCCESS);
  CHECK_EQ(MPI_Free_mem(p), MPI_SUCCESS);
  CHECK_EQ(MPI_Free_mem(p), MPI_ERR_BASE);  // twice
  int local = 0;
  CHECK_EQ(MPI_Free_mem(&local), MPI_ERR_BASE);
  CHECK_EQ(MPI_Free_mem(nullptr), MPI_SUCCESS);  // frees nothing, as free(NULL)
}

// A synchronous send to this rank that nothing has matched yet is cancelled; a standard one that
// completed inside MPI_Isend cannot be.
void cancel_send() {
  int v = rank;
  MPI_Request r;
  MPI_Status st;
  int flag = -1;
  MPI_Issend(&v, 1, MPI_INT, rank, 3, comm, &r);
  CHECK_EQ(MPI_Cancel(&r), MPI_SUCCESS);
  MPI_Wait(&r, &st);
  MPI_Test_cancelled(&st, &flag);
  CHECK_EQ(flag, 1);
  MPI_Iprobe(rank, 3, comm, &flag, MPI_STATUS_IGNORE);
  CHECK_EQ(flag, 0);  // the message is gone
  // A standard send to this rank completed at once: cancelling it does nothing.
  MPI_Isend(&v, 1, MPI_INT, rank, 4, comm, &r);
  CHECK_EQ(MPI_Cancel(&r), MPI_SUCCESS);
  MPI_Wait(&r, &st);
  MPI_Test_cancelled(&st, &flag);
  CHECK_EQ(flag, 0);
  int got = -1;
  MPI_Recv(&got, 1, MPI_INT, rank, 4, comm, MPI_STATUS_IGNORE);
  CHECK_EQ(got, rank);
}

// Small sends the transport takes at once complete inside MPI_Isend and may share one handle
// (a completed request): every call that takes requests must treat each of them as a completed
// send of its own. Then more requests outstanding at once than the library keeps slots for, twice
// (released slots are reused), with contents and order checked.
void completed_sends() {
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;
  int out[8], in[8] = {0};
  MPI_Request s[8], r[8];
  MPI_Status st[8];
  for (int i = 0; i < 8; ++i) MPI_Irecv(&in[i], 1, MPI_INT, left, 20 + i, comm, &r[i]);
  for (int i = 0; i < 8; ++i) {
    out[i] = rank * 100 + i;
    CHECK_EQ(MPI_Isend(&out[i], 1, MPI_INT, right, 20 + i, comm, &s[i]), MPI_SUCCESS);
    CHECK(s[i] != MPI_REQUEST_NULL);
  }
  int flag = 0;
  CHECK_EQ(MPI_Cancel(&s[0]), MPI_SUCCESS);  // too late for any of them: a no-op
  CHECK_EQ(MPI_Request_free(&s[1]), MPI_SUCCESS);
  CHECK_EQ(s[1], MPI_REQUEST_NULL);
  MPI_Request some[3] = {s[2], MPI_REQUEST_NULL, s[7]};  // (on the host, likely one handle value twice)
  CHECK_EQ(MPI_Waitall(3, some, st), MPI_SUCCESS);
  for (MPI_Request h : some) CHECK_EQ(h, MPI_REQUEST_NULL);
  int index = -1;
  CHECK_EQ(MPI_Waitany(2, &s[3], &index, &st[0]), MPI_SUCCESS);
  CHECK(index == 0 || index == 1);
  CHECK_EQ(s[3 + index], MPI_REQUEST_NULL);
  int count = 0, indices[8];
  CHECK_EQ(MPI_Testsome(2, &s[3], &count, indices, st), MPI_SUCCESS);
  CHECK_EQ(count, 1);
  CHECK_EQ(MPI_Testsome(2, &s[3], &count, indices, st), MPI_SUCCESS);
  CHECK_EQ(count, MPI_UNDEFINED);
  CHECK_EQ(MPI_Test(&s[5], &flag, &st[0]), MPI_SUCCESS);
  CHECK(flag && s[5] == MPI_REQUEST_NULL);
  CHECK_EQ(MPI_Wait(&s[0], &st[0]), MPI_SUCCESS);
  MPI_Test_cancelled(&st[0], &flag);
  CHECK_EQ(flag, 0);
  CHECK_EQ(MPI_Wait(&s[6], &st[0]), MPI_SUCCESS);
  CHECK_EQ(MPI_Waitall(8, r, st), MPI_SUCCESS);
  for (int i = 0; i < 8; ++i) {
    CHECK_EQ(in[i], left * 100 + i);
    CHECK_EQ(st[i].MPI_SOURCE, left);
    CHECK_EQ(st[i].MPI_TAG, 20 + i);
  }

  const int n = 1500;  // more than the slots kept for reuse
  std::vector<int> send_buf(n), recv_buf(n);
  std::vector<MPI_Request> reqs(2 * n);
  for (int round = 0; round < 2; ++round) {
    for (int i = 0; i < n; ++i) {
      recv_buf[i] = -1;
      MPI_Irecv(&recv_buf[i], 1, MPI_INT, left, 30, comm, &reqs[i]);
    }
    for (int i = 0; i < n; ++i) {
      send_buf[i] = rank * 10000 + round * n + i;
      MPI_Isend(&send_buf[i], 1, MPI_INT, right, 30, comm, &reqs[n + i]);
    }
    CHECK_EQ(MPI_Waitall(2 * n, reqs.data(), MPI_STATUSES_IGNORE), MPI_SUCCESS);
    for (int i = 0; i < n; ++i) CHECK_EQ(recv_buf[i], left * 10000 + round * n + i);  // in order
  }
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc > 1 && std::strcmp(argv[1], "fatal") == 0) {
    MPI_Request r = MPI_REQUEST_NULL;
    if (rank == size - 1) MPI_Start(&r);  // MPI_ERR_REQUEST under the default handler: ends the job
    MPI_Recv(nullptr, 0, MPI_BYTE, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);  // never matched
    MPI_Finalize();
    return 0;
  }
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
  // Calls that name no communicator (info, memory, the attached buffer, message handles) report
  // to MPI_COMM_WORLD's handler.
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  const std::map<std::string, std::function<void()>> cases = {
      {"persistent", persistent}, {"buffered", buffered}, {"ready", ready},
      {"mprobe", mprobe},         {"info", info},         {"cancel_send", cancel_send},
      {"completed_sends", completed_sends}};
  std::vector<std::string> chosen(argv + 1, argv + argc);
  if (chosen.empty())
    for (auto& [name, fn] : cases) chosen.push_back(name);
  for (const std::string& name : chosen) {
    auto it = cases.find(name);
    if (it == cases.end()) {
      if (rank == 0) std::fprintf(stderr, "requests_suite: unknown case '%s'\n", name.c_str());
      MPI_Abort(MPI_COMM_WORLD, 2);
    }
    it->second();
    MPI_Barrier(comm);
  }
  MPI_Comm_free(&comm);
  MPI_Finalize();
  return 0;
}
