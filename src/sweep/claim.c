/* claim.c - claims of sweep runs by workers on a shared file system.
 *
 * Design: every attempt at a run gets its own claim file, claim.N, N one
 * more than the run's last claim; the claim is made by creating that file
 * exclusively, so that of several workers racing for a run (a pending run,
 * or a stale claim to take over) exactly one creates claim.N and the
 * others see it exist and move on.  Nobody renames or removes a claim:
 * taking over a stale claim.N is creating claim.N+1, which is exactly as
 * atomic as the first claim, and the dead worker's file stays as the
 * record of its attempt.
 *
 * The exclusive create is link-then-stat, the recipe open(2) gives for
 * NFS: the claim is written to a file of a name unique to this host, pid
 * and call, link()ed to claim.N, and the unique file's link count decides
 * (2: ours), whatever link() returned (over NFS a retried LINK may report
 * EEXIST for a link it made).  It assumes only that link() is atomic on
 * the file system, which NFS (v2 and up) and Lustre guarantee; no lock
 * (flock, fcntl) is used.  Heartbeats set the claim's mtime (utimensat),
 * and a claim is stale when its mtime is older than the lease by the
 * reader's clock: the hosts' clocks (and the file server's) must agree to
 * well within the lease (NTP does).
 *
 * Each claim has one writer, its worker, which appends one "end" line
 * when the attempt ends; readers take a claim without one as open.  A
 * worker that dies between its replay's end and that line leaves an open
 * claim on a complete run; the worker that next meets it stale does not
 * write into it but takes the next claim and ends that one at once,
 * "done ... reconciled" (claim_reconciled; work.c decides when).  The
 * same exclusive create (claim_create) makes a sweep folder's record.
 */
#include "config.h"

#include "sweep/claim.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/util.h"

static const char *const end_names[] = {"open", "done", "failed", "stopped",
                                        "lost"};

const char *claim_end_name(enum claim_end end)
{
    return end_names[end];
}

double claim_now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_REALTIME, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void claim_host(char *buf, size_t size)
{
    if (gethostname(buf, size) != 0 || !buf[0])
        snprintf(buf, size, "localhost");
    buf[size - 1] = '\0';
    /* one word in the claim's "host" line, and in file names (run.c
     * names an attempt's files after it) */
    for (char *c = buf; *c; c++)
        if (*c == ' ' || *c == '\t' || *c == '\n' || *c == '/')
            *c = '_';
}

static char *claim_path(const char *dir, int gen)
{
    return xasprintf("%s/claim.%d", dir, gen);
}

static double mtime_of(const struct stat *st)
{
    return (double)st->st_mtim.tv_sec + (double)st->st_mtim.tv_nsec * 1e-9;
}

/* Parses one claim file into c (all but gen and n_failed). */
static int parse_claim(const char *path, struct claim_info *c,
                       struct bfs_error *e)
{
    FILE *f = fopen(path, "r");
    char line[512];
    size_t ln = 0;
    int have = 0;
    struct stat st;

    if (!f)
        return bfs_fail_at(e, BFS_EIO, path, 0, "cannot open: %s",
                           strerror(errno));
    if (fstat(fileno(f), &st) != 0) {
        fclose(f);
        return bfs_fail_at(e, BFS_EIO, path, 0, "%s", strerror(errno));
    }
    c->beat = mtime_of(&st);
    c->end = CLAIM_OPEN;
    c->seconds = 0;
    c->reconciled = 0;
    while (fgets(line, sizeof line, f)) {
        char word[32], status[32], note[32];
        double t, secs;
        int n;

        ln++;
        if (ln == 1) {
            if (strcmp(line, "bfsim-claim 1\n") != 0)
                break;
            have |= 1;
        } else if (sscanf(line, "host %255s", c->host) == 1) {
            have |= 2;
        } else if (sscanf(line, "pid %ld", &c->pid) == 1) {
            have |= 4;
        } else if (sscanf(line, "start %lf", &c->start) == 1) {
            have |= 8;
        } else if ((n = sscanf(line, "%31s %lf %31s %lf %31s", word, &t, status,
                               &secs, note)) >= 4 &&
                   strcmp(word, "end") == 0) {
            c->end = CLAIM_OPEN;
            for (int i = CLAIM_DONE; i <= CLAIM_LOST; i++)
                if (strcmp(status, end_names[i]) == 0)
                    c->end = (enum claim_end)i;
            if (c->end == CLAIM_OPEN)
                break;
            c->seconds = secs;
            c->reconciled = n == 5 && strcmp(note, "reconciled") == 0;
        } else if (line[strlen(line) - 1] == '\n') {
            break; /* a complete line that is none of the above */
        }
    }
    fclose(f);
    /* An unfinished last line is an end being appended: the claim is
     * still open as far as this reader knows. */
    if ((have & 15) != 15)
        return bfs_fail_at(e, BFS_EPARSE, path, ln ? ln : 1,
                           "not a bfsim claim (bfsim-claim 1, host, pid, "
                           "start)");
    return 0;
}

int claim_read_one(const char *dir, int gen, struct claim_info *out,
                   struct bfs_error *e)
{
    char *p = claim_path(dir, gen);
    struct claim_info c;
    struct stat st;
    int rc = 0;

