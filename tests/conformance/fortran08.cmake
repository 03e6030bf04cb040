# `use mpi_f08` (issue 40, docs/FORTRAN.md): Fortran 2008 programs on host and sim, and the check
# that every procedure of the module is an exported symbol of libtilempi.

# A Fortran 2008 program: the module's explicit interfaces need no -fallow-argument-mismatch.
function(fortran08_test name np)
  if(NOT TARGET tilempi_f08_module)
    return()
  endif()
  tilempi_add_conformance_test(NAME fortran08.${name} NP ${np}
                               SOURCES ${CMAKE_CURRENT_LIST_DIR}/fortran08_${name}.f90 ${ARGN})
  target_include_directories(conformance_fortran08.${name} PRIVATE ${TILEMPI_FORTRAN_MODULE_DIR})
  target_compile_options(conformance_fortran08.${name} PRIVATE -std=f2018 -Wall -Werror -Wno-compare-reals)
  add_dependencies(conformance_fortran08.${name} tilempi_f08_module)
endfunction()

fortran08_test(p2p 4)
fortran08_test(coll 5)
fortran08_test(types 3)
fortran08_test(comm 4)
fortran08_test(onesided_io 3)


# Every procedure the module declares resolves to a symbol libtilempi exports (shared and static):
# the entry point PMPI_x and its weak MPI_x, and the module's own procedures.
if(TARGET tilempi_f08_module)
  find_package(Python3 COMPONENTS Interpreter)
  add_test(NAME fortran08.symbols
           COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/mpi/fortran/mpi_f08_gen.py --check-symbols
                   ${PROJECT_BINARY_DIR}/mpi/f08/mpi_f08.f90 $<TARGET_FILE:tilempi> $<TARGET_FILE:tilempi_static>)
  set_tests_properties(fortran08.symbols PROPERTIES LABELS "conformance;fortran")
endif()
