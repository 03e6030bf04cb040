// Fortran bindings: MPI-IO. Offsets and sizes are INTEGER(KIND=MPI_OFFSET_KIND); file names and
// data representations are CHARACTER arguments (trailing blanks are not part of them).
#include <cstring>
#include <string>

#include "file.h"
#include "fortran_support.h"

using namespace tilempi::fortran;

namespace {

/// The shapes of the read and write bindings: Buf is void* for a read, const void* for a write.
template <class Buf>
void with_status(int (*call)(MPI_File, Buf, int, MPI_Datatype, MPI_Status*), const MPI_Fint* fh, Buf buf,
                 const MPI_Fint* count, const MPI_Fint* type, MPI_Fint* status, MPI_Fint* ierr) {
  StatusOut st(status);
  *ierr = call(*fh, buf, *count, *type, st.c());
}
template <class Buf>
void at_with_status(int (*call)(MPI_File, MPI_Offset, Buf, int, MPI_Datatype, MPI_Status*), const MPI_Fint* fh,
                    const MPI_Offset* offset, Buf buf, const MPI_Fint* count, const MPI_Fint* type, MPI_Fint* status,
                    MPI_Fint* ierr) {
  StatusOut st(status);
  *ierr = call(*fh, *offset, buf, *count, *type, st.c());
}
template <class Buf>
void end_with_status(int (*call)(MPI_File, Buf, MPI_Status*), const MPI_Fint* fh, Buf buf, MPI_Fint* status,
                     MPI_Fint* ierr) {
  StatusOut st(status);
  *ierr = call(*fh, buf, st.c());
}

}  // namespace

