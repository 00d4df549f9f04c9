/* import_acct.h - what the accounting-log importers (PBS, LSF) share:
 * the runs they read, the machine they make of them, and the inputs.
 *
 * An accounting log gives each run of a job once it is over (LSF's
 * JOB_FINISH) or as start and end records that may lie in different
 * daily files (PBS), in no start order.  The importer reads every input
 * whole, adding each run here (named hosts, or a node count); then
 * acct_convert makes the machine (see below), hands every run to the
 * job-log engine (import_log.h) and writes the trace.  Memory grows with
 * the runs and the hosts.
 *
 * The machine: with o->nodes_file, the names it lists (one a line, or
 * `pbsnodes -av` output: acct_read_nodes), in its order, hosts not in it
 * ignored and counted; else the hosts the runs name, in numeric-aware
 * order (hostlist_name_cmp), followed, when o->machine_nodes is more than
 * their number, by nodes no run names ("unseen" + index); else, when no
 * run names a host, o->machine_nodes nodes or the peak number of nodes
 * the counted runs hold at once, named "n" + index.  A run with a node
 * count only is placed by the engine's rules (o->placement).
 */
#ifndef BFS_IMPORT_ACCT_H
#define BFS_IMPORT_ACCT_H

#include <stddef.h>
#include <stdint.h>

#include "base/error.h"
#include "formats/hostlist.h"
#include "import/import.h"

struct acct_run {
    int64_t start, end; /* end IMPORT_TIME_NONE: still running */
    size_t off, n;      /* hosts: acct.nodes[off .. off + n - 1] */
    size_t need;        /* n == 0: the node count */
};

struct acct {
    const struct import_log_opts *o; /* borrowed */
    struct import_acct_report *rep;  /* borrowed */
    struct hostlist hosts;           /* named by runs, first-seen order */
    struct hostlist_index *hix;      /* name -> index in hosts */
    struct acct_run *runs;
    size_t n_runs, cap_runs;
    uint32_t *nodes; /* host indices of the runs */
    size_t n_nodes, cap_nodes;
    size_t *mark; /* per host: the serial of the last run holding it */
    size_t cap_mark, serial;
    int64_t latest;      /* the latest time read, or IMPORT_TIME_NONE */
    const char *file;    /* the file being read (borrowed) */
    size_t line;         /* the line being read */
    struct bfs_error le; /* the problem of a malformed record */
};

/* Starts an empty set of runs for the options o and the report rep (both
 * borrowed, kept for acct_convert). */
void acct_init(struct acct *a, const struct import_log_opts *o,
               struct import_acct_report *rep);
void acct_release(struct acct *a);

/* Notes t as a time of the log (the end of runs still running). */
void acct_saw(struct acct *a, int64_t t);

/* Starts a run's host list: returns its off for acct_run_add.  Hosts are
 * added with acct_host (a host added twice to one run is held once). */
size_t acct_hosts_begin(struct acct *a);
void acct_host(struct acct *a, size_t off, const char *name, size_t len);

/* Adds a run from start to end (IMPORT_TIME_NONE: running) holding the
 * hosts added since off, or, when there are none, need nodes.  Returns
 * its index in a->runs. */
size_t acct_run_add(struct acct *a, int64_t start, int64_t end, size_t off,
                    size_t need);

/* The files of the inputs src[0..n-1] (each a file, or a directory whose
 * regular files not starting with '.' it stands for), in the order of
 * their last path component, then of the whole path (PBS names its daily
 * files YYYYMMDD).  *files (malloc'd, each malloc'd; free with
 * acct_files_free) and *n_files only on success.  Returns 0, or BFS_EIO
 * for an input that cannot be read or a directory without files. */
int acct_files(const char *const *src, size_t n, char ***files, size_t *n_files,
               struct bfs_error *e);
void acct_files_free(char **files, size_t n);

/* "A, B, C": the inputs as given, for the trace's header (malloc'd). */
char *acct_joined(const char *const *src, size_t n);

/* Reads the file at path, calling fn(arg, line) for every line that is
 * not blank (trimmed; fn may modify it), with a->file and a->line set;
 * counts lines and records in rep.  When fn fails (a malformed record,
 * reported with acct_malformed), the record is counted and skipped with
 * o->skip_bad (rep->first_bad keeps the first message), else its
 * message goes to e and reading stops.  Returns 0 or a negative code. */
typedef int (*acct_record_fn)(void *arg, char *line);
int acct_read(struct acct *a, const char *path, acct_record_fn fn, void *arg,
              struct bfs_error *e);

/* Records "FILE:LINE: problem" of the record being read in a->le;
 * returns BFS_EPARSE. */
int acct_malformed(struct acct *a, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Counts a record of a kind the importer skips, by its name. */
void acct_skip_kind(struct acct *a, const char *kind, size_t len);

/* Makes the machine, places every run, and writes the trace at out_path
 * with comments, then the line "source: FORMAT log PATHS" and the lines
 * extra (NULL-terminated, may be NULL) in its header.  Ends the runs
 * still running at the latest time read (counted).  Fills rep's machine,
 * placement and trace parts and st.  Returns 0 or a negative code with
 * the problem in e (nothing is written then). */
int acct_convert(struct acct *a, const char *format, const char *paths,
                 const char *out_path, const char *const *comments,
                 const char *const *extra, struct import_stats *st,
                 struct bfs_error *e);

/* An importer's whole run after its own setup: the files of src[0..n-1]
 * (acct_files) read in turn with fn(arg, line) (acct_read), their count
 * in a's report, then acct_convert with the inputs' names (acct_joined).
 * On success copies the counts to *st and a's report to *rep (each when
 * not NULL).  Returns 0 or a negative code with the problem in e. */
int acct_import(struct acct *a, const char *const *src, size_t n,
                acct_record_fn fn, void *arg, const char *format,
                const char *out_path, const char *const *comments,
                const char *const *extra, struct import_stats *st,
                struct import_acct_report *rep, struct bfs_error *e);

#endif
