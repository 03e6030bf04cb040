// Fortran bindings: persistent requests, buffered sends, the matched probe, generalized requests
// and the status setters, MPI_REQUEST_GET_STATUS and MPI-4's MPI_ISENDRECV(_REPLACE).
#include "fortran_support.h"
#include "request.h"

using namespace tilempi::fortran;

extern "C" {

#define TILEMPI_F_SEND_INIT(fname, cname)                                                                    \
  void fname(const void* buf, const MPI_Fint* count, const MPI_Fint* datatype, const MPI_Fint* dest,         \
             const MPI_Fint* tag, const MPI_Fint* comm, MPI_Fint* request, MPI_Fint* ierr) {                 \
    *ierr = cname(buffer(buf), *count, *datatype, *dest, *tag, *comm, request);                              \
  }
TILEMPI_F_SEND_INIT(mpi_send_init_, MPI_Send_init)
TILEMPI_F_SEND_INIT(mpi_bsend_init_, MPI_Bsend_init)
TILEMPI_F_SEND_INIT(mpi_ssend_init_, MPI_Ssend_init)
TILEMPI_F_SEND_INIT(mpi_rsend_init_, MPI_Rsend_init)
TILEMPI_F_SEND_INIT(mpi_ibsend_, MPI_Ibsend)
#undef TILEMPI_F_SEND_INIT

void mpi_recv_init_(void* buf, const MPI_Fint* count, const MPI_Fint* datatype, const MPI_Fint* source,
                    const MPI_Fint* tag, const MPI_Fint* comm, MPI_Fint* request, MPI_Fint* ierr) {
  *ierr = MPI_Recv_init(buffer(buf), *count, *datatype, *source, *tag, *comm, request);
}

void mpi_start_(MPI_Fint* request, MPI_Fint* ierr) { *ierr = MPI_Start(request); }

void mpi_startall_(const MPI_Fint* count, MPI_Fint* requests, MPI_Fint* ierr) {
  *ierr = MPI_Startall(*count, requests);
}

void mpi_bsend_(const void* buf, const MPI_Fint* count, const MPI_Fint* datatype, const MPI_Fint* dest,
                const MPI_Fint* tag, const MPI_Fint* comm, MPI_Fint* ierr) {
  *ierr = MPI_Bsend(buffer(buf), *count, *datatype, *dest, *tag, *comm);
}

void mpi_buffer_attach_(void* buf, const MPI_Fint* size, MPI_Fint* ierr) { *ierr = MPI_Buffer_attach(buf, *size); }

// BUFFER_ADDR is a choice argument in Fortran: the detached address has nowhere to go.
void mpi_buffer_detach_(void*, MPI_Fint* size, MPI_Fint* ierr) {
  void* addr;
  *ierr = MPI_Buffer_detach(&addr, size);
}

void mpi_mprobe_(const MPI_Fint* source, const MPI_Fint* tag, const MPI_Fint* comm, MPI_Fint* message,
                 MPI_Fint* status, MPI_Fint* ierr) {
  StatusOut st(status);
  *ierr = MPI_Mprobe(*source, *tag, *comm, message, st.c());
}

void mpi_improbe_(const MPI_Fint* source, const MPI_Fint* tag, const MPI_Fint* comm, MPI_Fint* flag,
                  MPI_Fint* message, MPI_Fint* status, MPI_Fint* ierr) {
  StatusOut st(status);
  int f = 0;
  *ierr = MPI_Improbe(*source, *tag, *comm, &f, message, st.c());
  *flag = logical(f);
}

void mpi_mrecv_(void* buf, const MPI_Fint* count, const MPI_Fint* datatype, MPI_Fint* message, MPI_Fint* status,
                MPI_Fint* ierr) {
  StatusOut st(status);
  *ierr = MPI_Mrecv(buffer(buf), *count, *datatype, message, st.c());
}

void mpi_imrecv_(void* buf, const MPI_Fint* count, const MPI_Fint* datatype, MPI_Fint* message, MPI_Fint* request,
                 MPI_Fint* ierr) {
  *ierr = MPI_Imrecv(buffer(buf), *count, *datatype, message, request);
}

// The callbacks are Fortran subroutines (every argument by reference, the code in a last IERROR;
// EXTRA_STATE an INTEGER(KIND=MPI_ADDRESS_KIND), kept by value).
void mpi_grequest_start_(void (*query_fn)(), void (*free_fn)(), void (*cancel_fn)(), const MPI_Aint* extra_state,
                         MPI_Fint* request, MPI_Fint* ierr) {
  *ierr = tilempi::mpi::grequest_start(true, query_fn, free_fn, cancel_fn, reinterpret_cast<void*>(*extra_state),
                                       request);
}

void mpi_grequest_complete_(const MPI_Fint* request, MPI_Fint* ierr) { *ierr = MPI_Grequest_complete(*request); }

void mpi_status_set_cancelled_(MPI_Fint* status, const MPI_Fint* flag, MPI_Fint* ierr) {
  StatusOut st(status);
  *ierr = MPI_Status_set_cancelled(st.c(), from_logical(flag));
}

void mpi_status_set_elements_(MPI_Fint* status, const MPI_Fint* datatype, const MPI_Fint* count, MPI_Fint* ierr) {
  StatusOut st(status);
  *ierr = MPI_Status_set_elements(st.c(), *datatype, *count);
}

void mpi_status_set_elements_x_(MPI_Fint* status, const MPI_Fint* datatype, const MPI_Count* count, MPI_Fint* ierr) {
  StatusOut st(status);
  *ierr = MPI_Status_set_elements_x(st.c(), *datatype, *count);
}

void mpi_request_get_status_(const MPI_Fint* request, MPI_Fint* flag, MPI_Fint* status, MPI_Fint* ierr) {
  StatusOut st(status);
  int f = 0;
  *ierr = MPI_Request_get_status(*request, &f, st.c());
  *flag = logical(f);
}

void mpi_isendrecv_(const void* sendbuf, const MPI_Fint* sendcount, const MPI_Fint* sendtype, const MPI_Fint* dest,
                    const MPI_Fint* sendtag, void* recvbuf, const MPI_Fint* recvcount, const MPI_Fint* recvtype,
                    const MPI_Fint* source, const MPI_Fint* recvtag, const MPI_Fint* comm, MPI_Fint* request,
                    MPI_Fint* ierr) {
  *ierr = MPI_Isendrecv(buffer(sendbuf), *sendcount, *sendtype, *dest, *sendtag, buffer(recvbuf), *recvcount,
                        *recvtype, *source, *recvtag, *comm, request);
}

void mpi_isendrecv_replace_(void* buf, const MPI_Fint* count, const MPI_Fint* datatype, const MPI_Fint* dest,
                            const MPI_Fint* sendtag, const MPI_Fint* source, const MPI_Fint* recvtag,
                            const MPI_Fint* comm, MPI_Fint* request, MPI_Fint* ierr) {
  *ierr = MPI_Isendrecv_replace(buffer(buf), *count, *datatype, *dest, *sendtag, *source, *recvtag, *comm, request);
}

}  // extern "C"

