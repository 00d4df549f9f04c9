/* sweep.h - resumable parameter sweeps over `bfsim replay`.
 *
 * A sweep configuration is a JSON object whose keys are `bfsim replay`
 * long option names without the dashes.  A value is the option's argument
 * (a string or a number), true (the flag is given) or false (absent); an
 * array of such values is swept.  The runs are every combination of the
 * values, keys in file order with the last key varying fastest, minus the
 * combinations matched by an entry of "exclude".  Each run has an id: the
 * 64-bit FNV-1a hash of its canonical option set (sweep_canonical), so
 * that reordering the keys or adding values elsewhere does not change it.
 *
 * Each run is a separate `bfsim replay` process writing into
 * OUT/runs/ID/ (options.json, summary.json, run.h5, log.txt); a run is
 * complete when its summary.json says "partial": false, which makes a
 * sweep resumable: rerunning it runs only what is not complete.  Workers
 * (sweep_work) share one sweep by claiming runs one by one through
 * OUT/runs/ID/claim.N (sweep/claim.h).  The
 * results table (OUT/results.csv and OUT/results.h5) gathers every
 * complete run's options and summary measures.  OUT/sweep.txt records
 * which sweep the folder holds (sweep_bind), so that another
 * configuration's table does not silently replace it.
 */
#ifndef BFS_SWEEP_H
#define BFS_SWEEP_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "base/error.h"

/* What a value means on the replay's command line. */
enum sweep_kind {
    SWEEP_ARG, /* --NAME=TEXT */
    SWEEP_ON,  /* true: --NAME */
    SWEEP_OFF  /* false: the flag is left out */
};

struct sweep_value {
    enum sweep_kind kind;
    int number; /* given as a JSON number (SWEEP_ARG only) */
    /* owned: the argument, exactly as passed to the replay: a string as
     * given, an integer in decimal, a real in the shortest form that
     * reads back to the same double ("0.1", "1e+20"); "true" or "false"
     * for flags */
    char *text;
};

struct sweep_key {
    char *name;               /* owned */
    struct sweep_value *vals; /* owned; n_vals >= 1, no two equal */
    size_t n_vals;
    int swept;   /* given as an array */
    size_t line; /* of the key in the file, 0 if not found */
};

struct sweep_run {
    size_t *val;  /* owned: for each key, the index of its value */
    uint64_t id;  /* FNV-1a of sweep_canonical() */
    char hex[17]; /* id as 16 lower-case hex digits */
};

struct sweep {
    char *path;             /* owned: the configuration file, as given */
    char *dir;              /* owned: its directory ("." if none given) */
    struct sweep_key *keys; /* owned: in file order, "exclude" left out */
    size_t n_keys;
    struct sweep_run *runs; /* owned: expansion order, exclusions removed */
    size_t n_runs;
    size_t n_excluded; /* combinations removed by "exclude" */
};

/* At most this many combinations (before exclusion). */
#define SWEEP_MAX_RUNS 1000000

/* Reads and expands the configuration at path.  Returns 0 and fills *out,
 * or BFS_EIO / BFS_EPARSE / BFS_EINVAL with a message naming the file
 * (and the line where it applies) in e; *out is untouched on failure.
 * Checked here: JSON syntax (Jansson's line and column), duplicate keys,
 * keys the sweep manages itself (the options marked sweep_managed in
 * engine/options.h, by long or short name: summary, output, o, steps,
 * job-log, quiet, q, help, h), key syntax, value types, empty arrays,
 * values repeated in an array, a malformed "exclude", ids shared by two
 * runs.  Whether a key is a replay option is not checked
 * (sweep_check_keys). */
int sweep_load(const char *path, struct sweep *out, struct bfs_error *e);

/* Releases what sweep_load allocated; a zeroed struct is fine. */
void sweep_release(struct sweep *s);

/* The canonical option set of run r (malloc'd): one line "NAME=TEXT\n"
 * per key, keys sorted by strcmp, flags given as "NAME=true", flags
 * set to false left out.  The run's id is its FNV-1a 64 hash. */
char *sweep_canonical(const struct sweep *s, size_t r);

/* The run's options for people, in key order: "NAME=TEXT NAME=TEXT ...",
 * a TEXT with blanks or quotes in single quotes (malloc'd). */
char *sweep_describe(const struct sweep *s, size_t r);

