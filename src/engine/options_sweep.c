/* options_sweep.c - the records of `bfsim sweep`'s own options (the
 * replay's, which a sweep's keys name, are options_table).
 *
 * Design: as engine/options.c: one const array of typed records over
 * struct sweep_args, from which cli/cmd_sweep.c's getopt table and help
 * are derived; the check refuses the combinations that do not go
 * together.  Nothing here prints.
 */
#include "config.h"

#include "engine/options.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "base/util.h"

static void sweep_defaults(void *v)
{
    struct sweep_args *a = v;

    memset(a, 0, sizeof *a);
    a->jobs = 1;
    a->shard_n = 1;
    a->lease = 30;
    a->retries = 1;
}

static const char *p_shard(void *v, const char *s)
{
    struct sweep_args *a = v;
    const char *slash = strchr(s, '/');
    char buf[64];
    int64_t i, n;

    if (!slash || (size_t)(slash - s) >= sizeof buf)
        return "is not I/N with 0 <= I < N";
    memcpy(buf, s, (size_t)(slash - s));
    buf[slash - s] = '\0';
    if (bfs_parse_i64(buf, &i) || bfs_parse_i64(slash + 1, &n) || n < 1 ||
        i < 0 || i >= n)
        return "is not I/N with 0 <= I < N";
    a->sharded = 1;
    a->shard_i = (size_t)i;
    a->shard_n = (size_t)n;
    return NULL;
}

static void d_out(const void *v, char *b, size_t n)
{
    (void)v;
    snprintf(b, n, "CONFIG without .json, plus .sweep");
}

/* Whether record name was given. */
static int was_given(const unsigned char *given, const char *name)
{
    const struct options_entry *o = options_lookup(&options_sweep, name);

    return o && given[o - options_sweep.table];
}

static int sweep_check(const void *v, const unsigned char *given,
                       struct bfs_error *e)
{
    const struct sweep_args *a = v;
    int sharded = a->sharded;

    if (a->merge && a->list)
        return bfs_fail(e, BFS_EUSAGE, "--merge and --list do not go together");
    if (a->merge && sharded)
        return bfs_fail(e, BFS_EUSAGE,
                        "--merge collects every shard: no --shard");
    if (a->merge + a->list + a->worker + a->status > 1)
        return bfs_fail(e, BFS_EUSAGE,
                        "--merge, --list, --worker and --status do not go "
                        "together");
    if ((was_given(given, "lease") || was_given(given, "retries")) &&
        !a->worker && !a->status)
        return bfs_fail(e, BFS_EUSAGE,
                        "--lease and --retries go with --worker or --status");
    if ((a->worker || a->status) && sharded)
        return bfs_fail(e, BFS_EUSAGE,
                        "workers share the whole sweep: no --shard");
    return 0;
}

#define F(member) .field = offsetof(struct sweep_args, member)
#define FLAG(member) .type = OPTIONS_FLAG, F(member)

