/* A generalized request completed by another thread while the rank waits for it in MPI_Wait (the
 * use the standard has in mind, MPI-3.1 §12.2), and one polled with MPI_Test until the thread
 * completes it. Needs MPI_THREAD_MULTIPLE; where the transport provides less (the sim), the
 * main thread completes the requests itself, after the same checks. */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <time.h>

static int rank, errors;
static int queries, frees;

#define CHECK(cond, ...)                                   \
  do {                                                     \
    if (!(cond)) {                                         \
      printf("rank %d: line %d: ", rank, __LINE__);        \
      printf(__VA_ARGS__);                                 \
      printf("\n");                                        \
      ++errors;                                            \
    }                                                      \
  } while (0)

static int query_fn(void* extra, MPI_Status* status) {
  ++queries;
  status->MPI_SOURCE = *(int*)extra;
  status->MPI_TAG = 0;
  MPI_Status_set_elements(status, MPI_BYTE, 0);
  MPI_Status_set_cancelled(status, 0);
  return MPI_SUCCESS;
}
static int free_fn(void* extra) {
  (void)extra;
  ++frees;
  return MPI_SUCCESS;
}
static int cancel_fn(void* extra, int complete) {
  (void)extra;
  (void)complete;
  return MPI_SUCCESS;
}

static void* completer(void* arg) {
  const struct timespec pause = {0, 20 * 1000 * 1000};
  nanosleep(&pause, NULL); /* the main thread is in its wait by now, most likely */
  MPI_Grequest_complete(*(MPI_Request*)arg);
  return NULL;
}

int main(int argc, char** argv) {
  int provided, size, flag = 0, who = 42;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int threads = provided == MPI_THREAD_MULTIPLE;

  MPI_Request r, copy;
  MPI_Status st;
  MPI_Grequest_start(query_fn, free_fn, cancel_fn, &who, &r);
  copy = r;
  pthread_t t;
  if (threads) pthread_create(&t, NULL, completer, &copy);
  else MPI_Grequest_complete(r);
  MPI_Wait(&r, &st);
  if (threads) pthread_join(t, NULL);
  CHECK(r == MPI_REQUEST_NULL && queries == 1 && frees == 1 && st.MPI_SOURCE == 42,
        "MPI_Wait: %d queries, %d frees, source %d", queries, frees, st.MPI_SOURCE);

  MPI_Grequest_start(query_fn, free_fn, cancel_fn, &who, &r);
  copy = r;
  if (threads) pthread_create(&t, NULL, completer, &copy);
  else MPI_Grequest_complete(r);
  while (!flag) MPI_Test(&r, &flag, &st);
  if (threads) pthread_join(t, NULL);
  CHECK(r == MPI_REQUEST_NULL && queries == 2 && frees == 2, "MPI_Test: %d queries, %d frees", queries, frees);

  int all = 0;
  MPI_Allreduce(&errors, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0 && all == 0)
    printf("functions_grequest_thread: %d ranks: ok (%s)\n", size, threads ? "completed by a thread" : "no threads");
  MPI_Finalize();
  return all != 0;
}
