/* belief.c - believed and learned scalability curves (see belief.h).
 *
 * One struct bjob per job of the set keeps the believed rate table
 * bp[0..jmax] (the replay's capped Jmax) and, when learning, the prior
 * table, the observations per distinct count and the state of the
 * observation rule.  The objective table the allocator reads is made
 * from the believed curve by job_objective_table, the function that
 * makes it from the truth, so a belief equal to the truth gives the
 * same bytes.  The noise draws come from splitmix64 in the order of the
 * observations, so the same seed gives the same replay; Thompson's from
 * the exploration's splitmix64, two normals per job and decision in the
 * order of the calls.  The posterior is kept only when an option needs
 * it, so a replay without one does what it did before.
 */
#include "config.h"

#include "engine/belief.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "engine/predict.h"
#include "engine/tiebreak.h"

struct bjob {
    const struct job *def;    /* borrowed: the truth, uncapped */
    const struct job *file;   /* borrowed: the belief or prior file's job */
    int jmin, jmax;           /* capped */
    double *bp;               /* owned: believed P(0..jmax) */
    double *prior;            /* owned (learning): prior P(0..jmax) */
    struct curvefit_obs *obs; /* owned (learning): jmax + 1 entries */
    size_t n_obs, k_obs;      /* distinct counts, observations */
    int explored;             /* o holds the exploration's optimism */
    int n;                    /* count at the last note, -1 none */
    int64_t changed_at, last_t;
    /* The posterior (b->bayes): the prior from the job's prior curve,
     * the posterior from it alone (what the pool learns from), the
     * posterior the belief uses (from the pooled prior when pooling),
     * the floor of 1/P in the tables drawn. */
    struct curvefit_gauss g0, alone, post;
    double ymin;
    /* --belief-pool COLUMN: the first job of the set with the same
     * value, and the next one (-1 none); -1, -1 for a blank value. */
    ptrdiff_t fam_head, fam_next;
};

struct belief {
    struct belief_opts o;
    int objective;
    const char *jobs_path; /* borrowed */
    struct jobset file;    /* the belief or prior file */
    const char *file_path; /* borrowed */
    double p1_mean;        /* the job set's mean P(1) */
    uint64_t rng, erng;    /* the noise's and the exploration's draws */
    size_t n_jobs;
    struct bjob *jobs; /* owned */
    double err_sum;    /* belief_error_chosen's sum and count */
    size_t err_n;
    double *nbuf; /* scratch: 0, 1, ..., for a table's curve */
    int nbuf_cap;
    int bayes;    /* a posterior is kept (pooling or thompson, ucb) */
    int pmodel;   /* the posterior's model: amdahl or power */
    double sigma; /* the posterior's noise: sqrt(SIGMA^2 + model's^2) */
    double *tbuf; /* scratch: a drawn or optimistic rate table */
    int tbuf_cap;
};

int belief_opts_parse(const char *s, struct belief_opts *o)
{
    if (strcmp(s, "true") == 0) {
        o->kind = BELIEF_TRUE;
        return 0;
    }
    if (strncmp(s, "learn:", 6) == 0) {
        int m = curvefit_model_parse(s + 6);
        if (m < 0)
            return -1;
        o->kind = BELIEF_LEARN;
        o->model = m;
        return 0;
    }
    o->kind = BELIEF_FILE;
    o->path = s;
    return 0;
}

const char *belief_pool_name(const struct belief_opts *o)
{
    switch (o->pool) {
    case POOL_ALONE:
        return "alone";
    case POOL_FEATURE:
        return o->pool_column;
    default:
        return "off";
    }
}

const char *belief_opts_name(const struct belief_opts *o)
{
    static const char *const learn[CURVEFIT_N_MODELS] = {
#define BELIEF_LEARN_NAME(name, text) "learn:" text,
        CURVEFIT_MODELS(BELIEF_LEARN_NAME)
#undef BELIEF_LEARN_NAME
    };
    switch (o->kind) {
    case BELIEF_FILE:
        return o->path;
    case BELIEF_LEARN:
        return o->model >= 0 && o->model < CURVEFIT_N_MODELS ? learn[o->model]
                                                             : "learn:?";
    default:
        return "true";
    }
}

/* Matches every job of truth with the job of the same name in b->file.
 * When no name at all is shared and both sets have as many jobs, they
 * are matched in file order (a predictor's output under its own names). */
static int match(struct belief *b, const struct jobset *truth,
                 struct bfs_error *e)
{
    const struct jobset *f = &b->file;
    size_t shared = 0;

