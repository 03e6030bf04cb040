# Fortran bindings (mpif.h's mpi_xxx_ symbols), compiled into libtilempi itself so that
# Fortran programs need only -ltilempi. Included by mpi/CMakeLists.txt.
set(TILEMPI_FORTRAN_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/fortran_support.cpp
  ${CMAKE_CURRENT_LIST_DIR}/f_env.cpp
  ${CMAKE_CURRENT_LIST_DIR}/f_p2p.cpp
  ${CMAKE_CURRENT_LIST_DIR}/f_comm.cpp
  ${CMAKE_CURRENT_LIST_DIR}/f_dynamic.cpp
  ${CMAKE_CURRENT_LIST_DIR}/f_f90_types.cpp
  ${CMAKE_CURRENT_LIST_DIR}/f_sizeof.cpp
  ${CMAKE_CURRENT_LIST_DIR}/f_attributes.cpp
  ${CMAKE_CURRENT_LIST_DIR}/f_group_ops.cpp
  ${CMAKE_CURRENT_LIST_DIR}/f_datatype.cpp
  ${CMAKE_CURRENT_LIST_DIR}/f_datatype_layouts.cpp
  ${CMAKE_CURRENT_LIST_DIR}/f_coll.cpp
  ${CMAKE_CURRENT_LIST_DIR}/f_coll_nonblocking.cpp
  ${CMAKE_CURRENT_LIST_DIR}/f_topo.cpp
  ${CMAKE_CURRENT_LIST_DIR}/f_requests.cpp
  ${CMAKE_CURRENT_LIST_DIR}/f_info.cpp
  ${CMAKE_CURRENT_LIST_DIR}/f_win.cpp
  ${CMAKE_CURRENT_LIST_DIR}/f_file.cpp)
# MPI_Status_c2f and friends (C functions, built with or without a Fortran compiler).
list(APPEND TILEMPI_MPI_SOURCES ${CMAKE_CURRENT_LIST_DIR}/status_conversions.cpp)
list(APPEND TILEMPI_MPI_SOURCES ${TILEMPI_FORTRAN_SOURCES})
