! A free-form program that takes MPI from the `mpi` module rather than mpif.h: constants,
! MPI_STATUS_IGNORE / MPI_IN_PLACE sentinels and MPI_WTIME must all come through it.
program use_mpi_test
  use mpi
  implicit none
  integer :: ierr, rank, np, total, token, status(MPI_STATUS_SIZE)
  double precision :: t0, t1

  call mpi_init(ierr)
  call mpi_comm_rank(MPI_COMM_WORLD, rank, ierr)
  call mpi_comm_size(MPI_COMM_WORLD, np, ierr)
  t0 = mpi_wtime()

  ! A ring: every rank passes rank+1 on; what arrives is the left neighbour's value.
  token = rank + 1
  if (np > 1) then
    call mpi_sendrecv_replace(token, 1, MPI_INTEGER, mod(rank + 1, np), 5, &
                              mod(rank - 1 + np, np), 5, MPI_COMM_WORLD, status, ierr)
    if (token /= mod(rank - 1 + np, np) + 1 .or. status(MPI_SOURCE) /= mod(rank - 1 + np, np)) then
      print *, 'rank', rank, ': ring token', token
      call mpi_abort(MPI_COMM_WORLD, 2, ierr)
    end if
  end if

  ! MPI_IN_PLACE through the module's sentinel.
  total = rank
  call mpi_allreduce(MPI_IN_PLACE, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (total /= np * (np - 1) / 2) then
    print *, 'rank', rank, ': allreduce gave', total
    call mpi_abort(MPI_COMM_WORLD, 3, ierr)
  end if
  call mpi_recv(token, 0, MPI_INTEGER, MPI_PROC_NULL, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)

  t1 = mpi_wtime()
  if (t1 < t0) call mpi_abort(MPI_COMM_WORLD, 4, ierr)
  if (rank == 0) print '(a,i0,a)', 'use mpi: ', np, ' ranks agree'
  call mpi_finalize(ierr)
end program use_mpi_test
