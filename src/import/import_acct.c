/* import_acct.c - the machine and the trace of an accounting log's runs,
 * shared by the PBS and LSF importers (import_acct.h).
 *
 * Runs hold host indices in first-seen order (a->hosts); acct_convert
 * maps them onto the machine's order once it is known (remap[], -1 for a
 * host outside --nodes-file).  A per-host mark (the serial of the run
 * being built) keeps a host once per run in O(1).  The runs go to the
 * engine in any order without advancing it, so it holds them all until
 * import_log_finish: the inputs were read whole anyway.
 *
 * Invariants: every index in a->nodes is < a->hosts.n; mark[i] ==
 * a->serial iff host i is in the run being built.
 */
#include "config.h"

#include "import/import_acct.h"
#include "import/import_log.h"
#include "formats/trace.h"
#include "base/util.h"

#include <dirent.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

void acct_init(struct acct *a, const struct import_log_opts *o,
               struct import_acct_report *rep)
{
    memset(a, 0, sizeof *a);
    a->o = o;
    a->rep = rep;
    hostlist_init(&a->hosts);
    a->hix = hostlist_index_new();
    a->latest = IMPORT_TIME_NONE;
}

void acct_release(struct acct *a)
{
    xfree(a->mark);
    xfree(a->nodes);
    xfree(a->runs);
    hostlist_index_free(a->hix);
    hostlist_release(&a->hosts);
}

void acct_saw(struct acct *a, int64_t t)
{
    if (t != IMPORT_TIME_NONE &&
        (a->latest == IMPORT_TIME_NONE || t > a->latest))
        a->latest = t;
}

size_t acct_hosts_begin(struct acct *a)
{
    a->serial++;
    return a->n_nodes;
}

void acct_host(struct acct *a, size_t off, const char *name, size_t len)
{
    char buf[256], *s = len < sizeof buf ? buf : xmalloc(len + 1);
    size_t i;

    (void)off;
    memcpy(s, name, len);
    s[len] = '\0';
    i = hostlist_index_find(a->hix, s);
    if (i == (size_t)-1) {
        i = a->hosts.n;
        hostlist_index_add(a->hix, s, i);
        hostlist_push(&a->hosts, s);
        BFS_GROW(a->mark, a->cap_mark, a->hosts.n);
        a->mark[i] = 0;
    }
    if (s != buf)
        xfree(s);
    if (a->mark[i] == a->serial)
        return;
    a->mark[i] = a->serial;
    BFS_GROW(a->nodes, a->cap_nodes, a->n_nodes + 1);
    a->nodes[a->n_nodes++] = (uint32_t)i;
}

size_t acct_run_add(struct acct *a, int64_t start, int64_t end, size_t off,
                    size_t need)
{
    BFS_GROW(a->runs, a->cap_runs, a->n_runs + 1);
    a->runs[a->n_runs] = (struct acct_run){start, end, off, a->n_nodes - off,
                                           a->n_nodes > off ? 0 : need};
    return a->n_runs++;
}

/* ---- inputs -------------------------------------------------------- */

static const char *last_part(const char *p)
{
    const char *s = strrchr(p, '/');

    return s ? s + 1 : p;
}

static int file_cmp(const void *x, const void *y)
{
    const char *a = *(const char *const *)x, *b = *(const char *const *)y;
    int c = strcmp(last_part(a), last_part(b));

    return c ? c : strcmp(a, b);
}

void acct_files_free(char **files, size_t n)
{
    xfree_strv(files, n);
}

int acct_files(const char *const *src, size_t n, char ***files, size_t *n_files,
               struct bfs_error *e)
{
    char **v = NULL;
    size_t nv = 0, cap = 0;
    int rc = 0;

    for (size_t k = 0; k < n && rc == 0; k++) {
        struct stat st;
        DIR *d;
        struct dirent *de;
        size_t before = nv;

        if (strcmp(src[k], "-") == 0 || stat(src[k], &st) != 0 ||
            !S_ISDIR(st.st_mode)) {
            BFS_GROW(v, cap, nv + 1);
            v[nv++] = xstrdup(src[k]);
            continue;
        }
        if ((d = opendir(src[k])) == NULL) {
            rc = bfs_fail(e, BFS_EIO, "%s: cannot read the directory", src[k]);
            break;
        }
        while ((de = readdir(d)) != NULL) {
            char *p;
            if (de->d_name[0] == '.')
                continue;
            p = xasprintf("%s/%s", src[k], de->d_name);
            if (stat(p, &st) != 0 || !S_ISREG(st.st_mode)) {
                xfree(p);
                continue;
            }
            BFS_GROW(v, cap, nv + 1);
            v[nv++] = p;
        }
        closedir(d);
        if (nv == before)
            rc = bfs_fail(e, BFS_EIO, "%s: no files in the directory", src[k]);
    }
    if (rc) {
        acct_files_free(v, nv);
        return rc;
    }
    if (nv > 1)
        qsort(v, nv, sizeof *v, file_cmp);
    *files = v;
    *n_files = nv;
    return 0;
}

