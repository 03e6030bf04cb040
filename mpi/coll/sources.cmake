# Collectives: included by mpi/CMakeLists.txt, appends to TILEMPI_MPI_SOURCES. An algorithm's
# file goes here and its entry into the registration lines of registry.cpp (docs/COLLECTIVES.md).
set(TILEMPI_COLL_SCHEDULE_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/schedule/analyse.cpp
  ${CMAKE_CURRENT_LIST_DIR}/schedule/classic.cpp
  ${CMAKE_CURRENT_LIST_DIR}/schedule/mesh_rounds.cpp
  ${CMAKE_CURRENT_LIST_DIR}/schedule/neighbor_rounds.cpp
  ${CMAKE_CURRENT_LIST_DIR}/schedule/placement.cpp
  ${CMAKE_CURRENT_LIST_DIR}/schedule/trees.cpp)

list(APPEND TILEMPI_MPI_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/api_coll.cpp
  ${CMAKE_CURRENT_LIST_DIR}/call_sequence.cpp
  ${CMAKE_CURRENT_LIST_DIR}/comm_state.cpp
  ${CMAKE_CURRENT_LIST_DIR}/intercomm.cpp
  ${CMAKE_CURRENT_LIST_DIR}/lane.cpp
  ${CMAKE_CURRENT_LIST_DIR}/named_schedules.cpp
  ${CMAKE_CURRENT_LIST_DIR}/nonblocking.cpp
  ${CMAKE_CURRENT_LIST_DIR}/op.cpp
  ${CMAKE_CURRENT_LIST_DIR}/p2p_bytes.cpp
  ${CMAKE_CURRENT_LIST_DIR}/registry.cpp
  # one file per collective (classic algorithms) ...
  ${CMAKE_CURRENT_LIST_DIR}/allgather.cpp
  ${CMAKE_CURRENT_LIST_DIR}/allreduce.cpp
  ${CMAKE_CURRENT_LIST_DIR}/allreduce_reduce_bcast.cpp
  ${CMAKE_CURRENT_LIST_DIR}/alltoall.cpp
  ${CMAKE_CURRENT_LIST_DIR}/alltoall_operampi.cpp
  ${CMAKE_CURRENT_LIST_DIR}/alltoallw.cpp
  ${CMAKE_CURRENT_LIST_DIR}/barrier.cpp
  ${CMAKE_CURRENT_LIST_DIR}/bcast.cpp
  ${CMAKE_CURRENT_LIST_DIR}/gather.cpp
  ${CMAKE_CURRENT_LIST_DIR}/reduce.cpp
  ${CMAKE_CURRENT_LIST_DIR}/reduce_scatter.cpp
  ${CMAKE_CURRENT_LIST_DIR}/scan.cpp
  ${CMAKE_CURRENT_LIST_DIR}/scatter.cpp
  # ... and one per mesh algorithm ([Yagna 2013] chapter 3)
  ${CMAKE_CURRENT_LIST_DIR}/ktree.cpp
  ${CMAKE_CURRENT_LIST_DIR}/alltoall_mesh_rounds.cpp
  ${CMAKE_CURRENT_LIST_DIR}/mesh_tree.cpp
  # ... and the neighbourhood collectives' (both algorithms: on any process topology)
  ${CMAKE_CURRENT_LIST_DIR}/neighbor.cpp
  ${CMAKE_CURRENT_LIST_DIR}/static_route.cpp
  # ... and the collectives a network adapter runs by itself ([Wallentowitz 2018] §3.3)
  ${CMAKE_CURRENT_LIST_DIR}/offload.cpp
  ${TILEMPI_COLL_SCHEDULE_SOURCES})

# The schedule generators alone (pure C++, no MPI), for the unit tests of the generators. The
# checker's schedules by name come from the registry in libtilempi (named_schedules.cpp).
add_library(tilempi_coll_schedules STATIC ${TILEMPI_COLL_SCHEDULE_SOURCES})
target_include_directories(tilempi_coll_schedules PUBLIC ${CMAKE_CURRENT_LIST_DIR}/schedule)
