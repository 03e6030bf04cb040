# Unit tests of the sim transport's process model (ranks as user-level contexts in one
# simulator process): the program loader, the rank variables, the request lanes, the compute
# clock (the context switch itself is transport/context.cpp's: tests/transport/context_test.cpp).
# One GoogleTest executable per *_test.cpp file of this folder; each sees the transport's private
# headers (transport/).
if(NOT TILEMPI_HAVE_SIM)
  return()
endif()
include(GoogleTest)
file(GLOB _context_tests CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/*_test.cpp)
foreach(src ${_context_tests})
  get_filename_component(name ${src} NAME_WE)
  add_executable(contexts_${name} ${src})
  target_include_directories(contexts_${name} PRIVATE ${PROJECT_SOURCE_DIR}/transport)
  target_link_libraries(contexts_${name} PRIVATE tilempi_transport GTest::gtest_main ${CMAKE_DL_LIBS})
  gtest_discover_tests(contexts_${name} DISCOVERY_MODE PRE_TEST PROPERTIES LABELS "sim;unit" TIMEOUT 120)
endforeach()

# Sample programs for program_image_test (the loader of one program copy per rank). They are
# ordinary PIE executables that do not link tilempi, built without the sanitizers of a
# sanitizer build (the loader's subject is an ordinary program, not an instrumented one).
if(TARGET contexts_program_image_test)
  set(_samples ${CMAKE_CURRENT_SOURCE_DIR}/samples)
  function(_ctx_plain_sample target)
    foreach(prop COMPILE_OPTIONS LINK_OPTIONS)
      get_target_property(_opts ${target} ${prop})
      if(_opts)
        list(FILTER _opts EXCLUDE REGEX "sanitize")
        set_target_properties(${target} PROPERTIES ${prop} "${_opts}")
      endif()
    endforeach()
    add_dependencies(contexts_program_image_test ${target})
  endfunction()

  # main not exported: found through .symtab; and a stripped copy of it (the error path).
  add_executable(ctx_sample_counter ${_samples}/counter.c)
  _ctx_plain_sample(ctx_sample_counter)
  add_custom_command(TARGET ctx_sample_counter POST_BUILD
    COMMAND ${CMAKE_STRIP} -o $<TARGET_FILE_DIR:ctx_sample_counter>/ctx_sample_counter_stripped
            $<TARGET_FILE:ctx_sample_counter>
    VERBATIM)
  # main exported (-rdynamic): found with dlsym.
  add_executable(ctx_sample_counter_rdynamic ${_samples}/counter.c)
  set_target_properties(ctx_sample_counter_rdynamic PROPERTIES ENABLE_EXPORTS ON)
  _ctx_plain_sample(ctx_sample_counter_rdynamic)
  # Not position independent (ET_EXEC): refused.
  add_executable(ctx_sample_counter_nopie ${_samples}/counter.c)
  set_target_properties(ctx_sample_counter_nopie PROPERTIES POSITION_INDEPENDENT_CODE OFF)
  target_compile_options(ctx_sample_counter_nopie PRIVATE -fno-pie)
  target_link_options(ctx_sample_counter_nopie PRIVATE -no-pie)
  _ctx_plain_sample(ctx_sample_counter_nopie)
  # Reads environ and optind: copy relocations with -fPIE, none with -fPIC.
  add_executable(ctx_sample_environ_pie ${_samples}/environ_reader.c)
  _ctx_plain_sample(ctx_sample_environ_pie)
  add_executable(ctx_sample_environ_pic ${_samples}/environ_reader.c)
  set_target_properties(ctx_sample_environ_pic PROPERTIES POSITION_INDEPENDENT_CODE OFF)
  target_compile_options(ctx_sample_environ_pic PRIVATE -fPIC)
  target_link_options(ctx_sample_environ_pic PRIVATE -pie)
  _ctx_plain_sample(ctx_sample_environ_pic)
  # A thread-local variable (PT_TLS): refused.
  add_executable(ctx_sample_tls ${_samples}/tls.c)
  _ctx_plain_sample(ctx_sample_tls)
  # The same, linked as a shared object: its TLS goes through relocations, one block per copy.
  add_library(ctx_sample_tls_shared SHARED ${_samples}/tls.c)
  _ctx_plain_sample(ctx_sample_tls_shared)
  set(_img_defs
    SAMPLE_TLS_SHARED="$<TARGET_FILE:ctx_sample_tls_shared>"
    SAMPLE_COUNTER="$<TARGET_FILE:ctx_sample_counter>"
    SAMPLE_COUNTER_STRIPPED="$<TARGET_FILE_DIR:ctx_sample_counter>/ctx_sample_counter_stripped"
    SAMPLE_COUNTER_RDYNAMIC="$<TARGET_FILE:ctx_sample_counter_rdynamic>"
    SAMPLE_COUNTER_NOPIE="$<TARGET_FILE:ctx_sample_counter_nopie>"
    SAMPLE_ENVIRON_PIE="$<TARGET_FILE:ctx_sample_environ_pie>"
    SAMPLE_ENVIRON_PIC="$<TARGET_FILE:ctx_sample_environ_pic>"
    SAMPLE_TLS="$<TARGET_FILE:ctx_sample_tls>")

  # A static executable, when libc.a is there to build one.
  include(CheckCSourceCompiles)
  set(CMAKE_REQUIRED_LINK_OPTIONS -static)
  check_c_source_compiles("int main(void) { return 0; }" TILEMPI_HAVE_STATIC_LIBC)
  unset(CMAKE_REQUIRED_LINK_OPTIONS)
  if(TILEMPI_HAVE_STATIC_LIBC)
    add_executable(ctx_sample_static ${_samples}/counter.c)
    target_link_options(ctx_sample_static PRIVATE -static)
    _ctx_plain_sample(ctx_sample_static)
    list(APPEND _img_defs SAMPLE_STATIC="$<TARGET_FILE:ctx_sample_static>")
  else()
    list(APPEND _img_defs SAMPLE_STATIC="")
  endif()

  # Fortran: a COMMON block and a SAVEd variable per copy; -static-libgfortran brings PT_TLS.
  if(CMAKE_Fortran_COMPILER)
    add_executable(ctx_sample_fortran ${_samples}/common.f90)
    set_target_properties(ctx_sample_fortran PROPERTIES ENABLE_EXPORTS ON)
    _ctx_plain_sample(ctx_sample_fortran)
    list(APPEND _img_defs SAMPLE_FORTRAN="$<TARGET_FILE:ctx_sample_fortran>")
    if(CMAKE_Fortran_COMPILER_ID STREQUAL "GNU")
      add_executable(ctx_sample_fortran_static_rt ${_samples}/common.f90)
      target_link_options(ctx_sample_fortran_static_rt PRIVATE -static-libgfortran)
      _ctx_plain_sample(ctx_sample_fortran_static_rt)
      list(APPEND _img_defs SAMPLE_FORTRAN_STATIC_RT="$<TARGET_FILE:ctx_sample_fortran_static_rt>")
    else()
      list(APPEND _img_defs SAMPLE_FORTRAN_STATIC_RT="")
    endif()
  else()
    list(APPEND _img_defs SAMPLE_FORTRAN="" SAMPLE_FORTRAN_STATIC_RT="")
  endif()
  # Built with -fsanitize=address: loads only into a simulator under ASan.
  set(CMAKE_REQUIRED_FLAGS -fsanitize=address)
  set(CMAKE_REQUIRED_LINK_OPTIONS -fsanitize=address)
  check_c_source_compiles("int main(void) { return 0; }" TILEMPI_HAVE_ASAN_SAMPLE)
  unset(CMAKE_REQUIRED_FLAGS)
  unset(CMAKE_REQUIRED_LINK_OPTIONS)
  if(TILEMPI_HAVE_ASAN_SAMPLE)
    add_executable(ctx_sample_counter_asan ${_samples}/counter.c)
    _ctx_plain_sample(ctx_sample_counter_asan)
    target_compile_options(ctx_sample_counter_asan PRIVATE -fsanitize=address)
    target_link_options(ctx_sample_counter_asan PRIVATE -fsanitize=address)
    list(APPEND _img_defs SAMPLE_COUNTER_ASAN="$<TARGET_FILE:ctx_sample_counter_asan>")
  else()
    list(APPEND _img_defs SAMPLE_COUNTER_ASAN="")
  endif()
  target_compile_definitions(contexts_program_image_test PRIVATE ${_img_defs})
endif()
if(TARGET contexts_rank_variables_test AND TARGET ctx_sample_environ_pie)
  add_dependencies(contexts_rank_variables_test ctx_sample_environ_pie)
  target_compile_definitions(contexts_rank_variables_test PRIVATE
                             SAMPLE_ENVIRON_PIE="$<TARGET_FILE:ctx_sample_environ_pie>")
endif()
