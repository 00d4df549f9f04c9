/* predict.c - curves predicted from job features (see predict.h).
 *
 * Design: one function, features_row, turns a job's features into the
 * regression's input row (intercept 1, one-hot values, standardised
 * numbers); the fit and the prediction both use it, so a job is read the
 * same way in both.  The fit forms the normal equations X'X + ridge D
 * (p x p, p = 1 + terms: a few dozen) and solves them by Cholesky; the
 * corpus is small, so no care beyond that is taken for size.  The
 * leave-one-group-out run refits from scratch per group (the held-out
 * group's values are unseen there, so they contribute nothing, as for a
 * new job).  Nothing here prints; the predictor file is written through
 * base/out.h.
 */
#include "config.h"

#include "engine/predict.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/csv.h"
#include "base/out.h"
#include "base/util.h"
#include "engine/curvefit.h"

const char *predict_source(const char *s)
{
    size_t n = sizeof PREDICT_PREFIX - 1;

    return s && strncmp(s, PREDICT_PREFIX, n) == 0 ? s + n : NULL;
}

double predict_rate(double p1, double s, double n)
{
    if (!(n > 0))
        return 0;
    return n / ((s / p1) * n + (1 - s) / p1);
}

void predictor_release(struct predictor *p)
{
    for (size_t t = 0; t < p->n_terms; t++) {
        xfree(p->terms[t].feature);
        xfree(p->terms[t].level);
    }
    xfree(p->terms);
    memset(p, 0, sizeof *p);
}

/* Appends a term (taking ownership of feature and level) to p. */
static struct predict_term *add_term(struct predictor *p, size_t *cap,
                                     char *feature, char *level)
{
    struct predict_term *t;

    BFS_GROW(p->terms, *cap, p->n_terms + 1);
    t = &p->terms[p->n_terms++];
    memset(t, 0, sizeof *t);
    t->feature = feature;
    t->level = level;
    t->sd = 1;
    return t;
}

/* x[0..p->n_terms] := job d's input row.  Returns 0 or BFS_EINVAL for a
 * numeric feature's value that is not a number (against path, d's line). */
static int features_row(const struct predictor *p, const struct jobset *js,
                        const struct job *d, const char *path, double *x,
                        struct bfs_error *e)
{
    x[0] = 1;
    for (size_t t = 0; t < p->n_terms; t++) {
        const struct predict_term *pt = &p->terms[t];
        const char *v = job_feature(js, d, pt->feature);
        double num;

        x[t + 1] = 0;
        if (!v)
            continue;
        if (pt->level) {
            x[t + 1] = strcmp(v, pt->level) == 0;
            continue;
        }
        if (bfs_parse_double(v, &num))
            return bfs_fail_at(e, BFS_EINVAL, path, d->line,
                               "job %s: feature %s is '%s', not a number "
                               "(the predictor's %s is numeric)",
                               d->name, pt->feature, v, pt->feature);
        x[t + 1] = (num - pt->mean) / pt->sd;
    }
    return 0;
}

int predictor_params(const struct predictor *p, const struct jobset *js,
                     const struct job *d, const char *path, double *p1,
                     double *s, struct bfs_error *e)
{
    double *x = xmalloc((p->n_terms + 1) * sizeof *x);
    double y[2] = {p->w0[0], p->w0[1]};
    int rc = features_row(p, js, d, path, x, e);

    if (rc == 0) {
        for (size_t t = 0; t < p->n_terms; t++) {
            y[0] += p->terms[t].w[0] * x[t + 1];
            y[1] += p->terms[t].w[1] * x[t + 1];
        }
        *p1 = exp(y[0]);
        *s = 1 / (1 + exp(-y[1]));
    }
    xfree(x);
    return rc;
}

/* The distinct non-blank values of feature f over the used jobs, sorted
 * (borrowed from js), into *vals (owned by the caller); returns their
 * number.  *numeric is 1 when there is one and all are finite numbers. */
