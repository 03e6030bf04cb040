// The intercommunicator forms of the communicator constructors (api_intercomm.cpp).
#pragma once

#include "comm.h"

namespace tilempi::mpi {

/// MPI_Comm_dup of an intercommunicator: same groups, a new context (attributes: the caller's).
int intercomm_dup(Comm& c, MPI_Comm* newcomm);
/// MPI_Comm_split of an intercommunicator (MPI-3.1 §6.4.2): each group splits by color; a color's
/// local members face the remote group's members of the same color. MPI_COMM_NULL for
/// MPI_UNDEFINED and for a color the other group does not have.
int intercomm_split(Comm& c, int color, int key, MPI_Comm* newcomm);

}  // namespace tilempi::mpi
