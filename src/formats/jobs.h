/* jobs.h - elastic training job sets and their scalability curves.
 *
 * Two input forms are read:
 *
 * - bfsim's native job file ("bfsim-jobs 1"), one self-contained CSV with
 *   one job per line, the curve inline:
 *
 *       # bfsim-jobs 1
 *       job,tsub,jmin,jmax,pmax,tcup,tcdw,curve
 *       J00000,1612988475,1,64,130000000,18,12,0:0:0 1:2831:2831 2:5259:5259
 *
 *   tsub is Unix seconds or "YYYY-MM-DD HH:MM:SS" (UTC); curve is a
 *   blank-separated list of N:P:O breakpoints.  Two optional columns
 *   give the node types a job runs on (tools/DESIGN.md, "Node types"):
 *   speed, blank-separated TYPE:FACTOR entries (FACTOR finite, >= 0; 0
 *   is the same as not listing the type), and any number of columns
 *   curve@TYPE, each the job's own curve on TYPE in the curve column's
 *   syntax and rules.  A type may not have both; a job whose speed and
 *   curve@ fields are all blank lists no type; one that lists types but
 *   none usable is an error.  A type name is not empty and holds no
 *   blank and no ':'.
 *
 *   Every other column of a native header (not job, tsub, jmin, jmax,
 *   pmax, tcup, tcdw, curve, speed, curve@TYPE nor a checkpoint column,
 *   ckpt_interval, ckpt_write, ckpt_restart) is a job feature (model
 *   family, parameter count, dataset, ...): its name follows the type
 *   name rules (and may not start with "curve@"), and each job keeps its
 *   field as text, a blank field being no value.  bfsim reads nothing
 *   from them; they are written back by jobset_write and carried to the
 *   job log.
 *
 * - the BFTrainer CSV pair as published: a bounds table
 *   (job,Tcup,Tcdw,Jmin,Jmax,Pmax,Tsub,Tsub_epoch_s) and a long curve
 *   table (job,bp,N,P,O,Tsub), joined on job.  Columns are found by their
 *   header names, in any order; extra columns are ignored.
 *
 * Jobs keep their file order.  A curve must start with the point N=0,
 * P=0, O=0, have strictly increasing integer N and reach at least Jmax; P
 * and O are linear between breakpoints.  Every violation is reported with
 * the file name and line.
 */
#ifndef BFS_JOBS_H
#define BFS_JOBS_H

#include <stddef.h>
#include <stdint.h>

#include "base/error.h"

#define JOBS_MAGIC "# bfsim-jobs 1"

/* A piecewise-linear scalability curve. */
struct curve {
    size_t n;  /* breakpoints, >= 2 */
    double *N; /* owned; N[0] = 0, strictly increasing integers */
    double *P; /* owned; throughput, samples/s */
    double *O; /* owned; objective metric */
};

/* Value of the curve y (c->P or c->O) at x nodes, 0 <= x <= N[n-1],
 * computed by bfs_interp (base/util.h), exactly as numpy.interp does (the
 * breakpoint's own value at a
 * breakpoint, slope * (x - N[i]) + y[i] between N[i] and N[i+1], with
 * slope = (y[i+1] - y[i]) / (N[i+1] - N[i]), the product rounded before
 * the sum), which is what the published replayer's scipy interp1d
 * delegates to.  Outside [0, N[n-1]] it returns the end value y[0] or
 * y[n-1], as numpy.interp does; a valid job never asks, since every
 * curve reaches Jmax. */
double curve_eval(const struct curve *c, const double *y, double x);

/* A node type a job can run on (tools/DESIGN.md, "Node types"). */
struct job_type {
    char *type;         /* owned: the type's name, as in the trace */
    double speed;       /* > 0: P_t(n) = speed P(n), when curve.n == 0 */
    struct curve curve; /* the job's own curve on the type (n >= 2, the
                           same rules as the reference curve), or n == 0 */
};

