/* run.c - running a sweep's replays (sweep_exec), the run folders and
 * the folder's record (sweep.h).
 *
 * Runs are child processes (fork + exec of the bfsim program), at most
 * `jobs` at once.  The wait loop installs no handler: it keeps SIGCHLD,
 * SIGINT and SIGTERM blocked and sleeps in sigtimedwait() on SIGCHLD, so
 * a child that ends between two looks at the children wakes it at once;
 * at each turn it opens the mask for a moment so that a pending SIGINT
 * or SIGTERM runs the caller's handler (which sets the stop flag), and
 * it sleeps at most 0.1 s so that such a signal is seen within that
 * time.  On stop, the children get SIGINT, the replay's "stop and write
 * partial results" signal, whichever signal the sweep got.  Each run is
 * its own process group (setpgid), and the signal goes to the group, so
 * that a solver worker the replay started stops too; on Linux each run
 * also asks for SIGTERM when the sweep dies (prctl PR_SET_PDEATHSIG), so
 * that a sweep killed outright (SIGKILL) leaves no replay running
 * unattended.  A run is claimed by OUT/runs/ID/lock, created atomically
 * (written aside, then link()ed into place, which fails if it exists)
 * and holding "HOST PID" of the replay running it: a resumed sweep skips
 * a run whose lock names a live process on its own host, or any process
 * on another host (it cannot look there: remove the lock by hand if that
 * sweep is gone), and takes over a lock whose process is dead.  The
 * assumption is that pids are not reused within the time a dead run's
 * lock waits for the next resumption.  Once a run is claimed through its
 * lock, temporary files that a replay killed outright left in its
 * directory are removed.  Completeness is decided from the files alone
 * (summary.json with "partial": false), never from memory, so that
 * shards in separate processes and later resumptions agree.
 *
 * OUT/sweep.txt binds the folder to one sweep: the configuration's path
 * and its set of run ids with their digest.  A configuration whose runs
 * do not include all of the recorded ones would replace the folder's
 * table with one that lacks them, and is refused; one that includes them
 * (extended with values) takes the record over.
 *
 * A worker's attempt writes under names of its own (work.c says why);
 * its files are named, published and removed here, since launch()
 * starts both kinds of run.
 */
#include "config.h"

#include "sweep/sweep.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include "base/out.h"
#include "base/util.h"
#include "sweep/claim.h"
#include "sweep/sweep_impl.h"

static void exec_prog(const char *prog, char *const argv[])
{
    if (strchr(prog, '/'))
        execv(prog, argv);
    else
        execvp(prog, argv);
}

/* ---- run directories ----------------------------------------------------- */

char *sweep_run_dir(const struct sweep *s, size_t r, const char *outdir)
{
    char *p = xmalloc(strlen(outdir) + 32);

    sprintf(p, "%s/runs/%s", outdir, s->runs[r].hex);
    return p;
}

char *run_file(const struct sweep *s, size_t r, const char *outdir,
               const char *name)
{
    char *d = sweep_run_dir(s, r, outdir);
    char *p = xmalloc(strlen(d) + strlen(name) + 2);

    sprintf(p, "%s/%s", d, name);
    xfree(d);
    return p;
}

/* The summary at path if it is complete (new reference), else NULL. */
static json_t *load_complete_at(const char *path)
{
    json_t *j = json_load_file(path, 0, NULL);

    if (j &&
        (!json_is_object(j) || !json_is_false(json_object_get(j, "partial")))) {
        json_decref(j);
        j = NULL;
    }
    return j;
}

/* 1 when the summary at path is complete. */
int complete_at(const char *path)
{
    json_t *j = load_complete_at(path);

    json_decref(j);
    return j != NULL;
}

/* The run's summary if it is complete (new reference), else NULL. */
json_t *load_complete(const struct sweep *s, size_t r, const char *outdir)
{
    char *p = run_file(s, r, outdir, "summary.json");
    json_t *j = load_complete_at(p);

    xfree(p);
    return j;
}

