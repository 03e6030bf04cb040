// Fortran bindings: point-to-point, requests and probes.
#include "fortran_support.h"

using namespace tilempi::fortran;

extern "C" {

void mpi_send_(const void* buf, const MPI_Fint* count, const MPI_Fint* datatype, const MPI_Fint* dest,
               const MPI_Fint* tag, const MPI_Fint* comm, MPI_Fint* ierr) {
  *ierr = MPI_Send(buffer(buf), *count, *datatype, *dest, *tag, *comm);
}

void mpi_ssend_(const void* buf, const MPI_Fint* count, const MPI_Fint* datatype, const MPI_Fint* dest,
                const MPI_Fint* tag, const MPI_Fint* comm, MPI_Fint* ierr) {
  *ierr = MPI_Ssend(buffer(buf), *count, *datatype, *dest, *tag, *comm);
}

void mpi_rsend_(const void* buf, const MPI_Fint* count, const MPI_Fint* datatype, const MPI_Fint* dest,
                const MPI_Fint* tag, const MPI_Fint* comm, MPI_Fint* ierr) {
  *ierr = MPI_Rsend(buffer(buf), *count, *datatype, *dest, *tag, *comm);
}

void mpi_recv_(void* buf, const MPI_Fint* count, const MPI_Fint* datatype, const MPI_Fint* source,
               const MPI_Fint* tag, const MPI_Fint* comm, MPI_Fint* status, MPI_Fint* ierr) {
  StatusOut st(status);
  *ierr = MPI_Recv(buffer(buf), *count, *datatype, *source, *tag, *comm, st.c());
}

void mpi_isend_(const void* buf, const MPI_Fint* count, const MPI_Fint* datatype, const MPI_Fint* dest,
                const MPI_Fint* tag, const MPI_Fint* comm, MPI_Fint* request, MPI_Fint* ierr) {
  *ierr = MPI_Isend(buffer(buf), *count, *datatype, *dest, *tag, *comm, request);
}

void mpi_issend_(const void* buf, const MPI_Fint* count, const MPI_Fint* datatype, const MPI_Fint* dest,
                 const MPI_Fint* tag, const MPI_Fint* comm, MPI_Fint* request, MPI_Fint* ierr) {
  *ierr = MPI_Issend(buffer(buf), *count, *datatype, *dest, *tag, *comm, request);
}

void mpi_irsend_(const void* buf, const MPI_Fint* count, const MPI_Fint* datatype, const MPI_Fint* dest,
                 const MPI_Fint* tag, const MPI_Fint* comm, MPI_Fint* request, MPI_Fint* ierr) {
  *ierr = MPI_Irsend(buffer(buf), *count, *datatype, *dest, *tag, *comm, request);
}

void mpi_irecv_(void* buf, const MPI_Fint* count, const MPI_Fint* datatype, const MPI_Fint* source,
                const MPI_Fint* tag, const MPI_Fint* comm, MPI_Fint* request, MPI_Fint* ierr) {
  *ierr = MPI_Irecv(buffer(buf), *count, *datatype, *source, *tag, *comm, request);
}

void mpi_sendrecv_(const void* sendbuf, const MPI_Fint* sendcount, const MPI_Fint* sendtype,
                   const MPI_Fint* dest, const MPI_Fint* sendtag, void* recvbuf, const MPI_Fint* recvcount,
                   const MPI_Fint* recvtype, const MPI_Fint* source, const MPI_Fint* recvtag,
                   const MPI_Fint* comm, MPI_Fint* status, MPI_Fint* ierr) {
  StatusOut st(status);
  *ierr = MPI_Sendrecv(buffer(sendbuf), *sendcount, *sendtype, *dest, *sendtag, buffer(recvbuf), *recvcount,
                       *recvtype, *source, *recvtag, *comm, st.c());
}

void mpi_sendrecv_replace_(void* buf, const MPI_Fint* count, const MPI_Fint* datatype, const MPI_Fint* dest,
                           const MPI_Fint* sendtag, const MPI_Fint* source, const MPI_Fint* recvtag,
                           const MPI_Fint* comm, MPI_Fint* status, MPI_Fint* ierr) {
  StatusOut st(status);
  *ierr = MPI_Sendrecv_replace(buffer(buf), *count, *datatype, *dest, *sendtag, *source, *recvtag, *comm,
                               st.c());
}

void mpi_wait_(MPI_Fint* request, MPI_Fint* status, MPI_Fint* ierr) {
  StatusOut st(status);
  *ierr = MPI_Wait(request, st.c());
}

void mpi_waitall_(const MPI_Fint* count, MPI_Fint* requests, MPI_Fint* statuses, MPI_Fint* ierr) {
  StatusesOut st(statuses, *count);
  *ierr = MPI_Waitall(*count, requests, st.c());
}

void mpi_waitany_(const MPI_Fint* count, MPI_Fint* requests, MPI_Fint* index, MPI_Fint* status,
                  MPI_Fint* ierr) {
  StatusOut st(status);
  int c = MPI_UNDEFINED;
  *ierr = MPI_Waitany(*count, requests, &c, st.c());
  *index = fortran_index(c);
}

void mpi_waitsome_(const MPI_Fint* incount, MPI_Fint* requests, MPI_Fint* outcount, MPI_Fint* indices,
                   MPI_Fint* statuses, MPI_Fint* ierr) {
  StatusesOut st(statuses, *incount);
  int out = MPI_UNDEFINED;
  *ierr = MPI_Waitsome(*incount, requests, &out, indices, st.c());
  *outcount = out;
  for (int i = 0; i < out && i < *incount; ++i) indices[i] = fortran_index(indices[i]);
}

void mpi_test_(MPI_Fint* request, MPI_Fint* flag, MPI_Fint* status, MPI_Fint* ierr) {
  StatusOut st(status);
  int c = 0;
  *ierr = MPI_Test(request, &c, st.c());
  *flag = logical(c);
}

void mpi_testall_(const MPI_Fint* count, MPI_Fint* requests, MPI_Fint* flag, MPI_Fint* statuses,
                  MPI_Fint* ierr) {
  StatusesOut st(statuses, *count);
  int c = 0;
  *ierr = MPI_Testall(*count, requests, &c, st.c());
  *flag = logical(c);
}

void mpi_testany_(const MPI_Fint* count, MPI_Fint* requests, MPI_Fint* index, MPI_Fint* flag,
                  MPI_Fint* status, MPI_Fint* ierr) {
  StatusOut st(status);
  int c = MPI_UNDEFINED;
  int cflag = 0;
  *ierr = MPI_Testany(*count, requests, &c, &cflag, st.c());
  *index = fortran_index(c);
  *flag = logical(cflag);
}

void mpi_testsome_(const MPI_Fint* incount, MPI_Fint* requests, MPI_Fint* outcount, MPI_Fint* indices,
                   MPI_Fint* statuses, MPI_Fint* ierr) {
  StatusesOut st(statuses, *incount);
  int out = MPI_UNDEFINED;
  *ierr = MPI_Testsome(*incount, requests, &out, indices, st.c());
  *outcount = out;
  for (int i = 0; i < out && i < *incount; ++i) indices[i] = fortran_index(indices[i]);
}

void mpi_request_free_(MPI_Fint* request, MPI_Fint* ierr) { *ierr = MPI_Request_free(request); }

void mpi_cancel_(MPI_Fint* request, MPI_Fint* ierr) { *ierr = MPI_Cancel(request); }

void mpi_test_cancelled_(const MPI_Fint* status, MPI_Fint* flag, MPI_Fint* ierr) {
  StatusIn st(status);
  int c = 0;
  *ierr = MPI_Test_cancelled(st.c(), &c);
  *flag = logical(c);
}

void mpi_probe_(const MPI_Fint* source, const MPI_Fint* tag, const MPI_Fint* comm, MPI_Fint* status,
                MPI_Fint* ierr) {
  StatusOut st(status);
  *ierr = MPI_Probe(*source, *tag, *comm, st.c());
}

void mpi_iprobe_(const MPI_Fint* source, const MPI_Fint* tag, const MPI_Fint* comm, MPI_Fint* flag,
                 MPI_Fint* status, MPI_Fint* ierr) {
  StatusOut st(status);
  int c = 0;
  *ierr = MPI_Iprobe(*source, *tag, *comm, &c, st.c());
  *flag = logical(c);
}

void mpi_get_count_(const MPI_Fint* status, const MPI_Fint* datatype, MPI_Fint* count, MPI_Fint* ierr) {
  StatusIn st(status);
  *ierr = MPI_Get_count(st.c(), *datatype, count);
}

void mpi_get_elements_(const MPI_Fint* status, const MPI_Fint* datatype, MPI_Fint* count, MPI_Fint* ierr) {
  StatusIn st(status);
  *ierr = MPI_Get_elements(st.c(), *datatype, count);
}

}  // extern "C"

