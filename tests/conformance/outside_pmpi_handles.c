/* The profiling names of the handle conversions (MPI-3.1 §14.2.1, §17.2.4): PMPI_x_c2f and
 * PMPI_x_f2c exist beside MPI_x_c2f / MPI_x_f2c and agree with them, for every kind of handle,
 * and a round trip gives the handle back. (A tool or a test that calls only PMPI_ names did not
 * compile before.) */
#include "conformance_check.h"

#define ROUND_TRIP(kind, h)                                                                   \
  do {                                                                                        \
    MPI_Fint f = PMPI_##kind##_c2f(h);                                                        \
    CHECK(f == MPI_##kind##_c2f(h), #kind ": PMPI_c2f %d, MPI_c2f %d", (int)f,                \
          (int)MPI_##kind##_c2f(h));                                                          \
    CHECK(PMPI_##kind##_f2c(f) == (h) && MPI_##kind##_f2c(f) == (h), #kind ": f2c of c2f is " \
          "not the handle");                                                                  \
  } while (0)

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm dup;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  MPI_Group group;
  MPI_Comm_group(dup, &group);
  MPI_Datatype type;
  MPI_Type_contiguous(3, MPI_INT, &type);
  MPI_Type_commit(&type);
  MPI_Info info;
  MPI_Info_create(&info);
  MPI_Request req;
  int v = rank;
  MPI_Irecv(&v, 1, MPI_INT, MPI_PROC_NULL, 0, dup, &req);
  MPI_Win win;
  int mem = 0;
  MPI_Win_create(&mem, sizeof mem, sizeof mem, MPI_INFO_NULL, dup, &win);
  MPI_Message msg = MPI_MESSAGE_NULL;
  MPI_Errhandler eh;
  MPI_Comm_get_errhandler(dup, &eh);
  MPI_File file = MPI_FILE_NULL;

  ROUND_TRIP(Comm, dup);
  ROUND_TRIP(Comm, MPI_COMM_WORLD);
  ROUND_TRIP(Group, group);
  ROUND_TRIP(Type, type);
  ROUND_TRIP(Type, MPI_DOUBLE);
  ROUND_TRIP(Op, MPI_SUM);
  ROUND_TRIP(Info, info);
  ROUND_TRIP(Request, req);
  ROUND_TRIP(Win, win);
  ROUND_TRIP(Message, msg);
  ROUND_TRIP(Errhandler, eh);
  ROUND_TRIP(File, file);

  MPI_Wait(&req, MPI_STATUS_IGNORE);
  MPI_Win_free(&win);
  MPI_Errhandler_free(&eh);
  MPI_Info_free(&info);
  MPI_Type_free(&type);
  MPI_Group_free(&group);
  MPI_Comm_free(&dup);
  int all = 0;
  MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) printf(all ? "%d failed checks\n" : "ok\n", all);
  MPI_Finalize();
  return all ? 1 : 0;
}
