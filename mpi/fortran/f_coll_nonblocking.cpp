// Fortran bindings: non-blocking collectives (the blocking bindings' arguments and a request).
// MPI_IN_PLACE and MPI_BOTTOM arrive as the addresses of mpif.h's COMMON variables and leave as
// the C sentinels.
#include "fortran_support.h"

using namespace tilempi::fortran;

extern "C" {

void mpi_ibarrier_(const MPI_Fint* comm, MPI_Fint* request, MPI_Fint* ierr) { *ierr = MPI_Ibarrier(*comm, request); }

void mpi_ibcast_(void* buf, const MPI_Fint* count, const MPI_Fint* datatype, const MPI_Fint* root, const MPI_Fint* comm, MPI_Fint* request, MPI_Fint* ierr) {
  *ierr = MPI_Ibcast(buffer(buf), *count, *datatype, *root, *comm, request);
}

void mpi_ireduce_(const void* sendbuf, void* recvbuf, const MPI_Fint* count, const MPI_Fint* datatype, const MPI_Fint* op, const MPI_Fint* root, const MPI_Fint* comm, MPI_Fint* request, MPI_Fint* ierr) {
  *ierr = MPI_Ireduce(buffer(sendbuf), buffer(recvbuf), *count, *datatype, *op, *root, *comm, request);
}

void mpi_iallreduce_(const void* sendbuf, void* recvbuf, const MPI_Fint* count, const MPI_Fint* datatype, const MPI_Fint* op, const MPI_Fint* comm, MPI_Fint* request, MPI_Fint* ierr) {
  *ierr = MPI_Iallreduce(buffer(sendbuf), buffer(recvbuf), *count, *datatype, *op, *comm, request);
}

void mpi_ialltoall_(const void* sendbuf, const MPI_Fint* sendcount, const MPI_Fint* sendtype, void* recvbuf, const MPI_Fint* recvcount, const MPI_Fint* recvtype, const MPI_Fint* comm, MPI_Fint* request, MPI_Fint* ierr) {
  *ierr = MPI_Ialltoall(buffer(sendbuf), *sendcount, *sendtype, buffer(recvbuf), *recvcount, *recvtype, *comm, request);
}

void mpi_ialltoallv_(const void* sendbuf, const MPI_Fint* sendcounts, const MPI_Fint* sdispls, const MPI_Fint* sendtype, void* recvbuf, const MPI_Fint* recvcounts, const MPI_Fint* rdispls, const MPI_Fint* recvtype, const MPI_Fint* comm, MPI_Fint* request, MPI_Fint* ierr) {
  *ierr = MPI_Ialltoallv(buffer(sendbuf), sendcounts, sdispls, *sendtype, buffer(recvbuf), recvcounts, rdispls, *recvtype, *comm, request);
}

void mpi_igather_(const void* sendbuf, const MPI_Fint* sendcount, const MPI_Fint* sendtype, void* recvbuf, const MPI_Fint* recvcount, const MPI_Fint* recvtype, const MPI_Fint* root, const MPI_Fint* comm, MPI_Fint* request, MPI_Fint* ierr) {
  *ierr = MPI_Igather(buffer(sendbuf), *sendcount, *sendtype, buffer(recvbuf), *recvcount, *recvtype, *root, *comm, request);
}

void mpi_igatherv_(const void* sendbuf, const MPI_Fint* sendcount, const MPI_Fint* sendtype, void* recvbuf, const MPI_Fint* recvcounts, const MPI_Fint* displs, const MPI_Fint* recvtype, const MPI_Fint* root, const MPI_Fint* comm, MPI_Fint* request, MPI_Fint* ierr) {
  *ierr = MPI_Igatherv(buffer(sendbuf), *sendcount, *sendtype, buffer(recvbuf), recvcounts, displs, *recvtype, *root, *comm, request);
}

void mpi_iscatter_(const void* sendbuf, const MPI_Fint* sendcount, const MPI_Fint* sendtype, void* recvbuf, const MPI_Fint* recvcount, const MPI_Fint* recvtype, const MPI_Fint* root, const MPI_Fint* comm, MPI_Fint* request, MPI_Fint* ierr) {
  *ierr = MPI_Iscatter(buffer(sendbuf), *sendcount, *sendtype, buffer(recvbuf), *recvcount, *recvtype, *root, *comm, request);
}

void mpi_iscatterv_(const void* sendbuf, const MPI_Fint* sendcounts, const MPI_Fint* displs, const MPI_Fint* sendtype, void* recvbuf, const MPI_Fint* recvcount, const MPI_Fint* recvtype, const MPI_Fint* root, const MPI_Fint* comm, MPI_Fint* request, MPI_Fint* ierr) {
  *ierr = MPI_Iscatterv(buffer(sendbuf), sendcounts, displs, *sendtype, buffer(recvbuf), *recvcount, *recvtype, *root, *comm, request);
}

void mpi_iallgather_(const void* sendbuf, const MPI_Fint* sendcount, const MPI_Fint* sendtype, void* recvbuf, const MPI_Fint* recvcount, const MPI_Fint* recvtype, const MPI_Fint* comm, MPI_Fint* request, MPI_Fint* ierr) {
  *ierr = MPI_Iallgather(buffer(sendbuf), *sendcount, *sendtype, buffer(recvbuf), *recvcount, *recvtype, *comm, request);
}

void mpi_iallgatherv_(const void* sendbuf, const MPI_Fint* sendcount, const MPI_Fint* sendtype, void* recvbuf, const MPI_Fint* recvcounts, const MPI_Fint* displs, const MPI_Fint* recvtype, const MPI_Fint* comm, MPI_Fint* request, MPI_Fint* ierr) {
  *ierr = MPI_Iallgatherv(buffer(sendbuf), *sendcount, *sendtype, buffer(recvbuf), recvcounts, displs, *recvtype, *comm, request);
}

void mpi_ireduce_scatter_(const void* sendbuf, void* recvbuf, const MPI_Fint* recvcounts, const MPI_Fint* datatype, const MPI_Fint* op, const MPI_Fint* comm, MPI_Fint* request, MPI_Fint* ierr) {
  *ierr = MPI_Ireduce_scatter(buffer(sendbuf), buffer(recvbuf), recvcounts, *datatype, *op, *comm, request);
}

void mpi_ireduce_scatter_block_(const void* sendbuf, void* recvbuf, const MPI_Fint* recvcount, const MPI_Fint* datatype, const MPI_Fint* op, const MPI_Fint* comm, MPI_Fint* request, MPI_Fint* ierr) {
  *ierr = MPI_Ireduce_scatter_block(buffer(sendbuf), buffer(recvbuf), *recvcount, *datatype, *op, *comm, request);
}

void mpi_iscan_(const void* sendbuf, void* recvbuf, const MPI_Fint* count, const MPI_Fint* datatype, const MPI_Fint* op, const MPI_Fint* comm, MPI_Fint* request, MPI_Fint* ierr) {
  *ierr = MPI_Iscan(buffer(sendbuf), buffer(recvbuf), *count, *datatype, *op, *comm, request);
}

void mpi_iexscan_(const void* sendbuf, void* recvbuf, const MPI_Fint* count, const MPI_Fint* datatype, const MPI_Fint* op, const MPI_Fint* comm, MPI_Fint* request, MPI_Fint* ierr) {
  *ierr = MPI_Iexscan(buffer(sendbuf), buffer(recvbuf), *count, *datatype, *op, *comm, request);
}

void mpi_alltoallw_(const void* sendbuf, const MPI_Fint* sendcounts, const MPI_Fint* sdispls,
                    const MPI_Fint* sendtypes, void* recvbuf, const MPI_Fint* recvcounts, const MPI_Fint* rdispls,
                    const MPI_Fint* recvtypes, const MPI_Fint* comm, MPI_Fint* ierr) {
  *ierr = MPI_Alltoallw(buffer(sendbuf), sendcounts, sdispls, sendtypes, buffer(recvbuf), recvcounts, rdispls,
                        recvtypes, *comm);
}

void mpi_ialltoallw_(const void* sendbuf, const MPI_Fint* sendcounts, const MPI_Fint* sdispls,
                     const MPI_Fint* sendtypes, void* recvbuf, const MPI_Fint* recvcounts, const MPI_Fint* rdispls,
                     const MPI_Fint* recvtypes, const MPI_Fint* comm, MPI_Fint* request, MPI_Fint* ierr) {
  *ierr = MPI_Ialltoallw(buffer(sendbuf), sendcounts, sdispls, sendtypes, buffer(recvbuf), recvcounts, rdispls,
                         recvtypes, *comm, request);
}

}  // extern "C"

