/* Messages of every size around the sim's inline payloads (at most 16 bytes travel in the
 * transport's records rather than the sender's arena): 0 to 40 bytes between every pair of
 * ranks, their contents and counts checked, received posted first and unexpected (the send done
 * before the receive is posted), from a named source and from MPI_ANY_SOURCE after a probe, as
 * synchronous sends, and with a strided datatype whose packed size is small. */
#include <stdlib.h>
#include <string.h>

#include "conformance_check.h"

enum { kMaxBytes = 40 };

/* The byte i of the message of `bytes` from `src` to `dst` in phase `phase`. */
static unsigned char pattern(int phase, int src, int dst, int bytes, int i) {
  return (unsigned char)(phase * 131 + src * 37 + dst * 11 + bytes * 7 + i * 3 + 1);
}

static void fill(unsigned char* buf, int phase, int src, int dst, int bytes) {
  for (int i = 0; i < bytes; ++i) buf[i] = pattern(phase, src, dst, bytes, i);
}

static void expect(const unsigned char* buf, const MPI_Status* st, int phase, int src, int bytes, const char* how) {
  int count = -1;
  MPI_Get_count(st, MPI_BYTE, &count);
  CHECK(count == bytes, "%s: %d bytes from rank %d, phase %d: count %d", how, bytes, src, phase, count);
  CHECK(st->MPI_SOURCE == src, "%s: %d bytes: source %d, expected %d", how, bytes, st->MPI_SOURCE, src);
  for (int i = 0; i < bytes; ++i)
    if (buf[i] != pattern(phase, src, rank, bytes, i)) {
      CHECK(0, "%s: %d bytes from rank %d, phase %d: byte %d is %d, expected %d", how, bytes, src, phase, i, buf[i],
            pattern(phase, src, rank, bytes, i));
      break;
    }
  /* Nothing written past the message. */
  CHECK(buf[bytes] == 0xEE, "%s: %d bytes from rank %d: the byte after the message was overwritten", how, bytes, src);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int n = size;
  const int sizes = kMaxBytes + 1;
  unsigned char* out = malloc((size_t)n * sizes * (kMaxBytes + 1));
  unsigned char* in = malloc((size_t)n * sizes * (kMaxBytes + 1));
  MPI_Request* reqs = malloc(sizeof(MPI_Request) * 2 * (size_t)n * sizes);
  MPI_Status* sts = malloc(sizeof(MPI_Status) * 2 * (size_t)n * sizes);
#define OUT(p, b) (out + ((size_t)(p) * sizes + (size_t)(b)) * (kMaxBytes + 1))
#define IN(p, b) (in + ((size_t)(p) * sizes + (size_t)(b)) * (kMaxBytes + 1))

  /* Phase 0: every receive posted first, then the sends; tag = size. */
  memset(in, 0xEE, (size_t)n * sizes * (kMaxBytes + 1));
  int q = 0;
  for (int p = 0; p < n; ++p)
    for (int b = 0; b <= kMaxBytes; ++b) MPI_Irecv(IN(p, b), b, MPI_BYTE, p, b, MPI_COMM_WORLD, &reqs[q++]);
  MPI_Barrier(MPI_COMM_WORLD);
  for (int p = 0; p < n; ++p)
    for (int b = 0; b <= kMaxBytes; ++b) {
      fill(OUT(p, b), 0, rank, p, b);
      MPI_Isend(OUT(p, b), b, MPI_BYTE, p, b, MPI_COMM_WORLD, &reqs[q++]);
    }
  MPI_Waitall(q, reqs, sts);
  for (int p = 0; p < n; ++p)
    for (int b = 0; b <= kMaxBytes; ++b) expect(IN(p, b), &sts[p * sizes + b], 0, p, b, "posted first");

  /* Phase 1: the sends first (their messages wait unexpected), then the receives. */
  memset(in, 0xEE, (size_t)n * sizes * (kMaxBytes + 1));
  q = 0;
  for (int p = 0; p < n; ++p)
    for (int b = 0; b <= kMaxBytes; ++b) {
      fill(OUT(p, b), 1, rank, p, b);
      MPI_Isend(OUT(p, b), b, MPI_BYTE, p, b, MPI_COMM_WORLD, &reqs[q++]);
    }
  MPI_Barrier(MPI_COMM_WORLD);
  for (int p = 0; p < n; ++p)
    for (int b = 0; b <= kMaxBytes; ++b) {
      MPI_Status st;
      MPI_Recv(IN(p, b), b, MPI_BYTE, p, b, MPI_COMM_WORLD, &st);
      expect(IN(p, b), &st, 1, p, b, "unexpected");
    }
  MPI_Waitall(q, reqs, MPI_STATUSES_IGNORE);

  /* Phase 2: synchronous sends to the right, received from any source after a probe. */
  {
    const int right = (rank + 1) % n, left = (rank + n - 1) % n;
    for (int b = 0; b <= kMaxBytes; ++b) {
      MPI_Request r;
      fill(OUT(right, b), 2, rank, right, b);
      MPI_Issend(OUT(right, b), b, MPI_BYTE, right, 1000 + b, MPI_COMM_WORLD, &r);
      MPI_Status st;
      MPI_Probe(MPI_ANY_SOURCE, 1000 + b, MPI_COMM_WORLD, &st);
      int count = -1;
      MPI_Get_count(&st, MPI_BYTE, &count);
      CHECK(count == b && st.MPI_SOURCE == left, "probe of %d bytes: count %d from %d", b, count, st.MPI_SOURCE);
      memset(IN(left, b), 0xEE, kMaxBytes + 1);
      MPI_Recv(IN(left, b), b, MPI_BYTE, MPI_ANY_SOURCE, 1000 + b, MPI_COMM_WORLD, &st);
      expect(IN(left, b), &st, 2, left, b, "synchronous, any source");
      MPI_Wait(&r, MPI_STATUS_IGNORE);
    }
  }

  /* Phase 3: a strided datatype of k ints (4k bytes packed) to every rank, received contiguous. */
  for (int k = 1; k <= 6; ++k) {
    MPI_Datatype strided;
    MPI_Type_vector(k, 1, 3, MPI_INT, &strided);
    MPI_Type_commit(&strided);
    int src[18], got[8];
    for (int i = 0; i < 18; ++i) src[i] = rank * 1000 + k * 100 + i;
    q = 0;
    for (int p = 0; p < n; ++p) MPI_Isend(src, 1, strided, p, 2000 + k, MPI_COMM_WORLD, &reqs[q++]);
    for (int p = 0; p < n; ++p) {
      MPI_Status st;
      for (int i = 0; i < 8; ++i) got[i] = -1;
      MPI_Recv(got, k, MPI_INT, p, 2000 + k, MPI_COMM_WORLD, &st);
      int count = -1;
      MPI_Get_count(&st, MPI_INT, &count);
      CHECK(count == k, "strided %d ints from rank %d: count %d", k, p, count);
      for (int i = 0; i < k; ++i)
        CHECK(got[i] == p * 1000 + k * 100 + 3 * i, "strided %d ints from rank %d: element %d is %d, expected %d", k, p, i,
              got[i], p * 1000 + k * 100 + 3 * i);
      CHECK(got[k] == -1, "strided %d ints from rank %d: written past the message", k, p);
    }
    MPI_Waitall(q, reqs, MPI_STATUSES_IGNORE);
    MPI_Type_free(&strided);
  }

  int all = 0;
  MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0 && all == 0) printf("small payloads: all checks passed\n");
  free(out);
  free(in);
  free(reqs);
  free(sts);
  MPI_Finalize();
  return all ? 1 : 0;
}
