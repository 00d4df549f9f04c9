/* belief.h - what the allocator believes of each job's scalability curve.
 *
 * A replay keeps two curves per job (tools/DESIGN.md, "Beliefs"): the
 * truth, the job set's curve, which drives the training progress and the
 * losses charged, and the belief, from which the allocator's objective
 * table O_j(n) (and so its rescale costs, priced at O_j(C_j)) is made.
 * The belief comes from
 *
 *   --belief true        the truth (the default: nothing changes);
 *   --belief FILE        a second job file whose curves are the beliefs,
 *                        matched to the job set by name;
 *   --belief learn:MODEL a prior, refitted by MODEL (engine/curvefit.h)
 *                        each time the job is observed.
 *
 * A FILE of the form predict:PRED (a belief or --belief-prior) is the
 * curves a predictor file gives the jobs from their features
 * (engine/predict.h, predict_jobset).
 *
 * The observation rule: at an event with a decision, a job is observed
 * at count n when it held n nodes (n >= Jmin) over the whole interval
 * since the previous event and its count did not change at that previous
 * event (so the interval holds no rescale pause); the observation is the
 * true rate P(n), times exp(SIGMA z) with z a standard normal draw when
 * --observe-noise SIGMA is given.
 *
 * The prior: the curve of the job of the same name in --belief-prior
 * FILE or, without one, a linear curve P(n) = n p1 with p1 the mean of
 * the job set's P(1) (what a site knows of a typical job), until the
 * job's first observation, then linear through it.  With objective file
 * a learned belief's O(n) is its believed P(n) (the learner sees rates
 * only).
 *
 * With --explore thompson|ucb or --belief-pool other than off, each job
 * also keeps a Gaussian posterior over its model's two parameters
 * (engine/curvefit.h): the tables exploration shows are drawn from it or
 * bound by it, and with --belief-pool it is the belief (its mean), from
 * the job's own prior or one pooled over the jobs of the same value of a
 * feature column (tools/DESIGN.md, "Beliefs").
 */
#ifndef BFS_ENGINE_BELIEF_H
#define BFS_ENGINE_BELIEF_H

#include <stddef.h>
#include <stdint.h>

#include "base/error.h"
#include "engine/curvefit.h"
#include "engine/measures.h"
#include "formats/jobs.h"

enum belief_kind { BELIEF_TRUE, BELIEF_FILE, BELIEF_LEARN };

/* --explore: the fixed rule EPS[:SEED], Thompson sampling from the
 * posterior (thompson[:SEED]) or its upper confidence bound (ucb[:K]). */
enum belief_explore { EXPLORE_EPS, EXPLORE_THOMPSON, EXPLORE_UCB };

/* --belief-pool: the least-squares fit (off), or the posterior mean from
 * the job's own prior (alone) or from a prior pooled over the jobs of
 * the same value of a feature column (POOL_FEATURE, pool_column). */
enum belief_pool { POOL_OFF, POOL_ALONE, POOL_FEATURE };

/* --belief, --belief-prior, --observe-noise. */
struct belief_opts {
    enum belief_kind kind;
    const char *path;        /* BELIEF_FILE: the job file (borrowed) */
    const char *curves;      /* its BFTrainer long curve table when path is
                                a bounds table, or NULL (borrowed) */
    int model;               /* BELIEF_LEARN: enum curvefit_model */
    const char *prior_path;  /* BELIEF_LEARN: prior job file, or NULL */
    double noise;            /* SIGMA >= 0: log-normal observation noise */
    uint64_t seed;           /* of the noise's draws */
    double explore;          /* EPS in [0, 1]: --explore, 0 = off */
    uint64_t explore_seed;   /* of the exploration's draws */
    int explore_rule;        /* enum belief_explore */
    double explore_k;        /* EXPLORE_UCB: K >= 0 */
    int pool;                /* enum belief_pool */
    const char *pool_column; /* POOL_FEATURE: the column (borrowed) */
};

/* "off", "alone" or the column's name. */
const char *belief_pool_name(const struct belief_opts *o);

/* Reads the argument of --belief ("true", "learn:MODEL" or a file name,
 * borrowed) into o.  Returns 0, or -1 for learn: with an unknown model
 * (o untouched). */
int belief_opts_parse(const char *s, struct belief_opts *o);

/* "true", "learn:amdahl", ... or the file's name (borrowed). */
const char *belief_opts_name(const struct belief_opts *o);

struct belief;

/* Opens the belief for the job set truth (read from jobs_path) and
 * objective (enum job_objective): loads and matches the belief or prior
 * file.  *out is NULL for --belief true.  Returns 0 or a negative code
 * (in e, naming the file and line of a mismatch). */
int belief_open(const struct belief_opts *o, const struct jobset *truth,
                const char *jobs_path, int objective, struct belief **out,
                struct bfs_error *e);

void belief_free(struct belief *b);

/* Starts job j (index in truth) with d its true job with the replay's
 * capped bounds, and fills o[0..d->jmax] with its believed objective
 * table.  Returns 0 or a negative code (in e): a belief curve that ends
 * before Jmax, or an undefined speed-up. */
int belief_job_init(struct belief *b, size_t j, const struct job *d, double *o,
                    struct bfs_error *e);

/* Before the decision at time t: job j holds held nodes and its true
 * rate there is p_true.  Applies the observation rule; when an
 * observation is made, refits and rewrites o (the job's table); then
 * applies the exploration rule to o.  Returns 1 when o changed, 0 when
 * not, or a negative code. */
int belief_observe(struct belief *b, size_t j, int64_t t, int held,
                   double p_true, double *o, struct bfs_error *e);

/* After the decision at t: job j holds held nodes, true rate p_true. */
void belief_note(struct belief *b, size_t j, int64_t t, int held,
                 double p_true);

/* The believed rate of job j at n nodes (0 <= n <= its capped Jmax). */
double belief_rate(const struct belief *b, size_t j, int n);

/* Writes the belief's measures into st: belief, belief_observations,
 * belief_error_chosen and belief_error_final, the latter from each job's
 * node-seconds mj[j].node_seconds (mj borrowed, one per job of the set,
 * in order; the regrets are the replay's). */
void belief_finish(const struct belief *b, const struct measures_job *mj,
                   struct replay_stats *st);

/* What the job log shows of job j's learner: observations made, distinct
 * counts observed and, from two counts on (*ok), the fit's parameters:
 * amdahl and interp P(1) and the serial fraction s, power c and e. */
void belief_job_fit(const struct belief *b, size_t j, size_t *observations,
                    size_t *counts, int *ok, double *a, double *bb);

#endif
