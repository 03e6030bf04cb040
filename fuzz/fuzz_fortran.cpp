// Fuzz target: the Fortran bindings' conversions (mpi/fortran): CHARACTER arguments of any
// length and content (trailing blanks, embedded NULs, lengths shorter or longer than the text)
// into info keys and values, blank-padded results into CHARACTER buffers of any length, and
// INTEGER handles of any value into every kind of handle. Runs as one rank, under
// MPI_ERRORS_RETURN: every call must return an MPI error code (never crash, never write past the
// CHARACTER length it was given: buffers have exactly that length, so AddressSanitizer sees a
// byte too many).
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "fuzz_input.h"
#include "mpi.h"

extern "C" {
void mpi_info_create_(MPI_Fint* info, MPI_Fint* ierr);
void mpi_info_free_(MPI_Fint* info, MPI_Fint* ierr);
void mpi_info_set_(const MPI_Fint* info, const char* key, const char* value, MPI_Fint* ierr, std::size_t key_len,
                   std::size_t value_len);
void mpi_info_delete_(const MPI_Fint* info, const char* key, MPI_Fint* ierr, std::size_t key_len);
void mpi_info_get_(const MPI_Fint* info, const char* key, const MPI_Fint* valuelen, char* value, MPI_Fint* flag,
                   MPI_Fint* ierr, std::size_t key_len, std::size_t value_len);
void mpi_info_get_valuelen_(const MPI_Fint* info, const char* key, MPI_Fint* valuelen, MPI_Fint* flag,
                            MPI_Fint* ierr, std::size_t key_len);
void mpi_info_get_nkeys_(const MPI_Fint* info, MPI_Fint* nkeys, MPI_Fint* ierr);
void mpi_info_get_nthkey_(const MPI_Fint* info, const MPI_Fint* n, char* key, MPI_Fint* ierr, std::size_t key_len);
void mpi_error_string_(const MPI_Fint* errorcode, char* string, MPI_Fint* resultlen, MPI_Fint* ierr,
                       std::size_t string_len);
void mpi_error_class_(const MPI_Fint* errorcode, MPI_Fint* errorclass, MPI_Fint* ierr);
void mpi_get_processor_name_(char* name, MPI_Fint* resultlen, MPI_Fint* ierr, std::size_t name_len);
void mpi_get_library_version_(char* version, MPI_Fint* resultlen, MPI_Fint* ierr, std::size_t version_len);
void mpi_comm_size_(const MPI_Fint* comm, MPI_Fint* size, MPI_Fint* ierr);
void mpi_comm_free_(MPI_Fint* comm, MPI_Fint* ierr);
void mpi_group_size_(const MPI_Fint* group, MPI_Fint* size, MPI_Fint* ierr);
void mpi_group_free_(MPI_Fint* group, MPI_Fint* ierr);
void mpi_type_size_(const MPI_Fint* datatype, MPI_Fint* size, MPI_Fint* ierr);
void mpi_type_free_(MPI_Fint* datatype, MPI_Fint* ierr);
void mpi_type_contiguous_(const MPI_Fint* count, const MPI_Fint* oldtype, MPI_Fint* newtype, MPI_Fint* ierr);
void mpi_type_commit_(MPI_Fint* datatype, MPI_Fint* ierr);
void mpi_op_free_(MPI_Fint* op, MPI_Fint* ierr);
void mpi_errhandler_free_(MPI_Fint* errhandler, MPI_Fint* ierr);
void mpi_wait_(MPI_Fint* request, MPI_Fint* status, MPI_Fint* ierr);
void mpi_test_(MPI_Fint* request, MPI_Fint* flag, MPI_Fint* status, MPI_Fint* ierr);
void mpi_request_free_(MPI_Fint* request, MPI_Fint* ierr);
void mpi_waitany_(const MPI_Fint* count, MPI_Fint* requests, MPI_Fint* index, MPI_Fint* status, MPI_Fint* ierr);
void mpi_testall_(const MPI_Fint* count, MPI_Fint* requests, MPI_Fint* flag, MPI_Fint* statuses, MPI_Fint* ierr);
}

