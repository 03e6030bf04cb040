! TILEMPIX_MIGRATE from Fortran: rank 0 moves rank 1 to the chip's last tile while rank 0 sends
! rank 1 ten numbered messages; rank 1 gets each once and in order. A tile off the chip comes
! back as MPI_ERR_ARG under MPI_ERRORS_RETURN. Prints "fortran migrate: ok" on rank 1.
program migrate
  implicit none
  include 'mpif.h'
  integer :: ierr, rank, i, buf(1), cls, bad
  call mpi_init(ierr)
  call mpi_comm_rank(MPI_COMM_WORLD, rank, ierr)
  call mpi_comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)
  bad = 0
  if (rank == 0) then
    call tilempix_migrate(MPI_COMM_WORLD, 1, 1000000, ierr)
    call mpi_error_class(ierr, cls, i)
    if (cls /= MPI_ERR_ARG) bad = 1
    do i = 1, 10
      if (i == 4) then
        call tilempix_migrate(MPI_COMM_WORLD, 1, 15, ierr)
        if (ierr /= MPI_SUCCESS) bad = 1
      end if
      buf(1) = i
      call mpi_send(buf, 1, MPI_INTEGER, 1, 0, MPI_COMM_WORLD, ierr)
    end do
  else if (rank == 1) then
    do i = 1, 10
      call mpi_recv(buf, 1, MPI_INTEGER, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
      if (buf(1) /= i) bad = 1
    end do
  end if
  call mpi_allreduce(MPI_IN_PLACE, bad, 1, MPI_INTEGER, MPI_MAX, MPI_COMM_WORLD, ierr)
  if (rank == 1 .and. bad == 0) print '(a)', 'fortran migrate: ok'
  call mpi_finalize(ierr)
end program migrate
