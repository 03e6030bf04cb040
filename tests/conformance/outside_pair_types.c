/* The MINLOC / MAXLOC pair types are the C structs {value; int} made by MPI_Type_create_struct
 * (MPI-3.1 §5.9.4): their type map holds the value and the int, not the struct's padding, so
 * MPI_Type_size is sizeof(value) + sizeof(int) while the extent is sizeof(the struct). A pair
 * type and the struct type built the same way have one type signature: data sent as one is
 * received as the other, packs to the same bytes, and counts as two basic elements per pair
 * (MPI_Get_elements, also for a message that ends after a pair's value). MINLOC / MAXLOC read
 * arrays of the C struct in reductions, MPI_Reduce_local and MPI_Accumulate. Every rank sends to
 * the next. */
#include <stddef.h>
#include <string.h>

#include "conformance_check.h"

#define N 5

struct float_int { float v; int k; };
struct double_int { double v; int k; };
struct long_int { long v; int k; };
struct short_int { short v; int k; };
struct long_double_int { long double v; int k; };
struct two_int { int v; int k; };

/* One pair type: its handle, the value's type, and the C struct's layout. */
struct pair_case {
  const char* name;
  MPI_Datatype pair, value;
  size_t value_size, index_offset, struct_size;
};

/* The struct type of {value; int} as the standard defines the pair (MPI_Type_create_struct). */
static MPI_Datatype struct_type(const struct pair_case* c) {
  int ones[2] = {1, 1};
  MPI_Aint disp[2] = {0, (MPI_Aint)c->index_offset};
  MPI_Datatype types[2] = {c->value, MPI_INT}, s, resized;
  MPI_Type_create_struct(2, ones, disp, types, &s);
  /* The extent is the C struct's size whether or not the implementation pads struct types. */
  MPI_Type_create_resized(s, 0, (MPI_Aint)c->struct_size, &resized);
  MPI_Type_free(&s);
  MPI_Type_commit(&resized);
  return resized;
}

/* Fill n structs of the case's layout at buf: value seed + i (in the value's type), index i + 1;
 * the padding bytes get 0x5a, so that a receive that writes them is seen. */
static void fill(const struct pair_case* c, unsigned char* buf, int n, int seed) {
  memset(buf, 0x5a, (size_t)n * c->struct_size);
  for (int i = 0; i < n; ++i) {
    unsigned char* at = buf + (size_t)i * c->struct_size;
    const int k = i + 1;
    if (c->value == MPI_FLOAT) { float v = (float)(seed + i); memcpy(at, &v, sizeof v); }
    else if (c->value == MPI_DOUBLE) { double v = seed + i; memcpy(at, &v, sizeof v); }
    else if (c->value == MPI_LONG) { long v = seed + i; memcpy(at, &v, sizeof v); }
    else if (c->value == MPI_SHORT) { short v = (short)(seed + i); memcpy(at, &v, sizeof v); }
    else if (c->value == MPI_LONG_DOUBLE) { long double v = seed + i; memcpy(at, &v, sizeof v); }
    else { int v = seed + i; memcpy(at, &v, sizeof v); }
    memcpy(at + c->index_offset, &k, sizeof k);
  }
}

/* The value of struct i at buf, as a double (every value here is a small integer). */
static double value_at(const struct pair_case* c, const unsigned char* buf, int i) {
  const unsigned char* at = buf + (size_t)i * c->struct_size;
  if (c->value == MPI_FLOAT) { float v; memcpy(&v, at, sizeof v); return v; }
  if (c->value == MPI_DOUBLE) { double v; memcpy(&v, at, sizeof v); return v; }
  if (c->value == MPI_LONG) { long v; memcpy(&v, at, sizeof v); return (double)v; }
  if (c->value == MPI_SHORT) { short v; memcpy(&v, at, sizeof v); return v; }
  if (c->value == MPI_LONG_DOUBLE) { long double v; memcpy(&v, at, sizeof v); return (double)v; }
  int v;
  memcpy(&v, at, sizeof v);
  return v;
}

static int index_at(const struct pair_case* c, const unsigned char* buf, int i) {
  int k;
  memcpy(&k, buf + (size_t)i * c->struct_size + c->index_offset, sizeof k);
  return k;
}

/* The n structs at got are those fill(seed) makes; a padding byte other than 0x5a was written. */
static void check_filled(const struct pair_case* c, const unsigned char* got, int n, int seed, const char* what) {
  for (int i = 0; i < n; ++i) {
    CHECK(value_at(c, got, i) == seed + i && index_at(c, got, i) == i + 1, "%s %s: element %d is (%g, %d), want (%d, %d)",
          c->name, what, i, value_at(c, got, i), index_at(c, got, i), seed + i, i + 1);
    const unsigned char* at = got + (size_t)i * c->struct_size;
    for (size_t b = c->value_size; b < c->index_offset; ++b)
      CHECK(at[b] == 0x5a, "%s %s: element %d: padding byte %zu written", c->name, what, i, b);
  }
}

