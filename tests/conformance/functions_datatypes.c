/* The predefined types MPI_OFFSET, MPI_COUNT, MPI_C_LONG_DOUBLE_COMPLEX, MPI_CXX_BOOL and the
 * MPI_CXX_*_COMPLEX types (and the Fortran ones from C, by size: MPI_INTEGER16, MPI_COMPLEX8/16):
 * their sizes and names, a message of each, and the reductions the standard defines on each
 * (MPI-3.1 §5.9.2): max/min/sum/prod and the bitwise ones on the multi-language integers, sum
 * and prod on complex values, the logical ones on bool; an op the standard does not define for
 * a type is MPI_ERR_OP. */
#include <complex.h>
#include <mpi.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static int rank, errors;

#define CHECK(cond, ...)                                   \
  do {                                                     \
    if (!(cond)) {                                         \
      printf("rank %d: line %d: ", rank, __LINE__);        \
      printf(__VA_ARGS__);                                 \
      printf("\n");                                        \
      ++errors;                                            \
    }                                                      \
  } while (0)

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

  const struct {
    MPI_Datatype type;
    int size;
    const char* name;
  } types[] = {
      {MPI_OFFSET, sizeof(MPI_Offset), "MPI_OFFSET"},
      {MPI_COUNT, sizeof(MPI_Count), "MPI_COUNT"},
      {MPI_INTEGER16, 16, "MPI_INTEGER16"},
      {MPI_REAL16, 16, "MPI_REAL16"},
      {MPI_COMPLEX8, 8, "MPI_COMPLEX8"},
      {MPI_COMPLEX16, 16, "MPI_COMPLEX16"},
      {MPI_COMPLEX32, 32, "MPI_COMPLEX32"},
      {MPI_C_LONG_DOUBLE_COMPLEX, sizeof(long double _Complex), "MPI_C_LONG_DOUBLE_COMPLEX"},
      {MPI_CXX_BOOL, sizeof(bool), "MPI_CXX_BOOL"},
      {MPI_CXX_FLOAT_COMPLEX, sizeof(float _Complex), "MPI_CXX_FLOAT_COMPLEX"},
      {MPI_CXX_DOUBLE_COMPLEX, sizeof(double _Complex), "MPI_CXX_DOUBLE_COMPLEX"},
      {MPI_CXX_LONG_DOUBLE_COMPLEX, sizeof(long double _Complex), "MPI_CXX_LONG_DOUBLE_COMPLEX"},
  };
  const int to = (rank + 1) % size, from = (rank + size - 1) % size;
  for (unsigned i = 0; i < sizeof types / sizeof types[0]; ++i) {
    int sz = -1, len = 0, ni, na, nd, combiner;
    char name[MPI_MAX_OBJECT_NAME];
    int rc = MPI_Type_size(types[i].type, &sz);
    CHECK(rc == MPI_SUCCESS && sz == types[i].size, "%s: rc %d, size %d, want %d", types[i].name, rc, sz,
          types[i].size);
    MPI_Type_get_name(types[i].type, name, &len);
    CHECK(strcmp(name, types[i].name) == 0, "type %d is named \"%s\", want %s", (int)types[i].type, name,
          types[i].name);
    MPI_Type_get_envelope(types[i].type, &ni, &na, &nd, &combiner);
    CHECK(combiner == MPI_COMBINER_NAMED, "%s is not a named type", types[i].name);
    /* A message of three: bytes that arrive as they left. */
    unsigned char out[96], in[96];
    for (int b = 0; b < 96; ++b) out[b] = (unsigned char)(rank * 7 + b), in[b] = 0;
    MPI_Status st;
    rc = MPI_Sendrecv(out, 3, types[i].type, to, i, in, 3, types[i].type, from, i, MPI_COMM_WORLD, &st);
    int count = -1;
    MPI_Get_count(&st, types[i].type, &count);
    int same = 1;
    for (int b = 0; b < 3 * sz && b < 96; ++b) same = same && in[b] == (unsigned char)(from * 7 + b);
    CHECK(rc == MPI_SUCCESS && count == 3 && same, "%s: a message of 3: rc %d, count %d, data %s", types[i].name, rc,
          count, same ? "ok" : "wrong");
  }

  /* The multi-language integers: beyond 32 bits. */
  {
    MPI_Offset o = ((MPI_Offset)1 << 40) + rank, osum = 0, omax = 0, oband = 0;
    MPI_Allreduce(&o, &osum, 1, MPI_OFFSET, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(&o, &omax, 1, MPI_OFFSET, MPI_MAX, MPI_COMM_WORLD);
    MPI_Allreduce(&o, &oband, 1, MPI_OFFSET, MPI_BAND, MPI_COMM_WORLD);
    CHECK(osum == ((MPI_Offset)size << 40) + (MPI_Offset)size * (size - 1) / 2 &&
              omax == ((MPI_Offset)1 << 40) + size - 1 && oband == ((MPI_Offset)1 << 40),
          "MPI_OFFSET: sum %lld max %lld band %lld", (long long)osum, (long long)omax, (long long)oband);
    MPI_Count c = (MPI_Count)(rank + 2) << 8, cprod = 0, cmin = 0;  /* the product of 4 is 120 * 2^32 */
    MPI_Allreduce(&c, &cprod, 1, MPI_COUNT, MPI_PROD, MPI_COMM_WORLD);
    MPI_Allreduce(&c, &cmin, 1, MPI_COUNT, MPI_MIN, MPI_COMM_WORLD);
    MPI_Count want = 1;
    for (int r = 0; r < size; ++r) want *= (MPI_Count)(r + 2) << 8;
    CHECK(cprod == want && cmin == (MPI_Count)2 << 8, "MPI_COUNT: prod %lld (want %lld) min %lld", (long long)cprod,
          (long long)want, (long long)cmin);
  }

  /* Complex sums and products. */
  {
    long double _Complex z = (rank + 1) + 1.0L * I, zsum = 0, zprod = 0, want_prod = 1;
    MPI_Allreduce(&z, &zsum, 1, MPI_C_LONG_DOUBLE_COMPLEX, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(&z, &zprod, 1, MPI_CXX_LONG_DOUBLE_COMPLEX, MPI_PROD, MPI_COMM_WORLD);
    for (int r = 0; r < size; ++r) want_prod *= (r + 1) + 1.0L * I;
    CHECK(creall(zsum) == size * (size + 1) / 2 && cimagl(zsum) == size, "long double complex sum (%Lg, %Lg)",
          creall(zsum), cimagl(zsum));
    CHECK(creall(zprod) == creall(want_prod) && cimagl(zprod) == cimagl(want_prod),
          "long double complex prod (%Lg, %Lg), want (%Lg, %Lg)", creall(zprod), cimagl(zprod), creall(want_prod),
          cimagl(want_prod));
    float _Complex f = 1.0f + (float)rank * I, fsum = 0;
    MPI_Allreduce(&f, &fsum, 1, MPI_CXX_FLOAT_COMPLEX, MPI_SUM, MPI_COMM_WORLD);
    CHECK(crealf(fsum) == size && cimagf(fsum) == size * (size - 1) / 2, "float complex sum (%g, %g)",
          (double)crealf(fsum), (double)cimagf(fsum));
    double _Complex d = 2.0 - 1.0 * I, dprod = 0, dwant = 1;
    MPI_Allreduce(&d, &dprod, 1, MPI_CXX_DOUBLE_COMPLEX, MPI_PROD, MPI_COMM_WORLD);
    MPI_Allreduce(&d, &dprod, 1, MPI_COMPLEX16, MPI_PROD, MPI_COMM_WORLD);
    for (int r = 0; r < size; ++r) dwant *= 2.0 - 1.0 * I;
    CHECK(creal(dprod) == creal(dwant) && cimag(dprod) == cimag(dwant), "double complex prod (%g, %g)", creal(dprod),
          cimag(dprod));
    int rc = MPI_Allreduce(&d, &dprod, 1, MPI_CXX_DOUBLE_COMPLEX, MPI_MAX, MPI_COMM_WORLD);
    CHECK(error_class(rc) == MPI_ERR_OP, "MPI_MAX on a complex type: class %d, want MPI_ERR_OP", error_class(rc));
  }

  /* Logical operations on MPI_CXX_BOOL. */
  {
    bool mine = rank == 0, land = true, lor = false, lxor = false;
    MPI_Allreduce(&mine, &land, 1, MPI_CXX_BOOL, MPI_LAND, MPI_COMM_WORLD);
    MPI_Allreduce(&mine, &lor, 1, MPI_CXX_BOOL, MPI_LOR, MPI_COMM_WORLD);
    MPI_Allreduce(&mine, &lxor, 1, MPI_CXX_BOOL, MPI_LXOR, MPI_COMM_WORLD);
    CHECK(land == (size == 1) && lor && lxor, "MPI_CXX_BOOL: land %d lor %d lxor %d", land, lor, lxor);
    int rc = MPI_Allreduce(&mine, &lor, 1, MPI_CXX_BOOL, MPI_SUM, MPI_COMM_WORLD);
    CHECK(error_class(rc) == MPI_ERR_OP, "MPI_SUM on MPI_CXX_BOOL: class %d, want MPI_ERR_OP", error_class(rc));
  }

  /* MPI_INTEGER16 from C: GCC's 128-bit integer. */
  {
    __int128 v = ((__int128)1 << 100) + rank, sum = 0;
    MPI_Allreduce(&v, &sum, 1, MPI_INTEGER16, MPI_SUM, MPI_COMM_WORLD);
    CHECK(sum == ((__int128)size << 100) + size * (size - 1) / 2, "MPI_INTEGER16 sum is wrong");
  }

  int all = 0;
  MPI_Allreduce(&errors, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0 && all == 0) printf("functions_datatypes: %d ranks: ok\n", size);
  MPI_Finalize();
  return all != 0;
}