char *acct_joined(const char *const *src, size_t n)
{
    size_t len = 1;
    char *s;

    for (size_t k = 0; k < n; k++)
        len += strlen(src[k]) + 2;
    s = xmalloc(len);
    s[0] = '\0';
    for (size_t k = 0; k < n; k++) {
        if (k)
            strcat(s, ", ");
        strcat(s, src[k]);
    }
    return s;
}

/* ---- records ------------------------------------------------------- */

int acct_malformed(struct acct *a, const char *fmt, ...)
{
    char msg[256];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    bfs_error_clear(&a->le);
    return bfs_fail_at(&a->le, BFS_EPARSE, a->file, a->line, "%s", msg);
}

int acct_read(struct acct *a, const char *path, acct_record_fn fn, void *arg,
              struct bfs_error *e)
{
    struct bfs_lines *in = NULL;
    char *line;
    int rc;

    if ((rc = bfs_lines_open(path, &in, e)) != 0)
        return rc;
    a->file = path;
    while ((rc = bfs_lines_next(in, &line, e)) == 1) {
        char *s = bfs_trim(line);
        if (!*s)
            continue;
        a->rep->records++;
        a->line = bfs_lines_lineno(in);
        if (fn(arg, s) == 0)
            continue;
        if (!a->o->skip_bad) {
            rc = bfs_fail(e, a->le.code, "%s", a->le.msg);
            break;
        }
        if (a->rep->bad++ == 0)
            snprintf(a->rep->first_bad, sizeof a->rep->first_bad, "%.300s",
                     a->le.msg);
    }
    a->rep->lines += bfs_lines_lineno(in);
    bfs_lines_close(in);
    return rc < 0 ? rc : 0;
}

void acct_skip_kind(struct acct *a, const char *kind, size_t len)
{
    struct import_acct_report *r = a->rep;
    const size_t max = sizeof r->kinds / sizeof *r->kinds;
    size_t k;

    if (len >= sizeof r->kinds[0].name)
        len = sizeof r->kinds[0].name - 1;
    for (k = 0; k < r->n_kinds; k++)
        if (strlen(r->kinds[k].name) == len &&
            memcmp(r->kinds[k].name, kind, len) == 0)
            break;
    if (k == r->n_kinds) {
        if (k == max) {
            k = max - 1; /* the last entry counts the rest */
            snprintf(r->kinds[k].name, sizeof r->kinds[k].name, "other");
        } else {
            memcpy(r->kinds[k].name, kind, len);
            r->kinds[k].name[len] = '\0';
            r->n_kinds++;
        }
    }
    r->kinds[k].n++;
}

/* ---- the machine --------------------------------------------------- */

/* Reads o->nodes_file into names (with index ix): a name is a line that
 * starts with a character other than a blank or '#'; indented lines are
 * attributes of the name above (`pbsnodes -av`: "    state = free") and
 * must hold " = "; blank and '#' lines are ignored. */
static int read_nodes(const char *path, struct hostlist *names,
                      struct hostlist_index *ix, struct bfs_error *e)
{
    struct bfs_lines *in = NULL;
    char *line;
    int rc;

    if ((rc = bfs_lines_open(path, &in, e)) != 0)
        return rc;
    while ((rc = bfs_lines_next(in, &line, e)) == 1) {
        size_t ln = bfs_lines_lineno(in);
        char *name = bfs_trim(line);
        if (*name == '\0' || *name == '#')
            continue;
        if (name != line) {
            if (!strstr(name, " = ") && !names->n) {
                rc = bfs_fail_at(e, BFS_EPARSE, path, ln,
                                 "indented line before any node name");
                break;
            }
            if (!strstr(name, " = ")) {
                rc = bfs_fail_at(e, BFS_EPARSE, path, ln,
                                 "indented line '%.60s' is not an attribute "
                                 "(NAME = VALUE, as pbsnodes -av writes)",
                                 name);
                break;
            }
            continue;
        }
        if (strpbrk(name, " \t")) {
            rc = bfs_fail_at(e, BFS_EPARSE, path, ln,
                             "blank in node name '%.60s'", name);
            break;
        }
        if (!hostlist_index_add(ix, name, names->n)) {
            rc = bfs_fail_at(e, BFS_EPARSE, path, ln,
                             "node '%.60s' listed "
                             "twice",
                             name);
            break;
        }
        hostlist_push(names, name);
    }
    bfs_lines_close(in);
    if (rc == 0 && names->n == 0)
        rc = bfs_fail_at(e, BFS_EPARSE, path, 0, "no node names");
    return rc;
}

