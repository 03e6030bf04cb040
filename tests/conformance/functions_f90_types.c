/* MPI_Type_create_f90_real/_complex/_integer and MPI_Type_match_size (MPI-3.1 §17.1.9): the size
 * of the kind selected_real_kind(p, r) / selected_int_kind(r) picks (gfortran's kinds), one
 * predefined handle per (p, r) that cannot be freed and whose envelope names its combiner, data
 * that travels and reduces like the matching type, and the errors of a kind nothing meets. */
#include <mpi.h>
#include <stdio.h>

#include "conformance_check.h"


static int size_of(MPI_Datatype t) {
  int s = -1;
  MPI_Type_size(t, &s);
  return s;
}

static void real_kind(int p, int r, int want_size, int combiner) {
  MPI_Datatype t = MPI_DATATYPE_NULL, again = MPI_DATATYPE_NULL;
  int rc = combiner == MPI_COMBINER_F90_REAL ? MPI_Type_create_f90_real(p, r, &t) : MPI_Type_create_f90_complex(p, r, &t);
  int ni = -1, na = -1, nd = -1, comb = -1, ints[2] = {-7, -7};
  MPI_Aint aints[1];
  MPI_Datatype types[1];
  CHECK(rc == MPI_SUCCESS, "f90 (%d, %d): rc %d", p, r, rc);
  if (rc != MPI_SUCCESS) return;
  CHECK(size_of(t) == want_size, "f90 (%d, %d): size %d, want %d", p, r, size_of(t), want_size);
  if (combiner == MPI_COMBINER_F90_REAL) MPI_Type_create_f90_real(p, r, &again);
  else MPI_Type_create_f90_complex(p, r, &again);
  CHECK(again == t, "f90 (%d, %d): handles %d and %d", p, r, t, again);
  MPI_Type_get_envelope(t, &ni, &na, &nd, &comb);
  CHECK(comb == combiner && ni == 2 && na == 0 && nd == 0, "envelope %d %d %d %d", ni, na, nd, comb);
  MPI_Type_get_contents(t, 2, 0, 0, ints, aints, types);
  CHECK(ints[0] == p && ints[1] == r, "contents %d %d, want %d %d", ints[0], ints[1], p, r);
  CHECK(MPI_Type_free(&t) == MPI_ERR_TYPE, "an f90 type is predefined: it cannot be freed");
}

int main(int argc, char** argv) {
  int cls, len;
  MPI_Datatype t;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

  real_kind(6, 37, 4, MPI_COMBINER_F90_REAL);
  real_kind(15, MPI_UNDEFINED, 8, MPI_COMBINER_F90_REAL);
  real_kind(MPI_UNDEFINED, 400, 16, MPI_COMBINER_F90_REAL); /* x87 extended: 16 bytes of storage */
  real_kind(30, 4000, 16, MPI_COMBINER_F90_REAL);          /* IEEE quad */
  real_kind(15, 300, 16, MPI_COMBINER_F90_COMPLEX);
  real_kind(6, MPI_UNDEFINED, 8, MPI_COMBINER_F90_COMPLEX);
  CHECK(MPI_Type_create_f90_real(40, 0, &t) == MPI_ERR_ARG, "40 digits: no kind");
  CHECK(MPI_Type_create_f90_complex(MPI_UNDEFINED, 5000, &t) == MPI_ERR_ARG, "range 5000: no kind");
  {
    static const int ranges[] = {2, 4, 9, 18, 38};
    static const int sizes[] = {1, 2, 4, 8, 16};
    int i, ni, na, nd, comb, r = -1;
    for (i = 0; i < 5; ++i) {
      CHECK(MPI_Type_create_f90_integer(ranges[i], &t) == MPI_SUCCESS && size_of(t) == sizes[i],
            "selected_int_kind(%d): size %d", ranges[i], size_of(t));
      MPI_Type_get_envelope(t, &ni, &na, &nd, &comb);
      CHECK(comb == MPI_COMBINER_F90_INTEGER && ni == 1 && na == 0 && nd == 0, "integer envelope");
      MPI_Type_get_contents(t, 1, 0, 0, &r, NULL, NULL);
      CHECK(r == ranges[i], "integer contents %d", r);
    }
    CHECK(MPI_Type_create_f90_integer(39, &t) == MPI_ERR_ARG, "39 digits: no kind");
  }
  /* Data in an f90 type reduces and travels as the type of its kind. */
  {
    MPI_Datatype r8;
    double mine[3], sum[3], got[3] = {0, 0, 0};
    int i;
    MPI_Type_create_f90_real(15, MPI_UNDEFINED, &r8);
    for (i = 0; i < 3; ++i) mine[i] = rank + 0.5 * i;
    CHECK(MPI_Allreduce(mine, sum, 3, r8, MPI_SUM, MPI_COMM_WORLD) == MPI_SUCCESS, "allreduce");
    for (i = 0; i < 3; ++i)
      CHECK(sum[i] == size * (size - 1) / 2.0 + size * 0.5 * i, "sum[%d] %g", i, sum[i]);
    if (rank == 0) MPI_Send(mine, 3, r8, 1, 5, MPI_COMM_WORLD);
    if (rank == 1) {
      MPI_Recv(got, 3, MPI_DOUBLE, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      CHECK(got[0] == 0 && got[1] == 0.5 && got[2] == 1.0, "received %g %g %g", got[0], got[1], got[2]);
    }
  }
  /* MPI_Type_match_size: the first C type of the size, as MPICH. */
  {
    struct {
      int cls, size;
      MPI_Datatype want;
    } cases[] = {{MPI_TYPECLASS_REAL, 4, MPI_FLOAT},          {MPI_TYPECLASS_REAL, 8, MPI_DOUBLE},
                 {MPI_TYPECLASS_REAL, 16, MPI_LONG_DOUBLE},   {MPI_TYPECLASS_INTEGER, 1, MPI_SIGNED_CHAR},
                 {MPI_TYPECLASS_INTEGER, 2, MPI_SHORT},       {MPI_TYPECLASS_INTEGER, 4, MPI_INT},
                 {MPI_TYPECLASS_INTEGER, 8, MPI_LONG},        {MPI_TYPECLASS_COMPLEX, 8, MPI_C_FLOAT_COMPLEX},
                 {MPI_TYPECLASS_COMPLEX, 16, MPI_C_DOUBLE_COMPLEX}};
    unsigned i;
    for (i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
      t = MPI_DATATYPE_NULL;
      CHECK(MPI_Type_match_size(cases[i].cls, cases[i].size, &t) == MPI_SUCCESS && t == cases[i].want,
            "match_size(%d, %d): %d, want %d", cases[i].cls, cases[i].size, t, cases[i].want);
    }
    CHECK(MPI_Type_match_size(MPI_TYPECLASS_REAL, 3, &t) == MPI_ERR_ARG, "no 3-byte real");
    cls = -1;
    MPI_Error_class(MPI_Type_match_size(99, 4, &t), &cls);
    CHECK(cls == MPI_ERR_ARG, "typeclass 99: class %d", cls);
  }
  (void)len;
  {
    int all = 0;
    MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    failures = all;
  }
  if (rank == 0 && failures == 0) printf("functions.f90_types: all checks passed\n");
  MPI_Finalize();
  return failures ? 1 : 0;
}
