/* The extent of a struct type is padded to the alignment of its members (MPI-3.1 §4.1.6, the
 * epsilon of the type map's upper bound), so that it is the C struct's sizeof and an array of
 * such structs is sent element by element at the right addresses. Checks the extent of several
 * structs against sizeof, nesting, that an explicit upper bound (MPI_Type_create_resized) is
 * kept unpadded, and sends arrays of structs between every pair of neighbours and compares
 * every field. */
#include <stddef.h>
#include <string.h>

#include "conformance_check.h"

struct int_char { int a; char c; };
struct char_double { char c; double d; };
struct double_char { double d; char c; };
struct short_char { short s; char c; };
struct ldouble_char { long double x; char c; };
struct nested { struct int_char ic; char tail; };

static MPI_Datatype make(int n, const int* lens, const MPI_Aint* disps, const MPI_Datatype* types) {
  MPI_Datatype t;
  MPI_Type_create_struct(n, lens, disps, types, &t);
  MPI_Type_commit(&t);
  return t;
}

static void extent_is(MPI_Datatype t, MPI_Aint want, const char* what) {
  MPI_Aint lb = -1, extent = -1, tlb = -1, textent = -1;
  MPI_Type_get_extent(t, &lb, &extent);
  MPI_Type_get_true_extent(t, &tlb, &textent);
  CHECK(lb == 0 && extent == want, "%s: lb %ld extent %ld, want 0 and %ld", what, (long)lb, (long)extent,
        (long)want);
  CHECK(textent <= extent, "%s: true extent %ld above extent %ld", what, (long)textent, (long)extent);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int two[2] = {1, 1};

  MPI_Aint d_ic[2] = {offsetof(struct int_char, a), offsetof(struct int_char, c)};
  MPI_Datatype ty_ic[2] = {MPI_INT, MPI_CHAR};
  MPI_Datatype ic = make(2, two, d_ic, ty_ic);
  extent_is(ic, sizeof(struct int_char), "{int, char}");

  MPI_Aint d_cd[2] = {offsetof(struct char_double, c), offsetof(struct char_double, d)};
  MPI_Datatype ty_cd[2] = {MPI_CHAR, MPI_DOUBLE};
  MPI_Datatype cd = make(2, two, d_cd, ty_cd);
  extent_is(cd, sizeof(struct char_double), "{char, double}");

  MPI_Aint d_dc[2] = {offsetof(struct double_char, d), offsetof(struct double_char, c)};
  MPI_Datatype ty_dc[2] = {MPI_DOUBLE, MPI_CHAR};
  MPI_Datatype dc = make(2, two, d_dc, ty_dc);
  extent_is(dc, sizeof(struct double_char), "{double, char}");

  MPI_Aint d_sc[2] = {offsetof(struct short_char, s), offsetof(struct short_char, c)};
  MPI_Datatype ty_sc[2] = {MPI_SHORT, MPI_CHAR};
  MPI_Datatype sc = make(2, two, d_sc, ty_sc);
  extent_is(sc, sizeof(struct short_char), "{short, char}");

  MPI_Aint d_lc[2] = {offsetof(struct ldouble_char, x), offsetof(struct ldouble_char, c)};
  MPI_Datatype ty_lc[2] = {MPI_LONG_DOUBLE, MPI_CHAR};
  MPI_Datatype lc = make(2, two, d_lc, ty_lc);
  extent_is(lc, sizeof(struct ldouble_char), "{long double, char}");

  MPI_Aint d_n[2] = {offsetof(struct nested, ic), offsetof(struct nested, tail)};
  MPI_Datatype ty_n[2] = {ic, MPI_CHAR};
  MPI_Datatype nested = make(2, two, d_n, ty_n);
  extent_is(nested, sizeof(struct nested), "{{int, char}, char}");

  /* An extent the user set is the extent: a struct of one resized type gets no padding. */
  MPI_Datatype five, of_five;
  MPI_Type_create_resized(MPI_INT, 0, 5, &five);
  MPI_Aint d0 = 0;
  int one = 1;
  MPI_Type_create_struct(1, &one, &d0, &five, &of_five);
  MPI_Type_commit(&of_five);
  extent_is(of_five, 5, "{resized int of extent 5}");

  /* Arrays of structs travel at sizeof's stride. */
  enum { N = 5 };
  struct int_char out_ic[N], in_ic[N];
  struct double_char out_dc[N], in_dc[N];
  struct nested out_n[N], in_n[N];
  memset(in_ic, 0, sizeof in_ic);
  memset(in_dc, 0, sizeof in_dc);
  memset(in_n, 0, sizeof in_n);
  for (int i = 0; i < N; ++i) {
    out_ic[i].a = 1000 * rank + i;
    out_ic[i].c = (char)('a' + i);
    out_dc[i].d = rank + i / 8.0;
    out_dc[i].c = (char)('A' + i);
    out_n[i].ic = out_ic[i];
    out_n[i].tail = (char)('k' + i);
  }
  const int to = (rank + 1) % size, from = (rank + size - 1) % size;
  MPI_Sendrecv(out_ic, N, ic, to, 1, in_ic, N, ic, from, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Sendrecv(out_dc, N, dc, to, 2, in_dc, N, dc, from, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Sendrecv(out_n, N, nested, to, 3, in_n, N, nested, from, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  for (int i = 0; i < N; ++i) {
    CHECK(in_ic[i].a == 1000 * from + i && in_ic[i].c == 'a' + i, "{int, char}[%d] from %d: %d '%c'", i, from,
          in_ic[i].a, in_ic[i].c);
    CHECK(in_dc[i].d == from + i / 8.0 && in_dc[i].c == 'A' + i, "{double, char}[%d] from %d: %g '%c'", i, from,
          in_dc[i].d, in_dc[i].c);
    CHECK(in_n[i].ic.a == 1000 * from + i && in_n[i].ic.c == 'a' + i && in_n[i].tail == 'k' + i,
          "nested[%d] from %d: %d '%c' '%c'", i, from, in_n[i].ic.a, in_n[i].ic.c, in_n[i].tail);
  }
  /* And in a collective, where the root's buffer holds size * N structs. */
  struct int_char all[8 * N];
  if (size <= 8) {
    MPI_Allgather(out_ic, N, ic, all, N, ic, MPI_COMM_WORLD);
    for (int r = 0; r < size; ++r)
      for (int i = 0; i < N; ++i)
        CHECK(all[r * N + i].a == 1000 * r + i && all[r * N + i].c == 'a' + i, "allgather [%d][%d]: %d '%c'", r, i,
              all[r * N + i].a, all[r * N + i].c);
  }

  MPI_Datatype types[] = {ic, cd, dc, sc, lc, nested, five, of_five};
  for (unsigned i = 0; i < sizeof types / sizeof types[0]; ++i) MPI_Type_free(&types[i]);
  int total = 0;
  MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) printf(total ? "%d failed checks\n" : "ok\n", total);
  MPI_Finalize();
  return total ? 1 : 0;
}
