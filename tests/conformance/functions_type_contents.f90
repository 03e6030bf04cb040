! MPI_TYPE_CREATE_HINDEXED_BLOCK, MPI_TYPE_GET_ENVELOPE and MPI_TYPE_GET_CONTENTS from Fortran
! (`use mpi`): the contents are the constructor's arguments, addresses of KIND=MPI_ADDRESS_KIND;
! a named type has MPI_COMBINER_NAMED and no contents (MPI_ERR_TYPE under MPI_ERRORS_RETURN).
program type_contents
  use mpi
  implicit none
  integer :: ierr, rank, np, errs, total, cls
  integer :: ni, na, nd, combiner, hblock, vec, inner
  integer :: ints(8), types(4)
  integer(kind=MPI_ADDRESS_KIND) :: disps(3), aints(4)
  integer :: src(16), dst(6), want(6), i, to, from

  errs = 0
  call mpi_init(ierr)
  call mpi_comm_rank(MPI_COMM_WORLD, rank, ierr)
  call mpi_comm_size(MPI_COMM_WORLD, np, ierr)
  call mpi_comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)

  call mpi_type_get_envelope(MPI_REAL, ni, na, nd, combiner, ierr)
  if (ierr /= MPI_SUCCESS .or. combiner /= MPI_COMBINER_NAMED) call fail('MPI_REAL is not named')
  call mpi_type_get_contents(MPI_REAL, 8, 4, 4, ints, aints, types, ierr)
  call mpi_error_class(ierr, cls, i)
  if (cls /= MPI_ERR_TYPE) call fail('get_contents of MPI_REAL is not MPI_ERR_TYPE')

  disps = (/ 0_MPI_ADDRESS_KIND, 40_MPI_ADDRESS_KIND, 24_MPI_ADDRESS_KIND /)
  call mpi_type_create_hindexed_block(3, 2, disps, MPI_INTEGER, hblock, ierr)
  if (ierr /= MPI_SUCCESS) call fail('create_hindexed_block failed')
  call mpi_type_get_envelope(hblock, ni, na, nd, combiner, ierr)
  if (combiner /= MPI_COMBINER_HINDEXED_BLOCK .or. ni /= 2 .or. na /= 3 .or. nd /= 1) &
    call fail('hindexed_block envelope')
  call mpi_type_get_contents(hblock, 8, 4, 4, ints, aints, types, ierr)
  if (ierr /= MPI_SUCCESS .or. ints(1) /= 3 .or. ints(2) /= 2 .or. any(aints(1:3) /= disps) &
      .or. types(1) /= MPI_INTEGER) call fail('hindexed_block contents')

  call mpi_type_vector(5, 1, 3, hblock, vec, ierr)
  call mpi_type_get_contents(vec, 8, 4, 4, ints, aints, types, ierr)
  if (ierr /= MPI_SUCCESS .or. any(ints(1:3) /= (/ 5, 1, 3 /)) .or. types(1) /= hblock) call fail('vector contents')
  inner = types(1)
  call mpi_type_free(inner, ierr)
  if (ierr /= MPI_SUCCESS) call fail('freeing the returned inner type')

  call mpi_type_commit(hblock, ierr)
  do i = 1, 16
    src(i) = 100 * rank + i
  end do
  dst = -1
  to = mod(rank + 1, np)
  from = mod(rank + np - 1, np)
  call mpi_sendrecv(src, 1, hblock, to, 3, dst, 6, MPI_INTEGER, from, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  want = (/ 1, 2, 11, 12, 7, 8 /) + 100 * from
  if (any(dst /= want)) call fail('hindexed_block moved the wrong elements')

  call mpi_type_free(vec, ierr)
  call mpi_type_free(hblock, ierr)
  call mpi_allreduce(errs, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (rank == 0 .and. total == 0) print '(a,i0,a)', 'functions_type_contents.f90: ', np, ' ranks: ok'
  call mpi_finalize(ierr)
  if (total /= 0) stop 1
contains
  subroutine fail(what)
    character(len=*), intent(in) :: what
    print '(a,i0,2a)', 'rank ', rank, ': ', what
    errs = errs + 1
  end subroutine fail
end program type_contents
