/* The C side of outside_attr_languages.f90: reads attributes set from Fortran, which C sees
 * through a pointer to the value (MPI-3.1 §17.2.7), and sets one from C. Each returns 0 when
 * what it finds is right, else prints why and returns 1. */
#include <mpi.h>
#include <stdio.h>

/* object: 0 communicator, 1 datatype, 2 window (Fortran handles). */
int c_reads_aint_(const int* object, const MPI_Fint* handle, const int* key, const MPI_Aint* want) {
  MPI_Aint* value = NULL;
  int flag = 0;
  if (*object == 0) MPI_Comm_get_attr(MPI_Comm_f2c(*handle), *key, &value, &flag);
  else if (*object == 1) MPI_Type_get_attr(MPI_Type_f2c(*handle), *key, &value, &flag);
  else MPI_Win_get_attr(MPI_Win_f2c(*handle), *key, &value, &flag);
  if (!flag || !value || *value != *want) {
    printf("C read of a Fortran attribute: flag %d, pointer %p, want *pointer == %ld\n", flag, (void*)value, (long)*want);
    return 1;
  }
  return 0;
}

int c_reads_int_(const MPI_Fint* comm, const int* key, const MPI_Fint* want) {
  int* value = NULL;
  int flag = 0;
  MPI_Comm_get_attr(MPI_Comm_f2c(*comm), *key, &value, &flag);
  if (!flag || !value || *value != *want) {
    printf("C read of an MPI_ATTR_PUT attribute: flag %d, pointer %p, want *pointer == %d\n", flag, (void*)value,
           (int)*want);
    return 1;
  }
  return 0;
}

static int seventy_seven = 77;

int c_sets_(const MPI_Fint* comm, const int* key) {
  if (MPI_Comm_set_attr(MPI_Comm_f2c(*comm), *key, &seventy_seven) != MPI_SUCCESS) return 1;
  int* value = NULL;
  int flag = 0;
  MPI_Comm_get_attr(MPI_Comm_f2c(*comm), *key, &value, &flag);
  return !flag || value != &seventy_seven;
}
