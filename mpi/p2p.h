// The library's own point-to-point: what the MPI_ calls and the collectives are built on.
// Matching follows MPI (source, tag, context; non-overtaking; ANY_SOURCE / ANY_TAG). No argument
// checking and no error handlers here: callers check, these return MPI error codes.
#pragma once

#include <cstddef>
#include <string>

#include "comm.h"
#include "mpi.h"

namespace tilempi::mpi {

// Counts are size_t: the MPI_ entry points pass their int counts, the collectives pass byte
// counts of any size (a collective moves what point-to-point moves, beyond 2 GiB too).

/// Traffic lanes of a communicator: user messages never match the collectives' messages.
enum class Lane { User, Coll };

int isend(const void* buf, std::size_t count, MPI_Datatype type, int dest, int tag, Comm& comm, Lane lane,
          bool synchronous, MPI_Request* request);
int irecv(void* buf, std::size_t count, MPI_Datatype type, int source, int tag, Comm& comm, Lane lane,
          MPI_Request* request);
/// Blocks until done; frees the request (sets it to MPI_REQUEST_NULL). Returns the request's error.
int wait(MPI_Request* request, MPI_Status* status);
/// Returns MPI_ERR_IN_STATUS if some request failed (details in statuses), else MPI_SUCCESS.
int waitall(int count, MPI_Request* requests, MPI_Status* statuses);
/// Non-blocking probe of the unexpected messages.
bool iprobe(int source, int tag, Comm& comm, Lane lane, MPI_Status* status);
/// Run the progress engine once.
void progress();
/// A one-line list of this rank's posted receives and unfinished sends (for deadlock reports).
std::string describe_pending();

// Shorthands for collective algorithms (Lane::Coll, blocking).
int coll_send(const void* buf, std::size_t count, MPI_Datatype type, int dest, int tag, Comm& comm);
int coll_recv(void* buf, std::size_t count, MPI_Datatype type, int source, int tag, Comm& comm);
int coll_sendrecv(const void* sbuf, std::size_t scount, MPI_Datatype stype, int dest, void* rbuf, std::size_t rcount,
                  MPI_Datatype rtype, int source, int tag, Comm& comm);
inline int coll_isend(const void* buf, std::size_t count, MPI_Datatype type, int dest, int tag, Comm& comm,
                      MPI_Request* r) {
  return isend(buf, count, type, dest, tag, comm, Lane::Coll, false, r);
}
inline int coll_irecv(void* buf, std::size_t count, MPI_Datatype type, int source, int tag, Comm& comm,
                      MPI_Request* r) {
  return irecv(buf, count, type, source, tag, comm, Lane::Coll, r);
}

}  // namespace tilempi::mpi
