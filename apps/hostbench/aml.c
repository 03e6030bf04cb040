/* The communication pattern of Graph500's reference BFS, written anew here: its active-message
 * layer coalesces small "visit" records per destination into 32 KiB buffers, sends them with
 * MPI_Isend from 4 send slots it finds free with MPI_Testany, receives them through 4
 * persistent MPI_ANY_SOURCE/MPI_ANY_TAG receives (MPI_Recv_init, MPI_Start) that it polls with
 * MPI_Testany, and acknowledges each buffer in the tag of a later one (or at once with a 0-byte
 * MPI_Send while in its barrier). A BFS level ends with that barrier: flush every buffer, poll
 * until every buffer is acknowledged, then MPI_Ibarrier polled with MPI_Test (receiving the
 * while), then MPI_Barrier; then an MPI_Allreduce of the next frontier's size.
 *
 *   aml [-l LEVELS] [-v VISITS] [-w WORK]
 *
 * LEVELS levels (default 400: Graph500 at scale 10 runs 64 BFS of about 6 levels, plus as many
 * in validation), VISITS visit records per rank and level to random owners (default 1000),
 * WORK arithmetic steps per received record (default 20). Rank 0 prints "aml <us per level>". */
#include <stdint.h>

#include "hostbench.h"

enum { kAggr = 32 * 1024, kRecvs = 4, kSends = 4, kRecord = 12 };

typedef struct {
  MPI_Comm comm;
  int rank, size, inbarrier;
  long pending_acks; /* buffers sent and not yet acknowledged */
  char recvbuf[kRecvs][kAggr];
  MPI_Request rqrecv[kRecvs], rqsend[kSends];
  char* sendbuf;       /* (size + kSends) buffers of kAggr */
  int* fill;           /* bytes in each destination's buffer */
  unsigned short* acks;  /* acknowledgements owed to each rank */
  unsigned short* slot;  /* which buffer each destination fills */
  unsigned short active[kSends];
  uint64_t* visited;
  long nlocal, newly, work;
  volatile double sink;
} Aml;

static void handle(Aml* a, const char* rec) {
  uint32_t v;
  memcpy(&v, rec + 4, sizeof v);
  v %= (uint32_t)a->nlocal;
  double x = v;
  for (long k = 0; k < a->work; ++k) x = x * 1.000001 + 0.5;
  a->sink = x;
  if (!(a->visited[v / 64] >> (v % 64) & 1)) {
    a->visited[v / 64] |= (uint64_t)1 << (v % 64);
    ++a->newly;
  }
}

static void poll_once(Aml* a) {
  int flag = 0, index = 0, length = 0;
  MPI_Status st;
  MPI_Testany(kRecvs, a->rqrecv, &index, &flag, &st);
  if (!flag || index == MPI_UNDEFINED) return;
  MPI_Get_count(&st, MPI_CHAR, &length);
  a->pending_acks -= st.MPI_TAG;
  if (length > 0) {
    if (a->inbarrier) MPI_Send(NULL, 0, MPI_CHAR, st.MPI_SOURCE, 1, a->comm);
    else a->acks[st.MPI_SOURCE]++;
    for (int i = 0; i + kRecord <= length; i += kRecord) handle(a, a->recvbuf[index] + i);
  }
  MPI_Start(&a->rqrecv[index]);
}

static void flush(Aml* a, int dest) {
  if (a->fill[dest] == 0 && a->acks[dest] == 0) return;
  int flag = 0, index = 0;
  while (!flag) {
    poll_once(a);
    MPI_Testany(kSends, a->rqsend, &index, &flag, MPI_STATUS_IGNORE);
  }
  MPI_Isend(a->sendbuf + (size_t)kAggr * a->slot[dest], a->fill[dest], MPI_CHAR, dest, a->acks[dest], a->comm,
            &a->rqsend[index]);
  if (a->fill[dest] > 0) a->pending_acks++;
  a->fill[dest] = 0;
  a->acks[dest] = 0;
  unsigned short t = a->active[index];
  a->active[index] = a->slot[dest];
  a->slot[dest] = t;
}

