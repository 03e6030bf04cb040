# Functions and constants real codes use that tilempi lacked (issue 33, items 7 and 11-15): each
# in C and in Fortran (mpif.h and `use mpi`), with its error classes under MPI_ERRORS_RETURN.

# A Fortran conformance program: buffers of any type (as tilempif90 compiles them) and the mpi
# module for `use mpi`.
function(functions_fortran_test name source)
  if(NOT CMAKE_Fortran_COMPILER OR NOT TARGET tilempi_fortran_module)
    return()
  endif()
  tilempi_add_conformance_test(NAME ${name} NP 4 SOURCES ${CMAKE_CURRENT_LIST_DIR}/${source})
  target_compile_options(conformance_${name} PRIVATE -fallow-argument-mismatch -w)
  target_include_directories(conformance_${name} PRIVATE ${TILEMPI_FORTRAN_MODULE_DIR} ${PROJECT_SOURCE_DIR}/mpi/include)
  add_dependencies(conformance_${name} tilempi_fortran_module)
endfunction()

# 11. MPI_Type_create_hindexed_block, MPI_Type_get_envelope, MPI_Type_get_contents.
tilempi_add_conformance_test(NAME functions.type_contents NP 4
                             SOURCES ${CMAKE_CURRENT_LIST_DIR}/functions_type_contents.c)
functions_fortran_test(functions.type_contents_f90 functions_type_contents.f90)

# 12. MPI_Comm_dup_with_info, MPI_Comm_set_info, MPI_Comm_get_info.
tilempi_add_conformance_test(NAME functions.comm_info NP 4 SOURCES ${CMAKE_CURRENT_LIST_DIR}/functions_comm_info.c)
functions_fortran_test(functions.comm_info_f90 functions_comm_info.f90)

# 14. Generalized requests, MPI_Status_set_cancelled / set_elements(_x), MPI_Request_get_status,
# MPI_Add_error_class / code / string, MPI_DISPLACEMENT_CURRENT, MPI_Isendrecv(_replace).
tilempi_add_conformance_test(NAME functions.grequest NP 4 SOURCES ${CMAKE_CURRENT_LIST_DIR}/functions_grequest.c)
tilempi_add_conformance_test(NAME functions.error_codes NP 4 SOURCES ${CMAKE_CURRENT_LIST_DIR}/functions_error_codes.c)
tilempi_add_conformance_test(NAME functions.isendrecv NP 5 SOURCES ${CMAKE_CURRENT_LIST_DIR}/functions_isendrecv.c)
tilempi_add_conformance_test(NAME functions.displacement_current NP 3
                             SOURCES ${CMAKE_CURRENT_LIST_DIR}/functions_displacement_current.c)
functions_fortran_test(functions.grequest_f90 functions_grequest.f90)

# 13. MPI_OFFSET, MPI_COUNT, MPI_INTEGER16, MPI_REAL16, MPI_COMPLEX8/16/32,
# MPI_C_LONG_DOUBLE_COMPLEX, MPI_CXX_BOOL, MPI_CXX_*_COMPLEX and their reductions.
tilempi_add_conformance_test(NAME functions.datatypes NP 4 SOURCES ${CMAKE_CURRENT_LIST_DIR}/functions_datatypes.c)
functions_fortran_test(functions.datatypes_f90 functions_datatypes.f90)

# 7. Fortran info keys and values with blanks around them (stripped) and inside (kept).
functions_fortran_test(functions.info_blanks_f90 functions_info_blanks.f90)
tilempi_add_conformance_test(NAME functions.grequest_thread NP 2
                             SOURCES ${CMAKE_CURRENT_LIST_DIR}/functions_grequest_thread.c)
find_package(Threads REQUIRED)
target_link_libraries(conformance_functions.grequest_thread PRIVATE Threads::Threads)

# A code the program added reaches the fatal handler: the message says the code's string.
add_executable(conformance_functions.added_code_fatal ${CMAKE_CURRENT_LIST_DIR}/functions_added_code_fatal.c)
target_link_libraries(conformance_functions.added_code_fatal PRIVATE tilempi)
tilempi_add_test_matrix(NAME conformance.<transport>.functions.added_code_fatal PROCESS_MODELS contexts
  SCRIPT ${PROJECT_SOURCE_DIR}/tests/mpi/expect_failure.sh nonzero "the solver diverged \\(added code\\)" --
         $<TARGET_FILE:tilempirun> -n 2 --transport <transport> --timeout 60
         $<TARGET_FILE:conformance_functions.added_code_fatal>
  LABELS "conformance;mpi;<transport>" TIMEOUT 90)

# MPI-3.1 functions that did not exist (a code naming them did not compile): process creation and
# management in a job of fixed ranks (MPI_Comm_get_parent, _spawn, ports, names, _join,
# _disconnect) and MPI_Aint_add / MPI_Aint_diff.
tilempi_add_conformance_test(NAME functions.dynamic NP 4 SOURCES ${CMAKE_CURRENT_LIST_DIR}/functions_dynamic.c)
functions_fortran_test(functions.dynamic_f90 functions_dynamic.f90)

# The tool information interface (MPI-3.1 chapter 14, C only): control variables as the launcher
# sets them (-x), performance variables that follow the rank's queues, categories, error codes.
tilempi_add_conformance_test(NAME functions.tool NP 4 SOURCES ${CMAKE_CURRENT_LIST_DIR}/functions_tool.c
                             LAUNCHER_ARGS -x TILEMPI_COLL_FALLBACK=silent)

# Fortran's parameterized types: MPI_Type_create_f90_real/_complex/_integer, MPI_Type_match_size.
tilempi_add_conformance_test(NAME functions.f90_types NP 4 SOURCES ${CMAKE_CURRENT_LIST_DIR}/functions_f90_types.c)
functions_fortran_test(functions.f90_types_f90 functions_f90_types.f90)
tilempi_add_conformance_test(NAME functions.file_type_extent NP 3
                             SOURCES ${CMAKE_CURRENT_LIST_DIR}/functions_file_type_extent.c)

# external32 packing: MPI_Pack_external, MPI_Unpack_external, MPI_Pack_external_size.
tilempi_add_conformance_test(NAME functions.pack_external NP 2
                             SOURCES ${CMAKE_CURRENT_LIST_DIR}/functions_pack_external.c)
# User data representations: MPI_Register_datarep and file views that name them.
tilempi_add_conformance_test(NAME functions.datarep NP 2 SOURCES ${CMAKE_CURRENT_LIST_DIR}/functions_datarep.c)
functions_fortran_test(functions.datarep_f90 functions_datarep.f90)
