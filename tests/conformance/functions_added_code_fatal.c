/* An error code the program added (MPI_Add_error_class, _code, _string) that reaches the fatal
 * handler: the job ends with the code's string in its message, not "unknown error class". */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char** argv) {
  int errclass = 0, code = 0;
  MPI_Init(&argc, &argv);
  MPI_Add_error_class(&errclass);
  MPI_Add_error_code(errclass, &code);
  MPI_Add_error_string(code, "the solver diverged (added code)");
  MPI_Comm_call_errhandler(MPI_COMM_WORLD, code);  /* MPI_ERRORS_ARE_FATAL: ends the job */
  fprintf(stderr, "MPI_Comm_call_errhandler returned under MPI_ERRORS_ARE_FATAL\n");
  MPI_Finalize();
  return 0;
}
