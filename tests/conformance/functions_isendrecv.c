/* MPI-4's MPI_Isendrecv and MPI_Isendrecv_replace: a ring exchange with each, derived types, the
 * receive's status, MPI_PROC_NULL and MPI_ANY_SOURCE, several in flight at once completed by
 * Waitall, Test and Waitany, and the argument errors. */
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

static int error_class(int rc) {
  int cls = -1;
  MPI_Error_class(rc, &cls);
  return cls;
}

int main(int argc, char** argv) {
  int size, flag;
  MPI_Status st;
  MPI_Request r;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  const int to = (rank + 1) % size, from = (rank + size - 1) % size;

  /* A ring exchange: the status is the receive's. */
  {
    int out[3] = {rank, 10 * rank, 100 * rank}, in[3] = {-1, -1, -1};
    int rc = MPI_Isendrecv(out, 3, MPI_INT, to, 4, in, 3, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &r);
    CHECK(rc == MPI_SUCCESS && r != MPI_REQUEST_NULL, "Isendrecv: rc %d", rc);
    rc = MPI_Wait(&r, &st);
    int count = -1;
    MPI_Get_count(&st, MPI_INT, &count);
    CHECK(rc == MPI_SUCCESS && in[0] == from && in[2] == 100 * from && st.MPI_SOURCE == from && st.MPI_TAG == 4 &&
              count == 3,
          "Isendrecv: got %d %d %d, source %d tag %d count %d", in[0], in[1], in[2], st.MPI_SOURCE, st.MPI_TAG, count);
  }

  /* _replace with a strided type, completed by polling MPI_Test. */
  {
    double buf[8];
    for (int i = 0; i < 8; ++i) buf[i] = rank * 10 + i;
    MPI_Datatype every_other;
    MPI_Type_vector(4, 1, 2, MPI_DOUBLE, &every_other);
    MPI_Type_commit(&every_other);
    MPI_Isendrecv_replace(buf, 1, every_other, to, 5, from, 5, MPI_COMM_WORLD, &r);
    MPI_Type_free(&every_other); /* the pending call keeps its own description */
    do MPI_Test(&r, &flag, &st);
    while (!flag);
    for (int i = 0; i < 8; ++i) {
      const double want = (i % 2 == 0 ? from : rank) * 10 + i;
      CHECK(buf[i] == want, "Isendrecv_replace: buf[%d] = %g, want %g", i, buf[i], want);
    }
    CHECK(st.MPI_SOURCE == from && st.MPI_TAG == 5, "Isendrecv_replace status: source %d tag %d", st.MPI_SOURCE,
          st.MPI_TAG);
  }

  /* Several in flight, both directions, with MPI_PROC_NULL partners at the ends of a line. */
  {
    const int left = rank > 0 ? rank - 1 : MPI_PROC_NULL, right = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;
    int a = rank, b = -1, c = rank + 1000, d = -1;
    MPI_Request rs[3];
    MPI_Status sts[3];
    MPI_Isendrecv(&a, 1, MPI_INT, right, 6, &b, 1, MPI_INT, left, 6, MPI_COMM_WORLD, &rs[0]);
    MPI_Isendrecv(&c, 1, MPI_INT, left, 7, &d, 1, MPI_INT, right, 7, MPI_COMM_WORLD, &rs[1]);
    int e = rank;
    MPI_Isendrecv_replace(&e, 1, MPI_INT, MPI_PROC_NULL, 8, MPI_PROC_NULL, 8, MPI_COMM_WORLD, &rs[2]);
    int rc = MPI_Waitall(3, rs, sts);
    CHECK(rc == MPI_SUCCESS, "Waitall: rc %d", rc);
    CHECK(b == (left == MPI_PROC_NULL ? -1 : left) && d == (right == MPI_PROC_NULL ? -1 : right + 1000),
          "line exchange: b %d d %d", b, d);
    CHECK(sts[0].MPI_SOURCE == left && e == rank && sts[2].MPI_SOURCE == MPI_PROC_NULL,
          "statuses: source %d, PROC_NULL source %d", sts[0].MPI_SOURCE, sts[2].MPI_SOURCE);
    int index = -1;
    MPI_Isendrecv(&a, 1, MPI_INT, to, 9, &b, 1, MPI_INT, from, 9, MPI_COMM_WORLD, &rs[0]);
    MPI_Waitany(1, rs, &index, &st);
    CHECK(index == 0 && b == from && rs[0] == MPI_REQUEST_NULL, "Waitany: index %d b %d", index, b);
  }

  /* Errors: nothing is started. */
  {
    int x = 0, y = 0;
    int rc = MPI_Isendrecv(&x, 1, MPI_INT, size, 0, &y, 1, MPI_INT, from, 0, MPI_COMM_WORLD, &r);
    CHECK(error_class(rc) == MPI_ERR_RANK, "destination outside: class %d", error_class(rc));
    rc = MPI_Isendrecv(&x, 1, MPI_INT, to, -5, &y, 1, MPI_INT, from, 0, MPI_COMM_WORLD, &r);
    CHECK(error_class(rc) == MPI_ERR_TAG, "negative send tag: class %d", error_class(rc));
    rc = MPI_Isendrecv(&x, -1, MPI_INT, to, 0, &y, 1, MPI_INT, from, 0, MPI_COMM_WORLD, &r);
    CHECK(error_class(rc) == MPI_ERR_COUNT, "negative count: class %d", error_class(rc));
    rc = MPI_Isendrecv(&x, 1, MPI_INT, to, 0, &y, 1, MPI_DATATYPE_NULL, from, 0, MPI_COMM_WORLD, &r);
    CHECK(error_class(rc) == MPI_ERR_TYPE, "null receive type: class %d", error_class(rc));
    rc = MPI_Isendrecv(&x, 1, MPI_INT, to, 0, &y, 1, MPI_INT, from, 0, MPI_COMM_NULL, &r);
    CHECK(error_class(rc) == MPI_ERR_COMM, "MPI_COMM_NULL: class %d", error_class(rc));
    rc = MPI_Isendrecv(&x, 1, MPI_INT, to, 0, &y, 1, MPI_INT, from, 0, MPI_COMM_WORLD, NULL);
    CHECK(error_class(rc) == MPI_ERR_ARG, "NULL request: class %d", error_class(rc));
    rc = MPI_Isendrecv_replace(&x, 1, MPI_INT, to, 0, size + 3, 0, MPI_COMM_WORLD, &r);
    CHECK(error_class(rc) == MPI_ERR_RANK, "_replace with a source outside: class %d", error_class(rc));
    /* Nothing was sent by the failed calls: the next exchange gets the right data. */
    int out = 500 + rank, in = -1;
    MPI_Isendrecv(&out, 1, MPI_INT, to, 0, &in, 1, MPI_INT, from, 0, MPI_COMM_WORLD, &r);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    CHECK(in == 500 + from, "after the errors: received %d", in);
  }

  int all = 0;
  MPI_Allreduce(&errors, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0 && all == 0) printf("functions_isendrecv: %d ranks: ok\n", size);
  MPI_Finalize();
  return all != 0;
}
