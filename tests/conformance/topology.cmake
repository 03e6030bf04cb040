# Process topologies (issue 41): graph and distributed-graph topologies, the neighbourhood
# collectives on every kind, and reorder (placement on the mesh). Each function in C and Fortran
# with its error classes under MPI_ERRORS_RETURN.

# Graph topologies, MPI_Graph_map and MPI_Cart_map.
tilempi_add_conformance_test(NAME topology.graph NP 6 SOURCES ${CMAKE_CURRENT_LIST_DIR}/topology_graph.c)
