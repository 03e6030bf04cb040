# Defects that MPICH's own test suite found in tilempi (scripts/mpich-testsuite.sh, docs/COVERAGE.md
# "MPICH's test suite"): each gets a program of ours, written from the MPI standard.
tilempi_add_conformance_test(NAME intercomm_ranks NP 5 SOURCES ${CMAKE_CURRENT_LIST_DIR}/outside_intercomm_ranks.c)
tilempi_add_conformance_test(NAME pmpi_handles NP 2 SOURCES ${CMAKE_CURRENT_LIST_DIR}/outside_pmpi_handles.c)
tilempi_add_conformance_test(NAME struct_extent NP 4 SOURCES ${CMAKE_CURRENT_LIST_DIR}/outside_struct_extent.c)
tilempi_add_conformance_test(NAME struct_zero_blocks NP 3 SOURCES ${CMAKE_CURRENT_LIST_DIR}/outside_struct_zero_blocks.c)
tilempi_add_conformance_test(NAME get_elements NP 3 SOURCES ${CMAKE_CURRENT_LIST_DIR}/outside_get_elements.c)
tilempi_add_conformance_test(NAME self_attr_order NP 2 SOURCES ${CMAKE_CURRENT_LIST_DIR}/outside_self_attr_order.c)
tilempi_add_conformance_test(NAME dynamic_adjacent NP 3 SOURCES ${CMAKE_CURRENT_LIST_DIR}/outside_dynamic_adjacent.c)
tilempi_add_conformance_test(NAME dims_create NP 2 SOURCES ${CMAKE_CURRENT_LIST_DIR}/outside_dims_create.c)
tilempi_add_conformance_test(NAME pair_types NP 4 SOURCES ${CMAKE_CURRENT_LIST_DIR}/outside_pair_types.c)
tilempi_add_conformance_test(NAME cancel NP 5 SOURCES ${CMAKE_CURRENT_LIST_DIR}/outside_cancel.c TIMEOUT 60)
tilempi_add_conformance_test(NAME status_error NP 3 SOURCES ${CMAKE_CURRENT_LIST_DIR}/outside_status_error.c)
tilempi_add_conformance_test(NAME file_view_types NP 3 SOURCES ${CMAKE_CURRENT_LIST_DIR}/outside_file_view_types.c)
