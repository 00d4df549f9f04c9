/* error.h - error codes and error reports shared by every module.
 *
 * Functions return 0 on success or a negative BFS_E* code.  Errors the
 * input can cause also fill a struct bfs_error with a message that names
 * the file, the line and the problem ("jobs.csv:12: Jmin 5 > Jmax 4"),
 * ready to be printed by main.c, the only place that talks to the user.
 * BFS_EUSAGE is for a value given on the command line (an unknown name,
 * a count out of range, an option the chosen method ignores): the program
 * then exits with status 2, like getopt's own errors.
 */
#ifndef BFS_ERROR_H
#define BFS_ERROR_H

#include <stdarg.h>
#include <stddef.h>

/* X(name, value, message): the one list of error codes. */
#define BFS_ERRORS(X)                                                          \
    X(OK, 0, "success")                                                        \
    X(EIO, -1, "input/output error")                                           \
    X(EPARSE, -2, "malformed input")                                           \
    X(ERANGE, -3, "value out of range")                                        \
    X(EINVAL, -4, "invalid argument")                                          \
    X(ENOTFOUND, -5, "not found")                                              \
    X(EUNSUP, -6, "not supported")                                             \
    X(ESOLVER, -7, "solver failure")                                           \
    X(EINTR, -8, "interrupted")                                                \
    X(EUSAGE, -9, "usage error")

enum bfs_errcode {
#define BFS_ERR_ENUM(name, value, msg) BFS_##name = value,
    BFS_ERRORS(BFS_ERR_ENUM)
#undef BFS_ERR_ENUM
};

/* The message of a code; never NULL ("unknown error" for foreign codes). */
const char *bfs_strerror(int code);

/* An error report.  msg is empty until a function fails. */
struct bfs_error {
    int code;
    char msg[1024];
};

/* Clears a report. */
void bfs_error_clear(struct bfs_error *e);

/* Records code and a printf-style message in e (if e is not NULL) and
 * returns code, so that callers can write "return bfs_fail(e, ...);".
 * Only the first failure is kept: a report already holding an error is
 * not overwritten, so the innermost, most precise message wins. */
int bfs_fail(struct bfs_error *e, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Like bfs_fail, prefixed with "FILE:LINE: " (line 0 leaves it out). */
int bfs_fail_at(struct bfs_error *e, int code, const char *file, size_t line,
                const char *fmt, ...) __attribute__((format(printf, 5, 6)));

#endif
