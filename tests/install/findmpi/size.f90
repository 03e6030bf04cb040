! size_f N: passes (exit 0) only in a job of N ranks; every rank says what it sees.
program size_f
  use mpi
  implicit none
  integer :: rank, nranks, want, total, ierr
  character(len=16) :: arg
  call get_command_argument(1, arg)
  read (arg, *) want
  call MPI_INIT(ierr)
  call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
  call MPI_COMM_SIZE(MPI_COMM_WORLD, nranks, ierr)
  call MPI_ALLREDUCE(rank, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  write (*, '(A,I0,A,I0,A,I0)') 'size_f: rank ', rank, ' of ', nranks, ', sum of ranks ', total
  call MPI_FINALIZE(ierr)
  if (nranks /= want .or. total /= want * (want - 1) / 2) stop 1
end program size_f
