// tilempi-demo: what an MPI code costs on the mesh it runs on. Prints the rank grid, a
// ping-pong to the nearest and the farthest tile, and the time of the main collectives with
// the algorithms selected for this communicator. On the sim transport all times are virtual.
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <time.h>

namespace {

int rank, size;

double pingpong(int a, int b, int bytes, int reps) {
  std::vector<char> buf(bytes, 1);
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  for (int i = 0; i < reps; ++i) {
    if (rank == a) {
      MPI_Send(buf.data(), bytes, MPI_CHAR, b, 0, MPI_COMM_WORLD);
      MPI_Recv(buf.data(), bytes, MPI_CHAR, b, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (rank == b) {
      MPI_Recv(buf.data(), bytes, MPI_CHAR, a, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(buf.data(), bytes, MPI_CHAR, a, 0, MPI_COMM_WORLD);
    }
  }
  double t = (MPI_Wtime() - t0) / reps / 2;  // one way
  MPI_Bcast(&t, 1, MPI_DOUBLE, a, MPI_COMM_WORLD);
  return t;
}

// Whether every rank reads one clock (the sim's virtual time): MPI_WTIME_IS_GLOBAL.
bool global_clock() {
  int* flag = nullptr;
  int found = 0;
  MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_WTIME_IS_GLOBAL, &flag, &found);
  return found && *flag;
}

// An instant every rank can still reach, agreed on by all: after two allreduces of the clock,
// the latest exit of the first (every rank has passed it) plus a margin of four times that
// allreduce's own span for the second one's exit skew.
double common_start() {
  double t = MPI_Wtime(), entered, left;
  MPI_Allreduce(&t, &entered, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  t = MPI_Wtime();
  MPI_Allreduce(&t, &left, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return left + 4 * (left - entered) + 1e-6;
}

// Sleep until `when` on the clock of MPI_Wtime (on the sim a sleep moves the rank's virtual
// clock and takes no wall time).
void sleep_until(double when) {
  const double wait = when - MPI_Wtime();
  if (wait <= 0) return;
  timespec ts{static_cast<time_t>(wait), static_cast<long>((wait - static_cast<double>(static_cast<time_t>(wait))) * 1e9)};
  nanosleep(&ts, nullptr);
}

// Mean time of one collective over `reps`. With one clock for all ranks: from a common start to
// the last rank's return (every rank starts at the same instant). A barrier alone does not give
// that: ranks leave a tree barrier at different times, so a reduce's root that leaves last finds
// its data waiting and its own time looks shorter than one message. Without one clock (host):
// the slowest rank's own time after a barrier, as [Yagna 2013] 4.1's microbenchmark.
template <typename F>
double timed(F&& collective, int reps) {
  static const bool one_clock = global_clock();
  double sum = 0;
  for (int i = 0; i < reps; ++i) {
    MPI_Barrier(MPI_COMM_WORLD);
    double t0;
    if (one_clock) {
      t0 = common_start();
      sleep_until(t0);
    } else {
      t0 = MPI_Wtime();
    }
    collective();
    double t = MPI_Wtime() - t0, slowest;
    MPI_Allreduce(&t, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    sum += slowest;
  }
  return sum / reps;
}

void row(const char* what, const char* collective, double seconds) {
  char algo[64] = "";
  if (collective) TILEMPIX_Coll_selected(MPI_COMM_WORLD, collective, algo, sizeof algo);
  if (rank == 0) std::printf("  %-34s %-18s %12.2f us\n", what, algo, seconds * 1e6);
}

}  // namespace

int main(int argc, char** argv) {
  // The one argument: the message size. Anything else is refused before MPI starts (as every
  // tool does: status 2, the argument named).
  int bytes = 64;
  if (argc > 2 || (argc == 2 && (std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0))) {
    std::printf("Usage: tilempirun [-n N] [--transport sim] tilempi-demo [BYTES]\n"
                "Prints the rank grid, a ping-pong to the nearest and farthest tile and the time of the main\n"
                "collectives with BYTES-byte messages (default 64).\n");
    return argc > 2 ? 2 : 0;
  }
  if (argc == 2) {
    char* end = nullptr;
    const long v = std::strtol(argv[1], &end, 10);
    if (*argv[1] == '\0' || *end != '\0' || v < 0 || v > (1L << 30)) {
      std::fprintf(stderr, "tilempi-demo: %s: expected a message size in bytes (0 to 1073741824); see --help\n", argv[1]);
      return 2;
    }
    bytes = static_cast<int>(v);
  }
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int reps = 5;

  char transport[32];
  TILEMPIX_Transport_name(transport, sizeof transport);
  int w, h;
  TILEMPIX_Mesh_shape(&w, &h);
  if (rank == 0) {
    std::printf("tilempi-demo: %d ranks on a %dx%d mesh, transport %s, %d-byte messages\n", size, w, h, transport,
                bytes);
    std::printf("  rank grid (row-major, rank at tile x,y):\n");
    for (int y = 0; y < h; ++y) {
      std::printf("   ");
      for (int x = 0; x < w && y * w + x < size; ++x) std::printf(" %3d", y * w + x);
      std::printf("\n");
    }
    std::printf("  %-34s %-18s %15s\n", "measurement", "algorithm", "time");
  }

  // The farthest rank from 0 by hop count.
  int far = 0, best = -1;
  for (int r = 0; r < size; ++r) {
    int x, y;
    TILEMPIX_Rank_coords(MPI_COMM_WORLD, r, &x, &y);
    if (x + y > best) best = x + y, far = r;
  }
  if (size > 1) {
    row("ping-pong 0 <-> 1 (one way)", nullptr, pingpong(0, 1, bytes, reps));
    char what[64];
    std::snprintf(what, sizeof what, "ping-pong 0 <-> %d, %d hops", far, best);
    row(what, nullptr, pingpong(0, far, bytes, reps));
  }

  std::vector<char> sbuf(static_cast<size_t>(bytes) * size, 1), rbuf(sbuf.size());
  row("barrier", "barrier", timed([] { MPI_Barrier(MPI_COMM_WORLD); }, reps));
  row("bcast", "bcast", timed([&] { MPI_Bcast(sbuf.data(), bytes, MPI_CHAR, 0, MPI_COMM_WORLD); }, reps));
  int count = std::max(1, bytes / 8);
  std::vector<double> x(count, rank), y(count);
  row("reduce (sum of doubles)", "reduce",
      timed([&] { MPI_Reduce(x.data(), y.data(), count, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD); }, reps));
  row("allreduce (sum of doubles)", "allreduce",
      timed([&] { MPI_Allreduce(x.data(), y.data(), count, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD); }, reps));
  row("alltoall", "alltoall",
      timed([&] { MPI_Alltoall(sbuf.data(), bytes, MPI_CHAR, rbuf.data(), bytes, MPI_CHAR, MPI_COMM_WORLD); }, reps));

  // Check the allreduce result, so the demo is also a smoke test.
  double expect = 0.5 * size * (size - 1);
  int ok = y[0] == expect, all;
  MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
  if (rank == 0) std::printf("  result check: %s\n", all ? "ok" : "WRONG");
  MPI_Finalize();
  return all ? 0 : 1;
}