/* Checks every key against the replay's options (engine/options.h): a
 * key is valid when it is the long name of an option the sweep does not
 * manage, and its values fit the option (no argument for a flag, no true
 * for an option that takes an argument; false fits both).  Returns 0 or
 * BFS_EINVAL naming the file, line and key in e. */
int sweep_check_keys(const struct sweep *s, struct bfs_error *e);

/* "OUT/runs/ID" for run r (malloc'd). */
char *sweep_run_dir(const struct sweep *s, size_t r, const char *outdir);

/* Creates OUT/runs (and OUT) if needed and returns OUT's absolute path
 * in *abs (malloc'd).  Returns 0 or BFS_EIO (reported in e). */
int sweep_prepare(const char *outdir, char **abs, struct bfs_error *e);

/* Binds OUT to this sweep through OUT/sweep.txt, its record: "bfsim-sweep
 * 1", "config PATH" (the configuration's absolute path), "digest HEX"
 * (FNV-1a 64 of the runs' ids sorted, one per line: the configuration's
 * canonical text as far as the folder goes), "runs N", then the N ids.
 * Without a record, update creates one, exclusively (claim_create), and
 * a check passes.  With one, the same digest passes; a record whose runs
 * are all runs of s passes too (a configuration extended with values),
 * and update then replaces it (atomically) by s's.  Any other record
 * belongs to another sweep, whose table s's would replace: BFS_EUSAGE
 * naming OUT and both configurations.  Returns 0, that, or BFS_EIO /
 * BFS_EPARSE (a record that cannot be read), all in e. */
int sweep_bind(const struct sweep *s, const char *outdir, int update,
               struct bfs_error *e);

/* 1 when OUT/runs/ID/summary.json exists, is a JSON object and has
 * "partial": false; else 0. */
int sweep_run_complete(const struct sweep *s, size_t r, const char *outdir);

/* How runs are executed by sweep_exec. */
struct sweep_exec {
    const char *prog;    /* borrowed: the bfsim program (a path with a
                            slash, or a name looked up in PATH) */
    const char *outdir;  /* borrowed: absolute path of OUT */
    const char *workdir; /* borrowed: where each replay starts, so that
                            relative paths in the configuration are
                            relative to it (the configuration's dir) */
    int jobs;            /* at most this many runs at once, >= 1 */
    /* Set (by the caller's SIGINT/SIGTERM handler) to stop: no run is
     * started any more, the running ones get SIGINT (the replay then
     * writes its outputs marked partial) and are waited for. */
    volatile sig_atomic_t *stop;
    /* Called as each run ends: wstatus as waitpid gives it, complete as
     * sweep_run_complete says, seconds its wall time.  May be NULL. */
    void (*done)(void *arg, size_t r, int wstatus, int complete,
                 double seconds);
    /* Called for a run skipped because another live process holds its
     * lock (OUT/runs/ID/lock); holder is the lock's "HOST PID".  May be
     * NULL. */
    void (*busy)(void *arg, size_t r, const char *holder);
    /* Workers (sweep_work) only: called when run r is claimed as
     * claim.GEN, takeover when it took over a stale claim.  May be
     * NULL. */
    void (*claimed)(void *arg, size_t r, int gen, int takeover);
    /* Workers only: called when run r, completed by the attempt of
     * claim.GEN, whose worker died before ending that claim, was
     * reconciled as done (claim.GEN+1 ends "done ... reconciled").  May
     * be NULL. */
    void (*reconciled)(void *arg, size_t r, int gen);
    /* Workers only: called once per run when the worker meets run r given
     * up (n_failed failed attempts, more than retries + 1).  May be
     * NULL. */
    void (*gave_up)(void *arg, size_t r, int n_failed);
    void *arg;
    double lease; /* workers: seconds after which a claim is stale */
    int retries;  /* workers: failed attempts retried per run */
};

