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
/* The algorithm that will run for a collective ("alltoall", "bcast", ...) on a communicator. */
int TILEMPIX_Coll_selected(MPI_Comm comm, const char* collective, char* name, int len);

/* Transport and virtual mesh of the running job. */
int TILEMPIX_Transport_name(char* name, int len);
int TILEMPIX_Mesh_shape(int* width, int* height);
int TILEMPIX_Rank_coords(MPI_Comm comm, int rank, int* x, int* y);

#ifdef __cplusplus
}
#endif

#endif /* TILEMPI_EXT_H */
