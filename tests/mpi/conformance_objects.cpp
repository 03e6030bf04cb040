// Conformance of the object calls of issue 18 (info and memory, error handlers, attributes,
// datatypes and packing, operations, communicators and groups): every bad argument returns its
// MPI error class under MPI_ERRORS_RETURN, and the library works afterwards. Cases the other
// suites check already (requests_suite, attributes_suite, datatype_suite, groups_suite,
// errors_suite) are not repeated.
#include <mpi.h>

#include <cstring>
#include <vector>

#include "conformance.h"

namespace {

int g_rank, g_size;

void info_and_memory() {
  MPI_Info info;
  MPI_Info_create(&info);
  MPI_Info_set(info, "alpha", "1");
  char value[8], key[MPI_MAX_INFO_KEY + 1];
  int flag, len, n;
  EXPECT_CLASS(MPI_Info_set(MPI_INFO_NULL, "a", "b"), MPI_ERR_INFO);
  EXPECT_CLASS(MPI_Info_set(info, nullptr, "b"), MPI_ERR_INFO_KEY);
  EXPECT_CLASS(MPI_Info_set(info, "a", nullptr), MPI_ERR_INFO_VALUE);
  EXPECT_CLASS(MPI_Info_get(MPI_INFO_NULL, "alpha", 8, value, &flag), MPI_ERR_INFO);
  EXPECT_CLASS(MPI_Info_get(info, "", 8, value, &flag), MPI_ERR_INFO_KEY);
  EXPECT_CLASS(MPI_Info_get(info, "alpha", 8, value, nullptr), MPI_ERR_ARG);
  EXPECT_CLASS(MPI_Info_get_valuelen(4242, "alpha", &len, &flag), MPI_ERR_INFO);
  EXPECT_CLASS(MPI_Info_get_valuelen(info, "alpha", nullptr, &flag), MPI_ERR_ARG);
  EXPECT_CLASS(MPI_Info_delete(MPI_INFO_NULL, "alpha"), MPI_ERR_INFO);
  EXPECT_CLASS(MPI_Info_delete(info, ""), MPI_ERR_INFO_KEY);
  EXPECT_CLASS(MPI_Info_delete(MPI_INFO_ENV, "wdir"), MPI_ERR_INFO);  // read-only
  EXPECT_CLASS(MPI_Info_dup(info, nullptr), MPI_ERR_ARG);
  EXPECT_CLASS(MPI_Info_get_nthkey(MPI_INFO_NULL, 0, key), MPI_ERR_INFO);
  EXPECT_CLASS(MPI_Info_get_nthkey(info, 0, nullptr), MPI_ERR_ARG);
  EXPECT_CLASS(MPI_Info_get_nkeys(4242, &n), MPI_ERR_INFO);
  MPI_Info null_info = MPI_INFO_NULL;
  EXPECT_CLASS(MPI_Info_free(&null_info), MPI_ERR_INFO);
  EXPECT_CLASS(MPI_Info_free(nullptr), MPI_ERR_ARG);
  // The object is untouched by the errors.
  EXPECT_CLASS(MPI_Info_get_nkeys(info, &n), MPI_SUCCESS);
  EXPECT_CLASS(MPI_Info_get(info, "alpha", 7, value, &flag), MPI_SUCCESS);
  if (n != 1 || !flag || std::strcmp(value, "1") != 0) EXPECT_CLASS(MPI_ERR_OTHER, MPI_SUCCESS);
  MPI_Info_free(&info);
  void* p = nullptr;
  EXPECT_CLASS(MPI_Alloc_mem(16, MPI_INFO_NULL, nullptr), MPI_ERR_ARG);
  EXPECT_CLASS(MPI_Alloc_mem(0, MPI_INFO_NULL, &p), MPI_SUCCESS);
  EXPECT_CLASS(MPI_Free_mem(p), MPI_SUCCESS);
  EXPECT_CLASS(MPI_Free_mem(nullptr), MPI_SUCCESS);  // NULL frees nothing (MPICH accepts it too)
}

void handler(MPI_Comm*, int*, ...) {}

void error_handlers() {
  MPI_Errhandler eh = MPI_ERRHANDLER_NULL, got;
  EXPECT_CLASS(MPI_Comm_set_errhandler(MPI_COMM_NULL, MPI_ERRORS_RETURN), MPI_ERR_COMM);
  EXPECT_CLASS(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRHANDLER_NULL), MPI_ERR_ARG);
  EXPECT_CLASS(MPI_Comm_get_errhandler(MPI_COMM_NULL, &got), MPI_ERR_COMM);
  EXPECT_CLASS(MPI_Comm_create_errhandler(handler, nullptr), MPI_ERR_ARG);
  EXPECT_CLASS(MPI_Errhandler_create(nullptr, &eh), MPI_ERR_ARG);
  EXPECT_CLASS(MPI_Errhandler_set(MPI_COMM_NULL, MPI_ERRORS_RETURN), MPI_ERR_COMM);
  EXPECT_CLASS(MPI_Errhandler_set(MPI_COMM_WORLD, 31337), MPI_ERR_ARG);
  EXPECT_CLASS(MPI_Errhandler_get(MPI_COMM_NULL, &got), MPI_ERR_COMM);
  EXPECT_CLASS(MPI_Errhandler_get(MPI_COMM_WORLD, nullptr), MPI_ERR_ARG);
  MPI_Errhandler bogus = 31337;
  EXPECT_CLASS(MPI_Errhandler_free(&bogus), MPI_ERR_ARG);
  MPI_Errhandler none = MPI_ERRHANDLER_NULL;
  EXPECT_CLASS(MPI_Errhandler_free(&none), MPI_ERR_ARG);
  EXPECT_CLASS(MPI_Errhandler_free(nullptr), MPI_ERR_ARG);
  // A freed handler cannot be set; the world keeps MPI_ERRORS_RETURN through all this.
  EXPECT_CLASS(MPI_Comm_create_errhandler(handler, &eh), MPI_SUCCESS);
  MPI_Errhandler copy = eh;
  EXPECT_CLASS(MPI_Errhandler_free(&eh), MPI_SUCCESS);
  if (eh != MPI_ERRHANDLER_NULL) EXPECT_CLASS(MPI_ERR_OTHER, MPI_SUCCESS);
  EXPECT_CLASS(MPI_Comm_set_errhandler(MPI_COMM_WORLD, copy), MPI_ERR_ARG);
  EXPECT_CLASS(MPI_Comm_get_errhandler(MPI_COMM_WORLD, &got), MPI_SUCCESS);
  if (got != MPI_ERRORS_RETURN) EXPECT_CLASS(MPI_ERR_OTHER, MPI_SUCCESS);
  MPI_Errhandler_free(&got);
}

