/* error.c - the message table generated from BFS_ERRORS and the report
 * helpers.  A report keeps its first message: errors are reported where
 * they are detected, with the most context, and the callers above only
 * pass the code up. */
#include "base/error.h"

#include <stdio.h>
#include <string.h>

const char *bfs_strerror(int code)
{
    switch (code) {
#define BFS_ERR_CASE(name, value, msg)                                         \
    case value:                                                                \
        return msg;
        BFS_ERRORS(BFS_ERR_CASE)
#undef BFS_ERR_CASE
    }
    return "unknown error";
}

void bfs_error_clear(struct bfs_error *e)
{
    if (e) {
        e->code = 0;
        e->msg[0] = '\0';
    }
}

static int vfail(struct bfs_error *e, int code, const char *file, size_t line,
                 const char *fmt, va_list ap)
{
    size_t off = 0;

    if (!e || e->msg[0] != '\0')
        return code;
    e->code = code;
    if (file) {
        int n = line ? snprintf(e->msg, sizeof e->msg, "%s:%zu: ", file, line)
                     : snprintf(e->msg, sizeof e->msg, "%s: ", file);
        off = n < 0 ? 0 : (size_t)n;
        if (off >= sizeof e->msg)
            off = sizeof e->msg - 1;
    }
    vsnprintf(e->msg + off, sizeof e->msg - off, fmt, ap);
    return code;
}

int bfs_fail(struct bfs_error *e, int code, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vfail(e, code, NULL, 0, fmt, ap);
    va_end(ap);
    return code;
}

int bfs_fail_at(struct bfs_error *e, int code, const char *file, size_t line,
                const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vfail(e, code, file, line, fmt, ap);
    va_end(ap);
    return code;
}
