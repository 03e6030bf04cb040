! MPI_COMM_SET_INFO, MPI_COMM_GET_INFO and MPI_COMM_DUP_WITH_INFO from Fortran (mpif.h).
program comm_info
  implicit none
  include 'mpif.h'
  integer :: ierr, rank, np, errs, total, info, used, dup, nkeys, sum, cls, resultlen
  character(len=MPI_MAX_INFO_VAL) :: value
  logical :: flag

  errs = 0
  call mpi_init(ierr)
  call mpi_comm_rank(MPI_COMM_WORLD, rank, ierr)
  call mpi_comm_size(MPI_COMM_WORLD, np, ierr)
  call mpi_comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)

  call mpi_info_create(info, ierr)
  call mpi_info_set(info, 'tilempi_hint', 'on', ierr)
  call mpi_comm_dup_with_info(MPI_COMM_WORLD, info, dup, ierr)
  if (ierr /= MPI_SUCCESS) call fail('dup_with_info failed')
  call mpi_comm_get_info(dup, used, ierr)
  call mpi_info_get_nkeys(used, nkeys, ierr)
  call mpi_info_get(used, 'tilempi_hint', MPI_MAX_INFO_VAL, value, flag, ierr)
  if (nkeys /= 1 .or. .not. flag .or. value /= 'on') call fail('dup_with_info hints')
  call mpi_info_free(used, ierr)

  call mpi_info_set(info, 'second', 'two', ierr)
  call mpi_comm_set_info(dup, info, ierr)
  call mpi_comm_get_info(dup, used, ierr)
  call mpi_info_get_nkeys(used, nkeys, ierr)
  call mpi_info_get(used, 'second', MPI_MAX_INFO_VAL, value, flag, ierr)
  if (nkeys /= 2 .or. .not. flag .or. value /= 'two') call fail('set_info hints')
  call mpi_info_free(used, ierr)

  call mpi_allreduce(1, sum, 1, MPI_INTEGER, MPI_SUM, dup, ierr)
  if (sum /= np) call fail('allreduce on the duplicate')

  call mpi_comm_set_info(MPI_COMM_NULL, info, ierr)
  call mpi_error_class(ierr, cls, resultlen)
  if (cls /= MPI_ERR_COMM) call fail('set_info(MPI_COMM_NULL) is not MPI_ERR_COMM')

  call mpi_info_free(info, ierr)
  call mpi_comm_free(dup, ierr)
  call mpi_allreduce(errs, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (rank == 0 .and. total == 0) print '(a,i0,a)', 'functions_comm_info.f90: ', np, ' ranks: ok'
  call mpi_finalize(ierr)
  if (total /= 0) stop 1
contains
  subroutine fail(what)
    character(len=*), intent(in) :: what
    print '(a,i0,2a)', 'rank ', rank, ': ', what
    errs = errs + 1
  end subroutine fail
end program comm_info
