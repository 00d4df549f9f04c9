/* sweep_impl.h - what the files of a sweep share, for src/sweep/ only.
 *
 * The sweep is four files, and their includes go one way: sweep.c (the
 * configuration, its expansion into runs and their ids) needs none of
 * the others; run.c (running the replays and the run folders) uses
 * sweep.c's helpers; work.c (the workers' claims, with claim.c) and
 * table.c (the results table) use both.  This header declares what
 * sweep.c and run.c lend to the files after them, nothing more.
 */
#ifndef BFS_SWEEP_IMPL_H
#define BFS_SWEEP_IMPL_H

#include <jansson.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "base/error.h"
#include "sweep/sweep.h"

/* ---- from sweep.c -------------------------------------------------------- */

/* A growing string: p is NUL-terminated once anything is added (owned). */
struct buf {
    char *p;
    size_t n, cap;
};

/* Appends the n bytes at s to b. */
void buf_add(struct buf *b, const char *s, size_t n);
/* Appends the string s to b. */
void buf_str(struct buf *b, const char *s);
/* b's text, "" when nothing was added; the caller owns it (b is spent). */
char *buf_take(struct buf *b);

/* The 64-bit FNV-1a hash of the n bytes at p. */
uint64_t fnv1a(const char *p, size_t n);
/* qsort comparison of two uint64_t. */
int cmp_u64(const void *a, const void *b);
/* The index of key name in s, or (size_t)-1. */
size_t find_key(const struct sweep *s, const char *name);
/* The value of key k in run r (borrowed from s). */
const struct sweep_value *run_value(const struct sweep *s, size_t r, size_t k);

/* ---- from run.c ---------------------------------------------------------- */

/* A place for one replay process of sweep_exec or sweep_work. */
struct slot {
    pid_t pid; /* 0 when free */
    size_t run;
    double t0;
    int gen;       /* worker: the number of the run's claim */
    int lost;      /* worker: the claim was taken over; the replay is killed */
    char tag[320]; /* worker: the attempt's tag (attempt_tag) */
};

/* "OUTDIR/runs/ID/NAME" for run r (malloc'd). */
char *run_file(const struct sweep *s, size_t r, const char *outdir,
               const char *name);
/* 1 when the summary at path is complete ("partial": false). */
int complete_at(const char *path);
/* Run r's summary if it is complete (new reference), else NULL. */
json_t *load_complete(const struct sweep *s, size_t r, const char *outdir);
/* mkdir -p path.  Returns 0 or BFS_EIO naming the folder (in e). */
int make_dirs(const char *path, struct bfs_error *e);

/* The tag of attempt gen by host and pid, in buf: "claimN.HOST.PID". */
void attempt_tag(char *buf, size_t size, int gen, const char *host, long pid);
/* "DIR/NAME.TAG", or "DIR/NAME" when tag is NULL (malloc'd). */
char *attempt_path(const char *dir, const char *name, const char *tag);
/* Removes files of attempts from run directory dir: those of attempt gen
 * when gen >= 0; else those of every attempt before `below` whose claim
 * has ended or whose worker is not live past lease seconds. */
void remove_attempts(const char *dir, int gen, int below, double lease);
/* Renames the files of attempt tag in dir to the run's names: its log,
 * then (outputs) run.h5 and summary.json.  Returns 0 or BFS_EIO (in e). */
int attempt_publish(const char *dir, const char *tag, int outputs,
                    struct bfs_error *e);

/* Starts run r in the free slot *sl: with use_lock, claimed through
 * OUT/runs/ID/lock; else a worker's attempt (sl->tag set) writing under
 * its own names.  child_mask is the child's signal mask.  Returns 0, 1
 * when another process holds the lock (holder names it; nothing
 * started), or BFS_EIO (in e). */
int launch(const struct sweep *s, size_t r, const struct sweep_exec *x,
           const sigset_t *child_mask, int use_lock, struct slot *sl,
           char *holder, size_t holder_size, struct bfs_error *e);
/* Blocks SIGCHLD, SIGINT and SIGTERM for a loop over child processes:
 * block gets those three, old the mask before, chld SIGCHLD alone and
 * window old with SIGCHLD blocked and SIGINT and SIGTERM open. */
void block_signals(sigset_t *block, sigset_t *old, sigset_t *chld,
                   sigset_t *window);

#endif
