// tilempirun: start an MPI program as N ranks. See options.h for the command line and
// launcher.h for how a job runs and ends.
#include "launcher.h"
#include "options.h"

int main(int argc, char** argv) {
  auto parsed = tilempirun::parse_command_line(argc, argv);
  if (!parsed.options) return parsed.exit_status;
  return tilempirun::run_job(*parsed.options);
}
