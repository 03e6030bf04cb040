# Semantics of handles and objects (issue 33): lifetimes of freed handles, keyvals, communicator
# creation, MPI_BOTTOM, topologies, file info, MPICH's extensions, error reporting.
tilempi_add_conformance_test(NAME freed_handles NP 4 SOURCES ${CMAKE_CURRENT_LIST_DIR}/semantics_freed_handles.c)
tilempi_add_conformance_test(NAME keyval_lifetime NP 4 SOURCES ${CMAKE_CURRENT_LIST_DIR}/semantics_keyval_lifetime.c)
tilempi_add_conformance_test(NAME comm_create_group NP 9 SOURCES ${CMAKE_CURRENT_LIST_DIR}/semantics_comm_create_group.c TIMEOUT 60)
tilempi_add_conformance_test(NAME bottom NP 4 SOURCES ${CMAKE_CURRENT_LIST_DIR}/semantics_bottom.c)
if(CMAKE_Fortran_COMPILER)
  tilempi_add_conformance_test(NAME bottom_fortran NP 4 SOURCES ${CMAKE_CURRENT_LIST_DIR}/semantics_bottom_f.f90)
  # One MPI routine takes buffers of every type: gfortran must be told that this is intended.
  target_compile_options(conformance_bottom_fortran PRIVATE -fallow-argument-mismatch -w)
endif()
tilempi_add_conformance_test(NAME cart_zero NP 4 SOURCES ${CMAKE_CURRENT_LIST_DIR}/semantics_cart_zero.c)
tilempi_add_conformance_test(NAME file_info NP 4 SOURCES ${CMAKE_CURRENT_LIST_DIR}/semantics_file_info.c)
tilempi_add_conformance_test(NAME char_ops NP 4 SOURCES ${CMAKE_CURRENT_LIST_DIR}/semantics_char_ops.c)
tilempi_add_conformance_test(NAME error_strings NP 4 SOURCES ${CMAKE_CURRENT_LIST_DIR}/semantics_error_strings.c)
