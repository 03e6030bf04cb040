# TILEMPIX_Energy (issue 37): monotone, larger for the rank that sends more, 0 on the host
# transport; its Fortran binding through mpif.h and the mpi module.
tilempi_add_conformance_test(NAME energy_tilempix NP 4 SOURCES ${CMAKE_CURRENT_LIST_DIR}/energy_tilempix.c)
if(CMAKE_Fortran_COMPILER AND TARGET tilempi_fortran_module)
  tilempi_add_conformance_test(NAME energy_tilempix_f90 NP 4 SOURCES ${CMAKE_CURRENT_LIST_DIR}/energy_tilempix_f.f90)
  target_compile_options(conformance_energy_tilempix_f90 PRIVATE -fallow-argument-mismatch -w)
  target_include_directories(conformance_energy_tilempix_f90 PRIVATE ${TILEMPI_FORTRAN_MODULE_DIR}
                             ${PROJECT_SOURCE_DIR}/mpi/include)
  add_dependencies(conformance_energy_tilempix_f90 tilempi_fortran_module)
endif()
