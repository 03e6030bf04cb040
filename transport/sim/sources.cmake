# The sim transport: ranks on the modeled chip of hwmodel/, in virtual time. The engine runs in
# the launcher (ranks as processes) or in the simulator process beside the ranks (ranks as
# contexts); the adapter models it drives live in hwmodel/adapter/ (target tilempi_adapters,
# added by hwmodel/CMakeLists.txt).
target_sources(tilempi_transport PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/sim_job.cpp
  ${CMAKE_CURRENT_LIST_DIR}/placement.cpp
  ${CMAKE_CURRENT_LIST_DIR}/engine_core.cpp
  ${CMAKE_CURRENT_LIST_DIR}/sim_engine.cpp
  ${CMAKE_CURRENT_LIST_DIR}/segment_ranks.cpp
  ${CMAKE_CURRENT_LIST_DIR}/p2p_engine.cpp
  ${CMAKE_CURRENT_LIST_DIR}/static_engine.cpp
  ${CMAKE_CURRENT_LIST_DIR}/offload_engine.cpp
  ${CMAKE_CURRENT_LIST_DIR}/remote_engine.cpp
  ${CMAKE_CURRENT_LIST_DIR}/migration_engine.cpp
  ${CMAKE_CURRENT_LIST_DIR}/sim_report.cpp
  ${CMAKE_CURRENT_LIST_DIR}/energy_account.cpp
  ${CMAKE_CURRENT_LIST_DIR}/rank_energy.cpp
  ${CMAKE_CURRENT_LIST_DIR}/rank_clock.cpp
  ${CMAKE_CURRENT_LIST_DIR}/rank_p2p.cpp
  ${CMAKE_CURRENT_LIST_DIR}/rank_static.cpp
  ${CMAKE_CURRENT_LIST_DIR}/rank_offload.cpp
  ${CMAKE_CURRENT_LIST_DIR}/rank_remote.cpp
  ${CMAKE_CURRENT_LIST_DIR}/rank_migration.cpp
  ${CMAKE_CURRENT_LIST_DIR}/virtual_sleep.cpp
  ${CMAKE_CURRENT_LIST_DIR}/shm_link.cpp)
# Ranks as contexts: the simulator process (the program loader, the scheduler of contexts and its
# crash reports; the context switch itself is transport/context.cpp).
target_sources(tilempi_transport PRIVATE ${CMAKE_CURRENT_LIST_DIR}/context_job.cpp
                                         ${CMAKE_CURRENT_LIST_DIR}/context_crash.cpp
                                         ${CMAKE_CURRENT_LIST_DIR}/context_termination.cpp
                                         ${CMAKE_CURRENT_LIST_DIR}/program_image.cpp
                                         ${CMAKE_CURRENT_LIST_DIR}/rank_variables.cpp)
target_compile_definitions(tilempi_transport PRIVATE TILEMPI_HAVE_CONTEXTS=1)
target_link_libraries(tilempi_transport PUBLIC tilempi_hwmodel tilempi_adapters ${CMAKE_DL_LIBS})
# The context switch: hand-written on x86_64, ucontext elsewhere or on request (slower: a
# sigprocmask system call per switch; for comparison and for debugging the hand-written one).
option(TILEMPI_CONTEXT_UCONTEXT "Switch sim contexts with ucontext (swapcontext) instead of the hand-written switch" OFF)
if(TILEMPI_CONTEXT_UCONTEXT)
  target_compile_definitions(tilempi_transport PUBLIC TILEMPI_CONTEXT_UCONTEXT=1)
endif()
