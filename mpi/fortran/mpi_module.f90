! The `mpi` module for Fortran 90 codes (`use mpi`): the same constants, COMMON-block sentinels
! and function declarations as mpif.h, which it includes, so that the two never differ. The
! routines themselves are the mpi_xxx_ bindings in libtilempi; like mpif.h, the module declares
! no explicit interfaces, so buffers of any type may be passed (gfortran 10 and later need
! -fallow-argument-mismatch, which tilempif90 adds). The compiled mpi.mod is specific to the
! Fortran compiler that built tilempi.
!
! The one exception is MPI_SIZEOF (MPI-3.1 §17.1.9), which only a module can offer: a generic
! whose specific procedure the compiler picks by the argument's type and kind (any rank, scalars
! too: assumed rank). Each is a C function of libtilempi that answers its storage size in bytes
! (mpi/fortran/f_sizeof.cpp). The kinds are C's (ISO_C_BINDING), which are gfortran's: REAL(10) is
! C's long double, 16 bytes; REAL(16) is __float128. LOGICAL of every kind and CHARACTER (one byte
! per character, whatever the length) are there too, as in MPICH, though the standard names numeric
! types only: they are no C types, so their specifics are plain Fortran externals (tilempi_sizeof_
! logicalK_, tilempi_sizeof_character_), which a program compiled with -std=f2018 accepts.
module mpi
  use, intrinsic :: iso_c_binding, only: c_int, c_int8_t, c_int16_t, c_int32_t, c_int64_t, c_int128_t, &
    c_float, c_double, c_long_double, c_float128, c_float_complex, c_double_complex, &
    c_long_double_complex, c_float128_complex
  implicit none
  ! (the C kinds are the module's own: a program's names are not taken)
  private :: c_int, c_int8_t, c_int16_t, c_int32_t, c_int64_t, c_int128_t, c_float, c_double, &
    c_long_double, c_float128, c_float_complex, c_double_complex, c_long_double_complex, c_float128_complex
  include 'mpif.h'
  interface MPI_SIZEOF
    subroutine tilempi_sizeof_integer_int8_t(x, size, ierror) bind(C, name="tilempi_sizeof_1")
      import :: c_int8_t, c_int
      integer(kind=c_int8_t), dimension(..), intent(in) :: x
      integer(kind=c_int), intent(out) :: size, ierror
    end subroutine tilempi_sizeof_integer_int8_t
    subroutine tilempi_sizeof_integer_int16_t(x, size, ierror) bind(C, name="tilempi_sizeof_2")
      import :: c_int16_t, c_int
      integer(kind=c_int16_t), dimension(..), intent(in) :: x
      integer(kind=c_int), intent(out) :: size, ierror
    end subroutine tilempi_sizeof_integer_int16_t
    subroutine tilempi_sizeof_integer_int32_t(x, size, ierror) bind(C, name="tilempi_sizeof_4")
      import :: c_int32_t, c_int
      integer(kind=c_int32_t), dimension(..), intent(in) :: x
      integer(kind=c_int), intent(out) :: size, ierror
    end subroutine tilempi_sizeof_integer_int32_t
    subroutine tilempi_sizeof_integer_int64_t(x, size, ierror) bind(C, name="tilempi_sizeof_8")
      import :: c_int64_t, c_int
      integer(kind=c_int64_t), dimension(..), intent(in) :: x
      integer(kind=c_int), intent(out) :: size, ierror
    end subroutine tilempi_sizeof_integer_int64_t
    subroutine tilempi_sizeof_integer_int128_t(x, size, ierror) bind(C, name="tilempi_sizeof_16")
      import :: c_int128_t, c_int
      integer(kind=c_int128_t), dimension(..), intent(in) :: x
      integer(kind=c_int), intent(out) :: size, ierror
    end subroutine tilempi_sizeof_integer_int128_t
    subroutine tilempi_sizeof_real_float(x, size, ierror) bind(C, name="tilempi_sizeof_4")
      import :: c_float, c_int
      real(kind=c_float), dimension(..), intent(in) :: x
      integer(kind=c_int), intent(out) :: size, ierror
    end subroutine tilempi_sizeof_real_float
    subroutine tilempi_sizeof_real_double(x, size, ierror) bind(C, name="tilempi_sizeof_8")
      import :: c_double, c_int
      real(kind=c_double), dimension(..), intent(in) :: x
      integer(kind=c_int), intent(out) :: size, ierror
    end subroutine tilempi_sizeof_real_double
    subroutine tilempi_sizeof_real_long_double(x, size, ierror) bind(C, name="tilempi_sizeof_16")
      import :: c_long_double, c_int
      real(kind=c_long_double), dimension(..), intent(in) :: x
      integer(kind=c_int), intent(out) :: size, ierror
    end subroutine tilempi_sizeof_real_long_double
    subroutine tilempi_sizeof_real_float128(x, size, ierror) bind(C, name="tilempi_sizeof_16")
      import :: c_float128, c_int
      real(kind=c_float128), dimension(..), intent(in) :: x
      integer(kind=c_int), intent(out) :: size, ierror
    end subroutine tilempi_sizeof_real_float128
    subroutine tilempi_sizeof_complex_float(x, size, ierror) bind(C, name="tilempi_sizeof_8")
      import :: c_float_complex, c_int
      complex(kind=c_float_complex), dimension(..), intent(in) :: x
      integer(kind=c_int), intent(out) :: size, ierror
    end subroutine tilempi_sizeof_complex_float
    subroutine tilempi_sizeof_complex_double(x, size, ierror) bind(C, name="tilempi_sizeof_16")
      import :: c_double_complex, c_int
      complex(kind=c_double_complex), dimension(..), intent(in) :: x
      integer(kind=c_int), intent(out) :: size, ierror
    end subroutine tilempi_sizeof_complex_double
    subroutine tilempi_sizeof_complex_long_double(x, size, ierror) bind(C, name="tilempi_sizeof_32")
      import :: c_long_double_complex, c_int
      complex(kind=c_long_double_complex), dimension(..), intent(in) :: x
      integer(kind=c_int), intent(out) :: size, ierror
    end subroutine tilempi_sizeof_complex_long_double
    subroutine tilempi_sizeof_complex_float128(x, size, ierror) bind(C, name="tilempi_sizeof_32")
      import :: c_float128_complex, c_int
      complex(kind=c_float128_complex), dimension(..), intent(in) :: x
      integer(kind=c_int), intent(out) :: size, ierror
    end subroutine tilempi_sizeof_complex_float128
    subroutine tilempi_sizeof_logical1(x, size, ierror)
      logical(kind=1), dimension(..), intent(in) :: x
      integer, intent(out) :: size, ierror
    end subroutine tilempi_sizeof_logical1
    subroutine tilempi_sizeof_logical2(x, size, ierror)
      logical(kind=2), dimension(..), intent(in) :: x
      integer, intent(out) :: size, ierror
    end subroutine tilempi_sizeof_logical2
    subroutine tilempi_sizeof_logical4(x, size, ierror)
      logical(kind=4), dimension(..), intent(in) :: x
      integer, intent(out) :: size, ierror
    end subroutine tilempi_sizeof_logical4
    subroutine tilempi_sizeof_logical8(x, size, ierror)
      logical(kind=8), dimension(..), intent(in) :: x
      integer, intent(out) :: size, ierror
    end subroutine tilempi_sizeof_logical8
    subroutine tilempi_sizeof_character(x, size, ierror)
      character(len=*), dimension(..), intent(in) :: x
      integer, intent(out) :: size, ierror
    end subroutine tilempi_sizeof_character
  end interface MPI_SIZEOF
end module mpi
