# The C library and language runtimes seen by a program on the sim with ranks as contexts, as a
# process sees them (issue 33): library variables the program holds copies of (getopt's, environ,
# stdout, the time zone, the program's name, signgam), sleeping in virtual time, and the
# deadlock report of ranks stuck in different collectives.
tilempi_add_conformance_test(NAME sim_runtime_getopt NP 4 SOURCES ${CMAKE_CURRENT_LIST_DIR}/sim_runtime_getopt.c
                             ARGS -x 20 -v --name abc --level=3 rest1 rest2)
tilempi_add_conformance_test(NAME sim_runtime_environ NP 4 SOURCES ${CMAKE_CURRENT_LIST_DIR}/sim_runtime_environ.c)
tilempi_add_conformance_test(NAME sim_runtime_stdio NP 4 SOURCES ${CMAKE_CURRENT_LIST_DIR}/sim_runtime_stdio.c)
tilempi_add_conformance_test(NAME sim_runtime_timezone NP 4 SOURCES ${CMAKE_CURRENT_LIST_DIR}/sim_runtime_timezone.c)
tilempi_add_conformance_test(NAME sim_runtime_progname NP 4 SOURCES ${CMAKE_CURRENT_LIST_DIR}/sim_runtime_progname.c)
if(TARGET conformance_sim_runtime_progname)
  target_link_libraries(conformance_sim_runtime_progname PRIVATE m)
endif()
# Sleeping advances MPI_Wtime by the slept time on every transport; on the sim, exactly by it
# (virtual time, with --compute none nothing else is charged).
tilempi_add_conformance_test(NAME sim_runtime_sleep NP 8 SOURCES ${CMAKE_CURRENT_LIST_DIR}/sim_runtime_sleep.c)
if(TILEMPI_HAVE_SIM)
  tilempi_add_conformance_test(NAME sim_runtime_sleep_exact NP 8 SOURCES ${CMAKE_CURRENT_LIST_DIR}/sim_runtime_sleep.c
                               TRANSPORTS sim ARGS exact)
endif()
# The sim's deadlock report names the collective each blocked rank is in: rank 0 in MPI_Bcast,
# the others in MPI_Barrier. Ranks as contexts and as processes.
if(TILEMPI_HAVE_SIM AND TARGET tilempirun)
  add_executable(conformance_sim_runtime_coll_deadlock ${CMAKE_CURRENT_LIST_DIR}/sim_runtime_coll_deadlock.c)
  target_link_libraries(conformance_sim_runtime_coll_deadlock PRIVATE tilempi)
  set(_expect ${PROJECT_SOURCE_DIR}/tests/mpi/expect_failure.sh)
  set(_job $<TARGET_FILE:tilempirun> -n 4 --transport sim --timeout 60 --compute none
           $<TARGET_FILE:conformance_sim_runtime_coll_deadlock>)
  # (Each test names its process model: tilempi_add_test_matrix sets TILEMPI_SIM_RANKS to it.)
  set(_each TRANSPORTS sim LABELS "conformance;sim" TIMEOUT 90)
  tilempi_add_test_matrix(NAME conformance.<transport>.sim_runtime_coll_deadlock.<process_model>.bcast ${_each}
    SCRIPT ${_expect} nonzero "rank 0 \\(waiting since cycle [0-9]+\\): in MPI_Bcast" -- ${_job})
  tilempi_add_test_matrix(NAME conformance.<transport>.sim_runtime_coll_deadlock.<process_model>.barrier ${_each}
    SCRIPT ${_expect} nonzero "rank 2 \\(waiting since cycle [0-9]+\\): in MPI_Barrier" -- ${_job})
endif()
