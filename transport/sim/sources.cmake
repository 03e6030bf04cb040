# The sim transport: ranks on the modeled chip of hwmodel/, in virtual time. The engine runs in
# the launcher; the adapter models it drives live in hwmodel/adapter/ (target tilempi_adapters,
# added by hwmodel/CMakeLists.txt).
target_sources(tilempi_transport PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/sim_job.cpp
  ${CMAKE_CURRENT_LIST_DIR}/sim_engine.cpp
  ${CMAKE_CURRENT_LIST_DIR}/sim_report.cpp
  ${CMAKE_CURRENT_LIST_DIR}/sim_transport.cpp)
target_link_libraries(tilempi_transport PUBLIC tilempi_hwmodel tilempi_adapters)
