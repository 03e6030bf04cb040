/* A rank for the launcher's tests; it needs no MPI library, only the launcher's environment.
 *
 *   launcher_probe args ...             print argc and every argument
 *   launcher_probe exit RANK CODE       RANK exits with CODE, the others wait to be ended (-1: all exit)
 *   launcher_probe segv RANK            RANK dies of SIGSEGV, the others wait to be ended
 *   launcher_probe sleep SECONDS        every rank says it is ready, then sleeps
 *   launcher_probe lines N              every rank prints N lines, written in small pieces
 *   launcher_probe env NAME...          print NAME=value (or NAME unset) for each name
 *   launcher_probe stdin                print the first line of stdin (or <eof>)
 *
 * Every mode but args and lines first prints "rank R ready job=NAME" so that a test knows the
 * ranks run and which shared-memory name the job has. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int my_rank(void) {
  const char* r = getenv("TILEMPI_RANK");
  return r ? atoi(r) : 0;
}

static void ready(int rank) {
  const char* job = getenv("TILEMPI_JOB");
  printf("rank %d ready job=%s\n", rank, job ? job : "(none)");
  fflush(stdout);
}

/* Wait to be ended by the launcher; a long bound so that a broken launcher cannot hang CI. */
static int wait_to_be_ended(void) {
  for (int i = 0; i < 600; ++i) sleep(1);
  return 0;
}

int main(int argc, char** argv) {
  int rank = my_rank();
  const char* mode = argc > 1 ? argv[1] : "args";
  if (strcmp(mode, "args") == 0) {
    printf("rank %d argc=%d\n", rank, argc);
    for (int i = 0; i < argc; ++i) printf("rank %d arg%d=%s\n", rank, i, argv[i]);
    return 0;
  }
  if (strcmp(mode, "exit") == 0 && argc > 3) {
    int who = atoi(argv[2]), code = atoi(argv[3]);
    ready(rank);
    if (who < 0 || who == rank) {
      fprintf(stderr, "rank %d exits with %d\n", rank, code);
      return code;
    }
    return wait_to_be_ended();
  }
  if (strcmp(mode, "segv") == 0 && argc > 2) {
    ready(rank);
    if (atoi(argv[2]) == rank) {
      fprintf(stderr, "rank %d about to crash\n", rank);
      signal(SIGSEGV, SIG_DFL);
      raise(SIGSEGV);
    }
    return wait_to_be_ended();
  }
  if (strcmp(mode, "sleep") == 0 && argc > 2) {
    ready(rank);
    sleep((unsigned)atoi(argv[2]));
    return 0;
  }
  if (strcmp(mode, "lines") == 0 && argc > 2) {
    int n = atoi(argv[2]);
    char line[128];
    for (int i = 0; i < n; ++i) {
      int len = snprintf(line, sizeof line, "rank %d line %d of %d: some text to make it longer\n", rank, i, n);
      /* Several writes per line, so that a launcher that forwarded reads as they come would
       * interleave ranks mid-line. */
      for (int off = 0; off < len; off += 7) {
        int piece = len - off < 7 ? len - off : 7;
        if (write(STDOUT_FILENO, line + off, (size_t)piece) != piece) return 1;
      }
    }
    return 0;
  }
  if (strcmp(mode, "env") == 0) {
    for (int i = 2; i < argc; ++i) {
      const char* v = getenv(argv[i]);
      if (v) printf("rank %d %s=%s\n", rank, argv[i], v);
      else printf("rank %d %s unset\n", rank, argv[i]);
    }
    return 0;
  }
  if (strcmp(mode, "stdin") == 0) {
    char line[256];
    if (fgets(line, sizeof line, stdin)) {
      line[strcspn(line, "\n")] = '\0';
      printf("rank %d stdin=%s\n", rank, line);
    } else {
      printf("rank %d stdin=<eof>\n", rank);
    }
    return 0;
  }
  fprintf(stderr, "launcher_probe: unknown mode or missing arguments\n");
  return 99;
}
