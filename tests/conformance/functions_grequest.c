/* Generalized requests (MPI-3.1 §12.2): the callbacks run where the standard says, once each:
 * query_fn and then free_fn in the wait or test that completes the request (Wait, Test,
 * Waitall, Waitany, Waitsome, Testall, Testany), query_fn alone in MPI_Request_get_status,
 * free_fn in MPI_Request_free or in MPI_Grequest_complete when the free came first, cancel_fn in
 * MPI_Cancel with whether the request is complete. The status is query_fn's (MPI_Status_set_
 * elements(_x), MPI_Status_set_cancelled), and a failing callback's code is the call's.
 * MPI_Request_get_status on ordinary requests leaves them to a later wait. */
#include <mpi.h>
#include <stdio.h>

static int rank, errors;

#define CHECK(cond, ...)                                   \
  do {                                                     \
    if (!(cond)) {                                         \
      printf("rank %d: line %d: ", rank, __LINE__);        \
      printf(__VA_ARGS__);                                 \
      printf("\n");                                        \
      ++errors;                                            \
    }                                                      \
  } while (0)

typedef struct {
  int queries, frees, cancels, last_complete;
  int query_rc, free_rc;  /* what the callbacks return */
  int elements;           /* MPI_INT elements query_fn reports */
} State;

static int query_fn(void* extra, MPI_Status* status) {
  State* s = (State*)extra;
  ++s->queries;
  status->MPI_SOURCE = 7;
  status->MPI_TAG = 9;
  MPI_Status_set_elements(status, MPI_INT, s->elements);
  MPI_Status_set_cancelled(status, s->cancels > 0);
  return s->query_rc;
}

static int free_fn(void* extra) {
  State* s = (State*)extra;
  ++s->frees;
  return s->free_rc;
}

static int cancel_fn(void* extra, int complete) {
  State* s = (State*)extra;
  ++s->cancels;
  s->last_complete = complete;
  return MPI_SUCCESS;
}

static State fresh(int elements) {
  State s = {0, 0, 0, -1, MPI_SUCCESS, MPI_SUCCESS, elements};
  return s;
}

static int error_class(int rc) {
  int cls = -1;
  MPI_Error_class(rc, &cls);
  return cls;
}