extern "C" {

void mpi_file_open_(const MPI_Fint* comm, const char* filename, const MPI_Fint* amode, const MPI_Fint* info,
                    MPI_Fint* fh, MPI_Fint* ierr, std::size_t filename_len) {
  *ierr = MPI_File_open(*comm, c_string(filename, filename_len).c_str(), *amode, *info, fh);
}

void mpi_file_close_(MPI_Fint* fh, MPI_Fint* ierr) { *ierr = MPI_File_close(fh); }

void mpi_file_delete_(const char* filename, const MPI_Fint* info, MPI_Fint* ierr, std::size_t filename_len) {
  *ierr = MPI_File_delete(c_string(filename, filename_len).c_str(), *info);
}

void mpi_file_set_view_(const MPI_Fint* fh, const MPI_Offset* disp, const MPI_Fint* etype, const MPI_Fint* filetype,
                        const char* datarep, const MPI_Fint* info, MPI_Fint* ierr, std::size_t datarep_len) {
  *ierr = MPI_File_set_view(*fh, *disp, *etype, *filetype, c_string(datarep, datarep_len).c_str(), *info);
}

void mpi_file_get_view_(const MPI_Fint* fh, MPI_Offset* disp, MPI_Fint* etype, MPI_Fint* filetype, char* datarep,
                        MPI_Fint* ierr, std::size_t datarep_len) {
  char c[MPI_MAX_DATAREP_STRING] = {};
  *ierr = MPI_File_get_view(*fh, disp, etype, filetype, c);
  if (*ierr == MPI_SUCCESS) to_fortran_string(c, static_cast<int>(std::strlen(c)), datarep, datarep_len);
}

void mpi_file_get_type_extent_(const MPI_Fint* fh, const MPI_Fint* datatype, MPI_Aint* extent, MPI_Fint* ierr) {
  *ierr = MPI_File_get_type_extent(*fh, *datatype, extent);
}

// User data representations (MPI-3.1 §13.5.3): the functions stay Fortran's, called with every
// argument by reference (file.h: FortranConversion); MPI_CONVERSION_FN_NULL is this procedure.
void mpi_conversion_fn_null_(void*, MPI_Fint*, MPI_Fint*, void*, MPI_Offset*, MPI_Aint*, MPI_Fint* ierror) {
  *ierror = MPI_SUCCESS;
}

void mpi_register_datarep_(const char* datarep, tilempi::mpi::FortranConversion* read_conversion_fn,
                           tilempi::mpi::FortranConversion* write_conversion_fn,
                           tilempi::mpi::FortranExtent* dtype_file_extent_fn, const MPI_Aint* extra_state,
                           MPI_Fint* ierr, std::size_t datarep_len) {
  auto none = [](tilempi::mpi::FortranConversion* f) { return f == &mpi_conversion_fn_null_ ? nullptr : f; };
  std::string why;
  const int cls = tilempi::mpi::datarep_register_fortran(c_string(datarep, datarep_len), none(read_conversion_fn),
                                                          none(write_conversion_fn), dtype_file_extent_fn,
                                                          *extra_state, &why);
  *ierr = cls == MPI_SUCCESS ? MPI_SUCCESS : tilempi::mpi::raise_on_file_null(cls, "MPI_Register_datarep", why);
}

void mpi_file_set_atomicity_(const MPI_Fint* fh, const MPI_Fint* flag, MPI_Fint* ierr) {
  *ierr = MPI_File_set_atomicity(*fh, from_logical(flag));
}

void mpi_file_get_atomicity_(const MPI_Fint* fh, MPI_Fint* flag, MPI_Fint* ierr) {
  int f = 0;
  *ierr = MPI_File_get_atomicity(*fh, &f);
  *flag = logical(f);
}

void mpi_file_set_size_(const MPI_Fint* fh, const MPI_Offset* size, MPI_Fint* ierr) {
  *ierr = MPI_File_set_size(*fh, *size);
}

void mpi_file_preallocate_(const MPI_Fint* fh, const MPI_Offset* size, MPI_Fint* ierr) {
  *ierr = MPI_File_preallocate(*fh, *size);
}

void mpi_file_get_size_(const MPI_Fint* fh, MPI_Offset* size, MPI_Fint* ierr) {
  *ierr = MPI_File_get_size(*fh, size);
}

void mpi_file_get_group_(const MPI_Fint* fh, MPI_Fint* group, MPI_Fint* ierr) {
  *ierr = MPI_File_get_group(*fh, group);
}

void mpi_file_get_amode_(const MPI_Fint* fh, MPI_Fint* amode, MPI_Fint* ierr) {
  *ierr = MPI_File_get_amode(*fh, amode);
}

void mpi_file_seek_(const MPI_Fint* fh, const MPI_Offset* offset, const MPI_Fint* whence, MPI_Fint* ierr) {
  *ierr = MPI_File_seek(*fh, *offset, *whence);
}

void mpi_file_get_position_(const MPI_Fint* fh, MPI_Offset* offset, MPI_Fint* ierr) {
  *ierr = MPI_File_get_position(*fh, offset);
}

void mpi_file_get_byte_offset_(const MPI_Fint* fh, const MPI_Offset* offset, MPI_Offset* disp, MPI_Fint* ierr) {
  *ierr = MPI_File_get_byte_offset(*fh, *offset, disp);
}

void mpi_file_seek_shared_(const MPI_Fint* fh, const MPI_Offset* offset, const MPI_Fint* whence, MPI_Fint* ierr) {
  *ierr = MPI_File_seek_shared(*fh, *offset, *whence);
}

void mpi_file_get_position_shared_(const MPI_Fint* fh, MPI_Offset* offset, MPI_Fint* ierr) {
  *ierr = MPI_File_get_position_shared(*fh, offset);
}

void mpi_file_set_errhandler_(const MPI_Fint* fh, const MPI_Fint* errhandler, MPI_Fint* ierr) {
  *ierr = MPI_File_set_errhandler(*fh, *errhandler);
}

void mpi_file_get_errhandler_(const MPI_Fint* fh, MPI_Fint* errhandler, MPI_Fint* ierr) {
  *ierr = MPI_File_get_errhandler(*fh, errhandler);
}

void mpi_file_sync_(const MPI_Fint* fh, MPI_Fint* ierr) { *ierr = MPI_File_sync(*fh); }

void mpi_file_create_errhandler_(MPI_File_errhandler_function* function, MPI_Fint* errhandler, MPI_Fint* ierr) {
  *ierr = MPI_File_create_errhandler(function, errhandler);  // called as HANDLER(FH, ERRORCODE)
}

void mpi_file_call_errhandler_(const MPI_Fint* fh, const MPI_Fint* errorcode, MPI_Fint* ierr) {
  *ierr = MPI_File_call_errhandler(*fh, *errorcode);
}

void mpi_file_set_info_(const MPI_Fint* fh, const MPI_Fint* info, MPI_Fint* ierr) { *ierr = MPI_File_set_info(*fh, *info); }

void mpi_file_get_info_(const MPI_Fint* fh, MPI_Fint* info_used, MPI_Fint* ierr) {
  *ierr = MPI_File_get_info(*fh, info_used);
}

// Explicit offsets.

void mpi_file_read_at_(const MPI_Fint* fh, const MPI_Offset* offset, void* buf, const MPI_Fint* count,
                       const MPI_Fint* datatype, MPI_Fint* status, MPI_Fint* ierr) {
  at_with_status(MPI_File_read_at, fh, offset, buffer(buf), count, datatype, status, ierr);
}

void mpi_file_write_at_(const MPI_Fint* fh, const MPI_Offset* offset, const void* buf, const MPI_Fint* count,
                        const MPI_Fint* datatype, MPI_Fint* status, MPI_Fint* ierr) {
  at_with_status(MPI_File_write_at, fh, offset, buffer(buf), count, datatype, status, ierr);
}

void mpi_file_read_at_all_(const MPI_Fint* fh, const MPI_Offset* offset, void* buf, const MPI_Fint* count,
                           const MPI_Fint* datatype, MPI_Fint* status, MPI_Fint* ierr) {
  at_with_status(MPI_File_read_at_all, fh, offset, buffer(buf), count, datatype, status, ierr);
}

void mpi_file_write_at_all_(const MPI_Fint* fh, const MPI_Offset* offset, const void* buf, const MPI_Fint* count,
                            const MPI_Fint* datatype, MPI_Fint* status, MPI_Fint* ierr) {
  at_with_status(MPI_File_write_at_all, fh, offset, buffer(buf), count, datatype, status, ierr);
}

void mpi_file_iread_at_(const MPI_Fint* fh, const MPI_Offset* offset, void* buf, const MPI_Fint* count,
                        const MPI_Fint* datatype, MPI_Fint* request, MPI_Fint* ierr) {
  *ierr = MPI_File_iread_at(*fh, *offset, buffer(buf), *count, *datatype, request);
}

void mpi_file_iwrite_at_(const MPI_Fint* fh, const MPI_Offset* offset, const void* buf, const MPI_Fint* count,
                         const MPI_Fint* datatype, MPI_Fint* request, MPI_Fint* ierr) {
  *ierr = MPI_File_iwrite_at(*fh, *offset, buffer(buf), *count, *datatype, request);
}

void mpi_file_iread_at_all_(const MPI_Fint* fh, const MPI_Offset* offset, void* buf, const MPI_Fint* count,
                            const MPI_Fint* datatype, MPI_Fint* request, MPI_Fint* ierr) {
  *ierr = MPI_File_iread_at_all(*fh, *offset, buffer(buf), *count, *datatype, request);
}

void mpi_file_iwrite_at_all_(const MPI_Fint* fh, const MPI_Offset* offset, const void* buf, const MPI_Fint* count,
                             const MPI_Fint* datatype, MPI_Fint* request, MPI_Fint* ierr) {
  *ierr = MPI_File_iwrite_at_all(*fh, *offset, buffer(buf), *count, *datatype, request);
}

void mpi_file_read_at_all_begin_(const MPI_Fint* fh, const MPI_Offset* offset, void* buf, const MPI_Fint* count,
                                 const MPI_Fint* datatype, MPI_Fint* ierr) {
  *ierr = MPI_File_read_at_all_begin(*fh, *offset, buffer(buf), *count, *datatype);
}

void mpi_file_write_at_all_begin_(const MPI_Fint* fh, const MPI_Offset* offset, const void* buf,
                                  const MPI_Fint* count, const MPI_Fint* datatype, MPI_Fint* ierr) {
  *ierr = MPI_File_write_at_all_begin(*fh, *offset, buffer(buf), *count, *datatype);
}

void mpi_file_read_at_all_end_(const MPI_Fint* fh, void* buf, MPI_Fint* status, MPI_Fint* ierr) {
  end_with_status(MPI_File_read_at_all_end, fh, buffer(buf), status, ierr);
}

void mpi_file_write_at_all_end_(const MPI_Fint* fh, const void* buf, MPI_Fint* status, MPI_Fint* ierr) {
  end_with_status(MPI_File_write_at_all_end, fh, buffer(buf), status, ierr);
}


// The individual file pointer.

void mpi_file_read_(const MPI_Fint* fh, void* buf, const MPI_Fint* count, const MPI_Fint* datatype, MPI_Fint* status,
                    MPI_Fint* ierr) {
  with_status(MPI_File_read, fh, buffer(buf), count, datatype, status, ierr);
}

void mpi_file_write_(const MPI_Fint* fh, const void* buf, const MPI_Fint* count, const MPI_Fint* datatype,
                     MPI_Fint* status, MPI_Fint* ierr) {
  with_status(MPI_File_write, fh, buffer(buf), count, datatype, status, ierr);
}

void mpi_file_read_all_(const MPI_Fint* fh, void* buf, const MPI_Fint* count, const MPI_Fint* datatype,
                        MPI_Fint* status, MPI_Fint* ierr) {
  with_status(MPI_File_read_all, fh, buffer(buf), count, datatype, status, ierr);
}

void mpi_file_write_all_(const MPI_Fint* fh, const void* buf, const MPI_Fint* count, const MPI_Fint* datatype,
                         MPI_Fint* status, MPI_Fint* ierr) {
  with_status(MPI_File_write_all, fh, buffer(buf), count, datatype, status, ierr);
}

void mpi_file_iread_(const MPI_Fint* fh, void* buf, const MPI_Fint* count, const MPI_Fint* datatype,
                     MPI_Fint* request, MPI_Fint* ierr) {
  *ierr = MPI_File_iread(*fh, buffer(buf), *count, *datatype, request);
}

void mpi_file_iwrite_(const MPI_Fint* fh, const void* buf, const MPI_Fint* count, const MPI_Fint* datatype,
                      MPI_Fint* request, MPI_Fint* ierr) {
  *ierr = MPI_File_iwrite(*fh, buffer(buf), *count, *datatype, request);
}

void mpi_file_iread_all_(const MPI_Fint* fh, void* buf, const MPI_Fint* count, const MPI_Fint* datatype,
                         MPI_Fint* request, MPI_Fint* ierr) {
  *ierr = MPI_File_iread_all(*fh, buffer(buf), *count, *datatype, request);
}

void mpi_file_iwrite_all_(const MPI_Fint* fh, const void* buf, const MPI_Fint* count, const MPI_Fint* datatype,
                          MPI_Fint* request, MPI_Fint* ierr) {
  *ierr = MPI_File_iwrite_all(*fh, buffer(buf), *count, *datatype, request);
}

void mpi_file_read_all_begin_(const MPI_Fint* fh, void* buf, const MPI_Fint* count, const MPI_Fint* datatype,
                              MPI_Fint* ierr) {
  *ierr = MPI_File_read_all_begin(*fh, buffer(buf), *count, *datatype);
}

void mpi_file_write_all_begin_(const MPI_Fint* fh, const void* buf, const MPI_Fint* count, const MPI_Fint* datatype,
                               MPI_Fint* ierr) {
  *ierr = MPI_File_write_all_begin(*fh, buffer(buf), *count, *datatype);
}

void mpi_file_read_all_end_(const MPI_Fint* fh, void* buf, MPI_Fint* status, MPI_Fint* ierr) {
  end_with_status(MPI_File_read_all_end, fh, buffer(buf), status, ierr);
}

void mpi_file_write_all_end_(const MPI_Fint* fh, const void* buf, MPI_Fint* status, MPI_Fint* ierr) {
  end_with_status(MPI_File_write_all_end, fh, buffer(buf), status, ierr);
}


// The shared file pointer.

void mpi_file_read_shared_(const MPI_Fint* fh, void* buf, const MPI_Fint* count, const MPI_Fint* datatype,
                           MPI_Fint* status, MPI_Fint* ierr) {
  with_status(MPI_File_read_shared, fh, buffer(buf), count, datatype, status, ierr);
}

void mpi_file_write_shared_(const MPI_Fint* fh, const void* buf, const MPI_Fint* count, const MPI_Fint* datatype,
                            MPI_Fint* status, MPI_Fint* ierr) {
  with_status(MPI_File_write_shared, fh, buffer(buf), count, datatype, status, ierr);
}

void mpi_file_iread_shared_(const MPI_Fint* fh, void* buf, const MPI_Fint* count, const MPI_Fint* datatype,
                            MPI_Fint* request, MPI_Fint* ierr) {
  *ierr = MPI_File_iread_shared(*fh, buffer(buf), *count, *datatype, request);
}

void mpi_file_iwrite_shared_(const MPI_Fint* fh, const void* buf, const MPI_Fint* count, const MPI_Fint* datatype,
                             MPI_Fint* request, MPI_Fint* ierr) {
  *ierr = MPI_File_iwrite_shared(*fh, buffer(buf), *count, *datatype, request);
}

void mpi_file_read_ordered_(const MPI_Fint* fh, void* buf, const MPI_Fint* count, const MPI_Fint* datatype,
                            MPI_Fint* status, MPI_Fint* ierr) {
  with_status(MPI_File_read_ordered, fh, buffer(buf), count, datatype, status, ierr);
}

void mpi_file_write_ordered_(const MPI_Fint* fh, const void* buf, const MPI_Fint* count, const MPI_Fint* datatype,
                             MPI_Fint* status, MPI_Fint* ierr) {
  with_status(MPI_File_write_ordered, fh, buffer(buf), count, datatype, status, ierr);
}

void mpi_file_read_ordered_begin_(const MPI_Fint* fh, void* buf, const MPI_Fint* count, const MPI_Fint* datatype,
                                  MPI_Fint* ierr) {
  *ierr = MPI_File_read_ordered_begin(*fh, buffer(buf), *count, *datatype);
}

void mpi_file_write_ordered_begin_(const MPI_Fint* fh, const void* buf, const MPI_Fint* count,
                                   const MPI_Fint* datatype, MPI_Fint* ierr) {
  *ierr = MPI_File_write_ordered_begin(*fh, buffer(buf), *count, *datatype);
}

void mpi_file_read_ordered_end_(const MPI_Fint* fh, void* buf, MPI_Fint* status, MPI_Fint* ierr) {
  end_with_status(MPI_File_read_ordered_end, fh, buffer(buf), status, ierr);
}

void mpi_file_write_ordered_end_(const MPI_Fint* fh, const void* buf, MPI_Fint* status, MPI_Fint* ierr) {
  end_with_status(MPI_File_write_ordered_end, fh, buffer(buf), status, ierr);
}

}  // extern "C"

