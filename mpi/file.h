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
