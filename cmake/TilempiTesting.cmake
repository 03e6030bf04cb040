# Tests that run MPI jobs under CTest: one helper makes a test for every transport, adapter,
# preset, network model and process model (tilempi_add_test_matrix); tilempi_add_mpi_test is its
# one-transport form.
#
#   tilempi_add_test_matrix(NAME <template> <what runs> [dimensions] [options])
#
# What runs, one of:
#   NP <n> COMMAND <program> [args...]  a job: tilempirun -n N --transport T --timeout S
#                                       <transport-args> LAUNCHER_ARGS program args (or where
#                                       LAUNCHER_ARGS places <transport-args>)
#   SCRIPT <command> [args...]          any command (a script that checks what tilempirun does);
#                                       it places the job's options itself, with the placeholders
#                                       <transport> and <transport-args> (below)
# Dimensions (transports and process models: everything registered unless narrowed; the chip's,
# adapters, presets and network models: only when asked for):
#   TRANSPORTS <t>...      default every transport built (tilempi_registered(transports));
#                          TRANSPORT <t> is the same for one
#   ADAPTERS ALL|<a>...    on the sim, one test per adapter with --adapter A (ALL: every registered
#                          one, tilempi_registered(adapters)); EXCEPT_ADAPTERS <a>... leaves some out
#   PRESETS ALL|<p>...     on the sim, one test per preset with --preset P (ALL: every registered one)
#   NETWORK_MODELS ALL|<m>...  on the sim, one test per network model with --set network_model=M
#   PROCESS_MODELS <m>...  on the sim, contexts and processes (the default: both). The contexts
#                          test is the one named by the template and runs with the default
#                          sim.ranks=auto; the processes test is <name>.processes with
#                          TILEMPI_SIM_RANKS=processes. There is no processes twin under
#                          sanitizers (auto runs ranks as processes there) nor when the job's own
#                          options set sim.ranks=. A template that names <process_model> itself
#                          gets no suffix: each test sets TILEMPI_SIM_RANKS to its model (and there
#                          is no contexts test under sanitizers).
#   <T>_ARGS <arg>...      launcher options for transport T only: SIM_ARGS --compute none
# Placeholders, filled in every argument (the name, the command, labels, expressions):
#   <transport>  <adapter>  <preset>  <network_model>  <process_model>
#   <transport-args>       (one argument of its own) <T>_ARGS, then --adapter A, --preset P and
#                          --set network_model=M as asked
#   <T:text>               text on transport T, nothing elsewhere: NAME fortran_p2p_np4<sim:_sim>
# Options:
#   LAUNCHER_ARGS <arg>...        (NP form) more tilempirun options, before the program
#   LABELS <label>...             NP form: added to "mpi;<transport>"; SCRIPT form: the labels
#   TIMEOUT <seconds>             NP form: the launcher's --timeout (default 120), CTest waits
#                                 TILEMPI_TEST_TIMEOUT_MARGIN more, so that a hung job is ended by
#                                 the launcher, which removes its processes and shared memory;
#                                 SCRIPT form: CTest's
#   WILL_FAIL, PASS_REGULAR_EXPRESSION <re>..., FAIL_REGULAR_EXPRESSION <re>...,
#   ENVIRONMENT <VAR=value>..., PROCESSORS <n>, RUN_SERIAL     CTest's properties
#   OUT_TESTS <var>               the names of the tests made, for more properties
# A test for a transport that is not built is registered but disabled ("Not Run (Disabled)").
# Families over everything registered are recorded (tests/CMakeLists.txt writes them to
# test_matrix.txt): settings.registry.test_matrix fails when a registered entry has no test.
include(${CMAKE_CURRENT_LIST_DIR}/TilempiRegistry.cmake)  # tilempi_registered
set(TILEMPI_TEST_TIMEOUT_MARGIN 30 CACHE STRING "Seconds CTest waits beyond the launcher's --timeout")
mark_as_advanced(TILEMPI_TEST_TIMEOUT_MARGIN)