    for (size_t j = 0; j < truth->n; j++) {
        b->jobs[j].file = NULL;
        for (size_t k = 0; k < f->n; k++)
            if (strcmp(f->jobs[k].name, truth->jobs[j].name) == 0) {
                b->jobs[j].file = &f->jobs[k];
                shared++;
                break;
            }
    }
    if (shared == 0 && f->n == truth->n) {
        for (size_t j = 0; j < truth->n; j++)
            b->jobs[j].file = &f->jobs[j];
        return 0;
    }
    for (size_t j = 0; j < truth->n; j++)
        if (!b->jobs[j].file)
            return bfs_fail_at(e, BFS_EINVAL, b->file_path, 0,
                               "has no job named %s (line %zu of %s)%s",
                               truth->jobs[j].name, truth->jobs[j].line,
                               b->jobs_path,
                               shared ? ""
                                      : "; no name matches and the job "
                                        "counts differ, so file order "
                                        "cannot match them either");
    return 0;
}

/* Orders job indices by their family's value, then by index. */
struct fam_key {
    const char *v;
    size_t j;
};

static int fam_cmp(const void *x, const void *y)
{
    const struct fam_key *a = x, *b = y;
    int c = strcmp(a->v, b->v);

    return c ? c : (a->j > b->j) - (a->j < b->j);
}

/* Links the jobs of truth with the same value of the feature column
 * b->o.pool_column (fam_head, fam_next, in index order). */
static int link_families(struct belief *b, const struct jobset *truth,
                         struct bfs_error *e)
{
    const char *col = b->o.pool_column;
    struct fam_key *k;
    size_t m = 0, i = 0;
    int known = 0;

    for (size_t f = 0; f < truth->n_features; f++)
        known |= strcmp(truth->feature_names[f], col) == 0;
    if (!known)
        return bfs_fail_at(e, BFS_EINVAL, b->jobs_path, 0,
                           "has no feature column %s (--belief-pool %s)", col,
                           col);
    k = xcalloc(truth->n + 1, sizeof *k);
    for (size_t j = 0; j < truth->n; j++) {
        const char *v = job_feature(truth, &truth->jobs[j], col);
        b->jobs[j].fam_head = b->jobs[j].fam_next = -1;
        if (v)
            k[m++] = (struct fam_key){v, j};
    }
    qsort(k, m, sizeof *k, fam_cmp);
    while (i < m) {
        size_t end = i + 1;
        while (end < m && strcmp(k[end].v, k[i].v) == 0)
            end++;
        for (size_t q = i; q < end; q++) {
            b->jobs[k[q].j].fam_head = (ptrdiff_t)k[i].j;
            b->jobs[k[q].j].fam_next = q + 1 < end ? (ptrdiff_t)k[q + 1].j : -1;
        }
        i = end;
    }
    xfree(k);
    return 0;
}

int belief_open(const struct belief_opts *o, const struct jobset *truth,
                const char *jobs_path, int objective, struct belief **out,
                struct bfs_error *e)
{
    struct belief *b;
    int rc;

    *out = NULL;
    if (o->kind == BELIEF_TRUE)
        return 0;
    b = xcalloc(1, sizeof *b);
    b->o = *o;
    b->objective = objective;
    b->jobs_path = jobs_path;
    b->rng = o->seed;
    b->erng = o->explore_seed;
    b->n_jobs = truth->n;
    b->jobs = xcalloc(truth->n + 1, sizeof *b->jobs);
    for (size_t j = 0; j < truth->n; j++) {
        b->jobs[j].def = &truth->jobs[j];
        b->jobs[j].n = -1;
        b->p1_mean +=
            curve_eval(&truth->jobs[j].curve, truth->jobs[j].curve.P, 1);
    }
    b->p1_mean = truth->n ? b->p1_mean / (double)truth->n : 1.0;
    if (!(b->p1_mean > 0))
        b->p1_mean = 1.0;
    b->bayes = o->kind == BELIEF_LEARN &&
               (o->pool != POOL_OFF || o->explore_rule != EXPLORE_EPS);
    b->pmodel = o->model == CURVEFIT_POWER ? CURVEFIT_POWER : CURVEFIT_AMDAHL;
    b->sigma =
        sqrt(o->noise * o->noise + CURVEFIT_MODEL_RSD * CURVEFIT_MODEL_RSD);
    if (b->bayes && o->pool == POOL_FEATURE) {
        rc = link_families(b, truth, e);
        if (rc) {
            belief_free(b);
            return rc;
        }
    }
    b->file_path = o->kind == BELIEF_FILE ? o->path : o->prior_path;
    if (b->file_path) {
        rc = predict_source(b->file_path)
                 ? predict_jobset(predict_source(b->file_path), truth,
                                  jobs_path, &b->file, e)
                 : jobset_load(b->file_path,
                               o->kind == BELIEF_FILE ? o->curves : NULL,
                               &b->file, e);
        if (!rc)
            rc = match(b, truth, e);
        if (rc) {
            belief_free(b);
            return rc;
        }
    }
    *out = b;
    return 0;
}