static void visit(Aml* a, int dest, uint32_t v) {
  char rec[kRecord] = {0};
  memcpy(rec + 4, &v, sizeof v);
  if (dest == a->rank) {
    handle(a, rec);
    return;
  }
  if (kAggr - a->fill[dest] < kRecord) flush(a, dest);
  memcpy(a->sendbuf + (size_t)kAggr * a->slot[dest] + a->fill[dest], rec, kRecord);
  a->fill[dest] += kRecord;
}

static void level_barrier(Aml* a) {
  a->inbarrier++;
  for (int i = 1; i < a->size; ++i) flush(a, (a->rank + i) % a->size);
  while (a->pending_acks != 0) poll_once(a);
  MPI_Request h;
  MPI_Ibarrier(a->comm, &h);
  int flag = 0;
  while (!flag) {
    MPI_Test(&h, &flag, MPI_STATUS_IGNORE);
    poll_once(a);
  }
  a->inbarrier--;
  MPI_Barrier(MPI_COMM_WORLD);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  static Aml a;
  long levels = 400, visits = 1000;
  a.work = 20;
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "-l") && i + 1 < argc) levels = atol(argv[++i]);
    else if (!strcmp(argv[i], "-v") && i + 1 < argc) visits = atol(argv[++i]);
    else if (!strcmp(argv[i], "-w") && i + 1 < argc) a.work = atol(argv[++i]);
    else {
      fprintf(stderr, "usage: %s [-l LEVELS] [-v VISITS] [-w WORK]\n", argv[0]);
      MPI_Finalize();
      return 2;
    }
  }
  MPI_Comm_rank(MPI_COMM_WORLD, &a.rank);
  MPI_Comm_split(MPI_COMM_WORLD, 0, a.rank, &a.comm);
  MPI_Comm_size(a.comm, &a.size);
  a.nlocal = 4096;
  a.visited = calloc((size_t)a.nlocal / 64, sizeof(uint64_t));
  a.sendbuf = hb_buffer((size_t)kAggr * (size_t)(a.size + kSends), 0);
  a.fill = calloc((size_t)a.size, sizeof(int));
  a.acks = calloc((size_t)a.size, sizeof(unsigned short));
  a.slot = calloc((size_t)a.size, sizeof(unsigned short));
  for (int j = 0; j < a.size; ++j) a.slot[j] = (unsigned short)j;
  for (int i = 0; i < kRecvs; ++i) {
    MPI_Recv_init(a.recvbuf[i], kAggr, MPI_CHAR, MPI_ANY_SOURCE, MPI_ANY_TAG, a.comm, &a.rqrecv[i]);
    MPI_Start(&a.rqrecv[i]);
  }
  for (int j = 0; j < kSends; ++j) {
    MPI_Isend(NULL, 0, MPI_CHAR, MPI_PROC_NULL, 0, a.comm, &a.rqsend[j]);
    a.active[j] = (unsigned short)(a.size + j);
  }
  unsigned seed = 12345u + 7919u * (unsigned)a.rank;
  MPI_Barrier(MPI_COMM_WORLD);
  const double t0 = MPI_Wtime();
  long total = 0;
  for (long l = 0; l < levels; ++l) {
    if (l % 6 == 0) memset(a.visited, 0, (size_t)a.nlocal / 8);  /* a new BFS */
    for (long k = 0; k < visits; ++k) {
      const uint32_t v = (uint32_t)rand_r(&seed);
      visit(&a, (int)(v % (uint32_t)a.size), v / (uint32_t)a.size);
    }
    level_barrier(&a);
    long sum = a.newly;
    a.newly = 0;
    MPI_Allreduce(MPI_IN_PLACE, &sum, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    total += sum;
  }
  const double t = MPI_Wtime() - t0;
  if (a.rank == 0) printf("# aml: %ld levels, %ld visits per rank and level, %ld new in all\naml %.3f\n", levels, visits,
                          total, t / (double)levels * 1e6);
  level_barrier(&a);
  for (int i = 0; i < kRecvs; ++i) {
    MPI_Cancel(&a.rqrecv[i]);
    MPI_Wait(&a.rqrecv[i], MPI_STATUS_IGNORE);
    MPI_Request_free(&a.rqrecv[i]);
  }
  MPI_Waitall(kSends, a.rqsend, MPI_STATUSES_IGNORE);
  MPI_Comm_free(&a.comm);
  free(a.visited);
  free(a.sendbuf);
  free(a.fill);
  free(a.acks);
  free(a.slot);
  MPI_Finalize();
  return 0;
}
