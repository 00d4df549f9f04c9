/* curvefit.c - least-squares fits of Amdahl's law and a power law, and a
 * monotone interpolation, to a job's observed rates (see curvefit.h).
 *
 * Every fit works on the per-count sums of struct curvefit_obs: the rate
 * observed at a count is the geometric mean of its k observations (the
 * consistent estimate of the true rate under --observe-noise's
 * multiplicative log-normal noise, whose median is 1), weighing k times
 * one observation.  Amdahl's law is fitted where it is
 * linear (1/P = a + b/n) and power where it is (log P = log c + e log n),
 * so both are closed forms, exact on a curve of their own family from two
 * distinct counts.  The posterior is the conjugate Gaussian update of the
 * same linear forms, in closed form (2 x 2 matrices).
 */
#include "config.h"

#include "engine/curvefit.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

static const char *const model_names[] = {
#define CURVEFIT_NAME(name, text) text,
    CURVEFIT_MODELS(CURVEFIT_NAME)
#undef CURVEFIT_NAME
};

const char *curvefit_model_name(int model)
{
    return model >= 0 && model < CURVEFIT_N_MODELS ? model_names[model]
                                                   : "unknown";
}

int curvefit_model_parse(const char *s)
{
    for (int m = 0; m < CURVEFIT_N_MODELS; m++)
        if (strcmp(s, model_names[m]) == 0)
            return m;
    return -1;
}

void curvefit_add(struct curvefit_obs *obs, size_t *n_obs, int n, double p)
{
    size_t i = 0;

    while (i < *n_obs && obs[i].n < n)
        i++;
    if (i == *n_obs || obs[i].n != n) {
        memmove(&obs[i + 1], &obs[i], (*n_obs - i) * sizeof *obs);
        obs[i] = (struct curvefit_obs){.n = n};
        (*n_obs)++;
    }
    obs[i].k++;
    obs[i].sum_log += log(p);
}

/* Weighted least squares of y = a + b x over the counts, from the sums
 * of y per count (sum_y[i], k[i] points at x[i]). */
static void line_fit(const struct curvefit_obs *obs, size_t m, int loglog,
                     double *a, double *b)
{
    double sw = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;

    for (size_t i = 0; i < m; i++) {
        double w = (double)obs[i].k;
        double x = loglog ? log(obs[i].n) : 1.0 / obs[i].n;
        /* sum over the k observations: of log P, or k / G with G their
         * geometric mean (the median's estimate under log-normal noise) */
        double y = loglog ? obs[i].sum_log : w * exp(-obs[i].sum_log / w);
        sw += w;
        sx += w * x;
        sxx += w * x * x;
        sy += y;
        sxy += x * y;
    }
    *b = (sw * sxy - sx * sy) / (sw * sxx - sx * sx);
    *a = (sy - *b * sx) / sw;
    if (loglog)
        return;
    /* Amdahl's law needs s in [0, 1]: a >= 0 and b >= 0. */
    if (*a < 0) {
        *a = 0;
        *b = sxy / sxx;
    } else if (*b < 0) {
        *b = 0;
        *a = sy / sw;
    }
}

void curvefit_fit(int model, const struct curvefit_obs *obs, size_t n_obs,
                  struct curvefit_params *out)
{
    double a, b;

    memset(out, 0, sizeof *out);
    if (n_obs < 2)
        return;
    out->ok = 1;
    if (model == CURVEFIT_POWER) {
        line_fit(obs, n_obs, 1, &a, &b);
        /* 0 <= e <= 1 (no slow-down, no super-linear speed-up): noisy
         * rates at two close counts could give any exponent, which
         * extrapolated to other counts explodes.  With e clamped, log c
         * is the least squares for that e. */
        if (b < 0 || b > 1) {
            double sl = 0, sw = 0;
            b = b < 0 ? 0 : 1;
            for (size_t i = 0; i < n_obs; i++) {
                sl += obs[i].sum_log - (double)obs[i].k * b * log(obs[i].n);
                sw += (double)obs[i].k;
            }
            a = sl / sw;
        }
        out->c = exp(a);
        out->e = b;
        return;
    }
    line_fit(obs, n_obs, 0, &a, &b);
    out->p1 = 1.0 / (a + b);
    out->s = a / (a + b);
}

static double amdahl_at(const struct curvefit_params *f, double n)
{
    /* P(n) = P(1) n / (1 + s (n - 1)) */
    return f->p1 * n / (1.0 + f->s * (n - 1.0));
}

/* interp: the pool-adjacent-violators means of the observed counts
 * (non-decreasing in n), then linear between them and the amdahl shape
 * beyond them. */
