/* MPI_Pack_external, MPI_Unpack_external, MPI_Pack_external_size (MPI-3.1 §4.3, §13.5.2): the
 * external32 bytes of ints, doubles, longs (4 bytes), long doubles (IEEE binary128), complex
 * floats and wide characters (2 bytes), big-endian; a struct of mixed members and a vector
 * packed and unpacked back; a long beyond 32 bits is MPI_ERR_CONVERSION; a packed buffer sent as
 * bytes to another rank unpacks there. */
#include <mpi.h>
#include <complex.h>
#include <stdio.h>
#include <string.h>
#include <wchar.h>

#include "conformance_check.h"


static int bytes_are(const unsigned char* got, const unsigned char* want, int n) { return memcmp(got, want, n) == 0; }

/* Packs count items of type into buf; checks the size against Pack_external_size and `want`. */
static MPI_Aint pack(const void* in, int count, MPI_Datatype type, unsigned char* buf, MPI_Aint want, const char* what) {
  MPI_Aint size = -1, pos = 0;
  int rc = MPI_Pack_external_size("external32", count, type, &size);
  CHECK(rc == MPI_SUCCESS && size == want, "%s: external size %ld, want %ld", what, (long)size, (long)want);
  rc = MPI_Pack_external("external32", in, count, type, buf, 256, &pos);
  CHECK(rc == MPI_SUCCESS && pos == want, "%s: rc %d, position %ld", what, rc, (long)pos);
  return pos;
}

static void unpack(const unsigned char* buf, MPI_Aint size, void* out, int count, MPI_Datatype type, const char* what) {
  MPI_Aint pos = 0;
  int rc = MPI_Unpack_external("external32", buf, size, &pos, out, count, type);
  CHECK(rc == MPI_SUCCESS && pos == size, "%s: unpack rc %d, position %ld", what, rc, (long)pos);
}

