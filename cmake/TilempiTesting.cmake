# tilempi_add_mpi_test(NAME <name> NP <n> [TRANSPORT host|sim] COMMAND <exe> [args...] [LAUNCHER_ARGS ...])
# Runs an MPI program through tilempirun under CTest. Defined for real once apps/ provides tilempirun.
function(tilempi_add_mpi_test)
  cmake_parse_arguments(T "" "NAME;NP;TRANSPORT;TIMEOUT" "COMMAND;LAUNCHER_ARGS;LABELS" ${ARGN})
  if(NOT T_TRANSPORT)
    set(T_TRANSPORT host)
  endif()
  if(NOT T_TIMEOUT)
    set(T_TIMEOUT 120)
  endif()
  add_test(NAME ${T_NAME}
    COMMAND $<TARGET_FILE:tilempirun> -n ${T_NP} --transport ${T_TRANSPORT}
            --timeout ${T_TIMEOUT} ${T_LAUNCHER_ARGS} ${T_COMMAND})
  set_tests_properties(${T_NAME} PROPERTIES TIMEOUT ${T_TIMEOUT} LABELS "mpi;${T_TRANSPORT};${T_LABELS}")
endfunction()