static void interp_table(const struct curvefit_obs *obs, size_t m,
                         const struct curvefit_params *f, int jmax, double *out)
{
    double *val = xmalloc(m * sizeof *val), *wt = xmalloc(m * sizeof *wt);
    size_t *len = xmalloc(m * sizeof *len), nb = 0;
    double *xs = xmalloc(m * sizeof *xs), *ys = xmalloc(m * sizeof *ys);
    size_t at = 0;

    for (size_t i = 0; i < m; i++) {
        val[nb] = exp(obs[i].sum_log / (double)obs[i].k);
        wt[nb] = (double)obs[i].k;
        len[nb] = 1;
        nb++;
        while (nb > 1 && val[nb - 2] > val[nb - 1]) {
            double w = wt[nb - 2] + wt[nb - 1];
            val[nb - 2] =
                (val[nb - 2] * wt[nb - 2] + val[nb - 1] * wt[nb - 1]) / w;
            wt[nb - 2] = w;
            len[nb - 2] += len[nb - 1];
            nb--;
        }
    }
    for (size_t k = 0; k < nb; k++)
        for (size_t i = 0; i < len[k]; i++, at++) {
            xs[at] = obs[at].n;
            ys[at] = val[k];
        }
    for (int n = 1; n <= jmax; n++) {
        if (n < obs[0].n)
            out[n] = ys[0] * amdahl_at(f, n) / amdahl_at(f, obs[0].n);
        else if (n > obs[m - 1].n)
            out[n] = ys[m - 1] * amdahl_at(f, n) / amdahl_at(f, obs[m - 1].n);
        else
            out[n] = bfs_interp(n, xs, ys, m);
    }
    xfree(val);
    xfree(wt);
    xfree(len);
    xfree(xs);
    xfree(ys);
}

void curvefit_table(int model, const struct curvefit_obs *obs, size_t n_obs,
                    const double *prior, int jmax, double *out,
                    struct curvefit_params *par)
{
    struct curvefit_params f;

    curvefit_fit(model == CURVEFIT_INTERP ? CURVEFIT_AMDAHL : model, obs, n_obs,
                 &f);
    out[0] = 0.0;
    if (n_obs < 2) {
        /* The prior, through the one point observed if any. */
        double scale = 1.0;
        if (n_obs == 1 && obs[0].n <= jmax)
            scale = exp(obs[0].sum_log / (double)obs[0].k) / prior[obs[0].n];
        for (int n = 1; n <= jmax; n++)
            out[n] = prior[n] * scale;
    } else if (model == CURVEFIT_INTERP) {
        interp_table(obs, n_obs, &f, jmax, out);
    } else {
        for (int n = 1; n <= jmax; n++)
            out[n] =
                model == CURVEFIT_POWER ? f.c * pow(n, f.e) : amdahl_at(&f, n);
    }
    if (par)
        *par = f;
}

void curvefit_points(int model, const double *n, const double *p, size_t k,
                     struct curvefit_params *par, double *mape, double *max_ape,
                     size_t *used)
{
    struct curvefit_obs *obs = xcalloc(k + 1, sizeof *obs);
    double *prior, *tab, sum = 0;
    size_t m = 0, u = 0;
    int top = 1;

    for (size_t i = 0; i < k; i++)
        if (n[i] >= 1 && p[i] > 0 && n[i] < 1e9) {
            int c = (int)lround(n[i]);
            curvefit_add(obs, &m, c, p[i]);
            top = c > top ? c : top;
        }
    prior = xmalloc(((size_t)top + 1) * sizeof *prior);
    tab = xmalloc(((size_t)top + 1) * sizeof *tab);
    for (int c = 0; c <= top; c++)
        prior[c] = c; /* unused from two counts on */
    curvefit_table(model, obs, m, prior, top, tab, par);
    *mape = *max_ape = 0;
    if (m >= 2)
        for (size_t i = 0; i < k; i++)
            if (n[i] >= 1 && p[i] > 0 && n[i] < 1e9) {
                double ape = fabs(tab[lround(n[i])] - p[i]) / p[i];
                sum += ape;
                *max_ape = ape > *max_ape ? ape : *max_ape;
                u++;
            }
    *mape = u ? sum / (double)u : 0;
    *used = u;
    xfree(obs);
    xfree(prior);
    xfree(tab);
}

/* ---- the posterior ------------------------------------------------------ */

void curvefit_prior(int model, const double *prior, int jmax,
                    struct curvefit_gauss *out)
{
    int power = model == CURVEFIT_POWER;
    double t0, t1, r = CURVEFIT_PRIOR_RSD;

