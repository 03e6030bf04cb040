# tilempi_registered(<adapters|presets|network_models|routings> <out-var>): the names registered for one
# extension point of the hardware model, in registration order, read from the registration lines
# of its header (one `X(name)` per line; hwmodel/include/tilempi/hwmodel/registry.h). Tests that
# run once per adapter, preset or network model take their list from here, and the registry.*
# tests compare it with what the built programs show, so that a registered entry cannot be
# missing from a list.
#
# tilempi_registered(transports <out-var>): the transport backends built, in the order of
# transport/CMakeLists.txt's list of backends (each one with a <backend>/sources.cmake).
function(tilempi_registered kind out)
  if(kind STREQUAL "transports")
    get_property(_names GLOBAL PROPERTY TILEMPI_TRANSPORTS)
    if(NOT _names)
      message(FATAL_ERROR "tilempi_registered(transports): no transport backend built (transport/CMakeLists.txt)")
    endif()
    set(${out} ${_names} PARENT_SCOPE)
    return()
  elseif(kind STREQUAL "adapters")
    set(_header ${PROJECT_SOURCE_DIR}/hwmodel/adapter/registered_adapters.h)
  elseif(kind STREQUAL "presets")
    set(_header ${PROJECT_SOURCE_DIR}/hwmodel/src/presets/registered_presets.h)
  elseif(kind STREQUAL "network_models")
    set(_header ${PROJECT_SOURCE_DIR}/hwmodel/src/registered_network_models.h)
  elseif(kind STREQUAL "routings")
    set(_header ${PROJECT_SOURCE_DIR}/hwmodel/src/routing/registered_routings.h)
  else()
    message(FATAL_ERROR "tilempi_registered: unknown extension point '${kind}'")
  endif()
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${_header})
  # (Read whole: a line ending in a backslash would escape the list separator of file(STRINGS).)
  file(READ ${_header} _text)
  string(REGEX MATCHALL "\n *X\\([A-Za-z0-9_]+\\)" _lines "${_text}")
  set(_names "")
  foreach(_line IN LISTS _lines)
    string(REGEX REPLACE "^\n *X\\(([A-Za-z0-9_]+)\\)$" "\\1" _name "${_line}")
    list(APPEND _names ${_name})
  endforeach()
  if(NOT _names)
    message(FATAL_ERROR "tilempi_registered(${kind}): no registration line in ${_header}")
  endif()
  set(${out} ${_names} PARENT_SCOPE)
endfunction()