int sweep_run_complete(const struct sweep *s, size_t r, const char *outdir)
{
    char *p = run_file(s, r, outdir, "summary.json");
    int c = complete_at(p);

    xfree(p);
    return c;
}

/* mkdir -p. */
int make_dirs(const char *path, struct bfs_error *e)
{
    char *p = xstrdup(path);
    int rc = 0;

    for (char *c = p + 1;; c++) {
        if (*c == '/' || *c == '\0') {
            char save = *c;
            *c = '\0';
            if (mkdir(p, 0777) != 0 && errno != EEXIST) {
                rc = bfs_fail_at(e, BFS_EIO, p, 0, "cannot create: %s",
                                 strerror(errno));
                break;
            }
            *c = save;
            if (!save)
                break;
        }
    }
    xfree(p);
    return rc;
}

int sweep_prepare(const char *outdir, char **abs, struct bfs_error *e)
{
    char *runs = xmalloc(strlen(outdir) + 8);
    int rc;

    sprintf(runs, "%s/runs", outdir);
    rc = make_dirs(runs, e);
    xfree(runs);
    if (rc == 0 && !(*abs = realpath(outdir, NULL)))
        rc = bfs_fail_at(e, BFS_EIO, outdir, 0, "%s", strerror(errno));
    return rc;
}

/* ---- the folder's record ------------------------------------------------- */

/* The ids of s's runs, sorted (malloc'd, n_runs of them). */
static uint64_t *sorted_ids(const struct sweep *s)
{
    uint64_t *ids = xcalloc(s->n_runs + 1, sizeof *ids);

    for (size_t r = 0; r < s->n_runs; r++)
        ids[r] = s->runs[r].id;
    qsort(ids, s->n_runs, sizeof *ids, cmp_u64);
    return ids;
}

/* The record of s (sweep_bind) as text (malloc'd), ids its sorted ids;
 * *digest gets its digest. */
static char *record_text(const struct sweep *s, const uint64_t *ids,
                         uint64_t *digest)
{
    struct buf b = {0}, list = {0};
    char line[64], *abs = realpath(s->path, NULL);

    for (size_t r = 0; r < s->n_runs; r++) {
        snprintf(line, sizeof line, "%016llx\n", (unsigned long long)ids[r]);
        buf_str(&list, line);
    }
    buf_take(&list);
    *digest = fnv1a(list.p, list.n);
    buf_str(&b, "bfsim-sweep 1\nconfig ");
    for (const char *c = abs ? abs : s->path; *c; c++)
        buf_add(&b, *c == '\n' ? "?" : c, 1); /* one line */
    snprintf(line, sizeof line, "\ndigest %016llx\nruns %zu\n",
             (unsigned long long)*digest, s->n_runs);
    buf_str(&b, line);
    buf_add(&b, list.p, list.n);
    xfree(list.p);
    free(abs);
    return buf_take(&b);
}

/* Reads text, 16 lower-case hex digits and nothing else, into *id.
 * Returns 0 or -1. */
static int parse_id(const char *text, uint64_t *id)
{
    if (strspn(text, "0123456789abcdef") != 16 || text[16])
        return -1;
    *id = (uint64_t)strtoull(text, NULL, 16);
    return 0;
}

/* A record read back: its configuration and its ids (sorted). */
struct record {
    char *config;          /* owned */
    uint64_t digest, *ids; /* ids owned */
    size_t n;
};

/* Reads the record at path into *rec.  Returns 0, or BFS_EIO / BFS_EPARSE
 * naming path and line (in e). */
static int record_read(const char *path, struct record *rec,
                       struct bfs_error *e)
{
    static const char *const want[] = {"bfsim-sweep 1", "config PATH",
                                       "digest HEX (16 hex digits)", "runs N",
                                       "a run id (16 hex digits)"};
    char *text, *line, *next;
    size_t len, ln = 0, n = 0;
    int rc;

