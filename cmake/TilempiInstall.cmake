# tilempi_install_programs(TARGET...): installs programs into bin/, each with the RUNPATH
# $ORIGIN/<bin-to-lib> so that it finds the installed libtilempi beside it without
# LD_LIBRARY_PATH, wherever the prefix is moved. Every installed program goes through here
# (tests/install/install_check.sh runs each one from a prefix with LD_LIBRARY_PATH unset).
file(RELATIVE_PATH TILEMPI_BIN_TO_LIBDIR ${CMAKE_INSTALL_FULL_BINDIR} ${CMAKE_INSTALL_FULL_LIBDIR})

function(tilempi_install_programs)
  foreach(target IN LISTS ARGN)
    set_target_properties(${target} PROPERTIES INSTALL_RPATH "$ORIGIN/${TILEMPI_BIN_TO_LIBDIR}")
  endforeach()
  install(TARGETS ${ARGN} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endfunction()
