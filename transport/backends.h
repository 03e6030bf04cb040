// Factories of the backends, for dispatch.cpp only.
#pragma once

#include <memory>

#include "tilempi/transport/job.h"
#include "tilempi/transport/transport.h"

namespace tilempi::transport {

namespace host {
std::unique_ptr<Job> create_job(const JobSpec& spec);
/// Attach to a job the launcher created (rank, size and job name from the environment).
std::unique_ptr<Transport> connect(int rank, int size);
/// A one-rank job without a launcher (singleton init).
std::unique_ptr<Transport> connect_singleton();
}  // namespace host

namespace sim {
std::unique_ptr<Job> create_job(const JobSpec& spec);
std::unique_ptr<Transport> connect(int rank, int size);
/// The running rank of a simulator process (ranks as contexts).
std::unique_ptr<Transport> connect_context();
bool in_rank_context();
/// A symbol of the running rank's copy of the program (null outside a rank).
void* running_rank_symbol(const char* name);
}  // namespace sim

}  // namespace tilempi::transport
