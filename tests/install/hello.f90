! A minimal MPI program in free-form Fortran with `use mpi`, built with the installed tilempif90.
program hello
  use mpi
  implicit none
  integer :: ierr, rank, np
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, np, ierr)
  write (*, '(A, I0, A, I0)') 'hello from ', rank, ' of ', np
  call MPI_Finalize(ierr)
end program hello
