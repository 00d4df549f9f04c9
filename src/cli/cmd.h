/* cmd.h - the subcommands of the bfsim program.  Each takes the command
 * line after the subcommand's name (argv[0] is the name) and returns the
 * process exit status.  They are the only code that prints to the user. */
#ifndef BFS_CMD_H
#define BFS_CMD_H

#include <stddef.h>
#include <stdio.h>

#include "base/error.h"
#include "base/paths.h"

/* Exit statuses: 0 success, 1 failure, 2 usage error. */
enum { CMD_OK = 0, CMD_FAIL = 1, CMD_USAGE = 2 };

int cmd_replay(int argc, char **argv);
int cmd_convert(int argc, char **argv);
int cmd_info(int argc, char **argv);
int cmd_gen_trace(int argc, char **argv);
int cmd_solve(int argc, char **argv);
int cmd_sweep(int argc, char **argv);
int cmd_curves(int argc, char **argv);

/* Prints "bfsim: MESSAGE" for e (or the code's message) on stderr and
 * returns the exit status: CMD_USAGE for BFS_EUSAGE (a bad command-line
 * value found by the library), else CMD_FAIL. */
int cmd_report(const struct bfs_error *e, int code);

/* Prints "bfsim CMD: MESSAGE" and a pointer to `bfsim CMD --help` on
 * stderr; returns CMD_USAGE. */
int cmd_usage_error(const char *cmd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

struct options_command;

/* Reads the command line into a by c's records (options_parse).
 * Returns 1 with *first the index of the first operand when the command
 * is to run on; or 0 when it is done, with *status its exit status:
 * CMD_USAGE after printing the usage error ("bfsim NAME: ..."), or, for
 * -h, that of help(stdout) (NULL: options_help's, CMD_OK or CMD_FAIL). */
int cmd_parse(const struct options_command *c, int (*help)(FILE *f), int argc,
              char **argv, void *a, int *first, int *status);

/* The usage error for getopt_long()'s return c after a bad option,
 * argv[optind - 1]: c is ':' for an option missing its value, anything
 * else for an unknown option.  Returns CMD_USAGE. */
int cmd_option_error(const char *cmd, int c, char **argv);

/* Checks that exactly one operand, named what (e.g. "TRACE"), follows
 * the options (argv[optind]).  Returns 0, or CMD_USAGE after printing
 * "no WHAT given" or "more than one WHAT given". */
int cmd_one_operand(const char *cmd, int argc, const char *what);

/* Checks the n files a command reads and writes (base/paths.h) before
 * it opens any: returns 0, or CMD_USAGE after printing the conflict (an
 * output over an input or over another output, an empty file name). */
int cmd_check_paths(const char *cmd, const struct bfs_paths_role *r, size_t n);

/* The data directory (bundled traces, job sets, tools), malloc'd: the
 * first of $BFSIM_DATADIR; the source tree, when the program runs from
 * its build directory; BIN/../share/bfsim, when the program is in a
 * folder BIN named bin (an installation, even one moved elsewhere); the
 * configured $(pkgdatadir) if it exists; the source tree. */
char *cmd_data_dir(void);

/* Path of a bundled data file (relative to the data directory, e.g.
 * "traces/summit-2021-02.trace.gz"), malloc'd. */
char *cmd_data_path(const char *rel);

/* A bundled trace or job set named without a path: when arg names no
 * existing file, holds no '/' and is neither "" nor "-", the first of
 * DATADIR/traces/ARG, ARG.gz, ARG.trace, ARG.trace.gz that is a file
 * (job sets: DATADIR/datasets/ARG... .jobs).  Returns 0 with *out that
 * path (malloc'd), or NULL when arg is to be used as it is; or
 * BFS_ENOTFOUND when no bundled file matches either, with a message in e
 * naming option and arg and listing the bundled names ("--trace x: no
 * such file, nor a bundled trace of that name (bundled traces:
 * summit-2021-02)"). */
int cmd_bundled_trace(const char *option, const char *arg, char **out,
                      struct bfs_error *e);
int cmd_bundled_jobs(const char *option, const char *arg, char **out,
                     struct bfs_error *e);

#endif
