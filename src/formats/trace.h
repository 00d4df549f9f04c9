/* trace.h - node idle/preempt traces in bfsim's native format.
 *
 * A trace is a list of named nodes and a time-ordered list of events; at
 * each event some nodes become idle (join the pool the backfill trainer
 * may use) and some are taken back by the main scheduler (leave it).
 * Before the first event every node is busy.
 *
 * The native format ("bfsim-trace 1") is line-oriented text, optionally
 * compressed (gzip, zstd, xz or bzip2), so that it streams: a reader needs
 * memory for the node list and one event, never for the whole timeline.
 *
 *     bfsim-trace 1
 *     # comment lines start with '#'; blank lines are ignored
 *     node c05n06                  (or, typed: node c05n06 A100)
 *     node a02n02
 *     ...                          (one line per node, in node order)
 *     1612915732                   (an event: Unix seconds, UTC, ...)
 *     1612918128 +4672             (... then +I: node I becomes idle,
 *     1612918199 -4672 +12 +13      -I: node I is taken back)
 *
 * A node line may name the node's type after its name ("node c05n06
 * A100", tools/DESIGN.md "Node types"): every node line then does, or
 * none does; a type, like a name, is non-empty and holds no blank or
 * control character.  That is the whole type table: types are numbered
 * 0, 1, ... in the order they first appear in the node list.  A trace
 * without types reads (and writes) exactly as before types existed.
 *
 * Node indices are 0-based positions in the node list.  Event times are
 * strictly increasing.  An event may list no change (it marks a time, such
 * as the start of the log).  A node may appear at most once per event, a
 * node that becomes idle must have been busy and vice versa.  Every
 * violation is reported with the file name and line.
 */
#ifndef BFS_TRACE_H
#define BFS_TRACE_H

#include <stddef.h>
#include <stdint.h>

#include "base/error.h"

#define TRACE_MAGIC "bfsim-trace 1"

/* One event as the reader returns it.  The arrays are owned by the reader
 * and valid until the next trace_next() or trace_close(). */
struct trace_event {
    int64_t time;          /* Unix seconds */
    size_t n_join;         /* nodes that became idle */
    const uint32_t *join;  /* their indices, ascending */
    size_t n_leave;        /* nodes taken back */
    const uint32_t *leave; /* their indices, ascending */
    size_t line;           /* line of the event in the file */
};

struct trace_reader;

/* Opens a native trace and reads its node list.  Returns 0 or a negative
 * code with the problem reported in e (file and line). */
int trace_open(const char *path, struct trace_reader **out,
               struct bfs_error *e);

/* Number of nodes, and the name of node i (borrowed, i < count). */
size_t trace_node_count(const struct trace_reader *r);
const char *trace_node_name(const struct trace_reader *r, size_t i);

/* Whether s may be a node name or a type name: non-empty, no blank or
 * control character. */
int trace_name_ok(const char *s);

/* Node types (tools/DESIGN.md, "Node types"): a node line may name the
 * node's type after its name (`node c05n06 A100`), for every node or for
 * none.  Types are numbered 0, 1, ... in the order they first appear in
 * the node list.  trace_type_count is 0 for a trace without types (one
 * type), and trace_node_type then 0 for every node. */
size_t trace_type_count(const struct trace_reader *r);
const char *trace_type_name(const struct trace_reader *r, size_t t);
uint32_t trace_node_type(const struct trace_reader *r, size_t i);

/* Reads the next event into *ev.  Returns 1 for an event, 0 at the end of
 * the trace, or a negative code (reported in e).  Validates the event
 * against the state built from the events before it. */
int trace_next(struct trace_reader *r, struct trace_event *ev,
               struct bfs_error *e);

/* Whether node i is idle after the last event read (borrowed view of the
 * reader's state). */
int trace_node_idle(const struct trace_reader *r, size_t i);

/* The path given to trace_open (borrowed). */
const char *trace_path(const struct trace_reader *r);
/* The share of the trace's file read so far, 0..1, or -1 when unknown
 * (bfs_lines_fraction): an estimate of how far the trace is, without
 * reading ahead. */
double trace_fraction(const struct trace_reader *r);

void trace_close(struct trace_reader *r);

/* A native trace being written, atomically: nothing appears at path until
 * trace_writer_finish succeeds.  A path ending in ".gz", ".zst", ".xz" or
 * ".bz2" is compressed with that codec (gzip, zstd, xz, bzip2; zout.h),
 * any other is plain text. */
struct trace_writer;

/* Starts a trace with n nodes named names[0..n-1] (copied) and optional
 * comment lines (NULL-terminated array, may be NULL).  Names must be
 * non-empty, unique and free of blanks.  Returns 0 or a negative code.
 * The same as trace_writer_open_typed with types NULL. */
int trace_writer_open(const char *path, const char *const *names, size_t n,
                      const char *const *comments, struct trace_writer **out,
                      struct bfs_error *e);

/* Starts a typed trace: node i has type types[i] (borrowed, used before
 * the call returns: the node list is written at once), written as "node
 * NAME TYPE".  Types follow the rules of names but need not be unique;
 * the reader numbers them in order of first appearance.  types NULL
 * gives an untyped trace, byte for byte what trace_writer_open writes.
 * Returns 0 or a negative code (BFS_EINVAL for a bad name or type,
 * reported in e with the node's index). */
int trace_writer_open_typed(const char *path, const char *const *names,
                            const char *const *types, size_t n,
                            const char *const *comments,
                            struct trace_writer **out, struct bfs_error *e);

/* Sets the gzip level (1 = fastest .. 9 = smallest) of a ".gz" writer
 * from now on; the default is 9.  No effect on other outputs (zstd, xz
 * and bzip2 keep their default levels, zout.h; plain text has none).
 * Returns 0, or BFS_EINVAL for a level outside 1..9. */
int trace_writer_set_level(struct trace_writer *w, int level);

/* Appends an event.  join/leave need not be sorted; the writer checks the
 * same rules as the reader (time order, state consistency).  Returns 0 or
 * a negative code (reported in e; the writer must then be aborted). */
int trace_writer_event(struct trace_writer *w, int64_t time,
                       const uint32_t *join, size_t n_join,
                       const uint32_t *leave, size_t n_leave,
                       struct bfs_error *e);

/* Commits the file (rename into place) and frees the writer.  Returns 0 or
 * BFS_EIO; on failure nothing is left at the path. */
int trace_writer_finish(struct trace_writer *w, struct bfs_error *e);

/* Frees the writer and removes its temporary file.  NULL is a no-op. */
void trace_writer_abort(struct trace_writer *w);

#endif