static size_t feature_values(const struct jobset *js, const unsigned char *use,
                             const char *f, const char ***vals, int *numeric)
{
    const char **v = xcalloc(js->n + 1, sizeof *v);
    size_t n = 0, k = 0;
    double num;

    *numeric = 1;
    for (size_t i = 0; i < js->n; i++) {
        const char *s =
            use && !use[i] ? NULL : job_feature(js, &js->jobs[i], f);
        if (!s)
            continue;
        if (bfs_parse_double(s, &num))
            *numeric = 0;
        v[n++] = s;
    }
    qsort(v, n, sizeof *v, bfs_cmp_str);
    for (size_t i = 0; i < n; i++)
        if (k == 0 || strcmp(v[k - 1], v[i]) != 0)
            v[k++] = v[i];
    if (k == 0)
        *numeric = 0;
    *vals = v;
    return k;
}

/* The terms of the predictor fitted on the used jobs: one per numeric
 * feature (its mean and standard deviation over the jobs that have a
 * value), one per value of a categorical one. */
static void make_terms(const struct jobset *js, const unsigned char *use,
                       struct predictor *p)
{
    size_t cap = 0;

    for (size_t k = 0; k < js->n_features; k++) {
        const char *f = js->feature_names[k];
        const char **vals;
        int numeric;
        size_t nv = feature_values(js, use, f, &vals, &numeric);

        if (numeric) {
            struct predict_term *t = add_term(p, &cap, xstrdup(f), NULL);
            double sum = 0, ss = 0, num;
            size_t m = 0;

            for (size_t i = 0; i < js->n; i++) {
                const char *s =
                    use && !use[i] ? NULL : job_feature(js, &js->jobs[i], f);
                if (s && bfs_parse_double(s, &num) == 0) {
                    sum += num;
                    m++;
                }
            }
            t->mean = sum / (double)m;
            for (size_t i = 0; i < js->n; i++) {
                const char *s =
                    use && !use[i] ? NULL : job_feature(js, &js->jobs[i], f);
                if (s && bfs_parse_double(s, &num) == 0)
                    ss += (num - t->mean) * (num - t->mean);
            }
            t->sd = sqrt(ss / (double)m);
            if (!(t->sd > 0))
                t->sd = 1;
        } else {
            for (size_t i = 0; i < nv; i++)
                add_term(p, &cap, xstrdup(f), xstrdup(vals[i]));
        }
        xfree(vals);
    }
}

/* Solves a x = r for the two right-hand sides r[.][0..1] (a p x p
 * symmetric, row-major, overwritten by its Cholesky factor; r by x).
 * Returns 0, or -1 when a is not positive definite to working
 * precision. */
static int cholesky_solve(double *a, double (*r)[2], size_t p)
{
    for (size_t j = 0; j < p; j++) {
        double d = a[j * p + j], scale = fabs(d);
        for (size_t k = 0; k < j; k++)
            d -= a[j * p + k] * a[j * p + k];
        if (!(d > 1e-12 * (scale > 1 ? scale : 1)))
            return -1;
        d = sqrt(d);
        a[j * p + j] = d;
        for (size_t i = j + 1; i < p; i++) {
            double v = a[i * p + j];
            for (size_t k = 0; k < j; k++)
                v -= a[i * p + k] * a[j * p + k];
            a[i * p + j] = v / d;
        }
    }
    for (int c = 0; c < 2; c++) {
        for (size_t i = 0; i < p; i++) { /* L z = r */
            double v = r[i][c];
            for (size_t k = 0; k < i; k++)
                v -= a[i * p + k] * r[k][c];
            r[i][c] = v / a[i * p + i];
        }
        for (size_t i = p; i-- > 0;) { /* L' x = z */
            double v = r[i][c];
            for (size_t k = i + 1; k < p; k++)
                v -= a[k * p + i] * r[k][c];
            r[i][c] = v / a[i * p + i];
        }
    }
    return 0;
}

/* The regression's targets for job d: log P(1) and logit s of its amdahl
 * fit.  Returns 0 or BFS_EINVAL (in e) when no fit can be made. */
static int targets(const struct job *d, const char *path, double y[2],
                   struct bfs_error *e)
{
    const struct curve *c = &d->curve;
    struct curvefit_params par;
    double mape, max_ape, s;
    size_t used;

