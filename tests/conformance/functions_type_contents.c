/* MPI_Type_get_envelope / MPI_Type_get_contents for every constructor, and
 * MPI_Type_create_hindexed_block moving data (MPI-3.1 §4.1.2, §4.1.13). The contents are the
 * constructor's arguments exactly; the derived types they name are new references, valid after
 * the user has freed the originals, and freed by the user. Named types have MPI_COMBINER_NAMED
 * and no contents (an error under MPI_ERRORS_RETURN). */
#include <mpi.h>
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

/* Compare a type's envelope and contents with what was given to its constructor. */
static void expect(MPI_Datatype t, int combiner, int ni, const int* ints, int na, const MPI_Aint* aints, int nd,
                   const MPI_Datatype* types, const char* what) {
  int gi = -1, ga = -1, gd = -1, gc = -1;
  int rc = MPI_Type_get_envelope(t, &gi, &ga, &gd, &gc);
  CHECK(rc == MPI_SUCCESS, "%s: get_envelope rc %d", what, rc);
  CHECK(gc == combiner && gi == ni && ga == na && gd == nd, "%s: envelope (%d, %d, %d, combiner %d), want (%d, %d, %d, %d)",
        what, gi, ga, gd, gc, ni, na, nd, combiner);
  if (gi != ni || ga != na || gd != nd) return;
  int ci[64];
  MPI_Aint ca[64];
  MPI_Datatype cd[64];
  rc = MPI_Type_get_contents(t, ni, na, nd, ci, ca, cd);
  CHECK(rc == MPI_SUCCESS, "%s: get_contents rc %d", what, rc);
  for (int i = 0; i < ni; ++i) CHECK(ci[i] == ints[i], "%s: integers[%d] = %d, want %d", what, i, ci[i], ints[i]);
  for (int i = 0; i < na; ++i)
    CHECK(ca[i] == aints[i], "%s: addresses[%d] = %ld, want %ld", what, i, (long)ca[i], (long)aints[i]);
  for (int i = 0; i < nd; ++i) {
    CHECK(cd[i] == types[i], "%s: datatypes[%d] = %d, want %d", what, i, (int)cd[i], (int)types[i]);
    int ei, ea, ed, ec;
    MPI_Type_get_envelope(cd[i], &ei, &ea, &ed, &ec);
    if (ec != MPI_COMBINER_NAMED) {
      rc = MPI_Type_free(&cd[i]); /* a new reference: the user's to free */
      CHECK(rc == MPI_SUCCESS && cd[i] == MPI_DATATYPE_NULL, "%s: freeing datatypes[%d]: rc %d", what, i, rc);
    }
  }
}

