! Error handlers, attribute caching and non-blocking collectives from Fortran: a Fortran error
! handler, Fortran copy/delete callbacks (by reference, INTEGER(KIND=MPI_ADDRESS_KIND) values)
! and the predefined MPI_COMM_DUP_FN / MPI_COMM_NULL_DELETE_FN, the MPI-1 MPI_KEYVAL_CREATE with
! MPI_DUP_FN, MPI_TAG_UB, and MPI_IALLREDUCE / MPI_IBARRIER waited for with MPI_WAIT.
module callbacks
  implicit none
  integer :: handled = 0, last_code = 0, deletes = 0
contains
  subroutine handler(comm, code)
    integer :: comm, code
    handled = handled + 1
    last_code = code
  end subroutine handler
  subroutine copy_twice(oldcomm, keyval, extra, valin, valout, flag, ierr)
    include 'mpif.h'
    integer :: oldcomm, keyval, ierr
    integer(kind=MPI_ADDRESS_KIND) :: extra, valin, valout
    logical :: flag
    valout = 2 * valin + extra
    flag = .true.
    ierr = MPI_SUCCESS
  end subroutine copy_twice
  subroutine count_delete(comm, keyval, val, extra, ierr)
    include 'mpif.h'
    integer :: comm, keyval, ierr
    integer(kind=MPI_ADDRESS_KIND) :: val, extra
    deletes = deletes + 1
    ierr = MPI_SUCCESS
  end subroutine count_delete
end module callbacks

program attributes
  use callbacks
  implicit none
  include 'mpif.h'
  integer :: ierr, rank, np, eh, dup, dup2, key, dkey, oldkey, oldval, req, cls
  integer(kind=MPI_ADDRESS_KIND) :: val, extra
  logical :: flag
  integer :: x(4), y(4)

  call mpi_init(ierr)
  call mpi_comm_rank(MPI_COMM_WORLD, rank, ierr)
  call mpi_comm_size(MPI_COMM_WORLD, np, ierr)
  ! A Fortran error handler sees the class of a bad call, which then returns it.
  call mpi_comm_create_errhandler(handler, eh, ierr)
  call mpi_comm_dup(MPI_COMM_WORLD, dup, ierr)
  call mpi_comm_set_errhandler(dup, eh, ierr)
  call mpi_send(x, 1, MPI_INTEGER, np + 3, 0, dup, ierr)
  call mpi_error_class(ierr, cls, ierr)
  if (handled /= 1 .or. cls /= MPI_ERR_RANK) stop 1
  call mpi_comm_call_errhandler(dup, MPI_ERR_OTHER, ierr)
  if (handled /= 2 .or. last_code /= MPI_ERR_OTHER) stop 2
  ! Attributes with Fortran callbacks and with the predefined ones.
  extra = 5
  call mpi_comm_create_keyval(copy_twice, count_delete, key, extra, ierr)
  call mpi_comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, dkey, extra, ierr)
  val = 10
  call mpi_comm_set_attr(dup, key, val, ierr)
  val = 77
  call mpi_comm_set_attr(dup, dkey, val, ierr)
  call mpi_comm_dup(dup, dup2, ierr)
  call mpi_comm_get_attr(dup2, key, val, flag, ierr)
  if (.not. flag .or. val /= 25) stop 3
  call mpi_comm_get_attr(dup2, dkey, val, flag, ierr)
  if (.not. flag .or. val /= 77) stop 4
  call mpi_comm_free(dup2, ierr)
  if (deletes /= 1) stop 5
  call mpi_comm_delete_attr(dup, key, ierr)
  if (deletes /= 2) stop 6
  call mpi_keyval_create(MPI_DUP_FN, MPI_NULL_DELETE_FN, oldkey, 0, ierr)
  call mpi_attr_put(MPI_COMM_WORLD, oldkey, 9, ierr)
  call mpi_attr_get(MPI_COMM_WORLD, oldkey, oldval, flag, ierr)
  if (.not. flag .or. oldval /= 9) stop 7
  call mpi_comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, val, flag, ierr)
  if (.not. flag .or. val < 32767) stop 8
  ! Non-blocking collectives.
  x = rank + 1
  call mpi_iallreduce(x, y, 4, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, req, ierr)
  call mpi_wait(req, MPI_STATUS_IGNORE, ierr)
  if (any(y /= np * (np + 1) / 2)) stop 9
  call mpi_ibarrier(MPI_COMM_WORLD, req, ierr)
  call mpi_wait(req, MPI_STATUS_IGNORE, ierr)
  if (req /= MPI_REQUEST_NULL) stop 10
  call mpi_comm_free(dup, ierr)
  call mpi_errhandler_free(eh, ierr)
  if (rank == 0) print '(a,i0,a)', 'attributes.f90: ', np, ' ranks: ok'
  call mpi_finalize(ierr)
end program attributes
