/* paths.c - see paths.h.
 *
 * Design: every path is looked at once (stat, and its canonical name:
 * realpath() of the path, or of its folder when the path does not exist
 * yet, so that "x" and "./x" meet before either is created), then every
 * output is compared with every input and with every output before it.
 * Nothing is opened or created; a path whose folder does not exist has
 * no canonical name and is compared as given (its output will fail to
 * open anyway).
 */
#include "config.h"

#include "base/paths.h"
#include "base/util.h"

#include <fnmatch.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* What one path names. */
struct seen {
    char *canon; /* owned; canonical name, or NULL */
    int exists;  /* st is valid */
    int exempt;  /* "-" or a character device: never in conflict */
    struct stat st;
};

/* The canonical name of path (malloc'd): realpath() when it exists, else
 * the canonical name of its folder joined with its last component; NULL
 * when neither resolves. */
static char *canon_name(const char *path)
{
    char *r = realpath(path, NULL), *dir, *d;
    const char *slash, *base;
    size_t dl;

    if (r)
        return r;
    slash = strrchr(path, '/');
    base = slash ? slash + 1 : path;
    if (!*base || strcmp(base, ".") == 0 || strcmp(base, "..") == 0)
        return NULL;
    if (!slash)
        dir = xstrdup(".");
    else if (slash == path)
        dir = xstrdup("/");
    else {
        dir = xmalloc((size_t)(slash - path) + 1);
        memcpy(dir, path, (size_t)(slash - path));
        dir[slash - path] = '\0';
    }
    d = realpath(dir, NULL);
    xfree(dir);
    if (!d)
        return NULL;
    dl = strlen(d);
    r = xasprintf("%s%s%s", d, d[dl - 1] == '/' ? "" : "/", base);
    free(d); /* realpath's */
    return r;
}

/* Whether the file f (canonical name canon) lies in the folder d of role
 * rd and matches its member pattern. */
static int is_member(const struct bfs_paths_role *rd, const struct seen *d,
                     const struct seen *f)
{
    const char *slash;
    size_t dl;

    if (!rd->member || !d->exists || !S_ISDIR(d->st.st_mode) || !d->canon ||
        !f->canon)
        return 0;
    slash = strrchr(f->canon, '/');
    if (!slash)
        return 0;
    dl = (size_t)(slash - f->canon);
    /* the folder "/" is canonically "/", its files "/x" */
    if (!(dl == 0
              ? strcmp(d->canon, "/") == 0
              : strlen(d->canon) == dl && strncmp(d->canon, f->canon, dl) == 0))
        return 0;
    return fnmatch(rd->member, slash + 1, 0) == 0;
}

/* The conflict of output a with b (an input, or an earlier output), as a
 * message in e, or 0 when there is none. */
static int conflict(const struct bfs_paths_role *ra, const struct seen *a,
                    const struct bfs_paths_role *rb, const struct seen *b,
                    struct bfs_error *e)
{
    const char *why = rb->output ? "two outputs may not share a file"
                                 : "an output may not replace an input";

    if (strcmp(ra->path, rb->path) == 0)
        return bfs_fail(e, BFS_EUSAGE, "%s and %s both name '%s': %s",
                        ra->option, rb->option, ra->path, why);
    if ((a->canon && b->canon && strcmp(a->canon, b->canon) == 0) ||
        (a->exists && b->exists && a->st.st_dev == b->st.st_dev &&
         a->st.st_ino == b->st.st_ino))
        return bfs_fail(e, BFS_EUSAGE,
                        "%s '%s' and %s '%s' are the same file: %s", ra->option,
                        ra->path, rb->option, rb->path, why);
    if (is_member(rb, b, a))
        return bfs_fail(
            e, BFS_EUSAGE, "%s '%s' is one of the %s files of %s '%s': %s",
            ra->option, ra->path, rb->member, rb->option, rb->path, why);
    if (is_member(ra, a, b))
        return bfs_fail(
            e, BFS_EUSAGE, "%s '%s' is one of the %s files of %s '%s': %s",
            rb->option, rb->path, ra->member, ra->option, ra->path, why);
    return 0;
}

int bfs_paths_check(const struct bfs_paths_role *r, size_t n,
                    struct bfs_error *e)
{
    struct seen *s;
    int rc = 0;

    for (size_t i = 0; i < n; i++)
        if (r[i].path && !r[i].path[0])
            return bfs_fail(e, BFS_EUSAGE, "%s: empty file name", r[i].option);
    s = xcalloc(n + 1, sizeof *s);
    for (size_t i = 0; i < n; i++) {
        if (!r[i].path)
            continue;
        s[i].exists = stat(r[i].path, &s[i].st) == 0;
        s[i].exempt = strcmp(r[i].path, "-") == 0 ||
                      (s[i].exists && S_ISCHR(s[i].st.st_mode));
        if (!s[i].exempt)
            s[i].canon = canon_name(r[i].path);
    }
    for (size_t i = 0; i < n && rc == 0; i++) {
        if (!r[i].path || !r[i].output || s[i].exempt)
            continue;
        for (size_t k = 0; k < n && rc == 0; k++)
            if (k != i && r[k].path && !s[k].exempt && (!r[k].output || k < i))
                rc = conflict(&r[i], &s[i], &r[k], &s[k], e);
    }
    for (size_t i = 0; i < n; i++)
        free(s[i].canon); /* realpath's or xmalloc's */
    xfree(s);
    return rc;
}
