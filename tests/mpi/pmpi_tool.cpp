// A profiling tool of the kind the MPI standard's profiling interface is for: it defines some
// MPI_ functions, counts the calls per rank and forwards each to its PMPI_ twin. Built as a
// shared library (used with LD_PRELOAD) and linked into pmpi_app_linked (link-time interposition).
// pmpi_app reads the counts through pmpi_tool_count.
#include <mpi.h>

#include <map>
#include <string>

namespace {

// Per rank: with the sim's ranks as contexts all ranks share one copy of a preloaded library.
std::map<int, std::map<std::string, long>>& counts() {
  static std::map<int, std::map<std::string, long>> c;
  return c;
}

int world_rank() {
  int initialized = 0, finalized = 0, rank = -1;
  PMPI_Initialized(&initialized);
  PMPI_Finalized(&finalized);
  if (initialized && !finalized) PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

void count(const char* fn) { ++counts()[world_rank()][fn]; }

}  // namespace

extern "C" {

long pmpi_tool_count(const char* fn) { return counts()[world_rank()][fn]; }

int MPI_Pcontrol(const int level, ...) {
  count("MPI_Pcontrol");
  counts()[world_rank()]["level"] = level;
  return PMPI_Pcontrol(level);
}
int MPI_Send(const void* buf, int n, MPI_Datatype t, int dest, int tag, MPI_Comm comm) {
  count("MPI_Send");
  return PMPI_Send(buf, n, t, dest, tag, comm);
}
int MPI_Recv(void* buf, int n, MPI_Datatype t, int source, int tag, MPI_Comm comm, MPI_Status* status) {
  count("MPI_Recv");
  return PMPI_Recv(buf, n, t, source, tag, comm, status);
}
int MPI_Sendrecv(const void* sbuf, int sn, MPI_Datatype st, int dest, int stag, void* rbuf, int rn, MPI_Datatype rt,
                 int source, int rtag, MPI_Comm comm, MPI_Status* status) {
  count("MPI_Sendrecv");
  return PMPI_Sendrecv(sbuf, sn, st, dest, stag, rbuf, rn, rt, source, rtag, comm, status);
}
int MPI_Sendrecv_replace(void* buf, int n, MPI_Datatype t, int dest, int stag, int source, int rtag, MPI_Comm comm,
                         MPI_Status* status) {
  count("MPI_Sendrecv_replace");
  return PMPI_Sendrecv_replace(buf, n, t, dest, stag, source, rtag, comm, status);
}
int MPI_Waitall(int n, MPI_Request r[], MPI_Status s[]) {
  count("MPI_Waitall");
  return PMPI_Waitall(n, r, s);
}
int MPI_Testall(int n, MPI_Request r[], int* flag, MPI_Status s[]) {
  count("MPI_Testall");
  return PMPI_Testall(n, r, flag, s);
}
int MPI_Type_vector(int n, int bl, int stride, MPI_Datatype old, MPI_Datatype* t) {
  count("MPI_Type_vector");
  return PMPI_Type_vector(n, bl, stride, old, t);
}
int MPI_Type_create_hvector(int n, int bl, MPI_Aint stride, MPI_Datatype old, MPI_Datatype* t) {
  count("MPI_Type_create_hvector");
  return PMPI_Type_create_hvector(n, bl, stride, old, t);
}
int MPI_Attr_get(MPI_Comm comm, int key, void* val, int* flag) {
  count("MPI_Attr_get");
  return PMPI_Attr_get(comm, key, val, flag);
}
int MPI_Comm_get_attr(MPI_Comm comm, int key, void* val, int* flag) {
  count("MPI_Comm_get_attr");
  return PMPI_Comm_get_attr(comm, key, val, flag);
}
int MPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm* out) {
  count("MPI_Comm_split");
  return PMPI_Comm_split(comm, color, key, out);
}
int MPI_Cart_sub(MPI_Comm comm, const int remain[], MPI_Comm* out) {
  count("MPI_Cart_sub");
  return PMPI_Cart_sub(comm, remain, out);
}
int MPI_Allreduce(const void* s, void* r, int n, MPI_Datatype t, MPI_Op op, MPI_Comm comm) {
  count("MPI_Allreduce");
  return PMPI_Allreduce(s, r, n, t, op, comm);
}
int MPI_Barrier(MPI_Comm comm) {
  count("MPI_Barrier");
  return PMPI_Barrier(comm);
}
int MPI_Op_create(MPI_User_function* f, int commute, MPI_Op* op) {
  count("MPI_Op_create");
  return PMPI_Op_create(f, commute, op);
}

}  // extern "C"
