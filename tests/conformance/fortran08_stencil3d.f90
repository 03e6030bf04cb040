! The acceptance program of `use mpi_f08` (issue 40): a 3-D Jacobi stencil in modern Fortran.
! A 28 x 28 x 8 grid on a Cartesian process grid; each iteration exchanges the six faces of the
! local block with MPI_Sendrecv on subarray datatypes and takes the global maximum of the change
! (MPI_Allreduce). Rank 0 gathers the field into a section of the global array and prints the
! residuals and a checksum, which do not depend on the number of ranks: the same program on any
! number of ranks, either transport, and its `use mpi` twin (fortran08_stencil3d_mpi.f90) print
! the same lines.
program fortran08_stencil3d
  use mpi_f08
  implicit none
  integer, parameter :: dp = kind(1.0d0)
  integer, parameter :: global(3) = [28, 28, 8], iterations = 20
  integer :: rank, nprocs, dims(3), coords(3), lo(3), n(3), it, d, r
  integer :: low(3), high(3)
  real(dp), allocatable :: u(:, :, :), unew(:, :, :), field(:, :, :)
  real(dp) :: change, residual
  type(MPI_Comm) :: cart
  type(MPI_Datatype) :: send_low(3), send_high(3), recv_low(3), recv_high(3)

  call MPI_Init()
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs)
  dims = 0
  call MPI_Dims_create(nprocs, 3, dims)
  if (any(mod(global, dims) /= 0)) then
    print '(a,3i4)', 'fortran08_stencil3d: the grid does not divide over the process grid', dims
    call MPI_Abort(MPI_COMM_WORLD, 2)
  end if
  call MPI_Cart_create(MPI_COMM_WORLD, 3, dims, [.false., .false., .false.], .false., cart)
  call MPI_Comm_rank(cart, rank)
  call MPI_Cart_coords(cart, rank, 3, coords)
  n = global / dims
  lo = coords * n
  do d = 1, 3
    call MPI_Cart_shift(cart, d - 1, 1, low(d), high(d))
  end do

  allocate(u(0:n(1) + 1, 0:n(2) + 1, 0:n(3) + 1), source=0.0_dp)
  call initial(u)
  unew = u
  call face_types()

  do it = 1, iterations
    call exchange(u)
    unew(1:n(1), 1:n(2), 1:n(3)) = (u(0:n(1) - 1, 1:n(2), 1:n(3)) + u(2:n(1) + 1, 1:n(2), 1:n(3)) &
                                   + u(1:n(1), 0:n(2) - 1, 1:n(3)) + u(1:n(1), 2:n(2) + 1, 1:n(3)) &
                                   + u(1:n(1), 1:n(2), 0:n(3) - 1) + u(1:n(1), 1:n(2), 2:n(3) + 1)) / 6.0_dp
    change = maxval(abs(unew(1:n(1), 1:n(2), 1:n(3)) - u(1:n(1), 1:n(2), 1:n(3))))
    call MPI_Allreduce(change, residual, 1, MPI_DOUBLE_PRECISION, MPI_MAX, cart)
    u = unew
    if (rank == 0 .and. mod(it, 5) == 0) print '(a,i3,es25.16)', 'residual', it, residual
  end do

  ! The field on rank 0, each block received into its section of the global array.
  if (rank == 0) then
    allocate(field(global(1), global(2), global(3)))
    field(1:n(1), 1:n(2), 1:n(3)) = u(1:n(1), 1:n(2), 1:n(3))
    do r = 1, nprocs - 1
      call MPI_Cart_coords(cart, r, 3, coords)
      associate (o => coords * n)
        call MPI_Recv(field(o(1) + 1:o(1) + n(1), o(2) + 1:o(2) + n(2), o(3) + 1:o(3) + n(3)), product(n), &
                      MPI_DOUBLE_PRECISION, r, 9, cart, MPI_STATUS_IGNORE)
      end associate
    end do
    print '(a,es25.16)', 'checksum', checksum(field)
    deallocate(field)
  else
    call MPI_Send(u(1:n(1), 1:n(2), 1:n(3)), product(n), MPI_DOUBLE_PRECISION, 0, 9, cart)
  end if

  do d = 1, 3
    call MPI_Type_free(send_low(d))
    call MPI_Type_free(send_high(d))
    call MPI_Type_free(recv_low(d))
    call MPI_Type_free(recv_high(d))
  end do
  deallocate(u, unew)
  call MPI_Comm_free(cart)
  call MPI_Finalize()

contains

  subroutine initial(a)
    real(dp), intent(inout) :: a(0:, 0:, 0:)
    integer :: i, j, k
    do concurrent (i = 1:n(1), j = 1:n(2), k = 1:n(3))
      a(i, j, k) = real(mod(7 * (lo(1) + i) + 13 * (lo(2) + j) + 17 * (lo(3) + k), 23), dp) / 23.0_dp
    end do
  end subroutine

  ! The faces of the block (with its halo) as subarrays: what goes to each neighbour, and where
  ! what comes from it lands.
  subroutine face_types()
    integer :: sizes(3), sub(3), s(3)
    sizes = n + 2
    do d = 1, 3
      sub = n
      sub(d) = 1
      s = 1
      s(d) = 1
      call face(send_low(d), sizes, sub, s)
      s(d) = n(d)
      call face(send_high(d), sizes, sub, s)
      s(d) = 0
      call face(recv_low(d), sizes, sub, s)
      s(d) = n(d) + 1
      call face(recv_high(d), sizes, sub, s)
    end do
  end subroutine

  subroutine face(t, sizes, sub, starts)
    type(MPI_Datatype), intent(out) :: t
    integer, intent(in) :: sizes(3), sub(3), starts(3)
    call MPI_Type_create_subarray(3, sizes, sub, starts, MPI_ORDER_FORTRAN, MPI_DOUBLE_PRECISION, t)
    call MPI_Type_commit(t)
  end subroutine

  subroutine exchange(a)
    real(dp), intent(inout) :: a(:, :, :)
    do d = 1, 3
      call MPI_Sendrecv(a, 1, send_high(d), high(d), d, a, 1, recv_low(d), low(d), d, cart, MPI_STATUS_IGNORE)
      call MPI_Sendrecv(a, 1, send_low(d), low(d), 10 + d, a, 1, recv_high(d), high(d), 10 + d, cart, &
                        MPI_STATUS_IGNORE)
    end do
  end subroutine

  real(dp) function checksum(g)
    real(dp), intent(in) :: g(:, :, :)
    integer :: i, j, k
    checksum = 0
    do k = 1, size(g, 3)
      do j = 1, size(g, 2)
        do i = 1, size(g, 1)
          checksum = checksum + g(i, j, k) * (1 + mod(i + 2 * j + 3 * k, 5))
        end do
      end do
    end do
  end function

end program