/* "PREFIX" + index zero-padded to the width of n - 1. */
static char *extra_name(const char *prefix, size_t i, size_t n)
{
    int w = import_log_name_width(n);
    return xasprintf("%s%0*zu", prefix, w, i);
}

/* The machine: its names (into m, with index mix) and remap[i], the
 * machine index of host i (or -1). */
static int make_machine(struct acct *a, const char *paths, struct hostlist *m,
                        struct hostlist_index *mix, uint32_t *remap,
                        struct bfs_error *e)
{
    const struct import_log_opts *o = a->o;
    struct import_log_report *lr = &a->rep->log;
    size_t n;

    if (o->nodes_file) {
        int rc = read_nodes(o->nodes_file, m, mix, e);
        if (rc)
            return rc;
        snprintf(lr->nodes_from, sizeof lr->nodes_from, "--nodes-file");
    } else if (a->hosts.n > 0) {
        for (size_t i = 0; i < a->hosts.n; i++)
            hostlist_push(m, a->hosts.names[i]);
        hostlist_sort(m);
        for (size_t i = 0; i < m->n; i++)
            hostlist_index_add(mix, m->names[i], i);
        snprintf(lr->nodes_from, sizeof lr->nodes_from, "hosts in the log");
        if (o->machine_nodes > 0) {
            if (o->machine_nodes < m->n)
                return bfs_fail(e, BFS_EINVAL,
                                "--machine-nodes %zu: the log names %zu "
                                "hosts",
                                o->machine_nodes, m->n);
            n = o->machine_nodes - m->n;
            for (size_t k = 0; k < n; k++) {
                char *s = extra_name("unseen", k, n);
                int fresh = hostlist_index_add(mix, s, m->n);
                if (fresh)
                    hostlist_push(m, s);
                xfree(s);
                if (!fresh)
                    return bfs_fail(e, BFS_EINVAL,
                                    "the log names a host 'unseen...' like "
                                    "the nodes --machine-nodes adds: give "
                                    "the names with --nodes-file");
            }
            snprintf(lr->nodes_from, sizeof lr->nodes_from,
                     "--machine-nodes, %zu hosts named", a->hosts.n);
        }
    } else {
        if (o->machine_nodes > 0) {
            n = o->machine_nodes;
            snprintf(lr->nodes_from, sizeof lr->nodes_from, "--machine-nodes");
        } else {
            /* The peak use of the counted runs. */
            struct import_log *cnt = import_log_new(o, 0, NULL, paths);
            struct import_log_report scratch;
            int rc = 0;
            for (size_t k = 0; k < a->n_runs && rc == 0; k++) {
                const struct acct_run *r = &a->runs[k];
                if (r->need > 0 && r->end > r->start)
                    rc = import_log_add_count(cnt, r->start, r->end, r->need);
            }
            memset(&scratch, 0, sizeof scratch);
            if (rc == 0)
                rc = import_log_finish(cnt, &scratch, NULL, e);
            n = import_log_peak_busy(cnt);
            import_log_free(cnt);
            if (rc)
                return rc;
            if (n > o->max_nodes)
                return bfs_fail(e, BFS_ERANGE,
                                "the runs hold %zu nodes at once, more than "
                                "--max-nodes %zu: give the machine's size "
                                "with --machine-nodes, or raise --max-nodes",
                                n, o->max_nodes);
            snprintf(lr->nodes_from, sizeof lr->nodes_from,
                     "peak concurrent use in the log");
        }
        for (size_t k = 0; k < n; k++) {
            char *s = extra_name("n", k, n);
            hostlist_index_add(mix, s, k);
            hostlist_push(m, s);
            xfree(s);
        }
    }
    if (m->n > o->max_nodes && !o->nodes_file && o->machine_nodes == 0)
        return bfs_fail(e, BFS_ERANGE,
                        "the log names %zu hosts, more than --max-nodes %zu: "
                        "give the machine's nodes with --nodes-file, or "
                        "raise --max-nodes",
                        m->n, o->max_nodes);
    for (size_t i = 0; i < a->hosts.n; i++) {
        size_t j = hostlist_index_find(mix, a->hosts.names[i]);
        remap[i] = j == (size_t)-1 ? UINT32_MAX : (uint32_t)j;
    }
    return 0;
}

