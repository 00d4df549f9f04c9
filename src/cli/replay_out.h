/* replay_out.h - the outputs of `bfsim replay` other than the step log
 * (replay_out.c). */
#ifndef BFS_CLI_REPLAY_OUT_H
#define BFS_CLI_REPLAY_OUT_H

#include "base/out.h"
#include "base/util.h"
#include "engine/replay.h"
#include "formats/h5out.h"

/* The per-job CSV (--job-log), a replay sink for its job callback. */
struct joblog {
    struct bfs_out out;
    struct bfs_error e;
};

/* Opens path and writes the header; returns 0, or -1 with jl->e set. */
int joblog_open(struct joblog *jl, const char *path);
/* The sink's job callback: one row per job. */
int joblog_job(void *arg, const struct replay_jobrec *j);

/* Root attributes of the HDF5 file: version, command line, every option,
 * input CRCs.  Returns 0 or the HDF5 writer's error code. */
int replay_h5_attrs(struct h5out *h, int argc, char **argv,
                    const struct replay_opts *o);
/* The summary's numbers as attributes of /summary. */
int replay_h5_summary(struct h5out *h, const struct replay_stats *st);

/* Writes the JSON summary to path ('-': standard output), atomically.
 * Returns a CMD_* exit status (errors are reported). */
int replay_write_summary(const char *path, const struct replay_opts *o,
                         const struct replay_stats *st);

/* The short human report on standard output. */
void replay_print_report(const struct replay_opts *o,
                         const struct replay_stats *st);

#endif
