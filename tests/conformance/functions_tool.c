/* The MPI tool information interface (MPI-3.1 chapter 14): initialization before MPI_Init and
 * after MPI_Finalize, the string convention, control variables (the launcher sets
 * TILEMPI_COLL_FALLBACK=silent for the ranks: the variable must read "silent"), performance
 * variables that follow the rank's queues (three messages unexpected, then received; a posted
 * receive, then matched), categories that cover every variable once, and the error codes. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conformance_check.h"

#define RC(call, want) CHECK((call) == (want), "%s did not give %s", #call, #want)

static unsigned long long read_pvar(MPI_T_pvar_session s, MPI_T_pvar_handle h) {
  unsigned long long v = 12345;
  RC(MPI_T_pvar_read(s, h, &v), MPI_SUCCESS);
  return v;
}

static void control_variables(void) {
  int n = 0, i, idx = -1, len, verbosity, bind, scope, count;
  MPI_Datatype type;
  MPI_T_enum enumtype;
  MPI_T_cvar_handle h;
  char name[256], value[256];
  RC(MPI_T_cvar_get_num(&n), MPI_SUCCESS);
  CHECK(n > 0, "no control variables");
  for (i = 0; i < n; ++i) { /* every name leads back to its index */
    int back = -1;
    len = sizeof name;
    RC(MPI_T_cvar_get_info(i, name, &len, NULL, NULL, NULL, NULL, NULL, NULL, NULL), MPI_SUCCESS);
    CHECK(len == (int)strlen(name) + 1, "cvar %d: name_len %d for '%s'", i, len, name);
    RC(MPI_T_cvar_get_index(name, &back), MPI_SUCCESS);
    CHECK(back == i, "cvar '%s': index %d, not %d", name, back, i);
  }
  RC(MPI_T_cvar_get_index("TILEMPI_COLL_FALLBACK", &idx), MPI_SUCCESS);
  RC(MPI_T_cvar_get_index("NO_SUCH_VARIABLE", &i), MPI_T_ERR_INVALID_NAME);
  RC(MPI_T_cvar_get_info(n, name, &len, NULL, NULL, NULL, NULL, NULL, NULL, NULL), MPI_T_ERR_INVALID_INDEX);
  RC(MPI_T_cvar_get_info(-1, name, &len, NULL, NULL, NULL, NULL, NULL, NULL, NULL), MPI_T_ERR_INVALID_INDEX);
  /* The string convention: no buffer gives the length needed, a short one the start. */
  len = 0;
  RC(MPI_T_cvar_get_info(idx, NULL, &len, NULL, NULL, NULL, NULL, NULL, NULL, NULL), MPI_SUCCESS);
  CHECK(len == (int)strlen("TILEMPI_COLL_FALLBACK") + 1, "length needed %d", len);
  len = 5;
  RC(MPI_T_cvar_get_info(idx, name, &len, NULL, NULL, NULL, NULL, NULL, NULL, NULL), MPI_SUCCESS);
  CHECK(len == 5 && strcmp(name, "TILE") == 0, "short buffer: '%s', %d", name, len);
  {
    char desc[1024];
    int desc_len = sizeof desc;
    len = sizeof name;
    RC(MPI_T_cvar_get_info(idx, name, &len, &verbosity, &type, &enumtype, desc, &desc_len, &bind, &scope),
       MPI_SUCCESS);
    CHECK(strcmp(name, "TILEMPI_COLL_FALLBACK") == 0, "name '%s'", name);
    CHECK(type == MPI_CHAR && enumtype == MPI_T_ENUM_NULL && bind == MPI_T_BIND_NO_OBJECT &&
              scope == MPI_T_SCOPE_CONSTANT && verbosity >= MPI_T_VERBOSITY_USER_BASIC &&
              verbosity <= MPI_T_VERBOSITY_MPIDEV_ALL,
          "info: type %d enum %d bind %d scope %d verbosity %d", type, enumtype, bind, scope, verbosity);
    CHECK(strstr(desc, "silent") != NULL, "description '%s' does not give the values", desc);
  }
  RC(MPI_T_cvar_handle_alloc(idx, NULL, &h, &count), MPI_SUCCESS);
  CHECK(count == (int)strlen("silent") + 1, "count %d", count);
  memset(value, 'x', sizeof value);
  RC(MPI_T_cvar_read(h, value), MPI_SUCCESS);
  CHECK(strcmp(value, "silent") == 0, "TILEMPI_COLL_FALLBACK reads '%s', the launcher set 'silent'", value);
  RC(MPI_T_cvar_write(h, "error"), MPI_T_ERR_CVAR_SET_NEVER);
  RC(MPI_T_cvar_handle_free(&h), MPI_SUCCESS);
  CHECK(h == MPI_T_CVAR_HANDLE_NULL, "freed handle %d", h);
  RC(MPI_T_cvar_read(h, value), MPI_T_ERR_INVALID_HANDLE);
  RC(MPI_T_cvar_handle_free(&h), MPI_T_ERR_INVALID_HANDLE);
}

