// Argument checking under MPI_ERRORS_RETURN: every bad argument gets the class a user expects.
// With "fatal" as argument, a bad call under the default handler must end the job instead.
#include <mpi.h>

#include <cstring>
#include <string>

#include "check.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  if (argc > 1 && std::strcmp(argv[1], "fatal") == 0) {
    int v = 0;
    if (rank == size - 1) MPI_Send(&v, 1, MPI_INT, size + 5, 0, MPI_COMM_WORLD);  // MPI_ERR_RANK: ends the job
    MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);  // never matched
    MPI_Finalize();
    return 0;
  }

  MPI_Errhandler h;
  MPI_Comm_get_errhandler(MPI_COMM_WORLD, &h);
  CHECK_EQ(h, MPI_ERRORS_ARE_FATAL);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_get_errhandler(MPI_COMM_WORLD, &h);
  CHECK_EQ(h, MPI_ERRORS_RETURN);

  int v = 1;
  MPI_Request req;
  CHECK_EQ(MPI_Send(&v, 1, MPI_INT, size, 0, MPI_COMM_WORLD), MPI_ERR_RANK);
  CHECK_EQ(MPI_Send(&v, 1, MPI_INT, -7, 0, MPI_COMM_WORLD), MPI_ERR_RANK);
  CHECK_EQ(MPI_Recv(&v, 1, MPI_INT, size + 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE), MPI_ERR_RANK);
  CHECK_EQ(MPI_Send(&v, 1, MPI_INT, 0, -1, MPI_COMM_WORLD), MPI_ERR_TAG);
  CHECK_EQ(MPI_Irecv(&v, 1, MPI_INT, 0, -5, MPI_COMM_WORLD, &req), MPI_ERR_TAG);
  CHECK_EQ(MPI_Send(&v, -1, MPI_INT, 0, 0, MPI_COMM_WORLD), MPI_ERR_COUNT);
  CHECK_EQ(MPI_Send(&v, 1, 12345, 0, 0, MPI_COMM_WORLD), MPI_ERR_TYPE);
  CHECK_EQ(MPI_Send(&v, 1, MPI_DATATYPE_NULL, 0, 0, MPI_COMM_WORLD), MPI_ERR_TYPE);
  CHECK_EQ(MPI_Send(nullptr, 4, MPI_INT, 0, 0, MPI_COMM_WORLD), MPI_ERR_BUFFER);
  CHECK_EQ(MPI_Send(&v, 1, MPI_INT, 0, 0, 999), MPI_ERR_COMM);
  CHECK_EQ(MPI_Send(&v, 1, MPI_INT, 0, 0, MPI_COMM_NULL), MPI_ERR_COMM);
  MPI_Datatype vec;
  MPI_Type_vector(2, 1, 2, MPI_INT, &vec);
  int two[4];
  CHECK_EQ(MPI_Send(two, 1, vec, 0, 0, MPI_COMM_WORLD), MPI_ERR_TYPE);  // not committed
  MPI_Type_free(&vec);
  MPI_Datatype predefined = MPI_INT;
  CHECK_EQ(MPI_Type_free(&predefined), MPI_ERR_TYPE);
  MPI_Request bogus = 4242;
  CHECK_EQ(MPI_Wait(&bogus, MPI_STATUS_IGNORE), MPI_ERR_REQUEST);
  MPI_Request null_request = MPI_REQUEST_NULL;
  CHECK_EQ(MPI_Wait(&null_request, MPI_STATUS_IGNORE), MPI_SUCCESS);
  MPI_Comm world = MPI_COMM_WORLD;
  CHECK_EQ(MPI_Comm_free(&world), MPI_ERR_COMM);
  int n;
  CHECK_EQ(MPI_Comm_size(12345, &n), MPI_ERR_COMM);
  MPI_Group g;
  CHECK_EQ(MPI_Group_size(777, &n), MPI_ERR_GROUP);
  MPI_Comm_group(MPI_COMM_WORLD, &g);
  int bad_rank = size;
  MPI_Group sub;
  CHECK_EQ(MPI_Group_incl(g, 1, &bad_rank, &sub), MPI_ERR_RANK);
  MPI_Group_free(&g);

  // Errors on a communicator follow that communicator's handler.
  MPI_Comm dup;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);  // inherits MPI_ERRORS_RETURN
  CHECK_EQ(MPI_Send(&v, 1, MPI_INT, size, 0, dup), MPI_ERR_RANK);
  MPI_Comm_free(&dup);

  char text[MPI_MAX_ERROR_STRING];
  int len, cls;
  MPI_Error_string(MPI_ERR_TRUNCATE, text, &len);
  CHECK(std::string(text).find("truncated") != std::string::npos);
  CHECK_EQ(static_cast<int>(std::strlen(text)), len);
  MPI_Error_class(MPI_ERR_RANK, &cls);
  CHECK_EQ(cls, MPI_ERR_RANK);
  CHECK_EQ(MPI_Error_class(100000, &cls), MPI_ERR_ARG);

  int flag;
  MPI_Initialized(&flag);
  CHECK_EQ(flag, 1);
  int version, subversion;
  MPI_Get_version(&version, &subversion);
  CHECK_EQ(version, 3);
  char name[MPI_MAX_PROCESSOR_NAME];
  MPI_Get_processor_name(name, &len);
  CHECK(len > 0);
  double t0 = MPI_Wtime();
  CHECK(MPI_Wtime() >= t0);
  CHECK(MPI_Wtick() > 0);
  if (rank == 0) std::printf("errors_suite: ok on %d ranks\n", size);
  MPI_Finalize();
  MPI_Finalized(&flag);
  CHECK_EQ(flag, 1);
  return 0;
}