int main(int argc, char** argv) {
  unsigned char buf[256];
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  {
    int v[3] = {1, -2, 0x01020304}, back[3];
    static const unsigned char want[12] = {0, 0, 0, 1, 0xff, 0xff, 0xff, 0xfe, 1, 2, 3, 4};
    pack(v, 3, MPI_INT, buf, 12, "int");
    CHECK(bytes_are(buf, want, 12), "int bytes");
    unpack(buf, 12, back, 3, MPI_INT, "int");
    CHECK(memcmp(back, v, sizeof v) == 0, "int round trip");
  }
  {
    double d = 1.0;
    static const unsigned char want[8] = {0x3f, 0xf0, 0, 0, 0, 0, 0, 0};
    pack(&d, 1, MPI_DOUBLE, buf, 8, "double");
    CHECK(bytes_are(buf, want, 8), "double bytes");
  }
  {
    long v[2] = {-5, 70000}, back[2] = {0, 0};
    static const unsigned char want[8] = {0xff, 0xff, 0xff, 0xfb, 0, 1, 0x11, 0x70};
    pack(v, 2, MPI_LONG, buf, 8, "long");
    CHECK(bytes_are(buf, want, 8), "long: 4 bytes each");
    unpack(buf, 8, back, 2, MPI_LONG, "long");
    CHECK(back[0] == -5 && back[1] == 70000, "long round trip %ld %ld", back[0], back[1]);
    long big = 1L << 40;
    MPI_Aint pos = 0;
    int cls = -1;
    MPI_Error_class(MPI_Pack_external("external32", &big, 1, MPI_LONG, buf, 256, &pos), &cls);
    CHECK(cls == MPI_ERR_CONVERSION, "a long of 41 bits: class %d", cls);
  }
  {
    long double x = 1.5L, back = 0;
    static const unsigned char want[16] = {0x3f, 0xff, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    pack(&x, 1, MPI_LONG_DOUBLE, buf, 16, "long double");
    CHECK(bytes_are(buf, want, 16), "long double as binary128");
    unpack(buf, 16, &back, 1, MPI_LONG_DOUBLE, "long double");
    CHECK(back == 1.5L, "long double round trip %Lg", back);
  }
  {
    float _Complex z = 1.0f + 2.0f * I;
    static const unsigned char want[8] = {0x3f, 0x80, 0, 0, 0x40, 0, 0, 0};
    pack(&z, 1, MPI_C_FLOAT_COMPLEX, buf, 8, "float complex");
    CHECK(bytes_are(buf, want, 8), "complex: real part, then imaginary, each big-endian");
  }
  {
    wchar_t w[2] = {L'A', 0x20AC}, back[2] = {0, 0};
    static const unsigned char want[4] = {0, 0x41, 0x20, 0xac};
    pack(w, 2, MPI_WCHAR, buf, 4, "wchar");
    CHECK(bytes_are(buf, want, 4), "wchar: 2 bytes each");
    unpack(buf, 4, back, 2, MPI_WCHAR, "wchar");
    CHECK(back[0] == L'A' && back[1] == 0x20AC, "wchar round trip");
  }
  /* A pair type: a double and an int, 12 bytes (its size, not its extent). */
  {
    struct {
      double v;
      int i;
    } pr = {-1.0, 7}, back = {0, 0};
    static const unsigned char want[12] = {0xbf, 0xf0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 7};
    pack(&pr, 1, MPI_DOUBLE_INT, buf, 12, "double_int");
    CHECK(bytes_are(buf, want, 12), "MPI_DOUBLE_INT: the double, then the int");
    unpack(buf, 12, &back, 1, MPI_DOUBLE_INT, "double_int");
    CHECK(back.v == -1.0 && back.i == 7, "MPI_DOUBLE_INT round trip");
  }
  /* A struct of mixed members: char, long, double (external 1 + 4 + 8 bytes), two of them. */
  struct S {
    char c;
    long l;
    double d;
  } s[2] = {{'x', -7, 0.5}, {'y', 123456, -2.0}}, t[2];
  MPI_Datatype st;
  {
    int lens[3] = {1, 1, 1};
    MPI_Aint disps[3] = {offsetof(struct S, c), offsetof(struct S, l), offsetof(struct S, d)};
    MPI_Datatype types[3] = {MPI_CHAR, MPI_LONG, MPI_DOUBLE};
    static const unsigned char want[13] = {'x', 0xff, 0xff, 0xff, 0xf9, 0x3f, 0xe0, 0, 0, 0, 0, 0, 0};
    MPI_Type_create_struct(3, lens, disps, types, &st);
    MPI_Type_commit(&st);
    pack(s, 2, st, buf, 26, "struct");
    CHECK(bytes_are(buf, want, 13), "struct: members back to back, each in external32");
    memset(t, 0, sizeof t);
    unpack(buf, 26, t, 2, st, "struct");
    CHECK(t[0].c == 'x' && t[0].l == -7 && t[0].d == 0.5 && t[1].c == 'y' && t[1].l == 123456 && t[1].d == -2.0,
          "struct round trip");
  }
  {
    int v[4] = {10, 11, 12, 13}, back[4] = {0, 0, 0, 0};
    MPI_Datatype vec;
    static const unsigned char want[8] = {0, 0, 0, 10, 0, 0, 0, 12};
    MPI_Type_vector(2, 1, 2, MPI_INT, &vec);
    MPI_Type_commit(&vec);
    pack(v, 1, vec, buf, 8, "vector");
    CHECK(bytes_are(buf, want, 8), "vector: the selected ints");
    unpack(buf, 8, back, 1, vec, "vector");
    CHECK(back[0] == 10 && back[1] == 0 && back[2] == 12 && back[3] == 0, "vector round trip");
    MPI_Type_free(&vec);
  }
  {
    int v = 1, cls = -1;
    MPI_Aint pos = 0;
    MPI_Error_class(MPI_Pack_external("native", &v, 1, MPI_INT, buf, 256, &pos), &cls);
    CHECK(cls == MPI_ERR_ARG, "datarep native: class %d", cls);
    MPI_Error_class(MPI_Pack_external("external32", &v, 1, MPI_INT, buf, 3, &pos), &cls);
    CHECK(cls == MPI_ERR_TRUNCATE, "3 bytes for an int: class %d", cls);
  }
  /* external32 travels as bytes: rank 0 packs its structs, rank 1 unpacks them. */
  if (rank == 0) {
    MPI_Aint n = pack(s, 2, st, buf, 26, "struct to send");
    MPI_Send(buf, (int)n, MPI_BYTE, 1, 3, MPI_COMM_WORLD);
  } else if (rank == 1) {
    unsigned char in[26];
    MPI_Recv(in, 26, MPI_BYTE, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    memset(t, 0, sizeof t);
    unpack(in, 26, t, 2, st, "received struct");
    CHECK(t[1].c == 'y' && t[1].l == 123456 && t[1].d == -2.0, "received struct");
  }
  MPI_Type_free(&st);
  {
    int all = 0;
    MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    failures = all;
  }
  if (rank == 0 && failures == 0) printf("functions.pack_external: all checks passed\n");
  MPI_Finalize();
  return failures ? 1 : 0;
}
