// Error handlers and attribute caching: user handlers (MPI_Comm_create_errhandler and the MPI-1
// names) called with the communicator and the error class, inherited by duplicates,
// MPI_Comm_call_errhandler; keyvals with copy and delete callbacks on communicators (MPI-2 and
// MPI-1 names) and datatypes, the predefined attributes, and the error cases of each.
#include <mpi.h>

#include <cstdio>
#include <cstdint>

namespace {

int g_rank = 0;

#define CHECK(cond)                                                                                 \
  do {                                                                                              \
    if (!(cond)) {                                                                                  \
      std::fprintf(stderr, "rank %d: %s:%d: check failed: %s\n", g_rank, __FILE__, __LINE__, #cond); \
      std::fflush(stderr);                                                                          \
      MPI_Abort(MPI_COMM_WORLD, 99);                                                                \
    }                                                                                               \
  } while (0)

int error_class(int rc) {
  int c = 0;
  MPI_Error_class(rc, &c);
  return c;
}

// ---- error handlers -------------------------------------------------------------------------------

int g_calls = 0, g_last_class = 0;
MPI_Comm g_last_comm = MPI_COMM_NULL;
void counting_handler(MPI_Comm* comm, int* code, ...) {
  ++g_calls;
  g_last_comm = *comm;
  MPI_Error_class(*code, &g_last_class);
}

void test_errhandlers() {
  MPI_Errhandler eh = MPI_ERRHANDLER_NULL, got = MPI_ERRHANDLER_NULL;
  CHECK(MPI_Comm_create_errhandler(counting_handler, &eh) == MPI_SUCCESS);
  MPI_Comm dup;
  CHECK(MPI_Comm_dup(MPI_COMM_WORLD, &dup) == MPI_SUCCESS);
  CHECK(MPI_Comm_set_errhandler(dup, eh) == MPI_SUCCESS);
  CHECK(MPI_Comm_get_errhandler(dup, &got) == MPI_SUCCESS && got == eh);
  CHECK(MPI_Errhandler_free(&got) == MPI_SUCCESS && got == MPI_ERRHANDLER_NULL);
  // A bad argument calls the handler with the communicator and the class, then returns it.
  int size = 0;
  MPI_Comm_size(dup, &size);
  const int rc = MPI_Send(nullptr, 0, MPI_INT, size, 0, dup);
  CHECK(error_class(rc) == MPI_ERR_RANK && g_calls == 1 && g_last_comm == dup && g_last_class == MPI_ERR_RANK);
  // A duplicate inherits it; MPI_Comm_call_errhandler calls it.
  MPI_Comm dup2;
  CHECK(MPI_Comm_dup(dup, &dup2) == MPI_SUCCESS);
  CHECK(MPI_Comm_call_errhandler(dup2, MPI_ERR_OTHER) == MPI_SUCCESS);
  CHECK(g_calls == 2 && g_last_comm == dup2 && g_last_class == MPI_ERR_OTHER);
  // The handle is freed while communicators still use it: they keep calling it.
  CHECK(MPI_Errhandler_free(&eh) == MPI_SUCCESS);
  CHECK(error_class(MPI_Barrier(MPI_COMM_NULL)) == MPI_ERR_COMM);  // world's handler: returns
  MPI_Comm_call_errhandler(dup, MPI_ERR_ARG);
  CHECK(g_calls == 3 && g_last_class == MPI_ERR_ARG);
  // MPI-1 names.
  MPI_Errhandler old_style;
  CHECK(MPI_Errhandler_create(counting_handler, &old_style) == MPI_SUCCESS);
  CHECK(MPI_Errhandler_set(dup2, old_style) == MPI_SUCCESS);
  CHECK(MPI_Errhandler_get(dup2, &got) == MPI_SUCCESS && got == old_style);
  MPI_Errhandler_free(&got);
  CHECK(error_class(MPI_Bcast(nullptr, -1, MPI_INT, 0, dup2)) == MPI_ERR_COUNT && g_calls == 4);
  // Errors: an invalid handle, NULL arguments.
  CHECK(error_class(MPI_Comm_set_errhandler(MPI_COMM_WORLD, 12345)) == MPI_ERR_ARG);
  CHECK(error_class(MPI_Comm_set_errhandler(MPI_COMM_WORLD, eh)) == MPI_ERR_ARG);  // freed: MPI_ERRHANDLER_NULL
  CHECK(error_class(MPI_Comm_create_errhandler(nullptr, &got)) == MPI_ERR_ARG);
  CHECK(error_class(MPI_Comm_get_errhandler(MPI_COMM_WORLD, nullptr)) == MPI_ERR_ARG);
  CHECK(error_class(MPI_Comm_call_errhandler(MPI_COMM_NULL, MPI_ERR_OTHER)) == MPI_ERR_COMM);
  MPI_Errhandler_free(&old_style);
  MPI_Comm_free(&dup2);
  MPI_Comm_free(&dup);
}

// ---- attributes ------------------------------------------------------------------------------------

int g_copies = 0, g_deletes = 0;
int copy_plus_one(MPI_Comm, int, void* extra, void* in, void* out, int* flag) {
  ++g_copies;
  CHECK(reinterpret_cast<std::intptr_t>(extra) == 42);
  *static_cast<void**>(out) = reinterpret_cast<void*>(reinterpret_cast<std::intptr_t>(in) + 1);
  *flag = 1;
  return MPI_SUCCESS;
}
int count_delete(MPI_Comm, int, void*, void*) {
  ++g_deletes;
  return MPI_SUCCESS;
}
int failing_copy(MPI_Comm, int, void*, void*, void*, int* flag) {
  *flag = 0;
  return MPI_ERR_OTHER;
}
int type_copy(MPI_Datatype, int, void*, void* in, void* out, int* flag) {
  *static_cast<void**>(out) = in;
  *flag = 1;
  return MPI_SUCCESS;
}
int type_delete(MPI_Datatype, int, void*, void*) {
  ++g_deletes;
  return MPI_SUCCESS;
}

void* as_ptr(std::intptr_t v) { return reinterpret_cast<void*>(v); }

void test_comm_attributes() {
  int key = MPI_KEYVAL_INVALID, nocopy = MPI_KEYVAL_INVALID, dupkey = MPI_KEYVAL_INVALID;
  CHECK(MPI_Comm_create_keyval(copy_plus_one, count_delete, &key, as_ptr(42)) == MPI_SUCCESS);
  CHECK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &nocopy, nullptr) == MPI_SUCCESS);
  CHECK(MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, &dupkey, nullptr) == MPI_SUCCESS);
  MPI_Comm c;
  CHECK(MPI_Comm_dup(MPI_COMM_WORLD, &c) == MPI_SUCCESS);
  void* v = nullptr;
  int flag = 1;
  CHECK(MPI_Comm_get_attr(c, key, &v, &flag) == MPI_SUCCESS && flag == 0);
  CHECK(MPI_Comm_set_attr(c, key, as_ptr(10)) == MPI_SUCCESS);
  CHECK(MPI_Comm_set_attr(c, nocopy, as_ptr(20)) == MPI_SUCCESS);
  CHECK(MPI_Comm_set_attr(c, dupkey, as_ptr(30)) == MPI_SUCCESS);
  // Setting again deletes the old value first.
  CHECK(MPI_Comm_set_attr(c, key, as_ptr(11)) == MPI_SUCCESS && g_deletes == 1);
  CHECK(MPI_Comm_get_attr(c, key, &v, &flag) == MPI_SUCCESS && flag == 1 && v == as_ptr(11));
  // A duplicate: the copy callbacks decide.
  MPI_Comm d;
  CHECK(MPI_Comm_dup(c, &d) == MPI_SUCCESS && g_copies == 1);
  CHECK(MPI_Comm_get_attr(d, key, &v, &flag) == MPI_SUCCESS && flag == 1 && v == as_ptr(12));
  CHECK(MPI_Comm_get_attr(d, nocopy, &v, &flag) == MPI_SUCCESS && flag == 0);
  CHECK(MPI_Comm_get_attr(d, dupkey, &v, &flag) == MPI_SUCCESS && flag == 1 && v == as_ptr(30));
  // Delete, then free: the delete callbacks run once per attribute.
  CHECK(MPI_Comm_delete_attr(d, key) == MPI_SUCCESS && g_deletes == 2);
  CHECK(error_class(MPI_Comm_delete_attr(d, key)) == MPI_ERR_KEYVAL);
  CHECK(MPI_Comm_free(&d) == MPI_SUCCESS && g_deletes == 2);
  CHECK(MPI_Comm_free(&c) == MPI_SUCCESS && g_deletes == 3);
  // A freed keyval is invalid for new use.
  CHECK(MPI_Comm_free_keyval(&nocopy) == MPI_SUCCESS && nocopy == MPI_KEYVAL_INVALID);
  int freed = nocopy;
  CHECK(error_class(MPI_Comm_set_attr(MPI_COMM_WORLD, freed, nullptr)) == MPI_ERR_KEYVAL);
  // A failing copy callback fails the duplication.
  int bad = MPI_KEYVAL_INVALID;
  CHECK(MPI_Comm_create_keyval(failing_copy, MPI_COMM_NULL_DELETE_FN, &bad, nullptr) == MPI_SUCCESS);
  MPI_Comm e;
  CHECK(MPI_Comm_dup(MPI_COMM_WORLD, &e) == MPI_SUCCESS && MPI_Comm_set_attr(e, bad, as_ptr(1)) == MPI_SUCCESS);
  MPI_Comm f = MPI_COMM_NULL;
  CHECK(error_class(MPI_Comm_dup(e, &f)) == MPI_ERR_OTHER && f == MPI_COMM_NULL);
  CHECK(MPI_Comm_free(&e) == MPI_SUCCESS);
  // MPI-1 names.
  int old_key = MPI_KEYVAL_INVALID;
  CHECK(MPI_Keyval_create(MPI_DUP_FN, MPI_NULL_DELETE_FN, &old_key, nullptr) == MPI_SUCCESS);
  CHECK(MPI_Attr_put(MPI_COMM_WORLD, old_key, as_ptr(7)) == MPI_SUCCESS);
  CHECK(MPI_Attr_get(MPI_COMM_WORLD, old_key, &v, &flag) == MPI_SUCCESS && flag == 1 && v == as_ptr(7));
  CHECK(MPI_Attr_delete(MPI_COMM_WORLD, old_key) == MPI_SUCCESS);
  CHECK(MPI_Keyval_free(&old_key) == MPI_SUCCESS);
  // Predefined attributes, and what may not be done with them.
  int* p = nullptr;
  CHECK(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &p, &flag) == MPI_SUCCESS && flag && *p >= 32767);
  CHECK(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_WTIME_IS_GLOBAL, &p, &flag) == MPI_SUCCESS && flag && (*p == 0 || *p == 1));
  CHECK(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_APPNUM, &p, &flag) == MPI_SUCCESS && flag && *p == 0);
  CHECK(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_UNIVERSE_SIZE, &p, &flag) == MPI_SUCCESS && flag && *p >= 1);
  CHECK(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &p, &flag) == MPI_SUCCESS && flag && *p == MPI_ERR_LASTCODE);
  CHECK(error_class(MPI_Comm_set_attr(MPI_COMM_WORLD, MPI_TAG_UB, nullptr)) == MPI_ERR_KEYVAL);
  CHECK(error_class(MPI_Comm_delete_attr(MPI_COMM_WORLD, MPI_TAG_UB)) == MPI_ERR_KEYVAL);
  CHECK(error_class(MPI_Comm_get_attr(MPI_COMM_WORLD, 9999, &v, &flag)) == MPI_ERR_KEYVAL);
  CHECK(error_class(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, nullptr, &flag)) == MPI_ERR_ARG);
  CHECK(error_class(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, nullptr, nullptr)) == MPI_ERR_ARG);
  CHECK(error_class(MPI_Comm_set_attr(MPI_COMM_NULL, key, nullptr)) == MPI_ERR_COMM);
  MPI_Comm_free_keyval(&key);
  MPI_Comm_free_keyval(&dupkey);
  MPI_Comm_free_keyval(&bad);
}

