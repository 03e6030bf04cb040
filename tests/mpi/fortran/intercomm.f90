! Intercommunicators from Fortran: MPI_INTERCOMM_CREATE between the even and the odd world ranks,
! MPI_COMM_TEST_INTER and MPI_COMM_REMOTE_SIZE, an allreduce across (each half gets the other's
! sum), MPI_INTERCOMM_MERGE with a LOGICAL high, and an error class returned under
! MPI_ERRORS_RETURN.
program intercomm
  implicit none
  include 'mpif.h'
  integer :: ierr, rank, nprocs, color, local, ic, merged, lsize, rsize, mrank, i, cls
  integer :: mine, got, want, bad
  logical :: flag
  call MPI_INIT(ierr)
  call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
  call MPI_COMM_SIZE(MPI_COMM_WORLD, nprocs, ierr)
  call MPI_COMM_SET_ERRHANDLER(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)
  color = mod(rank, 2)
  call MPI_COMM_SPLIT(MPI_COMM_WORLD, color, rank, local, ierr)
  call MPI_INTERCOMM_CREATE(local, 0, MPI_COMM_WORLD, 1 - color, 9, ic, ierr)
  if (ierr /= MPI_SUCCESS) call fail('MPI_INTERCOMM_CREATE')
  call MPI_COMM_TEST_INTER(ic, flag, ierr)
  if (.not. flag) call fail('MPI_COMM_TEST_INTER')
  call MPI_COMM_SIZE(ic, lsize, ierr)
  call MPI_COMM_REMOTE_SIZE(ic, rsize, ierr)
  if (lsize /= (nprocs + 1 - color) / 2 .or. rsize /= nprocs - lsize) call fail('sizes')
  mine = rank
  call MPI_ALLREDUCE(mine, got, 1, MPI_INTEGER, MPI_SUM, ic, ierr)
  want = 0
  do i = 1 - color, nprocs - 1, 2
    want = want + i
  end do
  if (ierr /= MPI_SUCCESS .or. got /= want) call fail('MPI_ALLREDUCE')
  call MPI_INTERCOMM_MERGE(ic, color == 1, merged, ierr)
  call MPI_COMM_RANK(merged, mrank, ierr)
  if (color == 0 .and. mrank /= rank / 2) call fail('merged rank (low group)')
  if (color == 1 .and. mrank /= (nprocs + 1) / 2 + rank / 2) call fail('merged rank (high group)')
  call MPI_COMM_REMOTE_SIZE(MPI_COMM_WORLD, bad, ierr)
  call MPI_ERROR_CLASS(ierr, cls, i)
  if (cls /= MPI_ERR_COMM) call fail('MPI_COMM_REMOTE_SIZE of an intracommunicator')
  call MPI_COMM_FREE(merged, ierr)
  call MPI_COMM_FREE(ic, ierr)
  call MPI_COMM_FREE(local, ierr)
  if (rank == 0) print '(a,i0,a)', 'intercomm.f90: ', nprocs, ' ranks: ok'
  call MPI_FINALIZE(ierr)
contains
  subroutine fail(what)
    character(*) :: what
    integer :: e
    print *, 'intercomm.f90: rank ', rank, ': ', what, ' failed'
    call MPI_ABORT(MPI_COMM_WORLD, 1, e)
  end subroutine fail
end program intercomm
