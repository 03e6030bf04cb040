// Points where parts of the library built elsewhere (collectives) hook into MPI_Init and
// MPI_Finalize. Weak defaults live in runtime.cpp so the core links on its own.
#pragma once

namespace tilempi::mpi {

/// Called at the end of MPI_Init: read the algorithm selection, build per-job state.
/// Returns MPI_SUCCESS or an error class (the init fails with a message).
int coll_initialize();
/// Called at the start of MPI_Finalize.
void coll_finalize();
/// Called at the end of every pass of the progress engine: one-sided windows serve their peers'
/// requests there and complete their own operations (mpi/win.cpp).
void onesided_progress();
/// No window is open: onesided_progress() would do nothing.
bool onesided_idle();

}  // namespace tilempi::mpi
