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

namespace {

/// A process started by another MPI's launcher (mpiexec of MPICH or Open MPI, srun, PMIx) as one
/// of several: run as a singleton it would be one of N independent one-rank jobs that all
/// "succeed", so it refuses, naming the variable that told (an empty string: none did).
std::string other_launchers_job() {
  // (variable, what it holds): the job's size, or the process's rank where no size is given
  struct Sign {
    const char* variable;
    bool is_size;
  };
  constexpr Sign signs[] = {
      {"PMI_SIZE", true},          {"OMPI_COMM_WORLD_SIZE", true}, {"PMIX_SIZE", true},
      {"MPI_LOCALNRANKS", true},   {"SLURM_NTASKS", true},          {"PMI_RANK", false},
      {"OMPI_COMM_WORLD_RANK", false}, {"PMIX_RANK", false},       {"SLURM_PROCID", false},
  };
  for (const Sign& sign : signs) {
    const char* v = std::getenv(sign.variable);
    if (!v || !*v) continue;
    char* end = nullptr;
    long n = std::strtol(v, &end, 10);
    if (*end != '\0') continue;
    // SLURM_NTASKS alone is set in a whole allocation (an sbatch script running tilempirun);
    // only with SLURM_PROCID is the process one task of an srun step.
    if (std::string(sign.variable) == "SLURM_NTASKS" && !std::getenv("SLURM_PROCID")) continue;
    if (std::string(sign.variable) == "SLURM_PROCID" && !std::getenv("SLURM_STEP_ID")) continue;
    if ((sign.is_size && n > 1) || (!sign.is_size && n > 0))
      return std::string(sign.variable) + "=" + v;
  }
  return {};
}

}  // namespace

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
  if (!job) {
    if (std::string sign = other_launchers_job(); !sign.empty())
      throw std::runtime_error("this process was started by another MPI's launcher as one of several (" + sign +
                               "); a tilempi program must be started with tilempirun (or the mpiexec installed "
                               "beside tilempicc), else it would run as independent one-rank jobs");
    return host::connect_singleton();
  }
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