namespace {

/// A CHARACTER(len) argument: exactly len bytes on the heap, so that a write past it is seen.
struct Chars {
  explicit Chars(std::size_t len) : n(len), p(new char[len == 0 ? 1 : len]) { std::memset(p.get(), '?', n); }
  std::size_t n;
  std::unique_ptr<char[]> p;
  bool blank_padded_after(std::size_t used) const {
    for (std::size_t i = used; i < n; ++i)
      if (p[i] != ' ') return false;
    return true;
  }
};

Chars chars_of(const std::string& s) {
  Chars c(s.size());
  std::memcpy(c.p.get(), s.data(), s.size());
  return c;
}

/// Every return code must be an error code the library knows (MPI_Error_class accepts it).
void check_code(MPI_Fint ierr) {
  int cls = -1;
  if (MPI_Error_class(ierr, &cls) != MPI_SUCCESS) std::abort();
}

/// A handle: mostly near the predefined ones (small numbers and the constants' neighbourhoods),
/// sometimes any integer.
MPI_Fint handle(tilempi::fuzz::Bytes& in) {
  const std::uint32_t how = in.below(4);
  if (how == 0) return static_cast<MPI_Fint>(in.take<std::uint32_t>());
  const MPI_Fint bases[] = {0, MPI_Comm_c2f(MPI_COMM_WORLD), MPI_Type_c2f(MPI_INT), MPI_Op_c2f(MPI_SUM),
                            MPI_Request_c2f(MPI_REQUEST_NULL), MPI_Group_c2f(MPI_GROUP_EMPTY)};
  return bases[in.below(6)] + static_cast<MPI_Fint>(in.take<std::int8_t>());
}

MPI_Fint g_info = 0;

void initialize() {
  static bool done = false;
  if (done) return;
  done = true;
  if (MPI_Init(nullptr, nullptr) != MPI_SUCCESS) std::abort();
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
  MPI_Fint ierr = 0;
  mpi_info_create_(&g_info, &ierr);
  if (ierr != MPI_SUCCESS) std::abort();
  // Never finalized: the process ends with the fuzzer (a rank started without tilempirun owns
  // no shared memory).
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 4096) return 0;
  initialize();
  tilempi::fuzz::Bytes in(data, size);
  for (int step = 0; step < 16 && !in.empty(); ++step) {
    MPI_Fint ierr = MPI_SUCCESS, flag = -1, n = 0, h = 0;
    switch (in.below(16)) {
      case 0: {  // MPI_INFO_SET on the one info object (or on a handle of any value)
        Chars key = chars_of(in.text()), value = chars_of(in.text(1100));
        const MPI_Fint info = in.below(8) == 0 ? handle(in) : g_info;
        mpi_info_set_(&info, key.p.get(), value.p.get(), &ierr, key.n, value.n);
        break;
      }
      case 1: {  // MPI_INFO_GET with any VALUELEN into a CHARACTER of any length
        Chars key = chars_of(in.text());
        const MPI_Fint valuelen = static_cast<MPI_Fint>(in.below(1200)) - 8;
        Chars value(in.below(1100));
        mpi_info_get_(&g_info, key.p.get(), &valuelen, value.p.get(), &flag, &ierr, key.n, value.n);
        if (ierr == MPI_SUCCESS && flag != 0 && flag != 1) std::abort();
        break;
      }
      case 2: {
        Chars key = chars_of(in.text());
        mpi_info_delete_(&g_info, key.p.get(), &ierr, key.n);
        break;
      }
      case 3: {
        Chars key = chars_of(in.text());
        mpi_info_get_valuelen_(&g_info, key.p.get(), &n, &flag, &ierr, key.n);
        break;
      }
      case 4: {  // MPI_INFO_GET_NTHKEY with any N into a key of any length
        mpi_info_get_nkeys_(&g_info, &n, &ierr);
        if (ierr != MPI_SUCCESS || n < 0) std::abort();
        const MPI_Fint nth = static_cast<MPI_Fint>(in.below(static_cast<std::uint32_t>(n) + 4)) - 2;
        Chars key(in.below(300));
        mpi_info_get_nthkey_(&g_info, &nth, key.p.get(), &ierr, key.n);
        if (ierr == MPI_SUCCESS && (nth < 0 || nth >= n)) std::abort();
        break;
      }
      case 5: {  // MPI_ERROR_STRING of any code into a CHARACTER of any length
        const MPI_Fint code = static_cast<MPI_Fint>(in.take<std::int32_t>() % 200);
        Chars s(in.below(600));
        mpi_error_string_(&code, s.p.get(), &n, &ierr, s.n);
        if (n < 0 || static_cast<std::size_t>(n) > s.n || !s.blank_padded_after(static_cast<std::size_t>(n))) std::abort();
        MPI_Fint cls = 0;
        mpi_error_class_(&code, &cls, &ierr);
        break;
      }
      case 6: {
        Chars s(in.below(300));
        if (in.below(2)) mpi_get_processor_name_(s.p.get(), &n, &ierr, s.n);
        else mpi_get_library_version_(s.p.get(), &n, &ierr, s.n);
        if (ierr != MPI_SUCCESS || n < 0 || static_cast<std::size_t>(n) > s.n) std::abort();
        if (!s.blank_padded_after(static_cast<std::size_t>(n))) std::abort();
        break;
      }
      case 7:
        h = handle(in);
        mpi_comm_size_(&h, &n, &ierr);
        break;
      case 8:
        h = handle(in);
        if (h == MPI_Comm_c2f(MPI_COMM_WORLD) || h == MPI_Comm_c2f(MPI_COMM_SELF)) break;
        mpi_comm_free_(&h, &ierr);
        break;
      case 9:
        h = handle(in);
        if (in.below(2)) mpi_group_size_(&h, &n, &ierr);
        else mpi_group_free_(&h, &ierr);
        break;
      case 10:
        h = handle(in);
        if (in.below(2)) {
          mpi_type_size_(&h, &n, &ierr);
        } else {
          mpi_type_free_(&h, &ierr);
        }
        break;
      case 11: {  // a derived type from any count and old type; freed again when it was made
        const MPI_Fint count = static_cast<MPI_Fint>(in.take<std::int16_t>());
        const MPI_Fint old = handle(in);
        MPI_Fint t = 0;
        mpi_type_contiguous_(&count, &old, &t, &ierr);
        if (ierr == MPI_SUCCESS) {
          mpi_type_commit_(&t, &ierr);
          check_code(ierr);
          mpi_type_free_(&t, &ierr);
          if (ierr != MPI_SUCCESS) std::abort();
        }
        break;
      }
      case 12:
        h = handle(in);
        if (in.below(2)) mpi_op_free_(&h, &ierr);
        else mpi_errhandler_free_(&h, &ierr);
        break;
      case 13: {  // a request handle of any value: wait, test, free
        h = handle(in);
        // Handle 1 is valid without a start: the completed request every send the transport took
        // at once shares (mpi/p2p.cpp, kSendComplete), so waiting on it succeeds.
        if (h == MPI_Request_c2f(MPI_REQUEST_NULL) || h == 1) break;
        MPI_Fint status[TILEMPI_STATUS_INTS] = {};
        switch (in.below(3)) {
          case 0: mpi_wait_(&h, status, &ierr); break;
          case 1: mpi_test_(&h, &flag, status, &ierr); break;
          default: mpi_request_free_(&h, &ierr);
        }
        if (ierr == MPI_SUCCESS) std::abort();  // no request was ever started
        break;
      }
      case 14: {  // arrays of requests: any count up to the array's length, any handles
        MPI_Fint reqs[8];
        const MPI_Fint count = static_cast<MPI_Fint>(in.below(9));
        for (MPI_Fint& r : reqs) {
          r = in.below(3) ? MPI_Request_c2f(MPI_REQUEST_NULL) : handle(in);
        }
        MPI_Fint statuses[8 * TILEMPI_STATUS_INTS] = {};
        if (in.below(2)) mpi_waitany_(&count, reqs, &n, statuses, &ierr);
        else mpi_testall_(&count, reqs, &flag, statuses, &ierr);
        break;
      }
      default: {
        const MPI_Fint code = static_cast<MPI_Fint>(in.take<std::int32_t>());
        MPI_Fint cls = 0;
        mpi_error_class_(&code, &cls, &ierr);
      }
    }
    check_code(ierr);
  }
  return 0;
}