    memset(rec, 0, sizeof *rec);
    if ((rc = bfs_read_all(path, &text, &len, e)) != 0)
        return rc;
    for (line = text; rc == 0 && *line; line = next) {
        int64_t v;
        int ok;

        if (!(next = strchr(line, '\n'))) {
            rc = bfs_fail_at(e, BFS_EPARSE, path, ln + 1,
                             "the last line is cut short");
            break;
        }
        *next++ = '\0';
        switch (++ln < 5 ? ln : 5) {
        case 1:
            ok = strcmp(line, "bfsim-sweep 1") == 0;
            break;
        case 2:
            if ((ok = strncmp(line, "config ", 7) == 0))
                rec->config = xstrdup(line + 7);
            break;
        case 3:
            ok = strncmp(line, "digest ", 7) == 0 &&
                 parse_id(line + 7, &rec->digest) == 0;
            break;
        case 4:
            ok = strncmp(line, "runs ", 5) == 0 &&
                 bfs_parse_i64(line + 5, &v) == 0 && v >= 0 &&
                 v <= SWEEP_MAX_RUNS;
            if (ok) {
                rec->n = (size_t)v;
                rec->ids = xcalloc(rec->n + 1, sizeof *rec->ids);
            }
            break;
        default:
            ok = n < rec->n && parse_id(line, &rec->ids[n]) == 0;
            n += (size_t)ok;
            break;
        }
        if (!ok)
            rc = bfs_fail_at(e, BFS_EPARSE, path, ln, "expected %s",
                             want[(ln < 5 ? ln : 5) - 1]);
    }
    if (rc == 0 && (ln < 4 || n != rec->n))
        rc = bfs_fail_at(e, BFS_EPARSE, path, ln,
                         "%zu run ids where \"runs\" says %zu", n, rec->n);
    if (rc == 0)
        qsort(rec->ids, rec->n, sizeof *rec->ids, cmp_u64);
    xfree(text);
    if (rc) {
        xfree(rec->config);
        xfree(rec->ids);
        memset(rec, 0, sizeof *rec);
    }
    return rc;
}

/* How many of the sorted have[0..nh-1] are not in the sorted of[]. */
static size_t missing(const uint64_t *have, size_t nh, const uint64_t *of,
                      size_t no)
{
    size_t j = 0, miss = 0;

    for (size_t i = 0; i < nh; i++) {
        while (j < no && of[j] < have[i])
            j++;
        miss += j == no || of[j] != have[i];
    }
    return miss;
}

int sweep_bind(const struct sweep *s, const char *outdir, int update,
               struct bfs_error *e)
{
    uint64_t *ids = sorted_ids(s), digest;
    char *text = record_text(s, ids, &digest);
    char *path = xmalloc(strlen(outdir) + 16);
    struct record rec;
    struct stat st;
    int rc;

    sprintf(path, "%s/sweep.txt", outdir);
    memset(&rec, 0, sizeof rec);
    if (update)
        rc = claim_create(path, text, e); /* 0: the folder's first sweep */
    else
        rc = stat(path, &st) == 0;
    if (rc == 1 && (rc = record_read(path, &rec, e)) == 0 &&
        digest != rec.digest) {
        size_t miss = missing(rec.ids, rec.n, ids, s->n_runs);
        if (miss) {
            rc = bfs_fail(e, BFS_EUSAGE,
                          "%s: this folder holds the sweep of %s (%zu runs); "
                          "%s would leave %zu of them out of its table: use "
                          "another --out (or remove %s to let it replace "
                          "that sweep)",
                          outdir, rec.config, rec.n, s->path, miss, path);
        } else if (update) {
            /* the configuration was extended: the record follows */
            struct bfs_out out;
            if ((rc = bfs_out_open_mode(&out, path, BFS_OUT_FILE, e)) == 0) {
                if (fputs(text, out.fp) == EOF) {
                    bfs_out_abort(&out);
                    rc = bfs_fail_at(e, BFS_EIO, path, 0, "write error");
                } else {
                    rc = bfs_out_commit(&out, e);
                }
            }
        }
    }
    xfree(rec.config);
    xfree(rec.ids);
    xfree(path);
    xfree(text);
    xfree(ids);
    return rc;
}