static void check_case(const struct pair_case* c, int to, int from) {
  unsigned char out[N * sizeof(struct long_double_int)], in[N * sizeof(struct long_double_int)];
  MPI_Datatype st = struct_type(c);
  MPI_Status status;

  /* Size, extent and bounds: those of the struct type. */
  int pair_size = -1, struct_size = -2;
  MPI_Aint lb = -1, extent = -1, true_lb = -1, true_extent = -1;
  MPI_Type_size(c->pair, &pair_size);
  MPI_Type_size(st, &struct_size);
  MPI_Type_get_extent(c->pair, &lb, &extent);
  MPI_Type_get_true_extent(c->pair, &true_lb, &true_extent);
  CHECK(pair_size == (int)(c->value_size + sizeof(int)) && pair_size == struct_size,
        "%s: MPI_Type_size %d, want %zu (the struct type's: %d)", c->name, pair_size, c->value_size + sizeof(int),
        struct_size);
  CHECK(lb == 0 && extent == (MPI_Aint)c->struct_size, "%s: lb %ld extent %ld, want 0 %zu", c->name, (long)lb,
        (long)extent, c->struct_size);
  CHECK(true_lb == 0 && true_extent == (MPI_Aint)(c->index_offset + sizeof(int)), "%s: true lb %ld true extent %ld, want 0 %zu",
        c->name, (long)true_lb, (long)true_extent, c->index_offset + sizeof(int));

  /* Sent as the pair type, received as the struct type, and the other way. */
  fill(c, out, N, 10 * rank);
  memset(in, 0x5a, sizeof in);
  MPI_Sendrecv(out, N, c->pair, to, 1, in, N, st, from, 1, MPI_COMM_WORLD, &status);
  check_filled(c, in, N, 10 * from, "pair -> struct");
  int count = -1;
  MPI_Get_count(&status, st, &count);
  CHECK(count == N, "%s pair -> struct: count %d, want %d", c->name, count, N);
  memset(in, 0x5a, sizeof in);
  MPI_Sendrecv(out, N, st, to, 2, in, N, c->pair, from, 2, MPI_COMM_WORLD, &status);
  check_filled(c, in, N, 10 * from, "struct -> pair");
  int elements = -1;
  MPI_Get_count(&status, c->pair, &count);
  MPI_Get_elements(&status, c->pair, &elements);
  CHECK(count == N && elements == 2 * N, "%s struct -> pair: count %d elements %d, want %d %d", c->name, count,
        elements, N, 2 * N);

  /* A message of 2 pairs and a value: 5 basic elements, not a whole number of pairs. */
  int three[2] = {1, 1};
  MPI_Aint three_disp[2] = {0, (MPI_Aint)(2 * c->struct_size)};
  MPI_Datatype three_types[2] = {c->pair, c->value}, two_and_value;
  three[0] = 2;
  MPI_Type_create_struct(2, three, three_disp, three_types, &two_and_value);
  MPI_Type_commit(&two_and_value);
  memset(in, 0x5a, sizeof in);
  MPI_Sendrecv(out, 1, two_and_value, to, 3, in, N, c->pair, from, 3, MPI_COMM_WORLD, &status);
  MPI_Get_count(&status, c->pair, &count);
  MPI_Get_elements(&status, c->pair, &elements);
  CHECK(count == MPI_UNDEFINED && elements == 5, "%s 2 pairs and a value: count %d elements %d, want MPI_UNDEFINED 5",
        c->name, count, elements);
  check_filled(c, in, 2, 10 * from, "2 pairs and a value");
  CHECK(value_at(c, in, 2) == 10 * from + 2, "%s 2 pairs and a value: third value %g, want %d", c->name,
        value_at(c, in, 2), 10 * from + 2);
  MPI_Type_free(&two_and_value);

  /* MPI_Pack with one, MPI_Unpack with the other: the same packed bytes. */
  int pack_pair = -1, pack_struct = -2, position = 0;
  MPI_Pack_size(N, c->pair, MPI_COMM_WORLD, &pack_pair);
  MPI_Pack_size(N, st, MPI_COMM_WORLD, &pack_struct);
  CHECK(pack_pair == pack_struct, "%s: MPI_Pack_size %d, the struct type's %d", c->name, pack_pair, pack_struct);
  unsigned char packed[N * sizeof(struct long_double_int) + 64];
  MPI_Pack(out, N, c->pair, packed, (int)sizeof packed, &position, MPI_COMM_WORLD);
  CHECK(position == N * pair_size, "%s: MPI_Pack wrote %d bytes, want %d", c->name, position, N * pair_size);
  memset(in, 0x5a, sizeof in);
  int read = 0;
  MPI_Unpack(packed, position, &read, in, N, st, MPI_COMM_WORLD);
  check_filled(c, in, N, 10 * rank, "packed as pair, unpacked as struct");

  /* MINLOC and MAXLOC over arrays of the C struct: every rank's value i is (rank * 7) % size + i,
   * its index rank * 100 + i; ties keep the lower index. */
  unsigned char mine[N * sizeof(struct long_double_int)], lo[N * sizeof(struct long_double_int)],
      hi[N * sizeof(struct long_double_int)];
  fill(c, mine, N, (rank * 7) % size);
  for (int i = 0; i < N; ++i) {
    const int k = rank * 100 + i;
    memcpy(mine + (size_t)i * c->struct_size + c->index_offset, &k, sizeof k);
  }
  memset(lo, 0x5a, sizeof lo);
  memset(hi, 0x5a, sizeof hi);
  MPI_Allreduce(mine, lo, N, c->pair, MPI_MINLOC, MPI_COMM_WORLD);
  MPI_Allreduce(mine, hi, N, c->pair, MPI_MAXLOC, MPI_COMM_WORLD);
  int min_rank = 0, max_rank = 0;
  for (int r = 1; r < size; ++r) {
    if ((r * 7) % size < (min_rank * 7) % size) min_rank = r;
    if ((r * 7) % size > (max_rank * 7) % size) max_rank = r;
  }
  for (int i = 0; i < N; ++i) {
    CHECK(value_at(c, lo, i) == (min_rank * 7) % size + i && index_at(c, lo, i) == min_rank * 100 + i,
          "%s MINLOC: element %d is (%g, %d), want (%d, %d)", c->name, i, value_at(c, lo, i), index_at(c, lo, i),
          (min_rank * 7) % size + i, min_rank * 100 + i);
    CHECK(value_at(c, hi, i) == (max_rank * 7) % size + i && index_at(c, hi, i) == max_rank * 100 + i,
          "%s MAXLOC: element %d is (%g, %d), want (%d, %d)", c->name, i, value_at(c, hi, i), index_at(c, hi, i),
          (max_rank * 7) % size + i, max_rank * 100 + i);
  }

  /* MPI_Reduce_local: the lower value wins, a tie keeps the lower index. */
  unsigned char a[N * sizeof(struct long_double_int)], b[N * sizeof(struct long_double_int)];
  fill(c, a, N, 3);
  fill(c, b, N, 3);
  for (int i = 0; i < N; ++i) {
    const int ka = 50 + i, kb = i % 2 ? 40 + i : 60 + i;
    memcpy(a + (size_t)i * c->struct_size + c->index_offset, &ka, sizeof ka);
    memcpy(b + (size_t)i * c->struct_size + c->index_offset, &kb, sizeof kb);
  }
  MPI_Reduce_local(a, b, N, c->pair, MPI_MINLOC);
  for (int i = 0; i < N; ++i)
    CHECK(value_at(c, b, i) == 3 + i && index_at(c, b, i) == (i % 2 ? 40 + i : 50 + i),
          "%s MPI_Reduce_local MINLOC tie: element %d is (%g, %d)", c->name, i, value_at(c, b, i), index_at(c, b, i));

  /* MPI_Accumulate with MAXLOC into a window of the C structs at rank 0. */
  unsigned char target[N * sizeof(struct long_double_int)];
  fill(c, target, N, -1);
  MPI_Win win;
  MPI_Win_create(target, (MPI_Aint)(N * c->struct_size), 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  MPI_Win_fence(0, win);
  MPI_Accumulate(mine, N, c->pair, 0, 0, N, c->pair, MPI_MAXLOC, win);
  MPI_Win_fence(0, win);
  MPI_Win_free(&win);
  if (rank == 0)
    for (int i = 0; i < N; ++i)
      CHECK(value_at(c, target, i) == (max_rank * 7) % size + i && index_at(c, target, i) == max_rank * 100 + i,
            "%s MPI_Accumulate MAXLOC: element %d is (%g, %d), want (%d, %d)", c->name, i, value_at(c, target, i),
            index_at(c, target, i), (max_rank * 7) % size + i, max_rank * 100 + i);

  MPI_Type_free(&st);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int to = (rank + 1) % size, from = (rank + size - 1) % size;
  const struct pair_case cases[] = {
      {"MPI_FLOAT_INT", MPI_FLOAT_INT, MPI_FLOAT, sizeof(float), offsetof(struct float_int, k), sizeof(struct float_int)},
      {"MPI_DOUBLE_INT", MPI_DOUBLE_INT, MPI_DOUBLE, sizeof(double), offsetof(struct double_int, k),
       sizeof(struct double_int)},
      {"MPI_LONG_INT", MPI_LONG_INT, MPI_LONG, sizeof(long), offsetof(struct long_int, k), sizeof(struct long_int)},
      {"MPI_SHORT_INT", MPI_SHORT_INT, MPI_SHORT, sizeof(short), offsetof(struct short_int, k), sizeof(struct short_int)},
      {"MPI_LONG_DOUBLE_INT", MPI_LONG_DOUBLE_INT, MPI_LONG_DOUBLE, sizeof(long double),
       offsetof(struct long_double_int, k), sizeof(struct long_double_int)},
      {"MPI_2INT", MPI_2INT, MPI_INT, sizeof(int), offsetof(struct two_int, k), sizeof(struct two_int)},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) check_case(&cases[i], to, from);

  int total = 0;
  MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) printf(total ? "%d failed checks\n" : "ok\n", total);
  MPI_Finalize();
  return total != 0;
}