// The names a profiling tool may replace (see TILEMPI_PMPI_ALIAS).
TILEMPI_PMPI_F_ALIAS(send_init)
TILEMPI_PMPI_F_ALIAS(bsend_init)
TILEMPI_PMPI_F_ALIAS(ssend_init)
TILEMPI_PMPI_F_ALIAS(rsend_init)
TILEMPI_PMPI_F_ALIAS(ibsend)
TILEMPI_PMPI_F_ALIAS(recv_init)
TILEMPI_PMPI_F_ALIAS(start)
TILEMPI_PMPI_F_ALIAS(startall)
TILEMPI_PMPI_F_ALIAS(bsend)
TILEMPI_PMPI_F_ALIAS(buffer_attach)
TILEMPI_PMPI_F_ALIAS(buffer_detach)
TILEMPI_PMPI_F_ALIAS(mprobe)
TILEMPI_PMPI_F_ALIAS(improbe)
TILEMPI_PMPI_F_ALIAS(mrecv)
TILEMPI_PMPI_F_ALIAS(imrecv)
TILEMPI_PMPI_F_ALIAS(grequest_start)
TILEMPI_PMPI_F_ALIAS(grequest_complete)
TILEMPI_PMPI_F_ALIAS(status_set_cancelled)
TILEMPI_PMPI_F_ALIAS(status_set_elements)
TILEMPI_PMPI_F_ALIAS(status_set_elements_x)
TILEMPI_PMPI_F_ALIAS(request_get_status)
TILEMPI_PMPI_F_ALIAS(isendrecv)
TILEMPI_PMPI_F_ALIAS(isendrecv_replace)
