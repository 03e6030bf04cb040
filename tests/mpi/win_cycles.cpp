// What one-sided costs against two-sided, in the clock of the transport (cycles on the sim):
// for each size, rank 0 moves the bytes to rank 1
//   send/recv  one way: rank 0's MPI_Send starts .. rank 1's MPI_Recv returns (one global clock)
//   put        MPI_Put + MPI_Win_flush at rank 0: until the data is in rank 1's window and rank 0
//              knows it (a lock with MPI_MODE_NOCHECK: no lock messages)
//   get        MPI_Get + MPI_Win_flush at rank 0: until rank 1's bytes are in rank 0's buffer
// and prints one line per size: bytes, send/recv, put, get (in ticks of MPI_Wtick).
// scripts/onesided_cycles.sh runs it on the adapters and writes docs/ONESIDED.md's table;
// the sim.onesided_cycles test checks the relations the page explains.
// Usage: win_cycles SIZE...
#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

#include "check.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  CHECK(size >= 2);
  std::vector<long> sizes;
  for (int i = 1; i < argc; ++i) sizes.push_back(std::atol(argv[i]));
  long most = 8;
  for (long s : sizes) most = s > most ? s : most;
  std::vector<char> buf(static_cast<std::size_t>(most), 1), win_mem(static_cast<std::size_t>(most), 2);
  MPI_Win win;
  MPI_Win_create(win_mem.data(), most, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  const double tick = MPI_Wtick();
  for (long s : sizes) {
    const int n = static_cast<int>(s);
    double sendrecv = 0, put = 0, get = 0;
    for (int round = 0; round < 2; ++round) {  // the second round is the one reported
      MPI_Barrier(MPI_COMM_WORLD);
      if (rank == 0) {
        const double t0 = MPI_Wtime();
        MPI_Send(buf.data(), n, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
        double t1 = 0;
        MPI_Recv(&t1, 1, MPI_DOUBLE, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        sendrecv = t1 - t0;
      } else if (rank == 1) {
        MPI_Recv(buf.data(), n, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        const double t1 = MPI_Wtime();
        MPI_Send(&t1, 1, MPI_DOUBLE, 0, 1, MPI_COMM_WORLD);
      }
      MPI_Barrier(MPI_COMM_WORLD);
      if (rank == 0) {
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, MPI_MODE_NOCHECK, win);
        double t0 = MPI_Wtime();
        MPI_Put(buf.data(), n, MPI_BYTE, 1, 0, n, MPI_BYTE, win);
        MPI_Win_flush(1, win);
        put = MPI_Wtime() - t0;
        t0 = MPI_Wtime();
        MPI_Get(buf.data(), n, MPI_BYTE, 1, 0, n, MPI_BYTE, win);
        MPI_Win_flush(1, win);
        get = MPI_Wtime() - t0;
        MPI_Win_unlock(1, win);
      }
    }
    if (rank == 0) {
      std::printf("%ld %.0f %.0f %.0f\n", s, sendrecv / tick, put / tick, get / tick);
      std::fflush(stdout);
    }
  }
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Win_free(&win);
  MPI_Finalize();
  return 0;
}
