/* A keyval freed while attributes still carry it (MPI-3.1 §6.7.2, MPI_COMM_FREE_KEYVAL): "it is
 * not erroneous to free an attribute key that is in use, because the actual free does not
 * transpire until after all references ... to the key have been freed", by MPI_COMM_DELETE_ATTR
 * or by freeing the objects, whose delete callbacks still run. Communicators, datatypes and
 * windows alike. */
#include <mpi.h>
#include <stdio.h>

static int rank, failures;
static int comm_deletes, type_deletes, win_deletes;

#define CHECK(cond, ...)                   \
  do {                                     \
    if (!(cond)) {                         \
      printf("rank %d: FAILED: ", rank);   \
      printf(__VA_ARGS__);                 \
      printf("\n");                        \
      fflush(stdout);                      \
      ++failures;                          \
    }                                      \
  } while (0)

static int count_comm_delete(MPI_Comm comm, int keyval, void* value, void* extra) {
  (void)comm, (void)keyval, (void)extra;
  comm_deletes += *(int*)value;
  return MPI_SUCCESS;
}
static int count_type_delete(MPI_Datatype type, int keyval, void* value, void* extra) {
  (void)type, (void)keyval, (void)extra;
  type_deletes += *(int*)value;
  return MPI_SUCCESS;
}
static int count_win_delete(MPI_Win win, int keyval, void* value, void* extra) {
  (void)win, (void)keyval, (void)extra;
  win_deletes += *(int*)value;
  return MPI_SUCCESS;
}

static int one = 1, ten = 10, hundred = 100;

static void communicators(void) {
  int key, saved;
  MPI_Comm a, b, c;
  MPI_Comm_create_keyval(MPI_COMM_DUP_FN, count_comm_delete, &key, NULL);
  saved = key;
  MPI_Comm_dup(MPI_COMM_WORLD, &a);
  MPI_Comm_dup(MPI_COMM_WORLD, &b);
  MPI_Comm_set_attr(a, key, &one);
  MPI_Comm_set_attr(b, key, &ten);
  MPI_Comm_free_keyval(&key);
  CHECK(key == MPI_KEYVAL_INVALID, "MPI_Comm_free_keyval did not set the key to MPI_KEYVAL_INVALID");
  key = saved;
  /* Still carried: copied by a dup (its delete callback runs for the copy below), deletable. */
  MPI_Comm_dup(b, &c);
  int rc = MPI_Comm_delete_attr(a, key);
  CHECK(rc == MPI_SUCCESS, "MPI_Comm_delete_attr after MPI_Comm_free_keyval returned %d", rc);
  CHECK(comm_deletes == 1, "delete callback ran %d times after delete_attr, expected once", comm_deletes);
  MPI_Comm_free(&b);
  CHECK(comm_deletes == 11, "MPI_Comm_free of a communicator whose key was freed: callbacks sum %d, expected 11",
        comm_deletes);
  MPI_Comm_free(&c);
  CHECK(comm_deletes == 21, "MPI_Comm_free of the dup: callbacks sum %d, expected 21", comm_deletes);
  /* Every attribute gone: now the key is gone too. */
  MPI_Comm_set_errhandler(a, MPI_ERRORS_RETURN);
  rc = MPI_Comm_delete_attr(a, key);
  int cls = -1;
  MPI_Error_class(rc, &cls);
  CHECK(cls == MPI_ERR_KEYVAL, "a key whose last attribute was deleted still works (class %d)", cls);
  MPI_Comm_free(&a);
  CHECK(comm_deletes == 21, "callbacks ran for an attribute that was never set (sum %d)", comm_deletes);
}

static void datatypes(void) {
  int key, saved;
  MPI_Datatype t, u;
  MPI_Type_create_keyval(MPI_TYPE_DUP_FN, count_type_delete, &key, NULL);
  saved = key;
  MPI_Type_contiguous(2, MPI_INT, &t);
  MPI_Type_set_attr(t, key, &one);
  MPI_Type_free_keyval(&key);
  key = saved;
  MPI_Type_dup(t, &u);
  int rc = MPI_Type_delete_attr(t, key);
  CHECK(rc == MPI_SUCCESS, "MPI_Type_delete_attr after MPI_Type_free_keyval returned %d", rc);
  CHECK(type_deletes == 1, "type delete callback sum %d, expected 1", type_deletes);
  MPI_Type_free(&u);
  CHECK(type_deletes == 2, "MPI_Type_free of a dup carrying a freed key: callback sum %d, expected 2", type_deletes);
  MPI_Type_free(&t);
}

static void windows(void) {
  int key;
  int mem = 0;
  MPI_Win w;
  MPI_Win_create(&mem, sizeof mem, sizeof mem, MPI_INFO_NULL, MPI_COMM_WORLD, &w);
  MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, count_win_delete, &key, NULL);
  MPI_Win_set_attr(w, key, &hundred);
  MPI_Win_free_keyval(&key);
  MPI_Win_free(&w);
  CHECK(win_deletes == 100, "MPI_Win_free of a window carrying a freed key: callback sum %d, expected 100",
        win_deletes);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  communicators();
  datatypes();
  windows();
  int all = 0;
  MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0 && all == 0) printf("keyval lifetime: all checks passed\n");
  MPI_Finalize();
  return all ? 1 : 0;
}
