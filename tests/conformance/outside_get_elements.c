/* MPI_Get_elements(_x) counts basic elements (MPI-3.1 §4.1.11), also when a type mixes basic
 * types and when a message ends inside an element of the receive type: a struct {int, double}
 * received from a message of {int, double, int} holds 3 basic elements (MPI_Get_count:
 * MPI_UNDEFINED). A pair type (MPI_2INT, MPI_DOUBLE_INT) is two basic elements.
 * MPI_Status_set_elements is the inverse. Every rank sends to the next. */
#include <stddef.h>

#include "conformance_check.h"

struct id { int i; double d; };
struct idi { int i; double d; int j; };

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int to = (rank + 1) % size, from = (rank + size - 1) % size;

  int ones[3] = {1, 1, 1};
  MPI_Aint d_id[2] = {offsetof(struct id, i), offsetof(struct id, d)};
  MPI_Datatype t_id[2] = {MPI_INT, MPI_DOUBLE}, id_type;
  MPI_Type_create_struct(2, ones, d_id, t_id, &id_type);
  MPI_Type_commit(&id_type);
  MPI_Aint d_idi[3] = {offsetof(struct idi, i), offsetof(struct idi, d), offsetof(struct idi, j)};
  MPI_Datatype t_idi[3] = {MPI_INT, MPI_DOUBLE, MPI_INT}, idi_type;
  MPI_Type_create_struct(3, ones, d_idi, t_idi, &idi_type);
  MPI_Type_commit(&idi_type);

  /* Whole elements: 3 structs are 6 basic elements. */
  struct id out[3] = {{rank, 0.5}, {rank + 1, 1.5}, {rank + 2, 2.5}}, in[3];
  MPI_Status st;
  int count = -1, elements = -1;
  MPI_Count elements_x = -1;
  MPI_Sendrecv(out, 3, id_type, to, 1, in, 3, id_type, from, 1, MPI_COMM_WORLD, &st);
  MPI_Get_count(&st, id_type, &count);
  MPI_Get_elements(&st, id_type, &elements);
  MPI_Get_elements_x(&st, id_type, &elements_x);
  CHECK(count == 3 && elements == 6 && elements_x == 6, "3 x {int, double}: count %d elements %d / %lld, want 3, 6",
        count, elements, (long long)elements_x);
  CHECK(in[2].i == from + 2 && in[2].d == 2.5, "3 x {int, double}: last is %d %g", in[2].i, in[2].d);

  /* One element and a part: {int, double, int} into 2 x {int, double}. */
  struct idi one = {7 * rank, 3.25, 7 * rank + 1};
  struct id two[2] = {{-1, -1.0}, {-1, -1.0}};
  MPI_Sendrecv(&one, 1, idi_type, to, 2, two, 2, id_type, from, 2, MPI_COMM_WORLD, &st);
  MPI_Get_count(&st, id_type, &count);
  MPI_Get_elements(&st, id_type, &elements);
  MPI_Get_elements_x(&st, id_type, &elements_x);
  CHECK(count == MPI_UNDEFINED, "partial: MPI_Get_count %d, want MPI_UNDEFINED", count);
  CHECK(elements == 3 && elements_x == 3, "partial: elements %d / %lld, want 3", elements, (long long)elements_x);
  CHECK(two[0].i == 7 * from && two[0].d == 3.25 && two[1].i == 7 * from + 1,
        "partial: data %d %g %d", two[0].i, two[0].d, two[1].i);

  /* Pair types: two basic elements each. */
  int pairs[6] = {1, 2, 3, 4, 5, 6}, pairs_in[6];
  MPI_Sendrecv(pairs, 3, MPI_2INT, to, 3, pairs_in, 3, MPI_2INT, from, 3, MPI_COMM_WORLD, &st);
  MPI_Get_count(&st, MPI_2INT, &count);
  MPI_Get_elements(&st, MPI_2INT, &elements);
  CHECK(count == 3 && elements == 6, "3 x MPI_2INT: count %d elements %d, want 3, 6", count, elements);
  struct { double v; int k; } di[2] = {{1.0, 1}, {2.0, 2}}, di_in[2];
  MPI_Sendrecv(di, 2, MPI_DOUBLE_INT, to, 4, di_in, 2, MPI_DOUBLE_INT, from, 4, MPI_COMM_WORLD, &st);
  MPI_Get_elements(&st, MPI_DOUBLE_INT, &elements);
  CHECK(elements == 4, "2 x MPI_DOUBLE_INT: elements %d, want 4", elements);

  /* MPI_Status_set_elements: 3 basic elements of {int, double} are one and a half structs. */
  MPI_Status made;
  MPI_Status_set_elements(&made, id_type, 3);
  MPI_Get_elements(&made, id_type, &elements);
  MPI_Get_count(&made, id_type, &count);
  CHECK(elements == 3 && count == MPI_UNDEFINED, "set_elements 3: elements %d count %d", elements, count);
  MPI_Status_set_elements(&made, id_type, 4);
  MPI_Get_elements(&made, id_type, &elements);
  MPI_Get_count(&made, id_type, &count);
  CHECK(elements == 4 && count == 2, "set_elements 4: elements %d count %d, want 4, 2", elements, count);

  MPI_Type_free(&id_type);
  MPI_Type_free(&idi_type);
  int total = 0;
  MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) printf(total ? "%d failed checks\n" : "ok\n", total);
  MPI_Finalize();
  return total ? 1 : 0;
}
