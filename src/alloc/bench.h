/* bench.h - solving a corpus of instances under several configurations,
 * and the statistics MIP practitioners compare them by.
 *
 * A configuration is an allocator with its model, solver and solver
 * parameters, written "ALLOC[:MODEL][:SOLVER[,OPTION...]]" ("dp",
 * "milp:cbc", "milp:node:cbc,cuts=off", "milp:glpk,br_tech=pch").  A
 * corpus is the instance files given, a directory standing for its
 * *.json files in name order.  bench_run solves every instance with every
 * configuration, each solve with the same options (time limit, gap,
 * threads), under each seed and as many times as asked, in up to `jobs`
 * processes, in a seeded shuffled order.
 *
 * The statistics follow MIP benchmarking practice: per instance and
 * configuration the median time and the spread over the runs
 * (bench_cell); a verdict against the first configuration that calls a
 * difference only when it is larger than a threshold and than the
 * spread (bench_verdict); shifted geometric means of time and nodes,
 * also over the affected instances (bench_summarize); and disagreements
 * between proven optima (bench_disagree).
 */
#ifndef BFS_BENCH_H
#define BFS_BENCH_H

#include <stddef.h>
#include <stdint.h>

#include "alloc/alloc.h"
#include "alloc/instance.h"
#include "base/error.h"

/* One configuration. */
struct bench_config {
    char *label;         /* owned: the text it was parsed from */
    char *buf;           /* owned: the pieces o's names point into */
    struct alloc_opts o; /* the base options with name, model, solver */
};

/* One run: instance i under configuration c, seed s, repeat r, at
 * bench_index(b, i, c, s, r) in b->rows. */
struct bench_row {
    int done;                /* the solve ran (0: its process died first) */
    int status;              /* enum solve_status */
    double objective;        /* of the counts found; NaN without */
    double bound;            /* the allocator's bound; NaN when none */
    double build_s, solve_s; /* measured where the solver runs */
    double cpu_s, ipc_s;     /* the solver's CPU time; isolation's cost */
    long nodes, iters;       /* -1 when the solver does not report them */
    double root_bound;       /* NaN when unknown */
    long cuts;               /* -1 when unknown */
    size_t mip_solves;       /* MILPs solved (0 for dp and even) */
    size_t rows, cols, nnz;  /* model size (0 for dp and even) */
    char note[128];          /* why it failed, or "" */
};

/* A corpus and its results. */
struct bench {
    size_t n_inst, n_cfg;
    size_t n_seeds;           /* >= 1: seeds 1..n_seeds, or 0 alone
                                 (the solver's own) when n_seeds is 1
                                 and seeded is 0 */
    int seeded;               /* --seeds was given */
    size_t n_repeat;          /* >= 1 */
    uint64_t order_seed;      /* of the shuffled order of the runs */
    char **paths;             /* owned, n_inst entries, each owned */
    char **stems;             /* owned, likewise: bench_stem(paths[i]) */
    struct instance *inst;    /* owned, n_inst entries */
    struct bench_config *cfg; /* owned, n_cfg entries */
    struct bench_row *rows;   /* owned, n_inst * n_cfg * n_seeds *
                                 n_repeat, by bench_index */
    size_t cap_inst, cap_cfg;
};

/* What the statistics take, beside the rows. */
struct bench_params {
    double time_limit;  /* the time an unproven run counts for */
    double shift_s;     /* shift of the time's geometric mean, s */
    double shift_nodes; /* shift of the nodes' geometric mean */
    double threshold;   /* relative difference a verdict needs (0.1) */
    double affected_s;  /* an instance some configuration needs this
                           long for is affected */
};

/* The defaults: time limit 10 s, shifts 0.01 s and 10 nodes, threshold
 * 10%, affected from 0.1 s. */
void bench_params_default(struct bench_params *q);

/* The runs of instance i under configuration c, summarised. */
struct bench_cell {
    size_t runs;         /* seeds x repeats */
    size_t proven;       /* runs proven optimal or infeasible */
    size_t limit;        /* runs stopped at a limit */
    size_t failed;       /* runs failed, or lost with their process */
    double t_med;        /* median over seeds of each seed's median time
                            over its repeats (bench_time) */
    double t_min, t_max; /* over all runs */
    double n_med;        /* median over seeds of their nodes (each seed's
                            median over repeats); NaN when unknown */
    double n_min, n_max; /* over all runs */
    int n_same;          /* nodes equal over each seed's repeats */
};

/* Verdicts of a configuration against the first, per instance. */
enum { BENCH_LOSS = -1, BENCH_TIE = 0, BENCH_WIN = 1 };

/* Per-configuration statistics. */
struct bench_summary {
    size_t solved;    /* instances with every run proven */
    size_t limit;     /* instances with a run stopped at a limit */
    size_t failed;    /* instances with a run failed */
    double sgm_s;     /* shifted geometric mean of the cells' t_med */
    double sgm_nodes; /* of n_med, over the instances every
                         configuration solved with known nodes; NaN
                         when there are none */
    size_t affected;  /* the affected instances (bench_affected) */
    double sgm_s_aff, sgm_nodes_aff; /* the same over them */
    size_t wins, ties, losses;       /* against the first configuration */
};

