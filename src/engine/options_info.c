/* options_info.c - the records of `bfsim info` and `bfsim curves`.
 *
 * Design: as engine/options.c: one const array of typed records per
 * command, over struct info_args and struct curves_args, from which the
 * commands' getopt tables and help are derived.  Nothing here prints.
 */
#include "config.h"

#include "engine/options.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "base/util.h"
#include "engine/curvefit.h"
#include "engine/predict.h"

/* -o FILE, info's and curves' alike: the output field of struct args. */
#define OUTPUT_ENTRY(args)                                                     \
    {                                                                          \
        "output", 'o', "FILE", 0,                                              \
            .type = OPTIONS_STRING, .field = offsetof(struct args, output),    \
            .help = "write to FILE (atomically) instead of standard output"    \
    }

/* ---- bfsim info ---------------------------------------------------------- */

static void info_defaults(void *v)
{
    struct info_args *a = v;

    memset(a, 0, sizeof *a);
    traceinfo_opts_init(&a->o);
    a->output = "-";
}

static const char *p_nodes(void *v, const char *s)
{
    struct info_args *a = v;

    if (options_parse_nodes(s, &a->o.skip, &a->o.count))
        return "is not [SKIP:]COUNT with COUNT >= 1";
    return NULL;
}

static int info_check(const void *v, const unsigned char *given,
                      struct bfs_error *e)
{
    const struct info_args *a = v;

    (void)given;
    if (a->o.start >= a->o.end)
        return bfs_fail(e, BFS_EUSAGE, "--start must be before --end");
    return 0;
}

static const struct options_entry info_table[] = {
    {"start", 0, "T", 0, .type = OPTIONS_TIME,
     .field = offsetof(struct info_args, o.start),
     .help = "window start: Unix seconds or 'YYYY-MM-DD HH:MM:SS' (UTC); "
             "default: the first event.  The state at T is built from the "
             "events up to T; holes open at T are cut there."},
    {"end", 0, "T", 0, .type = OPTIONS_TIME,
     .field = offsetof(struct info_args, o.end),
     .help = "window end (same forms); default: the last event.  Holes still "
             "open at the end are cut there."},
    {"nodes", 0, "[SKIP:]COUNT", 0, .type = OPTIONS_CUSTOM, .parse = p_nodes,
     .help = "only COUNT nodes, after skipping the first SKIP in the trace's "
             "node order (default: all)"},
    {"json", 0, NULL, 0, .type = OPTIONS_FLAG,
     .field = offsetof(struct info_args, json),
     .help = "print JSON instead of text"},
    OUTPUT_ENTRY(info_args),
    OPTIONS_HELP_ENTRY,
};

const struct options_command options_info = {
    .name = "info",
    .synopsis =
        "Usage: bfsim info TRACE [OPTIONS]\n"
        "\n"
        "Statistics of a native trace (plain or compressed): nodes, time\n"
        "span, events, idle node-hours, the idle pool's size over time,\n"
        "nodes ever idle, and the length distribution of idle intervals\n"
        "(\"holes\") and busy intervals; for a typed trace, the nodes and\n"
        "idle node-hours of each node type.  Reads the trace once, "
        "streaming.\n",
    .tail = "\n"
            "Percentiles use the nearest-rank rule on integer seconds; pool\n"
            "percentiles are weighted by time.\n",
    OPTIONS_RECORDS(info_table, options_one_group, info_args, info_defaults,
                    info_check),
};

/* ---- bfsim curves -------------------------------------------------------- */

static void curves_defaults(void *v)
{
    struct curves_args *a = v;

    memset(a, 0, sizeof *a);
    a->model = -1;
    a->output = "-";
    a->group = "family";
    a->ridge = PREDICT_RIDGE;
}

static const char *p_model(void *v, const char *s)
{
    struct curves_args *a = v;

    if (strcmp(s, "all") == 0)
        a->model = -1;
    else if ((a->model = curvefit_model_parse(s)) < 0)
        return "is not a model (known: amdahl power interp all)";
    return NULL;
}

static void d_model(const void *v, char *b, size_t n)
{
    int m = ((const struct curves_args *)v)->model;

    snprintf(b, n, "%s", m < 0 ? "all" : curvefit_model_name(m));
}

static const struct options_entry curves_table[] = {
    {"curves", 0, "FILE", 0, .type = OPTIONS_STRING,
     .field = offsetof(struct curves_args, curves),
     .help = "BFTrainer long curve table, when JOBS is a bounds table"},
    {"model", 0, "MODEL", 0, .type = OPTIONS_CUSTOM, .parse = p_model,
     .show = d_model, .show_default = 1,
     .help = "amdahl, power, interp or all"},
    {"fit-predictor", 0, "OUT", 0, .type = OPTIONS_STRING,
     .field = offsetof(struct curves_args, fit_predictor),
     .help = "fit a predictor of the amdahl curve from the jobs' feature "
             "columns, write it to OUT (for replay --belief predict:OUT) and "
             "print its leave-one-group-out error instead of the fits"},
    {"group", 0, "FEATURE", 0, .type = OPTIONS_STRING,
     .field = offsetof(struct curves_args, group), .show_default = 1,
     .help = "--fit-predictor: the feature whose values are the groups left "
             "out"},
    {"ridge", 0, "L", 0, .type = OPTIONS_DOUBLE,
     .field = offsetof(struct curves_args, ridge), .lo = 0, .hi = 1e12,
     .bad = "is not a penalty in [0, 1e12]", .show_default = 1,
     .help = "--fit-predictor: the ridge penalty on the feature weights"},
    OUTPUT_ENTRY(curves_args),
    OPTIONS_HELP_ENTRY,
};

static int curves_check(const void *v, const unsigned char *given,
                        struct bfs_error *e)
{
    const struct curves_args *a = v;

    for (size_t i = 0; i < sizeof curves_table / sizeof *curves_table; i++)
        if (given[i] && !a->fit_predictor &&
            (strcmp(curves_table[i].name, "group") == 0 ||
             strcmp(curves_table[i].name, "ridge") == 0))
            return bfs_fail(e, BFS_EUSAGE,
                            "--%s is an option of --fit-predictor",
                            curves_table[i].name);
    if (a->fit_predictor && a->model >= 0 && a->model != CURVEFIT_AMDAHL)
        return bfs_fail(e, BFS_EUSAGE,
                        "--fit-predictor predicts amdahl curves; --model %s "
                        "does not apply",
                        curvefit_model_name(a->model));
    return 0;
}

const struct options_command options_curves = {
    .name = "curves",
    .synopsis =
        "Usage: bfsim curves JOBS [--curves FILE] [--model MODEL] [-o FILE]\n"
        "       bfsim curves JOBS --fit-predictor OUT [--group FEATURE]\n"
        "                    [--ridge L] [-o FILE]\n"
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
        "With --fit-predictor: fits a ridge regression from the jobs'\n"
        "feature columns (categorical one-hot, numeric standardised) to\n"
        "log P(1) and logit s of each curve's amdahl fit, writes it to OUT,\n"
        "and prints its leave-one-group-out error: for each value of\n"
        "--group, its jobs predicted from the others' (an unseen value\n"
        "contributes nothing), one CSV row scope,group,curves,points,mape,\n"
        "max_ape,naive_mape (scope: the feature's name; mape: the mean over\n"
        "the curves of the mean |pred - P| / P at their points n >= 1;\n"
        "naive: the intercept-only fit, the corpus's mean curve), then the\n"
        "row over all jobs (scope all).\n",
    OPTIONS_RECORDS(curves_table, options_one_group, curves_args,
                    curves_defaults, curves_check),
};