void attributes() {
  int ckey = MPI_KEYVAL_INVALID, tkey = MPI_KEYVAL_INVALID, key1 = MPI_KEYVAL_INVALID, flag;
  void* val = nullptr;
  EXPECT_CLASS(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &ckey, nullptr), MPI_SUCCESS);
  EXPECT_CLASS(MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, &tkey, nullptr), MPI_SUCCESS);
  EXPECT_CLASS(MPI_Keyval_create(MPI_NULL_COPY_FN, MPI_NULL_DELETE_FN, &key1, nullptr), MPI_SUCCESS);
  EXPECT_CLASS(MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, nullptr, nullptr), MPI_ERR_ARG);
  EXPECT_CLASS(MPI_Keyval_create(MPI_NULL_COPY_FN, MPI_NULL_DELETE_FN, nullptr, nullptr), MPI_ERR_ARG);
  EXPECT_CLASS(MPI_Comm_get_attr(MPI_COMM_NULL, ckey, &val, &flag), MPI_ERR_COMM);
  EXPECT_CLASS(MPI_Comm_get_attr(MPI_COMM_WORLD, ckey, &val, nullptr), MPI_ERR_ARG);
  EXPECT_CLASS(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_KEYVAL_INVALID, &val, &flag), MPI_ERR_KEYVAL);
  EXPECT_CLASS(MPI_Comm_set_attr(MPI_COMM_WORLD, tkey, nullptr), MPI_ERR_KEYVAL);  // a type key
  EXPECT_CLASS(MPI_Comm_delete_attr(MPI_COMM_NULL, ckey), MPI_ERR_COMM);
  EXPECT_CLASS(MPI_Comm_delete_attr(MPI_COMM_WORLD, 31337), MPI_ERR_KEYVAL);
  EXPECT_CLASS(MPI_Attr_put(MPI_COMM_NULL, key1, nullptr), MPI_ERR_COMM);
  EXPECT_CLASS(MPI_Attr_put(MPI_COMM_WORLD, 31337, nullptr), MPI_ERR_KEYVAL);
  EXPECT_CLASS(MPI_Attr_get(MPI_COMM_WORLD, 31337, &val, &flag), MPI_ERR_KEYVAL);
  EXPECT_CLASS(MPI_Attr_get(MPI_COMM_NULL, key1, &val, &flag), MPI_ERR_COMM);
  EXPECT_CLASS(MPI_Attr_delete(MPI_COMM_WORLD, 31337), MPI_ERR_KEYVAL);
  EXPECT_CLASS(MPI_Attr_put(MPI_COMM_WORLD, MPI_TAG_UB, nullptr), MPI_ERR_KEYVAL);  // predefined: read-only
  EXPECT_CLASS(MPI_Type_get_attr(MPI_DATATYPE_NULL, tkey, &val, &flag), MPI_ERR_TYPE);
  EXPECT_CLASS(MPI_Type_get_attr(MPI_INT, ckey, &val, &flag), MPI_ERR_KEYVAL);  // a communicator key
  EXPECT_CLASS(MPI_Type_get_attr(MPI_INT, tkey, &val, nullptr), MPI_ERR_ARG);
  EXPECT_CLASS(MPI_Type_delete_attr(MPI_DATATYPE_NULL, tkey), MPI_ERR_TYPE);
  EXPECT_CLASS(MPI_Type_delete_attr(MPI_INT, 31337), MPI_ERR_KEYVAL);
  int bogus = 31337, invalid = MPI_KEYVAL_INVALID, predefined = MPI_TAG_UB;
  EXPECT_CLASS(MPI_Comm_free_keyval(&bogus), MPI_ERR_KEYVAL);
  EXPECT_CLASS(MPI_Comm_free_keyval(&invalid), MPI_ERR_KEYVAL);
  EXPECT_CLASS(MPI_Comm_free_keyval(&predefined), MPI_ERR_KEYVAL);
  EXPECT_CLASS(MPI_Comm_free_keyval(nullptr), MPI_ERR_ARG);
  int tkey_copy = tkey;
  EXPECT_CLASS(MPI_Comm_free_keyval(&tkey_copy), MPI_ERR_KEYVAL);  // a type key
  EXPECT_CLASS(MPI_Type_free_keyval(&bogus), MPI_ERR_KEYVAL);
  EXPECT_CLASS(MPI_Keyval_free(&bogus), MPI_ERR_KEYVAL);
  // The good keys still work after the errors.
  static int payload = 5;
  int* got = nullptr;
  EXPECT_CLASS(MPI_Comm_set_attr(MPI_COMM_WORLD, ckey, &payload), MPI_SUCCESS);
  EXPECT_CLASS(MPI_Comm_get_attr(MPI_COMM_WORLD, ckey, &got, &flag), MPI_SUCCESS);
  if (!flag || got != &payload) EXPECT_CLASS(MPI_ERR_OTHER, MPI_SUCCESS);
  EXPECT_CLASS(MPI_Comm_delete_attr(MPI_COMM_WORLD, ckey), MPI_SUCCESS);
  EXPECT_CLASS(MPI_Comm_free_keyval(&ckey), MPI_SUCCESS);
  if (ckey != MPI_KEYVAL_INVALID) EXPECT_CLASS(MPI_ERR_OTHER, MPI_SUCCESS);
  EXPECT_CLASS(MPI_Type_free_keyval(&tkey), MPI_SUCCESS);
  EXPECT_CLASS(MPI_Keyval_free(&key1), MPI_SUCCESS);
  // Window attributes (the predefined ones; errors on a window go to the window's handler).
  MPI_Win win;
  int cell = 0;
  EXPECT_CLASS(MPI_Win_create(&cell, sizeof cell, sizeof cell, MPI_INFO_NULL, MPI_COMM_WORLD, &win), MPI_SUCCESS);
  EXPECT_CLASS(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN), MPI_SUCCESS);
  EXPECT_CLASS(MPI_Win_get_attr(win, 31337, &val, &flag), MPI_ERR_KEYVAL);
  EXPECT_CLASS(MPI_Win_get_attr(win, MPI_WIN_SIZE, &val, nullptr), MPI_ERR_ARG);
  EXPECT_CLASS(MPI_Win_get_attr(MPI_WIN_NULL, MPI_WIN_SIZE, &val, &flag), MPI_ERR_WIN);
  MPI_Aint* size = nullptr;
  EXPECT_CLASS(MPI_Win_get_attr(win, MPI_WIN_SIZE, &size, &flag), MPI_SUCCESS);
  if (!flag || !size || *size != static_cast<MPI_Aint>(sizeof cell)) EXPECT_CLASS(MPI_ERR_OTHER, MPI_SUCCESS);
  EXPECT_CLASS(MPI_Win_free(&win), MPI_SUCCESS);
}

