/* MPI-3.1 functions a code may name without using them, which tilempi lacked (it did not compile):
 * process creation and management (chapter 10), in a job whose ranks are fixed, each with the
 * outcome or error class the standard gives an implementation that starts no processes
 * (mpi/api_dynamic.cpp); and the address arithmetic MPI_Aint_add / MPI_Aint_diff (§4.1.5). */
#include <string.h>

#include "conformance_check.h"

static int error_class(int rc) {
  int c = -1;
  MPI_Error_class(rc, &c);
  return c;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

  MPI_Comm parent = MPI_COMM_WORLD;
  int rc = MPI_Comm_get_parent(&parent);
  CHECK(rc == MPI_SUCCESS && parent == MPI_COMM_NULL, "get_parent: rc %d, parent %d", rc, (int)parent);

  /* Spawning fails, with every error code and the intercommunicator set, on every rank. */
  MPI_Comm inter = MPI_COMM_WORLD;
  int codes[3] = {0, 0, 0};
  char* args[] = {"x", NULL};
  rc = MPI_Comm_spawn("./worker", args, 3, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter, codes);
  CHECK(error_class(rc) == MPI_ERR_SPAWN && inter == MPI_COMM_NULL, "spawn: class %d", error_class(rc));
  if (rank == 0)
    for (int i = 0; i < 3; ++i) CHECK(codes[i] == MPI_ERR_SPAWN, "spawn: error code %d is %d", i, codes[i]);
  rc = MPI_Comm_spawn("./worker", MPI_ARGV_NULL, 1, MPI_INFO_NULL, size, MPI_COMM_WORLD, &inter, MPI_ERRCODES_IGNORE);
  CHECK(error_class(rc) == MPI_ERR_ROOT, "spawn with a bad root: class %d", error_class(rc));
  {
    char* commands[2] = {"./a", "./b"};
    int maxprocs[2] = {1, 2};
    MPI_Info infos[2] = {MPI_INFO_NULL, MPI_INFO_NULL};
    rc = MPI_Comm_spawn_multiple(2, commands, MPI_ARGVS_NULL, maxprocs, infos, 0, MPI_COMM_WORLD, &inter, codes);
    CHECK(error_class(rc) == MPI_ERR_SPAWN && inter == MPI_COMM_NULL, "spawn_multiple: class %d", error_class(rc));
  }

  /* Ports and names: none can be opened or published, so none is found. */
  char port[MPI_MAX_PORT_NAME] = "unchanged";
  rc = MPI_Open_port(MPI_INFO_NULL, port);
  CHECK(error_class(rc) == MPI_ERR_UNSUPPORTED_OPERATION, "open_port: class %d", error_class(rc));
  rc = MPI_Close_port("tag#0$description#host");
  CHECK(error_class(rc) == MPI_ERR_PORT, "close_port: class %d", error_class(rc));
  MPI_Comm other = MPI_COMM_WORLD;
  rc = MPI_Comm_accept("p", MPI_INFO_NULL, 0, MPI_COMM_WORLD, &other);
  CHECK(error_class(rc) == MPI_ERR_PORT && other == MPI_COMM_NULL, "accept: class %d", error_class(rc));
  other = MPI_COMM_WORLD;
  rc = MPI_Comm_connect("p", MPI_INFO_NULL, 0, MPI_COMM_WORLD, &other);
  CHECK(error_class(rc) == MPI_ERR_PORT && other == MPI_COMM_NULL, "connect: class %d", error_class(rc));
  rc = MPI_Publish_name("svc", MPI_INFO_NULL, "p");
  CHECK(error_class(rc) == MPI_ERR_UNSUPPORTED_OPERATION, "publish_name: class %d", error_class(rc));
  rc = MPI_Lookup_name("svc", MPI_INFO_NULL, port);
  CHECK(error_class(rc) == MPI_ERR_NAME && strcmp(port, "unchanged") == 0, "lookup_name: class %d", error_class(rc));
  rc = MPI_Unpublish_name("svc", MPI_INFO_NULL, "p");
  CHECK(error_class(rc) == MPI_ERR_SERVICE, "unpublish_name: class %d", error_class(rc));
  rc = MPI_Lookup_name("svc", 12345, port);
  CHECK(error_class(rc) == MPI_ERR_INFO, "lookup_name with a bad info: class %d", error_class(rc));

  /* Every new class has its own name in its string. */
  const struct {
    int cls;
    const char* name;
  } classes[] = {{MPI_ERR_SPAWN, "MPI_ERR_SPAWN"}, {MPI_ERR_PORT, "MPI_ERR_PORT"},
                 {MPI_ERR_SERVICE, "MPI_ERR_SERVICE"}, {MPI_ERR_NAME, "MPI_ERR_NAME"}};
  for (int i = 0; i < 4; ++i) {
    char text[MPI_MAX_ERROR_STRING];
    int len = 0;
    MPI_Error_string(classes[i].cls, text, &len);
    CHECK(strstr(text, classes[i].name) != NULL && classes[i].cls <= MPI_ERR_LASTCODE, "class %s: '%s'",
          classes[i].name, text);
  }

  /* MPI_Comm_join cannot make an intercommunicator: MPI_COMM_NULL, no error (§10.5.4). */
  inter = MPI_COMM_WORLD;
  rc = MPI_Comm_join(0, &inter);
  CHECK(rc == MPI_SUCCESS && inter == MPI_COMM_NULL, "join: rc %d", rc);

  /* MPI_Comm_disconnect frees any communicator but the predefined ones. */
  MPI_Comm dup;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  int one = 1, sum = 0;
  MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, dup);
  rc = MPI_Comm_disconnect(&dup);
  CHECK(rc == MPI_SUCCESS && dup == MPI_COMM_NULL && sum == size, "disconnect: rc %d, sum %d", rc, sum);
  MPI_Comm world = MPI_COMM_WORLD;
  rc = MPI_Comm_disconnect(&world);
  CHECK(error_class(rc) == MPI_ERR_COMM && world == MPI_COMM_WORLD, "disconnect(MPI_COMM_WORLD): class %d",
        error_class(rc));

  /* Address arithmetic agrees with MPI_Get_address. */
  double cells[10];
  MPI_Aint a0, a7;
  MPI_Get_address(&cells[0], &a0);
  MPI_Get_address(&cells[7], &a7);
  CHECK(MPI_Aint_diff(a7, a0) == (MPI_Aint)(7 * sizeof(double)), "aint_diff: %ld", (long)MPI_Aint_diff(a7, a0));
  CHECK(MPI_Aint_add(a0, 7 * (MPI_Aint)sizeof(double)) == a7, "aint_add");
  CHECK(PMPI_Aint_add(a7, -7 * (MPI_Aint)sizeof(double)) == a0, "PMPI_Aint_add");

  int all = 0;
  MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0 && all == 0) printf("functions_dynamic: %d ranks: ok\n", size);
  MPI_Finalize();
  return all != 0;
}
