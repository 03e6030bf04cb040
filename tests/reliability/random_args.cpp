// Randomized MPI argument testing: every rank calls the MPI API with random arguments under
// MPI_ERRORS_RETURN, and a reference model says what each call must do. At most one argument of
// a call is invalid (so the error class is defined): then the call must return that class and
// move no data; a valid call must return MPI_SUCCESS (or MPI_ERR_TRUNCATE for a receive made
// too small on purpose) and deliver exactly the data the model computes. After either, the
// library must still work: every few calls all ranks check a collective sum of the call number.
//
//   random_args [CALLS [SEED]]     (SEED: else TILEMPI_RANDOM_SEED, else from the clock)
//
// Every rank draws the same calls from the same seed, so the ranks agree on who sends, who
// receives and what every collective is given. Rank 0 prints the seed first: a failure replays
// with `tilempirun -n N random_args CALLS SEED`. The closing line counts the calls, the invalid
// ones and the failures; the exit status is 1 when a call did not do what the model says.
#include <mpi.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

/// splitmix64: the same stream on every rank and every platform.
struct Rng {
  std::uint64_t s;
  std::uint64_t next() {
    std::uint64_t z = (s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  int below(int n) { return n <= 0 ? 0 : static_cast<int>(next() % static_cast<std::uint64_t>(n)); }
  bool chance(int percent) { return below(100) < percent; }
};

int g_rank = 0, g_size = 1;
long g_failures = 0;
long g_calls = 0, g_invalid = 0;
std::uint64_t g_seed = 0;
bool g_trace = false;  ///< TILEMPI_RANDOM_TRACE=1: every call on stderr, to narrow a failure down

void fail(long call, const char* what, const std::string& detail) {
  ++g_failures;
  if (g_failures <= 20)
    std::fprintf(stderr, "random_args: rank %d, call %ld (%s): %s [seed %llu]\n", g_rank, call, what, detail.c_str(),
                 static_cast<unsigned long long>(g_seed));
}

std::string class_name(int code) {
  if (code == MPI_SUCCESS) return "MPI_SUCCESS";
  int cls = -1;
  MPI_Error_class(code, &cls);
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  MPI_Error_string(cls, text, &len);
  return "class " + std::to_string(cls) + " (" + std::string(text, static_cast<std::size_t>(len)) + ")";
}

void expect_class(long call, const char* what, int rc, int expected) {
  int cls = rc;
  if (rc != MPI_SUCCESS) MPI_Error_class(rc, &cls);
  if (cls != expected) fail(call, what, "returned " + class_name(rc) + ", the model says " + class_name(expected));
}

// ---- the pools the calls draw from ------------------------------------------------------------

/// A valid datatype and which bytes of one element's extent carry data.
struct Type {
  MPI_Datatype t;
  const char* name;
  std::vector<bool> data;  ///< per byte of the extent
  bool is_int;             ///< reductions with integer ops
  bool is_double;
};
std::vector<Type> g_types;

void add_type(MPI_Datatype t, const char* name, bool is_int, bool is_double) {
  MPI_Aint lb = 0, extent = 0;
  MPI_Type_get_extent(t, &lb, &extent);
  int size = 0;
  MPI_Type_size(t, &size);
  Type ty{t, name, std::vector<bool>(static_cast<std::size_t>(extent), size == extent), is_int, is_double};
  g_types.push_back(ty);
}

void make_types() {
  add_type(MPI_INT, "MPI_INT", true, false);
  add_type(MPI_DOUBLE, "MPI_DOUBLE", false, true);
  add_type(MPI_CHAR, "MPI_CHAR", false, false);
  add_type(MPI_BYTE, "MPI_BYTE", false, false);
  add_type(MPI_LONG_LONG, "MPI_LONG_LONG", true, false);
  MPI_Datatype c3;
  MPI_Type_contiguous(3, MPI_INT, &c3);
  MPI_Type_commit(&c3);
  add_type(c3, "contiguous(3, MPI_INT)", false, false);
  // vector(2, 1, 2, MPI_INT): ints 0 and 2 of an extent of three.
  MPI_Datatype v;
  MPI_Type_vector(2, 1, 2, MPI_INT, &v);
  MPI_Type_commit(&v);
  add_type(v, "vector(2, 1, 2, MPI_INT)", false, false);
  Type& vt = g_types.back();
  for (std::size_t b = 0; b < vt.data.size(); ++b) vt.data[b] = b < 4 || b >= 8;
}

MPI_Datatype g_uncommitted = MPI_DATATYPE_NULL;

/// The communicators: world, a duplicate, the ranks of my parity, self. Each rank holds its own.
struct Comm {
  MPI_Comm c;
  const char* name;
  int rank, size;
};
std::vector<Comm> g_comms;

void make_comms() {
  auto add = [](MPI_Comm c, const char* name) {
    Comm k{c, name, 0, 0};
    MPI_Comm_rank(c, &k.rank);
    MPI_Comm_size(c, &k.size);
    g_comms.push_back(k);
  };
  add(MPI_COMM_WORLD, "MPI_COMM_WORLD");
  MPI_Comm dup, parity;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  MPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN);
  add(dup, "dup(world)");
  MPI_Comm_split(MPI_COMM_WORLD, g_rank % 2, g_size - g_rank, &parity);
  MPI_Comm_set_errhandler(parity, MPI_ERRORS_RETURN);
  add(parity, "split(parity, reversed)");
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
  add(MPI_COMM_SELF, "MPI_COMM_SELF");
}

/// The invalid values of each argument, with the class the model expects.
constexpr MPI_Comm kBogusComm = 999;
constexpr MPI_Datatype kBogusType = 12345;
constexpr MPI_Op kBogusOp = 4242;
constexpr MPI_Request kBogusRequest = 4243;

/// The byte a rank writes at position i of the message of call `call`.
unsigned char pattern(long call, int rank, std::size_t i) {
  return static_cast<unsigned char>((call * 131 + rank * 17 + static_cast<long>(i) * 7 + 1) & 0xff);
}
constexpr unsigned char kUntouched = 0xEE;

/// Buffers of `count` elements of type ty, filled by the sender / to be checked by the receiver.
std::vector<unsigned char> filled(const Type& ty, int count, long call, int rank) {
  std::vector<unsigned char> b(ty.data.size() * static_cast<std::size_t>(count) + 1);
  for (std::size_t i = 0; i < b.size(); ++i) b[i] = pattern(call, rank, i);
  return b;
}
/// Whether `got` holds what `count` elements from `rank` carry, and kUntouched everywhere else.
bool holds(const Type& ty, const std::vector<unsigned char>& got, int count, long call, int rank) {
  const std::size_t ext = ty.data.size();
  for (std::size_t i = 0; i < got.size(); ++i) {
    const bool data = i < ext * static_cast<std::size_t>(count) && ty.data[i % ext];
    if (got[i] != (data ? pattern(call, rank, i) : kUntouched)) return false;
  }
  return true;
}

// ---- point to point ---------------------------------------------------------------------------

/// One send from s to d in a communicator of the pool, with at most one invalid argument on one
/// side; the other side then does nothing.
void p2p(Rng& rng, long call) {
  const Comm& k = g_comms[static_cast<std::size_t>(rng.below(static_cast<int>(g_comms.size())))];
  const int s = rng.below(k.size), d = rng.below(k.size);
  const Type& ty = g_types[static_cast<std::size_t>(rng.below(static_cast<int>(g_types.size())))];
  const int count = rng.below(5);
  const int tag = rng.chance(20) ? 32767 : rng.below(100);
  const bool nonblocking = rng.chance(40);
  const bool truncate = count > 0 && rng.chance(10);
  // Which argument of which side is invalid (0: none).
  const int bad = rng.chance(45) ? 1 + rng.below(9) : 0;
  const bool bad_on_sender = rng.chance(50);
  const bool alt = rng.chance(50);  // which invalid value, where there are two
  if (bad) ++g_invalid;
  const bool am_s = k.rank == s, am_d = k.rank == d;
  if (!am_s && !am_d) return;

  auto run = [&](bool sender) {
    int dest = sender ? d : s, t = tag, n = sender ? count : (truncate ? count - 1 : count);
    MPI_Datatype type = ty.t;
    MPI_Comm comm = k.c;
    std::vector<unsigned char> buf = sender ? filled(ty, count, call, s)
                                            : std::vector<unsigned char>(ty.data.size() * static_cast<std::size_t>(count) + 1, kUntouched);
    void* p = buf.data();
    int expected = MPI_SUCCESS;
    const bool mine = bad && bad_on_sender == sender;
    if (mine) {
      switch (bad) {
        case 1: dest = k.size; expected = MPI_ERR_RANK; break;
        case 2: dest = -7; expected = MPI_ERR_RANK; break;
        case 3: t = sender ? MPI_ANY_TAG : -5; expected = MPI_ERR_TAG; break;
        case 4: n = -1; expected = MPI_ERR_COUNT; break;
        case 5: type = alt ? kBogusType : MPI_DATATYPE_NULL; expected = MPI_ERR_TYPE; break;
        case 6: type = g_uncommitted; expected = MPI_ERR_TYPE; break;
        case 7: comm = alt ? kBogusComm : MPI_COMM_NULL; expected = MPI_ERR_COMM; break;
        case 8: p = nullptr; n = n > 0 ? n : 1; expected = MPI_ERR_BUFFER; break;
        default: t = -1000; expected = MPI_ERR_TAG; break;
      }
    } else if (bad) {
      return;  // the other side's call fails: this side posts nothing
    }
    // A self-send must not block: always nonblocking then.
    const bool nb = nonblocking || s == d;
    MPI_Status st;
    std::memset(&st, 0, sizeof st);
    int rc;
    MPI_Request req = MPI_REQUEST_NULL;
    if (sender) {
      rc = nb ? MPI_Isend(p, n, type, dest, t, comm, &req) : MPI_Send(p, n, type, dest, t, comm);
    } else {
      rc = nb ? MPI_Irecv(p, n, type, dest, t, comm, &req) : MPI_Recv(p, n, type, dest, t, comm, &st);
    }
    if (g_trace)
      std::fprintf(stderr, "random_args: rank %d, call %ld: %s%s on %s, peer %d, tag %d, count %d, %s, invalid argument %d -> %d\n",
                   g_rank, call, nb ? "i" : "", sender ? "send" : "recv", k.name, dest, t, n, ty.name, mine ? bad : 0, rc);
    if (mine) {
      expect_class(call, sender ? "send" : "recv", rc, expected);
      if (nb && req != MPI_REQUEST_NULL) fail(call, "isend/irecv", "a failed call returned a request");
      return;
    }
    if (rc != MPI_SUCCESS && !(rc == MPI_ERR_TRUNCATE && truncate && !sender)) {
      fail(call, sender ? "send" : "recv", "valid call returned " + class_name(rc));
      return;
    }
    if (nb && !(sender && s == d)) {
      rc = MPI_Wait(&req, &st);
      if (req != MPI_REQUEST_NULL) fail(call, "wait", "the request is not MPI_REQUEST_NULL after MPI_Wait");
    }
    if (sender && s == d) {
      // The receive side of a self-send, then both waits.
      std::vector<unsigned char> in(ty.data.size() * static_cast<std::size_t>(count) + 1, kUntouched);
      MPI_Request rr;
      MPI_Status rs;
      const int rn = truncate ? count - 1 : count;
      if (MPI_Irecv(in.data(), rn, ty.t, s, tag, comm, &rr) != MPI_SUCCESS) fail(call, "self irecv", "failed");
      const int wr = MPI_Wait(&rr, &rs);
      MPI_Wait(&req, MPI_STATUS_IGNORE);
      if (truncate) {
        if (wr != MPI_ERR_TRUNCATE && rs.MPI_ERROR != MPI_ERR_TRUNCATE) fail(call, "self recv", "no MPI_ERR_TRUNCATE");
      } else if (wr != MPI_SUCCESS || !holds(ty, in, count, call, s)) {
        fail(call, "self recv", "wrong data or " + class_name(wr));
      }
      return;
    }
    if (!sender) {
      if (truncate) {
        if (rc != MPI_ERR_TRUNCATE && st.MPI_ERROR != MPI_ERR_TRUNCATE)
          fail(call, "recv", "a message longer than the receive gave no MPI_ERR_TRUNCATE");
        return;
      }
      if (rc != MPI_SUCCESS) fail(call, "wait(recv)", class_name(rc));
      int got = -1;
      MPI_Get_count(&st, ty.t, &got);
      if (st.MPI_SOURCE != s || st.MPI_TAG != tag || got != count)
        fail(call, "recv status", "source " + std::to_string(st.MPI_SOURCE) + " tag " + std::to_string(st.MPI_TAG) +
                                      " count " + std::to_string(got) + ", the model says " + std::to_string(s) + ", " +
                                      std::to_string(tag) + ", " + std::to_string(count));
      if (!holds(ty, buf, count, call, s)) fail(call, "recv data", std::string("wrong bytes with ") + ty.name);
    }
  };
  if (am_s) run(true);
  if (am_d && s != d) run(false);
}

// ---- collectives ------------------------------------------------------------------------------

struct OpInfo {
  MPI_Op op;
  const char* name;
  bool ints, doubles;  ///< valid on integer / floating types
};
const OpInfo kOps[] = {{MPI_SUM, "MPI_SUM", true, true},   {MPI_PROD, "MPI_PROD", true, true},
                       {MPI_MAX, "MPI_MAX", true, true},   {MPI_MIN, "MPI_MIN", true, true},
                       {MPI_BAND, "MPI_BAND", true, false}, {MPI_BOR, "MPI_BOR", true, false},
                       {MPI_BXOR, "MPI_BXOR", true, false}, {MPI_LAND, "MPI_LAND", true, false},
                       {MPI_LOR, "MPI_LOR", true, false}};

long long int_value(long call, int rank, int i) { return (call * 7 + rank * 3 + i * 5) % 11 - 3; }

long long reduce_ll(const OpInfo& o, long long a, long long b) {
  if (o.op == MPI_SUM) return a + b;
  if (o.op == MPI_PROD) return a * b;
  if (o.op == MPI_MAX) return a > b ? a : b;
  if (o.op == MPI_MIN) return a < b ? a : b;
  if (o.op == MPI_BAND) return a & b;
  if (o.op == MPI_BOR) return a | b;
  if (o.op == MPI_BXOR) return a ^ b;
  if (o.op == MPI_LAND) return (a && b) ? 1 : 0;
  return (a || b) ? 1 : 0;
}

/// One collective on a communicator of the pool, with at most one invalid argument, the same on
/// every rank (so that every rank fails alike and none waits for another).
void collective(Rng& rng, long call) {
  const Comm& k = g_comms[static_cast<std::size_t>(rng.below(static_cast<int>(g_comms.size())))];
  const int which = rng.below(8);
  const int count = rng.below(6);
  const int root = rng.below(k.size);
  const OpInfo& op = kOps[rng.below(static_cast<int>(sizeof kOps / sizeof kOps[0]))];
  const bool as_double = !op.ints ? false : (op.doubles && rng.chance(30));
  const int bad = rng.chance(40) ? 1 + rng.below(6) : 0;
  if (bad) ++g_invalid;
  MPI_Comm comm = k.c;
  MPI_Datatype type = as_double ? MPI_DOUBLE : MPI_LONG_LONG;
  MPI_Op o = op.op;
  int n = count, r = root, expected = MPI_SUCCESS;
  const bool rooted = which <= 3;  // bcast, reduce, gather, scatter
  const bool reduces = which == 1 || which == 4;
  switch (bad) {
    case 1: comm = kBogusComm; expected = MPI_ERR_COMM; break;
    case 2: n = -1; expected = MPI_ERR_COUNT; break;
    case 3: type = kBogusType; expected = MPI_ERR_TYPE; break;
    case 4:
      if (rooted) { r = k.size + 2; expected = MPI_ERR_ROOT; }
      else { comm = MPI_COMM_NULL; expected = MPI_ERR_COMM; }
      break;
    case 5:
      if (reduces) { o = rng.chance(50) ? kBogusOp : MPI_OP_NULL; expected = MPI_ERR_OP; }
      else { type = g_uncommitted; expected = MPI_ERR_TYPE; }
      break;
    case 6:
      if (reduces) { type = MPI_DOUBLE; o = MPI_BAND; expected = MPI_ERR_OP; }  // a bitwise op on doubles
      else { type = MPI_DATATYPE_NULL; expected = MPI_ERR_TYPE; }
      break;
    default: break;
  }
  const int size = k.size, me = k.rank;
  const std::size_t per = static_cast<std::size_t>(count);
  std::vector<long long> in(per * static_cast<std::size_t>(size) + 1), out(per * static_cast<std::size_t>(size) + 1, -99);
  std::vector<double> din(in.size()), dout(out.size(), -99);
  for (std::size_t i = 0; i < in.size(); ++i) {
    in[i] = int_value(call, me, static_cast<int>(i));
    din[i] = static_cast<double>(in[i]);
  }
  void* sb = type == MPI_DOUBLE ? static_cast<void*>(din.data()) : static_cast<void*>(in.data());
  void* rb = type == MPI_DOUBLE ? static_cast<void*>(dout.data()) : static_cast<void*>(out.data());
  int rc = MPI_SUCCESS;
  const char* name = "";
  switch (which) {
    case 0: name = "MPI_Bcast"; rc = MPI_Bcast(me == root ? sb : rb, n, type, r, comm); break;
    case 1: name = "MPI_Reduce"; rc = MPI_Reduce(sb, rb, n, type, o, r, comm); break;
    case 2: name = "MPI_Gather"; rc = MPI_Gather(sb, n, type, rb, n, type, r, comm); break;
    case 3: name = "MPI_Scatter"; rc = MPI_Scatter(sb, n, type, rb, n, type, r, comm); break;
    case 4: name = "MPI_Allreduce"; rc = MPI_Allreduce(sb, rb, n, type, o, comm); break;
    case 5: name = "MPI_Allgather"; rc = MPI_Allgather(sb, n, type, rb, n, type, comm); break;
    case 6: name = "MPI_Alltoall"; rc = MPI_Alltoall(sb, n, type, rb, n, type, comm); break;
    default: name = "MPI_Barrier"; rc = bad == 1 || (bad == 4 && !rooted) ? MPI_Barrier(comm) : MPI_Barrier(k.c);
             if (!(bad == 1 || (bad == 4 && !rooted))) expected = MPI_SUCCESS;
  }
  if (g_trace)
    std::fprintf(stderr, "random_args: rank %d, call %ld: %s on %s, count %d, root %d, invalid argument %d -> %d\n",
                 g_rank, call, name, k.name, n, r, bad, rc);
  if (expected != MPI_SUCCESS) {
    expect_class(call, name, rc, expected);
    return;
  }
  if (rc != MPI_SUCCESS) {
    fail(call, name, "valid call returned " + class_name(rc) + " on " + k.name);
    return;
  }
  // The model of the result, as long long (doubles hold these small integers exactly).
  auto got = [&](std::size_t i) -> long long {
    return type == MPI_DOUBLE ? static_cast<long long>(dout[i]) : out[i];
  };
  bool ok = true;
  switch (which) {
    case 0:
      if (me != root)
        for (std::size_t i = 0; i < per; ++i) ok = ok && got(i) == int_value(call, root, static_cast<int>(i));
      break;
    case 1:
    case 4:
      if (which == 4 || me == root)
        for (std::size_t i = 0; i < per; ++i) {
          long long v = int_value(call, 0, static_cast<int>(i));
          for (int q = 1; q < size; ++q) v = reduce_ll(op, v, int_value(call, q, static_cast<int>(i)));
          if (ok && got(i) != v)
            fail(call, name, "element " + std::to_string(i) + " is " + std::to_string(got(i)) + ", the model says " +
                                 std::to_string(v));
          ok = ok && got(i) == v;
        }
      break;
    case 2:
    case 5:
      if (which == 5 || me == root)
        for (int q = 0; q < size; ++q)
          for (std::size_t i = 0; i < per; ++i)
            ok = ok && got(static_cast<std::size_t>(q) * per + i) == int_value(call, q, static_cast<int>(i));
      break;
    case 3:
      for (std::size_t i = 0; i < per; ++i)
        ok = ok && got(i) == int_value(call, root, static_cast<int>(static_cast<std::size_t>(me) * per + i));
      break;
    case 6:
      for (int q = 0; q < size; ++q)
        for (std::size_t i = 0; i < per; ++i)
          ok = ok && got(static_cast<std::size_t>(q) * per + i) ==
                         int_value(call, q, static_cast<int>(static_cast<std::size_t>(me) * per + i));
      break;
    default: break;
  }
  // Nothing written past the result.
  const std::size_t used = which == 2 || which == 5 || which == 6 ? per * static_cast<std::size_t>(size) : per;
  const bool writes = which != 7 && !(which == 0 && me == root) && !(which == 1 && me != root) && !(which == 2 && me != root);
  for (std::size_t i = writes ? used : 0; i < out.size(); ++i) ok = ok && got(i) == -99;
  if (!ok)
    fail(call, name, std::string("wrong data on ") + k.name + " (count " + std::to_string(count) + ", root " +
                         std::to_string(root) + ", " + (type == MPI_DOUBLE ? "MPI_DOUBLE" : "MPI_LONG_LONG") +
                         (reduces ? std::string(", ") + op.name : std::string()) + ")");
}

// ---- requests, communicators, datatypes -------------------------------------------------------

void handles(Rng& rng, long call) {
  const int which = rng.below(8);
  ++g_invalid;
  MPI_Status st;
  int flag = 0, n = 0;
  switch (which) {
    case 0: {
      MPI_Request r = kBogusRequest + rng.below(1000);
      expect_class(call, "MPI_Wait(bogus)", MPI_Wait(&r, &st), MPI_ERR_REQUEST);
      break;
    }
    case 1: {
      MPI_Request r = kBogusRequest;
      expect_class(call, "MPI_Test(bogus)", MPI_Test(&r, &flag, &st), MPI_ERR_REQUEST);
      break;
    }
    case 2: {
      --g_invalid;  // valid: the null request completes at once with an empty status
      MPI_Request r = MPI_REQUEST_NULL;
      st.MPI_SOURCE = 5;
      expect_class(call, "MPI_Wait(null)", MPI_Wait(&r, &st), MPI_SUCCESS);
      if (st.MPI_SOURCE != MPI_ANY_SOURCE || st.MPI_TAG != MPI_ANY_TAG) fail(call, "MPI_Wait(null)", "status not empty");
      break;
    }
    case 3: {
      MPI_Comm w = MPI_COMM_WORLD;
      expect_class(call, "MPI_Comm_free(world)", MPI_Comm_free(&w), MPI_ERR_COMM);
      break;
    }
    case 4:
      expect_class(call, "MPI_Comm_size(bogus)", MPI_Comm_size(kBogusComm + rng.below(100), &n), MPI_ERR_COMM);
      break;
    case 5: {
      MPI_Datatype t;
      const int c = -1 - rng.below(5);
      expect_class(call, "MPI_Type_contiguous(negative)", MPI_Type_contiguous(c, MPI_INT, &t), MPI_ERR_COUNT);
      break;
    }
    case 6: {
      MPI_Datatype t = MPI_INT;
      expect_class(call, "MPI_Type_free(predefined)", MPI_Type_free(&t), MPI_ERR_TYPE);
      break;
    }
    default: {
      MPI_Op o = MPI_SUM;
      expect_class(call, "MPI_Op_free(predefined)", MPI_Op_free(&o), MPI_ERR_OP);
    }
  }
}

/// Collective creation and release of communicators and datatypes (valid; all ranks alike).
void lifecycle(Rng& rng, long call) {
  if (rng.chance(50)) {
    const int colors = 1 + rng.below(3);
    const int color = (g_rank + static_cast<int>(call)) % (colors + 1) == colors ? MPI_UNDEFINED
                                                                                  : (g_rank + static_cast<int>(call)) % (colors + 1);
    MPI_Comm c;
    int rc = MPI_Comm_split(MPI_COMM_WORLD, color, -g_rank, &c);
    if (rc != MPI_SUCCESS) return fail(call, "MPI_Comm_split", class_name(rc));
    // The model: my comm holds the ranks of my color, in decreasing world rank.
    int expect_size = 0, expect_rank = 0;
    for (int q = 0; q < g_size; ++q) {
      const int cq = (q + static_cast<int>(call)) % (colors + 1);
      if (color != MPI_UNDEFINED && cq == color) {
        ++expect_size;
        if (q > g_rank) ++expect_rank;
      }
    }
    if (color == MPI_UNDEFINED) {
      if (c != MPI_COMM_NULL) fail(call, "MPI_Comm_split", "MPI_UNDEFINED did not give MPI_COMM_NULL");
      return;
    }
    int s = 0, r = 0;
    MPI_Comm_size(c, &s);
    MPI_Comm_rank(c, &r);
    if (s != expect_size || r != expect_rank)
      fail(call, "MPI_Comm_split", "size/rank " + std::to_string(s) + "/" + std::to_string(r) + ", the model says " +
                                       std::to_string(expect_size) + "/" + std::to_string(expect_rank));
    MPI_Comm_free(&c);
    if (c != MPI_COMM_NULL) fail(call, "MPI_Comm_free", "handle not MPI_COMM_NULL");
  } else {
    const int count = rng.below(5), bl = rng.below(3), stride = bl + rng.below(3);
    MPI_Datatype t;
    int rc = MPI_Type_vector(count, bl, stride, MPI_INT, &t);
    if (rc != MPI_SUCCESS) return fail(call, "MPI_Type_vector", class_name(rc));
    MPI_Type_commit(&t);
    int size = -1;
    MPI_Type_size(t, &size);
    if (size != count * bl * 4) fail(call, "MPI_Type_size", std::to_string(size));
    MPI_Type_free(&t);
    if (t != MPI_DATATYPE_NULL) fail(call, "MPI_Type_free", "handle not MPI_DATATYPE_NULL");
  }
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &g_size);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  const long calls = argc > 1 ? std::atol(argv[1]) : 1000;
  unsigned long long seed = 0;
  if (argc > 2) {
    seed = std::strtoull(argv[2], nullptr, 10);
  } else if (const char* e = std::getenv("TILEMPI_RANDOM_SEED"); e && *e) {
    seed = std::strtoull(e, nullptr, 10);
  } else {
    seed = static_cast<unsigned long long>(std::chrono::steady_clock::now().time_since_epoch().count()) % 1000000007ull;
  }
  MPI_Bcast(&seed, 1, MPI_UNSIGNED_LONG_LONG, 0, MPI_COMM_WORLD);
  g_seed = seed;
  if (g_rank == 0) {
    std::printf("random_args: seed %llu, %ld calls on %d ranks (replay: random_args %ld %llu)\n", seed, calls, g_size,
                calls, seed);
    std::fflush(stdout);
  }
  g_trace = std::getenv("TILEMPI_RANDOM_TRACE") != nullptr;
  make_types();
  make_comms();
  MPI_Type_vector(2, 1, 2, MPI_INT, &g_uncommitted);
  Rng rng{seed};
  for (long i = 0; i < calls; ++i) {
    ++g_calls;
    const int kind = rng.below(100);
    if (kind < 45) p2p(rng, i);
    else if (kind < 80) collective(rng, i);
    else if (kind < 92) handles(rng, i);
    else lifecycle(rng, i);
    // Still usable: every rank took part in the same calls.
    if (i % 16 == 15) {
      long long sum = 0, mine = i;
      const int rc = MPI_Allreduce(&mine, &sum, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
      if (rc != MPI_SUCCESS || sum != static_cast<long long>(i) * g_size) fail(i, "check allreduce", class_name(rc));
    }
  }
  long totals[3] = {g_calls, g_invalid, g_failures}, sums[3] = {0, 0, 0};
  MPI_Reduce(totals, sums, 3, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  if (g_rank == 0) {
    std::printf("random_args: %ld calls made by %d ranks, %ld with an invalid argument; seed %llu\n", sums[0], g_size,
                sums[1], seed);
    std::printf("random_args: %ld passed, %ld failed\n", sums[0] - sums[2], sums[2]);
  }
  long any = g_failures, all = 0;
  MPI_Allreduce(&any, &all, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  MPI_Type_free(&g_uncommitted);
  MPI_Finalize();
  return all == 0 ? 0 : 1;
}
