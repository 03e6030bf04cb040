/* The environment in every rank (issue 33): what setenv, putenv and unsetenv do shows in getenv
 * and in environ, also after other ranks changed theirs (each rank sets names of its own: on the
 * sim with ranks as contexts the environment is the simulator process's, docs/SIM.md).
 * Assigning environ changes what getenv sees. On the sim with ranks as contexts a -fPIE program
 * holds its own copy of environ (a copy relocation) that the C library must use. */
#define _GNU_SOURCE
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern char** environ;
static int rank, failures;

static void check(int ok, const char* what) {
  if (!ok) {
    printf("rank %d: FAILED: %s\n", rank, what);
    ++failures;
  }
}

/* Whether environ holds exactly the entry "name=value" (value NULL: no entry for name). */
static int environ_has(const char* name, const char* value) {
  const size_t n = strlen(name);
  for (char** e = environ; e && *e; ++e)
    if (strncmp(*e, name, n) == 0 && (*e)[n] == '=') return value && strcmp(*e + n + 1, value) == 0;
  return value == NULL;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  char mine[32], var[32], put_var[32];
  snprintf(mine, sizeof mine, "rank-%d", rank);
  snprintf(var, sizeof var, "SIM_RUNTIME_VAR_%d", rank);
  snprintf(put_var, sizeof put_var, "SIM_RUNTIME_PUT_%d", rank);

  check(getenv("PATH") != NULL, "PATH is not in the environment");
  check(setenv(var, mine, 1) == 0, "setenv failed");
  check(getenv(var) && strcmp(getenv(var), mine) == 0, "getenv after setenv");
  check(environ_has(var, mine), "environ after setenv does not hold the variable");

  MPI_Barrier(MPI_COMM_WORLD); /* every other rank sets its own value meanwhile */
  check(getenv(var) && strcmp(getenv(var), mine) == 0,
        "getenv after a barrier");
  check(environ_has(var, mine), "environ after a barrier");

  static char put[64];
  snprintf(put, sizeof put, "%s=%d", put_var, rank * 7);
  check(putenv(put) == 0, "putenv failed");
  char want[16];
  snprintf(want, sizeof want, "%d", rank * 7);
  check(getenv(put_var) && strcmp(getenv(put_var), want) == 0, "getenv after putenv");
  check(environ_has(put_var, want), "environ after putenv");

  check(unsetenv(var) == 0, "unsetenv failed");
  check(getenv(var) == NULL, "getenv after unsetenv");
  check(environ_has(var, NULL), "environ after unsetenv still holds the variable");

  MPI_Barrier(MPI_COMM_WORLD);
  check(getenv(var) == NULL, "getenv after unsetenv and a barrier");

  /* A program may set environ itself; getenv then reads the new array. */
  char** saved = environ;
  char only[] = "SIM_RUNTIME_ONLY=1";
  char* replacement[] = {only, NULL};
  environ = replacement;
  check(getenv("SIM_RUNTIME_ONLY") && strcmp(getenv("SIM_RUNTIME_ONLY"), "1") == 0,
        "getenv does not read an environ the program assigned");
  check(getenv("PATH") == NULL, "getenv finds PATH in an environ without it");
  environ = saved;
  check(getenv("PATH") != NULL, "getenv after restoring environ");

  int all = 0;
  MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0 && all == 0) printf("sim_runtime_environ: ok\n");
  MPI_Finalize();
  return all != 0;
}
