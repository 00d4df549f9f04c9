/* instance.h - allocation instances as JSON files.
 *
 * One file holds one allocation problem (alloc.h), so that an event of a
 * replay can be solved again, alone, by `bfsim solve FILE`:
 *
 *   {"format": "bfsim-instance", "version": 1,
 *    "note": "optional free text",
 *    "pool": 10, "tfwd": 600, "cap": 0,
 *    "jobs": [
 *     {"name": "J00000", "cur": 2, "jmin": 1, "jmax": 4,
 *      "tcup": 18, "tcdw": 12, "o": [0, 2831, 5259, 7623.5, 9988]},
 *     {"cur": 0, "jmin": 2, "jmax": 3, "tcup": 18, "tcdw": 12,
 *      "curve": [[0, 0], [1, 2831], [3, 7000]]}
 *    ],
 *    "owner": [0, 0, -1, -1, -1, -1, -1, -1, -1, -1]}
 *
 * - pool: N, the idle nodes (integer >= 0); tfwd: the horizon in seconds
 *   (> 0); cap: the largest change of a job's count, 0 for none (the
 *   published replayer's is floor((N+1)/2)); optional, default 0.
 * - jobs, in order (the order of the tie-break rule): cur = C_j, the pool
 *   nodes the job holds now (it may be below jmin); jmin..jmax its bounds
 *   (1 <= jmin <= jmax, cur <= jmax); tcup, tcdw its rescale costs in
 *   seconds (>= 0); the objective metric either as "o", its value at every
 *   count 0..jmax (o[0] = 0; what bfsim writes, exact), or as "curve",
 *   breakpoints [N, O] from [0, 0] with strictly increasing integer N up
 *   to at least jmax, interpolated linearly (as numpy.interp) at every
 *   count; name is optional.  The sum of cur is at most pool.
 * - h: optional, per job, jmax + 1 numbers >= 0: the job's horizon at
 *   every count, replacing tfwd in its gain term (alloc.h; what `bfsim
 *   replay --hints` computes and --dump-instances writes).
 * - owner: optional, the current map for the node model: owner[q] is the
 *   job holding pool position q, or -1; it must agree with every cur.
 * - note: optional text (a replay writes the event and its time).
 *
 * Node types (alloc.h's n_types; tools/DESIGN.md, "Node types"):
 *
 *   {"format": "bfsim-instance", "version": 1,
 *    "pool": 8, "tfwd": 600, "cap": 0,
 *    "types": ["A100", "V100"], "pools": [4, 4],
 *    "jobs": [
 *     {"cur": 2, "ctype": 0, "jmin": 1, "jmax": 3, "tcup": 18, "tcdw": 12,
 *      "ot": [[0, 2831, 5259, 7623.5], null]},
 *     {"cur": 0, "jmin": 1, "jmax": 2, "tcup": 18, "tcdw": 12,
 *      "curves": [[[0, 0], [2, 9000]], [[0, 0], [2, 4000]]]}
 *    ]}
 *
 * - pools: the idle nodes of each type (at least two types; integers >=
 *   0 summing to pool); its presence makes the instance typed.  types:
 *   optional, the types' names (distinct non-empty strings, one per
 *   entry of pools; "types" without "pools" is an error).
 * - per job: ctype, the type of the nodes it holds (0..types-1,
 *   optional, default 0; read only when cur > 0, where the job must be
 *   able to run on it); and exactly one of "ot", one table per type
 *   (jmax + 1 numbers, as "o"; null where the job cannot run) and
 *   "curves", one curve per type (as "curve"; null likewise).  "o" or
 *   "curve" is then optional (the reference curve, kept and written back
 *   but not used), "h" and "owner" are errors, cap must be 0, and the
 *   jobs on each type hold at most its pool.
 * - ctype, ot and curves without "pools" are errors: an untyped file
 *   reads and writes exactly as before types existed.
 *
 * Unknown keys are errors (they are most likely typos).  Numbers are
 * written with 17 significant digits, so a written instance reads back to
 * the same doubles.
 */
#ifndef BFS_INSTANCE_H
#define BFS_INSTANCE_H

#include "alloc/alloc.h"
#include "base/error.h"

#include <stdint.h>

#define INSTANCE_FORMAT "bfsim-instance"
#define INSTANCE_VERSION 1

/* An instance read from a file: the problem and the memory it points
 * into. */
struct instance {
    struct alloc_problem p; /* jobs and owner point into this struct */
    struct alloc_job *jobs; /* owned, p.n_jobs */
    double *o;              /* owned: the jobs' tables, back to back */
    double *h;              /* owned: their horizon tables, likewise (the
                               jobs without "h" leave theirs unused) */
    int *owner;             /* owned, p.pool entries, or NULL */
    /* node types (p.n_types > 1), else NULL: */
    int *pools;         /* owned, p.n_types entries */
    char **type_names;  /* owned, p.n_types entries, each owned; or
                           NULL when the file names none */
    double *ot;         /* owned: the jobs' tables per type */
    const double **otp; /* owned: p.n_jobs x p.n_types pointers into
                           ot (NULL: the job cannot run there) */
    char **names;       /* owned, p.n_jobs entries, each owned or
                           NULL */
    char *note;         /* owned or NULL */
};

/* Reads the instance in path ("-": standard input; plain or compressed, as
 * bfs_read_all reads it) into *out.  Returns 0,
 * or BFS_EIO / BFS_EPARSE / BFS_EINVAL with a message that names the file,
 * the line for JSON syntax errors, and the problem ("inst.json: job 2
 * (J00002): jmin 5 > jmax 4"); *out is written only on success.  A jmin
 * or jmax above the pool is kept as pool + 1 (the same admissible counts),
 * with its table. */
int instance_read(const char *path, struct instance *out, struct bfs_error *e);

/* Writes p to path atomically (bfs_out_open), one job per line.  names
 * (p->n_jobs entries, NULL entries skipped) and note may be NULL.  The
 * problem must pass alloc_problem_check.  Returns 0 or a negative code
 * (reported in e).  This is what `bfsim replay --dump-instances DIR`
 * calls for every instance it solves.  A typed problem's type names are
 * written when p->type_names gives them.  A problem with spanning types
 * (p->mixed) is refused (BFS_EUNSUP): the format has no mixed flag and
 * no nodes held per type. */
int instance_write(const char *path, const struct alloc_problem *p,
                   const char *const *names, const char *note,
                   struct bfs_error *e);

/* As instance_write, also writing the names of p's node types as
 * "types" (type_names: p->n_types entries; NULL, or a problem without
 * types, writes none). */
int instance_write_typed(const char *path, const struct alloc_problem *p,
                         const char *const *names,
                         const char *const *type_names, const char *note,
                         struct bfs_error *e);

/* A replay's instance callback (struct replay_opts.instance, for
 * `bfsim replay --dump-instances DIR`): writes p, solved at event evt at
 * time t, to DIR/evt-NNNNNN.json with a note naming the event.  dir is
 * the directory (a const char *), which must exist.  Returns 0 or a
 * negative code (reported in e). */
int instance_dump(void *dir, const struct alloc_problem *p,
                  const char *const *names, size_t evt, int64_t t,
                  struct bfs_error *e);

/* Frees what in owns; safe on a zeroed struct. */
void instance_release(struct instance *in);

#endif
