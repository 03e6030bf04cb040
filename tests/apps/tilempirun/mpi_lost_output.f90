! mpi_lost_output_f: every rank prints three lines (gfortran holds them in its unit's buffer
! when the output is not a terminal), then rank 1 calls MPI_ABORT with code 3 while the others
! wait in MPI_RECV. Every line must reach the launcher's output.
program lost_output
  use mpi
  implicit none
  integer :: rank, ierr, k, value
  call MPI_INIT(ierr)
  call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
  do k = 0, 2
    write (*, '(A,I0,A,I0)') 'rank ', rank, ' line ', k
  end do
  call MPI_BARRIER(MPI_COMM_WORLD, ierr)
  if (rank == 1) call MPI_ABORT(MPI_COMM_WORLD, 3, ierr)
  call MPI_RECV(value, 1, MPI_INTEGER, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  call MPI_FINALIZE(ierr)
end program lost_output
