// tilempi-bench-mpi: the [Yagna 2013] collective microbenchmark (§4.1), one collective and size per run.
//   tilempirun -n 16 --transport sim --coll alltoall=mesh_rounds tilempi-bench-mpi alltoall 8 20 1
// With TRIALS 0 it calls the collective exactly once with no barrier and prints nothing: the sim
// run report then counts the link conflicts of that one call alone.
// Every trial: barrier, start the timer, one collective, stop the timer. Nothing else touches the
// network between MPI_Init and MPI_Finalize, so a sim run report describes exactly the trials
// (and their separating barriers). Each rank prints its own per-trial times (MPI_Wtime: virtual
// seconds on the sim transport, wall seconds on host) on lines starting with "tilempi-bench:";
// the sweep driver takes the per-trial maximum over ranks, and the span from the first start to the
// last end (MPI_Wtime is one clock for the whole job on both transports).
#include <mpi.h>
#include <tilempi_ext.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

constexpr const char* kCollectives[] = {"alltoall", "barrier", "bcast",     "reduce",
                                        "allreduce", "allgather", "gather", "scatter"};

bool known(const std::string& c) {
  for (const char* k : kCollectives)
    if (c == k) return true;
  return false;
}

bool parse_count(const char* text, long& out, long lo, long hi) {
  char* end = nullptr;
  const long v = std::strtol(text, &end, 10);
  if (!end || *end != '\0' || end == text || v < lo || v > hi) return false;
  out = v;
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  long bytes = 8, trials = 10, warmup = 1;
  const std::string coll = argc > 1 ? argv[1] : "";
  if (argc < 2 || argc > 5 || !known(coll) || (argc > 2 && !parse_count(argv[2], bytes, 0, 1L << 30)) ||
      (argc > 3 && !parse_count(argv[3], trials, 0, 100000)) ||
      (argc > 4 && !parse_count(argv[4], warmup, 0, 100000))) {
    if (rank == 0) {
      std::fprintf(stderr,
                   "usage: tilempi-bench-mpi COLLECTIVE [BYTES [TRIALS [WARMUP]]]\n"
                   "  COLLECTIVE: alltoall barrier bcast reduce allreduce allgather gather scatter\n"
                   "  BYTES: per rank pair (alltoall, allgather, gather, scatter) or per rank (default 8)\n"
                   "  TRIALS: timed repetitions (default 10; 0: one call, no barrier, no output)\n"
                   "  WARMUP: untimed repetitions before them (default 1)\n");
      if (argc >= 2 && !known(coll)) std::fprintf(stderr, "tilempi-bench-mpi: unknown collective '%s'\n", coll.c_str());
    }
    MPI_Finalize();
    return 2;
  }

  const std::size_t n = static_cast<std::size_t>(bytes);
  const std::size_t all = n * static_cast<std::size_t>(size);
  std::vector<char> sbuf(std::max<std::size_t>(all, 1), static_cast<char>(rank + 1));
  std::vector<char> rbuf(std::max<std::size_t>(all, 1));
  // Reductions on ints (sum) when the size allows, else on bytes (xor).
  const bool ints = n % sizeof(int) == 0;
  const MPI_Datatype rtype = ints ? MPI_INT : MPI_BYTE;
  const int rcount = static_cast<int>(ints ? n / sizeof(int) : n);
  const MPI_Op rop = ints ? MPI_SUM : MPI_BXOR;
  const int count = static_cast<int>(n);

  auto once = [&]() -> int {
    if (coll == "alltoall") return MPI_Alltoall(sbuf.data(), count, MPI_BYTE, rbuf.data(), count, MPI_BYTE, MPI_COMM_WORLD);
    if (coll == "barrier") return MPI_Barrier(MPI_COMM_WORLD);
    if (coll == "bcast") return MPI_Bcast(sbuf.data(), count, MPI_BYTE, 0, MPI_COMM_WORLD);
    if (coll == "reduce") return MPI_Reduce(sbuf.data(), rbuf.data(), rcount, rtype, rop, 0, MPI_COMM_WORLD);
    if (coll == "allreduce") return MPI_Allreduce(sbuf.data(), rbuf.data(), rcount, rtype, rop, MPI_COMM_WORLD);
    if (coll == "allgather") return MPI_Allgather(sbuf.data(), count, MPI_BYTE, rbuf.data(), count, MPI_BYTE, MPI_COMM_WORLD);
    if (coll == "gather") return MPI_Gather(sbuf.data(), count, MPI_BYTE, rbuf.data(), count, MPI_BYTE, 0, MPI_COMM_WORLD);
    return MPI_Scatter(sbuf.data(), count, MPI_BYTE, rbuf.data(), count, MPI_BYTE, 0, MPI_COMM_WORLD);
  };

  if (trials == 0) {
    const int rc = once();
    MPI_Finalize();
    return rc == MPI_SUCCESS ? 0 : 1;
  }
  for (long w = 0; w < warmup; ++w) {
    MPI_Barrier(MPI_COMM_WORLD);
    once();
  }
  std::vector<double> t(static_cast<std::size_t>(trials)), start(t.size());
  for (long i = 0; i < trials; ++i) {
    MPI_Barrier(MPI_COMM_WORLD);
    const double t0 = MPI_Wtime();
    once();
    t[static_cast<std::size_t>(i)] = MPI_Wtime() - t0;
    start[static_cast<std::size_t>(i)] = t0;
  }

  char alg[128] = "-", transport[64] = "-";
  const char* key = coll.c_str();
  if (TILEMPIX_Coll_selected(MPI_COMM_WORLD, key, alg, sizeof alg) != MPI_SUCCESS) std::strcpy(alg, "-");
  TILEMPIX_Transport_name(transport, sizeof transport);
  int w = 0, h = 0, x = 0, y = 0;
  TILEMPIX_Mesh_shape(&w, &h);
  TILEMPIX_Rank_coords(MPI_COMM_WORLD, rank, &x, &y);
  // One line per chunk of trials, each well below the pipe's atomic write size.
  constexpr long kChunk = 40;
  for (long first = 0; first < trials; first += kChunk) {
    std::string line = "tilempi-bench: rank=" + std::to_string(rank) + " size=" + std::to_string(size) +
                       " alg=" + alg + " transport=" + transport + " mesh=" + std::to_string(w) + "x" +
                       std::to_string(h) + " at=" + std::to_string(x) + "," + std::to_string(y) +
                       " first=" + std::to_string(first) + " t=";
    char buf[32];
    for (long i = first; i < std::min(trials, first + kChunk); ++i) {
      std::snprintf(buf, sizeof buf, "%s%.9e", i == first ? "" : ",", t[static_cast<std::size_t>(i)]);
      line += buf;
    }
    // Start times on the job's common clock (virtual on sim, CLOCK_MONOTONIC-like on host): the
    // driver also reports each trial's span, from the first rank's start to the last rank's end.
    line += " s=";
    for (long i = first; i < std::min(trials, first + kChunk); ++i) {
      std::snprintf(buf, sizeof buf, "%s%.17g", i == first ? "" : ",", start[static_cast<std::size_t>(i)]);
      line += buf;
    }
    line += '\n';
    std::fwrite(line.data(), 1, line.size(), stdout);
    std::fflush(stdout);
  }
  MPI_Finalize();
  return 0;
}