    curvefit_points(CURVEFIT_AMDAHL, c->N, c->P, c->n, &par, &mape, &max_ape,
                    &used);
    if (!par.ok || !(par.p1 > 0))
        return bfs_fail_at(e, BFS_EINVAL, path, d->line,
                           "job %s: fewer than two counts n >= 1 with P > 0; "
                           "a curve of the corpus needs two for its amdahl "
                           "fit",
                           d->name);
    s = par.s < PREDICT_S_EPS       ? PREDICT_S_EPS
        : par.s > 1 - PREDICT_S_EPS ? 1 - PREDICT_S_EPS
                                    : par.s;
    y[0] = log(par.p1);
    y[1] = log(s / (1 - s));
    return 0;
}

int predictor_fit(const struct jobset *js, const unsigned char *use,
                  double ridge, const char *path, struct predictor *out,
                  struct bfs_error *e)
{
    struct predictor p = {.ridge = ridge};
    double *a = NULL, *x = NULL, (*r)[2] = NULL, y[2] = {0, 0};
    size_t np, m = 0;
    int rc = 0;

    make_terms(js, use, &p);
    np = p.n_terms + 1;
    a = xcalloc(np * np, sizeof *a);
    x = xmalloc(np * sizeof *x);
    r = xcalloc(np, sizeof *r);
    for (size_t i = 0; i < js->n; i++) {
        const struct job *d = &js->jobs[i];

        if (use && !use[i])
            continue;
        if ((rc = targets(d, path, y, e)) != 0 ||
            (rc = features_row(&p, js, d, path, x, e)) != 0)
            goto cleanup;
        for (size_t u = 0; u < np; u++) {
            if (x[u] == 0)
                continue;
            for (size_t v = 0; v < np; v++)
                a[u * np + v] += x[u] * x[v];
            r[u][0] += x[u] * y[0];
            r[u][1] += x[u] * y[1];
        }
        m++;
    }
    if (m == 0) {
        rc = bfs_fail_at(e, BFS_EINVAL, path, 0,
                         "no curve to fit a predictor on");
        goto cleanup;
    }
    for (size_t u = 1; u < np; u++)
        a[u * np + u] += ridge;
    if (cholesky_solve(a, r, np)) {
        rc = bfs_fail_at(e, BFS_EINVAL, path, 0,
                         "the features are collinear over these %zu curves; "
                         "fit with a ridge penalty > 0",
                         m);
        goto cleanup;
    }
    p.w0[0] = r[0][0];
    p.w0[1] = r[0][1];
    for (size_t t = 0; t < p.n_terms; t++) {
        p.terms[t].w[0] = r[t + 1][0];
        p.terms[t].w[1] = r[t + 1][1];
    }
cleanup:
    xfree(r);
    xfree(x);
    xfree(a);
    if (rc)
        predictor_release(&p);
    else
        *out = p;
    return rc;
}

/* ---- the predictor file ---------------------------------------------- */

int predictor_write(const char *path, const struct predictor *p,
                    const char *const *comments, struct bfs_error *e)
{
    struct bfs_out o;
    int rc = bfs_out_open(&o, path, e);

    if (rc)
        return rc;
    fprintf(o.fp, "%s\n", PREDICT_MAGIC);
    for (size_t i = 0; comments && comments[i]; i++)
        fprintf(o.fp, "# %s\n", comments[i]);
    fprintf(o.fp, "model,amdahl\nlink,log-p1,logit-s\nridge,%.17g\n", p->ridge);
    fprintf(o.fp, "intercept,%.17g,%.17g\n", p->w0[0], p->w0[1]);
    for (size_t t = 0; t < p->n_terms; t++) {
        const struct predict_term *pt = &p->terms[t];

        fputs(pt->level ? "level," : "numeric,", o.fp);
        csv_field(o.fp, pt->feature);
        if (pt->level) {
            fputc(',', o.fp);
            csv_field(o.fp, pt->level);
        } else {
            fprintf(o.fp, ",%.17g,%.17g", pt->mean, pt->sd);
        }
        fprintf(o.fp, ",%.17g,%.17g\n", pt->w[0], pt->w[1]);
    }
    return bfs_out_commit(&o, e);
}

/* Parses the n numbers f[0..n-1] into v; returns the index of the first
 * that is not a finite number, or -1. */
