/* A profiling tool for Fortran programs, linked into fortran_pmpi: it replaces the Fortran
 * binding mpi_send_ (forwarding to pmpi_send_) and the C MPI_Send, and counts both. The Fortran
 * bindings call the C PMPI_ functions, so a Fortran MPI_SEND is seen by the first only. */
#include <mpi.h>

void pmpi_send_(const void* buf, const MPI_Fint* count, const MPI_Fint* datatype, const MPI_Fint* dest,
                const MPI_Fint* tag, const MPI_Fint* comm, MPI_Fint* ierr);

static int fortran_sends, c_sends;

void mpi_send_(const void* buf, const MPI_Fint* count, const MPI_Fint* datatype, const MPI_Fint* dest,
               const MPI_Fint* tag, const MPI_Fint* comm, MPI_Fint* ierr) {
  ++fortran_sends;
  pmpi_send_(buf, count, datatype, dest, tag, comm, ierr);
}

int MPI_Send(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm) {
  ++c_sends;
  return PMPI_Send(buf, count, datatype, dest, tag, comm);
}

/* CALL TOOL_COUNTS(FORTRAN_SENDS, C_SENDS) */
void tool_counts_(MPI_Fint* f, MPI_Fint* c) {
  *f = fortran_sends;
  *c = c_sends;
}
