// MPI-IO over POSIX files (docs/ONESIDED.md, "MPI-IO").
//
// Every rank opens the file itself and reads and writes its own bytes with pread/pwrite: the
// collective calls (_all, _at_all) are each rank's independent I/O, which is correct for any
// views, interleaved ones included, since MPI gives every rank its own bytes to write; no
// aggregation. The view (displacement, etype, filetype) maps the data a rank reads or writes to
// file bytes: the filetype tiles the file from the displacement, and only its data bytes are
// the rank's. The shared file pointer lives in a one-sided window on the file group's first
// rank. On a transport in real time (host) that window is shared memory (MPI_Win_allocate_shared)
// and every rank moves the pointer itself with an atomic add: no wait for the first rank's
// progress. On the sim transport it is moved by MPI_Fetch_and_op, a modeled access (its progress
// rule applies: that rank makes progress inside any MPI call). On the sim transport the I/O is host time charged as the application's compute
// (--compute model or scale:F; nothing with --compute none).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "datatype.h"
#include "info.h"
#include "mpi.h"

namespace tilempi::mpi {

/// A data representation's functions as a Fortran program gives them (MPI-3.1 §17.1.x: every
/// argument by reference; extra_state an INTEGER(KIND=MPI_ADDRESS_KIND)).
using FortranConversion = void(void* userbuf, MPI_Fint* datatype, MPI_Fint* count, void* filebuf,
                               MPI_Offset* position, MPI_Aint* extra_state, MPI_Fint* ierror);
using FortranExtent = void(MPI_Fint* datatype, MPI_Aint* extent, MPI_Aint* extra_state, MPI_Fint* ierror);

/// A data representation registered with MPI_Register_datarep (api_datarep.cpp), by C or Fortran.
struct Datarep {
  std::string name;
  MPI_Datarep_conversion_function* read = nullptr;   ///< file -> memory (MPI_CONVERSION_FN_NULL: none)
  MPI_Datarep_conversion_function* write = nullptr;  ///< memory -> file
  MPI_Datarep_extent_function* extent = nullptr;
  void* extra_state = nullptr;
  // Registered from Fortran: these instead (nullptr conversions: none).
  FortranConversion* f_read = nullptr;
  FortranConversion* f_write = nullptr;
  FortranExtent* f_extent = nullptr;
  MPI_Aint f_extra_state = 0;
};
/// The rank's registered representation of that name, or nullptr ("native" is none).
const Datarep* datarep_find(const std::string& name);
/// Registers a representation whose functions are Fortran's (the binding of MPI_Register_datarep);
/// returns the error class (MPI_ERR_DUP_DATAREP, MPI_ERR_ARG) without raising it.
int datarep_register_fortran(const std::string& name, FortranConversion* read, FortranConversion* write,
                             FortranExtent* extent, MPI_Aint extra_state, std::string* why);
/// Raises an error of no file on MPI_FILE_NULL's handler (MPI-3.1 §13.7); returns what it returns.
int raise_on_file_null(int errclass, const char* fn, const std::string& why);
/// Whether d converts data on the way to the file (write) or from it.
bool datarep_converts(const Datarep& d, bool write);
/// d's conversion of count items of type between userbuf and the contiguous filebuf; its result.
int datarep_convert(const Datarep& d, bool write, void* userbuf, MPI_Datatype type, int count, void* filebuf);
/// d's extent of predefined type h in the file.
int datarep_extent(const Datarep& d, MPI_Datatype h, MPI_Aint* extent);
/// Whether every basic type of datatype h has, in representation d, the extent it has in memory:
/// the one case the file views support (their layout is the types' own); else why not.
bool datarep_layout_native(const Datarep& d, MPI_Datatype h, std::string* why);

struct File {
  MPI_File handle = MPI_FILE_NULL;
  MPI_Comm comm = MPI_COMM_NULL;   ///< private duplicate of the opening communicator
  int fd = -1;
  int amode = 0;
  std::string path;
  MPI_Errhandler errhandler = MPI_ERRORS_RETURN;
  bool atomic = false;
  // The view.
  MPI_Offset disp = 0;
  MPI_Datatype etype = MPI_BYTE, filetype = MPI_BYTE;
  Datatype etype_desc, filetype_desc;  ///< descriptions (the handles may be freed)
  std::string datarep = "native";
  const Datarep* conversion = nullptr;  ///< the view's registered representation (nullptr: native)
  MPI_Offset pointer = 0;          ///< individual file pointer, in etypes of the view
  MPI_Win shared_win = MPI_WIN_NULL;  ///< the shared file pointer (on the group's rank 0)
  /// The pointer's word: rank 0's own on the sim; on host, every rank's view of rank 0's word.
  long long* shared_mem = nullptr;
  bool shared_in_memory = false;   ///< shared_mem is shared memory: move it with atomics
  Hints hints;                     ///< MPI_File_set_info / get_info (none of them changes the I/O)
  /// The split collective access in progress (..._begin did the I/O; ..._end gives its status).
  struct Split {
    bool active = false;
    int pattern = 0;               ///< which begin (api_file.cpp's Pattern)
    bool write = false;
    const void* buf = nullptr;
    MPI_Status status{};
  } split;
};

File* file_get(MPI_File h);
MPI_File file_register(std::unique_ptr<File> f);
void file_release(MPI_File h);

/// The file byte ranges (offset, length) that bytes [pos, pos + len) of the view's data stream
/// occupy.
std::vector<std::pair<std::uint64_t, std::uint64_t>> view_spans(const File& f, std::uint64_t pos, std::uint64_t len);

}  // namespace tilempi::mpi