void test_type_attributes() {
  int key = MPI_KEYVAL_INVALID, ckey = MPI_KEYVAL_INVALID;
  CHECK(MPI_Type_create_keyval(type_copy, type_delete, &key, nullptr) == MPI_SUCCESS);
  MPI_Datatype t, u;
  CHECK(MPI_Type_contiguous(3, MPI_INT, &t) == MPI_SUCCESS);
  CHECK(MPI_Type_set_attr(t, key, as_ptr(5)) == MPI_SUCCESS);
  CHECK(MPI_Type_dup(t, &u) == MPI_SUCCESS);
  void* v = nullptr;
  int flag = 0;
  CHECK(MPI_Type_get_attr(u, key, &v, &flag) == MPI_SUCCESS && flag && v == as_ptr(5));
  const int before = g_deletes;
  CHECK(MPI_Type_free(&u) == MPI_SUCCESS && g_deletes == before + 1);
  CHECK(MPI_Type_delete_attr(t, key) == MPI_SUCCESS && g_deletes == before + 2);
  CHECK(MPI_Type_get_attr(t, key, &v, &flag) == MPI_SUCCESS && !flag);
  // A communicator key on a type and the other way round are MPI_ERR_KEYVAL.
  CHECK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &ckey, nullptr) == MPI_SUCCESS);
  CHECK(error_class(MPI_Type_set_attr(t, ckey, nullptr)) == MPI_ERR_KEYVAL);
  CHECK(error_class(MPI_Comm_set_attr(MPI_COMM_WORLD, key, nullptr)) == MPI_ERR_KEYVAL);
  CHECK(error_class(MPI_Type_set_attr(MPI_DATATYPE_NULL, key, nullptr)) == MPI_ERR_TYPE);
  CHECK(MPI_Type_free_keyval(&key) == MPI_SUCCESS && key == MPI_KEYVAL_INVALID);
  MPI_Comm_free_keyval(&ckey);
  MPI_Type_free(&t);
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  test_errhandlers();
  test_comm_attributes();
  test_type_attributes();
  // MPI_Finalize runs MPI_COMM_SELF's delete callbacks (MPI-3.1 §8.7.1): checked by the count.
  int key = MPI_KEYVAL_INVALID;
  CHECK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, count_delete, &key, nullptr) == MPI_SUCCESS);
  CHECK(MPI_Comm_set_attr(MPI_COMM_SELF, key, nullptr) == MPI_SUCCESS);
  const int before = g_deletes;
  MPI_Barrier(MPI_COMM_WORLD);
  int n = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  MPI_Finalize();
  CHECK(g_deletes == before + 1);
  if (g_rank == 0) std::printf("attributes_suite: %d ranks: ok\n", n);
  return 0;
}