int main(int argc, char** argv) {
  int size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

  /* Named types. */
  const MPI_Datatype named[] = {MPI_INT, MPI_DOUBLE, MPI_CHAR, MPI_FLOAT_INT, MPI_INTEGER, MPI_BYTE, MPI_PACKED};
  for (unsigned i = 0; i < sizeof named / sizeof named[0]; ++i) {
    int ni = -1, na = -1, nd = -1, c = -1;
    int rc = MPI_Type_get_envelope(named[i], &ni, &na, &nd, &c);
    CHECK(rc == MPI_SUCCESS && c == MPI_COMBINER_NAMED && ni == 0 && na == 0 && nd == 0,
          "named type %d: rc %d, combiner %d (%d, %d, %d)", (int)named[i], rc, c, ni, na, nd);
    int ints[1];
    MPI_Aint aints[1];
    MPI_Datatype types[1];
    rc = MPI_Type_get_contents(named[i], 1, 1, 1, ints, aints, types);
    int cls = -1;
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_TYPE, "get_contents of named type %d: class %d, want MPI_ERR_TYPE", (int)named[i], cls);
  }
  {
    int ni, na, nd, c;
    int rc = MPI_Type_get_envelope(MPI_DATATYPE_NULL, &ni, &na, &nd, &c), cls = -1;
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_TYPE, "get_envelope(MPI_DATATYPE_NULL): class %d", cls);
  }

  /* Every constructor. */
  MPI_Datatype contig, vec, hvec, idx, hidx, iblock, hblock, strct, sub, dar, resized, dup, dupnamed;
  {
    MPI_Type_contiguous(3, MPI_INT, &contig);
    int ints[] = {3};
    MPI_Datatype types[] = {MPI_INT};
    expect(contig, MPI_COMBINER_CONTIGUOUS, 1, ints, 0, NULL, 1, types, "contiguous");
  }
  {
    MPI_Type_vector(4, 2, -5, contig, &vec);
    int ints[] = {4, 2, -5};
    MPI_Datatype types[] = {contig};
    expect(vec, MPI_COMBINER_VECTOR, 3, ints, 0, NULL, 1, types, "vector");
  }
  {
    MPI_Type_create_hvector(2, 1, 100, vec, &hvec);
    int ints[] = {2, 1};
    MPI_Aint aints[] = {100};
    MPI_Datatype types[] = {vec};
    expect(hvec, MPI_COMBINER_HVECTOR, 2, ints, 1, aints, 1, types, "hvector");
  }
  {
    int bl[] = {1, 0, 3}, disp[] = {7, 2, -4};
    MPI_Type_indexed(3, bl, disp, MPI_DOUBLE, &idx);
    int ints[] = {3, 1, 0, 3, 7, 2, -4};
    MPI_Datatype types[] = {MPI_DOUBLE};
    expect(idx, MPI_COMBINER_INDEXED, 7, ints, 0, NULL, 1, types, "indexed");
  }
  {
    int bl[] = {2, 5};
    MPI_Aint disp[] = {16, -48};
    MPI_Type_create_hindexed(2, bl, disp, idx, &hidx);
    int ints[] = {2, 2, 5};
    MPI_Datatype types[] = {idx};
    expect(hidx, MPI_COMBINER_HINDEXED, 3, ints, 2, disp, 1, types, "hindexed");
  }
  {
    int disp[] = {9, 1, 4, 6};
    MPI_Type_create_indexed_block(4, 2, disp, MPI_SHORT, &iblock);
    int ints[] = {4, 2, 9, 1, 4, 6};
    MPI_Datatype types[] = {MPI_SHORT};
    expect(iblock, MPI_COMBINER_INDEXED_BLOCK, 6, ints, 0, NULL, 1, types, "indexed_block");
  }
  {
    MPI_Aint disp[] = {0, 40, 24};
    MPI_Type_create_hindexed_block(3, 2, disp, MPI_INT, &hblock);
    int ints[] = {3, 2};
    MPI_Datatype types[] = {MPI_INT};
    expect(hblock, MPI_COMBINER_HINDEXED_BLOCK, 2, ints, 3, disp, 1, types, "hindexed_block");
  }
  {
    int bl[] = {1, 2, 1};
    MPI_Aint disp[] = {0, 8, 64};
    MPI_Datatype types[] = {MPI_CHAR, hvec, iblock};
    MPI_Type_create_struct(3, bl, disp, types, &strct);
    int ints[] = {3, 1, 2, 1};
    expect(strct, MPI_COMBINER_STRUCT, 4, ints, 3, disp, 3, types, "struct");
  }
  {
    int sizes[] = {10, 8}, subsizes[] = {4, 3}, starts[] = {2, 5};
    MPI_Type_create_subarray(2, sizes, subsizes, starts, MPI_ORDER_FORTRAN, MPI_FLOAT, &sub);
    int ints[] = {2, 10, 8, 4, 3, 2, 5, MPI_ORDER_FORTRAN};
    MPI_Datatype types[] = {MPI_FLOAT};
    expect(sub, MPI_COMBINER_SUBARRAY, 8, ints, 0, NULL, 1, types, "subarray");
  }
  {
    int gsizes[] = {12, 6}, distribs[] = {MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_CYCLIC},
        dargs[] = {MPI_DISTRIBUTE_DFLT_DARG, 2}, psizes[] = {2, 2};
    MPI_Type_create_darray(4, 3, 2, gsizes, distribs, dargs, psizes, MPI_ORDER_C, contig, &dar);
    int ints[] = {4, 3, 2, 12, 6, MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_CYCLIC, MPI_DISTRIBUTE_DFLT_DARG, 2, 2, 2,
                  MPI_ORDER_C};
    MPI_Datatype types[] = {contig};
    expect(dar, MPI_COMBINER_DARRAY, 12, ints, 0, NULL, 1, types, "darray");
  }
  {
    MPI_Type_create_resized(strct, -8, 200, &resized);
    MPI_Aint aints[] = {-8, 200};
    MPI_Datatype types[] = {strct};
    expect(resized, MPI_COMBINER_RESIZED, 0, NULL, 2, aints, 1, types, "resized");
  }
  {
    MPI_Type_dup(resized, &dup);
    MPI_Datatype types[] = {resized};
    expect(dup, MPI_COMBINER_DUP, 0, NULL, 0, NULL, 1, types, "dup");
    MPI_Type_dup(MPI_DOUBLE, &dupnamed);
    MPI_Datatype named_types[] = {MPI_DOUBLE};
    expect(dupnamed, MPI_COMBINER_DUP, 0, NULL, 0, NULL, 1, named_types, "dup of a named type");
  }

  /* Arrays too small for the contents: MPI_ERR_ARG. */
  {
    int ints[8];
    MPI_Aint aints[8];
    MPI_Datatype types[8];
    int rc = MPI_Type_get_contents(strct, 3, 3, 3, ints, aints, types), cls = -1;
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_ARG, "get_contents with 3 integers for 4: class %d, want MPI_ERR_ARG", cls);
  }

  /* The inner types outlive the user's handles: free the originals, then take them back from
   * the contents (the same handles) and use them. */
  MPI_Datatype keep_contig = contig, keep_vec = vec;
  MPI_Type_free(&contig);
  MPI_Type_free(&vec);
  {
    int ints[4];
    MPI_Aint aints[2];
    MPI_Datatype types[2];
    int rc = MPI_Type_get_contents(hvec, 2, 1, 1, ints, aints, types);
    CHECK(rc == MPI_SUCCESS && types[0] == keep_vec, "hvector's inner vector after its free: rc %d, handle %d, want %d",
          rc, (int)types[0], (int)keep_vec);
    int sz = -1;
    MPI_Type_size(types[0], &sz);
    CHECK(sz == 4 * 2 * 3 * (int)sizeof(int), "the inner vector's size %d after the user freed it", sz);
    MPI_Datatype inner = types[0];
    rc = MPI_Type_get_contents(inner, 3, 0, 1, ints, aints, types);
    CHECK(rc == MPI_SUCCESS && types[0] == keep_contig, "vector's inner contiguous: rc %d, handle %d, want %d", rc,
          (int)types[0], (int)keep_contig);
    MPI_Type_size(types[0], &sz);
    CHECK(sz == 3 * (int)sizeof(int), "the inner contiguous type's size %d", sz);
    MPI_Type_free(&types[0]);
    MPI_Type_free(&inner);
  }

  /* hindexed_block moves the data it describes: blocks of 2 ints at byte offsets 0, 40, 24. */
  {
    MPI_Type_commit(&hblock);
    int src[16], dst[16];
    for (int i = 0; i < 16; ++i) src[i] = 100 * rank + i, dst[i] = -1;
    const int to = (rank + 1) % size, from = (rank + size - 1) % size;
    MPI_Sendrecv(src, 1, hblock, to, 5, dst, 6, MPI_INT, from, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    const int want[6] = {0, 1, 10, 11, 6, 7};
    for (int i = 0; i < 6; ++i)
      CHECK(dst[i] == 100 * from + want[i], "hindexed_block: element %d is %d, want %d", i, dst[i], 100 * from + want[i]);
    int rc = MPI_Type_create_hindexed_block(-1, 1, NULL, MPI_INT, &dup), cls = -1;
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_COUNT, "hindexed_block with count -1: class %d", cls);
    MPI_Aint d0 = 0;
    rc = MPI_Type_create_hindexed_block(1, 1, &d0, MPI_DATATYPE_NULL, &dupnamed);
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_TYPE, "hindexed_block of MPI_DATATYPE_NULL: class %d", cls);
  }

  MPI_Type_free(&hvec);
  MPI_Type_free(&idx);
  MPI_Type_free(&hidx);
  MPI_Type_free(&iblock);
  MPI_Type_free(&hblock);
  MPI_Type_free(&strct);
  MPI_Type_free(&sub);
  MPI_Type_free(&dar);
  MPI_Type_free(&resized);
  MPI_Type_free(&dup);
  MPI_Type_free(&dupnamed);

  int all = 0;
  MPI_Allreduce(&errors, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0 && all == 0) printf("functions_type_contents: %d ranks: ok\n", size);
  MPI_Finalize();
  return all != 0;
}
