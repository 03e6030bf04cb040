/* MPI_Finalize frees MPI_COMM_SELF first, and its attributes' delete callbacks run in the reverse
 * of the order they were set (MPI-3.1 §8.7.1), whatever the keyvals' numbers: a library that set
 * an attribute later (on top of another) is finalized first. Keyvals are created in one order and
 * their attributes set in a shuffled one; one is set twice (a replacement keeps its place) and one
 * deleted before MPI_Finalize. The callbacks record the order; after MPI_Finalize (no MPI
 * calls), each rank compares it and prints what differs. */
#include <stdio.h>
#include <stdlib.h>

#include <mpi.h>

enum { NKEYS = 6 };
static int order[NKEYS + 4], seen;

static int record(MPI_Comm comm, int keyval, void* value, void* extra) {
  (void)comm;
  (void)keyval;
  (void)extra;
  if (seen < NKEYS + 4) order[seen] = (int)(MPI_Aint)value;
  ++seen;
  return MPI_SUCCESS;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int keys[NKEYS];
  for (int i = 0; i < NKEYS; ++i) MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, record, &keys[i], NULL);
  /* Set in the order 3 1 5 0 4 2 (the value names the key), then 1 again (replaced in place:
   * its old value's callback runs now), then delete 4 (its callback runs now). */
  const int set_order[NKEYS] = {3, 1, 5, 0, 4, 2};
  for (int i = 0; i < NKEYS; ++i)
    MPI_Comm_set_attr(MPI_COMM_SELF, keys[set_order[i]], (void*)(MPI_Aint)(100 + set_order[i]));
  MPI_Comm_set_attr(MPI_COMM_SELF, keys[1], (void*)(MPI_Aint)(200 + 1));
  MPI_Comm_delete_attr(MPI_COMM_SELF, keys[4]);
  const int before = seen;
  MPI_Finalize();
  /* Before MPI_Finalize: 101 (replaced), 104 (deleted). At it: 2, 0, 5, 1 (new value), 3. */
  const int want[] = {101, 104, 102, 100, 105, 201, 103};
  const int n = (int)(sizeof want / sizeof want[0]);
  int failures = before != 2 || seen != n;
  for (int i = 0; i < n && i < seen; ++i) failures += order[i] != want[i];
  if (failures) {
    printf("rank %d: FAILED: delete callbacks ran", rank);
    for (int i = 0; i < seen && i < NKEYS + 4; ++i) printf(" %d", order[i]);
    printf(", want");
    for (int i = 0; i < n; ++i) printf(" %d", want[i]);
    printf("\n");
    return 1;
  }
  if (rank == 0) printf("ok\n");
  return 0;
}