static int numbers(char **f, size_t n, double *v)
{
    for (size_t i = 0; i < n; i++)
        if (bfs_parse_double(f[i], &v[i]))
            return (int)i;
    return -1;
}

/* One record of a predictor file into p (see predictor_read). */
static int read_record(char **f, size_t nf, struct predictor *p, size_t *cap,
                       unsigned *seen, const char *path, size_t ln,
                       struct bfs_error *e)
{
    /* Each record's field count and where its numbers are (first
     * field, how many; 0: none). */
    static const struct {
        const char *name;
        size_t fields, num, n_num;
    } rec[] = {{"model", 2, 0, 0},   {"link", 3, 0, 0},
               {"ridge", 2, 1, 1},   {"intercept", 3, 1, 2},
               {"numeric", 6, 2, 4}, {"level", 5, 3, 2}};
    double v[4];
    size_t r = 0;
    int bad;

    while (r < sizeof rec / sizeof *rec && strcmp(f[0], rec[r].name) != 0)
        r++;
    if (r == sizeof rec / sizeof *rec)
        return bfs_fail_at(e, BFS_EPARSE, path, ln,
                           "unknown record '%s' (known: model link ridge "
                           "intercept numeric level)",
                           f[0]);
    if (nf != rec[r].fields)
        return bfs_fail_at(e, BFS_EPARSE, path, ln,
                           "record %s has %zu fields, not %zu", f[0], nf,
                           rec[r].fields);
    if (r < 4 && (*seen & (1u << r)))
        return bfs_fail_at(e, BFS_EPARSE, path, ln, "a second %s record", f[0]);
    *seen |= 1u << (r < 4 ? r : 4);
    if (r == 0 && strcmp(f[1], "amdahl") != 0)
        return bfs_fail_at(e, BFS_EPARSE, path, ln,
                           "model '%s'; this bfsim predicts amdahl curves "
                           "only",
                           f[1]);
    if (r == 1 && (strcmp(f[1], "log-p1") != 0 || strcmp(f[2], "logit-s") != 0))
        return bfs_fail_at(e, BFS_EPARSE, path, ln,
                           "link '%s,%s'; this bfsim knows log-p1,logit-s "
                           "only",
                           f[1], f[2]);
    if (r <= 1)
        return 0;
    bad = numbers(f + rec[r].num, rec[r].n_num, v);
    if (bad >= 0)
        return bfs_fail_at(e, BFS_EPARSE, path, ln,
                           "field %zu of the %s record ('%s') is not a finite "
                           "number",
                           rec[r].num + (size_t)bad + 1, f[0],
                           f[rec[r].num + (size_t)bad]);
    if (r == 2) {
        if (v[0] < 0)
            return bfs_fail_at(e, BFS_EPARSE, path, ln, "ridge %g is negative",
                               v[0]);
        p->ridge = v[0];
        return 0;
    }
    if (r == 3) {
        p->w0[0] = v[0];
        p->w0[1] = v[1];
        return 0;
    }
    if (f[1][0] == '\0' || (r == 5 && f[2][0] == '\0'))
        return bfs_fail_at(e, BFS_EPARSE, path, ln,
                           "a %s record with an empty %s", f[0],
                           f[1][0] ? "value" : "feature name");
    if (r == 4 && !(v[1] > 0))
        return bfs_fail_at(e, BFS_EPARSE, path, ln,
                           "feature %s: standard deviation %g is not > 0", f[1],
                           v[1]);
    for (size_t t = 0; t < p->n_terms; t++) {
        const struct predict_term *pt = &p->terms[t];
        if (strcmp(pt->feature, f[1]) != 0)
            continue;
        if (r == 4 || !pt->level)
            return bfs_fail_at(e, BFS_EPARSE, path, ln,
                               "feature %s: a second numeric term, or both "
                               "numeric and level terms",
                               f[1]);
        if (strcmp(pt->level, f[2]) == 0)
            return bfs_fail_at(e, BFS_EPARSE, path, ln,
                               "feature %s: a second term for value '%s'", f[1],
                               f[2]);
    }
    {
        struct predict_term *t =
            add_term(p, cap, xstrdup(f[1]), r == 5 ? xstrdup(f[2]) : NULL);
        if (r == 4) {
            t->mean = v[0];
            t->sd = v[1];
        }
        t->w[0] = v[r == 4 ? 2 : 0];
        t->w[1] = v[r == 4 ? 3 : 1];
    }
    return 0;
}