/* ---- conversion ---------------------------------------------------- */

/* Hands the runs to the engine, counting them in the report. */
static int place_runs(struct acct *a, struct import_log *engine,
                      const uint32_t *remap, size_t n_machine)
{
    struct import_acct_report *r = a->rep;
    uint32_t *idx = NULL;
    size_t cap = 0;
    int rc = 0;

    for (size_t k = 0; k < a->n_runs && rc == 0; k++) {
        const struct acct_run *run = &a->runs[k];
        int64_t end = run->end;
        size_t n = 0;

        if (end == IMPORT_TIME_NONE) {
            end = a->latest;
            r->running++;
        }
        if (end == run->start) {
            r->zero_run++;
            continue;
        }
        if (end < run->start) {
            r->bad_interval++;
            continue;
        }
        if (run->n == 0 && run->need == 0) {
            r->no_size++;
            continue;
        }
        if (run->n == 0) {
            r->runs++;
            r->counted++;
            rc = import_log_add_count(engine, run->start, end, run->need);
            continue;
        }
        BFS_GROW(idx, cap, run->n);
        for (size_t i = 0; i < run->n; i++) {
            uint32_t j = remap[a->nodes[run->off + i]];
            if (j == UINT32_MAX)
                r->outside_nodes++;
            else
                idx[n++] = j;
        }
        if (n == 0) {
            r->no_size++;
            continue;
        }
        r->runs++;
        rc = import_log_add_nodes(engine, run->start, end, idx, n);
    }
    (void)n_machine;
    xfree(idx);
    return rc;
}

int acct_convert(struct acct *a, const char *format, const char *paths,
                 const char *out_path, const char *const *comments,
                 const char *const *extra, struct import_stats *st,
                 struct bfs_error *e)
{
    const struct import_log_opts *o = a->o;
    struct import_acct_report *r = a->rep;
    struct hostlist m;
    struct hostlist_index *mix = hostlist_index_new();
    uint32_t *remap = xcalloc(a->hosts.n ? a->hosts.n : 1, sizeof *remap);
    struct trace_writer *w = NULL;
    struct import_log *engine = NULL;
    char **cm = NULL, machine[160];
    const char **lines;
    size_t n_extra = 0;
    int rc;

    hostlist_init(&m);
    for (size_t k = 0; extra && extra[k]; k++)
        n_extra++;
    lines = xcalloc(n_extra + 2, sizeof *lines);
    if ((rc = make_machine(a, paths, &m, mix, remap, e)) != 0)
        goto out;
    if (m.n == 0) {
        rc = bfs_fail(e, BFS_EINVAL, "%s: no job ran: nothing to convert",
                      paths);
        goto out;
    }
    snprintf(machine, sizeof machine, "machine: %zu nodes (%s)", m.n,
             r->log.nodes_from);
    lines[0] = machine;
    for (size_t k = 0; k < n_extra; k++)
        lines[k + 1] = extra[k];
    cm = import_log_comments(comments, format, paths, lines, o);
    if ((rc = import_log_writer_open(out_path, (const char *const *)m.names,
                                     NULL, m.n, (const char *const *)cm, o, st,
                                     &w, e)) != 0)
        goto out;
    engine = import_log_new(o, m.n, w, paths);
    rc = place_runs(a, engine, remap, m.n);
    if (rc != 0) {
        rc = bfs_fail(e, BFS_EINVAL,
                      "%s: internal: a run before the final "
                      "time",
                      paths);
        goto out;
    }
    rc = import_log_end(engine, w, &r->log, st, e);
    engine = NULL;
    w = NULL;
    if (rc)
        goto out;
    r->log.nodes = m.n;
    r->latest = a->latest;
out:
    import_log_free(engine);
    trace_writer_abort(w);
    import_log_comments_free(cm);
    xfree(lines);
    hostlist_release(&m);
    hostlist_index_free(mix);
    xfree(remap);
    return rc;
}

/* ---- report -------------------------------------------------------- */

