// The choice-buffer helpers of the mpi_f08 entry points, and the entry points the generator does
// not write (mpi/fortran/mpi_f08_gen.py, HANDWRITTEN and extra_interfaces()).
#include "f08_support.h"

#include <cstdio>
#include <cstring>

namespace tilempi::fortran::f08 {

namespace {

/// Calls f(byte offset from base_addr) for each element of the descriptor, in array element order.
template <class F>
void for_each_element(const CFI_cdesc_t* d, F f) {
  const int rank = d->rank;
  std::size_t n = element_count(d);
  if (n == 0) return;
  CFI_index_t index[CFI_MAX_RANK] = {};
  for (std::size_t i = 0; i < n; ++i) {
    CFI_index_t offset = 0;
    for (int k = 0; k < rank; ++k) offset += index[k] * d->dim[k].sm;
    f(offset);
    for (int k = 0; k < rank; ++k) {
      if (++index[k] < d->dim[k].extent) break;
      index[k] = 0;
    }
  }
}

}  // namespace

bool contiguous(const CFI_cdesc_t* d) {
  CFI_index_t expect = static_cast<CFI_index_t>(d->elem_len);
  for (int k = 0; k < d->rank; ++k) {
    const CFI_index_t extent = d->dim[k].extent;
    if (extent == 0) return true;  // empty: nothing to lay out
    if (extent < 0) return true;   // assumed size (last dimension): contiguous by definition
    if (extent > 1 && d->dim[k].sm != expect) return false;
    expect *= extent;
  }
  return true;
}

std::size_t element_count(const CFI_cdesc_t* d) {
  std::size_t n = 1;
  for (int k = 0; k < d->rank; ++k) n *= d->dim[k].extent > 0 ? static_cast<std::size_t>(d->dim[k].extent) : 0;
  return n;
}

MPI_Fint buffer_error(const char* call, const char* why) {
  std::fprintf(stderr, "tilempi: %s (use mpi_f08): %s\n", call, why);
  MPI_Comm_call_errhandler(MPI_COMM_WORLD, MPI_ERR_BUFFER);
  return MPI_ERR_BUFFER;
}

BlockingChoice::BlockingChoice(const CFI_cdesc_t* d, const char*, bool written) : d_(d), written_(written) {
  if (contiguous(d)) return;
  copy_.resize(element_count(d) * d->elem_len);
  const char* base = static_cast<const char*>(d->base_addr);
  char* out = copy_.data();
  const std::size_t len = d->elem_len;
  for_each_element(d, [&](CFI_index_t offset) {
    std::memcpy(out, base + offset, len);
    out += len;
  });
}

void BlockingChoice::finish() {
  if (copy_.empty() || !written_) return;
  char* base = static_cast<char*>(d_->base_addr);
  const char* in = copy_.data();
  const std::size_t len = d_->elem_len;
  for_each_element(d_, [&](CFI_index_t offset) {
    std::memcpy(base + offset, in, len);
    in += len;
  });
}

namespace {

bool same_layout(const CFI_cdesc_t* a, const CFI_cdesc_t* b) {
  if (a->rank != b->rank || a->elem_len != b->elem_len) return false;
  for (int k = 0; k < a->rank; ++k)
    if (a->dim[k].extent != b->dim[k].extent || a->dim[k].sm != b->dim[k].sm) return false;
  return true;
}

/// MPI_IN_PLACE or MPI_BOTTOM: not a buffer of its own.
bool sentinel(const CFI_cdesc_t* d) { return tilempi::fortran::buffer(d->base_addr) != d->base_addr; }

}  // namespace

AsyncChoice::AsyncChoice(const CFI_cdesc_t* own, const char* call, const void* count_arg, const void* datatype_arg,
                         bool per_rank_blocks, std::initializer_list<const CFI_cdesc_t*> companions)
    : d_(own) {
  // The section the datatype describes: this buffer's, or a companion's when this one is
  // contiguous; every other buffer that shares the count and datatype must be laid out alike.
  const CFI_cdesc_t* d = own;
  for (const CFI_cdesc_t* c : companions)
    if (contiguous(d) && !contiguous(c)) d = c;
  if (contiguous(d)) return;
  for (const CFI_cdesc_t* c : companions) {
    for (const CFI_cdesc_t* other : {own, c}) {
      if (other != d && !sentinel(other) && !same_layout(other, d)) {
        err_ = buffer_error(call, "a non-contiguous array section shares its count and datatype with a buffer "
                                  "laid out differently: make both sections alike, or both contiguous");
        return;
      }
    }
  }
  const auto* count = static_cast<const MPI_Fint*>(count_arg);
  const auto* datatype = static_cast<const MPI_Fint*>(datatype_arg);
  if (count == nullptr || datatype == nullptr) {
    err_ = buffer_error(call, "a non-contiguous array section needs a count and datatype of its own here");
    return;
  }
  if (*count == 0) return;
  // The elements of the datatype must be whole array elements: k instances of a gap-free type
  // make one element of the array.
  int size = 0;
  MPI_Aint lb = 0, extent = 0;
  if (MPI_Type_size(*datatype, &size) != MPI_SUCCESS || MPI_Type_get_extent(*datatype, &lb, &extent) != MPI_SUCCESS ||
      size <= 0 || lb != 0 || extent != size || d->elem_len % static_cast<std::size_t>(size) != 0 ||
      *count % static_cast<MPI_Fint>(d->elem_len / static_cast<std::size_t>(size)) != 0) {
    err_ = buffer_error(call, "a non-contiguous array section needs a datatype of whole array elements");
    return;
  }
  const int per_element = static_cast<int>(d->elem_len / static_cast<std::size_t>(size));
  MPI_Datatype element = *datatype;
  if (per_element > 1) MPI_Type_contiguous(per_element, *datatype, &element);
  MPI_Datatype t = MPI_DATATYPE_NULL;
  // Elements a constant stride apart (a 1-D section, or one whose dimensions chain): the element
  // type stretched to the stride, with the same count, which also walks a collective's blocks.
  CFI_index_t stride = 0, next_sm = 0;
  bool uniform = true;
  for (int k = 0; k < d->rank && uniform; ++k) {
    if (d->dim[k].extent <= 1) continue;
    if (stride == 0) {
      stride = d->dim[k].sm;
    } else if (d->dim[k].sm != next_sm) {
      uniform = false;
    }
    next_sm = d->dim[k].sm * d->dim[k].extent;
  }
  const std::size_t have = element_count(d);
  if (uniform && stride > 0) {
    MPI_Type_create_resized(element, 0, stride, &t);
    if (per_element > 1) {
      count_ = *count / per_element;
      replaced_count_ = true;
    }
  } else if (per_rank_blocks) {
    err_ = buffer_error(call, "a collective's non-contiguous buffer must be a section with a constant stride");
  } else if (static_cast<std::size_t>(*count / per_element) > have) {
    err_ = buffer_error(call, "count is larger than the array section");
  } else {
    // The whole message in the section: one hvector per dimension, innermost first, or the
    // first elements of it.
    const std::size_t wanted = static_cast<std::size_t>(*count / per_element);
    MPI_Datatype cur = element;
    if (wanted == have) {
      for (int k = 0; k < d->rank; ++k) {
        MPI_Datatype nt = MPI_DATATYPE_NULL;
        MPI_Type_create_hvector(static_cast<int>(d->dim[k].extent), 1, d->dim[k].sm, cur, &nt);
        if (cur != element) MPI_Type_free(&cur);
        cur = nt;
      }
    } else {
      std::vector<MPI_Aint> displacements;
      displacements.reserve(wanted);
      for_each_element(d, [&](CFI_index_t offset) {
        if (displacements.size() < wanted) displacements.push_back(offset);
      });
      MPI_Type_create_hindexed_block(static_cast<int>(wanted), 1, displacements.data(), cur, &cur);
    }
    t = cur;
    count_ = 1;
    replaced_count_ = true;
  }
  if (element != *datatype) MPI_Type_free(&element);
  if (t == MPI_DATATYPE_NULL) return;
  MPI_Type_commit(&t);
  section_ = t;
}

AsyncChoice::~AsyncChoice() {
  // A pending operation keeps its datatype alive: freeing it now is what MPI_TYPE_FREE allows.
  if (section_ != MPI_DATATYPE_NULL) MPI_Type_free(&section_);
}

WholeChoice::WholeChoice(const CFI_cdesc_t* d, const char* call) : d_(d) {
  if (!contiguous(d)) err_ = buffer_error(call, "the memory must be contiguous, not an array section with gaps");
}

}  // namespace tilempi::fortran::f08

