// Fortran bindings: one-sided communication (windows, operations, synchronization).
// Addresses, sizes and displacements are INTEGER(KIND=MPI_ADDRESS_KIND); a base pointer comes
// back as such an integer (for a Cray pointer or C_F_POINTER), as MPI_ALLOC_MEM's does.
#include <string>

#include "attributes.h"
#include "fortran_support.h"

using namespace tilempi::fortran;

extern "C" {

void mpi_win_create_(void* base, const MPI_Aint* size, const MPI_Fint* disp_unit, const MPI_Fint* info,
                     const MPI_Fint* comm, MPI_Fint* win, MPI_Fint* ierr) {
  *ierr = MPI_Win_create(buffer(base), *size, *disp_unit, *info, *comm, win);
}

void mpi_win_allocate_(const MPI_Aint* size, const MPI_Fint* disp_unit, const MPI_Fint* info, const MPI_Fint* comm,
                       MPI_Aint* baseptr, MPI_Fint* win, MPI_Fint* ierr) {
  void* p = nullptr;
  *ierr = MPI_Win_allocate(*size, *disp_unit, *info, *comm, &p, win);
  if (*ierr == MPI_SUCCESS) *baseptr = reinterpret_cast<MPI_Aint>(p);
}

void mpi_win_allocate_shared_(const MPI_Aint* size, const MPI_Fint* disp_unit, const MPI_Fint* info,
                              const MPI_Fint* comm, MPI_Aint* baseptr, MPI_Fint* win, MPI_Fint* ierr) {
  void* p = nullptr;
  *ierr = MPI_Win_allocate_shared(*size, *disp_unit, *info, *comm, &p, win);
  if (*ierr == MPI_SUCCESS) *baseptr = reinterpret_cast<MPI_Aint>(p);
}

void mpi_win_shared_query_(const MPI_Fint* win, const MPI_Fint* rank, MPI_Aint* size, MPI_Fint* disp_unit,
                           MPI_Aint* baseptr, MPI_Fint* ierr) {
  void* p = nullptr;
  *ierr = MPI_Win_shared_query(*win, *rank, size, disp_unit, &p);
  if (*ierr == MPI_SUCCESS) *baseptr = reinterpret_cast<MPI_Aint>(p);
}

void mpi_win_create_dynamic_(const MPI_Fint* info, const MPI_Fint* comm, MPI_Fint* win, MPI_Fint* ierr) {
  *ierr = MPI_Win_create_dynamic(*info, *comm, win);
}

void mpi_win_attach_(const MPI_Fint* win, void* base, const MPI_Aint* size, MPI_Fint* ierr) {
  *ierr = MPI_Win_attach(*win, buffer(base), *size);
}

void mpi_win_detach_(const MPI_Fint* win, const void* base, MPI_Fint* ierr) { *ierr = MPI_Win_detach(*win, buffer(base)); }

void mpi_win_free_(MPI_Fint* win, MPI_Fint* ierr) { *ierr = MPI_Win_free(win); }

void mpi_win_get_group_(const MPI_Fint* win, MPI_Fint* group, MPI_Fint* ierr) { *ierr = MPI_Win_get_group(*win, group); }

// The attribute's value itself (the base address, the size, the unit, the flavor, the model).
void mpi_win_get_attr_(const MPI_Fint* win, const MPI_Fint* keyval, MPI_Aint* value, MPI_Fint* flag, MPI_Fint* ierr) {
  void* p = nullptr;
  int f = 0;
  *ierr = MPI_Win_get_attr(*win, *keyval, &p, &f);
  *flag = logical(f);
  if (*ierr != MPI_SUCCESS || !f) return;
  if (*keyval == MPI_WIN_BASE) *value = reinterpret_cast<MPI_Aint>(p);
  else if (*keyval == MPI_WIN_SIZE) *value = *static_cast<MPI_Aint*>(p);
  else if (*keyval >= MPI_WIN_DISP_UNIT && *keyval <= MPI_WIN_MODEL) *value = *static_cast<int*>(p);
  else if (MPI_Aint v; tilempi::mpi::attr_cell_value(p, &v)) *value = v;  // set from Fortran (attributes.h)
  else *value = reinterpret_cast<MPI_Aint>(p);  // set from C: its address
}

void mpi_win_set_errhandler_(const MPI_Fint* win, const MPI_Fint* errhandler, MPI_Fint* ierr) {
  *ierr = MPI_Win_set_errhandler(*win, *errhandler);
}

void mpi_win_get_errhandler_(const MPI_Fint* win, MPI_Fint* errhandler, MPI_Fint* ierr) {
  *ierr = MPI_Win_get_errhandler(*win, errhandler);
}

void mpi_win_set_name_(const MPI_Fint* win, const char* name, MPI_Fint* ierr, std::size_t name_len) {
  *ierr = MPI_Win_set_name(*win, c_string(name, name_len).c_str());
}

void mpi_win_get_name_(const MPI_Fint* win, char* name, MPI_Fint* resultlen, MPI_Fint* ierr, std::size_t name_len) {
  char c[MPI_MAX_OBJECT_NAME] = {};
  int n = 0;
  *ierr = MPI_Win_get_name(*win, c, &n);
  if (*ierr == MPI_SUCCESS) *resultlen = to_fortran_string(c, n, name, name_len);
}
void mpi_put_(const void* origin, const MPI_Fint* ocount, const MPI_Fint* otype, const MPI_Fint* target,
         const MPI_Aint* disp, const MPI_Fint* tcount, const MPI_Fint* ttype, const MPI_Fint* win,
         MPI_Fint* ierr) {
  *ierr = MPI_Put(buffer(origin), *ocount, *otype, *target, *disp, *tcount, *ttype, *win);
}

void mpi_get_(void* origin, const MPI_Fint* ocount, const MPI_Fint* otype, const MPI_Fint* target,
         const MPI_Aint* disp, const MPI_Fint* tcount, const MPI_Fint* ttype, const MPI_Fint* win,
         MPI_Fint* ierr) {
  *ierr = MPI_Get(buffer(origin), *ocount, *otype, *target, *disp, *tcount, *ttype, *win);
}

void mpi_accumulate_(const void* origin, const MPI_Fint* ocount, const MPI_Fint* otype, const MPI_Fint* target,
                const MPI_Aint* disp, const MPI_Fint* tcount, const MPI_Fint* ttype, const MPI_Fint* op,
                const MPI_Fint* win, MPI_Fint* ierr) {
  *ierr = MPI_Accumulate(buffer(origin), *ocount, *otype, *target, *disp, *tcount, *ttype, *op, *win);
}

void mpi_get_accumulate_(const void* origin, const MPI_Fint* ocount, const MPI_Fint* otype, void* result,
                    const MPI_Fint* rcount, const MPI_Fint* rtype, const MPI_Fint* target, const MPI_Aint* disp,
                    const MPI_Fint* tcount, const MPI_Fint* ttype, const MPI_Fint* op, const MPI_Fint* win,
                    MPI_Fint* ierr) {
  *ierr = MPI_Get_accumulate(buffer(origin), *ocount, *otype, buffer(result), *rcount, *rtype, *target, *disp, *tcount, *ttype, *op,
          *win);
}

void mpi_rput_(const void* origin, const MPI_Fint* ocount, const MPI_Fint* otype, const MPI_Fint* target,
          const MPI_Aint* disp, const MPI_Fint* tcount, const MPI_Fint* ttype, const MPI_Fint* win,
          MPI_Fint* request, MPI_Fint* ierr) {
  *ierr = MPI_Rput(buffer(origin), *ocount, *otype, *target, *disp, *tcount, *ttype, *win, request);
}

void mpi_rget_(void* origin, const MPI_Fint* ocount, const MPI_Fint* otype, const MPI_Fint* target,
          const MPI_Aint* disp, const MPI_Fint* tcount, const MPI_Fint* ttype, const MPI_Fint* win,
          MPI_Fint* request, MPI_Fint* ierr) {
  *ierr = MPI_Rget(buffer(origin), *ocount, *otype, *target, *disp, *tcount, *ttype, *win, request);
}

void mpi_raccumulate_(const void* origin, const MPI_Fint* ocount, const MPI_Fint* otype, const MPI_Fint* target,
                 const MPI_Aint* disp, const MPI_Fint* tcount, const MPI_Fint* ttype, const MPI_Fint* op,
                 const MPI_Fint* win, MPI_Fint* request, MPI_Fint* ierr) {
  *ierr = MPI_Raccumulate(buffer(origin), *ocount, *otype, *target, *disp, *tcount, *ttype, *op, *win, request);
}

void mpi_rget_accumulate_(const void* origin, const MPI_Fint* ocount, const MPI_Fint* otype, void* result,
                     const MPI_Fint* rcount, const MPI_Fint* rtype, const MPI_Fint* target, const MPI_Aint* disp,
                     const MPI_Fint* tcount, const MPI_Fint* ttype, const MPI_Fint* op, const MPI_Fint* win,
                     MPI_Fint* request, MPI_Fint* ierr) {
  *ierr = MPI_Rget_accumulate(buffer(origin), *ocount, *otype, buffer(result), *rcount, *rtype, *target, *disp, *tcount, *ttype, *op,
          *win, request);
}

void mpi_fetch_and_op_(const void* origin, void* result, const MPI_Fint* type, const MPI_Fint* target,
                       const MPI_Aint* disp, const MPI_Fint* op, const MPI_Fint* win, MPI_Fint* ierr) {
  *ierr = MPI_Fetch_and_op(buffer(origin), buffer(result), *type, *target, *disp, *op, *win);
}

void mpi_compare_and_swap_(const void* origin, const void* compare, void* result, const MPI_Fint* type,
                           const MPI_Fint* target, const MPI_Aint* disp, const MPI_Fint* win, MPI_Fint* ierr) {
  *ierr = MPI_Compare_and_swap(buffer(origin), buffer(compare), buffer(result), *type, *target, *disp, *win);
}

void mpi_win_fence_(const MPI_Fint* assert_, const MPI_Fint* win, MPI_Fint* ierr) { *ierr = MPI_Win_fence(*assert_, *win); }

void mpi_win_post_(const MPI_Fint* group, const MPI_Fint* assert_, const MPI_Fint* win, MPI_Fint* ierr) {
  *ierr = MPI_Win_post(*group, *assert_, *win);
}

void mpi_win_start_(const MPI_Fint* group, const MPI_Fint* assert_, const MPI_Fint* win, MPI_Fint* ierr) {
  *ierr = MPI_Win_start(*group, *assert_, *win);
}

void mpi_win_complete_(const MPI_Fint* win, MPI_Fint* ierr) { *ierr = MPI_Win_complete(*win); }
void mpi_win_wait_(const MPI_Fint* win, MPI_Fint* ierr) { *ierr = MPI_Win_wait(*win); }

void mpi_win_test_(const MPI_Fint* win, MPI_Fint* flag, MPI_Fint* ierr) {
  int f = 0;
  *ierr = MPI_Win_test(*win, &f);
  *flag = logical(f);
}

void mpi_win_lock_(const MPI_Fint* type, const MPI_Fint* rank, const MPI_Fint* assert_, const MPI_Fint* win,
                   MPI_Fint* ierr) {
  *ierr = MPI_Win_lock(*type, *rank, *assert_, *win);
}

void mpi_win_unlock_(const MPI_Fint* rank, const MPI_Fint* win, MPI_Fint* ierr) { *ierr = MPI_Win_unlock(*rank, *win); }
void mpi_win_lock_all_(const MPI_Fint* assert_, const MPI_Fint* win, MPI_Fint* ierr) {
  *ierr = MPI_Win_lock_all(*assert_, *win);
}
void mpi_win_unlock_all_(const MPI_Fint* win, MPI_Fint* ierr) { *ierr = MPI_Win_unlock_all(*win); }
void mpi_win_flush_(const MPI_Fint* rank, const MPI_Fint* win, MPI_Fint* ierr) { *ierr = MPI_Win_flush(*rank, *win); }
void mpi_win_flush_all_(const MPI_Fint* win, MPI_Fint* ierr) { *ierr = MPI_Win_flush_all(*win); }
void mpi_win_flush_local_(const MPI_Fint* rank, const MPI_Fint* win, MPI_Fint* ierr) {
  *ierr = MPI_Win_flush_local(*rank, *win);
}
void mpi_win_flush_local_all_(const MPI_Fint* win, MPI_Fint* ierr) { *ierr = MPI_Win_flush_local_all(*win); }
void mpi_win_sync_(const MPI_Fint* win, MPI_Fint* ierr) { *ierr = MPI_Win_sync(*win); }

void mpi_win_create_errhandler_(MPI_Win_errhandler_function* function, MPI_Fint* errhandler, MPI_Fint* ierr) {
  *ierr = MPI_Win_create_errhandler(function, errhandler);  // called as HANDLER(WIN, ERRORCODE)
}

void mpi_win_call_errhandler_(const MPI_Fint* win, const MPI_Fint* errorcode, MPI_Fint* ierr) {
  *ierr = MPI_Win_call_errhandler(*win, *errorcode);
}

void mpi_win_set_info_(const MPI_Fint* win, const MPI_Fint* info, MPI_Fint* ierr) {
  *ierr = MPI_Win_set_info(*win, *info);
}

void mpi_win_get_info_(const MPI_Fint* win, MPI_Fint* info_used, MPI_Fint* ierr) {
  *ierr = MPI_Win_get_info(*win, info_used);
}

}  // extern "C"

