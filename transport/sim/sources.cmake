# The sim transport: ranks on the modeled chip of hwmodel/, in virtual time. The engine runs in
# the launcher (ranks as processes) or in the simulator process beside the ranks (ranks as
# contexts); the adapter models it drives live in hwmodel/adapter/ (target tilempi_adapters,
# added by hwmodel/CMakeLists.txt).
target_sources(tilempi_transport PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/sim_job.cpp
  ${CMAKE_CURRENT_LIST_DIR}/placement.cpp
  ${CMAKE_CURRENT_LIST_DIR}/sim_engine.cpp
  ${CMAKE_CURRENT_LIST_DIR}/sim_report.cpp
  ${CMAKE_CURRENT_LIST_DIR}/sim_transport.cpp
  ${CMAKE_CURRENT_LIST_DIR}/shm_link.cpp)
# Ranks as contexts: the simulator process (needs the context switch and the program loader).
if(EXISTS ${CMAKE_CURRENT_LIST_DIR}/context.cpp AND EXISTS ${CMAKE_CURRENT_LIST_DIR}/program_image.cpp)
  target_sources(tilempi_transport PRIVATE ${CMAKE_CURRENT_LIST_DIR}/context_job.cpp)
  target_compile_definitions(tilempi_transport PRIVATE TILEMPI_HAVE_CONTEXTS=1)
endif()
# The process model of ranks as contexts: each part in its own file, added once it exists.
foreach(part context program_image)
  if(EXISTS ${CMAKE_CURRENT_LIST_DIR}/${part}.cpp)
    target_sources(tilempi_transport PRIVATE ${CMAKE_CURRENT_LIST_DIR}/${part}.cpp)
  endif()
endforeach()
target_link_libraries(tilempi_transport PUBLIC tilempi_hwmodel tilempi_adapters ${CMAKE_DL_LIBS})
# The context switch: hand-written on x86_64, ucontext elsewhere or on request (slower: a
# sigprocmask system call per switch; for comparison and for debugging the hand-written one).
option(TILEMPI_CONTEXT_UCONTEXT "Switch sim contexts with ucontext (swapcontext) instead of the hand-written switch" OFF)
if(TILEMPI_CONTEXT_UCONTEXT)
  target_compile_definitions(tilempi_transport PUBLIC TILEMPI_CONTEXT_UCONTEXT=1)
endif()
