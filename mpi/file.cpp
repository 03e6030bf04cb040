// MPI-IO: the file registry and the view's mapping of a rank's data to file bytes (file.h).
#include "file.h"

#include <memory>

#include "tilempi/transport/rank_local.h"

namespace tilempi::mpi {

namespace {

struct Files {
  std::vector<std::unique_ptr<File>> files{1};  // handle 0 is MPI_FILE_NULL
};

Files& files() {
  static transport::RankLocal<Files> f;  // per rank (ranks as contexts share the library)
  return f.get();
}

}  // namespace

File* file_get(MPI_File h) {
  Files& fs = files();
  if (h <= 0 || static_cast<std::size_t>(h) >= fs.files.size()) return nullptr;
  return fs.files[static_cast<std::size_t>(h)].get();
}

MPI_File file_register(std::unique_ptr<File> f) {
  Files& fs = files();
  std::size_t h = 1;
  while (h < fs.files.size() && fs.files[h]) ++h;
  if (h == fs.files.size()) fs.files.emplace_back();
  f->handle = static_cast<MPI_File>(h);
  fs.files[h] = std::move(f);
  return static_cast<MPI_File>(h);
}

void file_release(MPI_File h) {
  if (File* f = file_get(h)) files().files[static_cast<std::size_t>(f->handle)].reset();
}

std::vector<std::pair<std::uint64_t, std::uint64_t>> view_spans(const File& f, std::uint64_t pos, std::uint64_t len) {
  std::vector<std::pair<std::uint64_t, std::uint64_t>> out;
  const Datatype& ft = f.filetype_desc;
  const std::uint64_t disp = static_cast<std::uint64_t>(f.disp);
  if (len == 0) return out;
  auto add = [&](std::uint64_t at, std::uint64_t n) {
    if (!out.empty() && out.back().first + out.back().second == at) out.back().second += n;
    else out.emplace_back(at, n);
  };
  if (ft.contiguous && ft.extent == static_cast<std::ptrdiff_t>(ft.size)) {
    add(disp + pos, len);
    return out;
  }
  // Tile k of the filetype starts at disp + k * extent; the view's data is its blocks in order.
  std::uint64_t k = pos / ft.size, skip = pos % ft.size;
  while (len > 0) {
    const std::int64_t tile = static_cast<std::int64_t>(disp) + static_cast<std::int64_t>(k) * ft.extent;
    for (const Block& b : ft.blocks) {
      if (len == 0) break;
      if (skip >= b.length) {
        skip -= b.length;
        continue;
      }
      const std::uint64_t n = std::min<std::uint64_t>(len, b.length - skip);
      add(static_cast<std::uint64_t>(tile + b.offset) + skip, n);
      len -= n;
      skip = 0;
    }
    ++k;
  }
  return out;
}

}  // namespace tilempi::mpi
