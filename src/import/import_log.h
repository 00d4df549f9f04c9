/* import_log.h - the engine shared by the job-log importers (import.h):
 * job busy intervals in, node idle/preempt events out.
 *
 * An importer reads jobs in its file's order and hands each one over with
 * import_log_add_count (a node count, placed here) or import_log_add_nodes
 * (named nodes).  Jobs need not arrive in start order: they wait in a heap
 * until the importer promises, with import_log_advance(h), that no job it
 * adds later starts before h.  Every second before h is then final and
 * written.  import_log_finish writes the rest and the closing event.
 *
 * Without a trace writer (count mode, nodes 0) nothing is placed or
 * written: the engine only tracks the number of busy nodes and its peak.
 */
#ifndef BFS_IMPORT_LOG_H
#define BFS_IMPORT_LOG_H

#include <stddef.h>
#include <stdint.h>

#include "base/error.h"
#include "import/import.h"
#include "formats/trace.h"

struct import_log;

/* Checks the options against each other (the window's end after its
 * start).  Returns 0 or BFS_EINVAL (reported in e). */
int import_log_check_opts(const struct import_log_opts *o, struct bfs_error *e);

/* The number of strings of v, a NULL-terminated list (NULL: none). */
size_t import_log_comments_count(const char *const *v);

/* Copies the strings of v (as above) into c from c[*k] on, advancing *k;
 * c must have room. */
void import_log_comments_add(char **c, size_t *k, const char *const *v);

/* The comment lines (malloc'd, NULL-terminated; free with
 * import_log_comments_free) for a trace header: comments, then "source:
 * FORMAT PATH", then the lines of extra (may be NULL), then the placement,
 * window and outage settings of o. */
char **import_log_comments(const char *const *comments, const char *format,
                           const char *path, const char *const *extra,
                           const struct import_log_opts *o);
void import_log_comments_free(char **c);

/* Starts an engine over n_nodes nodes writing to w (borrowed; the caller
 * opens and finishes it), or in count mode when w is NULL and n_nodes 0.
 * o is copied; path (borrowed) names the input in messages. */
struct import_log *import_log_new(const struct import_log_opts *o,
                                  size_t n_nodes, struct trace_writer *w,
                                  const char *path);

/* Adds a job holding need nodes (>= 1) from start to end (start < end).
 * Returns 0, or BFS_ERANGE when start is before a time already final
 * (the caller reports it with its file and line). */
int import_log_add_count(struct import_log *l, int64_t start, int64_t end,
                         size_t need);

/* import_log_add_count on the nodes lo .. hi - 1 only (lo < hi <=
 * n_nodes): placement, overflow and "larger than the machine" are judged
 * within that range (an SWF partition). */
int import_log_add_count_in(struct import_log *l, int64_t start, int64_t end,
                            size_t need, uint32_t lo, uint32_t hi);

/* Adds a job holding the named nodes (indices < n_nodes, copied; a node
 * may be held by several jobs).  Returns 0 or BFS_ERANGE as above. */
int import_log_add_nodes(struct import_log *l, int64_t start, int64_t end,
                         const uint32_t *nodes, size_t n);

/* Writes every second before horizon (no later job will start before
 * it).  Returns 0 or a negative code from the writer (reported in e). */
int import_log_advance(struct import_log *l, int64_t horizon,
                       struct bfs_error *e);

/* Writes everything left and the closing event, and fills the engine's
 * part of rep (placement, trace, outage fields) and st.  Returns 0, or
 * BFS_EINVAL when no job ran and no window was given (nothing to write),
 * or a writer error (reported in e). */
int import_log_finish(struct import_log *l, struct import_log_report *rep,
                      struct import_stats *st, struct bfs_error *e);

/* Ends a conversion: import_log_finish, then the trace
 * (trace_writer_finish), and frees l.  Takes w: committed on success,
 * aborted on failure.  Returns 0, or import_log_finish's or the writer's
 * error (reported in e). */
int import_log_end(struct import_log *l, struct trace_writer *w,
                   struct import_log_report *rep, struct import_stats *st,
                   struct bfs_error *e);

/* Count mode: the most nodes busy at once so far. */
size_t import_log_peak_busy(const struct import_log *l);

/* NULL is a no-op. */
void import_log_free(struct import_log *l);

/* Opens the trace writer w at path for the n nodes names[] (borrowed)
 * with the header comments: typed by types (per node, borrowed) when not
 * NULL, else by o->node_types applied to the names when set (a node it
 * does not name is an error), else untyped.  Sets st->types and
 * st->types_unused.  Returns 0 or a negative code (reported in e). */
int import_log_writer_open(const char *path, const char *const *names,
                           const char *const *types, size_t n,
                           const char *const *comments,
                           const struct import_log_opts *o,
                           struct import_stats *st, struct trace_writer **w,
                           struct bfs_error *e);

/* The trace header's line on where the types come from when o gives
 * node_types or types_from_partition (malloc'd), else NULL. */
char *import_log_types_comment(const struct import_log_opts *o);

/* The trace header's line "window: START .. END" (malloc'd): o's start
 * and end in UTC, or no_start and no_end for those not given. */
char *import_log_window_comment(const struct import_log_opts *o,
                                const char *no_start, const char *no_end);

/* The trace header's line on the outages o marks (malloc'd); when it
 * marks none, none as the line (NULL: no line). */
char *import_log_outage_comment(const struct import_log_opts *o,
                                const char *none);

/* SWF partitions, as o->partition_nodes gives them ("NAME=COUNT[:PPN],
 * ..."; import_swf): each a name (a valid type name, unique), a node
 * count (1..2^24, at most 2^24 in all) and processors per node (0: not
 * given).  Returns 0, or BFS_EUSAGE (reported in e, naming the option);
 * *out (free with import_partitions_free) and *n only on success. */
struct import_partition {
    char *name; /* owned */
    size_t count;
    int64_t ppn;
};
int import_partitions_parse(const char *text, struct import_partition **out,
                            size_t *n, struct bfs_error *e);
void import_partitions_free(struct import_partition *p, size_t n);

/* A log's time zone, for time stamps written in local time (PBS).  The
 * spec is "UTC" (or "Z"), an offset as --tz-offset takes it (+HH:MM,
 * -HH:MM, seconds), or the name of a zone of the system's database
 * ($TZDIR, else /usr/share/zoneinfo; "America/Chicago"), whose daylight
 * saving rules apply.  Returns 0 and *out (free with import_tz_close), or
 * BFS_EUSAGE naming --tz. */
struct import_tz;
int import_tz_open(const char *spec, struct import_tz **out,
                   struct bfs_error *e);

/* Unix seconds of a local date and time of z (fields as written: month
 * 1-12).  For a zone, the C library converts (TZ set for the call and
 * restored; the offset is cached for the local hour); a time repeated or
 * skipped when the clocks change is taken as mktime takes it. */
int64_t import_tz_local(struct import_tz *z, int y, int mo, int d, int h,
                        int mi, int s);

/* The spec z was opened with (borrowed). */
const char *import_tz_name(const struct import_tz *z);

/* NULL is a no-op. */
void import_tz_close(struct import_tz *z);

/* The digits of n - 1 (at least 1): the width of generated node names. */
int import_log_name_width(size_t n);

/* Generated node names "n" + zero-padded index, n of them (owned by the
 * caller: free with import_log_names_free). */
char **import_log_names(size_t n);
void import_log_names_free(char **names, size_t n);

#endif
