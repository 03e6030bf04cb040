/* What the C conformance programs share: the rank and size each check names, the count of failed
 * checks the program reports at its end, and CHECK, which prints a failed check with its rank. */
#ifndef TILEMPI_CONFORMANCE_CHECK_H
#define TILEMPI_CONFORMANCE_CHECK_H

#include <mpi.h>
#include <stdio.h>

static int rank, size, failures;

#define CHECK(cond, ...)                 \
  do {                                   \
    if (!(cond)) {                       \
      printf("rank %d: FAILED: ", rank); \
      printf(__VA_ARGS__);               \
      printf("\n");                      \
      fflush(stdout);                    \
      ++failures;                        \
    }                                    \
  } while (0)

#endif