using tilempi::fortran::f08::set_ierror;

extern "C" {

// MPI_BUFFER_DETACH: BUFFER_ADDR is TYPE(C_PTR) in mpi_f08, so the address can come back.
void pmpi_buffer_detach_f08_(void** buffer_addr, MPI_Fint* size, MPI_Fint* ierror) {
  void* addr = nullptr;
  int s = 0;
  const int err = MPI_Buffer_detach(&addr, &s);
  *buffer_addr = addr;
  *size = s;
  set_ierror(ierror, err);
}

void PMPI_Status_f2f08_f08(const MPI_Fint* f_status, MPI_Status* f08_status, MPI_Fint* ierror) {
  set_ierror(ierror, MPI_Status_f2f08(f_status, f08_status));
}

void PMPI_Status_f082f_f08(const MPI_Status* f08_status, MPI_Fint* f_status, MPI_Fint* ierror) {
  set_ierror(ierror, MPI_Status_f082f(f08_status, f_status));
}

// MPI_F_SYNC_REG: a call the compiler cannot see into, so a buffer it names is in memory, not in
// a register, around it (MPI 3.1, section 17.1.17).
void PMPI_F_sync_reg_f08ts(CFI_cdesc_t* buf) { __asm__ volatile("" : : "r"(buf) : "memory"); }

}  // extern "C"

TILEMPI_F08_F_ALIAS(buffer_detach_f08)
TILEMPI_F08_ALIAS(Status_f2f08_f08)
TILEMPI_F08_ALIAS(Status_f082f_f08)
TILEMPI_F08_ALIAS(F_sync_reg_f08ts)
