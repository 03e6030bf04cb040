// Fuzz target: the collective selection as users give it (mpi/coll/registry.cpp): `--coll SPEC`
// and TILEMPI_COLL (through TILEMPIX_Coll_validate, as tilempirun checks it), TILEMPI_COLL_<COLL>
// and TILEMPI_COLL_FALLBACK (through the library's start-up hook, which reads the environment),
// and the registry queries that take a collective's name. A bad spec must return MPI_ERR_ARG
// with a message; a good one MPI_SUCCESS with an empty message.
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

#include "fuzz_input.h"
#include "mpi.h"
#include "tilempi_ext.h"

namespace tilempi::mpi {
int coll_initialize();  // MPI_Init's hook: reads TILEMPI_COLL* (mpi/coll/registry.cpp)
}

namespace {

const char* const kVariables[] = {"TILEMPI_COLL",           "TILEMPI_COLL_ALLTOALL", "TILEMPI_COLL_BARRIER",
                                  "TILEMPI_COLL_BCAST",     "TILEMPI_COLL_REDUCE",   "TILEMPI_COLL_ALLREDUCE",
                                  "TILEMPI_COLL_ALLGATHER", "TILEMPI_COLL_GATHER",   "TILEMPI_COLL_SCATTER",
                                  "TILEMPI_COLL_FALLBACK"};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0 || size > 2048) return 0;
  tilempi::fuzz::Bytes in(data, size);
  const std::string spec = in.text(1024);
  // NUL-terminated as a C string would be: the parser sees up to the first NUL.
  const std::string c_spec = spec.c_str();
  char message[256];
  std::memset(message, 'x', sizeof message);
  const int rc = TILEMPIX_Coll_validate(c_spec.c_str(), message, static_cast<int>(sizeof message));
  if (rc != MPI_SUCCESS && rc != MPI_ERR_ARG) std::abort();
  if (std::memchr(message, '\0', sizeof message) == nullptr) std::abort();  // always terminated
  if (rc == MPI_ERR_ARG && message[0] == '\0') std::abort();                // a bad spec says why
  // Short and absent message buffers.
  (void)TILEMPIX_Coll_validate(c_spec.c_str(), message, static_cast<int>(in.below(4)));
  (void)TILEMPIX_Coll_validate(c_spec.c_str(), nullptr, 0);
  // The registry's queries by collective name.
  TILEMPIX_Coll_algorithm_info info[4];
  int count = 0;
  (void)TILEMPIX_Coll_algorithms(c_spec.c_str(), info, static_cast<int>(in.below(5)), &count);
  if (count < 0) std::abort();
  // The environment, as MPI_Init reads it.
  for (const char* v : kVariables) unsetenv(v);
  while (!in.empty()) {
    const char* var = kVariables[in.below(sizeof kVariables / sizeof kVariables[0])];
    const std::string value = in.text(128);
    setenv(var, value.c_str(), 1);
  }
  const int init = tilempi::mpi::coll_initialize();
  if (init != MPI_SUCCESS && init != MPI_ERR_ARG) std::abort();
  for (const char* v : kVariables) unsetenv(v);
  return 0;
}