void datatypes() {
  MPI_Datatype t = MPI_DATATYPE_NULL;
  MPI_Aint lb, extent;
  MPI_Count big;
  int size, blocks[2] = {1, 1}, displs[2] = {0, 4};
  MPI_Aint adispls[2] = {0, 16};
  MPI_Datatype types[2] = {MPI_INT, MPI_DATATYPE_NULL};
  EXPECT_CLASS(MPI_Type_contiguous(-1, MPI_INT, &t), MPI_ERR_COUNT);
  EXPECT_CLASS(MPI_Type_contiguous(2, MPI_DATATYPE_NULL, &t), MPI_ERR_TYPE);
  EXPECT_CLASS(MPI_Type_contiguous(2, MPI_INT, nullptr), MPI_ERR_ARG);
  EXPECT_CLASS(MPI_Type_vector(-1, 1, 2, MPI_INT, &t), MPI_ERR_COUNT);
  EXPECT_CLASS(MPI_Type_vector(2, -1, 2, MPI_INT, &t), MPI_ERR_COUNT);  // a negative block length
  EXPECT_CLASS(MPI_Type_create_hvector(2, 1, 8, 31337, &t), MPI_ERR_TYPE);
  EXPECT_CLASS(MPI_Type_indexed(-1, blocks, displs, MPI_INT, &t), MPI_ERR_COUNT);
  EXPECT_CLASS(MPI_Type_indexed(2, blocks, displs, MPI_DATATYPE_NULL, &t), MPI_ERR_TYPE);
  EXPECT_CLASS(MPI_Type_create_hindexed(-3, blocks, adispls, MPI_INT, &t), MPI_ERR_COUNT);
  EXPECT_CLASS(MPI_Type_create_indexed_block(-1, 1, displs, MPI_INT, &t), MPI_ERR_COUNT);
  EXPECT_CLASS(MPI_Type_create_indexed_block(2, -1, displs, MPI_INT, &t), MPI_ERR_COUNT);
  EXPECT_CLASS(MPI_Type_create_indexed_block(2, 1, displs, MPI_DATATYPE_NULL, &t), MPI_ERR_TYPE);
  EXPECT_CLASS(MPI_Type_create_struct(-1, blocks, adispls, types, &t), MPI_ERR_COUNT);
  EXPECT_CLASS(MPI_Type_create_struct(2, blocks, adispls, types, &t), MPI_ERR_TYPE);
  EXPECT_CLASS(MPI_Type_struct(2, blocks, adispls, types, &t), MPI_ERR_TYPE);
  EXPECT_CLASS(MPI_Type_hindexed(-1, blocks, adispls, MPI_INT, &t), MPI_ERR_COUNT);
  EXPECT_CLASS(MPI_Type_create_resized(MPI_DATATYPE_NULL, 0, 8, &t), MPI_ERR_TYPE);
  EXPECT_CLASS(MPI_Type_create_resized(MPI_INT, 0, 8, nullptr), MPI_ERR_ARG);
  EXPECT_CLASS(MPI_Type_dup(MPI_DATATYPE_NULL, &t), MPI_ERR_TYPE);
  EXPECT_CLASS(MPI_Type_dup(MPI_INT, nullptr), MPI_ERR_ARG);
  EXPECT_CLASS(MPI_Type_get_extent(MPI_DATATYPE_NULL, &lb, &extent), MPI_ERR_TYPE);
  EXPECT_CLASS(MPI_Type_get_extent(MPI_INT, nullptr, &extent), MPI_ERR_ARG);
  EXPECT_CLASS(MPI_Type_get_true_extent(31337, &lb, &extent), MPI_ERR_TYPE);
  EXPECT_CLASS(MPI_Type_size(MPI_DATATYPE_NULL, &size), MPI_ERR_TYPE);
  EXPECT_CLASS(MPI_Type_size_x(MPI_DATATYPE_NULL, &big), MPI_ERR_TYPE);
  EXPECT_CLASS(MPI_Type_size_x(MPI_INT, nullptr), MPI_ERR_ARG);
  EXPECT_CLASS(MPI_Type_commit(nullptr), MPI_ERR_TYPE);  // no datatype given
  MPI_Datatype null_type = MPI_DATATYPE_NULL;
  EXPECT_CLASS(MPI_Type_commit(&null_type), MPI_ERR_TYPE);
  EXPECT_CLASS(MPI_Type_free(&null_type), MPI_ERR_TYPE);
  MPI_Status st;
  std::memset(&st, 0, sizeof st);
  int count;
  EXPECT_CLASS(MPI_Get_elements(&st, MPI_DATATYPE_NULL, &count), MPI_ERR_TYPE);
  EXPECT_CLASS(MPI_Get_elements(&st, MPI_INT, nullptr), MPI_ERR_ARG);
  EXPECT_CLASS(MPI_Get_elements_x(&st, 31337, &big), MPI_ERR_TYPE);
  EXPECT_CLASS(MPI_Type_get_extent_x(MPI_DATATYPE_NULL, &big, &big), MPI_ERR_TYPE);
  EXPECT_CLASS(MPI_Type_get_true_extent_x(MPI_INT, &big, nullptr), MPI_ERR_ARG);
  EXPECT_CLASS(MPI_Type_ub(31337, &extent), MPI_ERR_TYPE);
  // Packing: a bad communicator, type or count; a position outside the buffer.
  char buf[64];
  int v[4] = {1, 2, 3, 4}, pos = 0;
  EXPECT_CLASS(MPI_Pack_size(-1, MPI_INT, MPI_COMM_WORLD, &size), MPI_ERR_COUNT);
  EXPECT_CLASS(MPI_Pack_size(1, MPI_DATATYPE_NULL, MPI_COMM_WORLD, &size), MPI_ERR_TYPE);
  EXPECT_CLASS(MPI_Pack_size(1, MPI_INT, MPI_COMM_NULL, &size), MPI_ERR_COMM);
  EXPECT_CLASS(MPI_Pack(v, 4, MPI_INT, buf, 8, &pos, MPI_COMM_WORLD), MPI_ERR_TRUNCATE);
  pos = 100;  // past the end of the buffer: a bad position, not a full buffer
  EXPECT_CLASS(MPI_Pack(v, 1, MPI_INT, buf, 64, &pos, MPI_COMM_WORLD), MPI_ERR_ARG);
  pos = -1;
  EXPECT_CLASS(MPI_Pack(v, 1, MPI_INT, buf, 64, &pos, MPI_COMM_WORLD), MPI_ERR_ARG);
  pos = 0;
  EXPECT_CLASS(MPI_Unpack(buf, 64, &pos, v, -1, MPI_INT, MPI_COMM_WORLD), MPI_ERR_COUNT);
  EXPECT_CLASS(MPI_Unpack(buf, 64, &pos, v, 1, MPI_DATATYPE_NULL, MPI_COMM_WORLD), MPI_ERR_TYPE);
  EXPECT_CLASS(MPI_Unpack(buf, 64, &pos, v, 1, MPI_INT, MPI_COMM_NULL), MPI_ERR_COMM);
  EXPECT_CLASS(MPI_Unpack(buf, 64, nullptr, v, 1, MPI_INT, MPI_COMM_WORLD), MPI_ERR_ARG);
  // A pack and unpack round trip still works.
  pos = 0;
  EXPECT_CLASS(MPI_Pack(v, 4, MPI_INT, buf, 64, &pos, MPI_COMM_WORLD), MPI_SUCCESS);
  int back[4] = {0, 0, 0, 0}, in = 0;
  EXPECT_CLASS(MPI_Unpack(buf, pos, &in, back, 4, MPI_INT, MPI_COMM_WORLD), MPI_SUCCESS);
  if (std::memcmp(back, v, sizeof v) != 0 || in != pos) EXPECT_CLASS(MPI_ERR_OTHER, MPI_SUCCESS);
}

