/* cmd_gentrace.c - `bfsim gen-trace`: a synthetic node trace.  Parsing
 * and reporting only; the generator is gentrace.c.
 */
#include "config.h"

#include "cli/cmd.h"
#include "engine/options.h"
#include "formats/gentrace.h"
#include "base/util.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* The trace an empirical:TRACE distribution reads, or NULL. */
static const char *empirical_trace(const char *spec)
{
    return strncmp(spec, "empirical:", 10) == 0 ? spec + 10 : NULL;
}

/* Reads the distributions idle_spec and busy_spec into idle and busy.
 * Returns CMD_OK, or the exit status after the error (naming the
 * option) is reported. */
static int read_dists(const char *idle_spec, const char *busy_spec,
                      struct gentrace_dist *idle, struct gentrace_dist *busy)
{
    struct bfs_error e, named;
    int rc, idle_failed = 1;

    bfs_error_clear(&e);
    rc = gentrace_dist_parse(idle_spec, 0, idle, &e);
    if (rc == 0 && (rc = gentrace_dist_parse(busy_spec, 1, busy, &e)) != 0)
        idle_failed = 0;
    if (rc == 0)
        return CMD_OK;
    bfs_error_clear(&named);
    bfs_fail(&named, rc, "%s: %s", idle_failed ? "--idle" : "--busy", e.msg);
    return cmd_report(&named, rc);
}

/* The summary on standard error: what was written, and the nodes of
 * each type. */
static void report(const struct gentrace_args *a,
                   const struct gentrace_types *types,
                   const struct gentrace_stats *st, double seconds)
{
    fprintf(stderr,
            "bfsim: wrote %s: %zu nodes, %zu events, %" PRIu64
            " changes, %zu idle at the start (%.1f s)\n",
            a->out, a->o.nodes, st->events, st->joins + st->leaves,
            st->idle_at_start, seconds);
    if (a->types) {
        size_t *counts = xmalloc(types->n * sizeof *counts);
        gentrace_types_counts(types, a->o.nodes, counts);
        fputs("bfsim: node types:", stderr);
        for (size_t k = 0; k < types->n; k++)
            fprintf(stderr, "%s %s %zu", k ? "," : "", types->names[k],
                    counts[k]);
        fputc('\n', stderr);
        xfree(counts);
    }
}

/* Writes the trace a asks for, its types read; returns a CMD_* exit
 * status. */
static int write_trace(struct gentrace_args *a,
                       const struct gentrace_types *types)
{
    struct gentrace_dist idle = {0}, busy = {0};
    struct gentrace_stats st;
    struct bfs_error e;
    const char *comments[OPTIONS_MAX_LIST + 2] = {0};
    char auto_comment[1024];
    int rc, status;
    double t0;

    if ((status = read_dists(a->idle, a->busy, &idle, &busy)) != CMD_OK)
        goto done;
    comments[0] = auto_comment;
    for (size_t k = 0; k < a->comments.n; k++)
        comments[k + 1] = a->comments.v[k];
    a->o.seed = (uint64_t)a->seed;
    a->o.idle = &idle;
    a->o.busy = &busy;
    a->o.comments = comments;
    snprintf(auto_comment, sizeof auto_comment,
             "synthetic trace by bfsim %s: bfsim gen-trace --nodes %s "
             "--duration %s --seed %" PRId64 " --start %" PRId64
             " --idle %s --busy %s%s%s",
             PACKAGE_VERSION, a->nodes, a->duration, a->seed, a->o.start,
             a->idle, a->busy, a->types ? " --types " : "",
             a->types ? a->types : "");
    t0 = bfs_now();
    bfs_error_clear(&e);
    rc = gentrace_write_typed(a->out, &a->o, a->types ? types : NULL, &st, &e);
    if (rc)
        status = cmd_report(&e, rc);
    else if (!a->quiet)
        report(a, types, &st, bfs_now() - t0);
done:
    gentrace_dist_release(&busy);
    gentrace_dist_release(&idle);
    return status;
}

int cmd_gen_trace(int argc, char **argv)
{
    struct gentrace_args a;
    struct gentrace_types types = {0, NULL, NULL};
    struct bfs_error e;
    int rc, first, status;

    if (!cmd_parse(&options_gentrace, NULL, argc, argv, &a, &first, &status))
        return status;
    if (first < argc)
        return cmd_usage_error("gen-trace", "unexpected argument '%s'",
                               argv[first]);
    bfs_error_clear(&e);
    if (a.types && (rc = gentrace_types_parse(a.types, &types, &e)) != 0)
        return cmd_report(&e, rc);
    {
        const struct bfs_paths_role roles[] = {
            {"--idle", empirical_trace(a.idle), 0, NULL},
            {"--busy", empirical_trace(a.busy), 0, NULL},
            {"-o", a.out, 1, NULL},
        };
        status = cmd_check_paths("gen-trace", roles, 3);
    }
    if (status == CMD_OK)
        status = write_trace(&a, &types);
    gentrace_types_release(&types);
    return status;
}
