/* main.c - the bfsim program: global options and subcommand dispatch.
 *
 * git-style: `bfsim [--help|--version] COMMAND [OPTIONS]`.  Each command
 * lives in src/cmd_<name>.c and parses its own options; the code they call
 * is in the library (libbfsim.a) that the tests link too.
 */
#include "config.h"

#include "cli/cmd.h"
#include "base/util.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const struct command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
} commands[] = {
    {"replay", cmd_replay, "replay a node trace with elastic training jobs"},
    {"solve", cmd_solve, "solve one allocation instance"},
    {"convert", cmd_convert, "convert traces and job sets to bfsim's formats"},
    {"info", cmd_info, "statistics of a trace"},
    {"gen-trace", cmd_gen_trace, "generate a synthetic trace"},
    {"sweep", cmd_sweep, "run replays over a grid of options, resumably"},
};

static void usage(FILE *f)
{
    fprintf(f, "Usage: bfsim [--help] [--version] COMMAND [OPTIONS]\n"
               "\n"
               "Trace-driven simulator of backfill training on idle HPC "
               "nodes.\n"
               "\n"
               "Commands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
        fprintf(f, "  %-10s  %s\n", commands[i].name, commands[i].summary);
    fprintf(f, "\n"
               "Run `bfsim COMMAND --help` for a command's options, and see "
               "bfsim(1).\n");
}

int cmd_report(const struct bfs_error *e, int code)
{
    if (e && e->msg[0])
        fprintf(stderr, "bfsim: %s\n", e->msg);
    else
        fprintf(stderr, "bfsim: %s\n", bfs_strerror(code));
    /* The one place that turns a library error into the usage status. */
    return code == BFS_EUSAGE ? CMD_USAGE : CMD_FAIL;
}

int cmd_usage_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;

    fprintf(stderr, "bfsim %s: ", cmd);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\nTry `bfsim %s --help`.\n", cmd);
    return CMD_USAGE;
}

char *cmd_data_path(const char *rel)
{
    const char *env = getenv("BFSIM_DATADIR");
    const char *dirs[2] = {BFS_PKGDATADIR, BFS_SRCDIR};
    char *p;
    struct stat st;

    if (env && *env) {
        p = xmalloc(strlen(env) + strlen(rel) + 2);
        sprintf(p, "%s/%s", env, rel);
        return p;
    }
    for (int i = 0; i < 2; i++) {
        p = xmalloc(strlen(dirs[i]) + strlen(rel) + 2);
        sprintf(p, "%s/%s", dirs[i], rel);
        if (stat(p, &st) == 0 || i == 1)
            return p;
        xfree(p);
    }
    return NULL; /* not reached */
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return CMD_USAGE;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
        strcmp(argv[1], "help") == 0) {
        usage(stdout);
        return CMD_OK;
    }
    if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0) {
        printf("bfsim %s\n", PACKAGE_VERSION);
        return CMD_OK;
    }
    for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
        if (strcmp(argv[1], commands[i].name) == 0)
            return commands[i].run(argc - 1, argv + 1);
    fprintf(stderr, "bfsim: unknown command '%s'\n", argv[1]);
    usage(stderr);
    return CMD_USAGE;
}