void sum_fn(void*, void*, int*, MPI_Datatype*) {}

void operations() {
  MPI_Op op = MPI_OP_NULL;
  int commute, a = 1, b = 2;
  EXPECT_CLASS(MPI_Op_create(nullptr, 1, &op), MPI_ERR_ARG);
  EXPECT_CLASS(MPI_Op_create(sum_fn, 1, nullptr), MPI_ERR_ARG);
  MPI_Op null_op = MPI_OP_NULL, predefined = MPI_SUM;
  EXPECT_CLASS(MPI_Op_free(&null_op), MPI_ERR_OP);
  EXPECT_CLASS(MPI_Op_free(&predefined), MPI_ERR_OP);
  EXPECT_CLASS(MPI_Op_commutative(MPI_OP_NULL, &commute), MPI_ERR_OP);
  EXPECT_CLASS(MPI_Reduce_local(&a, &b, 1, MPI_INT, MPI_OP_NULL), MPI_ERR_OP);
  EXPECT_CLASS(MPI_Reduce_local(&a, &b, -1, MPI_INT, MPI_SUM), MPI_ERR_COUNT);
  EXPECT_CLASS(MPI_Reduce_local(&a, &b, 1, MPI_DATATYPE_NULL, MPI_SUM), MPI_ERR_TYPE);
  EXPECT_CLASS(MPI_Reduce_local(&a, &b, 1, MPI_INT, MPI_SUM), MPI_SUCCESS);
  if (b != 3) EXPECT_CLASS(MPI_ERR_OTHER, MPI_SUCCESS);
}