static const struct options_entry sweep_table[] = {
    {"jobs", 'j', "N", 0, .type = OPTIONS_INT, F(jobs), .lo = 1, .hi = 4096,
     .bad = "is not a count of 1 to 4096 runs", .show_default = 1,
     .help = "run up to N replays at once"},
    {"shard", 0, "I/N", 0, .type = OPTIONS_CUSTOM, .parse = p_shard,
     .help = "run only the runs whose index in expansion order is I modulo N "
             "(0 <= I < N): disjoint slices for job arrays; then --merge"},
    {"out", 0, "DIR", 0, .type = OPTIONS_STRING, F(out), .show = d_out,
     .show_default = 1, .help = "output directory"},
    {"merge", 0, NULL, 0, FLAG(merge),
     .help = "run nothing; write the table of the complete runs"},
    {"worker", 0, NULL, 0, FLAG(worker),
     .help = "share the sweep with other workers (any number, any host, any "
             "time): claim runs one by one, longest expected first, through "
             "DIR/runs/ID/claim.N; end when no run is pending or held by a "
             "live worker, then write the table"},
    {"lease", 0, "S", 0, .type = OPTIONS_DOUBLE, F(lease), .lo = 0.1, .hi = 1e9,
     .bad = "is not a number of seconds from 0.1", .show_default = 1,
     .help = "a worker's claim is stale, and taken over, when its heartbeat "
             "(every S/3 s) is older than S seconds"},
    {"retries", 0, "N", 0, .type = OPTIONS_INT, F(retries), .lo = 0, .hi = 1000,
     .bad = "is not a count of 0 to 1000", .show_default = 1,
     .help = "retry a failed run N times, then give it up"},
    {"status", 0, NULL, 0, FLAG(status),
     .help = "run nothing; count the runs complete, running, stale, pending "
             "and failed, and estimate the time left"},
    {"list", 0, NULL, 0, FLAG(list),
     .help = "run nothing; print each run's id, status (complete or pending) "
             "and options"},
    {"quiet", 'q', NULL, 0, FLAG(quiet), .help = "print only failures"},
    OPTIONS_HELP_ENTRY,
};

const struct options_command options_sweep = {
    .name = "sweep",
    .synopsis =
        "Usage: bfsim sweep CONFIG.json [-j N] [--shard I/N] [--out DIR]\n"
        "                   [--merge] [--list] [-q]\n"
        "       bfsim sweep CONFIG.json --worker [-j N] [--lease S] "
        "[--retries N]\n"
        "                   [--out DIR] [-q]\n"
        "       bfsim sweep CONFIG.json --status [--lease S] [--retries N]"
        "\n"
        "\n"
        "Run `bfsim replay` over every combination of the option values in\n"
        "CONFIG.json, each run a separate process, and gather the runs'\n"
        "summaries into one table.  Resumable: runs already complete are\n"
        "skipped, so rerunning the same command finishes an interrupted or\n"
        "extended sweep.\n"
        "\n"
        "CONFIG.json is an object whose keys are replay options without "
        "their\n"
        "dashes.  A string or number is the option's argument, true gives "
        "a\n"
        "flag, false leaves it out; an array of such values is swept.  "
        "Relative\n"
        "paths are relative to the configuration's directory.  \"exclude\": "
        "[{...}]\n"
        "drops the combinations matching every key/value of an entry:\n"
        "\n"
        "  {\"trace\": \"t.trace.gz\", \"allocator\": [\"dp\", \"even\"],\n"
        "   \"tfwd\": [10, 60], \"apply-feasible\": [false, true],\n"
        "   \"exclude\": [{\"allocator\": \"even\", \"apply-feasible\": "
        "true}]}\n"
        "\n"
        "Runs go in expansion order: keys in file order, the last varying\n"
        "fastest.  A run's id is a hash of its options, independent of the\n"
        "keys' order and of the other values; its files are in\n"
        "DIR/runs/ID/: options.json, summary.json, run.h5, log.txt.  The\n"
        "table DIR/results.csv and DIR/results.h5 has one row per complete\n"
        "run: id, the options, then every measure of its summary.\n",
    .tail = "\n"
            "DIR/sweep.txt records which configuration DIR holds: one that "
            "would\n"
            "leave runs of it out of the table is refused (status 2); the "
            "same\n"
            "configuration resumes, and one that adds values extends it.  A "
            "worker\n"
            "finding a complete run whose worker died before ending its claim\n"
            "reconciles it as done without running it again.\n"
            "\n"
            "SIGINT or SIGTERM stops the sweep: the running replays get SIGINT "
            "and\n"
            "write partial results, the table of the complete runs is written, "
            "and\n"
            "the exit status is 130.  A failed run is reported with the end of "
            "its\n"
            "log; the others go on, and the exit status is 1.\n",
    OPTIONS_RECORDS(sweep_table, options_one_group, sweep_args, sweep_defaults,
                    sweep_check),
};
