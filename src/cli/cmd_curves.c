/* cmd_curves.c - `bfsim curves`: how well Amdahl's law, a power law and a
 * monotone interpolation describe a job set's own curves.  Parsing and
 * printing only; the fits are engine/curvefit.c's, the ones the learners
 * of `bfsim replay --belief learn:MODEL` use.
 */
#include "config.h"

#include "cli/cmd.h"
#include "engine/options.h"
#include "engine/curvefit.h"
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
        };
        if ((rc = cmd_check_paths("curves", roles, 3)) != 0) {
            xfree(bundled);
            return rc;
        }
    }
    rc = jobset_load(bundled ? bundled : argv[optind], a.curves, &js, &e);
    xfree(bundled);
    if (rc)
        return cmd_report(&e, rc);
    rc = bfs_out_open(&out, a.output, &e);
    if (rc == 0) {
        fputs("job,model,points,a,b,mape,max_ape\n", out.fp);
        print_rows(out.fp, &js, a.model);
        rc = bfs_out_commit(&out, &e);
    }
    jobset_release(&js);
    return rc ? cmd_report(&e, rc) : CMD_OK;
}
