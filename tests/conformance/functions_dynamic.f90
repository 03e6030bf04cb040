! Process creation and management and MPI_AINT_ADD / MPI_AINT_DIFF from Fortran (mpif.h): the
! outcomes of functions_dynamic.c.
program dynamic
  implicit none
  include 'mpif.h'
  integer :: ierr, rank, np, errs, total, parent, inter, cls, dup
  integer :: codes(2)
  integer(kind=MPI_ADDRESS_KIND) :: a0, a3
  double precision :: cells(4)
  character(len=MPI_MAX_PORT_NAME) :: port

  errs = 0
  call mpi_init(ierr)
  call mpi_comm_rank(MPI_COMM_WORLD, rank, ierr)
  call mpi_comm_size(MPI_COMM_WORLD, np, ierr)
  call mpi_comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)

  call mpi_comm_get_parent(parent, ierr)
  if (ierr /= MPI_SUCCESS .or. parent /= MPI_COMM_NULL) call fail('get_parent')
  codes = 0
  call mpi_comm_spawn('./worker', MPI_ARGV_NULL, 2, MPI_INFO_NULL, 0, MPI_COMM_WORLD, inter, codes, ierr)
  call mpi_error_class(ierr, cls, ierr)
  if (cls /= MPI_ERR_SPAWN .or. inter /= MPI_COMM_NULL) call fail('spawn')
  if (rank == 0 .and. any(codes /= MPI_ERR_SPAWN)) call fail('spawn error codes')
  call mpi_comm_spawn('./worker', MPI_ARGV_NULL, 2, MPI_INFO_NULL, 0, MPI_COMM_WORLD, inter, &
                      MPI_ERRCODES_IGNORE, ierr)
  call mpi_error_class(ierr, cls, ierr)
  if (cls /= MPI_ERR_SPAWN) call fail('spawn, codes ignored')
  call mpi_lookup_name('svc', MPI_INFO_NULL, port, ierr)
  call mpi_error_class(ierr, cls, ierr)
  if (cls /= MPI_ERR_NAME) call fail('lookup_name')
  call mpi_comm_dup(MPI_COMM_WORLD, dup, ierr)
  call mpi_comm_disconnect(dup, ierr)
  if (ierr /= MPI_SUCCESS .or. dup /= MPI_COMM_NULL) call fail('disconnect')

  call mpi_get_address(cells(1), a0, ierr)
  call mpi_get_address(cells(4), a3, ierr)
  if (mpi_aint_diff(a3, a0) /= 24) call fail('aint_diff')
  if (mpi_aint_add(a0, 24_MPI_ADDRESS_KIND) /= a3) call fail('aint_add')

  call mpi_allreduce(errs, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (rank == 0 .and. total == 0) print '(a,i0,a)', 'functions_dynamic_f90: ', np, ' ranks: ok'
  call mpi_finalize(ierr)
  if (total /= 0) stop 1
contains
  subroutine fail(what)
    character(len=*), intent(in) :: what
    print '(a,i0,2a)', 'rank ', rank, ': FAILED: ', what
    errs = errs + 1
  end subroutine
end program