/* ---- an attempt's own files ---------------------------------------------- */

/* The files of a run that a worker's attempt writes under names of its
 * own, "NAME.TAG" (TAG "claimN.HOST.PID", N the claim's number, unique to
 * the attempt within its run), and renames to NAME: options.json when
 * written, the others when the replay ends, summary.json last since it
 * makes the run complete.  The replay's temporary files are then
 * "NAME.TAG.tmp.XXXXXX" (base/out.h): every file of an attempt starts
 * with "NAME.claimN.". */
enum { ATT_OPTIONS, ATT_LOG, ATT_H5, ATT_SUMMARY, N_ATT };
static const char *const att_names[N_ATT] = {"options.json", "log.txt",
                                             "run.h5", "summary.json"};

/* The tag of attempt gen by host and pid, in buf. */
void attempt_tag(char *buf, size_t size, int gen, const char *host, long pid)
{
    snprintf(buf, size, "claim%d.%s.%ld", gen, host, pid);
}

/* "DIR/NAME.TAG", or "DIR/NAME" when tag is NULL (malloc'd). */
char *attempt_path(const char *dir, const char *name, const char *tag)
{
    char *p = xmalloc(strlen(dir) + strlen(name) + (tag ? strlen(tag) : 0) + 3);

    sprintf(p, "%s/%s%s%s", dir, name, tag ? "." : "", tag ? tag : "");
    return p;
}

/* The claim number of the attempt whose file name is, or -1 for a file
 * of no attempt. */
static int attempt_of(const char *name)
{
    for (int i = 0; i < N_ATT; i++) {
        size_t n = strlen(att_names[i]);
        const char *p;
        char *end;
        long k;

        if (strncmp(name, att_names[i], n) != 0 ||
            strncmp(name + n, ".claim", 6) != 0)
            continue;
        p = name + n + 6;
        if (*p < '0' || *p > '9')
            continue;
        k = strtol(p, &end, 10);
        if (*end == '.' && k <= INT_MAX)
            return (int)k;
    }
    return -1;
}

/* Removes files of attempts from run directory dir: those of attempt gen
 * when gen >= 0; else those of every attempt before `below` whose claim
 * has ended or whose worker is not live (claim_holder_live), the leftovers
 * of a worker killed outright or of its replay stopping after it.  Never
 * those of an attempt whose worker may still run it (it removes them
 * itself when it finds its claim lost), nor of one whose claim cannot be
 * read. */
void remove_attempts(const char *dir, int gen, int below, double lease)
{
    DIR *d = opendir(dir);
    struct dirent *de;
    int known = -1, gone = 0;

    if (!d)
        return;
    while ((de = readdir(d)) != NULL) {
        int k = attempt_of(de->d_name);
        char *p;

        if (k < 0 || (gen >= 0 ? k != gen : k >= below))
            continue;
        if (gen < 0 && k != known) {
            struct claim_info c;
            known = k;
            gone = claim_read_one(dir, k, &c, NULL) == 0 && c.gen == k &&
                   !claim_holder_live(&c, lease, claim_now());
        }
        if (gen < 0 && !gone)
            continue;
        p = attempt_path(dir, de->d_name, NULL);
        unlink(p);
        xfree(p);
    }
    closedir(d);
}

/* Renames the files of attempt tag in dir to the run's names: its log,
 * then (outputs) run.h5 and summary.json.  A file the attempt did not
 * write is skipped.  Returns 0 or BFS_EIO (in e). */
int attempt_publish(const char *dir, const char *tag, int outputs,
                    struct bfs_error *e)
{
    int rc = 0;