// The names a profiling tool may replace (see TILEMPI_PMPI_ALIAS).
TILEMPI_PMPI_F_ALIAS(ibarrier)
TILEMPI_PMPI_F_ALIAS(ibcast)
TILEMPI_PMPI_F_ALIAS(ireduce)
TILEMPI_PMPI_F_ALIAS(iallreduce)
TILEMPI_PMPI_F_ALIAS(ialltoall)
TILEMPI_PMPI_F_ALIAS(ialltoallv)
TILEMPI_PMPI_F_ALIAS(igather)
TILEMPI_PMPI_F_ALIAS(igatherv)
TILEMPI_PMPI_F_ALIAS(iscatter)
TILEMPI_PMPI_F_ALIAS(iscatterv)
TILEMPI_PMPI_F_ALIAS(iallgather)
TILEMPI_PMPI_F_ALIAS(iallgatherv)
TILEMPI_PMPI_F_ALIAS(ireduce_scatter)
TILEMPI_PMPI_F_ALIAS(ireduce_scatter_block)
TILEMPI_PMPI_F_ALIAS(iscan)
TILEMPI_PMPI_F_ALIAS(iexscan)
TILEMPI_PMPI_F_ALIAS(alltoallw)
TILEMPI_PMPI_F_ALIAS(ialltoallw)