void belief_free(struct belief *b)
{
    if (!b)
        return;
    for (size_t j = 0; j < b->n_jobs; j++) {
        xfree(b->jobs[j].bp);
        xfree(b->jobs[j].prior);
        xfree(b->jobs[j].obs);
    }
    xfree(b->jobs);
    xfree(b->nbuf);
    xfree(b->tbuf);
    jobset_release(&b->file);
    xfree(b);
}

/* The objective table o from the rates rates[0..bj->jmax] (a curve
 * through every count, O = P): the belief's bj->bp, or a table that
 * exploration shows. */
static int table_from(struct belief *b, struct bjob *bj, double *rates,
                      double *o, struct bfs_error *e)
{
    struct job d = *bj->def;

    if (b->nbuf_cap < bj->jmax + 1) {
        b->nbuf = xreallocarray(b->nbuf, (size_t)bj->jmax + 1, sizeof *b->nbuf);
        for (int n = b->nbuf_cap; n <= bj->jmax; n++)
            b->nbuf[n] = n;
        b->nbuf_cap = bj->jmax + 1;
    }
    d.jmin = bj->jmin;
    d.jmax = bj->jmax;
    d.curve = (struct curve){
        .n = (size_t)bj->jmax + 1, .N = b->nbuf, .P = rates, .O = rates};
    return job_objective_table(&d, b->objective, o, b->jobs_path, e);
}

static int table_from_rates(struct belief *b, struct bjob *bj, double *o,
                            struct bfs_error *e)
{
    return table_from(b, bj, bj->bp, o, e);
}

/* The prior of job j from the pool: the mean m of the posteriors (from
 * their own priors) of the other jobs of its family observed at two
 * counts or more, and their spread: the mean of their covariances plus
 * the sample covariance of their means, S / (count - 1), times
 * (1 + 1 / count) for the uncertainty of m (a new member's predictive
 * spread).  From one such job, its posterior's covariance plus job j's
 * own prior's (one job tells nothing of the spread); from none, job j's
 * own prior. */
static void pool_prior(const struct belief *b, size_t j,
                       struct curvefit_gauss *pr)
{
    const struct bjob *bj = &b->jobs[j];
    double m0 = 0, m1 = 0, cnt = 0, sp[3] = {0, 0, 0}, mv[3] = {0, 0, 0};

    *pr = bj->g0;
    if (b->o.pool != POOL_FEATURE)
        return;
    for (ptrdiff_t k = bj->fam_head; k >= 0; k = b->jobs[k].fam_next)
        if ((size_t)k != j && b->jobs[k].n_obs >= 2) {
            m0 += b->jobs[k].alone.m[0];
            m1 += b->jobs[k].alone.m[1];
            cnt++;
        }
    if (cnt == 0)
        return;
    m0 /= cnt;
    m1 /= cnt;
    for (ptrdiff_t k = bj->fam_head; k >= 0; k = b->jobs[k].fam_next)
        if ((size_t)k != j && b->jobs[k].n_obs >= 2) {
            const struct curvefit_gauss *g = &b->jobs[k].alone;
            double d0 = g->m[0] - m0, d1 = g->m[1] - m1;
            sp[0] += d0 * d0;
            sp[1] += d0 * d1;
            sp[2] += d1 * d1;
            for (int q = 0; q < 3; q++)
                mv[q] += g->v[q];
        }
    pr->m[0] = m0;
    pr->m[1] = m1;
    for (int q = 0; q < 3; q++)
        pr->v[q] = cnt < 2 ? mv[q] + bj->g0.v[q]
                           : mv[q] / cnt + sp[q] / (cnt - 1) * (1 + 1 / cnt);
}

/* Refits job j's belief from its observations: the posteriors (when kept)
 * and the believed table bp, the least-squares fit (--belief-pool off) or
 * the posterior mean. */