// The names a profiling tool may replace (see TILEMPI_PMPI_ALIAS).
TILEMPI_PMPI_F_ALIAS(file_open)
TILEMPI_PMPI_F_ALIAS(file_close)
TILEMPI_PMPI_F_ALIAS(file_delete)
TILEMPI_PMPI_F_ALIAS(file_set_view)
TILEMPI_PMPI_F_ALIAS(file_get_view)
TILEMPI_PMPI_F_ALIAS(file_get_type_extent)
TILEMPI_PMPI_F_ALIAS(register_datarep)
TILEMPI_PMPI_F_ALIAS(conversion_fn_null)
TILEMPI_PMPI_F_ALIAS(file_set_atomicity)
TILEMPI_PMPI_F_ALIAS(file_get_atomicity)
TILEMPI_PMPI_F_ALIAS(file_set_size)
TILEMPI_PMPI_F_ALIAS(file_preallocate)
TILEMPI_PMPI_F_ALIAS(file_get_size)
TILEMPI_PMPI_F_ALIAS(file_get_group)
TILEMPI_PMPI_F_ALIAS(file_get_amode)
TILEMPI_PMPI_F_ALIAS(file_seek)
TILEMPI_PMPI_F_ALIAS(file_get_position)
TILEMPI_PMPI_F_ALIAS(file_get_byte_offset)
TILEMPI_PMPI_F_ALIAS(file_seek_shared)
TILEMPI_PMPI_F_ALIAS(file_get_position_shared)
TILEMPI_PMPI_F_ALIAS(file_set_errhandler)
TILEMPI_PMPI_F_ALIAS(file_get_errhandler)
TILEMPI_PMPI_F_ALIAS(file_sync)
TILEMPI_PMPI_F_ALIAS(file_create_errhandler)
TILEMPI_PMPI_F_ALIAS(file_call_errhandler)
TILEMPI_PMPI_F_ALIAS(file_set_info)
TILEMPI_PMPI_F_ALIAS(file_get_info)
TILEMPI_PMPI_F_ALIAS(file_read_at)
TILEMPI_PMPI_F_ALIAS(file_write_at)
TILEMPI_PMPI_F_ALIAS(file_read_at_all)
TILEMPI_PMPI_F_ALIAS(file_write_at_all)
TILEMPI_PMPI_F_ALIAS(file_iread_at)
TILEMPI_PMPI_F_ALIAS(file_iwrite_at)
TILEMPI_PMPI_F_ALIAS(file_iread_at_all)
TILEMPI_PMPI_F_ALIAS(file_iwrite_at_all)
TILEMPI_PMPI_F_ALIAS(file_read_at_all_begin)
TILEMPI_PMPI_F_ALIAS(file_write_at_all_begin)
TILEMPI_PMPI_F_ALIAS(file_read_at_all_end)
TILEMPI_PMPI_F_ALIAS(file_write_at_all_end)
TILEMPI_PMPI_F_ALIAS(file_read)
TILEMPI_PMPI_F_ALIAS(file_write)
TILEMPI_PMPI_F_ALIAS(file_read_all)
TILEMPI_PMPI_F_ALIAS(file_write_all)
TILEMPI_PMPI_F_ALIAS(file_iread)
TILEMPI_PMPI_F_ALIAS(file_iwrite)
TILEMPI_PMPI_F_ALIAS(file_iread_all)
TILEMPI_PMPI_F_ALIAS(file_iwrite_all)
TILEMPI_PMPI_F_ALIAS(file_read_all_begin)
TILEMPI_PMPI_F_ALIAS(file_write_all_begin)
TILEMPI_PMPI_F_ALIAS(file_read_all_end)
TILEMPI_PMPI_F_ALIAS(file_write_all_end)
TILEMPI_PMPI_F_ALIAS(file_read_shared)
TILEMPI_PMPI_F_ALIAS(file_write_shared)
TILEMPI_PMPI_F_ALIAS(file_iread_shared)
TILEMPI_PMPI_F_ALIAS(file_iwrite_shared)
TILEMPI_PMPI_F_ALIAS(file_read_ordered)
TILEMPI_PMPI_F_ALIAS(file_write_ordered)
TILEMPI_PMPI_F_ALIAS(file_read_ordered_begin)
TILEMPI_PMPI_F_ALIAS(file_write_ordered_begin)
TILEMPI_PMPI_F_ALIAS(file_read_ordered_end)
TILEMPI_PMPI_F_ALIAS(file_write_ordered_end)
