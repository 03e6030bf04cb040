! A minimal MPI program with `use mpi_f08`, built with the installed tilempif90.
program hello_f08
  use mpi_f08
  implicit none
  integer :: rank, np
  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, np)
  write (*, '(A, I0, A, I0)') 'hello from ', rank, ' of ', np
  call MPI_Finalize()
end program hello_f08