// The names a profiling tool may replace (see TILEMPI_PMPI_ALIAS).
TILEMPI_PMPI_F_ALIAS(send)
TILEMPI_PMPI_F_ALIAS(ssend)
TILEMPI_PMPI_F_ALIAS(rsend)
TILEMPI_PMPI_F_ALIAS(recv)
TILEMPI_PMPI_F_ALIAS(isend)
TILEMPI_PMPI_F_ALIAS(issend)
TILEMPI_PMPI_F_ALIAS(irsend)
TILEMPI_PMPI_F_ALIAS(irecv)
TILEMPI_PMPI_F_ALIAS(sendrecv)
TILEMPI_PMPI_F_ALIAS(sendrecv_replace)
TILEMPI_PMPI_F_ALIAS(wait)
TILEMPI_PMPI_F_ALIAS(waitall)
TILEMPI_PMPI_F_ALIAS(waitany)
TILEMPI_PMPI_F_ALIAS(waitsome)
TILEMPI_PMPI_F_ALIAS(test)
TILEMPI_PMPI_F_ALIAS(testall)
TILEMPI_PMPI_F_ALIAS(testany)
TILEMPI_PMPI_F_ALIAS(testsome)
TILEMPI_PMPI_F_ALIAS(request_free)
TILEMPI_PMPI_F_ALIAS(cancel)
TILEMPI_PMPI_F_ALIAS(test_cancelled)
TILEMPI_PMPI_F_ALIAS(probe)
TILEMPI_PMPI_F_ALIAS(iprobe)
TILEMPI_PMPI_F_ALIAS(get_count)
TILEMPI_PMPI_F_ALIAS(get_elements)
