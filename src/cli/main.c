/* main.c - the bfsim program: global options and subcommand dispatch.
 *
 * git-style: `bfsim [--help|--version|--datadir|--measures] COMMAND
 * [OPTIONS]`.  Each
 * command lives in src/cli/cmd_<name>.c and parses its own options; the
 * code they call is in the library (libbfsim.a) that the tests link too.
 * The data directory is found at run time (cmd_data_dir), so that an
 * installation works from any prefix and after it is moved.
 */
#include "config.h"

#include "cli/cmd.h"
#include "base/csv.h"
#include "base/util.h"
#include "engine/measures.h"
#include "engine/options.h"

#include <dirent.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const struct command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
} commands[] = {
    {"replay", cmd_replay, "replay a node trace with elastic training jobs"},
    {"solve", cmd_solve, "solve one allocation instance, or a corpus"},
    {"convert", cmd_convert, "convert traces and job sets to bfsim's formats"},
    {"info", cmd_info, "statistics of a trace"},
    {"gen-trace", cmd_gen_trace, "generate a synthetic trace"},
    {"sweep", cmd_sweep, "run replays over a grid of options, resumably"},
    {"curves", cmd_curves, "fit scalability models to a job set's curves"},
};

static void usage(FILE *f)
{
    fprintf(f, "Usage: bfsim [--help] [--version] [--datadir] [--measures] "
               "COMMAND [OPTIONS]\n"
               "\n"
               "Trace-driven simulator of backfill training on idle HPC "
               "nodes.\n"
               "\n"
               "Commands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
        fprintf(f, "  %-10s  %s\n", commands[i].name, commands[i].summary);
    fprintf(f, "\n"
               "--datadir prints the folder of the bundled traces, job sets "
               "and tools.\n"
               "--measures prints the table of measures as CSV (key, type, "
               "unit, machine,\ndescribes, definition), for figures' labels "
               "(bfsim-plot).\n"
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

int cmd_parse(const struct options_command *c, int (*help)(FILE *f), int argc,
              char **argv, void *a, int *first, int *status)
{
    struct bfs_error e;
    int h;

    bfs_error_clear(&e);
    if (options_parse(c, argc, argv, a, NULL, &h, first, &e) != 0) {
        *status = cmd_usage_error(c->name, "%s", e.msg);
        return 0;
    }
    if (!h)
        return 1;
    if (help)
        *status = help(stdout);
    else
        *status = options_help(c, stdout) ? CMD_FAIL : CMD_OK;
    return 0;
}

int cmd_option_error(const char *cmd, int c, char **argv)
{
    if (c == ':')
        return cmd_usage_error(cmd, "option %s needs a value",
                               argv[optind - 1]);
    return cmd_usage_error(cmd, "unknown option '%s'", argv[optind - 1]);
}

int cmd_one_operand(const char *cmd, int argc, const char *what)
{
    if (argc == optind)
        return cmd_usage_error(cmd, "no %s given", what);
    if (argc - optind > 1)
        return cmd_usage_error(cmd, "more than one %s given", what);
    return 0;
}

int cmd_check_paths(const char *cmd, const struct bfs_paths_role *r, size_t n)
{
    struct bfs_error e;

    bfs_error_clear(&e);
    if (bfs_paths_check(r, n, &e) != 0)
        return cmd_usage_error(cmd, "%s", e.msg);
    return 0;
}

/* Whether path is a directory. */
static int is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The folder of the running executable (from /proc/self/exe), malloc'd,
 * or NULL when it cannot be read. */
static char *exe_dir(void)
{
    char buf[4096];
    ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
    char *slash;

    if (n <= 0 || (size_t)n >= sizeof buf - 1)
        return NULL;
    buf[n] = '\0';
    slash = strrchr(buf, '/');
    if (!slash)
        return NULL;
    *slash = '\0';
    return xstrdup(buf[0] ? buf : "/");
}

/* "a/b", malloc'd. */
static char *join(const char *a, const char *b)
{
    return xasprintf("%s/%s", a, b);
}

char *cmd_data_dir(void)
{
    const char *env = getenv("BFSIM_DATADIR");
    char *dir = exe_dir(), *p, build[PATH_MAX];
    size_t n;

    if (env && *env) {
        xfree(dir);
        return xstrdup(env);
    }
    /* A build run from its build directory reads its source tree
     * (/proc/self/exe has its links resolved: so must the build path). */
    if (dir && realpath(BFS_BUILDDIR, build) && strcmp(dir, build) == 0 &&
        is_dir(BFS_SRCDIR "/traces")) {
        xfree(dir);
        return xstrdup(BFS_SRCDIR);
    }
    /* An installation, wherever it now is: BIN/../share/bfsim. */
    n = dir ? strlen(dir) : 0;
    if (n >= 4 && strcmp(dir + n - 4, "/bin") == 0) {
        p = join(dir, "../share/" PACKAGE);
        if (is_dir(p)) {
            dir[n - 4] = '\0';
            xfree(p);
            p = join(dir, "share/" PACKAGE);
            xfree(dir);
            return p;
        }
        xfree(p);
    }
    xfree(dir);
    if (is_dir(BFS_PKGDATADIR))
        return xstrdup(BFS_PKGDATADIR);
    return xstrdup(BFS_SRCDIR);
}

char *cmd_data_path(const char *rel)
{
    char *dir = cmd_data_dir(), *p = join(dir, rel);

    xfree(dir);
    return p;
}

/* The compression suffixes a bundled file may have, "" (plain) first:
 * the order in which a name is looked up. */
static const char *const bundled_z[] = {"", ".gz", ".zst"};
#define N_BUNDLED_Z (sizeof bundled_z / sizeof *bundled_z)

/* The bundled names in dir, folder (files NAMEext, NAMEext.gz or
 * NAMEext.zst), sorted and ", "-separated (malloc'd); "none" when there
 * are none. */
static char *bundled_names(const char *dir, const char *ext)
{
    DIR *d = opendir(dir);
    struct dirent *de;
    char **names = NULL, *list;
    size_t n = 0, cap = 0, len = 8, el = strlen(ext);

    while (d && (de = readdir(d)) != NULL) {
        size_t k = strlen(de->d_name);
        for (size_t z = 1; z < N_BUNDLED_Z; z++) {
            size_t zl = strlen(bundled_z[z]);
            if (k > zl && strcmp(de->d_name + k - zl, bundled_z[z]) == 0) {
                k -= zl;
                break;
            }
        }
        if (k <= el || strncmp(de->d_name + k - el, ext, el) != 0)
            continue;
        BFS_GROW(names, cap, n + 1);
        names[n] = xstrdup(de->d_name);
        names[n][k - el] = '\0';
        len += k - el + 2;
        n++;
    }
    if (d)
        closedir(d);
    if (n > 1)
        qsort(names, n, sizeof *names, bfs_cmp_str);
    list = xmalloc(len);
    strcpy(list, n ? "" : "none");
    for (size_t i = 0; i < n; i++) {
        /* NAME.gz beside NAME.zst: one name */
        if (i == 0 || strcmp(names[i], names[i - 1]) != 0) {
            if (i)
                strcat(list, ", ");
            strcat(list, names[i]);
        }
    }
    xfree_strv(names, n);
    return list;
}

/* cmd_bundled_trace and cmd_bundled_jobs, of the files NAMEext in
 * DATADIR/folder, called kind in messages. */
static int bundled(const char *option, const char *arg, const char *folder,
                   const char *ext, const char *kind, char **out,
                   struct bfs_error *e)
{
    struct stat st;
    char *dir, *p, *names;
    int rc;

    if (!*arg || strcmp(arg, "-") == 0 || stat(arg, &st) == 0 ||
        strchr(arg, '/')) {
        *out = NULL;
        return 0;
    }
    dir = cmd_data_dir();
    for (int with_ext = 0; with_ext < 2; with_ext++)
        for (size_t z = 0; z < N_BUNDLED_Z; z++) {
            p = xasprintf("%s/%s/%s%s%s", dir, folder, arg, with_ext ? ext : "",
                          bundled_z[z]);
            if (stat(p, &st) == 0 && S_ISREG(st.st_mode)) {
                xfree(dir);
                *out = p;
                return 0;
            }
            xfree(p);
        }
    p = join(dir, folder);
    names = bundled_names(p, ext);
    rc = bfs_fail(e, BFS_ENOTFOUND,
                  "%s %s: no such file, nor a bundled %s of that name "
                  "(bundled %ss: %s)",
                  option, arg, kind, kind, names);
    xfree(names);
    xfree(p);
    xfree(dir);
    return rc;
}

int cmd_bundled_trace(const char *option, const char *arg, char **out,
                      struct bfs_error *e)
{
    return bundled(option, arg, "traces", ".trace", "trace", out, e);
}

int cmd_bundled_jobs(const char *option, const char *arg, char **out,
                     struct bfs_error *e)
{
    return bundled(option, arg, "datasets", ".jobs", "job set", out, e);
}

/* `bfsim --measures`: the measures table (engine/measures.c), one CSV row
 * per measure in table order. */
static int print_measures(void)
{
    static const char *const types[] = {
        [MEASURE_INT] = "int",   [MEASURE_REAL] = "real",
        [MEASURE_TIME] = "time", [MEASURE_BOOL] = "bool",
        [MEASURE_TEXT] = "text",
    };

    puts("key,type,unit,machine,describes,definition");
    for (size_t i = 0; i < measures_n; i++) {
        const struct measure *m = &measures[i];
        csv_field(stdout, m->key);
        printf(",%s,", types[m->type]);
        csv_field(stdout, m->unit);
        printf(",%d,%d,", (m->flags & MEASURE_MACHINE) ? 1 : 0,
               (m->flags & MEASURE_DESCRIBES) ? 1 : 0);
        csv_field(stdout, m->def);
        putchar('\n');
    }
    return fflush(stdout) == 0 && !ferror(stdout) ? CMD_OK : CMD_FAIL;
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
    if (strcmp(argv[1], "--datadir") == 0) {
        char *d = cmd_data_dir();
        printf("%s\n", d);
        xfree(d);
        return CMD_OK;
    }
    if (strcmp(argv[1], "--measures") == 0)
        return print_measures();
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
