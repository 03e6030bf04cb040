/* An MPI program built with -fopenmp: each rank sums with an OpenMP loop, then the ranks
 * reduce. With ranks as contexts the simulator runs OpenMP with one thread per rank (a modeled
 * tile core runs one thread) unless the user set OMP_NUM_THREADS; a rank that then starts
 * threads ends the job with a message. Prints "openmp_rank: N ranks, T threads per rank, ok". */
#include <mpi.h>
#include <omp.h>
#include <stdio.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int n = 100000;
  double sum = 0;
#pragma omp parallel for reduction(+ : sum)
  for (int i = 0; i < n; ++i) sum += (double)(i % 7) * (rank + 1);
  double all = 0;
  MPI_Allreduce(&sum, &all, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  double per = 0;
  for (int i = 0; i < n; ++i) per += (double)(i % 7);
  const double expected = per * size * (size + 1) / 2.0;
  const int threads = omp_get_max_threads();
  if (rank == 0)
    printf("openmp_rank: %d ranks, %d threads per rank, %s\n", size, threads, all == expected ? "ok" : "WRONG");
  MPI_Finalize();
  return all == expected ? 0 : 1;
}
