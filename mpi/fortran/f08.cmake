# `use mpi_f08` (docs/FORTRAN.md): the module and its entry points, generated at build time by
# mpi/fortran/mpi_f08_gen.py from mpi.h, mpif.h and the Fortran bindings. Included by
# mpi/CMakeLists.txt once tilempi_objects exists, when a Fortran compiler is present. The module
# needs gfortran's ISO_Fortran_binding.h (choice buffers arrive as its C descriptors) and python3.
# The compiler whose modules these are: gfortran reads only module files of its own version.
set(TILEMPI_FORTRAN_MODULE_COMPILER "${CMAKE_Fortran_COMPILER_ID} ${CMAKE_Fortran_COMPILER_VERSION}"
    CACHE INTERNAL "the Fortran compiler that built mpi.mod and mpi_f08.mod")
find_package(Python3 COMPONENTS Interpreter)
execute_process(COMMAND ${CMAKE_Fortran_COMPILER} -print-file-name=include/ISO_Fortran_binding.h
                OUTPUT_VARIABLE _f08_cfi_header OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
if(NOT Python3_FOUND OR NOT CMAKE_Fortran_COMPILER_ID STREQUAL "GNU" OR CMAKE_Fortran_COMPILER_VERSION VERSION_LESS 10
   OR NOT IS_ABSOLUTE "${_f08_cfi_header}" OR NOT EXISTS "${_f08_cfi_header}")
  message(STATUS "mpi_f08: not built (needs python3 and gfortran 10 or later with ISO_Fortran_binding.h)")
  return()
endif()
get_filename_component(_f08_cfi_dir ${_f08_cfi_header} DIRECTORY)

set(_f08_dir ${CMAKE_CURRENT_BINARY_DIR}/f08)
set(_f08_gen ${CMAKE_CURRENT_SOURCE_DIR}/fortran/mpi_f08_gen.py)
file(GLOB _f08_bindings ${CMAKE_CURRENT_SOURCE_DIR}/fortran/f_*.cpp)
add_custom_command(
  OUTPUT ${_f08_dir}/mpi_f08.f90 ${_f08_dir}/f08_entry.cpp ${_f08_dir}/mpi_f08_functions.txt
  COMMAND ${Python3_EXECUTABLE} ${_f08_gen} ${_f08_dir}
  DEPENDS ${_f08_gen} ${CMAKE_CURRENT_SOURCE_DIR}/api_table.py ${CMAKE_CURRENT_SOURCE_DIR}/include/mpi.h
          ${CMAKE_CURRENT_SOURCE_DIR}/include/mpif.h ${_f08_bindings}
  COMMENT "Generating the mpi_f08 module from mpi.h, mpif.h and the Fortran bindings")
# One target owns the generated files, so the library and the module do not both run the generator.
add_custom_target(tilempi_f08_sources DEPENDS ${_f08_dir}/mpi_f08.f90 ${_f08_dir}/f08_entry.cpp)

target_sources(tilempi_objects PRIVATE ${_f08_dir}/f08_entry.cpp ${CMAKE_CURRENT_SOURCE_DIR}/fortran/f08_support.cpp)
set_source_files_properties(${_f08_dir}/f08_entry.cpp ${CMAKE_CURRENT_SOURCE_DIR}/fortran/f08_support.cpp
  PROPERTIES INCLUDE_DIRECTORIES "${CMAKE_CURRENT_SOURCE_DIR}/fortran" COMPILE_OPTIONS "-isystem;${_f08_cfi_dir}")
add_dependencies(tilempi_objects tilempi_f08_sources)

# The module: its mpi_f08.mod for the compiler, and its object (the handle constants and the
# elemental == and /=, no calls into the Fortran runtime) inside libtilempi, so that programs still
# link -ltilempi alone. Its interfaces use LOGICAL and CHARACTER(*) arguments in BIND(C)
# procedures, which Fortran 2018 allows and gfortran warns about.
add_library(tilempi_f08_module OBJECT ${_f08_dir}/mpi_f08.f90)
target_sources(tilempi PRIVATE $<TARGET_OBJECTS:tilempi_f08_module>)
target_sources(tilempi_static PRIVATE $<TARGET_OBJECTS:tilempi_f08_module>)
set_target_properties(tilempi_f08_module PROPERTIES Fortran_MODULE_DIRECTORY ${TILEMPI_FORTRAN_MODULE_DIR})
target_compile_options(tilempi_f08_module PRIVATE -Wno-c-binding-type)
add_dependencies(tilempi_f08_module tilempi_f08_sources)
add_dependencies(tilempi tilempi_f08_module)
install(FILES ${TILEMPI_FORTRAN_MODULE_DIR}/mpi_f08.mod DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
