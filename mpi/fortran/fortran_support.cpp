// The sentinel variables behind mpif.h's MPI_BOTTOM, MPI_IN_PLACE, MPI_STATUS_IGNORE,
// MPI_STATUSES_IGNORE, MPI_ERRCODES_IGNORE, MPI_UNWEIGHTED and MPI_WEIGHTS_EMPTY.
//
// A Fortran COMMON block is an ELF common symbol; the library declares the same common
// symbols, so the program's blocks and the library's merge into one object per name (in the
// executable with the static library, interposed over the shared library's copy otherwise).
// They are declared in assembly rather than defined in C++ for two reasons: C++ has no common
// symbols, and an instrumented C++ definition would let AddressSanitizer place redzones
// around the executable's copy, which it does not own. Sizes and the 16-byte alignment are
// gfortran's for the blocks in mpif.h.
#include "fortran_support.h"

#include "tilempi/transport/rank_local.h"

static_assert(TILEMPI_STATUS_INTS * sizeof(MPI_Fint) == 24, "status sentinels below are 24 bytes");

asm(".comm tilempi_bottom_,4,16\n\t"
    ".comm tilempi_in_place_,4,16\n\t"
    ".comm tilempi_status_ignore_,24,16\n\t"
    ".comm tilempi_statuses_ignore_,24,16\n\t"
    ".comm tilempi_errcodes_ignore_,4,16\n\t"
    ".comm tilempi_unweighted_,4,16\n\t"
    ".comm tilempi_weights_empty_,4,16\n\t"
    ".comm tilempi_argv_null_,1,16\n\t"
    ".comm tilempi_argvs_null_,1,16");

namespace tilempi::fortran {

const ImageSentinels& image_sentinels() {
  struct Found {
    ImageSentinels s;
    bool looked = false;
  };
  static transport::RankLocal<Found> per_rank;
  Found& f = per_rank.get();
  if (!f.looked) {
    // Null outside the simulator's contexts: then the library's blocks are the program's.
    f.s.bottom = transport::rank_image_symbol("tilempi_bottom_");
    f.s.in_place = transport::rank_image_symbol("tilempi_in_place_");
    f.s.status_ignore = transport::rank_image_symbol("tilempi_status_ignore_");
    f.s.statuses_ignore = transport::rank_image_symbol("tilempi_statuses_ignore_");
    f.s.unweighted = transport::rank_image_symbol("tilempi_unweighted_");
    f.s.weights_empty = transport::rank_image_symbol("tilempi_weights_empty_");
    f.s.errcodes_ignore = transport::rank_image_symbol("tilempi_errcodes_ignore_");
    f.looked = true;
  }
  return f.s;
}

}  // namespace tilempi::fortran
