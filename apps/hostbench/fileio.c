/* Small MPI-IO writes: the mean time of a write of COUNT bytes (default 0) in every variant, all
 * ranks writing at once to one file opened on MPI_COMM_WORLD (unless said otherwise):
 *   write, write_at, write_all, write_at_all, iwrite (+ MPI_Wait), write_shared, write_ordered,
 *   write after MPI_File_set_view with a strided filetype (view), with atomicity on (atomic),
 *   opened MPI_MODE_APPEND (append), opened on MPI_COMM_SELF (self), and MPI_File_get_size.
 * Each rank writes its own bytes (offset rank * COUNT, or its view's), so the file stays small.
 * Rank 0 prints "<variant> <us per call>" (the slowest rank's mean).
 *
 *   fileio [-n CALLS] [-b COUNT] [-f PATH]
 *
 * CALLS per variant (default 2000; a tenth of that for the collective and shared-pointer ones),
 * PATH the file (default /tmp/hostbench-fileio-<pid of rank 0>; removed at the end). */
#include <unistd.h>

#include "hostbench.h"

enum Variant { Write, WriteAt, WriteAll, WriteAtAll, Iwrite, Shared, Ordered, View, Atomic, Append, Self, GetSize, kVariants };
static const char* const kNames[kVariants] = {"write",  "write_at", "write_all", "write_at_all", "iwrite", "write_shared",
                                              "write_ordered", "view", "atomic", "append", "self", "get_size"};

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int calls = 2000, count = 0;
  char path[512] = "";
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "-n") && i + 1 < argc) calls = atoi(argv[++i]);
    else if (!strcmp(argv[i], "-b") && i + 1 < argc) count = atoi(argv[++i]);
    else if (!strcmp(argv[i], "-f") && i + 1 < argc) snprintf(path, sizeof path, "%s", argv[++i]);
    else {
      if (rank == 0) fprintf(stderr, "usage: %s [-n CALLS] [-b COUNT] [-f PATH]\n", argv[0]);
      MPI_Finalize();
      return 2;
    }
  }
  if (!path[0]) {
    int pid = (int)getpid();
    MPI_Bcast(&pid, 1, MPI_INT, 0, MPI_COMM_WORLD);
    snprintf(path, sizeof path, "/tmp/hostbench-fileio-%d", pid);
  }
  char* buf = hb_buffer((size_t)count, 'x');
  if (rank == 0) printf("# fileio: %d ranks, %d-byte writes, mean us per call\n", size, count);
  for (int v = 0; v < kVariants; ++v) {
    const int n = v == WriteAll || v == WriteAtAll || v == Shared || v == Ordered ? (calls + 9) / 10 : calls;
    MPI_File fh;
    char own[600];
    snprintf(own, sizeof own, "%s.%d", path, rank);
    int amode = MPI_MODE_CREATE | MPI_MODE_RDWR;
    if (v == Append) amode = MPI_MODE_CREATE | MPI_MODE_WRONLY | MPI_MODE_APPEND;
    if (MPI_File_open(v == Self ? MPI_COMM_SELF : MPI_COMM_WORLD, v == Self ? own : path, amode, MPI_INFO_NULL, &fh) !=
        MPI_SUCCESS) {
      fprintf(stderr, "fileio: rank %d cannot open %s\n", rank, path);
      MPI_Abort(MPI_COMM_WORLD, 1);
    }
    MPI_Datatype strided = MPI_DATATYPE_NULL;
    if (v == View) {
      MPI_Type_vector(1, 1, size, MPI_INT, &strided);
      MPI_Datatype resized;
      MPI_Type_create_resized(strided, 0, (MPI_Aint)(sizeof(int) * (size_t)size), &resized);
      MPI_Type_free(&strided);
      strided = resized;
      MPI_Type_commit(&strided);
      MPI_File_set_view(fh, (MPI_Offset)(sizeof(int) * (size_t)rank), MPI_INT, strided, "native", MPI_INFO_NULL);
    }
    if (v == Atomic) MPI_File_set_atomicity(fh, 1);
    const MPI_Offset at = (MPI_Offset)rank * count;
    if (v == Write || v == WriteAll || v == Iwrite || v == Atomic) MPI_File_seek(fh, at, MPI_SEEK_SET);
    MPI_Offset fsize = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    const double t0 = MPI_Wtime();
    for (int i = 0; i < n; ++i) {
      MPI_Status st;
      MPI_Request rq;
      switch (v) {
        case Write: case Atomic: case Append: case Self: MPI_File_write(fh, buf, count, MPI_CHAR, &st); break;
        case WriteAt: MPI_File_write_at(fh, at, buf, count, MPI_CHAR, &st); break;
        case WriteAll: MPI_File_write_all(fh, buf, count, MPI_CHAR, &st); break;
        case WriteAtAll: MPI_File_write_at_all(fh, at, buf, count, MPI_CHAR, &st); break;
        case Iwrite: MPI_File_iwrite(fh, buf, count, MPI_CHAR, &rq); MPI_Wait(&rq, &st); break;
        case Shared: MPI_File_write_shared(fh, buf, count, MPI_CHAR, &st); break;
        case Ordered: MPI_File_write_ordered(fh, buf, count, MPI_CHAR, &st); break;
        case View: MPI_File_write(fh, buf, count / (int)sizeof(int), MPI_INT, &st); break;
        case GetSize: MPI_File_get_size(fh, &fsize); break;
        default: break;
      }
      /* Rewind, so that the file does not grow with the calls (nothing to do at 0 bytes). */
      if (count > 0 && (v == Write || v == Iwrite || v == Atomic || v == Self || v == View)) MPI_File_seek(fh, v == View || v == Self ? 0 : at, MPI_SEEK_SET);
    }
    const double t = (MPI_Wtime() - t0) / n * 1e6;
    double tmax = 0;
    MPI_Reduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (rank == 0) printf("%s %.3f\n", kNames[v], tmax);
    fflush(stdout);
    MPI_File_close(&fh);
    if (strided != MPI_DATATYPE_NULL) MPI_Type_free(&strided);
    if (v == Self) unlink(own);
    MPI_Barrier(MPI_COMM_WORLD);
  }
  if (rank == 0) unlink(path);
  free(buf);
  MPI_Finalize();
  return 0;
}
