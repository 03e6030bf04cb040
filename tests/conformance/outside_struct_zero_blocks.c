/* A struct entry with a block length of 0 adds nothing to the type map (MPI-3.1 §4.1.2), so a
 * struct of {0 x MPI_FLOAT, 1 x MPI_INT, 2 x MPI_INT} is made of ints only: a message of them
 * counts its ints in MPI_Get_elements(_x), not its bytes, and the data lands where the int
 * entries say. Each rank sends six ints to the next and receives them as two structs. */
#include "conformance_check.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int blocks[3] = {0, 1, 2};
  MPI_Aint disps[3] = {2 * sizeof(float), 0, 2 * sizeof(int)};
  MPI_Datatype types[3] = {MPI_FLOAT, MPI_INT, MPI_INT}, mixed;
  MPI_Type_create_struct(3, blocks, disps, types, &mixed);
  MPI_Type_commit(&mixed);

  int out[6], in[8];
  for (int i = 0; i < 6; ++i) out[i] = 10 * rank + i;
  for (int i = 0; i < 8; ++i) in[i] = -1;
  const int to = (rank + 1) % size, from = (rank + size - 1) % size;
  MPI_Status st;
  MPI_Sendrecv(out, 6, MPI_INT, to, 5, in, 2, mixed, from, 5, MPI_COMM_WORLD, &st);
  int count = -1, elements = -1;
  MPI_Count elements_x = -1;
  MPI_Get_count(&st, mixed, &count);
  MPI_Get_elements(&st, mixed, &elements);
  MPI_Get_elements_x(&st, mixed, &elements_x);
  CHECK(count == 2, "MPI_Get_count %d, want 2", count);
  CHECK(elements == 6 && elements_x == 6, "MPI_Get_elements %d, _x %lld, want 6 (the ints)", elements,
        (long long)elements_x);
  const int want[8] = {10 * from, -1, 10 * from + 1, 10 * from + 2, 10 * from + 3, -1, 10 * from + 4,
                       10 * from + 5};
  for (int i = 0; i < 8; ++i) CHECK(in[i] == want[i], "in[%d] = %d, want %d", i, in[i], want[i]);

  /* A partial message: four ints are one whole struct and one of the next one's ints. */
  MPI_Sendrecv(out, 4, MPI_INT, to, 6, in, 2, mixed, from, 6, MPI_COMM_WORLD, &st);
  MPI_Get_count(&st, mixed, &count);
  MPI_Get_elements(&st, mixed, &elements);
  CHECK(count == MPI_UNDEFINED, "partial: MPI_Get_count %d, want MPI_UNDEFINED", count);
  CHECK(elements == 4, "partial: MPI_Get_elements %d, want 4", elements);

  MPI_Type_free(&mixed);
  int total = 0;
  MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) printf(total ? "%d failed checks\n" : "ok\n", total);
  MPI_Finalize();
  return total ? 1 : 0;
}
