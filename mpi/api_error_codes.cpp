// Error classes and codes added by a program (MPI-3.1 §8.5): MPI_Add_error_class,
// MPI_Add_error_code, MPI_Add_error_string. New ones are numbered from MPI_ERR_LASTCODE + 1 in
// the order they are added, classes and codes alike (a class is a code of its own class), so
// that every rank that adds the same ones in the same order gets the same numbers, as programs
// expect; MPI_LASTUSEDCODE is the last number handed out.
#include <cstring>
#include <string>
#include <vector>

#include "check.h"
#include "tilempi/transport/rank_local.h"
#include "user_errors.h"

using namespace tilempi::mpi;

namespace {

struct Added {
  int errclass;
  std::string text;  ///< MPI_Add_error_string's ("" until then)
};

struct UserErrors {
  std::vector<Added> added;  ///< [code - MPI_ERR_LASTCODE - 1]
};

UserErrors& user_errors() {
  static tilempi::transport::RankLocal<UserErrors> s;  // per rank (see rank_local.h)
  return s.get();
}

const Added* added(int code) {
  const auto& v = user_errors().added;
  if (code <= MPI_ERR_LASTCODE || static_cast<std::size_t>(code - MPI_ERR_LASTCODE - 1) >= v.size()) return nullptr;
  return &v[static_cast<std::size_t>(code - MPI_ERR_LASTCODE - 1)];
}

int add(int errclass) {
  auto& v = user_errors().added;
  const int code = MPI_ERR_LASTCODE + 1 + static_cast<int>(v.size());
  v.push_back(Added{errclass < 0 ? code : errclass, ""});
  return code;
}

int bad(int cls, const char* fn, const std::string& what) { return raise(MPI_COMM_WORLD, cls, fn, what); }

}  // namespace

namespace tilempi::mpi {

bool user_error_class(int code, int* errclass) {
  const Added* a = added(code);
  if (a) *errclass = a->errclass;
  return a != nullptr;
}

const char* user_error_string(int code) {
  const Added* a = added(code);
  return a ? a->text.c_str() : nullptr;
}

int last_used_error_code() { return MPI_ERR_LASTCODE + static_cast<int>(user_errors().added.size()); }

}  // namespace tilempi::mpi

extern "C" {

int MPI_Add_error_class(int* errorclass) {
  ApiScope api_scope(__func__);
  int rc;
  if (!check::initialized("MPI_Add_error_class", &rc)) return rc;
  if (!errorclass) return bad(MPI_ERR_ARG, "MPI_Add_error_class", "errorclass is NULL");
  *errorclass = add(-1);
  return MPI_SUCCESS;
}

int MPI_Add_error_code(int errorclass, int* errorcode) {
  ApiScope api_scope(__func__);
  const char* fn = "MPI_Add_error_code";
  int rc;
  if (!check::initialized(fn, &rc)) return rc;
  if (!errorcode) return bad(MPI_ERR_ARG, fn, "errorcode is NULL");
  int cls = -1;
  const bool is_class = (errorclass >= MPI_SUCCESS && errorclass <= MPI_ERR_LASTCODE) ||
                        (user_error_class(errorclass, &cls) && cls == errorclass);
  if (!is_class || errorclass == MPI_SUCCESS)
    return bad(MPI_ERR_ARG, fn, std::to_string(errorclass) + " is not an error class");
  *errorcode = add(errorclass);
  return MPI_SUCCESS;
}

int MPI_Add_error_string(int errorcode, const char* string) {
  ApiScope api_scope(__func__);
  const char* fn = "MPI_Add_error_string";
  int rc;
  if (!check::initialized(fn, &rc)) return rc;
  if (!string) return bad(MPI_ERR_ARG, fn, "string is NULL");
  if (std::strlen(string) >= MPI_MAX_ERROR_STRING)
    return bad(MPI_ERR_ARG, fn, "the string is longer than MPI_MAX_ERROR_STRING - 1 characters");
  // Only the codes and classes a program added take a string: the predefined ones keep theirs.
  if (!added(errorcode)) return bad(MPI_ERR_ARG, fn, std::to_string(errorcode) + " is not an added error code or class");
  user_errors().added[static_cast<std::size_t>(errorcode - MPI_ERR_LASTCODE - 1)].text = string;
  return MPI_SUCCESS;
}

}  // extern "C"

// The names a profiling tool may replace (see TILEMPI_PMPI_ALIAS).
TILEMPI_PMPI_ALIAS(Add_error_class)
TILEMPI_PMPI_ALIAS(Add_error_code)
TILEMPI_PMPI_ALIAS(Add_error_string)
