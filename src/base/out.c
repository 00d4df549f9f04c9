/* out.c - see out.h.
 *
 * Design: open decides once what the path names (after following its
 * symbolic links by hand, so that the temporary file lands beside the
 * file that will be replaced, on the same file system) and either
 * creates the temporary file with mkstemp or, for a text stream over a
 * device or FIFO, opens the path in place.  Commit makes the data
 * durable before it becomes visible (fsync, then rename), gives the file
 * the usual mode (mkstemp creates 0600), and looks at the target once
 * more, so that no rename ever replaces anything but a regular file.
 * Every failure path removes the temporary file and zeroes the struct.
 */
#include "config.h"

#include "base/out.h"
#include "base/util.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Most symbolic links followed before giving up, as the kernel does. */
#define OUT_MAX_LINKS 40

/* The file path names once its symbolic links are followed (malloc'd):
 * path itself when it is not a link (or does not exist).  Returns NULL
 * with *err set on a loop or an unreadable link. */
static char *resolve(const char *path, int *err)
{
    char *cur = xstrdup(path);

    for (int hop = 0; hop < OUT_MAX_LINKS; hop++) {
        struct stat st;
        char buf[PATH_MAX], *next;
        const char *slash;
        ssize_t n;

        if (lstat(cur, &st) != 0 || !S_ISLNK(st.st_mode))
            return cur;
        n = readlink(cur, buf, sizeof buf - 1);
        if (n < 0 || (size_t)n >= sizeof buf - 1) {
            *err = n < 0 ? errno : ENAMETOOLONG;
            xfree(cur);
            return NULL;
        }
        buf[n] = '\0';
        slash = strrchr(cur, '/');
        if (buf[0] == '/' || !slash) {
            next = xstrdup(buf);
        } else { /* relative to the link's own directory */
            size_t dlen = (size_t)(slash - cur) + 1;
            next = xmalloc(dlen + (size_t)n + 1);
            memcpy(next, cur, dlen);
            memcpy(next + dlen, buf, (size_t)n + 1);
        }
        xfree(cur);
        cur = next;
    }
    *err = ELOOP;
    xfree(cur);
    return NULL;
}

static void out_clear(struct bfs_out *o)
{
    xfree(o->path);
    xfree(o->tmp);
    xfree(o->target);
    memset(o, 0, sizeof *o);
}

/* Whether target exists and is something other than a regular file. */
static int not_regular(const char *target)
{
    struct stat st;

    return stat(target, &st) == 0 && !S_ISREG(st.st_mode);
}

int bfs_out_open_mode(struct bfs_out *o, const char *path,
                      enum bfs_out_mode mode, struct bfs_error *e)
{
    int fd, err = 0;

    memset(o, 0, sizeof *o);
    if (strcmp(path, "-") == 0) {
        if (mode != BFS_OUT_TEXT)
            return bfs_fail_at(e, BFS_EIO, path, 0,
                               "this output needs a file name, not "
                               "standard output");
        o->path = xstrdup(path);
        o->fp = stdout; /* check-deps: dash-stdout */
        return 0;
    }
    o->path = xstrdup(path);
    o->target = resolve(path, &err);
    if (!o->target) {
        out_clear(o);
        return bfs_fail_at(e, BFS_EIO, path, 0, "cannot follow the link: %s",
                           strerror(err));
    }
    if (not_regular(o->target)) {
        if (mode != BFS_OUT_TEXT) {
            out_clear(o);
            return bfs_fail_at(e, BFS_EIO, path, 0, "not a regular file");
        }
        /* A device or a FIFO (/dev/null, /dev/stdout) is written in
         * place: renaming over it would replace it. */
        o->fp = fopen(path, "w");
        if (!o->fp) {
            err = errno;
            out_clear(o);
            return bfs_fail_at(e, BFS_EIO, path, 0, "cannot open: %s",
                               strerror(err));
        }
        xfree(o->target);
        o->target = NULL;
        o->direct = 1;
        return 0;
    }
    o->tmp = xasprintf("%s.tmp.XXXXXX", o->target);
    fd = mkstemp(o->tmp);
    if (fd >= 0 && mode == BFS_OUT_PATH) {
        if (close(fd) == 0)
            return 0;
        err = errno;
        unlink(o->tmp);
        out_clear(o);
        return bfs_fail_at(e, BFS_EIO, path, 0, "cannot create: %s",
                           strerror(err));
    }
    if (fd < 0 || !(o->fp = fdopen(fd, "w"))) {
        err = errno;
        if (fd >= 0) {
            close(fd);
            unlink(o->tmp);
        }
        out_clear(o);
        return bfs_fail_at(e, BFS_EIO, path, 0, "cannot create: %s",
                           strerror(err));
    }
    return 0;
}

int bfs_out_open(struct bfs_out *o, const char *path, struct bfs_error *e)
{
    return bfs_out_open_mode(o, path, BFS_OUT_TEXT, e);
}

/* Flushes and closes (or only flushes, for standard output) a stream
 * written in place. */

/* Syncs the temporary file of a BFS_OUT_PATH output, which its writer
 * has closed. */
static int sync_path(const struct bfs_out *o, struct bfs_error *e)
{
    int fd = open(o->tmp, O_RDONLY), rc = 0;

    if (fd < 0 || fsync(fd) != 0)
        rc = bfs_fail_at(e, BFS_EIO, o->path, 0, "cannot sync: %s",
                         strerror(errno));
    if (fd >= 0)
        close(fd);
    return rc;
}

int bfs_out_finish(struct bfs_out *o, struct bfs_error *e)
{
    int rc = 0;

    if (o->finished)
        return 0;
    if (o->fp) {
        if (fflush(o->fp) != 0 || ferror(o->fp) ||
            (o->tmp && fsync(fileno(o->fp)) != 0))
            rc = bfs_fail_at(e, BFS_EIO, o->path, 0, "write error: %s",
                             strerror(errno));
        /* standard output stays open */
        if ((o->tmp || o->direct) && fclose(o->fp) != 0 && rc == 0)
            rc = bfs_fail_at(e, BFS_EIO, o->path, 0, "write error: %s",
                             strerror(errno));
        o->fp = NULL;
    } else if (o->tmp) {
        rc = sync_path(o, e);
    }
    o->finished = rc == 0;
    return rc;
}

int bfs_out_commit(struct bfs_out *o, struct bfs_error *e)
{
    int rc = bfs_out_finish(o, e);

    if (o->tmp && rc == 0) {
        /* mkstemp creates 0600; give the result the usual mode. */
        mode_t mask = umask(0);
        umask(mask);
        chmod(o->tmp, 0666 & ~mask);
        if (not_regular(o->target))
            rc = bfs_fail_at(e, BFS_EIO, o->path, 0, "not a regular file");
        else if (rename(o->tmp, o->target) != 0)
            rc = bfs_fail_at(e, BFS_EIO, o->path, 0, "cannot rename %s: %s",
                             o->tmp, strerror(errno));
    }
    if (o->tmp && rc)
        unlink(o->tmp);
    out_clear(o);
    return rc;
}

void bfs_out_abort(struct bfs_out *o)
{
    /* standard output stays open */
    if (o->fp && (o->tmp || o->direct))
        fclose(o->fp);
    if (o->tmp)
        unlink(o->tmp);
    o->fp = NULL;
    out_clear(o);
}