void communicators_and_groups() {
  MPI_Comm c = MPI_COMM_NULL;
  MPI_Group world, g = MPI_GROUP_NULL;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  int result, n, rank;
  EXPECT_CLASS(MPI_Comm_compare(MPI_COMM_NULL, MPI_COMM_WORLD, &result), MPI_ERR_COMM);
  EXPECT_CLASS(MPI_Comm_compare(MPI_COMM_WORLD, 31337, &result), MPI_ERR_COMM);
  EXPECT_CLASS(MPI_Comm_compare(MPI_COMM_WORLD, MPI_COMM_WORLD, nullptr), MPI_ERR_ARG);
  EXPECT_CLASS(MPI_Comm_dup(MPI_COMM_NULL, &c), MPI_ERR_COMM);
  EXPECT_CLASS(MPI_Comm_dup(MPI_COMM_WORLD, nullptr), MPI_ERR_ARG);
  MPI_Request r;
  EXPECT_CLASS(MPI_Comm_idup(MPI_COMM_NULL, &c, &r), MPI_ERR_COMM);
  EXPECT_CLASS(MPI_Comm_split(MPI_COMM_NULL, 0, 0, &c), MPI_ERR_COMM);
  EXPECT_CLASS(MPI_Comm_split(MPI_COMM_WORLD, -5, 0, &c), MPI_ERR_ARG);  // negative and not MPI_UNDEFINED
  EXPECT_CLASS(MPI_Comm_create(MPI_COMM_WORLD, MPI_GROUP_NULL, &c), MPI_ERR_GROUP);
  EXPECT_CLASS(MPI_Comm_create(MPI_COMM_NULL, world, &c), MPI_ERR_COMM);
  EXPECT_CLASS(MPI_Comm_group(MPI_COMM_NULL, &g), MPI_ERR_COMM);
  EXPECT_CLASS(MPI_Comm_rank(MPI_COMM_NULL, &rank), MPI_ERR_COMM);
  EXPECT_CLASS(MPI_Comm_rank(MPI_COMM_WORLD, nullptr), MPI_ERR_ARG);
  EXPECT_CLASS(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, 31337, &c), MPI_ERR_INFO);
  MPI_Comm null_comm = MPI_COMM_NULL;
  EXPECT_CLASS(MPI_Comm_free(&null_comm), MPI_ERR_COMM);
  MPI_Comm self = MPI_COMM_SELF;
  EXPECT_CLASS(MPI_Comm_free(&self), MPI_ERR_COMM);

  int ranks[2] = {0, 0}, out[2];
  int range[1][3] = {{0, g_size - 1, 0}};  // stride 0
  EXPECT_CLASS(MPI_Group_rank(MPI_GROUP_NULL, &rank), MPI_ERR_GROUP);
  EXPECT_CLASS(MPI_Group_size(world, nullptr), MPI_ERR_ARG);
  EXPECT_CLASS(MPI_Group_compare(world, MPI_GROUP_NULL, &result), MPI_ERR_GROUP);
  EXPECT_CLASS(MPI_Group_translate_ranks(world, 1, ranks, MPI_GROUP_NULL, out), MPI_ERR_GROUP);
  ranks[0] = g_size;
  EXPECT_CLASS(MPI_Group_translate_ranks(world, 1, ranks, world, out), MPI_ERR_RANK);
  EXPECT_CLASS(MPI_Group_translate_ranks(world, -1, ranks, world, out), MPI_ERR_COUNT);
  EXPECT_CLASS(MPI_Group_incl(world, -1, ranks, &g), MPI_ERR_COUNT);
  ranks[0] = 0;
  EXPECT_CLASS(MPI_Group_incl(world, 2, ranks, &g), MPI_ERR_RANK);  // rank 0 twice
  EXPECT_CLASS(MPI_Group_excl(world, 2, ranks, &g), MPI_ERR_RANK);
  ranks[0] = -1;
  EXPECT_CLASS(MPI_Group_excl(world, 1, ranks, &g), MPI_ERR_RANK);
  EXPECT_CLASS(MPI_Group_incl(MPI_GROUP_NULL, 0, ranks, &g), MPI_ERR_GROUP);
  EXPECT_CLASS(MPI_Group_range_incl(world, 1, range, &g), MPI_ERR_ARG);
  EXPECT_CLASS(MPI_Group_range_excl(MPI_GROUP_NULL, 1, range, &g), MPI_ERR_GROUP);
  EXPECT_CLASS(MPI_Group_range_incl(world, -1, range, &g), MPI_ERR_ARG);
  EXPECT_CLASS(MPI_Group_intersection(world, 31337, &g), MPI_ERR_GROUP);
  EXPECT_CLASS(MPI_Group_difference(MPI_GROUP_NULL, world, &g), MPI_ERR_GROUP);
  EXPECT_CLASS(MPI_Group_union(world, world, nullptr), MPI_ERR_ARG);
  MPI_Group null_group = MPI_GROUP_NULL;
  EXPECT_CLASS(MPI_Group_free(&null_group), MPI_ERR_GROUP);
  // MPI_GROUP_EMPTY is a group: its size is 0 and it can be compared.
  EXPECT_CLASS(MPI_Group_size(MPI_GROUP_EMPTY, &n), MPI_SUCCESS);
  if (n != 0) EXPECT_CLASS(MPI_ERR_OTHER, MPI_SUCCESS);
  EXPECT_CLASS(MPI_Group_compare(MPI_GROUP_EMPTY, MPI_GROUP_EMPTY, &result), MPI_SUCCESS);
  if (result != MPI_IDENT) EXPECT_CLASS(MPI_ERR_OTHER, MPI_SUCCESS);
  MPI_Group_free(&world);
}

