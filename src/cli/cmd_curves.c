/* cmd_curves.c - `bfsim curves`: how well Amdahl's law, a power law and a
 * monotone interpolation describe a job set's own curves, or (with
 * --fit-predictor) a predictor of the curves from the jobs' features and
 * its leave-one-group-out error.  Parsing and printing only; the fits
 * are engine/curvefit.c's, the ones the learners of `bfsim replay
 * --belief learn:MODEL` use, and the predictor engine/predict.c's.
 */
#include "config.h"

#include "cli/cmd.h"
#include "engine/options.h"
#include "engine/curvefit.h"
#include "engine/predict.h"
#include "formats/jobs.h"
#include "base/csv.h"
#include "base/out.h"
#include "base/util.h"

#include <stdio.h>
#include <string.h>

static void print_rows(FILE *f, const struct jobset *js, int model)
{
    for (size_t j = 0; j < js->n; j++) {
        const struct curve *c = &js->jobs[j].curve;
        for (int m = 0; m < CURVEFIT_N_MODELS; m++) {
            struct curvefit_params par;
            double mape, max_ape, a, b;
            size_t used;

            if (model >= 0 && m != model)
                continue;
            curvefit_points(m, c->N, c->P, c->n, &par, &mape, &max_ape, &used);
            csv_field(f, js->jobs[j].name);
            fprintf(f, ",%s,%zu,", curvefit_model_name(m), used);
            if (!par.ok) {
                fputs(",,,\n", f);
                continue;
            }
            a = m == CURVEFIT_POWER ? par.c : par.p1;
            b = m == CURVEFIT_POWER ? par.e : par.s;
            fprintf(f, "%.17g,%.17g,%.17g,%.17g\n", a, b, mape, max_ape);
        }
    }
}

static void print_logo_row(FILE *f, const char *scope,
                           const struct predict_logo_row *r)
{
    fprintf(f, "%s,", scope);
    csv_field(f, r->group);
    fprintf(f, ",%zu,%zu,%.17g,%.17g,%.17g\n", r->curves, r->points, r->mape,
            r->max_ape, r->naive_mape);
}

/* --fit-predictor: fits on js (read from path), writes the predictor, then
 * the leave-one-group-out table to out.  Returns 0 or a negative code. */
static int fit_predictor(const struct curves_args *a, const struct jobset *js,
                         const char *path, struct bfs_out *out,
                         struct bfs_error *e)
{
    struct predictor p;
    struct predict_logo_row *rows = NULL, all;
    size_t n_rows = 0;
    const char *base = strrchr(path, '/');
    char *c1 =
        xasprintf("fitted by bfsim %s: bfsim curves %s "
                  "--fit-predictor --ridge %.17g on %zu curves",
                  PACKAGE_VERSION, base ? base + 1 : path, a->ridge, js->n);
    const char *comments[] = {c1, NULL};
    int rc = predictor_fit(js, NULL, a->ridge, path, &p, e);

    if (rc == 0) {
        rc =
            predict_logo(js, a->group, a->ridge, path, &rows, &n_rows, &all, e);
        if (rc == 0)
            rc = predictor_write(a->fit_predictor, &p, comments, e);
        predictor_release(&p);
    }
    if (rc == 0) {
        fputs("scope,group,curves,points,mape,max_ape,naive_mape\n", out->fp);
        for (size_t i = 0; i < n_rows; i++)
            print_logo_row(out->fp, a->group, &rows[i]);
        print_logo_row(out->fp, "all", &all);
    }
    xfree(rows);
    xfree(c1);
    return rc;
}

int cmd_curves(int argc, char **argv)
{
    struct curves_args a;
    struct jobset js;
    struct bfs_error e;
    struct bfs_out out;
    char *bundled;
    int rc, first;

    if (!cmd_parse(&options_curves, NULL, argc, argv, &a, &first, &rc))
        return rc;
    if ((rc = cmd_one_operand("curves", argc, "JOBS")))
        return rc;
    bfs_error_clear(&e);
    if ((rc = cmd_bundled_jobs("JOBS", argv[optind], &bundled, &e)))
        return cmd_report(&e, rc);
    {
        const struct bfs_paths_role roles[] = {
            {"JOBS", bundled ? bundled : argv[optind], 0, NULL},
            {"--curves", a.curves, 0, NULL},
            {"-o", a.output, 1, NULL},
            {"--fit-predictor", a.fit_predictor, 1, NULL},
        };
        if ((rc = cmd_check_paths("curves", roles, 4)) != 0) {
            xfree(bundled);
            return rc;
        }
    }
    rc = jobset_load(bundled ? bundled : argv[optind], a.curves, &js, &e);
    if (rc) {
        xfree(bundled);
        return cmd_report(&e, rc);
    }
    rc = bfs_out_open(&out, a.output, &e);
    if (rc == 0 && a.fit_predictor) {
        rc = fit_predictor(&a, &js, bundled ? bundled : argv[optind], &out, &e);
        if (rc)
            bfs_out_abort(&out);
        else
            rc = bfs_out_commit(&out, &e);
    } else if (rc == 0) {
        fputs("job,model,points,a,b,mape,max_ape\n", out.fp);
        print_rows(out.fp, &js, a.model);
        rc = bfs_out_commit(&out, &e);
    }
    xfree(bundled);
    jobset_release(&js);
    return rc ? cmd_report(&e, rc) : CMD_OK;
}
