! Sample program for program_image_test: a COMMON block and a SAVEd variable that must be
! private to each loaded copy. Linked with -rdynamic so the test can call sample_f_*.
program common_sample
  implicit none
  integer :: hits
  common /sample_counters/ hits
  hits = hits + 1
end program common_sample

! Returns the COMMON block's counter (the main program added 1 per run).
integer(c_int) function sample_f_hits() bind(C, name="sample_f_hits")
  use iso_c_binding, only: c_int
  implicit none
  integer :: hits
  common /sample_counters/ hits
  sample_f_hits = hits
end function sample_f_hits

! Bumps a SAVEd local and returns it.
integer(c_int) function sample_f_bump() bind(C, name="sample_f_bump")
  use iso_c_binding, only: c_int
  implicit none
  integer, save :: calls = 0
  calls = calls + 1
  sample_f_bump = calls
end function sample_f_bump
