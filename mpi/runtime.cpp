#include "runtime.h"

#include "tilempi/transport/rank_local.h"

// The object behind MPI_STATUS_IGNORE / MPI_STATUSES_IGNORE: only its address matters.
extern "C" {
MPI_Status tilempi_status_ignore[1];
}

namespace tilempi::mpi {

// One runtime per rank: ranks that are contexts of one simulator process share this library.
constinit transport::RankLocal<Runtime> g_runtime;

}  // namespace tilempi::mpi

#include "hooks.h"

namespace tilempi::mpi {

__attribute__((weak)) int coll_initialize() { return MPI_SUCCESS; }
__attribute__((weak)) void coll_finalize() {}
__attribute__((weak)) void onesided_progress() {}
__attribute__((weak)) bool onesided_idle() { return true; }

}  // namespace tilempi::mpi

// Weak stand-ins for the collectives' extension functions, so tools link against a core built
// without mpi/coll; the collectives define the real ones.
extern "C" {
__attribute__((weak)) int TILEMPIX_Coll_validate(const char* spec, char* message, int message_len) {
  if (message && message_len > 0) message[0] = '\0';
  return spec && *spec ? MPI_ERR_ARG : MPI_SUCCESS;
}
__attribute__((weak)) int TILEMPIX_Coll_help(char* text, int len) {
  if (text && len > 0) text[0] = '\0';
  return MPI_SUCCESS;
}
__attribute__((weak)) int TILEMPIX_Coll_selected(MPI_Comm, const char*, char* name, int len) {
  if (name && len > 0) name[0] = '\0';
  return MPI_ERR_ARG;
}
}
