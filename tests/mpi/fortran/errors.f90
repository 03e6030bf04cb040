! Ends the job on purpose: "abort" has the last rank call MPI_ABORT with code 3
! while the others wait; "fatal" makes a bad call under the default handler,
! MPI_ERRORS_ARE_FATAL. Either way no rank may reach the end.
program errors
  implicit none
  include 'mpif.h'
  integer :: ierr, rank, np, buf(1)
  character(len=16) :: mode

  call get_command_argument(1, mode)
  call mpi_init(ierr)
  call mpi_comm_rank(MPI_COMM_WORLD, rank, ierr)
  call mpi_comm_size(MPI_COMM_WORLD, np, ierr)
  buf(1) = rank
  if (mode == 'abort') then
    if (rank == np - 1) then
      call mpi_abort(MPI_COMM_WORLD, 3, ierr)
    else
      call mpi_recv(buf, 1, MPI_INTEGER, np - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
    end if
  else if (mode == 'fatal') then
    call mpi_send(buf, 1, MPI_INTEGER, np + 5, 0, MPI_COMM_WORLD, ierr)
  end if
  print '(a,i0)', 'errors.f90: not ended, ierr ', ierr
  call mpi_finalize(ierr)
end program errors