    for (int i = ATT_LOG; i <= ATT_SUMMARY && rc == 0; i++) {
        char *from, *to;
        if (i != ATT_LOG && !outputs)
            continue;
        from = attempt_path(dir, att_names[i], tag);
        to = attempt_path(dir, att_names[i], NULL);
        if (rename(from, to) != 0 && errno != ENOENT)
            rc = bfs_fail_at(e, BFS_EIO, from, 0, "cannot rename to %s: %s",
                             att_names[i], strerror(errno));
        xfree(to);
        xfree(from);
    }
    return rc;
}

/* OUT/runs/ID/options.json: the run's options in key order, numbers as
 * numbers, flags as true/false.  With a tag, written as options.json.TAG
 * and renamed. */
static int write_options(const struct sweep *s, size_t r, const char *outdir,
                         const char *tag, struct bfs_error *e)
{
    char *dir = sweep_run_dir(s, r, outdir);
    char *path = attempt_path(dir, "options.json", tag);
    json_t *o = json_object();
    struct bfs_out out;
    int rc;

    for (size_t k = 0; k < s->n_keys; k++) {
        const struct sweep_value *v = run_value(s, r, k);
        json_t *j = NULL;
        if (v->kind != SWEEP_ARG)
            j = json_boolean(v->kind == SWEEP_ON);
        else if (v->number)
            j = json_loads(v->text, JSON_DECODE_ANY, NULL);
        if (!j)
            j = json_string(v->text);
        json_object_set_new(o, s->keys[k].name, j);
    }
    rc = bfs_out_open(&out, path, e);
    if (rc == 0) {
        if (json_dumpf(o, out.fp, JSON_INDENT(2) | JSON_REAL_PRECISION(17)) ||
            fputc('\n', out.fp) == EOF) {
            bfs_out_abort(&out);
            rc = bfs_fail_at(e, BFS_EIO, path, 0, "write error");
        } else {
            rc = bfs_out_commit(&out, e);
        }
    }
    if (rc == 0 && tag) {
        char *final = attempt_path(dir, "options.json", NULL);
        if (rename(path, final) != 0) {
            rc = bfs_fail_at(e, BFS_EIO, path, 0,
                             "cannot rename to options.json: %s",
                             strerror(errno));
            unlink(path);
        }
        xfree(final);
    }
    json_decref(o);
    xfree(path);
    xfree(dir);
    return rc;
}

/* ---- running ------------------------------------------------------------- */

static void free_argv(char **argv)
{
    for (char **a = argv; *a; a++)
        xfree(*a);
    xfree(argv);
}

/* `bfsim replay OPTIONS -q --summary S -o H` for run r (malloc'd), S and
 * H named after the attempt when tag is not NULL. */
static char **run_argv(const struct sweep *s, size_t r, const char *outdir,
                       const char *tag)
{
    char *dir = sweep_run_dir(s, r, outdir);
    char **argv = xcalloc(s->n_keys + 8, sizeof *argv);
    size_t n = 0;

    argv[n++] = xstrdup("bfsim");
    argv[n++] = xstrdup("replay");
    for (size_t k = 0; k < s->n_keys; k++) {
        const struct sweep_value *v = run_value(s, r, k);
        char *a;
        if (v->kind == SWEEP_OFF)
            continue;
        a = xmalloc(strlen(s->keys[k].name) + strlen(v->text) + 4);
        if (v->kind == SWEEP_ON)
            sprintf(a, "--%s", s->keys[k].name);
        else
            sprintf(a, "--%s=%s", s->keys[k].name, v->text);
        argv[n++] = a;
    }
    argv[n++] = xstrdup("-q");
    argv[n++] = xstrdup("--summary");
    argv[n++] = attempt_path(dir, "summary.json", tag);
    argv[n++] = xstrdup("-o");
    argv[n++] = attempt_path(dir, "run.h5", tag);
    argv[n] = NULL;
    xfree(dir);
    return argv;
}

/* Removes what a replay killed outright (SIGKILL, SIGTERM) left in a
 * run directory: its outputs' temporary files. */
