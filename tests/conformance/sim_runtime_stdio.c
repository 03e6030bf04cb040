/* stdin, stdout and stderr in every rank (issue 33): the C library's printf, puts, perror and
 * scanf use the stream the program's stdout, stderr and stdin name, including one the rank
 * assigned (glibc's streams are variables), and only that rank's. On the sim with ranks as
 * contexts a -fPIE program holds its own copies of these variables (copy relocations). */
#define _GNU_SOURCE
#include <errno.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rank, failures;

static void check(int ok, const char* what) {
  if (!ok) {
    fprintf(stdout, "rank %d: FAILED: %s\n", rank, what);
    ++failures;
  }
}

/* The whole text written to f, from its start. */
static const char* contents(FILE* f) {
  static char text[256];
  fflush(f);
  rewind(f);
  const size_t n = fread(text, 1, sizeof text - 1, f);
  text[n] = 0;
  return text;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  check(stdout != NULL && fileno(stdout) == 1, "stdout is not descriptor 1");
  check(stderr != NULL && fileno(stderr) == 2, "stderr is not descriptor 2");
  check(stdin != NULL && fileno(stdin) == 0, "stdin is not descriptor 0");

  FILE* out = tmpfile();
  FILE* err = tmpfile();
  FILE* in = tmpfile();
  if (!out || !err || !in) {
    printf("rank %d: FAILED: tmpfile\n", rank);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  fprintf(in, "%d\n", 1000 + rank);
  rewind(in);

  FILE *saved_out = stdout, *saved_err = stderr, *saved_in = stdin;
  stdout = out;
  stderr = err;
  stdin = in;
  printf("printf of rank %d\n", rank);
  MPI_Barrier(MPI_COMM_WORLD); /* the other ranks write to their own files meanwhile */
  puts("puts");
  errno = EDOM;
  perror("perror");
  int value = -1;
  const int got = scanf("%d", &value);
  stdout = saved_out;
  stderr = saved_err;
  stdin = saved_in;

  char want[128];
  snprintf(want, sizeof want, "printf of rank %d\nputs\n", rank);
  check(strcmp(contents(out), want) == 0, "printf and puts did not write to the stdout the rank assigned");
  check(strncmp(contents(err), "perror: ", 8) == 0, "perror did not write to the stderr the rank assigned");
  check(got == 1 && value == 1000 + rank, "scanf did not read from the stdin the rank assigned");
  fclose(out);
  fclose(err);
  fclose(in);

  check(printf("rank %d writes to stdout again\n", rank) > 0, "printf after restoring stdout");
  check(fprintf(stderr, "rank %d writes to stderr again\n", rank) > 0, "fprintf(stderr) after restoring it");
  int all = 0;
  MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0 && all == 0) printf("sim_runtime_stdio: ok\n");
  MPI_Finalize();
  return all != 0;
}
