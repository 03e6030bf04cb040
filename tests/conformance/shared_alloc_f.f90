! TILEMPIX_SHARED_ALLOC / _FREE / _ALLOC_FOLDS from Fortran (`use mpi`): the block comes back as an
! INTEGER(KIND=MPI_ADDRESS_KIND) for C_F_POINTER, as MPI_ALLOC_MEM's does; the key's trailing
! blanks are not part of it. Where the job folds blocks (sim, ranks as contexts) rank 0's values
! are every rank's; elsewhere each rank's block is its own, zero-filled.
program shared_alloc_f
  use mpi
  use, intrinsic :: iso_c_binding, only: c_ptr, c_f_pointer
  implicit none
  integer, parameter :: n = 4096
  integer :: ierr, rank, np, fails, total, i, eclass
  integer(kind=MPI_ADDRESS_KIND) :: bytes, addr, addr2
  logical :: folds
  type(c_ptr) :: p
  double precision, pointer :: a(:)
  double precision :: want

  fails = 0
  call mpi_init(ierr)
  call mpi_comm_rank(MPI_COMM_WORLD, rank, ierr)
  call mpi_comm_size(MPI_COMM_WORLD, np, ierr)
  call mpi_comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)
  call tilempix_shared_alloc_folds(folds, ierr)
  if (ierr /= MPI_SUCCESS) call fail('TILEMPIX_SHARED_ALLOC_FOLDS failed')

  bytes = 8_MPI_ADDRESS_KIND * n
  call tilempix_shared_alloc(bytes, 'table   ', addr, ierr)
  if (ierr /= MPI_SUCCESS .or. addr == 0) call fail('TILEMPIX_SHARED_ALLOC failed')
  p = transfer(addr, p)
  call c_f_pointer(p, a, [n])
  if (any(a /= 0d0)) call fail('the block is not zero-filled')
  call mpi_barrier(MPI_COMM_WORLD, ierr)
  if (rank == 0) a = [(dble(i), i = 1, n)]
  call mpi_barrier(MPI_COMM_WORLD, ierr)
  want = 0d0
  if (folds .or. rank == 0) want = dble(n)
  if (a(n) /= want) call fail('the block does not hold what it should')

  ! The same key without its blanks is the same block: a second hold is an error where blocks
  ! fold (the rank holds it already); an empty key is always one.
  if (folds) then
    call tilempix_shared_alloc(bytes, 'table', addr2, ierr)
    if (ierr == MPI_SUCCESS) call fail('a second hold of the key "table" succeeded')
  end if
  call tilempix_shared_alloc(bytes, '   ', addr2, ierr)
  call mpi_error_class(ierr, eclass, i)
  if (eclass /= MPI_ERR_ARG) call fail('a blank key is not MPI_ERR_ARG')

  call mpi_barrier(MPI_COMM_WORLD, ierr)
  call tilempix_shared_free(a, ierr)
  if (ierr /= MPI_SUCCESS) call fail('TILEMPIX_SHARED_FREE failed')

  call mpi_allreduce(fails, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (total /= 0) call mpi_abort(MPI_COMM_WORLD, 1, ierr)
  if (rank == 0) print '(a,l1,a,i0,a)', 'shared_alloc_f: PASS (folded: ', folds, ') on ', np, ' ranks'
  call mpi_finalize(ierr)
contains
  subroutine fail(what)
    character(len=*), intent(in) :: what
    print '(a,i0,2a)', 'rank ', rank, ': failed: ', what
    fails = fails + 1
  end subroutine
end program