static void remove_stale(const char *dir)
{
    static const char *const prefixes[] = {"summary.json.tmp.", "run.h5.tmp.",
                                           "options.json.tmp."};
    DIR *d = opendir(dir);
    struct dirent *de;

    if (!d)
        return;
    while ((de = readdir(d)) != NULL)
        for (size_t i = 0; i < sizeof prefixes / sizeof *prefixes; i++)
            if (strncmp(de->d_name, prefixes[i], strlen(prefixes[i])) == 0) {
                char *p = xmalloc(strlen(dir) + strlen(de->d_name) + 2);
                sprintf(p, "%s/%s", dir, de->d_name);
                unlink(p);
                xfree(p);
                break;
            }
    closedir(d);
}

/* ---- run locks ----------------------------------------------------------- */

/* Writes "HOST PID\n" to a new file beside lock and links it to lock
 * (replace: renames it over lock instead).  Returns 0, 1 when lock
 * exists (and replace is 0), or BFS_EIO. */
static int lock_write(const char *lock, long pid, int replace,
                      struct bfs_error *e)
{
    char host[256], text[300], *tmp = xmalloc(strlen(lock) + 32);
    int fd, rc = 0, len;

    if (gethostname(host, sizeof host) != 0)
        snprintf(host, sizeof host, "localhost");
    host[sizeof host - 1] = '\0';
    len = snprintf(text, sizeof text, "%s %ld\n", host, pid);
    sprintf(tmp, "%s.tmp.%ld", lock, (long)getpid());
    fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (fd < 0 || write(fd, text, (size_t)len) != len) {
        rc = bfs_fail_at(e, BFS_EIO, tmp, 0, "cannot write: %s",
                         strerror(errno));
    } else if (replace ? rename(tmp, lock) : link(tmp, lock)) {
        if (!replace && errno == EEXIST)
            rc = 1;
        else
            rc = bfs_fail_at(e, BFS_EIO, lock, 0, "cannot create: %s",
                             strerror(errno));
    }
    if (fd >= 0)
        close(fd);
    unlink(tmp); /* after link(); after rename() it is gone already */
    xfree(tmp);
    return rc;
}

/* Whether the lock's holder may still run: a live pid on this host, or any
 * holder on another host.  holder receives the lock's text (one line). */
static int lock_live(const char *lock, char *holder, size_t size)
{
    char host[256], their[256], line[300];
    long pid;
    FILE *f = fopen(lock, "r");
    int live = 0;

    holder[0] = '\0';
    if (!f)
        return 0; /* gone meanwhile: free */
    if (fgets(line, sizeof line, f) &&
        sscanf(line, "%255s %ld", their, &pid) == 2 && pid > 0) {
        line[strcspn(line, "\n")] = '\0';
        snprintf(holder, size, "%s", line);
        if (gethostname(host, sizeof host) != 0)
            snprintf(host, sizeof host, "localhost");
        host[sizeof host - 1] = '\0';
        live = strcmp(host, their) != 0 || kill((pid_t)pid, 0) == 0 ||
               errno == EPERM;
    }
    fclose(f);
    return live;
}

/* Claims run r for this sweep.  Returns 0 (claimed), 1 when a live
 * process holds it (holder says which), or BFS_EIO. */
static int lock_claim(const char *lock, char *holder, size_t size,
                      struct bfs_error *e)
{
    for (int attempt = 0; attempt < 2; attempt++) {
        int rc = lock_write(lock, (long)getpid(), 0, e);
        if (rc <= 0)
            return rc;
        if (lock_live(lock, holder, size))
            return 1;
        unlink(lock); /* its process is dead: take it over */
    }
    snprintf(holder, size, "another sweep, just now");
    return 1;
}

/* Starts run r in *sl.  A worker's attempt (sl->tag set, no lock) writes
 * its files under its own names (attempt_path).  Returns 0, 1 when
 * another process holds the run (holder names it; nothing started), or
 * BFS_EIO (reported in e). */
