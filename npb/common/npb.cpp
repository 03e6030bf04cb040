// Shared helpers of tilempi's NPB kernels: options, initialisation, report.
#include "npb.hpp"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#ifdef _OPENMP
#include <omp.h>
#endif

namespace npb {

namespace {

bool parse_int(const char* s, int* out) {
  if (!s || !*s) return false;
  char* end = nullptr;
  long v = std::strtol(s, &end, 10);
  if (*end != '\0' || v < 1 || v > 4096) return false;
  *out = int(v);
  return true;
}

bool parse_class(const char* s, char* out) {
  if (!s || std::strlen(s) != 1) return false;
  char c = s[0];
  if (c >= 'a' && c <= 'z') c = char(c - 'a' + 'A');
  *out = c;
  return true;
}

}  // namespace

Options parse_options(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const char* a = argv[i];
    const char* val = nullptr;
    auto takes_value = [&](const char* shortopt, const char* longopt) -> bool {
      size_t ll = std::strlen(longopt);
      if (std::strcmp(a, shortopt) == 0 || std::strcmp(a, longopt) == 0) {
        if (i + 1 >= argc) {
          o.error = std::string("option ") + a + " needs a value";
          return true;
        }
        val = argv[++i];
        return true;
      }
      if (std::strncmp(a, longopt, ll) == 0 && a[ll] == '=') {
        val = a + ll + 1;
        return true;
      }
      return false;
    };
    if (std::strcmp(a, "-h") == 0 || std::strcmp(a, "--help") == 0) {
      o.help = true;
    } else if (std::strcmp(a, "--weak") == 0) {
      o.weak = true;
    } else if (takes_value("-c", "--class")) {
      if (!o.error.empty()) break;
      if (!parse_class(val, &o.cls)) {
        o.error = std::string("bad class '") + val + "'";
        break;
      }
    } else if (takes_value("-t", "--threads")) {
      if (!o.error.empty()) break;
      if (!parse_int(val, &o.threads)) {
        o.error = std::string("bad thread count '") + val + "'";
        break;
      }
    } else {
      o.error = std::string("unknown argument '") + a + "'";
      break;
    }
  }
  return o;
}

void print_usage(const char* prog, const char* name, const char* extra) {
  std::printf(
      "usage: %s [-c|--class S|W|A|B] [--weak] [-t|--threads N] [-h|--help]\n"
      "NAS Parallel Benchmark %s for tilempi (any MPI library).\n"
      "  -c, --class X    problem class (default S)\n"
      "  --weak           weak scaling: fixed work per rank (verification not applicable)\n"
      "  -t, --threads N  OpenMP threads per rank for the compute loops (default 1;\n"
      "                   N > 1 initialises MPI with MPI_THREAD_FUNNELED)\n"
      "  -h, --help       this text\n"
      "%s"
      "Exit status: 0 verified (or not applicable), 1 verification failed,\n"
      "2 bad option, class or rank count.\n",
      prog, name, extra);
}

void init(int* argc, char*** argv, const Options& o) {
  if (o.threads > 1) {
    int provided = MPI_THREAD_SINGLE;
    MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided);
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (provided < MPI_THREAD_FUNNELED && rank == 0)
      std::printf(" Warning: MPI provides thread level %d < MPI_THREAD_FUNNELED\n", provided);
  } else {
    MPI_Init(argc, argv);
  }
#ifdef _OPENMP
  omp_set_num_threads(o.threads);
#else
  if (o.threads > 1) {
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) std::printf(" Warning: built without OpenMP; --threads %d runs 1 thread per rank\n", o.threads);
  }
#endif
}

int threads_in_use() {
#ifdef _OPENMP
  return omp_get_max_threads();
#else
  return 1;
#endif
}

bool is_power_of_two(long v) { return v > 0 && (v & (v - 1)) == 0; }

int ilog2(long v) {
  int l = 0;
  while (v > 1) {
    v >>= 1;
    ++l;
  }
  return l;
}

Start start(int* argc, char*** argv, const char* name, const char* extra) {
  Start st;
  st.opt = parse_options(*argc, *argv);
  init(argc, argv, st.opt);
  MPI_Comm_rank(MPI_COMM_WORLD, &st.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &st.nprocs);
  if (st.opt.help) {
    if (st.rank == 0) print_usage((*argv)[0], name, extra);
    MPI_Finalize();
    st.done = true;
  } else if (!st.opt.error.empty()) {
    std::string prog = "npb-" + std::string(name);
    for (char& ch : prog) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    st.exit_code = usage_error(prog + ": " + st.opt.error + " (see --help)");
    st.done = true;
  }
  return st;
}

int unsupported_class(const char* name, char cls) {
  return usage_error(std::string(name) + ": class " + cls + " is not supported (S, W, A, B)");
}

int finish(int code) {
  MPI_Bcast(&code, 1, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  return code;
}

int usage_error(const std::string& msg) {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    std::fprintf(stderr, "%s\n", msg.c_str());
    std::fflush(stderr);
  }
  // Nobody exits before rank 0 has written the reason: a launcher may end
  // the job as soon as the first rank exits with an error.
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return kExitUsage;
}

void print_report(const Report& r) {
  const char* verdict = r.verdict == Verdict::Successful     ? "SUCCESSFUL"
                        : r.verdict == Verdict::Unsuccessful ? "UNSUCCESSFUL"
                                                             : "NOT APPLICABLE";
  std::printf("\n\n %s Benchmark Completed.\n", r.name);
  std::printf(" Class           = %24c\n", r.cls);
  std::printf(" Size            = %24s\n", r.size.c_str());
  std::printf(" Iterations      = %24d\n", r.iterations);
  std::printf(" Time in seconds = %24.6f\n", r.seconds);
  std::printf(" Total processes = %24d\n", r.nprocs);
  std::printf(" Threads/process = %24d\n", r.threads);
  std::printf(" Mop/s total     = %24.2f\n", r.mops_total);
  std::printf(" Mop/s/process   = %24.2f\n", r.nprocs > 0 ? r.mops_total / r.nprocs : 0.0);
  std::printf(" Operation type  = %24s\n", r.optype);
  std::printf(" Scaling         = %24s\n", r.weak ? "weak (fixed work/rank)" : "strong (official class)");
  std::printf(" Verification    = %24s\n", verdict);
  std::printf("\n VERIFICATION %s\n", verdict);
  std::fflush(stdout);
}

bool compare_value(const char* label, double computed, double reference, double epsilon) {
  double err = reference != 0.0 ? std::fabs((computed - reference) / reference) : std::fabs(computed);
  bool ok = err <= epsilon;  // NaN compares false
  std::printf(" %s: computed = %22.15e  reference = %22.15e  error = %10.3e %s\n", label, computed,
              reference, err, ok ? "" : "(> tolerance)");
  return ok;
}

}  // namespace npb
