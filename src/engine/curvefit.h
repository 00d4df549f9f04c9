/* curvefit.h - fitting scalability models to observed rates.
 *
 * A job's rate P(n) (samples/s on n nodes) observed at a few counts is
 * summarised per distinct count (struct curvefit_obs) and turned into a
 * believed table P(0..jmax) by one of three models (tools/DESIGN.md,
 * "Beliefs"):
 *
 *   amdahl  P(n) = n / (a n + b): Amdahl's law with P(1) = 1 / (a + b)
 *           and serial fraction s = a / (a + b), fitted by least squares
 *           of 1/P against 1/n (linear there: 1/P = a + b / n), with
 *           a >= 0 and b >= 0;
 *   (each count's rate is the geometric mean of its observations, and a
 *   count observed k times weighs k)
 *   power   P(n) = c n^e, least squares of log P against log n, with e
 *           clamped to [0, 1] (then c refitted for that e);
 *   interp  monotone (non-decreasing) piecewise-linear through the
 *           observed counts' mean rates (pool-adjacent-violators), and
 *           outside the observed range the amdahl fit's shape scaled to
 *           the nearest observed point.
 *
 * With fewer than two distinct counts no model is fitted: the table is
 * the prior, scaled to pass through the one observed point if there is
 * one.  Pure computation: no I/O, no randomness.
 */
#ifndef BFS_ENGINE_CURVEFIT_H
#define BFS_ENGINE_CURVEFIT_H

#include <stddef.h>

#define CURVEFIT_MODELS(X)                                                     \
    X(AMDAHL, "amdahl")                                                        \
    X(POWER, "power")                                                          \
    X(INTERP, "interp")

enum curvefit_model {
#define CURVEFIT_ENUM(name, text) CURVEFIT_##name,
    CURVEFIT_MODELS(CURVEFIT_ENUM)
#undef CURVEFIT_ENUM
        CURVEFIT_N_MODELS
};

/* "amdahl", "power", "interp"; "unknown" for anything else. */
const char *curvefit_model_name(int model);
/* The model named s, or -1. */
int curvefit_model_parse(const char *s);

/* The observations at one count n >= 1: k rates and the sum of their
 * logarithms. */
struct curvefit_obs {
    int n;
    size_t k;
    double sum_log;
};

/* Adds rate p (> 0) observed at count n to obs[0..*n_obs-1], kept sorted
 * by n (a new count is inserted; obs must have room for one more). */
void curvefit_add(struct curvefit_obs *obs, size_t *n_obs, int n, double p);

/* A fitted model's two parameters: amdahl P(1) and s; power c and e;
 * interp the amdahl fit used outside the observed range.  ok is 0 when
 * fewer than two distinct counts were observed (nothing fitted). */
struct curvefit_params {
    int ok;
    double p1, s; /* amdahl: P(1), serial fraction */
    double c, e;  /* power: c, e */
};

/* Fits model to obs[0..n_obs-1] (sorted by n, each k >= 1) into *out. */
void curvefit_fit(int model, const struct curvefit_obs *obs, size_t n_obs,
                  struct curvefit_params *out);

/* The believed table: out[n] for n = 0..jmax (out[0] = 0) from model
 * fitted to obs (n_obs may be 0), with prior[0..jmax] (prior[n] > 0 for
 * n >= 1) used below two distinct counts as described above.  Every
 * value is finite and >= 0.  Writes the fit into *par when par is not
 * NULL. */
void curvefit_table(int model, const struct curvefit_obs *obs, size_t n_obs,
                    const double *prior, int jmax, double *out,
                    struct curvefit_params *par);

/* Fits model to the k points (n[i], p[i]) of a measured curve (points
 * with n < 1 or p <= 0 are skipped; n need not be integers but are
 * rounded to counts), each weighing one, and measures the fit there:
 * *mape the mean and *max_ape the largest |fit - p| / p over the points
 * used, *used their number.  Below two distinct counts nothing is fitted
 * (par->ok = 0, errors 0). */
void curvefit_points(int model, const double *n, const double *p, size_t k,
                     struct curvefit_params *par, double *mape, double *max_ape,
                     size_t *used);

/* ---- the posterior (tools/DESIGN.md, "Beliefs": "Posterior") ---------
 *
 * A Bayesian linear regression in a model's linear space: amdahl
 * theta = (a, b) of 1/P = a + b/n, power theta = (log c, e) of
 * log P = log c + e log n (interp has no posterior of its own).  Pure
 * computation, like the fits above; the draws' normals are the caller's. */

/* A Gaussian over theta: mean m, covariance v (v[0] = var theta0,
 * v[1] = cov, v[2] = var theta1). */
struct curvefit_gauss {
    double m[2];
    double v[3];
};

/* The relative standard deviation of the prior (amdahl: a and b each have
 * sd CURVEFIT_PRIOR_RSD / P(1) of the prior curve; power: log c has sd
 * CURVEFIT_PRIOR_RSD and e half of it) and the model error floor of the
 * observation noise: sigma = sqrt(SIGMA^2 + CURVEFIT_MODEL_RSD^2). */
#define CURVEFIT_PRIOR_RSD 1.0
#define CURVEFIT_MODEL_RSD 0.05

/* The prior for model (amdahl or power) from a prior table
 * prior[0..jmax] (prior[n] > 0 for n >= 1): its mean the model's
 * least-squares fit to the counts 1..jmax, each weighing one (with
 * jmax = 1: amdahl a = 0, b = 1 / prior[1]; power c = prior[1], e = 1);
 * its covariance diagonal, as CURVEFIT_PRIOR_RSD says. */
void curvefit_prior(int model, const double *prior, int jmax,
                    struct curvefit_gauss *out);

/* The posterior of theta given the prior pr and the observations
 * obs[0..n_obs-1] (n_obs may be 0): each observation at count n is
 * theta0 + theta1 x(n) plus Gaussian noise of variance sigma^2 (power:
 * y = log p) or sigma^2 y^2 (amdahl: y = 1/p, the first-order variance
 * of 1/p under log-normal noise sigma, y taken as the count's 1/G, G the
 * geometric mean of its k rates); a count observed k times is k such
 * observations of its mean.  sigma > 0. */
void curvefit_posterior(int model, const struct curvefit_obs *obs, size_t n_obs,
                        const struct curvefit_gauss *pr, double sigma,
                        struct curvefit_gauss *out);

/* out[0..jmax] (out[0] = 0): the curve of parameters theta, amdahl with
 * a and b clamped to >= 0 and 1/P(n) floored at ymin > 0, power with e
 * clamped to [0, 1] and log c to [-700, 700]: finite and > 0 at n >= 1. */
void curvefit_table_theta(int model, const double theta[2], double ymin,
                          int jmax, double *out);

/* out[0..jmax]: the upper confidence bound of the posterior g, the curve
 * at g's mean (as curvefit_table_theta) plus k standard deviations of
 * P(n) to first order: amdahl s(n) P(n)^2, power s(n) P(n), s(n)^2 =
 * x' V x the variance of theta0 + theta1 x(n) (x = 1/n or log n). */
void curvefit_table_ucb(int model, const struct curvefit_gauss *g, double k,
                        double ymin, int jmax, double *out);

/* A draw from g: theta = m + L (z0, z1), L the Cholesky factor of v. */
void curvefit_draw(const struct curvefit_gauss *g, double z0, double z1,
                   double theta[2]);

#endif