/* Runs the runs todo[0..n-1] (indices into s->runs), in that order, at
 * most x->jobs at once: for each, writes OUT/runs/ID/options.json, then
 * starts `PROG replay OPTIONS -q --summary OUT/runs/ID/summary.json -o
 * OUT/runs/ID/run.h5` in x->workdir with standard output and error going
 * to OUT/runs/ID/log.txt and standard input from /dev/null, in its own
 * process group and (Linux) with SIGTERM as its parent-death signal.  A
 * run is first claimed through OUT/runs/ID/lock ("HOST PID", removed when
 * it ends); a run whose lock a live process holds is skipped (x->busy).
 * A run that fails does not stop the others.  While it runs, SIGINT, SIGTERM
 * and SIGCHLD are blocked except for a moment at each turn of its wait loop
 * (the signal mask is restored on return); it installs no handler, and
 * SIGCHLD must not be ignored (SIG_IGN lets the system reap the runs
 * before they are waited for).  Returns 0 (also when runs
 * failed or it was stopped), or BFS_EIO when a run could not be started
 * (reported in e; the runs already started are waited for). */
int sweep_exec(const struct sweep *s, const size_t *todo, size_t n,
               const struct sweep_exec *x, struct bfs_error *e);

/* The expected cost of run r, in arbitrary units, for the claim order:
 * W x NODES x (END - START) x JOBS, W = 1 for even (or no allocator
 * key), 10 for dp, 100 for milp, 1000 for milp with model node; NODES
 * the COUNT of a nodes key; END - START in seconds when both keys are
 * given; JOBS the size in bytes of the jobs key's file (relative to the
 * configuration's directory).  A factor whose key is absent is 1. */
double sweep_cost(const struct sweep *s, size_t r);

/* Fills order[0..n_runs-1] with the run indices by decreasing
 * sweep_cost, ties in expansion order. */
void sweep_order(const struct sweep *s, size_t *order);

/* What a worker saw when it ended. */
struct sweep_work_result {
    size_t n_complete; /* runs complete (by anyone) */
    size_t n_failed;   /* runs given up: more than retries failures */
    size_t n_ran;      /* runs this worker completed */
};

/* A worker: claims runs from order[0..n-1] (indices into s->runs) in
 * that order, at most x->jobs at once, and runs each as sweep_exec does
 * (without the lock file), until no run is pending and none is held by
 * a live worker.  A run is claimed by creating OUT/runs/ID/claim.N
 * exclusively (sweep/claim.h), N one more than its last claim; the
 * claim's mtime is refreshed every x->lease / 3 seconds while the run
 * goes on; a claim open with a heartbeat older than x->lease is taken
 * over by the next claim; a run with more than x->retries failed
 * attempts is given up.  An attempt writes the run's files under names
 * of its own, NAME.claimN.HOST.PID (and their temporary files
 * NAME.claimN.HOST.PID.tmp.XXXXXX), and renames them to NAME when its
 * replay ends, summary.json last, unless its claim was taken over; a
 * taker removes the files of the attempt it replaces only once that
 * attempt's worker is not live (claim_holder_live), else that worker
 * removes them when it finds its claim lost.  A worker whose claim was
 * taken over kills that replay and ends the claim "lost".  A run complete
 * (or completed by a dead attempt's own files) whose last claim is open
 * and stale is reconciled: the next claim ends "done ... reconciled" and
 * the run is not run again; while that claim is fresh its worker is
 * waited for.  On stop (x->stop), the replays get SIGINT, their claims
 * end "stopped" (pending again), and it returns.  Fills *res; returns 0
 * or a negative BFS_E* code (in e; started runs are stopped and waited
 * for).  Signals as for sweep_exec. */
int sweep_work(const struct sweep *s, const size_t *order, size_t n,
               const struct sweep_exec *x, struct sweep_work_result *res,
               struct bfs_error *e);

/* Writes OUT/results.csv and OUT/results.h5, each atomically: one row per
 * complete run in expansion order; the columns are "id", one per key
 * (the values' texts), then every leaf of the runs' summary.json in the
 * order of its first appearance, nested names joined with "." (a name
 * equal to a key or to "id" is prefixed with "summary.").  Numbers are
 * printed as %.17g (integers in decimal), true/false as 1/0.  In the
 * HDF5 file the dataset /results is a compound of fixed-length UTF-8
 * strings (id, the options, string measures) and doubles (the other
 * measures, NaN where a run lacks one).  *rows gets the number of rows.
 * Returns 0 or BFS_EIO / BFS_EPARSE (reported in e). */
int sweep_write_table(const struct sweep *s, const char *outdir, size_t *rows,
                      struct bfs_error *e);

/* The last `lines` lines of the file at path (malloc'd; at most 4 KiB
 * are read), or NULL if it cannot be read. */
char *sweep_log_tail(const char *path, size_t lines);

#endif
