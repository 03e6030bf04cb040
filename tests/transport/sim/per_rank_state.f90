! Per-rank Fortran state when ranks are contexts of one simulator process: a COMMON block, a
! SAVEd local and an I/O unit (every rank OPENs unit 10 on a file of its own, writes, calls MPI
! while the others do the same, then reads its file back: the ranks share one Fortran runtime,
! whose unit numbers the simulator makes per rank, docs/SIM.md). Ends with STOP, which must end the
! rank only. Prints "rank R ok" per rank and "per_rank_state_f: all N ranks ok" on rank 0.
program per_rank_state_f
  use mpi
  implicit none
  integer :: rank, nranks, ierr, i, got, total, bad, allbad
  integer :: shared_value
  common /state/ shared_value
  character(len=64) :: fname
  character(len=16) :: model
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks, ierr)
  bad = 0
  shared_value = 100 * rank
  ! The test's two twins (ranks as contexts, ranks as processes) may run at once in one
  ! directory: the process model is part of the file name, or one twin deletes the other's files.
  call get_environment_variable('TILEMPI_SIM_RANKS', model)
  if (len_trim(model) == 0) model = 'auto'
  write(fname, '(a,a,a,i0,a)') 'per_rank_state_f.', trim(model), '.', rank, '.tmp'
  open(unit=10, file=trim(fname), status='replace', action='readwrite')
  do i = 1, 5
    write(10, *) rank * 10 + i
    if (counter() /= i) bad = 1
    call MPI_Allreduce(rank, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
    if (shared_value /= 100 * rank) bad = 1
  end do
  rewind(10)
  do i = 1, 5
    read(10, *) got
    if (got /= rank * 10 + i) bad = 1
    call MPI_Barrier(MPI_COMM_WORLD, ierr)
  end do
  close(10, status='delete')
  call MPI_Allreduce(bad, allbad, 1, MPI_INTEGER, MPI_MAX, MPI_COMM_WORLD, ierr)
  if (bad == 0) print '(a,i0,a)', 'rank ', rank, ' ok'
  if (rank == 0 .and. allbad == 0) print '(a,i0,a)', 'per_rank_state_f: all ', nranks, ' ranks ok'
  call MPI_Finalize(ierr)
  if (allbad /= 0) stop 3
  stop
contains
  integer function counter()
    integer, save :: calls = 0
    calls = calls + 1
    counter = calls
  end function counter
end program per_rank_state_f
