# The sim transport: ranks on the modeled chip of hwmodel/, in virtual time. The engine runs in
# the launcher (ranks as processes) or in the simulator process beside the ranks (ranks as
# contexts); the adapter models it drives live in hwmodel/adapter/ (target tilempi_adapters,
# added by hwmodel/CMakeLists.txt).
target_sources(tilempi_transport PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/sim_job.cpp
  ${CMAKE_CURRENT_LIST_DIR}/sim_engine.cpp
  ${CMAKE_CURRENT_LIST_DIR}/sim_report.cpp
  ${CMAKE_CURRENT_LIST_DIR}/sim_transport.cpp
  ${CMAKE_CURRENT_LIST_DIR}/shm_link.cpp)
# The process model of ranks as contexts: each part in its own file, added once it exists.
foreach(part context program_image)
  if(EXISTS ${CMAKE_CURRENT_LIST_DIR}/${part}.cpp)
    target_sources(tilempi_transport PRIVATE ${CMAKE_CURRENT_LIST_DIR}/${part}.cpp)
  endif()
endforeach()
target_link_libraries(tilempi_transport PUBLIC tilempi_hwmodel tilempi_adapters ${CMAKE_DL_LIBS})