int launch(const struct sweep *s, size_t r, const struct sweep_exec *x,
           const sigset_t *child_mask, int use_lock, struct slot *sl,
           char *holder, size_t holder_size, struct bfs_error *e)
{
    const char *tag = use_lock ? NULL : sl->tag;
    char *dir = sweep_run_dir(s, r, x->outdir);
    char *log = attempt_path(dir, "log.txt", tag);
    char *lock = run_file(s, r, x->outdir, "lock");
    char **argv = NULL;
    int fd = -1, rc, claimed = 0;
    pid_t pid, parent = getpid();

    if ((rc = make_dirs(dir, e)) != 0)
        goto out;
    /* a worker's run is claimed already (claim.N, not the lock) */
    if (use_lock && (rc = lock_claim(lock, holder, holder_size, e)) != 0)
        goto out;
    claimed = use_lock;
    if (use_lock)
        remove_stale(dir);
    if ((rc = write_options(s, r, x->outdir, tag, e)) != 0)
        goto out;
    fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (fd < 0) {
        rc = bfs_fail_at(e, BFS_EIO, log, 0, "cannot create: %s",
                         strerror(errno));
        goto out;
    }
    argv = run_argv(s, r, x->outdir, tag);
    fflush(NULL); /* the child must not write the parent's buffers */
    pid = fork();
    if (pid < 0) {
        rc = bfs_fail(e, BFS_EIO, "fork: %s", strerror(errno));
        goto out;
    }
    if (pid == 0) {
        int null = open("/dev/null", O_RDONLY | O_CLOEXEC);
        char msg[512];
        int len;

        setpgid(0, 0);
#ifdef __linux__
        /* SIGTERM (the replay's stop: partial outputs) if the sweep dies;
         * if it died already, the request came too late: stop now. */
        if (prctl(PR_SET_PDEATHSIG, SIGTERM) != 0 || getppid() != parent)
            _exit(127);
#else
        (void)parent;
#endif
        dup2(fd, STDOUT_FILENO);
        dup2(fd, STDERR_FILENO);
        if (null >= 0)
            dup2(null, STDIN_FILENO);
        signal(SIGCHLD, SIG_DFL);
        signal(SIGINT, SIG_DFL);
        signal(SIGTERM, SIG_DFL);
        sigprocmask(SIG_SETMASK, child_mask, NULL);
        if (chdir(x->workdir) != 0) {
            len =
                snprintf(msg, sizeof msg, "bfsim sweep: cannot enter %s: %s\n",
                         x->workdir, strerror(errno));
        } else {
            exec_prog(x->prog, argv);
            len = snprintf(msg, sizeof msg, "bfsim sweep: cannot run %s: %s\n",
                           x->prog, strerror(errno));
        }
        if (len > 0 && write(STDERR_FILENO, msg, (size_t)len) < 0)
            _exit(127);
        _exit(127);
    }
    setpgid(pid, pid); /* also here: the child may not have run yet */
    sl->pid = pid;
    sl->run = r;
    sl->t0 = bfs_now();
    /* The lock names the replay from now on, so that a resumption sees
     * the run busy while the replay lives, even if this sweep dies. */
    if (use_lock && lock_write(lock, (long)pid, 1, NULL) != 0) {
        /* the lock keeps this sweep's pid: still a live holder */
    }
    claimed = 0;
out:
    if (rc < 0 && claimed)
        unlink(lock);
    if (fd >= 0)
        close(fd);
    if (argv)
        free_argv(argv);
    xfree(lock);
    xfree(log);
    xfree(dir);
    return rc;
}

/* Blocks SIGCHLD, SIGINT and SIGTERM for a loop over child processes:
 * sets block to those three, old to the mask before (to restore at the
 * end), chld to SIGCHLD alone (to wait on) and window to old with SIGCHLD
 * blocked and SIGINT and SIGTERM open (the mask while the loop lets the
 * caller's handlers run). */
