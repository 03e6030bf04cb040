# Process topologies (issue 41): graph and distributed-graph topologies, the neighbourhood
# collectives on every kind, and reorder (placement on the mesh). Each function in C and Fortran
# with its error classes under MPI_ERRORS_RETURN.

# Graph topologies, MPI_Graph_map and MPI_Cart_map.
tilempi_add_conformance_test(NAME topology.graph NP 6 SOURCES ${CMAKE_CURRENT_LIST_DIR}/topology_graph.c)

# Distributed-graph topologies.
tilempi_add_conformance_test(NAME topology.dist_graph NP 5 SOURCES ${CMAKE_CURRENT_LIST_DIR}/topology_dist_graph.c)

# The neighbourhood collectives on every topology kind, with each registered algorithm (the
# default, linear, and mesh_rounds), on a grid whose rank count is neither square nor prime.
tilempi_add_conformance_test(NAME topology.neighbor NP 6 SOURCES ${CMAKE_CURRENT_LIST_DIR}/topology_neighbor.c)
set(_topology_mesh_rounds neighbor_allgather=mesh_rounds,neighbor_allgatherv=mesh_rounds,neighbor_alltoall=mesh_rounds,neighbor_alltoallv=mesh_rounds,neighbor_alltoallw=mesh_rounds)
tilempi_add_conformance_test(NAME topology.neighbor_mesh_rounds NP 6 SOURCES ${CMAKE_CURRENT_LIST_DIR}/topology_neighbor.c
                             LAUNCHER_ARGS --coll ${_topology_mesh_rounds})
tilempi_add_conformance_test(NAME topology.neighbor_two NP 2 SOURCES ${CMAKE_CURRENT_LIST_DIR}/topology_neighbor.c)
tilempi_add_conformance_test(NAME topology.neighbor_two_mesh_rounds NP 2 SOURCES ${CMAKE_CURRENT_LIST_DIR}/topology_neighbor.c
                             LAUNCHER_ARGS --coll ${_topology_mesh_rounds})

# The contention checker on the neighbourhood schedule of a 2-D grid: placed by reorder from
# scattered ranks, mesh_rounds needs one round per direction (the bound of the injection links)
# and no link is used twice in a round; the linear exchange of the same grid without reorder
# shares links (what the checker would report of a schedule that is not contention-free).
if(TARGET tilempi-coll-check)
  add_test(NAME topology.check.cart_reorder_mesh_rounds
           COMMAND tilempi-coll-check neighbor_alltoall=mesh_rounds --mesh 7x7 --cart 7x7 --placement scattered:3
                   --reorder --summary --fail-on-conflict)
  set_tests_properties(topology.check.cart_reorder_mesh_rounds PROPERTIES LABELS conformance
    PASS_REGULAR_EXPRESSION "rounds: 4\n.*round lower bound: 4\n.*link conflicts: 0\nmax link load: 1\n")
  add_test(NAME topology.check.cart_periodic_reorder_mesh_rounds
           COMMAND tilempi-coll-check neighbor_allgather=mesh_rounds --mesh 8x8 --cart 8x8 --periodic
                   --placement scattered:11 --reorder --summary --fail-on-conflict)
  set_tests_properties(topology.check.cart_periodic_reorder_mesh_rounds PROPERTIES LABELS conformance)
  add_test(NAME topology.check.scattered_linear_conflicts
           COMMAND tilempi-coll-check neighbor_alltoall=linear --mesh 7x7 --cart 7x7 --placement scattered:3 --json --summary)
  set_tests_properties(topology.check.scattered_linear_conflicts PROPERTIES LABELS conformance
    PASS_REGULAR_EXPRESSION "\"conflict_count\":[1-9]")
endif()

# reorder=1: 16 ranks scattered over the 4x4 block of tiles at the chip's corner (tile ids of the
# 8x8 tilepro64 chip, the default preset), which a 4x4 grid placed by reorder fills with every
# neighbour one hop away.
tilempi_add_conformance_test(NAME topology.reorder NP 16 SOURCES ${CMAKE_CURRENT_LIST_DIR}/topology_reorder.c
                             TRANSPORTS host)
if(TILEMPI_HAVE_SIM)
  tilempi_add_conformance_test(NAME topology.reorder_scattered NP 16 SOURCES ${CMAKE_CURRENT_LIST_DIR}/topology_reorder.c
                               TRANSPORTS sim LAUNCHER_ARGS --set mapping=list:17,2,24,9,0,27,10,19,3,16,25,1,26,8,18,11)
endif()

# The same from Fortran (`use mpi`; functions_fortran_test is functions.cmake's).
functions_fortran_test(topology.fortran topology_f.f90)

# The halo exchange of the experiment (scripts/topology-halo.sh), as a test of its data: 5- and
# 27-point stencils, point-to-point and MPI_Neighbor_alltoall, with reorder.
foreach(_halo "5 p2p reorder 1" "5 neighbor reorder 1" "27 p2p reorder 1" "27 neighbor reorder 1")
  string(REPLACE " " ";" _args "${_halo}")
  string(REPLACE " " "_" _name "${_halo}")
  tilempi_add_conformance_test(NAME topology.halo.${_name} NP 8 SOURCES ${CMAKE_CURRENT_LIST_DIR}/topology_halo.c
                               ARGS ${_args} iterations 3)
endforeach()

# And from `use mpi_f08` (the module is generated from mpi.h; fortran08.cmake builds its tests so).
if(TARGET tilempi_f08_module)
  tilempi_add_conformance_test(NAME topology.fortran08 NP 4 SOURCES ${CMAKE_CURRENT_LIST_DIR}/topology_f08.f90)
  target_include_directories(conformance_topology.fortran08 PRIVATE ${TILEMPI_FORTRAN_MODULE_DIR})
  target_compile_options(conformance_topology.fortran08 PRIVATE
                         "$<$<COMPILE_LANGUAGE:Fortran>:-std=f2018;-Wall;-Werror;-Wno-compare-reals>")
  add_dependencies(conformance_topology.fortran08 tilempi_f08_module)
endif()
