# The host transport (shared memory between ranks on pinned host cores).
target_sources(tilempi_transport PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/host_job.cpp
  ${CMAKE_CURRENT_LIST_DIR}/host_transport.cpp
  ${CMAKE_CURRENT_LIST_DIR}/platform.cpp)
