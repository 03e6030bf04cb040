/* MPI_Comm_set_info, MPI_Comm_get_info and MPI_Comm_dup_with_info (MPI-3.1 §6.4.2, §6.4.4):
 * get_info returns a new info object with the hints kept (every one set, as MPICH keeps them);
 * a duplicate keeps its parent's hints, dup_with_info takes the given ones instead; the new
 * communicators work and are apart from their parents. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

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

/* The value of key in comm's hints ("" when absent), and the number of hints. */
static int hint(MPI_Comm comm, const char* key, char* value) {
  MPI_Info used = MPI_INFO_NULL;
  int rc = MPI_Comm_get_info(comm, &used);
  CHECK(rc == MPI_SUCCESS && used != MPI_INFO_NULL, "get_info: rc %d", rc);
  int flag = 0, n = -1;
  value[0] = '\0';
  MPI_Info_get(used, key, MPI_MAX_INFO_VAL, value, &flag);
  if (!flag) value[0] = '\0';
  MPI_Info_get_nkeys(used, &n);
  MPI_Info_free(&used);
  return n;
}

static int error_class(int rc) {
  int cls = -1;
  MPI_Error_class(rc, &cls);
  return cls;
}

int main(int argc, char** argv) {
  int size;
  char v[MPI_MAX_INFO_VAL + 1];
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

  MPI_Comm a;
  MPI_Comm_dup(MPI_COMM_WORLD, &a);
  CHECK(hint(a, "mpi_assert_no_any_tag", v) == 0, "a new duplicate of MPI_COMM_WORLD has hints");

  MPI_Info info;
  MPI_Info_create(&info);
  MPI_Info_set(info, "mpi_assert_no_any_tag", "true");
  MPI_Info_set(info, "tilempi_test_hint", "value 1");
  int rc = MPI_Comm_set_info(a, info);
  CHECK(rc == MPI_SUCCESS, "set_info: rc %d", rc);
  MPI_Info_set(info, "tilempi_test_hint", "changed after set_info");
  CHECK(hint(a, "mpi_assert_no_any_tag", v) == 2 && strcmp(v, "true") == 0, "hint after set_info: \"%s\"", v);
  hint(a, "tilempi_test_hint", v);
  CHECK(strcmp(v, "value 1") == 0, "set_info kept a reference, not the values: \"%s\"", v);

  /* A second set_info replaces equal keys and adds new ones. */
  MPI_Info second;
  MPI_Info_create(&second);
  MPI_Info_set(second, "tilempi_test_hint", "value 2");
  MPI_Info_set(second, "another", "x");
  MPI_Comm_set_info(a, second);
  CHECK(hint(a, "tilempi_test_hint", v) == 3 && strcmp(v, "value 2") == 0, "after a second set_info: \"%s\"", v);

  /* The info returned is the caller's: changing it changes nothing in the communicator. */
  {
    MPI_Info used;
    MPI_Comm_get_info(a, &used);
    MPI_Info_set(used, "another", "y");
    MPI_Info_free(&used);
    hint(a, "another", v);
    CHECK(strcmp(v, "x") == 0, "get_info returned the communicator's own object: \"%s\"", v);
  }

  /* A duplicate keeps the hints; dup_with_info takes the given ones instead. */
  MPI_Comm b, c, d;
  MPI_Comm_dup(a, &b);
  CHECK(hint(b, "another", v) == 3 && strcmp(v, "x") == 0, "MPI_Comm_dup lost the hints: \"%s\"", v);
  MPI_Info only;
  MPI_Info_create(&only);
  MPI_Info_set(only, "tilempi_only", "yes");
  rc = MPI_Comm_dup_with_info(a, only, &c);
  CHECK(rc == MPI_SUCCESS && c != MPI_COMM_NULL, "dup_with_info: rc %d", rc);
  CHECK(hint(c, "tilempi_only", v) == 1 && strcmp(v, "yes") == 0, "dup_with_info's hints: \"%s\"", v);
  rc = MPI_Comm_dup_with_info(a, MPI_INFO_NULL, &d);
  CHECK(rc == MPI_SUCCESS && hint(d, "another", v) == 0, "dup_with_info(MPI_INFO_NULL) has hints: rc %d", rc);

  /* The duplicates work, and their messages stay apart from the parent's. */
  {
    int mine = rank + 1, sum = 0;
    MPI_Allreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, c);
    CHECK(sum == size * (size + 1) / 2, "allreduce on the dup_with_info communicator: %d", sum);
    int crank = -1, csize = -1, cmp = -1;
    MPI_Comm_rank(c, &crank);
    MPI_Comm_size(c, &csize);
    MPI_Comm_compare(c, a, &cmp);
    CHECK(crank == rank && csize == size && cmp == MPI_CONGRUENT, "dup_with_info: rank %d size %d compare %d", crank,
          csize, cmp);
    const int to = (rank + 1) % size, from = (rank + size - 1) % size;
    int on_a = 100 + rank, on_c = 200 + rank, got_a = -1, got_c = -1;
    MPI_Request r[4];
    MPI_Irecv(&got_c, 1, MPI_INT, from, 0, c, &r[0]);
    MPI_Irecv(&got_a, 1, MPI_INT, from, 0, a, &r[1]);
    MPI_Isend(&on_a, 1, MPI_INT, to, 0, a, &r[2]);
    MPI_Isend(&on_c, 1, MPI_INT, to, 0, c, &r[3]);
    MPI_Waitall(4, r, MPI_STATUSES_IGNORE);
    CHECK(got_a == 100 + from && got_c == 200 + from, "messages crossed communicators: a got %d, c got %d", got_a,
          got_c);
  }

  /* Errors. */
  MPI_Info freed;
  MPI_Info_create(&freed);
  MPI_Info_free(&freed);
  rc = MPI_Comm_set_info(MPI_COMM_NULL, info);
  CHECK(error_class(rc) == MPI_ERR_COMM, "set_info(MPI_COMM_NULL): class %d", error_class(rc));
  rc = MPI_Comm_set_info(a, 12345);
  CHECK(error_class(rc) == MPI_ERR_INFO, "set_info with a bad info: class %d", error_class(rc));
  rc = MPI_Comm_get_info(MPI_COMM_NULL, &freed);
  CHECK(error_class(rc) == MPI_ERR_COMM, "get_info(MPI_COMM_NULL): class %d", error_class(rc));
  rc = MPI_Comm_get_info(a, NULL);
  CHECK(error_class(rc) == MPI_ERR_ARG, "get_info(NULL): class %d", error_class(rc));
  MPI_Comm e = MPI_COMM_NULL;
  rc = MPI_Comm_dup_with_info(MPI_COMM_NULL, info, &e);
  CHECK(error_class(rc) == MPI_ERR_COMM, "dup_with_info(MPI_COMM_NULL): class %d", error_class(rc));
  rc = MPI_Comm_dup_with_info(a, 12345, &e);
  CHECK(error_class(rc) == MPI_ERR_INFO && e == MPI_COMM_NULL, "dup_with_info with a bad info: class %d",
        error_class(rc));
  rc = MPI_Comm_dup_with_info(a, info, NULL);
  CHECK(error_class(rc) == MPI_ERR_ARG, "dup_with_info(NULL newcomm): class %d", error_class(rc));
  /* After the errors, the communicators still agree on new ones. */
  {
    MPI_Comm f;
    int mine = 1, sum = 0;
    rc = MPI_Comm_dup_with_info(a, info, &f);
    MPI_Allreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, f);
    CHECK(rc == MPI_SUCCESS && sum == size, "a dup after the errors: rc %d, sum %d", rc, sum);
    MPI_Comm_free(&f);
  }

  MPI_Info_free(&info);
  MPI_Info_free(&second);
  MPI_Info_free(&only);
  MPI_Comm_free(&a);
  MPI_Comm_free(&b);
  MPI_Comm_free(&c);
  MPI_Comm_free(&d);
  int all = 0;
  MPI_Allreduce(&errors, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0 && all == 0) printf("functions_comm_info: %d ranks: ok\n", size);
  MPI_Finalize();
  return all != 0;
}
