/* cmd.h - the subcommands of the bfsim program.  Each takes the command
 * line after the subcommand's name (argv[0] is the name) and returns the
 * process exit status.  They are the only code that prints to the user. */
#ifndef BFS_CMD_H
#define BFS_CMD_H

#include <stddef.h>

#include "base/error.h"

/* Exit statuses: 0 success, 1 failure, 2 usage error. */
enum { CMD_OK = 0, CMD_FAIL = 1, CMD_USAGE = 2 };

int cmd_replay(int argc, char **argv);
int cmd_convert(int argc, char **argv);
int cmd_info(int argc, char **argv);
int cmd_gen_trace(int argc, char **argv);
int cmd_solve(int argc, char **argv);
int cmd_sweep(int argc, char **argv);

/* Prints "bfsim: MESSAGE" for e (or the code's message) on stderr and
 * returns the exit status: CMD_USAGE for BFS_EUSAGE (a bad command-line
 * value found by the library), else CMD_FAIL. */
int cmd_report(const struct bfs_error *e, int code);

/* Prints "bfsim CMD: MESSAGE" and a pointer to `bfsim CMD --help` on
 * stderr; returns CMD_USAGE. */
int cmd_usage_error(const char *cmd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Path of a bundled data file (relative to the data directory, e.g.
 * "traces/summit-2021-02.trace.gz"): $BFSIM_DATADIR if set, else the
 * installed data directory if the file is there, else the source tree.
 * Returns a malloc'd string. */
char *cmd_data_path(const char *rel);

#endif
