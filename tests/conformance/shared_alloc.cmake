# TILEMPIX_SHARED_ALLOC from Fortran (issue 38 item 2): the block through C_F_POINTER, folded
# where ranks are contexts, private elsewhere (the C side: sim.shared_alloc.*, host.shared_alloc).
if(CMAKE_Fortran_COMPILER AND TARGET tilempi_fortran_module)
  tilempi_add_conformance_test(NAME shared_alloc_f90 NP 4 SOURCES ${CMAKE_CURRENT_LIST_DIR}/shared_alloc_f.f90)
  target_compile_options(conformance_shared_alloc_f90 PRIVATE -fallow-argument-mismatch -w)
  target_include_directories(conformance_shared_alloc_f90 PRIVATE ${TILEMPI_FORTRAN_MODULE_DIR}
                             ${PROJECT_SOURCE_DIR}/mpi/include)
  add_dependencies(conformance_shared_alloc_f90 tilempi_fortran_module)
endif()