void block_signals(sigset_t *block, sigset_t *old, sigset_t *chld,
                   sigset_t *window)
{
    sigemptyset(block);
    sigaddset(block, SIGCHLD);
    sigaddset(block, SIGINT);
    sigaddset(block, SIGTERM);
    sigprocmask(SIG_BLOCK, block, old);
    sigemptyset(chld);
    sigaddset(chld, SIGCHLD);
    *window = *old;
    sigaddset(window, SIGCHLD);
    sigdelset(window, SIGINT);
    sigdelset(window, SIGTERM);
}

int sweep_exec(const struct sweep *s, const size_t *todo, size_t n,
               const struct sweep_exec *x, struct bfs_error *e)
{
    int jobs = x->jobs > 0 ? x->jobs : 1;
    struct slot *slots = xcalloc((size_t)jobs, sizeof *slots);
    sigset_t block, old, chld, window;
    /* The longest a pending SIGINT or SIGTERM waits for the caller's
     * handler while the loop sleeps on SIGCHLD. */
    const struct timespec tick = {0, 100000000};
    size_t next = 0;
    int running = 0, forwarded = 0, rc = 0;

    block_signals(&block, &old, &chld, &window);

    for (;;) {
        pid_t pid;
        int st;

        while ((pid = waitpid(-1, &st, WNOHANG)) > 0) {
            for (int i = 0; i < jobs; i++) {
                if (slots[i].pid != pid)
                    continue;
                slots[i].pid = 0;
                running--;
                {
                    char *lock = run_file(s, slots[i].run, x->outdir, "lock");
                    unlink(lock);
                    xfree(lock);
                }
                if (x->done)
                    x->done(x->arg, slots[i].run, st,
                            sweep_run_complete(s, slots[i].run, x->outdir),
                            bfs_now() - slots[i].t0);
                break;
            }
        }
        /* A pending SIGINT or SIGTERM reaches the caller's handler. */
        sigprocmask(SIG_SETMASK, &window, NULL);
        sigprocmask(SIG_BLOCK, &block, NULL);
        if (x->stop && *x->stop && !forwarded) {
            for (int i = 0; i < jobs; i++)
                if (slots[i].pid > 0)
                    kill(-slots[i].pid, SIGINT); /* the run's group */
            forwarded = 1;
        }
        while (rc == 0 && !(x->stop && *x->stop) && running < jobs &&
               next < n) {
            int i = 0;
            while (slots[i].pid != 0)
                i++;
            char holder[300];
            rc = launch(s, todo[next], x, &old, 1, &slots[i], holder,
                        sizeof holder, e);
            if (rc == 1) { /* held by a live process: skipped */
                if (x->busy)
                    x->busy(x->arg, todo[next], holder);
                rc = 0;
            } else if (rc == 0) {
                running++;
            }
            next++;
        }
        if (running == 0 && (next == n || rc != 0 || (x->stop && *x->stop)))
            break;
        if (running > 0)
            sigtimedwait(&chld, NULL, &tick);
    }

    sigprocmask(SIG_SETMASK, &old, NULL);
    xfree(slots);
    return rc;
}

/* ---- logs ---------------------------------------------------------------- */

char *sweep_log_tail(const char *path, size_t lines)
{
    FILE *f = fopen(path, "rb");
    char *buf, *p;
    long size;
    size_t n, seen = 0;

    if (!f)
        return NULL;
    if (fseek(f, 0, SEEK_END) != 0 || (size = ftell(f)) < 0) {
        fclose(f);
        return NULL;
    }
    if (fseek(f, size > 4096 ? size - 4096 : 0, SEEK_SET) != 0) {
        fclose(f);
        return NULL;
    }
    buf = xmalloc(4097);
    n = fread(buf, 1, 4096, f);
    fclose(f);
    buf[n] = '\0';
    /* Ignore one final newline; then walk back over `lines` newlines. */
    p = buf + n;
    if (p > buf && p[-1] == '\n')
        p--;
    while (p > buf) {
        if (p[-1] == '\n' && ++seen == lines)
            break;
        p--;
    }
    memmove(buf, p, strlen(p) + 1);
    return buf;
}
