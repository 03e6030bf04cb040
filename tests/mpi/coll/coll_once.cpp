// Runs one collective once and nothing else, so that the sim transport's run report (cycles,
// link conflicts) describes that collective alone:
//   tilempirun -n 49 --mesh 7x7 --transport sim --compute none --coll alltoall=mesh_rounds
//       coll_once alltoall 8
#include <mpi.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const std::string coll = argc > 1 ? argv[1] : "alltoall";
  const int bytes = argc > 2 ? std::atoi(argv[2]) : 8;
  std::vector<char> s(static_cast<std::size_t>(bytes) * static_cast<std::size_t>(size), static_cast<char>(rank));
  std::vector<char> r(s.size());
  int rc = MPI_SUCCESS;
  if (coll == "alltoall") rc = MPI_Alltoall(s.data(), bytes, MPI_BYTE, r.data(), bytes, MPI_BYTE, MPI_COMM_WORLD);
  else if (coll == "bcast") rc = MPI_Bcast(s.data(), bytes, MPI_BYTE, 0, MPI_COMM_WORLD);
  else if (coll == "barrier") rc = MPI_Barrier(MPI_COMM_WORLD);
  else if (coll == "reduce") rc = MPI_Reduce(s.data(), r.data(), bytes, MPI_BYTE, MPI_BXOR, 0, MPI_COMM_WORLD);
  else if (coll == "allreduce") rc = MPI_Allreduce(s.data(), r.data(), bytes, MPI_BYTE, MPI_BXOR, MPI_COMM_WORLD);
  else if (coll == "gather") rc = MPI_Gather(s.data(), bytes, MPI_BYTE, r.data(), bytes, MPI_BYTE, 0, MPI_COMM_WORLD);
  else if (coll == "scatter") rc = MPI_Scatter(s.data(), bytes, MPI_BYTE, r.data(), bytes, MPI_BYTE, 0, MPI_COMM_WORLD);
  else {
    if (rank == 0) std::fprintf(stderr, "coll_once: unknown collective %s\n", coll.c_str());
    rc = MPI_ERR_ARG;
  }
  if (coll == "alltoall" && rc == MPI_SUCCESS)
    for (int f = 0; f < size; ++f)
      for (int i = 0; i < bytes; ++i)
        if (r[static_cast<std::size_t>(f * bytes + i)] != static_cast<char>(f)) rc = MPI_ERR_OTHER;
  MPI_Finalize();
  return rc == MPI_SUCCESS ? 0 : 1;
}
