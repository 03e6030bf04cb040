/* tzset in every rank (issue 33): after TZ is set and tzset called, timezone, daylight and
 * tzname hold the zone's values in every rank, also when another rank computed them first. On
 * the sim with ranks as contexts a -fPIE program holds its own copies of these variables (copy
 * relocations) while the C library computes them once per TZ. */
#define _GNU_SOURCE
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int rank, failures;

static void check(int ok, const char* what) {
  if (!ok) {
    printf("rank %d: FAILED: %s (timezone %ld, daylight %d, tzname %s/%s)\n", rank, what, timezone, daylight,
           tzname[0] ? tzname[0] : "(null)", tzname[1] ? tzname[1] : "(null)");
    ++failures;
  }
}

/* POSIX zone strings: no zone file needed. */
static void zone(const char* tz, long seconds_west, int dst, const char* std_name, const char* dst_name) {
  setenv("TZ", tz, 1);
  tzset();
  check(timezone == seconds_west, "timezone");
  check((daylight != 0) == dst, "daylight");
  check(tzname[0] && strcmp(tzname[0], std_name) == 0, "tzname[0]");
  check(!dst || (tzname[1] && strcmp(tzname[1], dst_name) == 0), "tzname[1]");
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  zone("AAA5BBB,M3.2.0,M11.1.0", 5 * 3600, 1, "AAA", "BBB");
  MPI_Barrier(MPI_COMM_WORLD);
  zone("AAA5BBB,M3.2.0,M11.1.0", 5 * 3600, 1, "AAA", "BBB");
  zone("CCC-9", -9 * 3600, 0, "CCC", NULL);
  MPI_Barrier(MPI_COMM_WORLD);
  check(timezone == -9 * 3600 && strcmp(tzname[0], "CCC") == 0, "after a barrier");
  /* localtime agrees with the variables: 12:00 UTC is 21:00 in CCC-9. */
  const time_t noon = 12 * 3600;
  struct tm t;
  check(localtime_r(&noon, &t) && t.tm_hour == 21, "localtime_r in CCC-9");
  int all = 0;
  MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0 && all == 0) printf("sim_runtime_timezone: ok\n");
  MPI_Finalize();
  return all != 0;
}
