! use mpi_f08: communicators and groups, names (CHARACTER arguments), attributes with Fortran 2008
! callbacks, a user error handler, info objects (LOGICAL flags) and Cartesian topologies (LOGICAL
! arrays).
module fortran08_comm_callbacks
  use mpi_f08
  implicit none
  integer :: copies = 0, deletes = 0, handled = 0, handled_code = 0
contains
  subroutine copy_attr(oldcomm, comm_keyval, extra_state, attribute_val_in, attribute_val_out, flag, ierror)
    type(MPI_Comm) :: oldcomm
    integer :: comm_keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: extra_state, attribute_val_in, attribute_val_out
    logical :: flag
    copies = copies + 1
    attribute_val_out = attribute_val_in + extra_state
    flag = .true.
    ierror = MPI_SUCCESS
    if (oldcomm == MPI_COMM_NULL .or. comm_keyval < 0) ierror = MPI_ERR_OTHER
  end subroutine
  subroutine delete_attr(comm, comm_keyval, attribute_val, extra_state, ierror)
    type(MPI_Comm) :: comm
    integer :: comm_keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: attribute_val, extra_state
    deletes = deletes + 1
    ierror = MPI_SUCCESS
    if (comm == MPI_COMM_NULL .or. comm_keyval < 0 .or. attribute_val < 0 .or. extra_state < 0) ierror = MPI_ERR_OTHER
  end subroutine
  subroutine on_error(comm, error_code)
    type(MPI_Comm) :: comm
    integer :: error_code
    handled = handled + 1
    handled_code = error_code
    if (comm == MPI_COMM_NULL) handled = -100
  end subroutine
end module