// Handles used after MPI_xxx_free: each is as bad as a handle never made, and nothing crashes.
void freed_handles() {
  MPI_Comm c;
  MPI_Comm_dup(MPI_COMM_WORLD, &c);
  const MPI_Comm stale_comm = c;
  MPI_Comm_free(&c);
  int n, v = 0;
  EXPECT_CLASS(MPI_Comm_size(stale_comm, &n), MPI_ERR_COMM);
  EXPECT_CLASS(MPI_Send(&v, 1, MPI_INT, 0, 0, stale_comm), MPI_ERR_COMM);
  EXPECT_CLASS(MPI_Barrier(stale_comm), MPI_ERR_COMM);
  MPI_Request r;
  EXPECT_CLASS(MPI_Ibarrier(stale_comm, &r), MPI_ERR_COMM);
  MPI_Comm again = stale_comm;
  EXPECT_CLASS(MPI_Comm_free(&again), MPI_ERR_COMM);

  MPI_Datatype t;
  MPI_Type_contiguous(2, MPI_INT, &t);
  MPI_Type_commit(&t);
  const MPI_Datatype stale_type = t;
  MPI_Type_free(&t);
  int two[2];
  EXPECT_CLASS(MPI_Send(two, 1, stale_type, 0, 0, MPI_COMM_WORLD), MPI_ERR_TYPE);
  EXPECT_CLASS(MPI_Type_size(stale_type, &n), MPI_ERR_TYPE);
  MPI_Datatype type_again = stale_type;
  EXPECT_CLASS(MPI_Type_free(&type_again), MPI_ERR_TYPE);

  MPI_Group g;
  MPI_Comm_group(MPI_COMM_WORLD, &g);
  const MPI_Group stale_group = g;
  MPI_Group_free(&g);
  EXPECT_CLASS(MPI_Group_size(stale_group, &n), MPI_ERR_GROUP);
  MPI_Group group_again = stale_group;
  EXPECT_CLASS(MPI_Group_free(&group_again), MPI_ERR_GROUP);

  MPI_Op op;
  MPI_Op_create(sum_fn, 1, &op);
  const MPI_Op stale_op = op;
  MPI_Op_free(&op);
  int a = 1, b = 2;
  EXPECT_CLASS(MPI_Reduce_local(&a, &b, 1, MPI_INT, stale_op), MPI_ERR_OP);
  EXPECT_CLASS(MPI_Allreduce(&a, &b, 1, MPI_INT, stale_op, MPI_COMM_WORLD), MPI_ERR_OP);

  int key;
  MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &key, nullptr);
  const int stale_key = key;
  MPI_Comm_free_keyval(&key);
  EXPECT_CLASS(MPI_Comm_set_attr(MPI_COMM_WORLD, stale_key, nullptr), MPI_ERR_KEYVAL);
  int key_again = stale_key;
  EXPECT_CLASS(MPI_Comm_free_keyval(&key_again), MPI_ERR_KEYVAL);

  MPI_Info info;
  MPI_Info_create(&info);
  const MPI_Info stale_info = info;
  MPI_Info_free(&info);
  EXPECT_CLASS(MPI_Info_get_nkeys(stale_info, &n), MPI_ERR_INFO);
  MPI_Info info_again = stale_info;
  EXPECT_CLASS(MPI_Info_free(&info_again), MPI_ERR_INFO);

  // A request handle after its wait freed it.
  MPI_Request done;
  MPI_Isend(&v, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &done);
  const MPI_Request stale_request = done;
  MPI_Wait(&done, MPI_STATUS_IGNORE);
  MPI_Request request_again = stale_request;
  EXPECT_CLASS(MPI_Wait(&request_again, MPI_STATUS_IGNORE), MPI_ERR_REQUEST);
}