/* An empty corpus, one seed, one repeat. */
void bench_init(struct bench *b);

/* The index in b->rows of instance i, configuration c, seed s, repeat
 * r. */
size_t bench_index(const struct bench *b, size_t i, size_t c, size_t s,
                   size_t r);

/* The solver seed of seed index s: 0 (the solver's own) for an unseeded
 * corpus, else s + 1. */
unsigned bench_seed(const struct bench *b, size_t s);

/* The file name of path without its directory and ".json" (malloc'd):
 * the stem of the models a configuration with mps_dir writes, as
 * STEM.cC.K.mps (C the configuration's number from 1, K the MILP's), from
 * the first run of each instance and configuration. */
char *bench_stem(const char *path);

/* Adds path: a directory adds its files whose names end in ".json", in
 * byte order of their names; anything else is read as one instance file.
 * bigm replaces every instance's cap as `--big-m` does: 1 legacy
 * (floor((N+1)/2)), 0 exact (no cap), -1 keeps the file's.  Returns 0,
 * or the code of instance_read (the message names the file) or BFS_EIO
 * for an unreadable directory, reported in e. */
int bench_add_path(struct bench *b, const char *path, int bigm,
                   struct bfs_error *e);

/* Parses a configuration text onto a copy of base (time limit, gap,
 * threads) and checks it by creating its allocator once.  A milp
 * configuration solves the whole model (start=no) unless its solver part
 * says start=yes.  Returns 0, or BFS_EUSAGE (an unknown allocator, model,
 * solver or parameter; reported in e) or the allocator's code. */
int bench_add_config(struct bench *b, const char *text,
                     const struct alloc_opts *base, struct bfs_error *e);

/* Solves every instance with every configuration, seed and repeat in up
 * to jobs processes (jobs <= 1: in this one), writing b->rows.  The runs
 * go in one order shuffled by b->order_seed, so that configurations,
 * seeds and repeats are interleaved and a change of the machine's load
 * falls on all alike.  Each process keeps one allocator per
 * configuration and seed, so that an isolated solver keeps its child.
 * Returns 0 (solve outcomes, failures included, are rows), or BFS_EIO
 * when no process could be started. */
int bench_run(struct bench *b, int jobs, struct bfs_error *e);

/* The time a row counts for: build + solve seconds, measured where the
 * solver runs, when it was proven (optimal or infeasible), else
 * time_limit (the usual penalty for an unsolved instance). */
double bench_time(const struct bench_row *r, double time_limit);

/* The shifted geometric mean of t[0..n): exp(mean(ln(t_i + shift))) -
 * shift; 0 for n = 0.  shift > 0 damps the weight of tiny times. */
double bench_sgm(const double *t, size_t n, double shift);

/* The median of v[0..n) (the mean of the middle two for even n); v is
 * sorted in place.  NaN for n = 0. */
double bench_median(double *v, size_t n);

/* Summarises the runs of instance i under configuration c. */
void bench_cell(const struct bench *b, size_t i, size_t c,
                const struct bench_params *q, struct bench_cell *out);

/* The verdict on x against the reference ref: a win (BENCH_WIN) when
 * every run of x is faster than every run of ref by more than the
 * threshold (x.t_max (1 + thr) < ref.t_min: the medians differ by more
 * than thr and the spreads do not overlap, with a margin of thr), a loss
 * the other way round; when the times tie, and both were proven in every
 * run with nodes known and the same over each seed's repeats, the nodes
 * decide alike (x.n_max (1 + thr) < ref.n_min); else a tie. */
int bench_verdict(const struct bench_cell *x, const struct bench_cell *ref,
                  double thr);

/* Whether instance i is affected: some configuration's median time is
 * at least q->affected_s, or two configurations' node medians differ. */
int bench_affected(const struct bench *b, size_t i,
                   const struct bench_params *q);

/* Statistics of configuration c. */
void bench_summarize(const struct bench *b, size_t c,
                     const struct bench_params *q, struct bench_summary *s);

/* Whether two objectives both proven optimal disagree beyond the
 * relative tolerance tol: |a - b| > tol * max(1, |a|, |b|). */
int bench_differ(double a, double b, double tol);

/* Whether configuration c is an exact method: every allocator but even
 * (the published replayer's baseline, whose "optimal" is its own rule's
 * answer, not the problem's optimum). */
int bench_exact(const struct bench_config *c);

/* Whether a run of configuration c, exact, is proven optimal on
 * instance i with an objective that differs (bench_differ) from the
 * first run proven optimal there by an exact configuration (in index
 * order: an earlier configuration, or an earlier seed or repeat of c),
 * whose configuration is written to *ref; 0 otherwise. */
int bench_disagree(const struct bench *b, size_t i, size_t c, double tol,
                   size_t *ref);

/* Frees everything b owns; b is empty afterwards. */
void bench_release(struct bench *b);

#endif