static void refit(struct belief *b, size_t j)
{
    struct bjob *bj = &b->jobs[j];

    if (b->bayes) {
        struct curvefit_gauss pr;
        curvefit_posterior(b->pmodel, bj->obs, bj->n_obs, &bj->g0, b->sigma,
                           &bj->alone);
        pool_prior(b, j, &pr);
        if (b->o.pool == POOL_FEATURE)
            curvefit_posterior(b->pmodel, bj->obs, bj->n_obs, &pr, b->sigma,
                               &bj->post);
        else
            bj->post = bj->alone;
    }
    if (b->o.pool == POOL_OFF)
        curvefit_table(b->o.model, bj->obs, bj->n_obs, bj->prior, bj->jmax,
                       bj->bp, NULL);
    else
        curvefit_table_theta(b->pmodel, bj->post.m, bj->ymin, bj->jmax, bj->bp);
}

/* The scratch table, room for jmax + 1 rates. */
static double *scratch(struct belief *b, int jmax)
{
    if (b->tbuf_cap < jmax + 1) {
        b->tbuf = xreallocarray(b->tbuf, (size_t)jmax + 1, sizeof *b->tbuf);
        b->tbuf_cap = jmax + 1;
    }
    return b->tbuf;
}

/* Checks that the file's curve for bj reaches its (capped) Jmax. */
static int check_reach(const struct belief *b, const struct bjob *bj,
                       struct bfs_error *e)
{
    const struct curve *c = &bj->file->curve;

    if (c->N[c->n - 1] < bj->jmax)
        return bfs_fail_at(e, BFS_EINVAL, b->file_path, bj->file->line,
                           "job %s: the curve ends at %g nodes, below the "
                           "job's Jmax %d in %s",
                           bj->file->name, c->N[c->n - 1], bj->jmax,
                           b->jobs_path);
    return 0;
}

int belief_job_init(struct belief *b, size_t j, const struct job *d, double *o,
                    struct bfs_error *e)
{
    struct bjob *bj = &b->jobs[j];
    int rc;

    bj->jmin = d->jmin;
    bj->jmax = d->jmax;
    bj->bp = xmalloc(((size_t)d->jmax + 1) * sizeof *bj->bp);
    if (bj->file) {
        rc = check_reach(b, bj, e);
        if (rc)
            return rc;
    }
    if (b->o.kind == BELIEF_FILE) {
        struct job bd = *d;
        const struct curve *c = &bj->file->curve;

        /* The truth's bounds, the belief's curve (and its name and line
         * for errors). */
        bd.curve = *c;
        bd.name = bj->file->name;
        bd.line = bj->file->line;
        for (int n = 0; n <= d->jmax; n++)
            bj->bp[n] = curve_eval(c, c->P, n);
        return job_objective_table(&bd, b->objective, o, b->file_path, e);
    }
    bj->prior = xmalloc(((size_t)d->jmax + 1) * sizeof *bj->prior);
    bj->obs = xcalloc((size_t)d->jmax + 2, sizeof *bj->obs);
    for (int n = 0; n <= d->jmax; n++) {
        bj->prior[n] = bj->file
                           ? curve_eval(&bj->file->curve, bj->file->curve.P, n)
                           : b->p1_mean * n;
        if (n > 0 && !(bj->prior[n] > 0))
            return bfs_fail_at(e, BFS_EINVAL, b->file_path, bj->file->line,
                               "job %s: the prior's P(%d) = %g; a prior "
                               "must be positive at every count >= 1",
                               bj->file->name, n, bj->prior[n]);
    }
    if (b->bayes) {
        curvefit_prior(b->pmodel, bj->prior, bj->jmax, &bj->g0);
        bj->ymin = 1e-6 / bj->prior[1];
    }
    refit(b, j);
    if (b->o.explore_rule == EXPLORE_UCB) {
        double *t = scratch(b, bj->jmax);
        curvefit_table_ucb(b->pmodel, &bj->post, b->o.explore_k, bj->ymin,
                           bj->jmax, t);
        return table_from(b, bj, t, o, e);
    }
    return table_from_rates(b, bj, o, e);
}

/* A standard normal draw (Box-Muller on two splitmix64 uniforms). */
static double normal(uint64_t *st)
{
    double u1 = ((double)(bfs_splitmix64(st) >> 11) + 1.0) * 0x1p-53;
    double u2 = (double)(bfs_splitmix64(st) >> 11) * 0x1p-53;

    return sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
}

/* Exploration: whether job bj is shown optimistically at this decision
 * (one draw per uncertain job and decision). */
static int explore_draw(struct belief *b, const struct bjob *bj)
{
    double u;

    if (!(b->o.explore > 0) || bj->n_obs >= 3)
        return 0;
    u = (double)(bfs_splitmix64(&b->erng) >> 11) * 0x1p-53;
    return u < b->o.explore;
}

