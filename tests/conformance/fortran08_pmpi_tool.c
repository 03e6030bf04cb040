/* A profiling tool for use mpi_f08 programs, linked in: it replaces the entry points of MPI_Send
 * (a procedure with a choice buffer, BIND(C) name MPI_Send_f08ts) and MPI_Comm_rank (gfortran's
 * name mpi_comm_rank_f08_), counts the calls and forwards them to the PMPI_ names. */
#include <mpi.h>

#include <ISO_Fortran_binding.h>

int fortran08_tool_sends = 0;
int fortran08_tool_ranks = 0;

void PMPI_Send_f08ts(CFI_cdesc_t* buf, MPI_Fint* count, MPI_Fint* datatype, MPI_Fint* dest, MPI_Fint* tag,
                     MPI_Fint* comm, MPI_Fint* ierror);
void pmpi_comm_rank_f08_(MPI_Fint* comm, MPI_Fint* rank, MPI_Fint* ierror);

void MPI_Send_f08ts(CFI_cdesc_t* buf, MPI_Fint* count, MPI_Fint* datatype, MPI_Fint* dest, MPI_Fint* tag,
                    MPI_Fint* comm, MPI_Fint* ierror) {
  ++fortran08_tool_sends;
  PMPI_Send_f08ts(buf, count, datatype, dest, tag, comm, ierror);
}

void mpi_comm_rank_f08_(MPI_Fint* comm, MPI_Fint* rank, MPI_Fint* ierror) {
  ++fortran08_tool_ranks;
  pmpi_comm_rank_f08_(comm, rank, ierror);
}

/* For the Fortran program: how many calls the tool saw. */
void fortran08_tool_counts(MPI_Fint* sends, MPI_Fint* ranks) {
  *sends = fortran08_tool_sends;
  *ranks = fortran08_tool_ranks;
}
