/* predict.h - a job's scalability curve predicted from its features.
 *
 * A predictor maps a job's feature columns (formats/jobs.h: model family,
 * source, batch size, ...) to the two parameters of the amdahl curve
 * model (engine/curvefit.h), P(1) and the serial fraction s, hence to a
 * curve P(n) = n / (a n + b) with a = s / P(1) and b = (1 - s) / P(1).
 * It is a ridge regression fitted on a corpus of measured curves with
 * features (datasets/curve-corpus.jobs):
 *
 *   targets  each corpus curve's amdahl fit (curvefit_points, its points
 *            n >= 1 each weighing one), through the links y1 = log P(1)
 *            and y2 = logit s, s clamped to [PREDICT_S_EPS, 1 -
 *            PREDICT_S_EPS] first;
 *   inputs   an intercept; each categorical feature one-hot, one column
 *            per value seen in the corpus; each numeric feature (every
 *            non-blank corpus value a finite number) standardised with
 *            the corpus mean and standard deviation (1 when it is 0);
 *   fit      w = (X'X + ridge D)^-1 X'y for both targets, D the identity
 *            but 0 for the intercept (which is not shrunk), solved by
 *            Cholesky: deterministic, no randomness.
 *
 * A job's prediction sums the intercept, the weight of each of its
 * categorical values that the corpus had and each numeric value's
 * weight times its standardised value; a blank or absent feature, or a
 * value the corpus did not have, contributes nothing, so a job with no
 * usable feature gets the intercept's curve.
 *
 * The predictor file (small, text; written atomically):
 *
 *   # bfsim-predictor 1
 *   # comment lines
 *   model,amdahl
 *   link,log-p1,logit-s
 *   ridge,1
 *   intercept,W1,W2
 *   numeric,NAME,MEAN,SD,W1,W2
 *   level,NAME,VALUE,W1,W2
 *
 * one CSV record a line (names and values quoted as base/csv.h writes
 * them), numbers written to read back to the same doubles; the terms in
 * the order the fit made them (features in column order, a feature's
 * values sorted by strcmp).
 */
#ifndef BFS_ENGINE_PREDICT_H
#define BFS_ENGINE_PREDICT_H

#include <stddef.h>

#include "base/error.h"
#include "formats/jobs.h"

#define PREDICT_MAGIC "# bfsim-predictor 1"

/* --belief predict:FILE and --belief-prior predict:FILE name a predictor
 * file. */
#define PREDICT_PREFIX "predict:"

/* The predictor file that source s (a --belief or --belief-prior
 * argument, borrowed) names after PREDICT_PREFIX, or NULL when s is NULL
 * or has no such prefix. */
const char *predict_source(const char *s);

/* The default ridge penalty of `bfsim curves --fit-predictor`. */
#define PREDICT_RIDGE 1.0

/* s is clamped to [PREDICT_S_EPS, 1 - PREDICT_S_EPS] before its logit. */
#define PREDICT_S_EPS 1e-3

/* One input column of the regression beside the intercept. */
struct predict_term {
    char *feature; /* owned: the feature column's name */
    char *level;   /* owned: the categorical value, or NULL: numeric */
    double mean;   /* numeric: the corpus mean */
    double sd;     /* numeric: the corpus standard deviation (> 0) */
    double w[2];   /* the weights on log P(1) and logit s */
};

struct predictor {
    double ridge;               /* the penalty it was fitted with, >= 0 */
    double w0[2];               /* the intercept on log P(1) and logit s */
    size_t n_terms;             /* the terms, in file order */
    struct predict_term *terms; /* owned */
};

/* Fits a predictor on the jobs of js whose index i has use[i] nonzero
 * (use NULL: every job), with the feature columns of js, ridge >= 0.
 * path names js's file, for errors.  Returns 0, BFS_EINVAL (in e) for a
 * job whose curve has fewer than two counts n >= 1 with P > 0, no job to
 * fit on, or a singular system (possible only with ridge 0: collinear
 * features).  *out is written only on success; release it with
 * predictor_release. */
int predictor_fit(const struct jobset *js, const unsigned char *use,
                  double ridge, const char *path, struct predictor *out,
                  struct bfs_error *e);

/* The predicted amdahl parameters of job d of js (or of a shallow copy
 * of one): *p1 = P(1) > 0 and *s, the serial fraction in (0, 1).
 * Returns 0, or BFS_EINVAL (in e, against path and d's line) for a
 * numeric feature's value that is not a finite number. */
int predictor_params(const struct predictor *p, const struct jobset *js,
                     const struct job *d, const char *path, double *p1,
                     double *s, struct bfs_error *e);

/* The amdahl curve's rate n / (a n + b) at n >= 0 for P(1) = p1 and
 * serial fraction s. */
double predict_rate(double p1, double s, double n);

/* Writes p to path atomically, with comment lines (NULL-terminated, may
 * be NULL) after the magic line.  Returns 0 or BFS_EIO (in e). */
int predictor_write(const char *path, const struct predictor *p,
                    const char *const *comments, struct bfs_error *e);

/* Reads a predictor file.  Returns 0, BFS_EIO or BFS_EPARSE (in e,
 * naming the file and line: not a predictor file, an unknown record, a
 * wrong field count, a bad number, a model or link other than amdahl's,
 * a missing or repeated intercept or a repeated term).  *out is written
 * only on success. */
int predictor_read(const char *path, struct predictor *out,
                   struct bfs_error *e);

/* Frees what p owns; p is left empty. */
void predictor_release(struct predictor *p);

/* One group's row of a leave-one-group-out run. */
struct predict_logo_row {
    const char *group; /* borrowed from the job set: the value, or "" */
    size_t curves;     /* the group's jobs */
    size_t points;     /* their breakpoints n >= 1 with P > 0 */
    double mape;       /* mean over the curves of each curve's MAPE */
    double max_ape;    /* the largest |pred - P| / P at any point */
    double naive_mape; /* the same for the intercept-only fit */
};

/* Leave-one-group-out: the jobs of js grouped by their value of feature
 * group (a blank value is the group ""), and each group's jobs predicted
 * by the predictor fitted (with ridge) on the other groups' jobs, and by
 * the intercept-only fit on them (the naive prior: the corpus's mean
 * log P(1) and logit s).  Fills *rows (owned by the caller, xfree) with
 * one row per group, sorted by value, and *all with the row over every
 * job (group "", mape the mean over every curve).  Returns 0 or a code of
 * predictor_fit, or BFS_EINVAL for fewer than two groups (in e). */
int predict_logo(const struct jobset *js, const char *group, double ridge,
                 const char *path, struct predict_logo_row **rows,
                 size_t *n_rows, struct predict_logo_row *all,
                 struct bfs_error *e);

/* The belief a predictor gives the job set truth (read from jobs_path):
 * a job set with one job per job of truth, of the same name, line and
 * bounds, whose curve is the predicted one at breakpoints 0..Jmax (O =
 * P), what a belief or prior file of those curves would load as.  pred
 * is the predictor file.  Returns 0 or a code of predictor_read or
 * predictor_params (in e); *out is written only on success. */
int predict_jobset(const char *pred, const struct jobset *truth,
                   const char *jobs_path, struct jobset *out,
                   struct bfs_error *e);

#endif
