# Collectives: included by mpi/CMakeLists.txt, appends to TILEMPI_MPI_SOURCES.
set(TILEMPI_COLL_SCHEDULE_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/schedule/analyse.cpp
  ${CMAKE_CURRENT_LIST_DIR}/schedule/classic.cpp
  ${CMAKE_CURRENT_LIST_DIR}/schedule/mesh_rounds.cpp
  ${CMAKE_CURRENT_LIST_DIR}/schedule/named.cpp
  ${CMAKE_CURRENT_LIST_DIR}/schedule/trees.cpp)

list(APPEND TILEMPI_MPI_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/alltoall.cpp
  ${CMAKE_CURRENT_LIST_DIR}/api_coll.cpp
  ${CMAKE_CURRENT_LIST_DIR}/barrier.cpp
  ${CMAKE_CURRENT_LIST_DIR}/bcast.cpp
  ${CMAKE_CURRENT_LIST_DIR}/gather.cpp
  ${CMAKE_CURRENT_LIST_DIR}/mesh.cpp
  ${CMAKE_CURRENT_LIST_DIR}/op.cpp
  ${CMAKE_CURRENT_LIST_DIR}/reduce.cpp
  ${CMAKE_CURRENT_LIST_DIR}/registry.cpp
  ${TILEMPI_COLL_SCHEDULE_SOURCES})

# The schedule generators alone (pure C++, no MPI): the runtime algorithms compile the same
# sources into libtilempi; tilempi-coll-check and the unit tests link this library.
add_library(tilempi_coll_schedules STATIC ${TILEMPI_COLL_SCHEDULE_SOURCES})
target_include_directories(tilempi_coll_schedules PUBLIC ${CMAKE_CURRENT_LIST_DIR}/schedule)