program fortran08_comm
  use mpi_f08
  use fortran08_comm_callbacks
  implicit none
  integer :: rank, n, fails, i, key, res, nkeys, vlen, coords(2), dims(2), src, dst, ierr
  integer(kind=MPI_ADDRESS_KIND) :: val
  double precision :: t0, t1, tick
  logical :: flag, periods(2), inter
  character(len=MPI_MAX_OBJECT_NAME) :: cname
  character(len=MPI_MAX_INFO_VAL) :: value
  character(len=MPI_MAX_INFO_KEY) :: key_name
  character(len=MPI_MAX_PROCESSOR_NAME) :: host
  type(MPI_Comm) :: half, dup, cart, row, fromgroup
  type(MPI_Group) :: world_group, evens
  type(MPI_Errhandler) :: handler
  type(MPI_Info) :: info, info2

  fails = 0
  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, n)
  call MPI_Get_processor_name(host, i)
  call check(i > 0 .and. len_trim(host) == i, 'processor name')
  t0 = MPI_Wtime()
  t1 = PMPI_Wtime()
  tick = MPI_Wtick()
  call check(tick > 0 .and. t1 >= t0, 'MPI_Wtime, MPI_Wtick')

  ! Split, compare, names.
  call MPI_Comm_split(MPI_COMM_WORLD, mod(rank, 2), -rank, half)
  call MPI_Comm_size(half, i)
  call check(i == (n + 1 - mod(rank, 2)) / 2, 'split size')
  ! Keys -rank order each half from its highest world rank down.
  call MPI_Comm_rank(half, i)
  call check(i == ((n - 1 - mod(n - 1 - mod(rank, 2), 2)) - rank) / 2, 'split rank')
  call MPI_Comm_compare(half, MPI_COMM_WORLD, res)
  if (n > 1) call check(res == MPI_UNEQUAL, 'compare')
  call MPI_Comm_set_name(half, 'half of the world')
  call MPI_Comm_get_name(half, cname, i)
  call check(cname(1:i) == 'half of the world' .and. i == 17, 'comm names')
  call MPI_Comm_test_inter(half, inter)
  call check(.not. inter, 'test_inter')

  ! Groups: the even ranks, and a communicator from them.
  call MPI_Comm_group(MPI_COMM_WORLD, world_group)
  call MPI_Group_incl(world_group, (n + 1) / 2, [(2 * i, i = 0, (n + 1) / 2 - 1)], evens)
  call MPI_Group_size(evens, i)
  call check(i == (n + 1) / 2, 'group_incl size')
  call MPI_Group_translate_ranks(evens, 1, [0], world_group, coords(1:1))
  call check(coords(1) == 0, 'translate_ranks')
  call MPI_Comm_create(MPI_COMM_WORLD, evens, fromgroup)
  call check((fromgroup == MPI_COMM_NULL) .eqv. (mod(rank, 2) == 1), 'comm_create')
  if (fromgroup /= MPI_COMM_NULL) call MPI_Comm_free(fromgroup)
  call MPI_Group_free(evens)
  call MPI_Group_free(world_group)
  call check(world_group == MPI_GROUP_NULL, 'group_free')

  ! Attributes with Fortran 2008 callbacks: copied on dup, deleted on free.
  call MPI_Comm_create_keyval(copy_attr, delete_attr, key, 5_MPI_ADDRESS_KIND)
  call MPI_Comm_set_attr(half, key, 37_MPI_ADDRESS_KIND)
  call MPI_Comm_dup(half, dup)
  call MPI_Comm_get_attr(dup, key, val, flag)
  call check(flag .and. val == 42 .and. copies == 1, 'attribute copied by the f08 callback')
  call MPI_Comm_free(dup)
  call check(deletes == 1, 'attribute deleted by the f08 callback')
  call MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, val, flag)
  call check(flag .and. val >= 32767, 'MPI_TAG_UB')
  call MPI_Comm_free_keyval(key)

  ! A user error handler written against the f08 interface.
  call MPI_Comm_create_errhandler(on_error, handler)
  call MPI_Comm_set_errhandler(half, handler)
  call MPI_Send(rank, 1, MPI_INTEGER, n + 10, 0, half, ierr)
  call check(handled == 1 .and. handled_code == ierr .and. ierr /= MPI_SUCCESS, 'user error handler')
  call MPI_Errhandler_free(handler)
  call MPI_Comm_free(half)

  ! Info: keys, values, LOGICAL flags.
  call MPI_Info_create(info)
  call MPI_Info_set(info, 'color', 'blue')
  call MPI_Info_set(info, 'shape', 'square')
  call MPI_Info_get_nkeys(info, nkeys)
  call check(nkeys == 2, 'info nkeys')
  call MPI_Info_get(info, 'color', MPI_MAX_INFO_VAL, value, flag)
  call check(flag .and. trim(value) == 'blue', 'info_get')
  call MPI_Info_get_valuelen(info, 'shape', vlen, flag)
  call check(flag .and. vlen == 6, 'info_get_valuelen')
  call MPI_Info_get_nthkey(info, 1, key_name)
  call check(trim(key_name) == 'shape', 'info_get_nthkey')
  call MPI_Info_dup(info, info2)
  call MPI_Info_delete(info2, 'color')
  call MPI_Info_get(info2, 'color', MPI_MAX_INFO_VAL, value, flag)
  call check(.not. flag, 'info_delete')
  call MPI_Info_free(info)
  call MPI_Info_free(info2)
  call check(info == MPI_INFO_NULL, 'info_free')

  ! A periodic 2-D Cartesian grid.
  dims = 0
  call MPI_Dims_create(n, 2, dims)
  call MPI_Cart_create(MPI_COMM_WORLD, 2, dims, [.true., .false.], .false., cart)
  call MPI_Cart_get(cart, 2, dims, periods, coords)
  call check(periods(1) .and. .not. periods(2), 'cart_get periods')
  call MPI_Cart_rank(cart, coords, i)
  call check(i == rank, 'cart_rank')
  call MPI_Cart_shift(cart, 0, 1, src, dst)
  call MPI_Cart_coords(cart, dst, 2, coords)
  call check(dst /= MPI_PROC_NULL, 'periodic shift')
  call MPI_Cart_sub(cart, [.false., .true.], row)
  call MPI_Comm_size(row, i)
  call check(i == dims(2), 'cart_sub')
  call MPI_Comm_free(row)
  call MPI_Comm_free(cart)

  call finish('fortran08_comm')

contains

  include 'fortran08_check.inc'

end program
