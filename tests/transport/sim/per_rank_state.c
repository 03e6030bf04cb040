/* Per-rank program state when ranks are contexts of one simulator process: every rank must see
 * its own globals, static locals, rand() generator, errno and TILEMPI_RANK, however the scheduler interleaves
 * the ranks (each step below makes MPI calls between writing and reading the state), and exit()
 * must end the calling rank only. Also passes as processes, where all of this is trivially true.
 *
 *   per_rank_state ROUNDS
 * prints "rank R ok" for every rank (the test counts them) and "per_rank_state: all N ranks ok".
 */
#include <errno.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int global_counter = 0;     /* .bss */
int global_rank = -1;       /* .data */
static double weights[64];  /* static array */

static int bump(void) {
  static int calls = 0; /* static local */
  return ++calls;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int rounds = argc > 1 ? atoi(argv[1]) : 5;
  global_rank = rank;
  /* The launcher's per-rank variable, as a rank process would see it. */
  const char* env_rank = getenv("TILEMPI_RANK");
  int bad_env = !env_rank || atoi(env_rank) != rank;
  if (bad_env) printf("rank %d: TILEMPI_RANK=%s\n", rank, env_rank ? env_rank : "(unset)");

  /* The expected rand() sequence of a fresh process seeded with rank + 1, from a private state. */
  struct random_data ref;
  char ref_state[128];
  ref.state = NULL;
  initstate_r(1, ref_state, sizeof ref_state, &ref);
  srandom_r((unsigned)rank + 1, &ref);
  srand((unsigned)rank + 1);

  int bad = bad_env;
  for (int i = 0; i < rounds; ++i) {
    global_counter += rank + 1;
    weights[i % 64] = rank * 1000.0 + i;
    const int mine = bump();
    const int drawn = rand();
    int32_t expected;
    random_r(&ref, &expected);
    errno = 1000 + rank;
    /* Other ranks run during these calls. */
    MPI_Barrier(MPI_COMM_WORLD);
    int token = rank, sum = 0;
    MPI_Allreduce(&token, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (errno != 1000 + rank) { printf("rank %d: errno %d, expected %d\n", rank, errno, 1000 + rank); bad = 1; }
    if (global_counter != (i + 1) * (rank + 1)) { printf("rank %d: global %d\n", rank, global_counter); bad = 1; }
    if (weights[i % 64] != rank * 1000.0 + i) { printf("rank %d: static array changed\n", rank); bad = 1; }
    if (mine != i + 1) { printf("rank %d: static local %d, expected %d\n", rank, mine, i + 1); bad = 1; }
    if (drawn != expected) { printf("rank %d: rand() %d, expected %d\n", rank, drawn, (int)expected); bad = 1; }
    if (global_rank != rank) { printf("rank %d: global_rank %d\n", rank, global_rank); bad = 1; }
    if (sum != size * (size - 1) / 2) { printf("rank %d: allreduce %d\n", rank, sum); bad = 1; }
  }
  int all_bad = 0;
  MPI_Allreduce(&bad, &all_bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (!bad) printf("rank %d ok\n", rank);
  if (rank == 0 && !all_bad) printf("per_rank_state: all %d ranks ok\n", size);
  fflush(stdout);
  MPI_Finalize();
  /* Ends this rank only: every rank must still print its line above. */
  exit(all_bad ? 3 : 0);
}
