/* Error classes and codes a program adds (MPI-3.1 §8.5): MPI_Add_error_class, MPI_Add_error_code,
 * MPI_Add_error_string; MPI_Error_class and MPI_Error_string on them; the MPI_LASTUSEDCODE
 * attribute follows; a user error handler receives an added code through MPI_Comm_call_errhandler;
 * every rank that adds the same ones in the same order gets the same numbers. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static int rank, errors, handled;

#define CHECK(cond, ...)                                   \
  do {                                                     \
    if (!(cond)) {                                         \
      printf("rank %d: line %d: ", rank, __LINE__);        \
      printf(__VA_ARGS__);                                 \
      printf("\n");                                        \
      ++errors;                                            \
    }                                                      \
  } while (0)

static void handler(MPI_Comm* comm, int* code, ...) {
  (void)comm;
  handled = *code;
}

static int last_used(void) {
  int* value = NULL;
  int flag = 0;
  MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &value, &flag);
  CHECK(flag && value, "MPI_LASTUSEDCODE is not set");
  return flag && value ? *value : -1;
}

static int error_class(int rc) {
  int cls = -1;
  MPI_Error_class(rc, &cls);
  return cls;
}

int main(int argc, char** argv) {
  int size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

  const int before = last_used();
  CHECK(before >= MPI_ERR_LASTCODE, "MPI_LASTUSEDCODE %d is below MPI_ERR_LASTCODE %d", before, MPI_ERR_LASTCODE);

  int cls = -1, code1 = -1, code2 = -1, other = -1;
  int rc = MPI_Add_error_class(&cls);
  CHECK(rc == MPI_SUCCESS && cls > MPI_ERR_LASTCODE, "Add_error_class: rc %d class %d", rc, cls);
  CHECK(last_used() >= cls, "MPI_LASTUSEDCODE %d below the new class %d", last_used(), cls);
  MPI_Add_error_code(cls, &code1);
  MPI_Add_error_code(cls, &code2);
  MPI_Add_error_code(MPI_ERR_ARG, &other);
  CHECK(code1 != cls && code2 != code1 && other != code2 && code1 > MPI_ERR_LASTCODE,
        "codes %d %d %d for class %d are not distinct", code1, code2, other, cls);
  CHECK(last_used() >= code1 && last_used() >= code2 && last_used() >= other, "MPI_LASTUSEDCODE %d below the codes",
        last_used());

  int c = -1;
  MPI_Error_class(code1, &c);
  CHECK(c == cls, "Error_class(code1) = %d, want %d", c, cls);
  MPI_Error_class(cls, &c);
  CHECK(c == cls, "Error_class(the new class) = %d", c);
  MPI_Error_class(other, &c);
  CHECK(c == MPI_ERR_ARG, "Error_class of a code added to MPI_ERR_ARG = %d", c);

  char text[MPI_MAX_ERROR_STRING];
  int len = -1;
  rc = MPI_Error_string(code2, text, &len);
  CHECK(rc == MPI_SUCCESS && len == 0 && text[0] == '\0', "Error_string before Add_error_string: rc %d \"%s\"", rc,
        text);
  MPI_Add_error_string(cls, "my class");
  MPI_Add_error_string(code1, "my first code");
  MPI_Error_string(code1, text, &len);
  CHECK(strcmp(text, "my first code") == 0 && len == (int)strlen("my first code"), "Error_string(code1) = \"%s\" (%d)",
        text, len);
  MPI_Error_string(cls, text, &len);
  CHECK(strcmp(text, "my class") == 0, "Error_string(class) = \"%s\"", text);
  MPI_Add_error_string(code1, "replaced");
  MPI_Error_string(code1, text, &len);
  CHECK(strcmp(text, "replaced") == 0, "a second Add_error_string: \"%s\"", text);

  /* A user handler gets the added code. */
  MPI_Errhandler eh;
  MPI_Comm_create_errhandler(handler, &eh);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, eh);
  MPI_Comm_call_errhandler(MPI_COMM_WORLD, code2);
  CHECK(handled == code2, "the handler got %d, want %d", handled, code2);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Errhandler_free(&eh);

  /* The same numbers on every rank. */
  int mine[4] = {cls, code1, code2, other}, lo[4], hi[4];
  MPI_Allreduce(mine, lo, 4, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(mine, hi, 4, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  CHECK(memcmp(lo, hi, sizeof lo) == 0, "the ranks disagree on the numbers");

  /* Errors. */
  rc = MPI_Add_error_string(MPI_ERR_TYPE, "no");
  CHECK(error_class(rc) == MPI_ERR_ARG, "Add_error_string on a predefined class: class %d", error_class(rc));
  rc = MPI_Add_error_string(last_used() + 100, "no");
  CHECK(error_class(rc) == MPI_ERR_ARG, "Add_error_string on an unknown code: class %d", error_class(rc));
  int dummy;
  rc = MPI_Add_error_code(code1, &dummy);
  CHECK(error_class(rc) == MPI_ERR_ARG, "Add_error_code to a code that is no class: class %d", error_class(rc));
  rc = MPI_Add_error_code(last_used() + 100, &dummy);
  CHECK(error_class(rc) == MPI_ERR_ARG, "Add_error_code to an unknown class: class %d", error_class(rc));
  rc = MPI_Add_error_class(NULL);
  CHECK(error_class(rc) == MPI_ERR_ARG, "Add_error_class(NULL): class %d", error_class(rc));
  static char longer[MPI_MAX_ERROR_STRING + 10];
  memset(longer, 'x', sizeof longer - 1);
  rc = MPI_Add_error_string(code1, longer);
  CHECK(error_class(rc) == MPI_ERR_ARG, "a string longer than MPI_MAX_ERROR_STRING: class %d", error_class(rc));
  rc = MPI_Error_string(last_used() + 100, text, &len);
  CHECK(error_class(rc) == MPI_ERR_ARG, "Error_string of an unknown code: class %d", error_class(rc));

  int all = 0;
  MPI_Allreduce(&errors, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0 && all == 0) printf("functions_error_codes: %d ranks: ok\n", size);
  MPI_Finalize();
  return all != 0;
}
