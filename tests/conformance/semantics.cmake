# Semantics of handles and objects (issue 33): lifetimes of freed handles, keyvals, communicator
# creation, MPI_BOTTOM, topologies, file info, MPICH's extensions, error reporting.
tilempi_add_conformance_test(NAME freed_handles NP 4 SOURCES ${CMAKE_CURRENT_LIST_DIR}/semantics_freed_handles.c)
tilempi_add_conformance_test(NAME keyval_lifetime NP 4 SOURCES ${CMAKE_CURRENT_LIST_DIR}/semantics_keyval_lifetime.c)
tilempi_add_conformance_test(NAME comm_create_group NP 9 SOURCES ${CMAKE_CURRENT_LIST_DIR}/semantics_comm_create_group.c TIMEOUT 60)
