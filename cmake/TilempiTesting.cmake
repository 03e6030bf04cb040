# tilempi_add_mpi_test: run an MPI program through tilempirun under CTest.
#
#   tilempi_add_mpi_test(NAME <name> NP <n> COMMAND <exe> [args...]
#                        [TRANSPORT host|sim]          default host
#                        [LAUNCHER_ARGS <arg>...]      more tilempirun options, before the program
#                        [LABELS <label>...]           added to "mpi;<transport>"
#                        [TIMEOUT <seconds>]           default 120
#                        [WILL_FAIL]                   the job must fail (nonzero exit status)
#                        [PASS_REGULAR_EXPRESSION <re>...]   output must match one of them
#                                                      (CTest then ignores the exit status)
#                        [FAIL_REGULAR_EXPRESSION <re>...]   output must match none of them
#                        [ENVIRONMENT <VAR=value>...]  for the launcher and so for every rank
#                        [PROCESSORS <n>]              CTest's PROCESSORS (default 1)
#                        [RUN_SERIAL])
#
# The launcher gets --timeout TIMEOUT and CTest a little more, so that a hung job is ended by
# the launcher, which removes the job's processes and shared memory, not killed by CTest.
# A test for a transport that is not built is registered but disabled (CTest lists it as
# "Not Run (Disabled)").
set(TILEMPI_TEST_TIMEOUT_MARGIN 30 CACHE STRING "Seconds CTest waits beyond the launcher's --timeout")
mark_as_advanced(TILEMPI_TEST_TIMEOUT_MARGIN)

# On the sim transport every test runs twice: once as registered (ranks as contexts of one
# simulator process, the default sim.ranks=auto) and once as <name>.processes with
# TILEMPI_SIM_RANKS=processes (ranks as processes), so that both process models pass one suite.
function(tilempi_add_mpi_test)
  _tilempi_add_mpi_test(${ARGN})
  cmake_parse_arguments(T "WILL_FAIL;RUN_SERIAL" "NAME;NP;TRANSPORT;TIMEOUT;PROCESSORS"
                        "COMMAND;LAUNCHER_ARGS;LABELS;PASS_REGULAR_EXPRESSION;FAIL_REGULAR_EXPRESSION;ENVIRONMENT"
                        ${ARGN})
  # (Under sanitizers sim.ranks=auto runs ranks as processes anyway: no twin.)
  if(T_TRANSPORT STREQUAL "sim" AND NOT TILEMPI_SANITIZE AND NOT "${T_LAUNCHER_ARGS}" MATCHES "sim\\.ranks=")
    set(_args ${ARGN})
    list(FIND _args NAME _i)
    math(EXPR _i "${_i} + 1")
    list(REMOVE_AT _args ${_i})
    list(INSERT _args ${_i} ${T_NAME}.processes)
    list(FIND _args ENVIRONMENT _e)
    if(_e EQUAL -1)
      list(APPEND _args ENVIRONMENT TILEMPI_SIM_RANKS=processes)
    else()
      math(EXPR _e "${_e} + 1")
      list(INSERT _args ${_e} TILEMPI_SIM_RANKS=processes)
    endif()
    _tilempi_add_mpi_test(${_args})
  endif()
endfunction()

function(_tilempi_add_mpi_test)
  cmake_parse_arguments(T "WILL_FAIL;RUN_SERIAL" "NAME;NP;TRANSPORT;TIMEOUT;PROCESSORS"
                        "COMMAND;LAUNCHER_ARGS;LABELS;PASS_REGULAR_EXPRESSION;FAIL_REGULAR_EXPRESSION;ENVIRONMENT"
                        ${ARGN})
  if(NOT T_NAME OR NOT T_NP OR NOT T_COMMAND)
    message(FATAL_ERROR "tilempi_add_mpi_test: NAME, NP and COMMAND are required")
  endif()
  if(T_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "tilempi_add_mpi_test(${T_NAME}): unknown arguments ${T_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT TARGET tilempirun)
    message(VERBOSE "tilempi_add_mpi_test(${T_NAME}): no tilempirun target; test not added")
    return()
  endif()
  if(NOT T_TRANSPORT)
    set(T_TRANSPORT host)
  endif()
  if(NOT T_TIMEOUT)
    set(T_TIMEOUT 120)
  endif()
  math(EXPR _ctest_timeout "${T_TIMEOUT} + ${TILEMPI_TEST_TIMEOUT_MARGIN}")

  add_test(NAME ${T_NAME}
    COMMAND $<TARGET_FILE:tilempirun> -n ${T_NP} --transport ${T_TRANSPORT}
            --timeout ${T_TIMEOUT} ${T_LAUNCHER_ARGS} ${T_COMMAND})
  set_tests_properties(${T_NAME} PROPERTIES TIMEOUT ${_ctest_timeout}
                       LABELS "mpi;${T_TRANSPORT};${T_LABELS}")
  if(T_WILL_FAIL)
    set_tests_properties(${T_NAME} PROPERTIES WILL_FAIL TRUE)
  endif()
  if(T_PASS_REGULAR_EXPRESSION)
    set_tests_properties(${T_NAME} PROPERTIES PASS_REGULAR_EXPRESSION "${T_PASS_REGULAR_EXPRESSION}")
  endif()
  if(T_FAIL_REGULAR_EXPRESSION)
    set_tests_properties(${T_NAME} PROPERTIES FAIL_REGULAR_EXPRESSION "${T_FAIL_REGULAR_EXPRESSION}")
  endif()
  if(T_ENVIRONMENT)
    set_tests_properties(${T_NAME} PROPERTIES ENVIRONMENT "${T_ENVIRONMENT}")
  endif()
  if(T_PROCESSORS)
    set_tests_properties(${T_NAME} PROPERTIES PROCESSORS ${T_PROCESSORS})
  endif()
  if(T_RUN_SERIAL)
    set_tests_properties(${T_NAME} PROPERTIES RUN_SERIAL TRUE)
  endif()
  string(TOUPPER "${T_TRANSPORT}" _tr)
  if(NOT TILEMPI_HAVE_${_tr})
    set_tests_properties(${T_NAME} PROPERTIES DISABLED TRUE)
  endif()
endfunction()
