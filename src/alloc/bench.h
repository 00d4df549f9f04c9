/* bench.h - solving a corpus of instances under several configurations,
 * and the statistics MIP practitioners compare them by.
 *
 * A configuration is an allocator with its model, solver and solver
 * parameters, written "ALLOC[:MODEL][:SOLVER[,OPTION...]]" ("dp",
 * "milp:cbc", "milp:node:cbc,cuts=off", "milp:glpk,br_tech=pch").  A
 * corpus is the instance files given, a directory standing for its
 * *.json files in name order.  bench_run solves every instance with every
 * configuration, each solve with the same options (time limit, gap,
 * threads), in up to `jobs` processes; the statistics are per
 * configuration (bench_summarize) and across them (bench_disagree).
 */
#ifndef BFS_BENCH_H
#define BFS_BENCH_H

#include <stddef.h>

#include "alloc/alloc.h"
#include "alloc/instance.h"
#include "base/error.h"

/* One configuration. */
struct bench_config {
    char *label;         /* owned: the text it was parsed from */
    char *buf;           /* owned: the pieces o's names point into */
    struct alloc_opts o; /* the base options with name, model, solver */
};

/* One solve: instance i under configuration c. */
struct bench_row {
    int done;         /* the solve ran (0: its process died first) */
    int status;       /* enum solve_status */
    double objective; /* of the counts found; NaN without */
    double bound;     /* the allocator's bound; NaN when none */
    double build_s, solve_s;
    size_t rows, cols, nnz; /* model size (0 for dp and even) */
    char note[128];         /* why it failed, or "" */
};

/* A corpus and its results. */
struct bench {
    size_t n_inst, n_cfg;
    char **paths;             /* owned, n_inst entries, each owned */
    struct instance *inst;    /* owned, n_inst entries */
    struct bench_config *cfg; /* owned, n_cfg entries */
    struct bench_row *rows;   /* owned, n_inst * n_cfg: [i * n_cfg + c] */
    size_t cap_inst, cap_cfg;
};

/* Per-configuration statistics. */
struct bench_summary {
    size_t optimal;    /* proven optimal */
    size_t infeasible; /* proven infeasible */
    size_t limit;      /* stopped at a limit: feasible or no-solution */
    size_t failed;     /* failed, or its process died */
    double sgm_s;      /* shifted geometric mean of the times (below) */
    size_t wins;       /* instances where it beats the first configuration */
    size_t losses;     /* instances where the first one beats it */
};

/* An empty corpus. */
void bench_init(struct bench *b);

/* Adds path: a directory adds its files whose names end in ".json", in
 * byte order of their names; anything else is read as one instance file.
 * bigm replaces every instance's cap as `--big-m` does: 1 legacy
 * (floor((N+1)/2)), 0 exact (no cap), -1 keeps the file's.  Returns 0,
 * or the code of instance_read (the message names the file) or BFS_EIO
 * for an unreadable directory, reported in e. */
int bench_add_path(struct bench *b, const char *path, int bigm,
                   struct bfs_error *e);

/* Parses a configuration text onto a copy of base (time limit, gap,
 * threads) and checks it by creating its allocator once.  Returns 0, or
 * BFS_EUSAGE (an unknown allocator, model, solver or parameter; reported
 * in e) or the allocator's code. */
int bench_add_config(struct bench *b, const char *text,
                     const struct alloc_opts *base, struct bfs_error *e);

/* Solves every instance with every configuration in up to jobs processes
 * (jobs <= 1: in this one), writing b->rows.  Each process keeps one
 * allocator per configuration, so that an isolated solver keeps its
 * child.  Returns 0 (solve outcomes, failures included, are rows), or
 * BFS_EIO when no process could be started. */
int bench_run(struct bench *b, int jobs, struct bfs_error *e);

/* The time a row counts for: build + solve seconds when it was proven
 * (optimal or infeasible), else time_limit (the usual penalty for an
 * unsolved instance). */
double bench_time(const struct bench_row *r, double time_limit);

/* The shifted geometric mean of t[0..n): exp(mean(ln(t_i + shift))) -
 * shift; 0 for n = 0.  shift > 0 damps the weight of tiny times. */
double bench_sgm(const double *t, size_t n, double shift);

/* Statistics of configuration c.  Configuration c wins an instance when
 * its time (bench_time) is below the first configuration's divided by
 * win_factor (> 1), and loses it when above the first's times
 * win_factor; the first configuration has no wins or losses. */
void bench_summarize(const struct bench *b, size_t c, double time_limit,
                     double shift, double win_factor, struct bench_summary *s);

/* Whether two objectives both proven optimal disagree beyond the
 * relative tolerance tol: |a - b| > tol * max(1, |a|, |b|). */
int bench_differ(double a, double b, double tol);

/* Whether configuration c is an exact method: every allocator but even
 * (the published replayer's baseline, whose "optimal" is its own rule's
 * answer, not the problem's optimum). */
int bench_exact(const struct bench_config *c);

/* Whether configuration c, exact, is proven optimal on instance i with
 * an objective that differs (bench_differ) from the first exact
 * configuration proven optimal there, which is written to *ref; 0
 * otherwise. */
int bench_disagree(const struct bench *b, size_t i, size_t c, double tol,
                   size_t *ref);

/* Frees everything b owns; b is empty afterwards. */
void bench_release(struct bench *b);

#endif
