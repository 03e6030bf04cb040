/* getopt and getopt_long in every rank (issue 33): options with arguments, a second and a third
 * loop after resetting optind = 1, an unknown option (optopt, opterr). On the sim with ranks as
 * contexts a -fPIE program holds its own copies of optarg and optind (copy relocations): the C
 * library's getopt must set the copies of the rank that calls it. Run with
 *   -x 20 -v --name abc --level=3 rest1 rest2 */
#include <getopt.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int rank, failures;

static void check(int ok, const char* what) {
  if (!ok) {
    printf("rank %d: FAILED: %s\n", rank, what);
    ++failures;
  }
}

/* Short options only, over "-x 20 -v" (the first four arguments). */
static void short_loop(char** argv, int barrier_inside) {
  const char* x = NULL;
  int v = 0, c;
  optind = 1;
  while ((c = getopt(4, argv, "x:v")) != -1) {
    if (c == 'x') x = optarg;
    else if (c == 'v') ++v;
    else check(0, "getopt returned an unexpected option");
    if (barrier_inside) MPI_Barrier(MPI_COMM_WORLD); /* the other ranks parse in between */
  }
  check(x != NULL, "getopt: -x gave optarg == NULL");
  check(x && strcmp(x, "20") == 0, "getopt: -x gave an optarg other than 20");
  check(v == 1, "getopt: -v not seen once");
  check(optind == 4, "getopt: optind is not 4 after -x 20 -v");
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (argc != 9) {
    printf("rank %d: FAILED: expected 8 arguments, got %d\n", rank, argc - 1);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  short_loop(argv, 0);

  static struct option longopts[] = {{"name", required_argument, NULL, 'n'},
                                     {"level", required_argument, NULL, 'l'},
                                     {NULL, 0, NULL, 0}};
  const char *name = NULL, *level = NULL, *x = NULL;
  int v = 0, c, index = -1, name_index = -1;
  optind = 1; /* a second loop over the same arguments */
  while ((c = getopt_long(argc, argv, "x:v", longopts, &index)) != -1) {
    switch (c) {
      case 'x': x = optarg; break;
      case 'v': ++v; break;
      case 'n': name = optarg; name_index = index; break;
      case 'l': level = optarg; break;
      default: check(0, "getopt_long returned an unexpected option");
    }
  }
  check(x && strcmp(x, "20") == 0, "getopt_long: -x 20");
  check(v == 1, "getopt_long: -v");
  check(name && strcmp(name, "abc") == 0, "getopt_long: --name abc");
  check(name_index == 0, "getopt_long: longindex of --name");
  check(level && strcmp(level, "3") == 0, "getopt_long: --level=3");
  check(optind == 7, "getopt_long: optind is not 7");
  check(optind < argc && strcmp(argv[optind], "rest1") == 0, "getopt_long: first operand is not rest1");
  check(optind + 1 < argc && strcmp(argv[optind + 1], "rest2") == 0, "getopt_long: second operand is not rest2");

  MPI_Barrier(MPI_COMM_WORLD);
  short_loop(argv, 1); /* a third loop, other ranks' getopt calls interleaved */

  /* An unknown option: '?' with optopt set, and nothing printed with opterr = 0. */
  char a0[] = "prog", a1[] = "-q";
  char* unknown[] = {a0, a1, NULL};
  opterr = 0;
  optind = 1;
  c = getopt(2, unknown, "x:");
  check(c == '?', "getopt: an unknown option does not give '?'");
  check(optopt == 'q', "getopt: optopt is not the unknown option");
  check(opterr == 0, "opterr does not keep the program's 0");
  opterr = 1;

  int all = 0;
  MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0 && all == 0) printf("sim_runtime_getopt: ok\n");
  MPI_Finalize();
  return all != 0;
}
