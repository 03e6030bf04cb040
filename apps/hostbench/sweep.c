/* The communication pattern of Kripke's parallel sweep, written anew here: the ranks form a
 * PX x PY grid; each rank holds one subdomain per direction set (8, one per octant), and each
 * iteration sweeps them all. A subdomain first posts an MPI_Irecv for each face plane its
 * upwind neighbours (in x and y) send, the rank polls all those receives with MPI_Testany,
 * sweeps a subdomain as soon as its planes are in (a real dependency: each zone reads and
 * rewrites the three planes), and sends its downwind planes with MPI_Isend; at the end of the
 * sweep MPI_Waitall retires the sends, and an MPI_Allreduce sums the particle population.
 *
 *   sweep [-i ITERATIONS] [-z ZONES] [-d DIRECTIONS] [-g GROUPS]
 *
 * ITERATIONS (default 10), ZONES per rank along x and y (default 8; z is twice that),
 * DIRECTIONS per set (default 12) and GROUPS (default 32), so a plane is ZONES * 2 ZONES *
 * DIRECTIONS * GROUPS doubles (384 KiB by default, as Kripke's defaults on 2 x 2 ranks).
 * Rank 0 prints "sweep <ms per iteration>". */
#include "hostbench.h"

enum { kSets = 8 };

typedef struct {
  int sx, sy;             /* direction of the octant in x and y: +1 or -1 */
  double *psi, *ip, *jp, *kp;
} Subdomain;