int belief_observe(struct belief *b, size_t j, int64_t t, int held,
                   double p_true, double *o, struct bfs_error *e)
{
    struct bjob *bj = &b->jobs[j];
    double p = p_true;
    int changed = 0, explore, rc;

    if (b->o.kind != BELIEF_LEARN)
        return 0;
    if (held == bj->n && held >= bj->jmin && bj->last_t > bj->changed_at &&
        t > bj->last_t && p_true > 0) {
        if (b->o.noise > 0)
            p *= exp(b->o.noise * normal(&b->rng));
        curvefit_add(bj->obs, &bj->n_obs, held, p);
        bj->k_obs++;
        refit(b, j);
        changed = 1;
    }
    if (b->o.explore_rule == EXPLORE_THOMPSON) {
        /* Two normals per job and decision, in the callers' order. */
        double th[2], z0 = normal(&b->erng), z1 = normal(&b->erng);
        double *tb = scratch(b, bj->jmax);
        curvefit_draw(&bj->post, z0, z1, th);
        curvefit_table_theta(b->pmodel, th, bj->ymin, bj->jmax, tb);
        rc = table_from(b, bj, tb, o, e);
        return rc ? rc : 1;
    }
    if (b->o.explore_rule == EXPLORE_UCB) {
        double *tb = scratch(b, bj->jmax);
        if (!changed)
            return 0;
        curvefit_table_ucb(b->pmodel, &bj->post, b->o.explore_k, bj->ymin,
                           bj->jmax, tb);
        rc = table_from(b, bj, tb, o, e);
        return rc ? rc : 1;
    }
    explore = explore_draw(b, bj);
    if (!changed && !explore && !bj->explored)
        return 0;
    rc = table_from_rates(b, bj, o, e);
    if (rc)
        return rc;
    if (explore) {
        size_t i = 0;
        for (int n = bj->jmin; n <= bj->jmax; n++) {
            while (i < bj->n_obs && bj->obs[i].n < n)
                i++;
            if (i == bj->n_obs || bj->obs[i].n != n)
                o[n] *= 2.0;
        }
    }
    bj->explored = explore;
    return 1;
}

void belief_note(struct belief *b, size_t j, int64_t t, int held, double p_true)
{
    struct bjob *bj = &b->jobs[j];

    if (held >= bj->jmin && p_true > 0) {
        b->err_sum += fabs(bj->bp[held] - p_true) / p_true;
        b->err_n++;
    }
    if (held != bj->n) {
        bj->n = held;
        bj->changed_at = t;
    }
    bj->last_t = t;
}

double belief_rate(const struct belief *b, size_t j, int n)
{
    return b->jobs[j].bp[n];
}

void belief_finish(const struct belief *b, const struct measures_job *mj,
                   struct replay_stats *st)
{
    double sum = 0, weight = 0;

    st->belief = belief_opts_name(&b->o);
    for (size_t j = 0; j < b->n_jobs; j++) {
        const struct bjob *bj = &b->jobs[j];
        const struct curve *c = &bj->def->curve;
        double s = 0;
        size_t k = 0;

        st->belief_observations += bj->k_obs;
        /* A job that never held a node weighs nothing: left out. */
        if (bj->n < 0 || !(mj[j].node_seconds > 0))
            continue;
        for (int n = bj->jmin; n <= bj->jmax; n++) {
            double p = curve_eval(c, c->P, n);
            if (p > 0) {
                s += fabs(bj->bp[n] - p) / p;
                k++;
            }
        }
        if (k) {
            sum += mj[j].node_seconds * (s / (double)k);
            weight += mj[j].node_seconds;
        }
    }
    st->belief_error_chosen = b->err_n ? b->err_sum / (double)b->err_n : 0;
    st->belief_error_final = weight > 0 ? sum / weight : 0;
}

void belief_job_fit(const struct belief *b, size_t j, size_t *observations,
                    size_t *counts, int *ok, double *a, double *bb)
{
    const struct bjob *bj = &b->jobs[j];
    struct curvefit_params f;

    *observations = bj->k_obs;
    *counts = bj->n_obs;
    curvefit_fit(b->o.model == CURVEFIT_POWER ? CURVEFIT_POWER
                                              : CURVEFIT_AMDAHL,
                 bj->obs, bj->n_obs, &f);
    *ok = f.ok;
    *a = b->o.model == CURVEFIT_POWER ? f.c : f.p1;
    *bb = b->o.model == CURVEFIT_POWER ? f.e : f.s;
}
