// Fortran bindings: collectives. MPI_IN_PLACE and MPI_BOTTOM arrive as the addresses of
// mpif.h's COMMON variables and leave as the C sentinels.
#include "fortran_support.h"

using namespace tilempi::fortran;

extern "C" {

void mpi_barrier_(const MPI_Fint* comm, MPI_Fint* ierr) { *ierr = MPI_Barrier(*comm); }

void mpi_bcast_(void* buf, const MPI_Fint* count, const MPI_Fint* datatype, const MPI_Fint* root,
                const MPI_Fint* comm, MPI_Fint* ierr) {
  *ierr = MPI_Bcast(buffer(buf), *count, *datatype, *root, *comm);
}

void mpi_reduce_(const void* sendbuf, void* recvbuf, const MPI_Fint* count, const MPI_Fint* datatype,
                 const MPI_Fint* op, const MPI_Fint* root, const MPI_Fint* comm, MPI_Fint* ierr) {
  *ierr = MPI_Reduce(buffer(sendbuf), buffer(recvbuf), *count, *datatype, *op, *root, *comm);
}

void mpi_allreduce_(const void* sendbuf, void* recvbuf, const MPI_Fint* count, const MPI_Fint* datatype,
                    const MPI_Fint* op, const MPI_Fint* comm, MPI_Fint* ierr) {
  *ierr = MPI_Allreduce(buffer(sendbuf), buffer(recvbuf), *count, *datatype, *op, *comm);
}

void mpi_alltoall_(const void* sendbuf, const MPI_Fint* sendcount, const MPI_Fint* sendtype, void* recvbuf,
                   const MPI_Fint* recvcount, const MPI_Fint* recvtype, const MPI_Fint* comm, MPI_Fint* ierr) {
  *ierr = MPI_Alltoall(buffer(sendbuf), *sendcount, *sendtype, buffer(recvbuf), *recvcount, *recvtype, *comm);
}

void mpi_alltoallv_(const void* sendbuf, const MPI_Fint* sendcounts, const MPI_Fint* sdispls,
                    const MPI_Fint* sendtype, void* recvbuf, const MPI_Fint* recvcounts, const MPI_Fint* rdispls,
                    const MPI_Fint* recvtype, const MPI_Fint* comm, MPI_Fint* ierr) {
  *ierr = MPI_Alltoallv(buffer(sendbuf), sendcounts, sdispls, *sendtype, buffer(recvbuf), recvcounts, rdispls,
                        *recvtype, *comm);
}

void mpi_gather_(const void* sendbuf, const MPI_Fint* sendcount, const MPI_Fint* sendtype, void* recvbuf,
                 const MPI_Fint* recvcount, const MPI_Fint* recvtype, const MPI_Fint* root, const MPI_Fint* comm,
                 MPI_Fint* ierr) {
  *ierr = MPI_Gather(buffer(sendbuf), *sendcount, *sendtype, buffer(recvbuf), *recvcount, *recvtype, *root,
                     *comm);
}

void mpi_gatherv_(const void* sendbuf, const MPI_Fint* sendcount, const MPI_Fint* sendtype, void* recvbuf,
                  const MPI_Fint* recvcounts, const MPI_Fint* displs, const MPI_Fint* recvtype,
                  const MPI_Fint* root, const MPI_Fint* comm, MPI_Fint* ierr) {
  *ierr = MPI_Gatherv(buffer(sendbuf), *sendcount, *sendtype, buffer(recvbuf), recvcounts, displs, *recvtype,
                      *root, *comm);
}

void mpi_scatter_(const void* sendbuf, const MPI_Fint* sendcount, const MPI_Fint* sendtype, void* recvbuf,
                  const MPI_Fint* recvcount, const MPI_Fint* recvtype, const MPI_Fint* root, const MPI_Fint* comm,
                  MPI_Fint* ierr) {
  *ierr = MPI_Scatter(buffer(sendbuf), *sendcount, *sendtype, buffer(recvbuf), *recvcount, *recvtype, *root,
                      *comm);
}

void mpi_scatterv_(const void* sendbuf, const MPI_Fint* sendcounts, const MPI_Fint* displs,
                   const MPI_Fint* sendtype, void* recvbuf, const MPI_Fint* recvcount, const MPI_Fint* recvtype,
                   const MPI_Fint* root, const MPI_Fint* comm, MPI_Fint* ierr) {
  *ierr = MPI_Scatterv(buffer(sendbuf), sendcounts, displs, *sendtype, buffer(recvbuf), *recvcount, *recvtype,
                       *root, *comm);
}

void mpi_allgather_(const void* sendbuf, const MPI_Fint* sendcount, const MPI_Fint* sendtype, void* recvbuf,
                    const MPI_Fint* recvcount, const MPI_Fint* recvtype, const MPI_Fint* comm, MPI_Fint* ierr) {
  *ierr = MPI_Allgather(buffer(sendbuf), *sendcount, *sendtype, buffer(recvbuf), *recvcount, *recvtype, *comm);
}

void mpi_allgatherv_(const void* sendbuf, const MPI_Fint* sendcount, const MPI_Fint* sendtype, void* recvbuf,
                     const MPI_Fint* recvcounts, const MPI_Fint* displs, const MPI_Fint* recvtype,
                     const MPI_Fint* comm, MPI_Fint* ierr) {
  *ierr = MPI_Allgatherv(buffer(sendbuf), *sendcount, *sendtype, buffer(recvbuf), recvcounts, displs, *recvtype,
                         *comm);
}

void mpi_reduce_scatter_(const void* sendbuf, void* recvbuf, const MPI_Fint* recvcounts, const MPI_Fint* datatype,
                         const MPI_Fint* op, const MPI_Fint* comm, MPI_Fint* ierr) {
  *ierr = MPI_Reduce_scatter(buffer(sendbuf), buffer(recvbuf), recvcounts, *datatype, *op, *comm);
}

void mpi_reduce_scatter_block_(const void* sendbuf, void* recvbuf, const MPI_Fint* recvcount,
                               const MPI_Fint* datatype, const MPI_Fint* op, const MPI_Fint* comm, MPI_Fint* ierr) {
  *ierr = MPI_Reduce_scatter_block(buffer(sendbuf), buffer(recvbuf), *recvcount, *datatype, *op, *comm);
}

void mpi_scan_(const void* sendbuf, void* recvbuf, const MPI_Fint* count, const MPI_Fint* datatype,
               const MPI_Fint* op, const MPI_Fint* comm, MPI_Fint* ierr) {
  *ierr = MPI_Scan(buffer(sendbuf), buffer(recvbuf), *count, *datatype, *op, *comm);
}

void mpi_exscan_(const void* sendbuf, void* recvbuf, const MPI_Fint* count, const MPI_Fint* datatype,
                 const MPI_Fint* op, const MPI_Fint* comm, MPI_Fint* ierr) {
  *ierr = MPI_Exscan(buffer(sendbuf), buffer(recvbuf), *count, *datatype, *op, *comm);
}

}  // extern "C"

// The names a profiling tool may replace (see TILEMPI_PMPI_ALIAS).
TILEMPI_PMPI_F_ALIAS(barrier)
TILEMPI_PMPI_F_ALIAS(bcast)
TILEMPI_PMPI_F_ALIAS(reduce)
TILEMPI_PMPI_F_ALIAS(allreduce)
TILEMPI_PMPI_F_ALIAS(alltoall)
TILEMPI_PMPI_F_ALIAS(alltoallv)
TILEMPI_PMPI_F_ALIAS(gather)
TILEMPI_PMPI_F_ALIAS(gatherv)
TILEMPI_PMPI_F_ALIAS(scatter)
TILEMPI_PMPI_F_ALIAS(scatterv)
TILEMPI_PMPI_F_ALIAS(allgather)
TILEMPI_PMPI_F_ALIAS(allgatherv)
TILEMPI_PMPI_F_ALIAS(reduce_scatter)
TILEMPI_PMPI_F_ALIAS(reduce_scatter_block)
TILEMPI_PMPI_F_ALIAS(scan)
TILEMPI_PMPI_F_ALIAS(exscan)
