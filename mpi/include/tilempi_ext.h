/* tilempi extensions to the MPI C API (prefix TILEMPIX_): what tools such as the
 * launcher and the benchmark need to know about the library, without reaching
 * into its internals. */
#ifndef TILEMPI_EXT_H
#define TILEMPI_EXT_H

#ifdef __cplusplus
extern "C" {
#endif

/* Collective algorithm selection, in the form "alltoall=mesh_rounds,barrier=ktree:4".
 * Returns MPI_SUCCESS, or MPI_ERR_ARG with a message naming the bad entry and the valid choices. */
int TILEMPIX_Coll_validate(const char* spec, char* message, int message_len);
/* Writes a table of every collective and its registered algorithms (NUL-terminated, truncated to len). */
int TILEMPIX_Coll_help(char* text, int len);
/* The algorithm that ran for a collective ("alltoall", "bcast", ...) on a communicator, the last
 * time it ran there (after any fallback: an algorithm whose restrictions a call breaks runs its
 * fallback, and some restrictions depend on the call's op or count); before the first call, the
 * one a call would run. */
int TILEMPIX_Coll_selected(MPI_Comm comm, const char* collective, char* name, int len);

/* The collective registry, for tools that list or sweep algorithms (tilempi-bench). None of these
 * needs MPI_Init. */
/* Name of collective index (0, 1, ...: "barrier", "bcast", ...); MPI_ERR_ARG past the last one. */
int TILEMPIX_Coll_collective(int index, char* name, int len);

#define TILEMPIX_COLL_NAME_LEN 32
/* Restriction bits (needs): a call that breaks one runs the algorithm's fallback. */
#define TILEMPIX_COLL_NEEDS_COMMUTATIVE    1 /* commutative ops only */
#define TILEMPIX_COLL_NEEDS_POWER_OF_TWO   2 /* communicator sizes 2^k only */
#define TILEMPIX_COLL_NEEDS_STATIC_NETWORK 4 /* a transport with a static network */
#define TILEMPIX_COLL_NEEDS_COUNT_GE_RANKS 8 /* at least one element per rank */
#define TILEMPIX_COLL_NEEDS_MAX_RANKS      16 /* at most max_ranks ranks */
#define TILEMPIX_COLL_NEEDS_OTHER          32 /* a condition of the algorithm's own (see --coll help) */
#define TILEMPIX_COLL_NEEDS_HW_MULTICAST   64 /* a transport that offloads collective transfers */
#define TILEMPIX_COLL_NEEDS_HW_REDUCTION  128 /* ... that also reduces the call's op and type */
#define TILEMPIX_COLL_NEEDS_BLOCK_ABOVE   256 /* blocks above block_above bytes (a switch of its own: no warning) */
/* Default bits: the default selector's choice on an intracommunicator spanning several mesh rows,
 * one row; on an intercommunicator. */
#define TILEMPIX_COLL_DEFAULT_MULTI_ROW  1
#define TILEMPIX_COLL_DEFAULT_SINGLE_ROW 2
#define TILEMPIX_COLL_DEFAULT_INTERCOMM  4
typedef struct {
  char name[TILEMPIX_COLL_NAME_LEN];     /* e.g. "mesh_rounds" */
  char fallback[TILEMPIX_COLL_NAME_LEN]; /* runs when a restriction fails ("" if none) */
  int mesh;                              /* 1: a mesh algorithm ([Yagna 2013] chapter 3), 0: classic */
  int needs;                             /* TILEMPIX_COLL_NEEDS_* bits */
  int max_ranks;                         /* with TILEMPIX_COLL_NEEDS_MAX_RANKS; else 0 */
  int defaults;                          /* TILEMPIX_COLL_DEFAULT_* bits */
  int takes_param;                       /* "name:K" is accepted, K defaults to default_param */
  int default_param;
  int has_schedule;                      /* tilempi-coll-check analyses its schedule */
  int baseline;                          /* the OperaMPI-like baseline of [Yagna 2013] §2.2 the mesh algorithm is compared with */
  long long block_above;                 /* with TILEMPIX_COLL_NEEDS_BLOCK_ABOVE; else 0 */
  int intercomm;                         /* 1: runs on intercommunicators only; 0: on intracommunicators only */
} TILEMPIX_Coll_algorithm_info;
/* The algorithms registered for a collective, in registration (--coll help) order: fills
 * out[0 .. min(max, *count) - 1] and sets *count to how many there are. MPI_ERR_ARG for an
 * unknown collective. */
int TILEMPIX_Coll_algorithms(const char* collective, TILEMPIX_Coll_algorithm_info* out, int max, int* count);

/* The calling rank does `cycles` cycles of work of a tile core now: on a modeled chip (the sim
   transport) its clock advances by that much, counted as compute in the run report, whatever
   --compute says; elsewhere nothing happens. A deterministic stand-in for an application's
   work, e.g. to show communication overlapping it. MPI_ERR_ARG if cycles < 0. */
int TILEMPIX_Compute(long long cycles);

/* Task migration ([Wallentowitz 2018] §3.6): the runtime system moves `rank` of `comm` to tile
   `tile` of the modeled chip (tile = y * width + x), starting at the caller's present; the
   adapter's method (adapter.namp.migration: pause or ps) moves its communication, and messages
   in flight to and from it are delivered once and in order. Returns when the migration has
   started, not when it is over. MPI_ERR_RANK for a bad rank, MPI_ERR_ARG for a tile that is not
   on the chip or that a rank occupies (or a migration in progress involves), and
   MPI_ERR_UNSUPPORTED_OPERATION where tasks cannot move (the host transport, adapters other than
   namp). Fortran: TILEMPIX_MIGRATE(COMM, RANK, TILE, IERROR). */
int TILEMPIX_Migrate(MPI_Comm comm, int rank, int tile);

/* One copy of a large read-mostly buffer for the whole job (docs/SIM.md, "Folding large buffers
   across ranks"). Where the ranks share one address space (the sim transport with ranks as
   contexts) every rank that asks with the same key gets the same zero-filled block of `size`
   bytes, so a write by one rank is seen by all; elsewhere each rank gets a zero-filled block of
   its own. Use it for inputs every rank holds alike, or whose values do not change what a rank
   sends and computes (a folded buffer that ranks fill differently gives wrong results, not wrong
   timing). As MPI_Alloc_mem: *(void**)baseptr receives the block. MPI_ERR_ARG for a negative
   size, an empty key, a key held with another size, or a block the rank holds already.
   TILEMPIX_Shared_free releases this rank's hold (the memory goes with the last one);
   TILEMPIX_Shared_alloc_folds says whether blocks are folded in this job. Fortran (mpif.h, use
   mpi): TILEMPIX_SHARED_ALLOC(SIZE, KEY, BASEPTR, IERROR), TILEMPIX_SHARED_FREE(BLOCK, IERROR),
   TILEMPIX_SHARED_ALLOC_FOLDS(FLAG, IERROR) (docs/SIM.md). */
int TILEMPIX_Shared_alloc(MPI_Aint size, const char* key, void* baseptr);
int TILEMPIX_Shared_free(void* base);
int TILEMPIX_Shared_alloc_folds(int* flag);
/* The same as a malloc-like expression, keyed by the call's place in the source: each call site
   is one buffer (NULL where the allocation fails). */
#define TILEMPIX_SHARED_KEY_STR2(x) #x
#define TILEMPIX_SHARED_KEY_STR(x) TILEMPIX_SHARED_KEY_STR2(x)
#define TILEMPIX_SHARED_MALLOC(size) TILEMPIX_shared_malloc_at((size), __FILE__ ":" TILEMPIX_SHARED_KEY_STR(__LINE__))
static inline void* TILEMPIX_shared_malloc_at(size_t size, const char* key) {
  void* p = 0;
  return TILEMPIX_Shared_alloc((MPI_Aint)size, key, &p) == MPI_SUCCESS ? p : 0;
}

/* The energy the calling rank has spent so far on the modeled chip, in joules, as MPI_Wtime
   returns its time: deterministic (two runs with --compute none return the same values) and
   cheap (the rank prices it alone, asking nobody). It is this rank's core energy for the
   operations it counted since MPI_Init (--compute model), its adapter's energy for the messages
   it sent and took (per message end and payload word), and the network's dynamic energy of the
   payload packets of the messages it sent, on their routes, from the moment they are sent. Not
   included: the adapters' protocol packets, one-sided operations, collective offloads and
   static-network broadcasts, and the chip's leakage and clock (docs/SIM.md, "Energy as the
   program sees it"). Never decreases. 0.0 on the host transport (no model) and outside
   MPI_Init .. MPI_Finalize. Fortran: DOUBLE PRECISION TILEMPIX_ENERGY() (mpif.h, use mpi). */
double TILEMPIX_Energy(void);

/* Transport and virtual mesh of the running job. */
int TILEMPIX_Transport_name(char* name, int len);
int TILEMPIX_Mesh_shape(int* width, int* height);
int TILEMPIX_Rank_coords(MPI_Comm comm, int rank, int* x, int* y);

#ifdef __cplusplus
}
#endif

#endif /* TILEMPI_EXT_H */
