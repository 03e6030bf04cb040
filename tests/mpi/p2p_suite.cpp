// Point-to-point behaviour through the launcher: each case is a function, chosen on the
// command line (`p2p_suite ordering anysource ...`, or no argument for all).
#include <mpi.h>

#include <time.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "check.h"

namespace {

int rank, size;

// Sender-side pattern that the receiver can verify byte by byte.
void sleep_ms(long ms) {
  timespec ts{ms / 1000, (ms % 1000) * 1000000};
  nanosleep(&ts, nullptr);
}

unsigned char pattern(std::size_t i, int salt) { return static_cast<unsigned char>((i * 131 + salt * 7) & 0xff); }

// 200 messages from every rank to rank 0 with increasing tags arrive, per source, in order.
void ordering() {
  const int n = 200;
  if (rank != 0) {
    for (int i = 0; i < n; ++i) MPI_Send(&i, 1, MPI_INT, 0, i % 7, MPI_COMM_WORLD);
    return;
  }
  std::vector<int> next(size, 0);
  for (int k = 0; k < n * (size - 1); ++k) {
    int v;
    MPI_Status st;
    MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
    CHECK(st.MPI_SOURCE > 0 && st.MPI_SOURCE < size);
    CHECK_EQ(v, next[st.MPI_SOURCE]);
    CHECK_EQ(st.MPI_TAG, v % 7);
    ++next[st.MPI_SOURCE];
  }
}

// ANY_SOURCE and ANY_TAG receive every message once; a specific tag skips earlier ones.
void anysource() {
  if (rank != 0) {
    int a = rank, b = -rank;
    MPI_Send(&a, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
    MPI_Send(&b, 1, MPI_INT, 0, 2, MPI_COMM_WORLD);
    return;
  }
  // Take every tag-2 message first: they overtake the tag-1 messages of the same source by tag.
  std::set<int> seen;
  for (int k = 1; k < size; ++k) {
    int v;
    MPI_Status st;
    MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 2, MPI_COMM_WORLD, &st);
    CHECK_EQ(v, -st.MPI_SOURCE);
    CHECK_EQ(st.MPI_TAG, 2);
    seen.insert(st.MPI_SOURCE);
  }
  CHECK_EQ(static_cast<int>(seen.size()), size - 1);
  for (int k = 1; k < size; ++k) {
    int v;
    MPI_Status st;
    MPI_Recv(&v, 1, MPI_INT, k, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
    CHECK_EQ(v, k);
    CHECK_EQ(st.MPI_TAG, 1);
  }
}

// Probe tells source, tag and size before the receive.
void probe() {
  if (rank != 0) {
    std::vector<double> v(rank * 10, rank);
    MPI_Send(v.data(), static_cast<int>(v.size()), MPI_DOUBLE, 0, 100 + rank, MPI_COMM_WORLD);
    return;
  }
  for (int k = 1; k < size; ++k) {
    MPI_Status st;
    MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
    int count;
    MPI_Get_count(&st, MPI_DOUBLE, &count);
    CHECK_EQ(count, st.MPI_SOURCE * 10);
    CHECK_EQ(st.MPI_TAG, 100 + st.MPI_SOURCE);
    std::vector<double> v(count);
    MPI_Recv(v.data(), count, MPI_DOUBLE, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    for (double x : v) CHECK_EQ(x, st.MPI_SOURCE);
  }
  int flag = 1;
  MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
  CHECK_EQ(flag, 0);
}

// Receives posted for tags 0..k-1, sends in reverse order; completion in any order.
void nonblocking() {
  const int k = 16;
  int peer = rank ^ 1;
  if (peer >= size) return;
  std::vector<int> in(k, -1), out(k);
  std::vector<MPI_Request> rr(k), sr(k);
  for (int t = 0; t < k; ++t) MPI_Irecv(&in[t], 1, MPI_INT, peer, t, MPI_COMM_WORLD, &rr[t]);
  for (int t = k - 1; t >= 0; --t) {
    out[t] = 1000 * rank + t;
    MPI_Isend(&out[t], 1, MPI_INT, peer, t, MPI_COMM_WORLD, &sr[t]);
  }
  int done = 0;
  while (done < k) {
    int outcount;
    std::vector<int> idx(k);
    std::vector<MPI_Status> st(k);
    MPI_Waitsome(k, rr.data(), &outcount, idx.data(), st.data());
    for (int i = 0; i < outcount; ++i) {
      CHECK_EQ(in[idx[i]], 1000 * peer + idx[i]);
      CHECK_EQ(st[i].MPI_TAG, idx[i]);
    }
    done += outcount;
  }
  int index;
  MPI_Waitany(k, rr.data(), &index, MPI_STATUS_IGNORE);  // all null: returns MPI_UNDEFINED
  CHECK_EQ(index, MPI_UNDEFINED);
  MPI_Waitall(k, sr.data(), MPI_STATUSES_IGNORE);
  // Test until done.
  int v = 0, w = rank;
  MPI_Request r, s;
  MPI_Irecv(&v, 1, MPI_INT, peer, 99, MPI_COMM_WORLD, &r);
  MPI_Isend(&w, 1, MPI_INT, peer, 99, MPI_COMM_WORLD, &s);
  int flag = 0;
  while (!flag) MPI_Test(&r, &flag, MPI_STATUS_IGNORE);
  CHECK_EQ(r, MPI_REQUEST_NULL);
  CHECK_EQ(v, peer);
  MPI_Wait(&s, MPI_STATUS_IGNORE);
}

// Every size from 0 B to 64 MiB between pairs, content checked, both directions.
void sizes() {
  int peer = rank ^ 1;
  if (peer >= size) return;
  std::vector<std::size_t> lens = {0, 1, 7, 8, 63, 64, 65, 1000, 4096, 8191, 65536, 100000, 1 << 20, 3 << 20};
  if (size <= 4) lens.push_back(64u << 20);
  for (std::size_t len : lens) {
    std::vector<unsigned char> out(len), in(len + 1, 0xEE);
    for (std::size_t i = 0; i < len; ++i) out[i] = pattern(i, rank);
    MPI_Request r[2];
    MPI_Irecv(in.data(), static_cast<int>(len), MPI_BYTE, peer, 5, MPI_COMM_WORLD, &r[0]);
    MPI_Isend(out.data(), static_cast<int>(len), MPI_BYTE, peer, 5, MPI_COMM_WORLD, &r[1]);
    MPI_Status st[2];
    MPI_Waitall(2, r, st);
    int count;
    MPI_Get_count(&st[0], MPI_BYTE, &count);
    CHECK_EQ(static_cast<std::size_t>(count), len);
    for (std::size_t i = 0; i < len; ++i)
      if (in[i] != pattern(i, peer)) CHECK(!"payload corrupted");
    CHECK_EQ(in[len], 0xEE);  // nothing written past the message
  }
}

// A receive buffer too small gives MPI_ERR_TRUNCATE (returned under MPI_ERRORS_RETURN), small and large.
void truncate() {
  int peer = rank ^ 1;
  if (peer >= size) return;
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  for (int len : {16, 1 << 20}) {
    std::vector<char> out(len, 'x'), in(len / 2 + 8, 0);
    in[len / 2] = 'k';
    MPI_Request s;
    MPI_Isend(out.data(), len, MPI_CHAR, peer, 3, MPI_COMM_WORLD, &s);
    MPI_Status st;
    st.MPI_ERROR = -3;
    int rc = MPI_Recv(in.data(), len / 2, MPI_CHAR, peer, 3, MPI_COMM_WORLD, &st);
    CHECK_EQ(rc, MPI_ERR_TRUNCATE);
    CHECK_EQ(st.MPI_ERROR, -3);  // one status: the call returns the error (MPI-3.1 §3.2.5)
    CHECK_EQ(in[len / 2 - 1], 'x');
    CHECK_EQ(in[len / 2], 'k');  // not written past the buffer
    MPI_Wait(&s, MPI_STATUS_IGNORE);
  }
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

// Ssend completes only after the receive matched; sendrecv around a ring; sendrecv_replace.
void synchronous() {
  int right = (rank + 1) % size, left = (rank + size - 1) % size;
  int token = rank, got = -1;
  MPI_Sendrecv(&token, 1, MPI_INT, right, 8, &got, 1, MPI_INT, left, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  CHECK_EQ(got, left);
  int v = rank;
  MPI_Sendrecv_replace(&v, 1, MPI_INT, right, 9, left, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  CHECK_EQ(v, left);
  if (size < 2) return;
  if (rank == 0) {
    int x = 42;
    MPI_Request r;
    MPI_Issend(&x, 1, MPI_INT, 1, 10, MPI_COMM_WORLD, &r);
    // The receiver waits for our "go" before receiving, so the Issend cannot have completed.
    int flag = 0;
    for (int i = 0; i < 100; ++i) MPI_Test(&r, &flag, MPI_STATUS_IGNORE);
    CHECK_EQ(flag, 0);
    MPI_Send(&x, 1, MPI_INT, 1, 11, MPI_COMM_WORLD);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
  } else if (rank == 1) {
    int go, x;
    MPI_Recv(&go, 1, MPI_INT, 0, 11, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Recv(&x, 1, MPI_INT, 0, 10, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    CHECK_EQ(x, 42);
  }
  // Self-messages, including a synchronous one matched later.
  int a = 7, b = 0;
  MPI_Request r;
  MPI_Issend(&a, 1, MPI_INT, rank, 12, MPI_COMM_WORLD, &r);
  MPI_Recv(&b, 1, MPI_INT, rank, 12, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  CHECK_EQ(b, 7);
  // PROC_NULL sends and receives complete at once.
  MPI_Status st;
  MPI_Recv(&b, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &st);
  CHECK_EQ(st.MPI_SOURCE, MPI_PROC_NULL);
  MPI_Send(&a, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD);
}

// Derived datatypes: a strided column sent as a vector arrives as contiguous doubles; indexed.
void datatypes() {
  int peer = rank ^ 1;
  if (peer >= size) return;
  const int n = 8;
  double m[n][n];
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) m[i][j] = 100 * rank + 10 * i + j;
  MPI_Datatype column;
  MPI_Type_vector(n, 1, n, MPI_DOUBLE, &column);
  MPI_Type_commit(&column);
  int tsize;
  MPI_Type_size(column, &tsize);
  CHECK_EQ(tsize, n * 8);
  MPI_Aint lb, extent;
  MPI_Type_get_extent(column, &lb, &extent);
  CHECK_EQ(extent, static_cast<MPI_Aint>(((n - 1) * n + 1) * 8));
  double col[n];
  MPI_Sendrecv(&m[0][2], 1, column, peer, 1, col, n, MPI_DOUBLE, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  for (int i = 0; i < n; ++i) CHECK_EQ(col[i], 100 * peer + 10 * i + 2);
  // Receive into a column of a matrix.
  double r[n][n] = {};
  double line[n];
  for (int i = 0; i < n; ++i) line[i] = rank * 1000 + i;
  MPI_Sendrecv(line, n, MPI_DOUBLE, peer, 2, &r[0][5], 1, column, peer, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  for (int i = 0; i < n; ++i) CHECK_EQ(r[i][5], peer * 1000 + i);
  CHECK_EQ(r[0][4], 0.0);
  int lens[3] = {2, 1, 3}, disps[3] = {0, 5, 9};
  MPI_Datatype idx;
  MPI_Type_indexed(3, lens, disps, MPI_INT, &idx);
  MPI_Type_commit(&idx);
  int src[12], dst[6];
  for (int i = 0; i < 12; ++i) src[i] = rank * 100 + i;
  MPI_Status st;
  MPI_Sendrecv(src, 1, idx, peer, 3, dst, 6, MPI_INT, peer, 3, MPI_COMM_WORLD, &st);
  int expect[6] = {0, 1, 5, 9, 10, 11};
  for (int i = 0; i < 6; ++i) CHECK_EQ(dst[i], peer * 100 + expect[i]);
  int elements;
  MPI_Get_elements(&st, MPI_INT, &elements);
  CHECK_EQ(elements, 6);
  MPI_Type_free(&column);
  MPI_Type_free(&idx);
  CHECK_EQ(column, MPI_DATATYPE_NULL);
}

// Many ranks (oversubscribed): every pair exchanges, several rounds.
void exchange() {
  const int rounds = 5;
  for (int round = 0; round < rounds; ++round) {
    std::vector<int> out(size), in(size, -1);
    std::vector<MPI_Request> reqs;
    for (int p = 0; p < size; ++p) {
      out[p] = rank * 10000 + p * 10 + round;
      reqs.emplace_back();
      MPI_Irecv(&in[p], 1, MPI_INT, p, round, MPI_COMM_WORLD, &reqs.back());
    }
    for (int p = 0; p < size; ++p) {
      reqs.emplace_back();
      MPI_Isend(&out[p], 1, MPI_INT, p, round, MPI_COMM_WORLD, &reqs.back());
    }
    MPI_Waitall(static_cast<int>(reqs.size()), reqs.data(), MPI_STATUSES_IGNORE);
    for (int p = 0; p < size; ++p) CHECK_EQ(in[p], p * 10000 + rank * 10 + round);
  }
}

// Cancel a receive that never matches.
void cancel() {
  int v;
  MPI_Request r;
  MPI_Irecv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 12345, MPI_COMM_WORLD, &r);
  MPI_Cancel(&r);
  MPI_Status st;
  MPI_Wait(&r, &st);
  int flag;
  MPI_Test_cancelled(&st, &flag);
  CHECK_EQ(flag, 1);
}

// Blocking sends and receives of small contiguous messages between pairs, in the patterns where
// a shortcut around matching would go wrong (MPI_Send and MPI_Recv go straight between the
// transport and the user's buffer when nothing earlier can match: p2p_fast.h). Each message
// carries its sequence number, so that a message taken out of order is seen.
void fastpath() {
  const int peer = rank ^ 1;
  if (peer >= size) return;
  const bool first = rank < peer;  // the pair's sender where one side sends
  MPI_Comm dup;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  int go = 0;
  // 1. A posted receive that matches comes first: the oldest message is the Irecv's, not the
  //    blocking receive's, though both name the same source and tag.
  if (first) {
    for (int i = 1; i <= 2; ++i) MPI_Send(&i, 1, MPI_INT, peer, 5, MPI_COMM_WORLD);
  } else {
    int a = 0, b = 0;
    MPI_Request r;
    MPI_Irecv(&a, 1, MPI_INT, MPI_ANY_SOURCE, 5, MPI_COMM_WORLD, &r);
    MPI_Recv(&b, 1, MPI_INT, peer, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    CHECK_EQ(a, 1);
    CHECK_EQ(b, 2);
  }
  // 2. A queued (unexpected) message that matches comes before a later one still in the
  //    transport: A(tag 1) B(tag 2), then, once B is received, C(tag 1). A must come before C.
  if (first) {
    for (int i = 1; i <= 2; ++i) MPI_Send(&i, 1, MPI_INT, peer, i, MPI_COMM_WORLD);
    MPI_Recv(&go, 1, MPI_INT, peer, 9, dup, MPI_STATUS_IGNORE);
    const int c = 3;
    MPI_Send(&c, 1, MPI_INT, peer, 1, MPI_COMM_WORLD);
  } else {
    int v = 0;
    MPI_Status st;
    MPI_Recv(&v, 1, MPI_INT, peer, 2, MPI_COMM_WORLD, &st);
    CHECK_EQ(v, 2);
    MPI_Send(&go, 1, MPI_INT, peer, 9, dup);
    // A waits in the queue (taken off the transport on the way to B); C comes after it.
    MPI_Recv(&v, 1, MPI_INT, peer, 1, MPI_COMM_WORLD, &st);
    CHECK_EQ(v, 1);
    MPI_Recv(&v, 1, MPI_INT, peer, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
    CHECK_EQ(v, 3);
    CHECK_EQ(st.MPI_TAG, 1);
  }
  // 3. Communicators: the same source and tag on another communicator is never taken.
  if (first) {
    const int x = 10, y = 20;
    MPI_Send(&x, 1, MPI_INT, peer, 1, dup);
    MPI_Send(&y, 1, MPI_INT, peer, 1, MPI_COMM_WORLD);
  } else {
    int v = 0;
    MPI_Recv(&v, 1, MPI_INT, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    CHECK_EQ(v, 20);
    MPI_Recv(&v, 1, MPI_INT, peer, 1, dup, MPI_STATUS_IGNORE);
    CHECK_EQ(v, 10);
  }
  // 4. Status and count of every small size (one-line records and longer), the message already
  //    there or still to come (ping-pong: the receiver waits), errno untouched.
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  for (int len : {0, 1, 7, 8, 9, 15, 16, 17, 40, 48, 64, 100, 1000}) {
    std::vector<unsigned char> out(len), in(len + 1, 0xEE);
    for (int i = 0; i < len; ++i) out[i] = pattern(i, rank + len);
    for (int round = 0; round < 2; ++round) {
      const bool sends_first = first == (round == 0);
      MPI_Status st;
      st.MPI_SOURCE = st.MPI_TAG = st.MPI_ERROR = -7;
      errno = 4321;
      if (sends_first) {
        CHECK_EQ(MPI_Send(out.data(), len, MPI_BYTE, peer, 100 + len, MPI_COMM_WORLD), MPI_SUCCESS);
        CHECK_EQ(MPI_Recv(in.data(), len, MPI_BYTE, peer, MPI_ANY_TAG, MPI_COMM_WORLD, &st), MPI_SUCCESS);
      } else {
        CHECK_EQ(MPI_Recv(in.data(), len, MPI_BYTE, peer, MPI_ANY_TAG, MPI_COMM_WORLD, &st), MPI_SUCCESS);
        CHECK_EQ(MPI_Send(out.data(), len, MPI_BYTE, peer, 100 + len, MPI_COMM_WORLD), MPI_SUCCESS);
      }
      CHECK_EQ(errno, 4321);
      CHECK_EQ(st.MPI_SOURCE, peer);
      CHECK_EQ(st.MPI_TAG, 100 + len);
      int count = -1, cancelled = -1;
      MPI_Get_count(&st, MPI_BYTE, &count);
      CHECK_EQ(count, len);
      MPI_Test_cancelled(&st, &cancelled);
      CHECK_EQ(cancelled, 0);
      for (int i = 0; i < len; ++i)
        if (in[i] != pattern(i, peer + len)) CHECK(!"payload corrupted");
      CHECK_EQ(in[len], 0xEE);
    }
  }
  // 5. Truncation, the message already there and still to come: MPI_ERR_TRUNCATE returned and in
  //    the status, the buffer's bytes only, the count what was received.
  for (int there = 0; there < 2; ++there) {
    const int len = 16;
    std::vector<char> out(len, 'x'), in(len, 'k');
    // (Sleeps make the likely order: either way the outcome must be the same.)
    if (first) {
      if (!there) {
        MPI_Recv(&go, 1, MPI_INT, peer, 11, dup, MPI_STATUS_IGNORE);
        sleep_ms(5);
      }
      MPI_Send(out.data(), len, MPI_CHAR, peer, 3, MPI_COMM_WORLD);
    } else {
      if (there) sleep_ms(5);
      else MPI_Send(&go, 1, MPI_INT, peer, 11, dup);
      MPI_Status st;
      st.MPI_ERROR = -3;
      CHECK_EQ(MPI_Recv(in.data(), len / 2, MPI_CHAR, peer, 3, MPI_COMM_WORLD, &st), MPI_ERR_TRUNCATE);
      CHECK_EQ(st.MPI_ERROR, -3);  // one status: the call returns the error
      CHECK_EQ(st.MPI_TAG, 3);
      int count = -1;
      MPI_Get_count(&st, MPI_CHAR, &count);
      CHECK_EQ(count, len / 2);
      CHECK_EQ(in[len / 2 - 1], 'x');
      CHECK_EQ(in[len / 2], 'k');
    }
  }
  // 6. Bad arguments still get their error class (the general path checks them).
  int v = 0;
  CHECK_EQ(MPI_Send(&v, 1, MPI_INT, size, 0, MPI_COMM_WORLD), MPI_ERR_RANK);
  CHECK_EQ(MPI_Send(&v, 1, MPI_INT, peer, -3, MPI_COMM_WORLD), MPI_ERR_TAG);
  CHECK_EQ(MPI_Send(&v, -1, MPI_INT, peer, 0, MPI_COMM_WORLD), MPI_ERR_COUNT);
  CHECK_EQ(MPI_Send(nullptr, 1, MPI_INT, peer, 0, MPI_COMM_WORLD), MPI_ERR_BUFFER);
  CHECK_EQ(MPI_Recv(&v, 1, MPI_INT, -5, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE), MPI_ERR_RANK);
  CHECK_EQ(MPI_Recv(&v, 1, MPI_DATATYPE_NULL, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE), MPI_ERR_TYPE);
  MPI_Request r = MPI_REQUEST_NULL;
  CHECK_EQ(MPI_Isend(&v, 1, MPI_INT, peer, -3, MPI_COMM_WORLD, &r), MPI_ERR_TAG);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
  // 7. Sends that outrun the receiver arrive in order: MPI_Isends (the receiver sleeps, so the
  //    ring fills and the rest queue in the sender), then, once the receiver has drained the ring
  //    and waits for the queued ones, MPI_Sends, which must queue behind them though the ring
  //    has room again.
  const int n = 6000, queued = 5000;
  if (first) {
    std::vector<int> values(n);
    std::vector<MPI_Request> reqs(queued);
    for (int i = 0; i < n; ++i) values[i] = i;
    for (int i = 0; i < queued; ++i) MPI_Isend(&values[i], 1, MPI_INT, peer, 7, MPI_COMM_WORLD, &reqs[i]);
    sleep_ms(40);
    for (int i = queued; i < n; ++i) MPI_Send(&values[i], 1, MPI_INT, peer, 7, MPI_COMM_WORLD);
    MPI_Waitall(queued, reqs.data(), MPI_STATUSES_IGNORE);
  } else {
    sleep_ms(20);
    for (int i = 0; i < n; ++i) {
      MPI_Recv(&v, 1, MPI_INT, peer, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      if (v != i) CHECK_EQ(v, i);
    }
  }
  MPI_Comm_free(&dup);
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const std::map<std::string, std::function<void()>> cases = {
      {"ordering", ordering}, {"anysource", anysource},     {"probe", probe},
      {"nonblocking", nonblocking}, {"sizes", sizes},       {"truncate", truncate},
      {"synchronous", synchronous}, {"datatypes", datatypes}, {"exchange", exchange},
      {"cancel", cancel}, {"fastpath", fastpath}};
  MPI_Comm sync;  // separate context: the separator ring never matches a case's ANY_TAG receives
  MPI_Comm_dup(MPI_COMM_WORLD, &sync);
  std::vector<std::string> chosen;
  for (int i = 1; i < argc; ++i) chosen.push_back(argv[i]);
  if (chosen.empty())
    for (auto& [name, fn] : cases) chosen.push_back(name);
  for (const std::string& name : chosen) {
    auto it = cases.find(name);
    if (it == cases.end()) {
      if (rank == 0) std::fprintf(stderr, "p2p_suite: unknown case '%s'\n", name.c_str());
      MPI_Abort(MPI_COMM_WORLD, 2);
    }
    it->second();
    // Keep cases apart with a barrier made of point-to-point messages on its own communicator
    // (so it never matches a case's ANY_TAG receives, and needs no collectives).
    if (rank == 0) {
      for (int r = 1; r < size; ++r) MPI_Recv(nullptr, 0, MPI_BYTE, r, 0, sync, MPI_STATUS_IGNORE);
      for (int r = 1; r < size; ++r) MPI_Send(nullptr, 0, MPI_BYTE, r, 1, sync);
    } else {
      MPI_Send(nullptr, 0, MPI_BYTE, 0, 0, sync);
      MPI_Recv(nullptr, 0, MPI_BYTE, 0, 1, sync, MPI_STATUS_IGNORE);
    }
    if (rank == 0) std::printf("p2p_suite: %s ok\n", name.c_str());
  }
  MPI_Comm_free(&sync);
  MPI_Finalize();
  return 0;
}
