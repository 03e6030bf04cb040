! use mpi_f08: derived datatypes. MPI_Type_create_subarray applied to a 3-D array section (the
! subarray describes a block of the section, as if the section were contiguous), vector and
! struct types with TYPE(MPI_Datatype) arrays, MPI_Get_address, extents, names, pack/unpack.
program fortran08_types
  use mpi_f08
  implicit none
  integer, parameter :: nx = 6, ny = 5, nz = 4
  integer :: rank, n, fails, i, j, k, right, left, sz, pos
  integer :: big(nx + 2, ny + 2, nz + 2), sec(nx, ny, nz)
  real(8) :: recs(2, 3)
  integer :: ints(3)
  character(len=64) :: packed
  character(len=MPI_MAX_OBJECT_NAME) :: tname
  type(MPI_Datatype) :: sub, col, pair, types(2), resized
  integer(kind=MPI_ADDRESS_KIND) :: a0, a1, lb, extent, disps(2)
  type(MPI_Status) :: st

  fails = 0
  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, n)
  right = mod(rank + 1, n)
  left = mod(rank + n - 1, n)

  ! The interior of big (a non-contiguous 3-D section, nx x ny x nz); a subarray of it: the 3 x 2 x 2
  ! block starting at (2, 1, 1) (0-based) of the section.
  do k = 1, nz + 2
    do j = 1, ny + 2
      do i = 1, nx + 2
        big(i, j, k) = 10000 * rank + 100 * k + 10 * j + i
      end do
    end do
  end do
  call MPI_Type_create_subarray(3, [nx, ny, nz], [3, 2, 2], [2, 1, 1], MPI_ORDER_FORTRAN, MPI_INTEGER, sub)
  call MPI_Type_commit(sub)
  call MPI_Type_size(sub, sz)
  call check(sz == 12 * 4, 'subarray size')
  sec = -1
  call MPI_Sendrecv(big(2:nx + 1, 2:ny + 1, 2:nz + 1), 1, sub, right, 1, &
                    sec, 1, sub, left, 1, MPI_COMM_WORLD, st)
  call MPI_Get_count(st, sub, sz)
  call check(sz == 1, 'get_count of a subarray')
  do k = 1, nz
    do j = 1, ny
      do i = 1, nx
        if (i >= 3 .and. i <= 5 .and. j >= 2 .and. j <= 3 .and. k >= 2 .and. k <= 3) then
          call check(sec(i, j, k) == 10000 * left + 100 * (k + 1) + 10 * (j + 1) + i + 1, 'subarray of a section: block')
        else
          call check(sec(i, j, k) == -1, 'subarray of a section: outside the block')
        end if
      end do
    end do
  end do
  ! The same block received into the section of another array.
  big = -1
  call MPI_Sendrecv(sec, 1, sub, rank, 2, big(2:nx + 1, 2:ny + 1, 2:nz + 1), 1, sub, rank, 2, &
                    MPI_COMM_WORLD, MPI_STATUS_IGNORE)
  call check(big(5, 3, 3) == 10000 * left + 100 * 3 + 10 * 3 + 5 .and. big(1, 1, 1) == -1 .and. big(3, 3, 3) == -1, &
             'subarray received into a section')
  call MPI_Type_free(sub)
  call check(sub == MPI_DATATYPE_NULL, 'type_free')

  ! A vector (part of one plane's column) with a name and its extent.
  call MPI_Type_vector(3, 1, nx, MPI_INTEGER, col)
  call MPI_Type_commit(col)
  call MPI_Type_set_name(col, 'column')
  call MPI_Type_get_name(col, tname, sz)
  call check(tname(1:sz) == 'column' .and. sz == 6, 'type names')
  call MPI_Type_get_extent(col, lb, extent)
  call check(lb == 0 .and. extent == (2 * nx + 1) * 4, 'vector extent')
  do k = 1, nz
    do j = 1, ny
      sec(:, j, k) = [(100 * j + i + 1000 * rank, i = 1, nx)]
    end do
  end do
  ints = 0
  call MPI_Sendrecv(sec(2, 1, 1), 1, col, right, 3, ints, 3, MPI_INTEGER, left, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE)
  call check(all(ints == [102, 202, 302] + 1000 * left), 'vector column')
  call MPI_Type_free(col)

  ! A struct of (integer, real(8)) pairs from addresses.
  call MPI_Get_address(recs(1, 1), a0)
  call MPI_Get_address(recs(2, 1), a1)
  types = [MPI_INTEGER, MPI_DOUBLE_PRECISION]
  disps = [0_MPI_ADDRESS_KIND, a1 - a0]
  call MPI_Type_create_struct(2, [1, 1], disps, types, pair)
  call MPI_Type_create_resized(pair, 0_MPI_ADDRESS_KIND, 16_MPI_ADDRESS_KIND, resized)
  call MPI_Type_commit(resized)
  recs = 0
  if (rank == 0) then
    do i = 1, 3
      recs(2, i) = i * 1.5d0
      recs(1, i) = transfer([i * 7, 0], 1.0d0)
    end do
  end if
  call MPI_Bcast(recs, 3, resized, 0, MPI_COMM_WORLD)
  do i = 1, 3
    ints(1:2) = transfer(recs(1, i), [0, 0])
    call check(recs(2, i) == i * 1.5d0 .and. ints(1) == i * 7, 'struct bcast')
  end do
  call MPI_Type_free(pair)
  call MPI_Type_free(resized)

  ! Pack and unpack through a CHARACTER buffer.
  pos = 0
  ints = [rank, 2 * rank, 3 * rank]
  call MPI_Pack(ints, 3, MPI_INTEGER, packed, len(packed), pos, MPI_COMM_WORLD)
  call check(pos == 12, 'pack position')
  ints = 0
  pos = 0
  call MPI_Unpack(packed, len(packed), pos, ints, 3, MPI_INTEGER, MPI_COMM_WORLD)
  call check(all(ints == [rank, 2 * rank, 3 * rank]), 'unpack')

  call finish('fortran08_types')

contains

  include 'fortran08_check.inc'

end program
