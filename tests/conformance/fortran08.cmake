# `use mpi_f08` (issue 40, docs/FORTRAN.md): Fortran 2008 programs on host and sim, and the check
# that every procedure of the module is an exported symbol of libtilempi.

# A Fortran 2008 program: the module's explicit interfaces need no -fallow-argument-mismatch.
function(fortran08_test name np)
  if(NOT TARGET tilempi_f08_module)
    return()
  endif()
  tilempi_add_conformance_test(NAME fortran08.${name} NP ${np}
                               SOURCES ${CMAKE_CURRENT_LIST_DIR}/fortran08_${name}.f90 ${ARGN})
  target_include_directories(conformance_fortran08.${name} PRIVATE ${TILEMPI_FORTRAN_MODULE_DIR})
  target_compile_options(conformance_fortran08.${name} PRIVATE
                         "$<$<COMPILE_LANGUAGE:Fortran>:-std=f2018;-Wall;-Werror;-Wno-compare-reals>")
  add_dependencies(conformance_fortran08.${name} tilempi_f08_module)
endfunction()

fortran08_test(p2p 4)
fortran08_test(coll 5)
fortran08_test(types 3)
fortran08_test(comm 4)
fortran08_test(onesided_io 3)
fortran08_test(sizeof 3)
# The profiling interface: a C tool replaces two entry points (the CFI header of the module's gfortran).
fortran08_test(pmpi 3 ${CMAKE_CURRENT_LIST_DIR}/fortran08_pmpi_tool.c)
if(TARGET conformance_fortran08.pmpi)
  execute_process(COMMAND ${CMAKE_Fortran_COMPILER} -print-file-name=include
                  OUTPUT_VARIABLE _cfi_dir OUTPUT_STRIP_TRAILING_WHITESPACE)
  set_source_files_properties(${CMAKE_CURRENT_LIST_DIR}/fortran08_pmpi_tool.c PROPERTIES COMPILE_OPTIONS "-isystem;${_cfi_dir}")
endif()


# Every procedure the module declares resolves to a symbol libtilempi exports (shared and static):
# the entry point PMPI_x and its weak MPI_x, and the module's own procedures.
if(TARGET tilempi_f08_module)
  find_package(Python3 COMPONENTS Interpreter)
  add_test(NAME fortran08.symbols
           COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/mpi/fortran/mpi_f08_gen.py --check-symbols
                   ${PROJECT_BINARY_DIR}/mpi/f08/mpi_f08.f90 $<TARGET_FILE:tilempi> $<TARGET_FILE:tilempi_static>)
  set_tests_properties(fortran08.symbols PROPERTIES LABELS "conformance;fortran")
endif()

# The acceptance program: the 3-D stencil with `use mpi_f08`, built with tilempif90 as users build
# it (counted compute), on 49 sim ranks (contexts), on 4 host ranks, and its `use mpi` twin on both:
# the residuals and the checksum agree line for line.
if(TARGET tilempi_f08_module AND TARGET tilempirun AND DEFINED TILEMPI_WRAPPER_BUILD_DIR)
  set(_dir ${CMAKE_CURRENT_BINARY_DIR}/fortran08_stencil3d)
  file(MAKE_DIRECTORY ${_dir})
  foreach(_v stencil3d stencil3d_mpi)
    add_test(NAME fortran08.${_v}.compile
             COMMAND ${TILEMPI_WRAPPER_BUILD_DIR}/tilempif90 -O2 -w
                     ${CMAKE_CURRENT_LIST_DIR}/fortran08_${_v}.f90 -o ${_dir}/${_v})
    set_tests_properties(fortran08.${_v}.compile PROPERTIES FIXTURES_SETUP fortran08_${_v} WORKING_DIRECTORY ${_dir}
                         LABELS "conformance;fortran" TIMEOUT 120)
  endforeach()
  set(_script [=[
set -e
run=$1; dir=$2; sims=$3
"$run" -n "$sims" --transport sim "$dir/stencil3d" > "$dir/f08.sim.txt"
"$run" -n 4 --transport host "$dir/stencil3d" > "$dir/f08.host.txt"
"$run" -n "$sims" --transport sim "$dir/stencil3d_mpi" > "$dir/mpi.sim.txt"
"$run" -n 4 --transport host "$dir/stencil3d_mpi" > "$dir/mpi.host.txt"
test "$(grep -c '^residual' "$dir/f08.sim.txt")" -eq 4 && grep -q '^checksum' "$dir/f08.sim.txt"
for other in f08.host mpi.sim mpi.host; do
  cmp "$dir/f08.sim.txt" "$dir/$other.txt" || { echo "use mpi_f08 on $sims sim ranks and $other differ"; exit 1; }
done
cat "$dir/f08.sim.txt"
echo "fortran08.stencil3d: the same result"
]=])
  add_test(NAME fortran08.stencil3d COMMAND /bin/sh -c "${_script}" sh $<TARGET_FILE:tilempirun> ${_dir} 49)
  set_tests_properties(fortran08.stencil3d PROPERTIES FIXTURES_REQUIRED "fortran08_stencil3d;fortran08_stencil3d_mpi"
                       LABELS "conformance;fortran;sim" TIMEOUT 300 PASS_REGULAR_EXPRESSION "the same result")
endif()

# tilempif90 with a gfortran of another major version (TILEMPI_FC): a source that uses the mpi
# modules is refused in one line, before the compiler runs; one that only includes mpif.h is not.
if(TARGET tilempi_f08_module AND DEFINED TILEMPI_WRAPPER_BUILD_DIR)
  set(_fake ${CMAKE_CURRENT_BINARY_DIR}/fortran08_other_gfortran)
  file(WRITE ${_fake} "#!/bin/sh\n# A stand-in for a gfortran of another version: says so, compiles nothing.\n"
                      "case $1 in -dumpversion) echo 99 ;; *) echo compiled ;; esac\n")
  file(CHMOD ${_fake} PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
  set(_script [=[
wrapper=$1; fake=$2; src=$3
out=$(TILEMPI_FC=$fake "$wrapper" "$src/fortran08_p2p.f90" -o /dev/null 2>&1) && { echo "not refused: $out"; exit 1; }
[ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ] || { echo "more than one line: $out"; exit 1; }
printf '%s\n' "$out" | grep -q "cannot read them" || { echo "unexpected: $out"; exit 1; }
other=$(TILEMPI_FC=$fake "$wrapper" "$src/../mpi/fortran/p2p.f" -o /dev/null 2>&1) || { echo "mpif.h refused: $other"; exit 1; }
echo "refused: $out"
]=])
  add_test(NAME fortran08.wrapper_other_gfortran
           COMMAND /bin/sh -c "${_script}" sh ${TILEMPI_WRAPPER_BUILD_DIR}/tilempif90 ${_fake} ${CMAKE_CURRENT_LIST_DIR})
  set_tests_properties(fortran08.wrapper_other_gfortran PROPERTIES LABELS "conformance;fortran" TIMEOUT 60
                       PASS_REGULAR_EXPRESSION "^refused: ")
endif()

# The status conversions of mpi.h (C), with or without a Fortran compiler.
tilempi_add_conformance_test(NAME fortran08.status_c NP 3 SOURCES ${CMAKE_CURRENT_LIST_DIR}/fortran08_status_c.c)