    if (jmax >= 2) {
        struct curvefit_obs *obs = xcalloc((size_t)jmax + 1, sizeof *obs);
        size_t m = 0;
        for (int n = 1; n <= jmax; n++)
            curvefit_add(obs, &m, n, prior[n]);
        if (power) {
            struct curvefit_params f;
            curvefit_fit(CURVEFIT_POWER, obs, m, &f);
            t0 = log(f.c);
            t1 = f.e;
        } else {
            line_fit(obs, m, 0, &t0, &t1);
        }
        xfree(obs);
    } else if (power) {
        t0 = log(prior[1]);
        t1 = 1.0;
    } else {
        t0 = 0.0;
        t1 = 1.0 / prior[1];
    }
    out->m[0] = t0;
    out->m[1] = t1;
    out->v[1] = 0.0;
    if (power) {
        out->v[0] = r * r;
        out->v[2] = r * r / 4;
    } else {
        double u = r * (t0 + t1 > 0 ? t0 + t1 : 1.0 / prior[1]);
        out->v[0] = out->v[2] = u * u;
    }
}

/* The inverse of the symmetric 2 x 2 matrix (s[0] s[1]; s[1] s[2]). */
static void inverse2(const double *s, double *out)
{
    double det = s[0] * s[2] - s[1] * s[1];

    out[0] = s[2] / det;
    out[1] = -s[1] / det;
    out[2] = s[0] / det;
}

void curvefit_posterior(int model, const struct curvefit_obs *obs, size_t n_obs,
                        const struct curvefit_gauss *pr, double sigma,
                        struct curvefit_gauss *out)
{
    int power = model == CURVEFIT_POWER;
    double lam[3], h[2], v[3];

    /* precision lam = V0^-1 + sum w x x', h = V0^-1 m0 + sum w x y */
    inverse2(pr->v, lam);
    h[0] = lam[0] * pr->m[0] + lam[1] * pr->m[1];
    h[1] = lam[1] * pr->m[0] + lam[2] * pr->m[1];
    for (size_t i = 0; i < n_obs; i++) {
        double k = (double)obs[i].k, x, y, w;
        if (power) {
            x = log(obs[i].n);
            y = obs[i].sum_log / k;
            w = k / (sigma * sigma);
        } else {
            x = 1.0 / obs[i].n;
            y = exp(-obs[i].sum_log / k);
            w = k / (sigma * sigma * y * y);
        }
        lam[0] += w;
        lam[1] += w * x;
        lam[2] += w * x * x;
        h[0] += w * y;
        h[1] += w * x * y;
    }
    inverse2(lam, v);
    out->m[0] = v[0] * h[0] + v[1] * h[1];
    out->m[1] = v[1] * h[0] + v[2] * h[1];
    memcpy(out->v, v, sizeof v);
}

/* P(n) of parameters theta (clamped as curvefit_table_theta says). */
static double theta_at(int model, const double theta[2], double ymin, int n)
{
    if (model == CURVEFIT_POWER) {
        double lc = theta[0] < -300 ? -300 : theta[0] > 300 ? 300 : theta[0];
        double e = theta[1] < 0 ? 0 : theta[1] > 1 ? 1 : theta[1];
        return exp(lc) * pow(n, e);
    }
    double a = theta[0] > 0 ? theta[0] : 0, b = theta[1] > 0 ? theta[1] : 0;
    double y = a + b / n;
    return 1.0 / (y > ymin ? y : ymin);
}

void curvefit_table_theta(int model, const double theta[2], double ymin,
                          int jmax, double *out)
{
    out[0] = 0.0;
    for (int n = 1; n <= jmax; n++)
        out[n] = theta_at(model, theta, ymin, n);
}

void curvefit_table_ucb(int model, const struct curvefit_gauss *g, double k,
                        double ymin, int jmax, double *out)
{
    int power = model == CURVEFIT_POWER;

    out[0] = 0.0;
    for (int n = 1; n <= jmax; n++) {
        double p = theta_at(model, g->m, ymin, n);
        double x = power ? log(n) : 1.0 / n;
        double var = g->v[0] + 2 * x * g->v[1] + x * x * g->v[2];
        double s = var > 0 ? sqrt(var) : 0.0;
        out[n] = p + k * s * (power ? p : p * p);
    }
}

void curvefit_draw(const struct curvefit_gauss *g, double z0, double z1,
                   double theta[2])
{
    double l00 = g->v[0] > 0 ? sqrt(g->v[0]) : 0.0;
    double l10 = l00 > 0 ? g->v[1] / l00 : 0.0;
    double r = g->v[2] - l10 * l10;
    double l11 = r > 0 ? sqrt(r) : 0.0;

    theta[0] = g->m[0] + l00 * z0;
    theta[1] = g->m[1] + l10 * z0 + l11 * z1;
}
