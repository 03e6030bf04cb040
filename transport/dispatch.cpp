// Picks the backend named by the launcher (or the command line, for Job::create).
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "backends.h"

namespace tilempi::transport {

namespace {
int env_int(const char* name, int fallback) {
  const char* v = std::getenv(name);
  return v && *v ? std::atoi(v) : fallback;
}
}  // namespace

std::unique_ptr<Job> Job::create(const JobSpec& spec) {
  if (spec.nranks < 1) throw std::runtime_error("a job needs at least one rank");
#ifdef TILEMPI_HAVE_HOST
  if (spec.transport == "host") return host::create_job(spec);
#endif
#ifdef TILEMPI_HAVE_SIM
  if (spec.transport == "sim") return sim::create_job(spec);
#endif
  throw std::runtime_error("unknown or unavailable transport '" + spec.transport + "' (built: "
#ifdef TILEMPI_HAVE_HOST
                           "host "
#endif
#ifdef TILEMPI_HAVE_SIM
                           "sim"
#endif
                           ")");
}

std::unique_ptr<Transport> connect_from_environment() {
  const char* job = std::getenv(kEnvJob);
  const char* kind = std::getenv(kEnvTransport);
  std::string transport = kind ? kind : "host";
  int rank = env_int(kEnvRank, 0);
  int size = env_int(kEnvSize, 1);
#ifdef TILEMPI_HAVE_CONTEXTS
  // A rank of a simulator process: the environment is the process's, shared by all its ranks.
  if (sim::in_rank_context()) return sim::connect_context();
#endif
#ifdef TILEMPI_HAVE_HOST
  if (!job) return host::connect_singleton();
  if (transport == "host") return host::connect(rank, size);
#endif
#ifdef TILEMPI_HAVE_SIM
  if (job && transport == "sim") return sim::connect(rank, size);
#endif
  (void)job;
  (void)rank;
  (void)size;
  throw std::runtime_error("tilempi: this process was started for transport '" + transport +
                           "', which this library was not built with");
}

}  // namespace tilempi::transport

namespace tilempi::transport {

// detail::g_rank_slot is a common symbol declared in assembly: tilempirun links the transport
// statically and libtilempi.so as well, and the two definitions must merge into one object
// (AddressSanitizer would report a C++ definition in both as an ODR violation).
asm(".comm _ZN7tilempi9transport6detail11g_rank_slotE,4,4");

void* rank_image_symbol(const char* name) {
#ifdef TILEMPI_HAVE_CONTEXTS
  return sim::running_rank_symbol(name);
#else
  (void)name;
  return nullptr;
#endif
}

}  // namespace tilempi::transport