    memset(&c, 0, sizeof c);
    c.gen = gen;
    if (stat(p, &st) != 0) {
        if (errno == ENOENT || errno == ENOTDIR)
            c.gen = -1;
        else
            rc = bfs_fail_at(e, BFS_EIO, dir, 0, "claim.%d: %s", gen,
                             strerror(errno));
    } else {
        rc = parse_claim(p, &c, e);
    }
    xfree(p);
    if (rc == 0)
        *out = c;
    return rc;
}

int claim_read(const char *dir, struct claim_info *out, struct bfs_error *e)
{
    struct claim_info c, last;
    int n_failed = 0, gen, rc;

    memset(&last, 0, sizeof last);
    last.gen = -1;
    for (gen = 0;; gen++) {
        if ((rc = claim_read_one(dir, gen, &c, e)) != 0)
            return rc;
        if (c.gen < 0)
            break;
        n_failed += c.end == CLAIM_FAILED;
        last = c;
    }
    last.n_failed = n_failed;
    *out = last;
    return 0;
}

enum claim_state claim_state_of(const struct claim_info *c, double lease,
                                int retries, double now)
{
    if (c->n_failed > retries)
        return CLAIM_GAVE_UP;
    if (c->gen < 0 || c->end != CLAIM_OPEN)
        return CLAIM_PENDING;
    return now - c->beat > lease ? CLAIM_STALE : CLAIM_RUNNING;
}

int claim_create(const char *path, const char *text, struct bfs_error *e)
{
    static unsigned long calls;
    const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
    size_t dlen = (size_t)(base - path), len = strlen(text);
    char host[256], *tmp = xmalloc(strlen(path) + sizeof host + 64);
    struct stat st;
    int fd, rc = 0;

    claim_host(host, sizeof host);
    memcpy(tmp, path, dlen);
    sprintf(tmp + dlen, ".%s.%s.%ld.%lu", base, host, (long)getpid(), calls++);
    fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (fd < 0 || write(fd, text, len) != (ssize_t)len || fsync(fd) != 0) {
        rc = bfs_fail_at(e, BFS_EIO, tmp, 0, "cannot write: %s",
                         strerror(errno));
    } else {
        int lerr = link(tmp, path) == 0 ? 0 : errno;
        if (stat(tmp, &st) != 0)
            rc = bfs_fail_at(e, BFS_EIO, tmp, 0, "%s", strerror(errno));
        else if (st.st_nlink == 2)
            rc = 0; /* ours, whatever link() said */
        else if (lerr == EEXIST)
            rc = 1;
        else
            rc = bfs_fail_at(e, BFS_EIO, path, 0, "cannot create: %s",
                             strerror(lerr ? lerr : EIO));
    }
    if (fd >= 0)
        close(fd);
    unlink(tmp);
    xfree(tmp);
    return rc;
}

int claim_take(const char *dir, int gen, const char *host, long pid, double now,
               struct bfs_error *e)
{
    char *claim = claim_path(dir, gen), text[600];
    int rc;

    snprintf(text, sizeof text, "bfsim-claim 1\nhost %s\npid %ld\nstart %.3f\n",
             host, pid, now);
    rc = claim_create(claim, text, e);
    xfree(claim);
    return rc;
}

int claim_superseded(const char *dir, int gen)
{
    char *next = claim_path(dir, gen + 1);
    struct stat st;
    int rc = stat(next, &st) == 0;

    xfree(next);
    return rc;
}

int claim_holder_live(const struct claim_info *c, double lease, double now)
{
    char host[256];

    if (c->gen < 0 || c->end != CLAIM_OPEN)
        return 0;
    claim_host(host, sizeof host);
    if (strcmp(host, c->host) == 0)
        return c->pid > 0 && (kill((pid_t)c->pid, 0) == 0 || errno == EPERM);
    return now - c->beat <= lease;
}

int claim_beat(const char *dir, int gen, struct bfs_error *e)
{
    char *p;
    int rc = 0;

    if (claim_superseded(dir, gen))
        return 1;
    p = claim_path(dir, gen);
    if (utimensat(AT_FDCWD, p, NULL, 0) != 0)
        rc = bfs_fail_at(e, BFS_EIO, p, 0, "heartbeat: %s", strerror(errno));
    xfree(p);
    return rc;
}

/* Appends the end line, with note after the seconds if not NULL. */
static int append_end(const char *dir, int gen, enum claim_end end,
                      double seconds, const char *note, struct bfs_error *e)
{
    char *p = claim_path(dir, gen), text[128];
    int fd = open(p, O_WRONLY | O_APPEND | O_CLOEXEC), rc = 0, len;

    len = snprintf(text, sizeof text, "end %.3f %s %.3f%s%s\n", claim_now(),
                   end_names[end], seconds, note ? " " : "", note ? note : "");
    if (fd < 0 || write(fd, text, (size_t)len) != len)
        rc = bfs_fail_at(e, BFS_EIO, p, 0, "cannot write: %s", strerror(errno));
    if (fd >= 0 && close(fd) != 0 && rc == 0)
        rc = bfs_fail_at(e, BFS_EIO, p, 0, "cannot write: %s", strerror(errno));
    xfree(p);
    return rc;
}

int claim_finish(const char *dir, int gen, enum claim_end end, double seconds,
                 struct bfs_error *e)
{
    return append_end(dir, gen, end, seconds, NULL, e);
}

int claim_reconciled(const char *dir, int gen, double seconds,
                     struct bfs_error *e)
{
    return append_end(dir, gen, CLAIM_DONE, seconds, "reconciled", e);
}
