/* replay_out.h - what `bfsim replay` writes besides its sinks' records
 * (replay_out.c). */
#ifndef BFS_CLI_REPLAY_OUT_H
#define BFS_CLI_REPLAY_OUT_H

#include "base/out.h"
#include "base/util.h"

#include <stdio.h>
#include "engine/options.h"
#include "engine/replay.h"
#include "formats/h5out.h"

/* Root attributes of the HDF5 file: version, command line, the inputs
 * (o's paths) and their CRCs, every recorded option of a (the command
 * line, options_record) and the solver's parameters.  Returns 0 or the
 * HDF5 writer's error code. */
int replay_h5_attrs(struct h5out *h, int argc, char **argv,
                    const struct replay_args *a, const struct replay_opts *o);
/* Every measure of the table as an attribute of /summary. */
int replay_h5_summary(struct h5out *h, const struct replay_stats *st);

/* Writes the JSON summary of st to f (the summary's sink, rec_text_file;
 * path names it in errors): every measure, then the run's recorded
 * options of a in the object "parameters".  Returns 0 or BFS_EIO (in
 * e). */
int replay_write_summary(FILE *f, const char *path, const struct replay_args *a,
                         const struct replay_stats *st, struct bfs_error *e);

/* Prints on standard error a warning for allocator calls not proven
 * optimal (counted by status, the first one's event, the answers not
 * applied), and for each sign that the replay measured nothing useful:
 * the job set's submissions all after the replayed window's last event
 * or all before its first (suggesting --align-jobs), no job admitted, or
 * no job finished (then the completion measures are undefined; these
 * three not for an interrupted replay).  Returns the number of warnings
 * (`--strict` turns any into exit status 1). */
int replay_warnings(const struct replay_stats *st);

/* The human report on standard output: a line naming the run, then
 * every measure of the table (engine/measures.h) but the first line's,
 * by the table's groups and lines, in its labels and display units; a
 * measure over finished jobs is "none" when no job finished; an empty
 * text, and a zero of a row marked MEASURE_REPORT_NONZERO, is left
 * out. */
void replay_print_report(const struct replay_opts *o,
                         const struct replay_stats *st);

#endif