static void sweep_subdomain(Subdomain* s, int nx, int ny, int nz, int dg) {
  for (int k = 0; k < nz; ++k)
    for (int jj = 0; jj < ny; ++jj) {
      const int j = s->sy > 0 ? jj : ny - 1 - jj;
      for (int ii = 0; ii < nx; ++ii) {
        const int i = s->sx > 0 ? ii : nx - 1 - ii;
        double* psi = s->psi + ((size_t)(k * ny + j) * nx + i) * dg;
        double* ip = s->ip + (size_t)(k * ny + j) * dg;
        double* jp = s->jp + (size_t)(k * nx + i) * dg;
        double* kp = s->kp + (size_t)(j * nx + i) * dg;
        for (int x = 0; x < dg; ++x) {
          const double v = (1.0 + psi[x] * 0.01 + ip[x] + jp[x] + kp[x]) * 0.25;
          psi[x] = v;
          ip[x] = 2.0 * v - ip[x];
          jp[x] = 2.0 * v - jp[x];
          kp[x] = 2.0 * v - kp[x];
        }
      }
    }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int iters = 10, zones = 8, dirs = 12, groups = 32;
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "-i") && i + 1 < argc) iters = atoi(argv[++i]);
    else if (!strcmp(argv[i], "-z") && i + 1 < argc) zones = atoi(argv[++i]);
    else if (!strcmp(argv[i], "-d") && i + 1 < argc) dirs = atoi(argv[++i]);
    else if (!strcmp(argv[i], "-g") && i + 1 < argc) groups = atoi(argv[++i]);
    else {
      if (rank == 0) fprintf(stderr, "usage: %s [-i ITERATIONS] [-z ZONES] [-d DIRECTIONS] [-g GROUPS]\n", argv[0]);
      MPI_Finalize();
      return 2;
    }
  }
  int px = 1;
  for (int p = 1; p * p <= size; ++p)
    if (size % p == 0) px = p;
  const int py = size / px, cx = rank % px, cy = rank / px;
  const int nx = zones, ny = zones, nz = 2 * zones, dg = dirs * groups;
  const size_t iplane = (size_t)ny * nz * dg, jplane = (size_t)nx * nz * dg, kplane = (size_t)nx * ny * dg;
  Subdomain sd[kSets];
  for (int s = 0; s < kSets; ++s) {
    sd[s].sx = s & 1 ? -1 : 1;
    sd[s].sy = s & 2 ? -1 : 1;
    sd[s].psi = (double*)hb_buffer(sizeof(double) * (size_t)nx * ny * nz * dg, 0);
    sd[s].ip = (double*)hb_buffer(sizeof(double) * iplane, 0);
    sd[s].jp = (double*)hb_buffer(sizeof(double) * jplane, 0);
    sd[s].kp = (double*)hb_buffer(sizeof(double) * kplane, 0);
  }
  MPI_Request recv[2 * kSets], send[2 * kSets];
  int recv_set[2 * kSets];
  MPI_Barrier(MPI_COMM_WORLD);
  const double t0 = MPI_Wtime();
  for (int it = 0; it < iters; ++it) {
    int nrecv = 0, nsend = 0, depends[kSets], pending = kSets;
    for (int s = 0; s < kSets; ++s) {
      depends[s] = 0;
      memset(sd[s].kp, 0, sizeof(double) * kplane);  /* the z boundary */
      const int ux = cx - sd[s].sx, uy = cy - sd[s].sy;  /* upwind neighbours */
      if (ux >= 0 && ux < px) {
        MPI_Irecv(sd[s].ip, (int)iplane, MPI_DOUBLE, cy * px + ux, rank * kSets + s, MPI_COMM_WORLD, &recv[nrecv]);
        recv_set[nrecv++] = s;
        depends[s]++;
      } else {
        memset(sd[s].ip, 0, sizeof(double) * iplane);
      }
      if (uy >= 0 && uy < py) {
        MPI_Irecv(sd[s].jp, (int)jplane, MPI_DOUBLE, uy * px + cx, rank * kSets + s, MPI_COMM_WORLD, &recv[nrecv]);
        recv_set[nrecv++] = s;
        depends[s]++;
      } else {
        memset(sd[s].jp, 0, sizeof(double) * jplane);
      }
    }
    int done[kSets] = {0};
    while (pending > 0) {
      /* Take in every plane that has arrived, then sweep the first ready subdomain. */
      for (;;) {
        int index = 0, flag = 0;
        MPI_Testany(nrecv, recv, &index, &flag, MPI_STATUS_IGNORE);
        if (!flag || index == MPI_UNDEFINED) break;
        depends[recv_set[index]]--;
      }
      for (int s = 0; s < kSets; ++s) {
        if (done[s] || depends[s] > 0) continue;
        sweep_subdomain(&sd[s], nx, ny, nz, dg);
        done[s] = 1;
        pending--;
        const int dx = cx + sd[s].sx, dy = cy + sd[s].sy;  /* downwind neighbours */
        if (dx >= 0 && dx < px) {
          const int to = cy * px + dx;
          MPI_Isend(sd[s].ip, (int)iplane, MPI_DOUBLE, to, to * kSets + s, MPI_COMM_WORLD, &send[nsend++]);
        }
        if (dy >= 0 && dy < py) {
          const int to = dy * px + cx;
          MPI_Isend(sd[s].jp, (int)jplane, MPI_DOUBLE, to, to * kSets + s, MPI_COMM_WORLD, &send[nsend++]);
        }
        break;
      }
    }
    MPI_Waitall(nsend, send, MPI_STATUSES_IGNORE);
    double population = 0, all = 0;
    for (int s = 0; s < kSets; ++s) population += sd[s].psi[s];
    MPI_Allreduce(&population, &all, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  const double t = MPI_Wtime() - t0;
  if (rank == 0) printf("# sweep: %d x %d ranks, %d iterations, planes of %zu KiB\nsweep %.3f\n", px, py, iters,
                        iplane * sizeof(double) / 1024, t / iters * 1e3);
  for (int s = 0; s < kSets; ++s) {
    free(sd[s].psi);
    free(sd[s].ip);
    free(sd[s].jp);
    free(sd[s].kp);
  }
  MPI_Finalize();
  return 0;
}