// Null output or array arguments with a count that needs them.
void null_arrays() {
  MPI_Datatype t;
  int blocks[1] = {1};
  MPI_Aint displs[1] = {0};
  EXPECT_CLASS(MPI_Type_create_struct(1, nullptr, displs, nullptr, &t), MPI_ERR_ARG);
  EXPECT_CLASS(MPI_Type_indexed(1, blocks, nullptr, MPI_INT, &t), MPI_ERR_ARG);
  EXPECT_CLASS(MPI_Waitall(2, nullptr, MPI_STATUSES_IGNORE), MPI_ERR_ARG);  // a null pointer, as MPI_Start(NULL) (MPICH)
  MPI_Group world, g;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  EXPECT_CLASS(MPI_Group_incl(world, 1, nullptr, &g), MPI_ERR_ARG);
  EXPECT_CLASS(MPI_Group_incl(world, 0, nullptr, nullptr), MPI_ERR_ARG);
  MPI_Group_free(&world);
  EXPECT_CLASS(MPI_Comm_split(MPI_COMM_WORLD, 0, 0, nullptr), MPI_ERR_ARG);
  EXPECT_CLASS(MPI_Comm_size(MPI_COMM_WORLD, nullptr), MPI_ERR_ARG);
  EXPECT_CLASS(MPI_Info_create(nullptr), MPI_ERR_ARG);
  EXPECT_CLASS(MPI_Op_commutative(MPI_SUM, nullptr), MPI_ERR_ARG);
}

