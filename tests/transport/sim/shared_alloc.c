/* TILEMPIX_Shared_alloc: where the job folds blocks (ranks as contexts), the ranks that ask with
   one key share one zero-filled block, and a write by one is seen by all; where it does not, each
   rank's block is its own and zero-filled. Either way the argument errors are returned under
   MPI_ERRORS_RETURN, and a block is released by its last holder. Prints "folded: F" (rank 0) so
   that the test can assert which case ran. usage: shared_alloc */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static int rank, failures;
#define CHECK(cond, ...)                           \
  do {                                             \
    if (!(cond)) {                                 \
      ++failures;                                  \
      fprintf(stderr, "rank %d: check failed: ", rank); \
      fprintf(stderr, __VA_ARGS__);                \
      fputc('\n', stderr);                         \
    }                                              \
  } while (0)

int main(int argc, char** argv) {
  int size, folds = -1, err_class;
  const MPI_Aint bytes = 1 << 20;
  unsigned char* block = NULL;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  CHECK(TILEMPIX_Shared_alloc_folds(&folds) == MPI_SUCCESS && (folds == 0 || folds == 1), "folds = %d", folds);

  CHECK(TILEMPIX_Shared_alloc(bytes, "input", &block) == MPI_SUCCESS && block, "allocation failed");
  for (MPI_Aint i = 0; i < bytes; i += 4096) CHECK(block[i] == 0, "byte %ld is %d, not 0", (long)i, block[i]);
  MPI_Barrier(MPI_COMM_WORLD);
  /* Rank 0 fills the block; every rank then sees rank 0's bytes when folded, its own zeros if not. */
  if (rank == 0) memset(block, 0x5a, (size_t)bytes);
  MPI_Barrier(MPI_COMM_WORLD);
  const unsigned char want = (folds || rank == 0) ? 0x5a : 0;
  CHECK(block[0] == want && block[bytes - 1] == want, "block holds %d..%d, not %d", block[0], block[bytes - 1], want);

  /* One more hold of a held key, another size for it, an empty key, a negative size, a bad free. */
  unsigned char* again = NULL;
  if (folds) {
    CHECK(TILEMPIX_Shared_alloc(bytes, "input", &again) != MPI_SUCCESS, "a second hold of one key succeeded");
    CHECK(TILEMPIX_Shared_alloc(bytes / 2, "input", &again) != MPI_SUCCESS, "another size for a held key succeeded");
  }
  int rc = TILEMPIX_Shared_alloc(16, "", &again);
  MPI_Error_class(rc, &err_class);
  CHECK(err_class == MPI_ERR_ARG, "empty key: class %d, not MPI_ERR_ARG", err_class);
  rc = TILEMPIX_Shared_alloc(-1, "negative", &again);
  MPI_Error_class(rc, &err_class);
  CHECK(err_class == MPI_ERR_ARG, "negative size: class %d, not MPI_ERR_ARG", err_class);
  int local = 0;
  rc = TILEMPIX_Shared_free(&local);
  MPI_Error_class(rc, &err_class);
  CHECK(err_class == MPI_ERR_ARG, "free of a stack address: class %d, not MPI_ERR_ARG", err_class);

  /* The macro keys by call site: one block per site, shared the same way. */
  int* counters = (int*)TILEMPIX_SHARED_MALLOC(sizeof(int) * 64);
  CHECK(counters != NULL, "TILEMPIX_SHARED_MALLOC gave NULL");
  MPI_Barrier(MPI_COMM_WORLD);
  if (counters) counters[rank % 64] = rank + 1;
  MPI_Barrier(MPI_COMM_WORLD);
  if (counters && folds)
    for (int r = 0; r < size && r < 64; ++r) CHECK(counters[r] == r + 1, "counters[%d] = %d, not %d", r, counters[r], r + 1);
  MPI_Barrier(MPI_COMM_WORLD);
  CHECK(TILEMPIX_Shared_free(counters) == MPI_SUCCESS, "free of the macro's block failed");

  /* Released by every rank: the key is free for another size (the last holder unmapped it). */
  CHECK(TILEMPIX_Shared_free(block) == MPI_SUCCESS, "free failed");
  rc = TILEMPIX_Shared_free(block);
  MPI_Error_class(rc, &err_class);
  CHECK(err_class == MPI_ERR_ARG, "second free: class %d, not MPI_ERR_ARG", err_class);
  MPI_Barrier(MPI_COMM_WORLD);
  CHECK(TILEMPIX_Shared_alloc(4096, "input", &block) == MPI_SUCCESS && block[4095] == 0,
        "the freed key cannot be allocated again with another size");
  MPI_Barrier(MPI_COMM_WORLD);
  CHECK(TILEMPIX_Shared_free(block) == MPI_SUCCESS, "free failed");

  int all = 0;
  MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) printf("folded: %d, failures: %d\n", folds, all);
  MPI_Finalize();
  return all ? 1 : 0;
}
