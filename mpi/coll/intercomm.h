// Collectives on intercommunicators (intercomm.cpp): the MPI_ entry points of api_coll.cpp hand
// an intercommunicator to these. Each checks its arguments and returns the error class (raised).
#pragma once

#include "comm.h"
#include "mpi.h"

namespace tilempi::mpi::coll {

int inter_barrier(const char* fn, Comm& c);
int inter_bcast(const char* fn, void* buf, int count, MPI_Datatype type, int root, Comm& c);
int inter_reduce(const char* fn, const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op, int root,
                 Comm& c);
int inter_allreduce(const char* fn, const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op, Comm& c);
/// Reduce_scatter and (with equal counts) Reduce_scatter_block.
int inter_reduce_scatter(const char* fn, const void* sendbuf, void* recvbuf, const int* recvcounts, MPI_Datatype type,
                         MPI_Op op, Comm& c);
int inter_gather(const char* fn, const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                 MPI_Datatype recvtype, int root, Comm& c);
int inter_gatherv(const char* fn, const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                  const int* recvcounts, const int* displs, MPI_Datatype recvtype, int root, Comm& c);
int inter_scatter(const char* fn, const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                  MPI_Datatype recvtype, int root, Comm& c);
int inter_scatterv(const char* fn, const void* sendbuf, const int* sendcounts, const int* displs, MPI_Datatype sendtype,
                   void* recvbuf, int recvcount, MPI_Datatype recvtype, int root, Comm& c);
int inter_allgather(const char* fn, const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                    int recvcount, MPI_Datatype recvtype, Comm& c);
int inter_allgatherv(const char* fn, const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                     const int* recvcounts, const int* displs, MPI_Datatype recvtype, Comm& c);
int inter_alltoall(const char* fn, const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                   MPI_Datatype recvtype, Comm& c);
int inter_alltoallv(const char* fn, const void* sendbuf, const int* sendcounts, const int* sdispls, MPI_Datatype sendtype,
                    void* recvbuf, const int* recvcounts, const int* rdispls, MPI_Datatype recvtype, Comm& c);
int inter_alltoallw(const char* fn, const void* sendbuf, const int* sendcounts, const int* sdispls,
                    const MPI_Datatype* sendtypes, void* recvbuf, const int* recvcounts, const int* rdispls,
                    const MPI_Datatype* recvtypes, Comm& c);

}  // namespace tilempi::mpi::coll
