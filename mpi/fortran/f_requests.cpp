// Fortran bindings: persistent requests, buffered sends and the matched probe.
#include "fortran_support.h"

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