struct job {
    char *name;   /* owned */
    int64_t tsub; /* submission, Unix seconds */
    int jmin;     /* >= 1 */
    int jmax;     /* >= jmin */
    double pmax;  /* total work, samples, > 0 */
    double tcup;  /* seconds of progress lost on scaling up, >= 0 */
    double tcdw;  /* ... on scaling down or being preempted, >= 0 */
    struct curve curve;
    /* The types the job runs on; n_types == 0: every type, with the
     * reference curve.  As loaded: sorted by name (strcmp), each name
     * once, no factor 0. */
    size_t n_types;
    struct job_type *types; /* owned */
    size_t line;            /* line of the job in its (bounds) file */
    /* The job's feature values, one per feature of its set (NULL when
     * the set has none): each owned, NULL for a blank field. */
    char **features; /* owned */
};

struct jobset {
    size_t n;
    struct job *jobs; /* owned */
    /* The feature columns, in the file's order (none: 0 and NULL). */
    size_t n_features;
    char **feature_names; /* owned, each owned */
};

/* The value of job d's feature `name` (d a job of js, or a shallow copy
 * of one), borrowed from d; NULL when js has no such feature column or
 * d's field is blank. */
const char *job_feature(const struct jobset *js, const struct job *d,
                        const char *name);

/* Loads a job set.  curves_path is NULL for a native file, or the long
 * curve table when path is a BFTrainer bounds table.  The form is told by
 * the first line: JOBS_MAGIC, or a header naming the bounds columns.
 * Returns 0 or a negative code (reported in e); *out is written only on
 * success. */
int jobset_load(const char *path, const char *curves_path, struct jobset *out,
                struct bfs_error *e);

/* Writes js as a native job file, atomically, with optional comment lines
 * (NULL-terminated, may be NULL) after the magic line.  Numbers are
 * written so that they read back to the same doubles.  The speed and
 * curve@TYPE columns are written only when some job lists a type (one
 * curve@ column per type some job has a curve for); the feature columns
 * follow them, in js's order.  Returns 0 or a negative code: BFS_EINVAL
 * for a job, type or feature name, or a feature value, that cannot be
 * read back, or a factor type whose speed is not > 0. */
int jobset_write(const char *path, const struct jobset *js,
                 const char *const *comments, struct bfs_error *e);

/* Frees what js owns; js is left empty. */
void jobset_release(struct jobset *js);

/* The objective metric O_j(n) the allocator maximises (--objective),
 * with S(n) = P(n) / P(1) the job's speed-up over one node (P(1) by the
 * curve's interpolation when 1 is not a breakpoint):
 *   file        O(n) from the curve's O column, as the published
 *               replayer does
 *   throughput  O(n) = P(n), samples/s
 *   speedup     O(n) = S(n): fair across models of different speeds
 *   prop-fair   O(n) = log(1 + S(n)): a concave transform of the speed-up,
 *               so that the sum favours spreading nodes over jobs
 *               (proportional fairness); the 1 keeps a job without nodes
 *               at 0 rather than minus infinity. */
#define JOB_OBJECTIVES(X)                                                      \
    X(FILE, "file")                                                            \
    X(THROUGHPUT, "throughput")                                                \
    X(SPEEDUP, "speedup")                                                      \
    X(PROP_FAIR, "prop-fair")

enum job_objective {
#define JOB_OBJ_ENUM(name, text) JOB_OBJ_##name,
    JOB_OBJECTIVES(JOB_OBJ_ENUM)
#undef JOB_OBJ_ENUM
        JOB_N_OBJECTIVES
};

/* "file", "throughput", ...; "unknown" for anything else. */
const char *job_objective_name(int objective);

/* The objective named s, or -1 when there is none. */
int job_objective_parse(const char *s);

/* Fills o[0..d->jmax] with O(n) for the objective.  Returns 0, or
 * BFS_EINVAL when the speed-up is undefined (P(1) <= 0), reported in e
 * against path and the job's line. */
int job_objective_table(const struct job *d, int objective, double *o,
                        const char *path, struct bfs_error *e);

/* The job's tables on node type `type` (tools/DESIGN.md, "Node types"),
 * for counts 0..d->jmax: p[n] = P_t(n) and o[n] = O_t(n) for the
 * objective (a shallow copy of a job with a lower jmax asks for fewer).  type
 * NULL is the reference curve (as job_objective_table).  Returns 1 when the job
 * runs on the type (tables written), 0 when it does not (tables untouched), or
 * BFS_EINVAL as job_objective_table (reported in e against path and the job's
 * line). */
int job_type_tables(const struct job *d, const char *type, int objective,
                    double *p, double *o, const char *path,
                    struct bfs_error *e);

#endif
