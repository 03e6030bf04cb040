# Install a CMake package (find_package(tilempi)) and a pkg-config file.
include(CMakePackageConfigHelpers)
if(TARGET tilempi)
  install(EXPORT tilempiTargets NAMESPACE tilempi:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/tilempi)
  configure_package_config_file(cmake/tilempiConfig.cmake.in
    ${CMAKE_CURRENT_BINARY_DIR}/tilempiConfig.cmake
    INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/tilempi)
  write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/tilempiConfigVersion.cmake
    COMPATIBILITY SameMajorVersion)
  install(FILES ${CMAKE_CURRENT_BINARY_DIR}/tilempiConfig.cmake
                ${CMAKE_CURRENT_BINARY_DIR}/tilempiConfigVersion.cmake
          DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/tilempi)
  file(RELATIVE_PATH TILEMPI_PC_UP "/p/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/p")
  configure_file(cmake/tilempi.pc.in ${CMAKE_CURRENT_BINARY_DIR}/tilempi.pc @ONLY)
  install(FILES ${CMAKE_CURRENT_BINARY_DIR}/tilempi.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
  if(TARGET tilempi-opcount)
    configure_file(cmake/tilempi-opcount.pc.in ${CMAKE_CURRENT_BINARY_DIR}/tilempi-opcount.pc @ONLY)
    install(FILES ${CMAKE_CURRENT_BINARY_DIR}/tilempi-opcount.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
  endif()
endif()