int main(int argc, char** argv) {
  int size, flag, count;
  MPI_Status st;
  MPI_Request r, rs[4];
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

  /* Pending until MPI_Grequest_complete; get_status asks query_fn only; the wait both. */
  {
    State s = fresh(5);
    MPI_Grequest_start(query_fn, free_fn, cancel_fn, &s, &r);
    MPI_Test(&r, &flag, &st);
    CHECK(!flag && r != MPI_REQUEST_NULL, "MPI_Test of a pending generalized request: flag %d", flag);
    MPI_Request_get_status(r, &flag, &st);
    CHECK(!flag && s.queries == 0, "get_status before complete: flag %d, %d queries", flag, s.queries);
    MPI_Grequest_complete(r);
    CHECK(s.queries == 0 && s.frees == 0, "MPI_Grequest_complete ran callbacks: %d queries, %d frees", s.queries,
          s.frees);
    int rc = MPI_Request_get_status(r, &flag, &st);
    CHECK(rc == MPI_SUCCESS && flag && s.queries == 1 && s.frees == 0 && st.MPI_SOURCE == 7 && st.MPI_TAG == 9,
          "get_status after complete: rc %d flag %d, %d queries, %d frees, source %d tag %d", rc, flag, s.queries,
          s.frees, st.MPI_SOURCE, st.MPI_TAG);
    rc = MPI_Wait(&r, &st);
    CHECK(rc == MPI_SUCCESS && r == MPI_REQUEST_NULL && s.queries == 2 && s.frees == 1,
          "MPI_Wait: rc %d, %d queries, %d frees", rc, s.queries, s.frees);
    MPI_Get_count(&st, MPI_INT, &count);
    CHECK(st.MPI_SOURCE == 7 && st.MPI_TAG == 9 && count == 5, "the status is query_fn's: source %d tag %d count %d",
          st.MPI_SOURCE, st.MPI_TAG, count);
    MPI_Test_cancelled(&st, &flag);
    CHECK(!flag, "not cancelled, yet MPI_Test_cancelled says %d", flag);
  }

  /* With MPI_STATUS_IGNORE query_fn still gets a status; MPI_Test completes like MPI_Wait. */
  {
    State s = fresh(1);
    MPI_Grequest_start(query_fn, free_fn, cancel_fn, &s, &r);
    MPI_Grequest_complete(r);
    MPI_Test(&r, &flag, MPI_STATUS_IGNORE);
    CHECK(flag && r == MPI_REQUEST_NULL && s.queries == 1 && s.frees == 1, "MPI_Test: flag %d, %d queries, %d frees",
          flag, s.queries, s.frees);
  }

  /* Waitall over generalized requests and a receive; Testall; Waitany; Testany; Waitsome. */
  {
    State a = fresh(2), b = fresh(3);
    int in = -1, out = 40 + rank;
    const int to = (rank + 1) % size, from = (rank + size - 1) % size;
    MPI_Grequest_start(query_fn, free_fn, cancel_fn, &a, &rs[0]);
    MPI_Irecv(&in, 1, MPI_INT, from, 1, MPI_COMM_WORLD, &rs[1]);
    MPI_Grequest_start(query_fn, free_fn, cancel_fn, &b, &rs[2]);
    MPI_Isend(&out, 1, MPI_INT, to, 1, MPI_COMM_WORLD, &rs[3]);
    MPI_Testall(4, rs, &flag, MPI_STATUSES_IGNORE);
    CHECK(!flag && a.queries == 0, "Testall with pending generalized requests: flag %d", flag);
    MPI_Grequest_complete(rs[2]);
    MPI_Grequest_complete(rs[0]);
    MPI_Status sts[4];
    int rc = MPI_Waitall(4, rs, sts);
    CHECK(rc == MPI_SUCCESS && a.queries == 1 && a.frees == 1 && b.queries == 1 && b.frees == 1 && in == 40 + from,
          "Waitall: rc %d, a %d/%d, b %d/%d, received %d", rc, a.queries, a.frees, b.queries, b.frees, in);
    int ca = -1, cb = -1;
    MPI_Get_count(&sts[0], MPI_INT, &ca);
    MPI_Get_count(&sts[2], MPI_INT, &cb);
    CHECK(ca == 2 && cb == 3 && sts[1].MPI_SOURCE == from, "Waitall statuses: counts %d %d, receive from %d", ca, cb,
          sts[1].MPI_SOURCE);

    State c = fresh(4), d = fresh(6);
    MPI_Grequest_start(query_fn, free_fn, cancel_fn, &c, &rs[0]);
    MPI_Grequest_start(query_fn, free_fn, cancel_fn, &d, &rs[1]);
    int index = -1;
    MPI_Testany(2, rs, &index, &flag, &st);
    CHECK(!flag && index == MPI_UNDEFINED, "Testany with none complete: flag %d index %d", flag, index);
    MPI_Grequest_complete(rs[1]);
    MPI_Waitany(2, rs, &index, &st);
    MPI_Get_count(&st, MPI_INT, &count);
    CHECK(index == 1 && rs[1] == MPI_REQUEST_NULL && d.frees == 1 && count == 6 && c.queries == 0,
          "Waitany: index %d, count %d, d freed %d, c queried %d", index, count, d.frees, c.queries);
    MPI_Grequest_complete(rs[0]);
    int outcount = -1, indices[2];
    MPI_Waitsome(2, rs, &outcount, indices, sts);
    CHECK(outcount == 1 && indices[0] == 0 && c.frees == 1, "Waitsome: %d done, first %d, c freed %d", outcount,
          indices[0], c.frees);
    State e = fresh(0);
    MPI_Grequest_start(query_fn, free_fn, cancel_fn, &e, &rs[0]);
    MPI_Grequest_complete(rs[0]);
    MPI_Testany(1, rs, &index, &flag, &st);
    CHECK(flag && index == 0 && e.queries == 1 && e.frees == 1, "Testany: flag %d index %d", flag, index);
  }

  /* MPI_Request_free: before completion, free_fn runs in MPI_Grequest_complete; after, at once. */
  {
    State s = fresh(0);
    MPI_Grequest_start(query_fn, free_fn, cancel_fn, &s, &r);
    MPI_Request_free(&r);
    CHECK(r == MPI_REQUEST_NULL && s.frees == 0, "Request_free before complete ran free_fn %d times", s.frees);
    State t = fresh(0);
    MPI_Request r2;
    MPI_Grequest_start(query_fn, free_fn, cancel_fn, &t, &r2);
    MPI_Grequest_complete(r2);
    MPI_Request_free(&r2);
    CHECK(t.frees == 1 && t.queries == 0, "Request_free after complete: %d frees, %d queries", t.frees, t.queries);
  }
  {
    /* The first case's request: freed, then completed; its free_fn runs then. */
    State s = fresh(0);
    MPI_Grequest_start(query_fn, free_fn, cancel_fn, &s, &r);
    MPI_Request handle = r;
    MPI_Request_free(&r);
    MPI_Grequest_complete(handle);
    CHECK(s.frees == 1 && s.queries == 0, "freed, then completed: %d frees, %d queries", s.frees, s.queries);
  }

  /* MPI_Cancel: cancel_fn, told whether the request is complete; query_fn reports it. */
  {
    State s = fresh(0);
    MPI_Grequest_start(query_fn, free_fn, cancel_fn, &s, &r);
    MPI_Cancel(&r);
    CHECK(s.cancels == 1 && s.last_complete == 0, "cancel before complete: %d calls, complete %d", s.cancels,
          s.last_complete);
    MPI_Grequest_complete(r);
    MPI_Cancel(&r);
    CHECK(s.cancels == 2 && s.last_complete != 0, "cancel after complete: %d calls, complete %d", s.cancels,
          s.last_complete);
    MPI_Wait(&r, &st);
    MPI_Test_cancelled(&st, &flag);
    CHECK(flag, "query_fn set the status cancelled; MPI_Test_cancelled says %d", flag);
  }

  /* A failing callback's code is the call's: free_fn's before query_fn's. */
  {
    State s = fresh(0);
    s.query_rc = MPI_ERR_OTHER;
    MPI_Grequest_start(query_fn, free_fn, cancel_fn, &s, &r);
    MPI_Grequest_complete(r);
    int rc = MPI_Wait(&r, &st);
    CHECK(error_class(rc) == MPI_ERR_OTHER && s.frees == 1, "query_fn fails: MPI_Wait class %d, frees %d",
          error_class(rc), s.frees);
    State t = fresh(0);
    t.query_rc = MPI_ERR_OTHER;
    t.free_rc = MPI_ERR_INTERN;
    MPI_Grequest_start(query_fn, free_fn, cancel_fn, &t, &r);
    MPI_Grequest_complete(r);
    rc = MPI_Wait(&r, &st);
    CHECK(error_class(rc) == MPI_ERR_INTERN, "free_fn fails too: MPI_Wait class %d", error_class(rc));
    State u = fresh(0), v = fresh(0);
    u.query_rc = MPI_ERR_ARG;
    MPI_Grequest_start(query_fn, free_fn, cancel_fn, &u, &rs[0]);
    MPI_Grequest_start(query_fn, free_fn, cancel_fn, &v, &rs[1]);
    MPI_Grequest_complete(rs[0]);
    MPI_Grequest_complete(rs[1]);
    MPI_Status sts[2];
    rc = MPI_Waitall(2, rs, sts);
    CHECK(rc == MPI_ERR_IN_STATUS && sts[0].MPI_ERROR == MPI_ERR_ARG && sts[1].MPI_ERROR == MPI_SUCCESS,
          "Waitall with a failing query_fn: rc %d, errors %d %d", rc, sts[0].MPI_ERROR, sts[1].MPI_ERROR);
  }

  /* The status setters themselves. */
  {
    MPI_Status s;
    MPI_Count big = (MPI_Count)1 << 33, got = 0;
    int rc = MPI_Status_set_elements_x(&s, MPI_DOUBLE, big);
    MPI_Get_elements_x(&s, MPI_DOUBLE, &got);
    CHECK(rc == MPI_SUCCESS && got == big, "set_elements_x(2^33 doubles): get_elements_x %lld", (long long)got);
    MPI_Datatype pair;
    MPI_Type_contiguous(2, MPI_SHORT, &pair);
    MPI_Type_commit(&pair);
    MPI_Status_set_elements(&s, pair, 7);
    int elements = -1;
    MPI_Get_elements(&s, pair, &elements);
    MPI_Get_count(&s, pair, &count);
    CHECK(elements == 7 && count == MPI_UNDEFINED, "7 shorts as pairs: %d elements, count %d", elements, count);
    MPI_Status_set_elements(&s, pair, 8);
    MPI_Get_count(&s, pair, &count);
    CHECK(count == 4, "8 shorts as pairs: count %d", count);
    MPI_Type_free(&pair);
    MPI_Status_set_cancelled(&s, 1);
    MPI_Test_cancelled(&s, &flag);
    CHECK(flag, "set_cancelled(1): %d", flag);
    MPI_Status_set_cancelled(&s, 0);
    MPI_Test_cancelled(&s, &flag);
    CHECK(!flag, "set_cancelled(0): %d", flag);
    rc = MPI_Status_set_elements(&s, MPI_INT, -1);
    CHECK(error_class(rc) == MPI_ERR_COUNT, "set_elements(-1): class %d", error_class(rc));
    rc = MPI_Status_set_elements(&s, MPI_DATATYPE_NULL, 1);
    CHECK(error_class(rc) == MPI_ERR_TYPE, "set_elements(MPI_DATATYPE_NULL): class %d", error_class(rc));
  }

  /* MPI_Request_get_status on an ordinary receive: not complete until the message comes, and the
   * request stays for the wait. */
  {
    const int to = (rank + 1) % size, from = (rank + size - 1) % size;
    int in = -1, out = 70 + rank;
    MPI_Irecv(&in, 1, MPI_INT, from, 2, MPI_COMM_WORLD, &r);
    MPI_Request_get_status(r, &flag, &st);
    CHECK(!flag, "get_status of a receive whose message is not sent yet: flag %d", flag);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Send(&out, 1, MPI_INT, to, 2, MPI_COMM_WORLD);
    do MPI_Request_get_status(r, &flag, &st);
    while (!flag);
    CHECK(r != MPI_REQUEST_NULL && st.MPI_SOURCE == from && st.MPI_TAG == 2 && in == 70 + from,
          "get_status of the completed receive: source %d tag %d value %d", st.MPI_SOURCE, st.MPI_TAG, in);
    int rc = MPI_Wait(&r, &st);
    CHECK(rc == MPI_SUCCESS && r == MPI_REQUEST_NULL && st.MPI_SOURCE == from, "the wait after get_status: rc %d", rc);
    MPI_Request_get_status(MPI_REQUEST_NULL, &flag, &st);
    CHECK(flag && st.MPI_SOURCE == MPI_ANY_SOURCE, "get_status(MPI_REQUEST_NULL): flag %d source %d", flag,
          st.MPI_SOURCE);
  }

  /* Errors. */
  {
    int rc = MPI_Grequest_complete(MPI_REQUEST_NULL);
    CHECK(error_class(rc) == MPI_ERR_REQUEST, "Grequest_complete(MPI_REQUEST_NULL): class %d", error_class(rc));
    int in;
    MPI_Irecv(&in, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &r);
    rc = MPI_Grequest_complete(r);
    CHECK(error_class(rc) == MPI_ERR_REQUEST, "Grequest_complete of a receive: class %d", error_class(rc));
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    State s = fresh(0);
    MPI_Grequest_start(query_fn, free_fn, cancel_fn, &s, &r);
    MPI_Grequest_complete(r);
    rc = MPI_Grequest_complete(r);
    CHECK(error_class(rc) == MPI_ERR_REQUEST, "Grequest_complete twice: class %d", error_class(rc));
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    rc = MPI_Grequest_start(query_fn, free_fn, cancel_fn, &s, NULL);
    CHECK(error_class(rc) == MPI_ERR_ARG, "Grequest_start(NULL request): class %d", error_class(rc));
    rc = MPI_Request_get_status(12345, &flag, &st);
    CHECK(error_class(rc) == MPI_ERR_REQUEST, "get_status of an unknown request: class %d", error_class(rc));
    rc = MPI_Request_get_status(MPI_REQUEST_NULL, NULL, &st);
    CHECK(error_class(rc) == MPI_ERR_ARG, "get_status with a NULL flag: class %d", error_class(rc));
  }

  int all = 0;
  MPI_Allreduce(&errors, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0 && all == 0) printf("functions_grequest: %d ranks: ok\n", size);
  MPI_Finalize();
  return all != 0;
}