static void performance_variables(void) {
  int n = 0, unexpected = -1, posted = -1, i, count, var_class, readonly, continuous, atomic, bind;
  MPI_Datatype type;
  MPI_T_pvar_session s, other;
  MPI_T_pvar_handle hu, hp;
  char name[256];
  RC(MPI_T_pvar_get_num(&n), MPI_SUCCESS);
  CHECK(n >= 2, "%d performance variables", n);
  RC(MPI_T_pvar_get_index("unexpected_recvq_length", MPI_T_PVAR_CLASS_LEVEL, &unexpected), MPI_SUCCESS);
  RC(MPI_T_pvar_get_index("posted_recvq_length", MPI_T_PVAR_CLASS_LEVEL, &posted), MPI_SUCCESS);
  RC(MPI_T_pvar_get_index("posted_recvq_length", MPI_T_PVAR_CLASS_COUNTER, &i), MPI_T_ERR_INVALID_NAME);
  i = sizeof name;
  RC(MPI_T_pvar_get_info(unexpected, name, &i, NULL, &var_class, &type, NULL, NULL, NULL, &bind, &readonly,
                         &continuous, &atomic),
     MPI_SUCCESS);
  CHECK(strcmp(name, "unexpected_recvq_length") == 0 && var_class == MPI_T_PVAR_CLASS_LEVEL &&
            type == MPI_UNSIGNED_LONG_LONG && bind == MPI_T_BIND_NO_OBJECT && readonly && continuous,
        "pvar info: '%s' class %d type %d bind %d readonly %d continuous %d", name, var_class, type, bind, readonly,
        continuous);
  RC(MPI_T_pvar_get_info(n, name, &i, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
     MPI_T_ERR_INVALID_INDEX);

  RC(MPI_T_pvar_session_create(&s), MPI_SUCCESS);
  RC(MPI_T_pvar_session_create(&other), MPI_SUCCESS);
  RC(MPI_T_pvar_handle_alloc(s, unexpected, NULL, &hu, &count), MPI_SUCCESS);
  CHECK(count == 1, "count %d", count);
  RC(MPI_T_pvar_handle_alloc(s, posted, NULL, &hp, &count), MPI_SUCCESS);
  RC(MPI_T_pvar_handle_alloc(s, n, NULL, &hp, &count), MPI_T_ERR_INVALID_INDEX);
  RC(MPI_T_pvar_read(other, hu, &count), MPI_T_ERR_INVALID_HANDLE); /* not a handle of that session */
  RC(MPI_T_pvar_start(s, hu), MPI_T_ERR_PVAR_NO_STARTSTOP);
  RC(MPI_T_pvar_start(s, MPI_T_PVAR_ALL_HANDLES), MPI_SUCCESS);
  RC(MPI_T_pvar_write(s, hu, &count), MPI_T_ERR_PVAR_NO_WRITE);
  RC(MPI_T_pvar_reset(s, hu), MPI_T_ERR_PVAR_NO_WRITE);
  {
    unsigned long long v;
    RC(MPI_T_pvar_read(s, MPI_T_PVAR_ALL_HANDLES, &v), MPI_T_ERR_INVALID_HANDLE);
  }

  /* Rank 0 sends three messages to rank 1 before rank 1 receives them: once the last is seen by a
   * probe, all three are unexpected (in order); received, none is. */
  if (rank == 0) {
    int t, x = 5;
    for (t = 7; t <= 9; ++t) MPI_Send(&x, 1, MPI_INT, 1, t, MPI_COMM_WORLD);
  } else if (rank == 1) {
    int flag = 0, t, x;
    CHECK(read_pvar(s, hu) == 0, "unexpected before anything was sent: %llu", read_pvar(s, hu));
    while (!flag) MPI_Iprobe(0, 9, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
    CHECK(read_pvar(s, hu) == 3, "three messages wait, unexpected_recvq_length %llu", read_pvar(s, hu));
    for (t = 7; t <= 9; ++t) MPI_Recv(&x, 1, MPI_INT, 0, t, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    CHECK(read_pvar(s, hu) == 0, "all received, unexpected_recvq_length %llu", read_pvar(s, hu));
  }
  /* A receive posted before its message: one posted, then none. */
  {
    MPI_Request r = MPI_REQUEST_NULL;
    int x = 0;
    if (rank == 1) {
      MPI_Irecv(&x, 1, MPI_INT, 0, 11, MPI_COMM_WORLD, &r);
      CHECK(read_pvar(s, hp) == 1, "one receive posted, posted_recvq_length %llu", read_pvar(s, hp));
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) MPI_Send(&x, 1, MPI_INT, 1, 11, MPI_COMM_WORLD);
    if (rank == 1) {
      MPI_Wait(&r, MPI_STATUS_IGNORE);
      CHECK(read_pvar(s, hp) == 0, "receive matched, posted_recvq_length %llu", read_pvar(s, hp));
    }
  }
  RC(MPI_T_pvar_handle_free(s, &hu), MPI_SUCCESS);
  CHECK(hu == MPI_T_PVAR_HANDLE_NULL, "freed pvar handle %d", hu);
  RC(MPI_T_pvar_session_free(&s), MPI_SUCCESS);
  CHECK(s == MPI_T_PVAR_SESSION_NULL, "freed session %d", s);
  RC(MPI_T_pvar_read(s, hp, &count), MPI_T_ERR_INVALID_SESSION);
  RC(MPI_T_pvar_session_free(&other), MPI_SUCCESS);
}

static void categories(void) {
  int ncat = 0, ncvar = 0, npvar = 0, c, i, total_cvars = 0, total_pvars = 0, idx = -1;
  int* seen;
  RC(MPI_T_category_get_num(&ncat), MPI_SUCCESS);
  RC(MPI_T_cvar_get_num(&ncvar), MPI_SUCCESS);
  RC(MPI_T_pvar_get_num(&npvar), MPI_SUCCESS);
  CHECK(ncat > 0, "no categories");
  seen = calloc((size_t)ncvar + 1, sizeof *seen);
  for (c = 0; c < ncat; ++c) {
    char name[128];
    int len = sizeof name, nc = -1, np = -1, nk = -1, back = -1;
    int indices[256];
    RC(MPI_T_category_get_info(c, name, &len, NULL, NULL, &nc, &np, &nk), MPI_SUCCESS);
    RC(MPI_T_category_get_index(name, &back), MPI_SUCCESS);
    CHECK(back == c, "category '%s': index %d, not %d", name, back, c);
    CHECK(nc >= 0 && nc <= 256 && np >= 0 && nk == 0, "category '%s': %d %d %d", name, nc, np, nk);
    RC(MPI_T_category_get_cvars(c, nc, indices), MPI_SUCCESS);
    for (i = 0; i < nc; ++i) {
      CHECK(indices[i] >= 0 && indices[i] < ncvar, "category '%s': cvar %d", name, indices[i]);
      if (indices[i] >= 0 && indices[i] < ncvar) ++seen[indices[i]];
    }
    total_cvars += nc;
    total_pvars += np;
  }
  for (i = 0; i < ncvar; ++i) CHECK(seen[i] == 1, "cvar %d is in %d categories", i, seen[i]);
  free(seen);
  CHECK(total_cvars == ncvar && total_pvars == npvar, "categories hold %d of %d cvars and %d of %d pvars",
        total_cvars, ncvar, total_pvars, npvar);
  RC(MPI_T_category_get_index("p2p_queues", &idx), MPI_SUCCESS);
  RC(MPI_T_category_get_index("no_such_category", &i), MPI_T_ERR_INVALID_NAME);
  RC(MPI_T_category_get_info(ncat, NULL, NULL, NULL, NULL, NULL, NULL, NULL), MPI_T_ERR_INVALID_INDEX);
  RC(MPI_T_category_changed(&c), MPI_SUCCESS);
  RC(MPI_T_enum_get_info(MPI_T_ENUM_NULL, &i, NULL, NULL), MPI_T_ERR_INVALID_HANDLE);
}

int main(int argc, char** argv) {
  int provided = -1, n;
  char text[MPI_MAX_ERROR_STRING];
  int len;
  /* Before MPI_Init, and nested. */
  RC(MPI_T_cvar_get_num(&n), MPI_T_ERR_NOT_INITIALIZED);
  RC(MPI_T_finalize(), MPI_T_ERR_NOT_INITIALIZED);
  RC(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided), MPI_SUCCESS);
  CHECK(provided == MPI_THREAD_SINGLE, "provided %d", provided);
  RC(MPI_T_init_thread(MPI_THREAD_MULTIPLE, &provided), MPI_SUCCESS);
  CHECK(provided >= MPI_THREAD_SINGLE && provided <= MPI_THREAD_MULTIPLE, "provided %d", provided);
  RC(MPI_T_cvar_get_num(&n), MPI_SUCCESS);

  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size < 2) {
    fprintf(stderr, "needs 2 ranks or more\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  control_variables();
  performance_variables();
  categories();
  CHECK(MPI_T_ERR_INVALID <= MPI_ERR_LASTCODE && MPI_T_ERR_MEMORY > MPI_SUCCESS, "MPI_T codes outside the classes");
  RC(MPI_Error_string(MPI_T_ERR_INVALID_NAME, text, &len), MPI_SUCCESS);
  CHECK(strstr(text, "MPI_T_ERR_INVALID_NAME") != NULL, "error string '%s'", text);

  RC(MPI_T_finalize(), MPI_SUCCESS);
  RC(MPI_T_cvar_get_num(&n), MPI_SUCCESS); /* still initialized once */
  RC(MPI_T_finalize(), MPI_SUCCESS);
  RC(MPI_T_cvar_get_num(&n), MPI_T_ERR_NOT_INITIALIZED);
  {
    int all = 0;
    MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    failures = all;
  }
  MPI_Finalize();
  /* After MPI_Finalize the interface may be used again. */
  RC(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided), MPI_SUCCESS);
  RC(MPI_T_cvar_get_num(&n), MPI_SUCCESS);
  RC(MPI_T_finalize(), MPI_SUCCESS);
  if (rank == 0 && failures == 0) printf("functions.tool: all checks passed\n");
  return failures ? 1 : 0;
}
