! The `mpi` module for Fortran 90 codes (`use mpi`): the same constants, COMMON-block sentinels
! and function declarations as mpif.h, which it includes, so that the two never differ. The
! routines themselves are the mpi_xxx_ bindings in libtilempi; like mpif.h, the module declares
! no explicit interfaces, so buffers of any type may be passed (gfortran 10 and later need
! -fallow-argument-mismatch, which tilempif90 adds). The compiled mpi.mod is specific to the
! Fortran compiler that built tilempi.
module mpi
  implicit none
  include 'mpif.h'
end module mpi
