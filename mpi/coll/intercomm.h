// The function types of the intercommunicator algorithms (intercomm.cpp): the registry's entries
// with Algorithm::intercomm. An MPI_ entry point of api_coll.cpp hands an intercommunicator call
// to the one coll::choose() selects, with the call's arguments as the user gave them; the
// algorithm checks them and returns the error class (raised).
#pragma once

#include "comm.h"
#include "mpi.h"

namespace tilempi::mpi::coll {

using InterBarrierFn = int (*)(const char* fn, Comm& c);
using InterBcastFn = int (*)(const char* fn, void* buf, int count, MPI_Datatype type, int root, Comm& c);
using InterReduceFn = int (*)(const char* fn, const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op,
                              int root, Comm& c);
using InterAllreduceFn = int (*)(const char* fn, const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op,
                                 Comm& c);
/// Reduce_scatter, and Reduce_scatter_block with its block count as every rank's count.
using InterReduceScatterFn = int (*)(const char* fn, const void* sendbuf, void* recvbuf, const int* recvcounts,
                                     MPI_Datatype type, MPI_Op op, Comm& c);
/// Gather and scatter: a count and a type on either side.
using InterGatherFn = int (*)(const char* fn, const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                              int recvcount, MPI_Datatype recvtype, int root, Comm& c);
/// Allgather and alltoall.
using InterAllgatherFn = int (*)(const char* fn, const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                                 int recvcount, MPI_Datatype recvtype, Comm& c);
using InterGathervFn = int (*)(const char* fn, const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                               const int* recvcounts, const int* displs, MPI_Datatype recvtype, int root, Comm& c);
using InterScattervFn = int (*)(const char* fn, const void* sendbuf, const int* sendcounts, const int* displs,
                                MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype, int root,
                                Comm& c);
using InterAllgathervFn = int (*)(const char* fn, const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                                  const int* recvcounts, const int* displs, MPI_Datatype recvtype, Comm& c);
using InterAlltoallvFn = int (*)(const char* fn, const void* sendbuf, const int* sendcounts, const int* sdispls,
                                 MPI_Datatype sendtype, void* recvbuf, const int* recvcounts, const int* rdispls,
                                 MPI_Datatype recvtype, Comm& c);
using InterAlltoallwFn = int (*)(const char* fn, const void* sendbuf, const int* sendcounts, const int* sdispls,
                                 const MPI_Datatype* sendtypes, void* recvbuf, const int* recvcounts, const int* rdispls,
                                 const MPI_Datatype* recvtypes, Comm& c);

}  // namespace tilempi::mpi::coll
