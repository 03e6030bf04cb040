! The profiling interface from Fortran: pmpi_tool.c, linked in, replaces MPI_SEND; this program's
! three MPI_SEND calls reach it, its PMPI_SEND call does not, and the C MPI_Send sees none.
program pmpi
  implicit none
  include 'mpif.h'
  integer :: ierr, rank, i, v, fsends, csends
  call mpi_init(ierr)
  call mpi_comm_rank(MPI_COMM_WORLD, rank, ierr)
  do i = 1, 3
    call mpi_send(i, 1, MPI_INTEGER, 0, i, MPI_COMM_SELF, ierr)
    call mpi_recv(v, 1, MPI_INTEGER, 0, i, MPI_COMM_SELF, MPI_STATUS_IGNORE, ierr)
    if (v /= i) stop 2
  end do
  call pmpi_send(rank, 1, MPI_INTEGER, 0, 9, MPI_COMM_SELF, ierr)
  call mpi_recv(v, 1, MPI_INTEGER, 0, 9, MPI_COMM_SELF, MPI_STATUS_IGNORE, ierr)
  if (v /= rank) stop 3
  call tool_counts(fsends, csends)
  call mpi_finalize(ierr)
  if (fsends /= 3 .or. csends /= 0) then
    print '(a,i0,a,i0)', 'pmpi.f90: FAIL: mpi_send_ seen ', fsends, ' times, MPI_Send ', csends
    stop 1
  end if
  if (rank == 0) print '(a)', 'pmpi.f90: PASS'
end program pmpi