int predictor_read(const char *path, struct predictor *out, struct bfs_error *e)
{
    struct predictor p = {0};
    struct bfs_lines *lr;
    char *line, *f[8];
    size_t cap = 0, nf, col;
    unsigned seen = 0;
    int rc;

    if ((rc = bfs_lines_open(path, &lr, e)) != 0)
        return rc;
    while ((rc = bfs_lines_next(lr, &line, e)) == 1) {
        size_t ln = bfs_lines_lineno(lr);

        if (ln == 1) {
            if (strcmp(line, PREDICT_MAGIC) != 0) {
                rc = bfs_fail_at(e, BFS_EPARSE, path, 1,
                                 "not a predictor file: the first line must "
                                 "be '%s'",
                                 PREDICT_MAGIC);
                break;
            }
            continue;
        }
        if (line[0] == '#' || bfs_trim(line)[0] == '\0')
            continue;
        if (bfs_csv_split(line, ',', f, 8, &nf, &col)) {
            rc = bfs_fail_at(e, BFS_EPARSE, path, ln,
                             "column %zu: a quoted field that does not end",
                             col);
            break;
        }
        /* nf may exceed 8 (only 8 stored): no record has as many. */
        if ((rc = read_record(f, nf, &p, &cap, &seen, path, ln, e)) != 0)
            break;
    }
    if (rc == 0 && bfs_lines_lineno(lr) == 0)
        rc = bfs_fail_at(e, BFS_EPARSE, path, 0,
                         "empty file; not a predictor file");
    if (rc == 0 && (seen & 0xb) != 0xb)
        rc = bfs_fail_at(e, BFS_EPARSE, path, bfs_lines_lineno(lr),
                         "no %s record before the end of the file",
                         !(seen & 1)   ? "model"
                         : !(seen & 2) ? "link"
                                       : "intercept");
    bfs_lines_close(lr);
    if (rc) {
        predictor_release(&p);
        return rc;
    }
    *out = p;
    return 0;
}

/* ---- leave one group out --------------------------------------------- */

/* Job d's curve MAPE and largest APE under P(1) = p1, s, over its points
 * n >= 1 with P > 0; returns their number. */
static size_t curve_error(const struct job *d, double p1, double s,
                          double *mape, double *max_ape)
{
    const struct curve *c = &d->curve;
    size_t k = 0;
    double sum = 0;

    *max_ape = 0;
    for (size_t i = 0; i < c->n; i++) {
        double ape;
        if (c->N[i] < 1 || !(c->P[i] > 0))
            continue;
        ape = fabs(predict_rate(p1, s, c->N[i]) - c->P[i]) / c->P[i];
        sum += ape;
        if (ape > *max_ape)
            *max_ape = ape;
        k++;
    }
    *mape = k ? sum / (double)k : 0;
    return k;
}

int predict_logo(const struct jobset *js, const char *group, double ridge,
                 const char *path, struct predict_logo_row **rows,
                 size_t *n_rows, struct predict_logo_row *all,
                 struct bfs_error *e)
{
    struct jobset bare = *js; /* the same jobs without features */
    const char **gv = xcalloc(js->n + 1, sizeof *gv), **vals;
    unsigned char *use = xcalloc(js->n + 1, 1);
    struct predict_logo_row *out = NULL, tot = {.group = ""};
    size_t ng = 0, known = 0;
    int rc = 0, numeric;

