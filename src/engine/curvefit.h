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

#endif
