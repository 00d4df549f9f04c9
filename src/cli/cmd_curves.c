/* cmd_curves.c - `bfsim curves`: how well Amdahl's law, a power law and a
 * monotone interpolation describe a job set's own curves.  Parsing and
 * printing only; the fits are engine/curvefit.c's, the ones the learners
 * of `bfsim replay --belief learn:MODEL` use.
 */
#include "config.h"

#include "cli/cmd.h"
#include "engine/curvefit.h"
#include "formats/jobs.h"
#include "base/csv.h"
#include "base/out.h"
#include "base/util.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

static void usage(FILE *f)
{
    fputs("Usage: bfsim curves JOBS [--curves FILE] [--model MODEL] [-o FILE]\n"
          "\n"
          "Fits scalability models to every job's curve (its P column at\n"
          "its breakpoints n >= 1, each weighing one) and prints one CSV row\n"
          "per job and model: job, model, points, a, b, mape, max_ape.\n"
          "amdahl: P(n) = a n / (1 + b (n - 1)), a = P(1), b the serial\n"
          "fraction (least squares of 1/P against 1/n); power: P(n) = a n^b\n"
          "(least squares in log space); interp: monotone piecewise-linear\n"
          "through the points (a, b: the amdahl fit it extrapolates with).\n"
          "mape and max_ape: mean and largest |fit - P| / P at the points.\n"
          "\n"
          "Options:\n"
          "  --curves FILE      BFTrainer long curve table, when JOBS is a\n"
          "                     bounds table\n"
          "  --model MODEL      amdahl, power, interp or all (default all)\n"
          "  -o, --output FILE  write to FILE (atomically) instead of "
          "standard\n"
          "                     output\n"
          "  -h, --help         show this help\n",
          f);
}

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
    static const struct option longopts[] = {
        {"curves", required_argument, NULL, 'C'},
        {"model", required_argument, NULL, 'm'},
        {"output", required_argument, NULL, 'o'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}};
    const char *curves = NULL, *output = "-";
    struct jobset js;
    struct bfs_error e;
    struct bfs_out out;
    char *bundled;
    int model = -1, c, rc;

    optind = 0;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":o:h", longopts, NULL)) != -1) {
        switch (c) {
        case 'C':
            curves = optarg;
            break;
        case 'm':
            if (strcmp(optarg, "all") == 0)
                model = -1;
            else if ((model = curvefit_model_parse(optarg)) < 0)
                return cmd_usage_error("curves",
                                       "bad --model '%s' (known: amdahl "
                                       "power interp all)",
                                       optarg);
            break;
        case 'o':
            output = optarg;
            break;
        case 'h':
            usage(stdout);
            return CMD_OK;
        default:
            return cmd_option_error("curves", c, argv);
        }
    }
    if ((rc = cmd_one_operand("curves", argc, "JOBS")))
        return rc;
    bfs_error_clear(&e);
    if ((rc = cmd_bundled_jobs("JOBS", argv[optind], &bundled, &e)))
        return cmd_report(&e, rc);
    {
        const struct bfs_paths_role roles[] = {
            {"JOBS", bundled ? bundled : argv[optind], 0, NULL},
            {"--curves", curves, 0, NULL},
            {"-o", output, 1, NULL},
        };
        if ((rc = cmd_check_paths("curves", roles, 3)) != 0) {
            xfree(bundled);
            return rc;
        }
    }
    rc = jobset_load(bundled ? bundled : argv[optind], curves, &js, &e);
    xfree(bundled);
    if (rc)
        return cmd_report(&e, rc);
    rc = bfs_out_open(&out, output, &e);
    if (rc == 0) {
        fputs("job,model,points,a,b,mape,max_ape\n", out.fp);
        print_rows(out.fp, &js, model);
        rc = bfs_out_commit(&out, &e);
    }
    jobset_release(&js);
    return rc ? cmd_report(&e, rc) : CMD_OK;
}