void import_acct_report_write(const struct import_acct_report *r, FILE *f)
{
    int pbs = strcmp(r->log.format, "pbs") == 0;
    char t0[BFS_TIME_LEN];

    fprintf(f, "bfsim: %s: %zu files, %zu lines, %zu records", r->log.format,
            r->files, r->lines, r->records);
    if (!pbs && r->version[0])
        fprintf(f, " (format version %s)", r->version);
    if (pbs)
        fprintf(f, "; time stamps in %s (--tz)", r->tz);
    fputc('\n', f);
    fprintf(f, "bfsim: record kinds not read:");
    if (r->n_kinds == 0)
        fprintf(f, " none");
    for (size_t k = 0; k < r->n_kinds; k++)
        fprintf(f, "%s %s %zu", k ? "," : "", r->kinds[k].name, r->kinds[k].n);
    fputc('\n', f);
    fprintf(f,
            "bfsim: %zu runs (%zu placed from a node count only); skipped: "
            "%zu never ran, %zu ran 0 s, %zu end before start, %zu without "
            "nodes\n",
            r->runs, r->counted, r->never_ran, r->zero_run, r->bad_interval,
            r->no_size);
    if (pbs)
        fprintf(f,
                "bfsim: %zu runs ended by a rerun (R), %zu by a deletion or "
                "abort (D, A) without an E record, %zu by a later start (S); "
                "%zu duplicate S/E records; %zu R/D/A records of jobs not "
                "running\n",
                r->reruns, r->deleted, r->restarted, r->duplicates,
                r->ends_nothing);
    else
        fprintf(f, "bfsim: %zu slots (execHosts entries)\n", r->slots);
    if (r->running)
        fprintf(f,
                "bfsim: %zu runs without an end record end at the latest "
                "time read, %s UTC\n",
                r->running, bfs_time_format(r->latest, t0));
    if (r->outside_nodes)
        fprintf(f, "bfsim: %zu host mentions outside --nodes-file ignored\n",
                r->outside_nodes);
    if (r->bad)
        fprintf(f, "bfsim: %zu malformed records skipped (--skip-bad)\n",
                r->bad);
    fprintf(f, "bfsim: machine: %zu nodes (%s)\n", r->log.nodes,
            r->log.nodes_from);
    if (r->counted)
        fprintf(f,
                "bfsim: placement %s, overflow %s: %zu runs placed in full, "
                "%zu truncated, %zu dropped\n",
                r->log.placement == IMPORT_CONTIGUOUS ? "contiguous"
                                                      : "first-fit",
                r->log.overflow == IMPORT_SKIP ? "skip" : "truncate",
                r->log.placed, r->log.truncated, r->log.dropped);
    {
        char t1[BFS_TIME_LEN];
        fprintf(f, "bfsim: trace %s .. %s UTC: %.1f idle node-hours offered\n",
                bfs_time_format(r->log.start, t0),
                bfs_time_format(r->log.end, t1),
                (double)r->log.idle_node_s / 3600.0);
    }
    if (r->log.outage_threshold > 0.0)
        fprintf(f,
                "bfsim: outages: %zu periods not offered, %.1f idle "
                "node-hours removed\n",
                r->log.outages, (double)r->log.outage_node_s / 3600.0);
}

int import_acct_warnings(const struct import_acct_report *r, FILE *f)
{
    int n = 0;

    if (strcmp(r->log.nodes_from, "hosts in the log") == 0) {
        fprintf(f,
                "bfsim: warning: the machine is the %zu hosts the log names: "
                "nodes no job ran on are missing (give the machine's nodes "
                "with --nodes-file%s)\n",
                r->log.nodes,
                strcmp(r->log.format, "pbs") == 0 ? ", e.g. pbsnodes -av "
                                                    "output"
                                                  : "");
        n++;
    }
    if (r->bad) {
        fprintf(f,
                "bfsim: warning: %zu malformed records skipped; the "
                "first: %s\n",
                r->bad, r->first_bad);
        n++;
    }
    return n + import_log_warnings(&r->log, f);
}

int acct_import(struct acct *a, const char *const *src, size_t n,
                acct_record_fn fn, void *arg, const char *format,
                const char *out_path, const char *const *comments,
                const char *const *extra, struct import_stats *st,
                struct import_acct_report *rep, struct bfs_error *e)
{
    struct import_stats stats;
    char **files = NULL, *paths;
    size_t n_files = 0;
    int rc = acct_files(src, n, &files, &n_files, e);

    for (size_t k = 0; k < n_files && rc == 0; k++)
        rc = acct_read(a, files[k], fn, arg, e);
    acct_files_free(files, n_files);
    if (rc)
        return rc;
    a->rep->files = n_files;
    paths = acct_joined(src, n);
    memset(&stats, 0, sizeof stats);
    rc = acct_convert(a, format, paths, out_path, comments, extra, &stats, e);
    xfree(paths);
    if (rc == 0 && st)
        *st = stats;
    if (rc == 0 && rep)
        *rep = *a->rep;
    return rc;
}
