// Conformance of the request-based calls of issue 18 (non-blocking collectives, persistent
// requests, buffered and ready sends, matched probe, request completion): every bad argument
// returns its MPI error class under MPI_ERRORS_RETURN, and the library works afterwards.
// Cases the other suites check already (requests_suite, errors_suite) are not repeated.
#include <mpi.h>

#include <cstring>
#include <vector>

#include "conformance.h"

namespace {

int g_rank, g_size;

// Every MPI_Ixxx: bad communicator, count, datatype, op, root and request pointer; a bad call
// starts nothing (a good one afterwards completes and its result is right).
void nonblocking_collectives() {
  MPI_Comm comm;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  const int n = g_size;
  std::vector<int> a(4 * n, 1), b(4 * n, 0), counts(n, 1), displs(n);
  std::vector<MPI_Datatype> types(n, MPI_INT);
  for (int i = 0; i < n; ++i) displs[i] = i;
  MPI_Request r = MPI_REQUEST_NULL;
  const int bad_root = g_size;

  EXPECT_CLASS(MPI_Ibarrier(MPI_COMM_NULL, &r), MPI_ERR_COMM);
  EXPECT_CLASS(MPI_Ibarrier(4321, &r), MPI_ERR_COMM);
  EXPECT_CLASS(MPI_Ibcast(a.data(), 1, MPI_INT, bad_root, comm, &r), MPI_ERR_ROOT);
  EXPECT_CLASS(MPI_Ibcast(a.data(), 1, MPI_INT, -1, comm, &r), MPI_ERR_ROOT);
  EXPECT_CLASS(MPI_Ibcast(a.data(), -1, MPI_INT, 0, comm, &r), MPI_ERR_COUNT);
  EXPECT_CLASS(MPI_Ibcast(a.data(), 1, MPI_DATATYPE_NULL, 0, comm, &r), MPI_ERR_TYPE);
  EXPECT_CLASS(MPI_Ibcast(a.data(), 1, MPI_INT, 0, MPI_COMM_NULL, &r), MPI_ERR_COMM);
  EXPECT_CLASS(MPI_Ireduce(a.data(), b.data(), 1, MPI_INT, MPI_OP_NULL, 0, comm, &r), MPI_ERR_OP);
  EXPECT_CLASS(MPI_Ireduce(a.data(), b.data(), 1, MPI_INT, 9999, 0, comm, &r), MPI_ERR_OP);
  EXPECT_CLASS(MPI_Ireduce(a.data(), b.data(), 1, MPI_INT, MPI_SUM, bad_root, comm, &r), MPI_ERR_ROOT);
  EXPECT_CLASS(MPI_Ireduce(a.data(), b.data(), -2, MPI_INT, MPI_SUM, 0, comm, &r), MPI_ERR_COUNT);
  EXPECT_CLASS(MPI_Iallreduce(a.data(), b.data(), 1, MPI_INT, MPI_OP_NULL, comm, &r), MPI_ERR_OP);
  EXPECT_CLASS(MPI_Iallreduce(a.data(), b.data(), 1, MPI_DATATYPE_NULL, MPI_SUM, comm, &r), MPI_ERR_TYPE);
  EXPECT_CLASS(MPI_Iallreduce(a.data(), b.data(), 1, MPI_INT, MPI_SUM, MPI_COMM_NULL, &r), MPI_ERR_COMM);
  EXPECT_CLASS(MPI_Iscan(a.data(), b.data(), 1, MPI_INT, MPI_OP_NULL, comm, &r), MPI_ERR_OP);
  EXPECT_CLASS(MPI_Iscan(a.data(), b.data(), -1, MPI_INT, MPI_SUM, comm, &r), MPI_ERR_COUNT);
  EXPECT_CLASS(MPI_Iexscan(a.data(), b.data(), 1, MPI_INT, MPI_OP_NULL, comm, &r), MPI_ERR_OP);
  EXPECT_CLASS(MPI_Iexscan(a.data(), b.data(), 1, MPI_INT, MPI_SUM, MPI_COMM_NULL, &r), MPI_ERR_COMM);
  EXPECT_CLASS(MPI_Igather(a.data(), 1, MPI_INT, b.data(), 1, MPI_INT, bad_root, comm, &r), MPI_ERR_ROOT);
  EXPECT_CLASS(MPI_Igather(a.data(), -1, MPI_INT, b.data(), 1, MPI_INT, 0, comm, &r), MPI_ERR_COUNT);
  EXPECT_CLASS(MPI_Igather(a.data(), 1, MPI_DATATYPE_NULL, b.data(), 1, MPI_INT, 0, comm, &r), MPI_ERR_TYPE);
  EXPECT_CLASS(MPI_Igatherv(a.data(), 1, MPI_INT, b.data(), counts.data(), displs.data(), MPI_INT, bad_root, comm, &r),
               MPI_ERR_ROOT);
  EXPECT_CLASS(MPI_Iscatter(a.data(), 1, MPI_INT, b.data(), 1, MPI_INT, -3, comm, &r), MPI_ERR_ROOT);
  EXPECT_CLASS(MPI_Iscatter(a.data(), 1, MPI_INT, b.data(), -1, MPI_INT, 0, comm, &r), MPI_ERR_COUNT);
  EXPECT_CLASS(MPI_Iscatterv(a.data(), counts.data(), displs.data(), MPI_INT, b.data(), 1, MPI_INT, bad_root, comm, &r),
               MPI_ERR_ROOT);
  EXPECT_CLASS(MPI_Iscatterv(a.data(), counts.data(), displs.data(), MPI_INT, b.data(), 1, MPI_INT, 0, MPI_COMM_NULL, &r),
               MPI_ERR_COMM);
  EXPECT_CLASS(MPI_Iallgather(a.data(), 1, MPI_INT, b.data(), 1, MPI_DATATYPE_NULL, comm, &r), MPI_ERR_TYPE);
  EXPECT_CLASS(MPI_Iallgather(a.data(), -1, MPI_INT, b.data(), 1, MPI_INT, comm, &r), MPI_ERR_COUNT);
  EXPECT_CLASS(MPI_Iallgatherv(a.data(), 1, MPI_INT, b.data(), counts.data(), displs.data(), MPI_INT, MPI_COMM_NULL, &r),
               MPI_ERR_COMM);
  EXPECT_CLASS(MPI_Iallgatherv(a.data(), 1, MPI_DATATYPE_NULL, b.data(), counts.data(), displs.data(), MPI_INT, comm, &r),
               MPI_ERR_TYPE);
  EXPECT_CLASS(MPI_Ialltoall(a.data(), 1, MPI_INT, b.data(), -1, MPI_INT, comm, &r), MPI_ERR_COUNT);
  EXPECT_CLASS(MPI_Ialltoall(a.data(), 1, MPI_INT, b.data(), 1, MPI_INT, MPI_COMM_NULL, &r), MPI_ERR_COMM);
  EXPECT_CLASS(MPI_Ialltoallv(a.data(), counts.data(), displs.data(), MPI_DATATYPE_NULL, b.data(), counts.data(),
                              displs.data(), MPI_INT, comm, &r),
               MPI_ERR_TYPE);
  EXPECT_CLASS(MPI_Ialltoallv(a.data(), counts.data(), displs.data(), MPI_INT, b.data(), counts.data(), displs.data(),
                              MPI_INT, MPI_COMM_NULL, &r),
               MPI_ERR_COMM);
  std::vector<int> byte_displs(n);
  for (int i = 0; i < n; ++i) byte_displs[i] = i * static_cast<int>(sizeof(int));
  std::vector<MPI_Datatype> bad_types(types);
  bad_types[n - 1] = MPI_DATATYPE_NULL;
  EXPECT_CLASS(MPI_Ialltoallw(a.data(), counts.data(), byte_displs.data(), bad_types.data(), b.data(), counts.data(),
                              byte_displs.data(), types.data(), comm, &r),
               MPI_ERR_TYPE);
  EXPECT_CLASS(MPI_Ialltoallw(a.data(), counts.data(), byte_displs.data(), types.data(), b.data(), counts.data(),
                              byte_displs.data(), types.data(), MPI_COMM_NULL, &r),
               MPI_ERR_COMM);
  EXPECT_CLASS(MPI_Ireduce_scatter_block(a.data(), b.data(), 1, MPI_INT, MPI_OP_NULL, comm, &r), MPI_ERR_OP);
  EXPECT_CLASS(MPI_Ireduce_scatter_block(a.data(), b.data(), -1, MPI_INT, MPI_SUM, comm, &r), MPI_ERR_COUNT);
  EXPECT_CLASS(MPI_Ireduce_scatter(a.data(), b.data(), counts.data(), MPI_INT, MPI_OP_NULL, comm, &r), MPI_ERR_OP);
  EXPECT_CLASS(MPI_Ireduce_scatter(a.data(), b.data(), counts.data(), MPI_DATATYPE_NULL, MPI_SUM, comm, &r), MPI_ERR_TYPE);
  EXPECT_CLASS(MPI_Ireduce_scatter(a.data(), b.data(), counts.data(), MPI_INT, MPI_SUM, MPI_COMM_NULL, &r), MPI_ERR_COMM);
  // A negative count in a count array (the same on every rank), a null request pointer, an op
  // that does not apply to the type, MPI_IN_PLACE for both buffers.
  std::vector<int> negative(counts);
  negative[n - 1] = -1;
  EXPECT_CLASS(MPI_Ialltoallv(a.data(), negative.data(), displs.data(), MPI_INT, b.data(), counts.data(),
                              displs.data(), MPI_INT, comm, &r),
               MPI_ERR_COUNT);
  EXPECT_CLASS(MPI_Iallgatherv(a.data(), 1, MPI_INT, b.data(), negative.data(), displs.data(), MPI_INT, comm, &r),
               MPI_ERR_COUNT);
  EXPECT_CLASS(MPI_Ireduce_scatter(a.data(), b.data(), negative.data(), MPI_INT, MPI_SUM, comm, &r), MPI_ERR_COUNT);
  EXPECT_CLASS(MPI_Ialltoallw(a.data(), negative.data(), byte_displs.data(), types.data(), b.data(), counts.data(),
                              byte_displs.data(), types.data(), comm, &r),
               MPI_ERR_COUNT);
  EXPECT_CLASS(MPI_Ialltoallv(a.data(), nullptr, displs.data(), MPI_INT, b.data(), counts.data(), displs.data(),
                              MPI_INT, comm, &r),
               MPI_ERR_ARG);
  EXPECT_CLASS(MPI_Ibarrier(comm, nullptr), MPI_ERR_ARG);
  EXPECT_CLASS(MPI_Iallreduce(a.data(), b.data(), 1, MPI_INT, MPI_SUM, comm, nullptr), MPI_ERR_ARG);
  EXPECT_CLASS(MPI_Iallreduce(a.data(), b.data(), 1, MPI_DOUBLE_INT, MPI_SUM, comm, &r), MPI_ERR_OP);
  EXPECT_CLASS(MPI_Iallreduce(a.data(), b.data(), 1, MPI_INT, MPI_MAXLOC, comm, &r), MPI_ERR_OP);
  EXPECT_CLASS(MPI_Iallreduce(a.data(), b.data(), 1, MPI_BYTE, MPI_SUM, comm, &r), MPI_ERR_OP);
  EXPECT_CLASS(MPI_Iallreduce(MPI_IN_PLACE, MPI_IN_PLACE, 1, MPI_INT, MPI_SUM, comm, &r), MPI_ERR_BUFFER);
  // The blocking twins share the checks; two of them to be sure the error leaves the same way.
  EXPECT_CLASS(MPI_Bcast(a.data(), 1, MPI_INT, bad_root, comm), MPI_ERR_ROOT);
  EXPECT_CLASS(MPI_Allreduce(a.data(), b.data(), 1, MPI_INT, MPI_OP_NULL, comm), MPI_ERR_OP);

  // Nothing was started: a good non-blocking collective on the same communicator is right.
  int mine = g_rank + 1, total = 0;
  EXPECT_CLASS(MPI_Iallreduce(&mine, &total, 1, MPI_INT, MPI_SUM, comm, &r), MPI_SUCCESS);
  EXPECT_CLASS(MPI_Wait(&r, MPI_STATUS_IGNORE), MPI_SUCCESS);
  if (total != g_size * (g_size + 1) / 2) EXPECT_CLASS(MPI_ERR_OTHER, MPI_SUCCESS);
  MPI_Comm_free(&comm);
}

// Waits and tests: bad request handles, negative counts, null arrays.
void completion() {
  MPI_Request bogus[2] = {31337, MPI_REQUEST_NULL};
  int index = 0, flag = 0, outcount = 0, indices[2];
  MPI_Status st[2];
  EXPECT_CLASS(MPI_Test(&bogus[0], &flag, MPI_STATUS_IGNORE), MPI_ERR_REQUEST);
  EXPECT_CLASS(MPI_Waitall(2, bogus, MPI_STATUSES_IGNORE), MPI_ERR_REQUEST);
  EXPECT_CLASS(MPI_Waitany(2, bogus, &index, MPI_STATUS_IGNORE), MPI_ERR_REQUEST);
  EXPECT_CLASS(MPI_Testany(2, bogus, &index, &flag, MPI_STATUS_IGNORE), MPI_ERR_REQUEST);
  EXPECT_CLASS(MPI_Testall(2, bogus, &flag, st), MPI_ERR_REQUEST);
  EXPECT_CLASS(MPI_Waitsome(2, bogus, &outcount, indices, st), MPI_ERR_REQUEST);
  EXPECT_CLASS(MPI_Testsome(2, bogus, &outcount, indices, st), MPI_ERR_REQUEST);
  EXPECT_CLASS(MPI_Waitall(-1, bogus, MPI_STATUSES_IGNORE), MPI_ERR_COUNT);
  EXPECT_CLASS(MPI_Testall(-1, bogus, &flag, st), MPI_ERR_COUNT);
  EXPECT_CLASS(MPI_Waitany(-1, bogus, &index, MPI_STATUS_IGNORE), MPI_ERR_COUNT);
  EXPECT_CLASS(MPI_Request_free(&bogus[0]), MPI_ERR_REQUEST);
  MPI_Request null_request = MPI_REQUEST_NULL;
  EXPECT_CLASS(MPI_Request_free(&null_request), MPI_ERR_REQUEST);
  EXPECT_CLASS(MPI_Cancel(&bogus[0]), MPI_ERR_REQUEST);
  EXPECT_CLASS(MPI_Test_cancelled(&st[0], nullptr), MPI_ERR_ARG);
  // Every request null: wait and test succeed at once, the status is empty.
  MPI_Request nulls[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
  EXPECT_CLASS(MPI_Waitany(2, nulls, &index, MPI_STATUS_IGNORE), MPI_SUCCESS);
  if (index != MPI_UNDEFINED) EXPECT_CLASS(MPI_ERR_OTHER, MPI_SUCCESS);
  EXPECT_CLASS(MPI_Testall(2, nulls, &flag, MPI_STATUSES_IGNORE), MPI_SUCCESS);
  if (!flag) EXPECT_CLASS(MPI_ERR_OTHER, MPI_SUCCESS);
}

// Point-to-point beyond errors_suite: the non-blocking and synchronous sends, probes, sendrecv.
void point_to_point() {
  int v = 0;
  MPI_Request r;
  MPI_Status st;
  int flag;
  EXPECT_CLASS(MPI_Isend(&v, 1, MPI_INT, g_size, 0, MPI_COMM_WORLD, &r), MPI_ERR_RANK);
  EXPECT_CLASS(MPI_Isend(&v, 1, MPI_INT, 0, -2, MPI_COMM_WORLD, &r), MPI_ERR_TAG);
  EXPECT_CLASS(MPI_Isend(&v, -1, MPI_INT, 0, 0, MPI_COMM_WORLD, &r), MPI_ERR_COUNT);
  EXPECT_CLASS(MPI_Isend(&v, 1, MPI_INT, 0, 0, MPI_COMM_NULL, &r), MPI_ERR_COMM);
  EXPECT_CLASS(MPI_Issend(&v, 1, MPI_DATATYPE_NULL, 0, 0, MPI_COMM_WORLD, &r), MPI_ERR_TYPE);
  EXPECT_CLASS(MPI_Ssend(&v, 1, MPI_INT, g_size + 2, 0, MPI_COMM_WORLD), MPI_ERR_RANK);
  EXPECT_CLASS(MPI_Ssend(&v, 1, MPI_INT, 0, MPI_ANY_TAG, MPI_COMM_WORLD), MPI_ERR_TAG);  // wildcard only to receive
  EXPECT_CLASS(MPI_Send(&v, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD), MPI_ERR_RANK);
  int tag_ub = 0, *p = nullptr;
  MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &p, &flag);
  if (flag) tag_ub = *p;
  if (tag_ub > 0 && tag_ub < 2147483647) EXPECT_CLASS(MPI_Send(&v, 1, MPI_INT, 0, tag_ub + 1, MPI_COMM_WORLD), MPI_ERR_TAG);
  EXPECT_CLASS(MPI_Irecv(&v, -1, MPI_INT, 0, 0, MPI_COMM_WORLD, &r), MPI_ERR_COUNT);
  EXPECT_CLASS(MPI_Irecv(&v, 1, MPI_INT, 0, 0, 5555, &r), MPI_ERR_COMM);
  EXPECT_CLASS(MPI_Recv(&v, 1, MPI_DATATYPE_NULL, 0, 0, MPI_COMM_WORLD, &st), MPI_ERR_TYPE);
  EXPECT_CLASS(MPI_Probe(g_size, 0, MPI_COMM_WORLD, &st), MPI_ERR_RANK);
  EXPECT_CLASS(MPI_Iprobe(0, -7, MPI_COMM_WORLD, &flag, &st), MPI_ERR_TAG);
  EXPECT_CLASS(MPI_Iprobe(0, 0, MPI_COMM_NULL, &flag, &st), MPI_ERR_COMM);
  EXPECT_CLASS(MPI_Sendrecv(&v, 1, MPI_INT, g_size, 0, &v, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, &st), MPI_ERR_RANK);
  EXPECT_CLASS(MPI_Sendrecv(&v, 1, MPI_INT, 0, 0, &v, 1, MPI_INT, 0, -5, MPI_COMM_WORLD, &st), MPI_ERR_TAG);  // -1 is MPI_ANY_TAG
  EXPECT_CLASS(MPI_Sendrecv_replace(&v, -1, MPI_INT, 0, 0, 0, 0, MPI_COMM_WORLD, &st), MPI_ERR_COUNT);
  int count;
  EXPECT_CLASS(MPI_Get_count(&st, MPI_DATATYPE_NULL, &count), MPI_ERR_TYPE);
  // The profiling names check their arguments as the MPI_ names do (they are the definitions).
  EXPECT_CLASS(PMPI_Send(&v, 1, MPI_INT, g_size, 0, MPI_COMM_WORLD), MPI_ERR_RANK);
  EXPECT_CLASS(PMPI_Ibcast(&v, 1, MPI_INT, -1, MPI_COMM_WORLD, &r), MPI_ERR_ROOT);
  EXPECT_CLASS(PMPI_Info_set(MPI_INFO_NULL, "a", "b"), MPI_ERR_INFO);
  // MPI_PROC_NULL is no error: the calls complete at once.
  EXPECT_CLASS(MPI_Send(&v, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD), MPI_SUCCESS);
  EXPECT_CLASS(MPI_Recv(&v, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &st), MPI_SUCCESS);
  if (st.MPI_SOURCE != MPI_PROC_NULL || st.MPI_TAG != MPI_ANY_TAG) EXPECT_CLASS(MPI_ERR_OTHER, MPI_SUCCESS);
}

// Persistent requests, buffered and ready sends, matched probe: what requests_suite leaves out.
void persistent_buffered_matched() {
  int v = 0;
  MPI_Request r = MPI_REQUEST_NULL;
  EXPECT_CLASS(MPI_Send_init(&v, 1, MPI_INT, 0, 0, MPI_COMM_NULL, &r), MPI_ERR_COMM);
  EXPECT_CLASS(MPI_Ssend_init(&v, 1, MPI_INT, -9, 0, MPI_COMM_WORLD, &r), MPI_ERR_RANK);
  EXPECT_CLASS(MPI_Bsend_init(&v, -1, MPI_INT, 0, 0, MPI_COMM_WORLD, &r), MPI_ERR_COUNT);
  EXPECT_CLASS(MPI_Rsend_init(&v, 1, MPI_DATATYPE_NULL, 0, 0, MPI_COMM_WORLD, &r), MPI_ERR_TYPE);
  EXPECT_CLASS(MPI_Recv_init(&v, 1, MPI_INT, g_size, 0, MPI_COMM_WORLD, &r), MPI_ERR_RANK);
  EXPECT_CLASS(MPI_Recv_init(&v, 1, MPI_INT, 0, -4, MPI_COMM_WORLD, &r), MPI_ERR_TAG);
  EXPECT_CLASS(MPI_Recv_init(&v, -1, MPI_INT, 0, 0, MPI_COMM_WORLD, &r), MPI_ERR_COUNT);
  MPI_Request two[2] = {MPI_REQUEST_NULL, 31337};
  EXPECT_CLASS(MPI_Startall(2, two), MPI_ERR_REQUEST);
  // Startall with one request already active: the whole call is MPI_ERR_REQUEST.
  MPI_Request p[2];
  int in = -1;
  MPI_Recv_init(&in, 1, MPI_INT, MPI_ANY_SOURCE, 77, MPI_COMM_WORLD, &p[0]);
  MPI_Recv_init(&in, 1, MPI_INT, MPI_ANY_SOURCE, 78, MPI_COMM_WORLD, &p[1]);
  EXPECT_CLASS(MPI_Start(&p[0]), MPI_SUCCESS);
  EXPECT_CLASS(MPI_Startall(2, p), MPI_ERR_REQUEST);
  EXPECT_CLASS(MPI_Cancel(&p[0]), MPI_SUCCESS);
  EXPECT_CLASS(MPI_Wait(&p[0], MPI_STATUS_IGNORE), MPI_SUCCESS);
  MPI_Request_free(&p[0]);
  MPI_Request_free(&p[1]);

  EXPECT_CLASS(MPI_Bsend(&v, 1, MPI_INT, 0, 0, MPI_COMM_NULL), MPI_ERR_COMM);
  EXPECT_CLASS(MPI_Bsend(&v, 1, MPI_DATATYPE_NULL, 0, 0, MPI_COMM_WORLD), MPI_ERR_TYPE);
  EXPECT_CLASS(MPI_Ibsend(&v, 1, MPI_INT, g_size, 0, MPI_COMM_WORLD, &r), MPI_ERR_RANK);
  EXPECT_CLASS(MPI_Ibsend(&v, 1, MPI_INT, 0, -1, MPI_COMM_WORLD, &r), MPI_ERR_TAG);
  EXPECT_CLASS(MPI_Rsend(&v, 1, MPI_INT, 0, 0, MPI_COMM_NULL), MPI_ERR_COMM);
  EXPECT_CLASS(MPI_Rsend(&v, 1, MPI_DATATYPE_NULL, 0, 0, MPI_COMM_WORLD), MPI_ERR_TYPE);
  EXPECT_CLASS(MPI_Irsend(&v, 1, MPI_INT, 0, -1, MPI_COMM_WORLD, &r), MPI_ERR_TAG);
  EXPECT_CLASS(MPI_Irsend(&v, 1, MPI_INT, g_size + 1, 0, MPI_COMM_WORLD, &r), MPI_ERR_RANK);
  void* addr = nullptr;
  int bytes = 0;
  EXPECT_CLASS(MPI_Buffer_detach(&addr, &bytes), MPI_ERR_BUFFER);  // nothing attached (again, after the above)
  EXPECT_CLASS(MPI_Buffer_attach(nullptr, 64), MPI_ERR_BUFFER);

  MPI_Message msg = MPI_MESSAGE_NULL;
  MPI_Status st;
  int flag;
  EXPECT_CLASS(MPI_Mprobe(0, 0, MPI_COMM_NULL, &msg, &st), MPI_ERR_COMM);
  EXPECT_CLASS(MPI_Mprobe(0, -6, MPI_COMM_WORLD, &msg, &st), MPI_ERR_TAG);
  EXPECT_CLASS(MPI_Improbe(g_size + 4, 0, MPI_COMM_WORLD, &flag, &msg, &st), MPI_ERR_RANK);
  MPI_Message bogus = 31337;
  EXPECT_CLASS(MPI_Mrecv(&v, 1, MPI_INT, &bogus, &st), MPI_ERR_REQUEST);
  // A message probed for real, then received with bad arguments: the bad call fails, the message
  // stays matched and a good MPI_Mrecv gets it.
  const int right = (g_rank + 1) % g_size, left = (g_rank + g_size - 1) % g_size;
  int out = 1000 + g_rank;
  MPI_Request s;
  MPI_Isend(&out, 1, MPI_INT, right, 90, MPI_COMM_WORLD, &s);
  EXPECT_CLASS(MPI_Mprobe(left, 90, MPI_COMM_WORLD, &msg, &st), MPI_SUCCESS);
  EXPECT_CLASS(MPI_Mrecv(&v, -1, MPI_INT, &msg, &st), MPI_ERR_COUNT);
  EXPECT_CLASS(MPI_Mrecv(&v, 1, MPI_DATATYPE_NULL, &msg, &st), MPI_ERR_TYPE);
  EXPECT_CLASS(MPI_Imrecv(&v, 1, MPI_DATATYPE_NULL, &msg, &r), MPI_ERR_TYPE);
  EXPECT_CLASS(MPI_Mrecv(&v, 1, MPI_INT, &msg, &st), MPI_SUCCESS);
  if (v != 1000 + left || msg != MPI_MESSAGE_NULL) EXPECT_CLASS(MPI_ERR_OTHER, MPI_SUCCESS);
  MPI_Wait(&s, MPI_STATUS_IGNORE);
}

// A failed request among several: MPI_Waitall, Testall and Waitsome say MPI_ERR_IN_STATUS and
// each status carries its own class (the good one MPI_SUCCESS); a single wait returns the class
// and leaves the status's MPI_ERROR alone, as does a call of several that returns MPI_SUCCESS
// (MPI-3.1 §3.2.5).
void errors_in_status() {
  const int right = (g_rank + 1) % g_size, left = (g_rank + g_size - 1) % g_size;
  int out[2] = {g_rank, g_rank}, small = -1, fine[2] = {-1, -1};
  MPI_Request r[2];
  MPI_Status st[2];
  for (int round = 0; round < 5; ++round) {
    MPI_Request s[2];
    MPI_Isend(out, 2, MPI_INT, right, 40, MPI_COMM_WORLD, &s[0]);
    MPI_Isend(out, 2, MPI_INT, right, 41, MPI_COMM_WORLD, &s[1]);
    MPI_Irecv(fine, 2, MPI_INT, left, 40, MPI_COMM_WORLD, &r[0]);
    MPI_Irecv(&small, 1, MPI_INT, left, 41, MPI_COMM_WORLD, &r[1]);  // too small: truncated
    st[0].MPI_ERROR = st[1].MPI_ERROR = -1;
    if (round == 0) {
      EXPECT_CLASS(MPI_Waitall(2, r, st), MPI_ERR_IN_STATUS);
    } else if (round == 1) {
      int flag = 0, rc;
      do rc = MPI_Testall(2, r, &flag, st);
      while (rc == MPI_SUCCESS && !flag);
      EXPECT_CLASS(rc, MPI_ERR_IN_STATUS);
    } else if (round == 2) {
      int outcount = 0, got = 0, indices[2], rc = MPI_SUCCESS;
      MPI_Status each[2];
      while (got < 2 && rc == MPI_SUCCESS) {
        each[0].MPI_ERROR = each[1].MPI_ERROR = MPI_SUCCESS;  // (a call that returns MPI_SUCCESS keeps them)
        rc = MPI_Waitsome(2, r, &outcount, indices, each);
        for (int i = 0; i < outcount && outcount != MPI_UNDEFINED; ++i) st[indices[i]] = each[i];
        if (outcount != MPI_UNDEFINED) got += outcount;
      }
      EXPECT_CLASS(rc, MPI_ERR_IN_STATUS);
      if (rc == MPI_ERR_IN_STATUS && got < 2) {  // the good one may come in a later call
        EXPECT_CLASS(MPI_Wait(&r[0], &st[0]), MPI_SUCCESS);
        st[0].MPI_ERROR = MPI_SUCCESS;
      }
    } else if (round == 3) {
      int index = -1;  // MPI_Waitany and MPI_Test return the request's own class, not IN_STATUS
      EXPECT_CLASS(MPI_Waitany(1, &r[1], &index, &st[1]), MPI_ERR_TRUNCATE);
      int flag = 0, rc;
      do rc = MPI_Test(&r[0], &flag, &st[0]);
      while (rc == MPI_SUCCESS && !flag);
      EXPECT_CLASS(rc, MPI_SUCCESS);
      if (st[0].MPI_ERROR != -1 || st[1].MPI_ERROR != -1) EXPECT_CLASS(MPI_ERR_OTHER, MPI_SUCCESS);  // untouched
      st[0].MPI_ERROR = MPI_SUCCESS;
      st[1].MPI_ERROR = MPI_ERR_TRUNCATE;
    } else {
      EXPECT_CLASS(MPI_Wait(&r[1], &st[1]), MPI_ERR_TRUNCATE);
      EXPECT_CLASS(MPI_Wait(&r[0], &st[0]), MPI_SUCCESS);
      if (st[0].MPI_ERROR != -1 || st[1].MPI_ERROR != -1) EXPECT_CLASS(MPI_ERR_OTHER, MPI_SUCCESS);  // untouched
      st[0].MPI_ERROR = MPI_SUCCESS;
      st[1].MPI_ERROR = MPI_ERR_TRUNCATE;
    }
    EXPECT_CLASS(st[0].MPI_ERROR, MPI_SUCCESS);
    EXPECT_CLASS(st[1].MPI_ERROR, MPI_ERR_TRUNCATE);
    if (fine[0] != left || fine[1] != left) EXPECT_CLASS(MPI_ERR_OTHER, MPI_SUCCESS);
    MPI_Waitall(2, s, MPI_STATUSES_IGNORE);
  }
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &g_size);
  if (argc > 1 && std::strcmp(argv[1], "fatal") == 0) {
    // Under the default handler a bad argument of a non-blocking collective ends the job, and
    // the message names the call the program made.
    int a = 1, b = 0;
    MPI_Request r;
    MPI_Iallreduce(&a, &b, 1, MPI_INT, MPI_OP_NULL, MPI_COMM_WORLD, &r);
    MPI_Finalize();
    return 0;
  }
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
  nonblocking_collectives();
  EXPECT_USABLE();
  completion();
  EXPECT_USABLE();
  point_to_point();
  EXPECT_USABLE();
  persistent_buffered_matched();
  EXPECT_USABLE();
  errors_in_status();
  EXPECT_USABLE();
  return conformance::finish("conformance_requests");
}