    bare.n_features = 0;
    for (size_t k = 0; k < js->n_features; k++)
        known |= strcmp(js->feature_names[k], group) == 0;
    if (!known) {
        rc = bfs_fail_at(e, BFS_EINVAL, path, 0,
                         "no feature column '%s' to group by", group);
        goto cleanup;
    }
    ng = feature_values(js, NULL, group, &vals, &numeric);
    /* Jobs without a value form the group "" (sorted first). */
    for (size_t i = 0; i < js->n; i++)
        if (!(gv[i] = job_feature(js, &js->jobs[i], group)))
            gv[i] = "";
    for (size_t i = 0; i < js->n; i++)
        if (gv[i][0] == '\0') {
            memmove(vals + 1, vals, ng * sizeof *vals);
            vals[0] = "";
            ng++;
            break;
        }
    if (ng < 2) {
        rc = bfs_fail_at(e, BFS_EINVAL, path, 0,
                         "feature '%s' has %zu value%s; leaving one group "
                         "out needs two",
                         group, ng, ng == 1 ? "" : "s");
        xfree(vals);
        ng = 0;
        goto cleanup;
    }
    out = xcalloc(ng, sizeof *out);
    for (size_t g = 0; g < ng && rc == 0; g++) {
        struct predictor full, naive;
        struct predict_logo_row *row = &out[g];

        row->group = vals[g];
        for (size_t i = 0; i < js->n; i++)
            use[i] = strcmp(gv[i], vals[g]) != 0;
        if ((rc = predictor_fit(js, use, ridge, path, &full, e)) != 0)
            break;
        if ((rc = predictor_fit(&bare, use, ridge, path, &naive, e)) != 0) {
            predictor_release(&full);
            break;
        }
        for (size_t i = 0; i < js->n && rc == 0; i++) {
            double p1, s, mape, max_ape, nmape, nmax;
            size_t k;

            if (use[i])
                continue;
            if ((rc = predictor_params(&full, js, &js->jobs[i], path, &p1, &s,
                                       e)) != 0)
                break;
            k = curve_error(&js->jobs[i], p1, s, &mape, &max_ape);
            predictor_params(&naive, &bare, &js->jobs[i], path, &p1, &s, e);
            curve_error(&js->jobs[i], p1, s, &nmape, &nmax);
            row->curves++;
            row->points += k;
            row->mape += mape;
            row->naive_mape += nmape;
            if (max_ape > row->max_ape)
                row->max_ape = max_ape;
        }
        predictor_release(&naive);
        predictor_release(&full);
        tot.curves += row->curves;
        tot.points += row->points;
        tot.mape += row->mape;
        tot.naive_mape += row->naive_mape;
        if (row->max_ape > tot.max_ape)
            tot.max_ape = row->max_ape;
        row->mape /= (double)row->curves;
        row->naive_mape /= (double)row->curves;
    }
    xfree(vals);
    if (rc == 0) {
        tot.mape /= (double)tot.curves;
        tot.naive_mape /= (double)tot.curves;
        *rows = out;
        *n_rows = ng;
        *all = tot;
        out = NULL;
    }
cleanup:
    xfree(out);
    xfree(use);
    xfree(gv);
    return rc;
}

/* ---- the belief of a job set ------------------------------------------ */

int predict_jobset(const char *pred, const struct jobset *truth,
                   const char *jobs_path, struct jobset *out,
                   struct bfs_error *e)
{
    struct predictor p;
    struct jobset js = {0};
    int rc;

    if ((rc = predictor_read(pred, &p, e)) != 0)
        return rc;
    js.jobs = xcalloc(truth->n + 1, sizeof *js.jobs);
    for (size_t j = 0; j < truth->n; j++) {
        const struct job *d = &truth->jobs[j];
        struct job *b = &js.jobs[j];
        size_t n = (size_t)d->jmax + 1;
        double p1, s;

        if ((rc = predictor_params(&p, truth, d, jobs_path, &p1, &s, e)) != 0)
            break;
        b->name = xstrdup(d->name);
        b->tsub = d->tsub;
        b->jmin = d->jmin;
        b->jmax = d->jmax;
        b->pmax = d->pmax;
        b->tcup = d->tcup;
        b->tcdw = d->tcdw;
        b->line = d->line;
        b->curve.n = n;
        b->curve.N = xmalloc(n * sizeof *b->curve.N);
        b->curve.P = xmalloc(n * sizeof *b->curve.P);
        b->curve.O = xmalloc(n * sizeof *b->curve.O);
        for (size_t k = 0; k < n; k++) {
            b->curve.N[k] = (double)k;
            b->curve.P[k] = b->curve.O[k] = predict_rate(p1, s, (double)k);
        }
        js.n++;
    }
    predictor_release(&p);
    if (rc) {
        jobset_release(&js);
        return rc;
    }
    *out = js;
    return 0;
}
