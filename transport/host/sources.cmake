# The host transport (shared memory between ranks on pinned host cores), one mechanism a file:
# eager_ring.h, control_ring.h, rendezvous.cpp (with shared_copy.h, arena_stream.h), waiting.*
target_sources(tilempi_transport PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/host_job.cpp
  ${CMAKE_CURRENT_LIST_DIR}/host_transport.cpp
  ${CMAKE_CURRENT_LIST_DIR}/rendezvous.cpp
  ${CMAKE_CURRENT_LIST_DIR}/waiting.cpp
  ${CMAKE_CURRENT_LIST_DIR}/one_sided.cpp
  ${CMAKE_CURRENT_LIST_DIR}/platform.cpp)