// The names a profiling tool may replace (see TILEMPI_PMPI_ALIAS).
TILEMPI_PMPI_F_ALIAS(win_create)
TILEMPI_PMPI_F_ALIAS(win_allocate)
TILEMPI_PMPI_F_ALIAS(win_allocate_shared)
TILEMPI_PMPI_F_ALIAS(win_shared_query)
TILEMPI_PMPI_F_ALIAS(win_create_dynamic)
TILEMPI_PMPI_F_ALIAS(win_attach)
TILEMPI_PMPI_F_ALIAS(win_detach)
TILEMPI_PMPI_F_ALIAS(win_free)
TILEMPI_PMPI_F_ALIAS(win_get_group)
TILEMPI_PMPI_F_ALIAS(win_get_attr)
TILEMPI_PMPI_F_ALIAS(win_set_errhandler)
TILEMPI_PMPI_F_ALIAS(win_get_errhandler)
TILEMPI_PMPI_F_ALIAS(win_set_name)
TILEMPI_PMPI_F_ALIAS(win_get_name)
TILEMPI_PMPI_F_ALIAS(put)
TILEMPI_PMPI_F_ALIAS(get)
TILEMPI_PMPI_F_ALIAS(accumulate)
TILEMPI_PMPI_F_ALIAS(get_accumulate)
TILEMPI_PMPI_F_ALIAS(rput)
TILEMPI_PMPI_F_ALIAS(rget)
TILEMPI_PMPI_F_ALIAS(raccumulate)
TILEMPI_PMPI_F_ALIAS(rget_accumulate)
TILEMPI_PMPI_F_ALIAS(fetch_and_op)
TILEMPI_PMPI_F_ALIAS(compare_and_swap)
TILEMPI_PMPI_F_ALIAS(win_fence)
TILEMPI_PMPI_F_ALIAS(win_post)
TILEMPI_PMPI_F_ALIAS(win_start)
TILEMPI_PMPI_F_ALIAS(win_complete)
TILEMPI_PMPI_F_ALIAS(win_wait)
TILEMPI_PMPI_F_ALIAS(win_test)
TILEMPI_PMPI_F_ALIAS(win_lock)
TILEMPI_PMPI_F_ALIAS(win_unlock)
TILEMPI_PMPI_F_ALIAS(win_lock_all)
TILEMPI_PMPI_F_ALIAS(win_unlock_all)
TILEMPI_PMPI_F_ALIAS(win_flush)
TILEMPI_PMPI_F_ALIAS(win_flush_all)
TILEMPI_PMPI_F_ALIAS(win_flush_local)
TILEMPI_PMPI_F_ALIAS(win_flush_local_all)
TILEMPI_PMPI_F_ALIAS(win_sync)
TILEMPI_PMPI_F_ALIAS(win_create_errhandler)
TILEMPI_PMPI_F_ALIAS(win_call_errhandler)
TILEMPI_PMPI_F_ALIAS(win_set_info)
TILEMPI_PMPI_F_ALIAS(win_get_info)