function(tilempi_add_test_matrix)
  tilempi_registered(transports _built)
  set(_per_transport "")
  foreach(_t IN LISTS _built)
    string(TOUPPER "${_t}_ARGS" _k)
    list(APPEND _per_transport ${_k})
  endforeach()
  set(_options WILL_FAIL RUN_SERIAL)
  set(_one NAME NP TIMEOUT PROCESSORS TRANSPORT OUT_TESTS)
  set(_multi COMMAND SCRIPT LAUNCHER_ARGS LABELS PASS_REGULAR_EXPRESSION FAIL_REGULAR_EXPRESSION ENVIRONMENT
             TRANSPORTS ADAPTERS EXCEPT_ADAPTERS PRESETS NETWORK_MODELS PROCESS_MODELS ${_per_transport})
  cmake_parse_arguments(M "${_options}" "${_one}" "${_multi}" ${ARGN})
  if(NOT M_NAME OR (NOT M_SCRIPT AND (NOT M_NP OR NOT M_COMMAND)) OR (M_SCRIPT AND M_COMMAND))
    message(FATAL_ERROR "tilempi_add_test_matrix(${M_NAME}): NAME and either NP and COMMAND or SCRIPT are required")
  endif()
  if(M_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "tilempi_add_test_matrix(${M_NAME}): unknown arguments ${M_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT M_SCRIPT AND NOT TARGET tilempirun)
    message(VERBOSE "tilempi_add_test_matrix(${M_NAME}): no tilempirun target; test not added")
    return()
  endif()

  # The dimensions.
  set(_transports ${M_TRANSPORTS} ${M_TRANSPORT})
  set(_all_transports FALSE)
  if(NOT _transports)
    set(_transports ${_built})
    set(_all_transports TRUE)
  endif()
  # The chip's dimensions on the sim: adapters, presets, network models (ALL: every registered one).
  foreach(_dim adapters presets network_models)
    string(TOUPPER ${_dim} _D)
    set(_${_dim} "")
    if(M_${_D} STREQUAL "ALL")
      tilempi_registered(${_dim} _${_dim})
    elseif(M_${_D})
      set(_${_dim} ${M_${_D}})
    endif()
  endforeach()
  if(M_EXCEPT_ADAPTERS)
    list(REMOVE_ITEM _adapters ${M_EXCEPT_ADAPTERS})
  endif()
  set(_models ${M_PROCESS_MODELS})
  if(NOT _models)
    set(_models contexts processes)
  endif()
  string(FIND "${M_NAME}" "<process_model>" _named_model)
  if(_all_transports OR "ALL" IN_LIST M_ADAPTERS OR "ALL" IN_LIST M_PRESETS OR "ALL" IN_LIST M_NETWORK_MODELS)
    # (Recorded for settings.registry.test_matrix: TEMPLATE TRANSPORTS ADAPTERS PRESETS
    # NETWORK_MODELS PROCESS_MODELS EXCEPT_ADAPTERS; ALL for everything registered, - for none,
    # lists joined by commas.)
    set(_record "${M_NAME}")
    foreach(_dim transports adapters presets network_models)
      string(TOUPPER ${_dim} _D)
      if(M_${_D} STREQUAL "ALL" OR (_dim STREQUAL "transports" AND _all_transports))
        string(APPEND _record " ALL")
      elseif(_${_dim})
        string(REPLACE ";" "," _text "${_${_dim}}")
        string(APPEND _record " ${_text}")
      else()
        string(APPEND _record " -")
      endif()
    endforeach()
    set(_m_text ${_models})
    if("${M_LAUNCHER_ARGS};${M_SIM_ARGS};${M_SCRIPT}" MATCHES "sim\\.ranks=")
      list(REMOVE_ITEM _m_text processes)  # (the job sets its model: no twin)
    elseif(NOT M_PROCESS_MODELS)
      set(_m_text ALL)
    endif()
    string(REPLACE ";" "," _m_text "${_m_text}")
    string(REPLACE ";" "," _except "${M_EXCEPT_ADAPTERS}")
    set_property(GLOBAL APPEND PROPERTY TILEMPI_TEST_MATRIX "${_record} ${_m_text} ${_except}")
  endif()

  set(_made "")
  foreach(_t IN LISTS _transports)
    # One chip variant per adapter x preset x network model asked for (on the sim): a|p|n, - for
    # a dimension not asked for.
    set(_variants "-|-|-")
    set(_t_models "-")
    if(_t STREQUAL "sim")
      set(_dims adapters presets network_models)
      foreach(_dim IN LISTS _dims)
        if(_${_dim})
          set(_more "")
          list(FIND _dims ${_dim} _i)
          foreach(_v IN LISTS _variants)
            foreach(_e IN LISTS _${_dim})
              string(REPLACE "|" ";" _w "${_v}")
              list(REMOVE_AT _w ${_i})
              list(INSERT _w ${_i} ${_e})
              string(REPLACE ";" "|" _w "${_w}")
              list(APPEND _more "${_w}")
            endforeach()
          endforeach()
          set(_variants ${_more})
        endif()
      endforeach()
      set(_t_models ${_models})
    endif()
    string(TOUPPER "${_t}_ARGS" _k)
    foreach(_variant IN LISTS _variants)
      string(REPLACE "|" ";" _variant "${_variant}")
      list(GET _variant 0 _a)
      list(GET _variant 1 _p)
      list(GET _variant 2 _n)
      set(_targs ${M_${_k}})
      if(NOT _a STREQUAL "-")
        list(APPEND _targs --adapter ${_a})
      endif()
      if(NOT _p STREQUAL "-")
        list(APPEND _targs --preset ${_p})
      endif()
      if(NOT _n STREQUAL "-")
        list(APPEND _targs --set network_model=${_n})
      endif()
      foreach(_m IN LISTS _t_models)
        # Which process models this test has: contexts only where the program can be loaded per
        # rank, the processes twin only where it differs from the default.
        set(_env_model "")
        set(_suffix "")
        if(NOT _m STREQUAL "-")
          if(_named_model GREATER -1)
            if(_m STREQUAL "contexts" AND TILEMPI_SANITIZE)
              continue()
            endif()
            set(_env_model TILEMPI_SIM_RANKS=${_m})
          elseif(_m STREQUAL "processes")
            if(TILEMPI_SANITIZE OR "${M_LAUNCHER_ARGS};${_targs};${M_SCRIPT}" MATCHES "sim\\.ranks=")
              continue()
            endif()
            set(_env_model TILEMPI_SIM_RANKS=processes)
            set(_suffix .processes)
          endif()
        endif()
        foreach(_field NAME LAUNCHER_ARGS COMMAND SCRIPT LABELS PASS_REGULAR_EXPRESSION FAIL_REGULAR_EXPRESSION
                       ENVIRONMENT TIMEOUT)
          _tilempi_fill(_v_${_field} "${_t}" "${_a}|${_p}|${_n}|${_m}" "${_targs}" ${M_${_field}})
        endforeach()
        set(_name ${_v_NAME}${_suffix})
        set(_env ${_env_model} ${_v_ENVIRONMENT})
        if(M_SCRIPT)
          add_test(NAME ${_name} COMMAND ${_v_SCRIPT})
          if(_v_LABELS)
            set_tests_properties(${_name} PROPERTIES LABELS "${_v_LABELS}")
          endif()
          if(_v_TIMEOUT)
            set_tests_properties(${_name} PROPERTIES TIMEOUT ${_v_TIMEOUT})
          endif()
          _tilempi_test_properties(${_name} "${_t}" "${M_WILL_FAIL}" "${M_RUN_SERIAL}" "${M_PROCESSORS}" "${_env}"
                                   "${_v_PASS_REGULAR_EXPRESSION}" "${_v_FAIL_REGULAR_EXPRESSION}")
        else()
          if(NOT _v_TIMEOUT)
            set(_v_TIMEOUT 120)
          endif()
          math(EXPR _ctest_timeout "${_v_TIMEOUT} + ${TILEMPI_TEST_TIMEOUT_MARGIN}")
          # (The transport's options come first, unless LAUNCHER_ARGS places <transport-args>.)
          set(_first ${_targs})
          if("<transport-args>" IN_LIST M_LAUNCHER_ARGS)
            set(_first "")
          endif()
          add_test(NAME ${_name}
            COMMAND $<TARGET_FILE:tilempirun> -n ${M_NP} --transport ${_t}
                    --timeout ${_v_TIMEOUT} ${_first} ${_v_LAUNCHER_ARGS} ${_v_COMMAND})
          set_tests_properties(${_name} PROPERTIES TIMEOUT ${_ctest_timeout}
                               LABELS "mpi;${_t};${_v_LABELS}")
          _tilempi_test_properties(${_name} "${_t}" "${M_WILL_FAIL}" "${M_RUN_SERIAL}" "${M_PROCESSORS}" "${_env}"
                                   "${_v_PASS_REGULAR_EXPRESSION}" "${_v_FAIL_REGULAR_EXPRESSION}")
        endif()
        list(APPEND _made ${_name})
      endforeach()
    endforeach()
  endforeach()
  if(M_OUT_TESTS)
    set(${M_OUT_TESTS} ${_made} PARENT_SCOPE)
  endif()
endfunction()

# tilempi_add_mpi_test(NAME <name> NP <n> COMMAND <exe> [args...] [TRANSPORT host|sim] ...): one
# transport's job (default host), with the options of tilempi_add_test_matrix; on the sim it has
# its .processes twin.
function(tilempi_add_mpi_test)
  cmake_parse_arguments(T "" "TRANSPORT" "" ${ARGN})
  if(NOT T_TRANSPORT)
    set(T_TRANSPORT host)
  endif()
  tilempi_add_test_matrix(${T_UNPARSED_ARGUMENTS} TRANSPORT ${T_TRANSPORT})
endfunction()

# _tilempi_fill(<out> <transport> <adapter|preset|network model|process model> <transport-args>
# <arg>...): the arguments with the placeholders filled in; an argument that only held text for
# another transport is dropped.
function(_tilempi_fill out t variant targs)
  tilempi_registered(transports _built)
  string(REPLACE "|" ";" variant "${variant}")
  list(GET variant 0 a)
  list(GET variant 1 p)
  list(GET variant 2 n)
  list(GET variant 3 m)
  set(_r "")
  foreach(_arg IN LISTS ARGN)
    if(_arg STREQUAL "<transport-args>")
      list(APPEND _r ${targs})
      continue()
    endif()
    set(_v "${_arg}")
    string(REPLACE "<transport>" "${t}" _v "${_v}")
    string(REPLACE "<adapter>" "${a}" _v "${_v}")
    string(REPLACE "<preset>" "${p}" _v "${_v}")
    string(REPLACE "<network_model>" "${n}" _v "${_v}")
    string(REPLACE "<process_model>" "${m}" _v "${_v}")
    foreach(_o IN LISTS _built)
      if(_o STREQUAL t)
        string(REGEX REPLACE "<${_o}:([^>]*)>" "\\1" _v "${_v}")
      else()
        string(REGEX REPLACE "<${_o}:[^>]*>" "" _v "${_v}")
      endif()
    endforeach()
    if(_v STREQUAL "" AND NOT _arg STREQUAL "")
      continue()
    endif()
    list(APPEND _r "${_v}")
  endforeach()
  set(${out} "${_r}" PARENT_SCOPE)
endfunction()

function(_tilempi_test_properties name t will_fail run_serial processors env pass fail)
  if(will_fail)
    set_tests_properties(${name} PROPERTIES WILL_FAIL TRUE)
  endif()
  if(pass)
    set_tests_properties(${name} PROPERTIES PASS_REGULAR_EXPRESSION "${pass}")
  endif()
  if(fail)
    set_tests_properties(${name} PROPERTIES FAIL_REGULAR_EXPRESSION "${fail}")
  endif()
  if(env)
    set_tests_properties(${name} PROPERTIES ENVIRONMENT "${env}")
  endif()
  if(processors)
    set_tests_properties(${name} PROPERTIES PROCESSORS ${processors})
  endif()
  if(run_serial)
    set_tests_properties(${name} PROPERTIES RUN_SERIAL TRUE)
  endif()
  string(TOUPPER "${t}" _tr)
  if(NOT TILEMPI_HAVE_${_tr})
    set_tests_properties(${name} PROPERTIES DISABLED TRUE)
  endif()
endfunction()
