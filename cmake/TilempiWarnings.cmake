# Warnings for every target of the project; -Werror in CI.
add_compile_options(-Wall -Wextra)
# GCC 12 reports -Wrestrict inside libstdc++'s own string code at -O2/-O3 (GCC bug 105329, a
# false positive: e.g. "(" + std::to_string(x)); it is not about our code, so not an error.
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_GREATER_EQUAL 12
   AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 14)
  add_compile_options($<$<COMPILE_LANGUAGE:CXX>:-Wno-restrict>)
endif()
if(TILEMPI_WERROR)
  add_compile_options(-Werror)
endif()
if(TILEMPI_SANITIZE)
  string(REPLACE "," ";" _san_list "${TILEMPI_SANITIZE}")
  foreach(_san IN LISTS _san_list)
    add_compile_options(-fsanitize=${_san})
    add_link_options(-fsanitize=${_san})
  endforeach()
  add_compile_options(-fno-omit-frame-pointer -fno-sanitize-recover=undefined)
endif()
