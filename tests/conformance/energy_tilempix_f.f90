! TILEMPIX_ENERGY from Fortran (`use mpi`, which includes mpif.h's declaration): a DOUBLE PRECISION
! function, never decreasing, raised by a send on the sim transport (whose processors are tiles),
! 0 on the host transport.
program energy_f
  use mpi
  implicit none
  integer :: ierr, rank, np, fails, total, i, namelen
  double precision :: before, after
  character(len=MPI_MAX_PROCESSOR_NAME) :: pname
  logical :: modeled
  integer :: buf(256)

  fails = 0
  buf = 0
  call mpi_init(ierr)
  call mpi_comm_rank(MPI_COMM_WORLD, rank, ierr)
  call mpi_comm_size(MPI_COMM_WORLD, np, ierr)
  call mpi_get_processor_name(pname, namelen, ierr)
  modeled = pname(1:5) == 'tile('
  before = TILEMPIX_ENERGY()
  if (before < 0d0) call fail('negative energy at the start')
  do i = 1, 4
    if (rank == 0) call mpi_send(buf, 256, MPI_INTEGER, 1, 3, MPI_COMM_WORLD, ierr)
    if (rank == 1) call mpi_recv(buf, 256, MPI_INTEGER, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  end do
  after = TILEMPIX_ENERGY()
  if (after < before) call fail('energy fell')
  if (modeled .and. rank == 0 .and. .not. after > before) call fail('four sends spent no energy')
  if (.not. modeled .and. after /= 0d0) call fail('energy on the host transport')
  call mpi_allreduce(fails, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (total /= 0) call mpi_abort(MPI_COMM_WORLD, 1, ierr)
  if (rank == 0) print '(a,i0,a)', 'energy_f: PASS on ', np, ' ranks'
  call mpi_finalize(ierr)
contains
  subroutine fail(what)
    character(len=*), intent(in) :: what
    print '(a,i0,2a)', 'rank ', rank, ': failed: ', what
    fails = fails + 1
  end subroutine
end program
