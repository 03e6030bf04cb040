// The weak MPI_ names of the reduction-operation entry points, whose PMPI_ definitions are in
// coll/op.cpp. Every other file that defines entry points lists its own aliases at its end (an
// alias must be in the file of its target); op.cpp belongs to the collectives, so these are
// forwarding functions instead, with the same effect for a tool: MPI_Op_create is weak, the
// library's own code calls PMPI_Op_create.
#include "mpi.h"

extern "C" {

__attribute__((weak)) int tilempi_weak_Op_create(MPI_User_function* user_fn, int commute, MPI_Op* op)
    __asm__("MPI_Op_create");
__attribute__((weak)) int tilempi_weak_Op_free(MPI_Op* op) __asm__("MPI_Op_free");
__attribute__((weak)) int tilempi_weak_Op_commutative(MPI_Op op, int* commute) __asm__("MPI_Op_commutative");
__attribute__((weak)) int tilempi_weak_Reduce_local(const void* inbuf, void* inoutbuf, int count,
                                                    MPI_Datatype datatype, MPI_Op op) __asm__("MPI_Reduce_local");

int tilempi_weak_Op_create(MPI_User_function* user_fn, int commute, MPI_Op* op) {
  return PMPI_Op_create(user_fn, commute, op);
}
int tilempi_weak_Op_free(MPI_Op* op) { return PMPI_Op_free(op); }
int tilempi_weak_Op_commutative(MPI_Op op, int* commute) { return PMPI_Op_commutative(op, commute); }
int tilempi_weak_Reduce_local(const void* inbuf, void* inoutbuf, int count, MPI_Datatype datatype, MPI_Op op) {
  return PMPI_Reduce_local(inbuf, inoutbuf, count, datatype, op);
}

}  // extern "C"