// Every error class is its own class and has a message; a code that is no class is MPI_ERR_ARG.
void error_classes() {
  char text[MPI_MAX_ERROR_STRING];
  for (int c = MPI_SUCCESS; c <= MPI_ERR_LASTCODE; ++c) {
    int cls = -1, len = -1;
    EXPECT_CLASS(MPI_Error_class(c, &cls), MPI_SUCCESS);
    if (cls != c) EXPECT_CLASS(cls, c);
    EXPECT_CLASS(MPI_Error_string(c, text, &len), MPI_SUCCESS);
    if (len <= 0 || len >= MPI_MAX_ERROR_STRING || static_cast<int>(std::strlen(text)) != len)
      EXPECT_CLASS(MPI_ERR_OTHER, MPI_SUCCESS);
  }
  int cls, len;
  EXPECT_CLASS(MPI_Error_class(-3, &cls), MPI_ERR_ARG);
  EXPECT_CLASS(MPI_Error_string(MPI_ERR_LASTCODE + 1000, text, &len), MPI_ERR_ARG);
}

int g_handler_calls = 0, g_handler_class = 0;
MPI_Comm g_handler_comm = MPI_COMM_NULL;
void counting_handler(MPI_Comm* comm, int* code, ...) {
  ++g_handler_calls;
  g_handler_comm = *comm;
  MPI_Error_class(*code, &g_handler_class);
}

// A user handler is called once per error, with the communicator of the call and the class,
// for the blocking and the non-blocking forms alike; the call then returns the class.
void user_handler_once() {
  MPI_Comm c;
  MPI_Comm_dup(MPI_COMM_WORLD, &c);
  MPI_Errhandler eh;
  MPI_Comm_create_errhandler(counting_handler, &eh);
  MPI_Comm_set_errhandler(c, eh);
  MPI_Errhandler_free(&eh);
  int a = 1, b = 0;
  MPI_Request r;
  // Five bad calls on c, in order (braced initializers run in order): each returns its class and
  // the handler runs once for each, the last time with MPI_ERR_TYPE.
  struct Case {
    int rc, cls;
  };
  const Case cases[] = {
      {MPI_Ibcast(&a, 1, MPI_INT, g_size, c, &r), MPI_ERR_ROOT},
      {MPI_Iallreduce(&a, &b, 1, MPI_INT, MPI_OP_NULL, c, &r), MPI_ERR_OP},
      {MPI_Igather(&a, -1, MPI_INT, &b, 1, MPI_INT, 0, c, &r), MPI_ERR_COUNT},
      {MPI_Send(&a, 1, MPI_INT, g_size, 0, c), MPI_ERR_RANK},
      {MPI_Pack_size(1, MPI_DATATYPE_NULL, c, &b), MPI_ERR_TYPE},
  };
  for (const Case& k : cases) EXPECT_CLASS(k.rc, k.cls);
  if (g_handler_calls != 5 || g_handler_comm != c || g_handler_class != MPI_ERR_TYPE) {
    std::fprintf(stderr, "rank %d: user handler: %d calls (5 expected), last class %d\n", g_rank, g_handler_calls,
                 g_handler_class);
    EXPECT_CLASS(MPI_ERR_OTHER, MPI_SUCCESS);
  }
  MPI_Comm_free(&c);
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &g_size);
  if (argc > 1 && std::strcmp(argv[1], "after_finalize") == 0) {
    // After MPI_Finalize only MPI_Initialized, MPI_Finalized and MPI_Get_version may be called;
    // any other call is an error that ends the job (no handler applies any more), with a message.
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Finalize();
    int flag = 0, version = 0, subversion = 0;
    if (MPI_Finalized(&flag) != MPI_SUCCESS || !flag) return 2;
    if (MPI_Initialized(&flag) != MPI_SUCCESS || !flag) return 2;
    if (MPI_Get_version(&version, &subversion) != MPI_SUCCESS || version != MPI_VERSION) return 2;
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    return 0;
  }
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);  // errors about MPI_COMM_SELF go to its handler
  info_and_memory();
  EXPECT_USABLE();
  error_handlers();
  EXPECT_USABLE();
  attributes();
  EXPECT_USABLE();
  datatypes();
  EXPECT_USABLE();
  operations();
  EXPECT_USABLE();
  communicators_and_groups();
  EXPECT_USABLE();
  freed_handles();
  EXPECT_USABLE();
  null_arrays();
  EXPECT_USABLE();
  error_classes();
  user_handler_once();
  EXPECT_USABLE();
  return conformance::finish("conformance_objects");
}
