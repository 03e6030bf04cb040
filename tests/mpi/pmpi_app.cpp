// The application side of the profiling-interface test: makes a known number of calls, among
// them calls the library implements with other entry points (MPI_Sendrecv_replace, MPI_Testall,
// MPI_Type_vector, MPI_Attr_get, MPI_Cart_sub), and checks what the tool counted: the
// application's calls, each once, and none of the library's internal ones.
//   pmpi_app tool   a tool is interposed (LD_PRELOAD, or linked in)
//   pmpi_app none   no tool: the library's weak MPI_ names are the entry points
#include <cstring>

#include "check.h"

extern "C" long pmpi_tool_count(const char* fn) __attribute__((weak));

static void sum_fn(void* in, void* inout, int* len, MPI_Datatype*) {
  for (int i = 0; i < *len; ++i) static_cast<int*>(inout)[i] += static_cast<int*>(in)[i];
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  bool tool = argc > 1 && std::strcmp(argv[1], "tool") == 0;
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  CHECK_EQ(MPI_Pcontrol(2), MPI_SUCCESS);
  int right = (rank + 1) % size, left = (rank + size - 1) % size;

  for (int i = 0; i < 3; ++i) {
    int v = rank * 10 + i, got = -1;
    MPI_Send(&v, 1, MPI_INT, 0, i, MPI_COMM_SELF);
    MPI_Recv(&got, 1, MPI_INT, 0, i, MPI_COMM_SELF, MPI_STATUS_IGNORE);
    CHECK_EQ(got, v);
  }
  int token = rank;
  MPI_Sendrecv_replace(&token, 1, MPI_INT, right, 5, left, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  CHECK_EQ(token, left);

  int out = rank, in = -1, flag = 0;
  MPI_Request reqs[2];
  MPI_Irecv(&in, 1, MPI_INT, left, 6, MPI_COMM_WORLD, &reqs[0]);
  MPI_Isend(&out, 1, MPI_INT, right, 6, MPI_COMM_WORLD, &reqs[1]);
  long testalls = 0;
  while (!flag) {
    MPI_Testall(2, reqs, &flag, MPI_STATUSES_IGNORE);
    ++testalls;
  }
  CHECK_EQ(in, left);

  MPI_Datatype vec;
  MPI_Type_vector(2, 1, 2, MPI_INT, &vec);
  MPI_Type_free(&vec);
  int* tag_ub = nullptr;
  MPI_Attr_get(MPI_COMM_WORLD, MPI_TAG_UB, &tag_ub, &flag);
  CHECK(flag && *tag_ub > 0);

  MPI_Comm cart, sub;
  int dims[1] = {size}, periods[1] = {0}, remain[1] = {1};
  MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &cart);
  MPI_Cart_sub(cart, remain, &sub);
  MPI_Comm_free(&sub);
  MPI_Comm_free(&cart);

  MPI_Op op;
  MPI_Op_create(sum_fn, 1, &op);
  int one = 1, total = 0;
  MPI_Allreduce(&one, &total, 1, MPI_INT, op, MPI_COMM_WORLD);
  CHECK_EQ(total, size);
  MPI_Op_free(&op);
  MPI_Barrier(MPI_COMM_WORLD);

  if (!tool) {
    CHECK(pmpi_tool_count == nullptr);
  } else {
    CHECK(pmpi_tool_count != nullptr);
    CHECK_EQ(pmpi_tool_count("MPI_Pcontrol"), 1);
    CHECK_EQ(pmpi_tool_count("level"), 2);
    CHECK_EQ(pmpi_tool_count("MPI_Send"), 3);
    CHECK_EQ(pmpi_tool_count("MPI_Recv"), 3);
    CHECK_EQ(pmpi_tool_count("MPI_Sendrecv_replace"), 1);
    CHECK_EQ(pmpi_tool_count("MPI_Sendrecv"), 0);   // inside MPI_Sendrecv_replace
    CHECK_EQ(pmpi_tool_count("MPI_Testall"), testalls);
    CHECK_EQ(pmpi_tool_count("MPI_Waitall"), 0);    // inside MPI_Testall
    CHECK_EQ(pmpi_tool_count("MPI_Type_vector"), 1);
    CHECK_EQ(pmpi_tool_count("MPI_Type_create_hvector"), 0);
    CHECK_EQ(pmpi_tool_count("MPI_Attr_get"), 1);
    CHECK_EQ(pmpi_tool_count("MPI_Comm_get_attr"), 0);
    CHECK_EQ(pmpi_tool_count("MPI_Cart_sub"), 1);
    CHECK_EQ(pmpi_tool_count("MPI_Comm_split"), 0);  // inside MPI_Cart_sub
    CHECK_EQ(pmpi_tool_count("MPI_Op_create"), 1);
    CHECK_EQ(pmpi_tool_count("MPI_Allreduce"), 1);
    CHECK_EQ(pmpi_tool_count("MPI_Barrier"), 1);
  }
  MPI_Finalize();
  return 0;
}
