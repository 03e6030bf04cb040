! use mpi_f08 and the profiling interface: a tool linked in (fortran08_pmpi_tool.c) replaces
! MPI_Send and MPI_Comm_rank and sees every call; the program's PMPI_ calls bypass it.
program fortran08_pmpi
  use mpi_f08
  implicit none
  interface
    subroutine fortran08_tool_counts(sends, ranks) bind(C)
      use, intrinsic :: iso_c_binding, only: c_int
      integer(c_int) :: sends, ranks
    end subroutine
  end interface
  integer :: rank, n, i, sends, ranks, got, ierr
  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, n)
  do i = 1, 3
    call MPI_Send(rank, 1, MPI_INTEGER, mod(rank + 1, n), i, MPI_COMM_WORLD)
    call MPI_Recv(got, 1, MPI_INTEGER, mod(rank + n - 1, n), i, MPI_COMM_WORLD, MPI_STATUS_IGNORE)
  end do
  call PMPI_Send(rank, 1, MPI_INTEGER, mod(rank + 1, n), 9, MPI_COMM_WORLD, ierr)
  call PMPI_Recv(got, 1, MPI_INTEGER, mod(rank + n - 1, n), 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE)
  call PMPI_Comm_rank(MPI_COMM_WORLD, i)
  call fortran08_tool_counts(sends, ranks)
  if (sends /= 3 .or. ranks /= 1 .or. got /= mod(rank + n - 1, n) .or. i /= rank) then
    print '(a,i0,a,i0,a,i0)', 'rank ', rank, ': failed: the tool saw sends ', sends, ' and comm_rank calls ', ranks
    call MPI_Abort(MPI_COMM_WORLD, 1)
  end if
  call MPI_Barrier(MPI_COMM_WORLD)
  if (rank == 0) print '(a,i0,a)', 'fortran08_pmpi: PASS on ', n, ' ranks'
  call MPI_Finalize()
end program
