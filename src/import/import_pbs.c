/* import_pbs.c - PBS Pro, OpenPBS and Torque accounting logs to native
 * traces (the rules: import_pbs in import.h; the machine: import_acct.h).
 *
 * Every file is read in name order, one record a line, and each job's
 * latest run is followed through its records by a small state machine
 * (a hash of job IDs to struct pjob):
 *
 *   S        a run starts: OPEN (a run OPEN with another start ends
 *            there; an S of the latest run's start is a duplicate)
 *   E        ends the OPEN or PENDING_E run of its start (or the latest
 *            one when E gives no start): CLOSED; an E of a run not read
 *            (its S in a file not given) is a whole run by itself
 *   R        ends the OPEN run at the record's time: CLOSED
 *   D, A     end the OPEN run at the record's time, but PBS writes an E
 *            when a running job deleted or aborted has exited:
 *            PENDING_E, which that E ends instead
 *
 * So a job spanning midnight is one run whatever file its records lie
 * in, and a rerun job one run per start.  A run still OPEN at the end
 * runs to the latest time read (acct_convert).
 */
#include "config.h"

#include "import/import.h"
#include "import/import_acct.h"
#include "import/import_log.h"
#include "base/util.h"

#include <ctype.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { NO_RUN, OPEN, PENDING_E, CLOSED };

/* The off of a placement that only checks the hosts (a record is checked
 * whole before it changes anything, so that --skip-bad leaves no trace
 * of it). */
#define DRY SIZE_MAX

struct pjob {
    size_t run; /* index in acct.runs, when state != NO_RUN */
    int state;
};

/* The attributes of an S or E record that are read (into the line). */
struct attrs {
    const char *start, *end, *exec_host, *exec_vnode, *nodect, *select, *nodes;
};

struct pbs {
    struct acct a;
    struct import_tz *tz;
    struct hostlist_index *jix; /* job ID -> index in jobs */
    struct pjob *jobs;
    size_t n_jobs, cap_jobs;
};

/* A malformed record (acct_malformed). */
#define bad(p, ...) acct_malformed(&(p)->a, __VA_ARGS__)

/* ---- fields -------------------------------------------------------- */

/* n digits at s into *v. */
static int digits(const char *s, int n, int *v)
{
    *v = 0;
    for (int k = 0; k < n; k++) {
        if (!isdigit((unsigned char)s[k]))
            return 0;
        *v = *v * 10 + (s[k] - '0');
    }
    return 1;
}

/* "MM/DD/YYYY HH:MM:SS" into Unix seconds. */
static int record_time(struct pbs *p, const char *s, size_t len, int64_t *t)
{
    int mo, d, y, h, mi, se;

    if (len != 19 || s[2] != '/' || s[5] != '/' || s[10] != ' ' ||
        s[13] != ':' || s[16] != ':' || !digits(s, 2, &mo) ||
        !digits(s + 3, 2, &d) || !digits(s + 6, 4, &y) ||
        !digits(s + 11, 2, &h) || !digits(s + 14, 2, &mi) ||
        !digits(s + 17, 2, &se) || mo < 1 || mo > 12 || d < 1 || d > 31 ||
        h > 23 || mi > 59 || se > 60)
        return bad(p, "the record does not start with a time MM/DD/YYYY "
                      "HH:MM:SS");
    *t = import_tz_local(p->tz, y, mo, d, h, mi, se);
    return 0;
}

/* A time attribute (Unix seconds); *t IMPORT_TIME_NONE when absent or 0
 * (Torque writes start=0 for a job that did not start). */
static int attr_time(struct pbs *p, const char *v, const char *name, int64_t *t)
{
    int64_t x;

    *t = IMPORT_TIME_NONE;
    if (!v)
        return 0;
    if (bfs_parse_i64(v, &x) != 0 || x < 0 || x > BFS_TIME_MAX)
        return bad(p, "%s is not a time in Unix seconds", name);
    if (x > 0)
        *t = x;
    return 0;
}

/* Splits the message into attributes, NUL-terminating the values read. */
static int parse_attrs(struct pbs *p, char *s, struct attrs *at)
{
    static const struct {
        const char *key;
        size_t off;
    } keys[] = {
        {"start", offsetof(struct attrs, start)},
        {"end", offsetof(struct attrs, end)},
        {"exec_host", offsetof(struct attrs, exec_host)},
        {"exec_vnode", offsetof(struct attrs, exec_vnode)},
        {"Resource_List.nodect", offsetof(struct attrs, nodect)},
        {"Resource_List.select", offsetof(struct attrs, select)},
        {"Resource_List.nodes", offsetof(struct attrs, nodes)},
    };

    memset(at, 0, sizeof *at);
    while (*s) {
        char *key, *val, *eq;
        while (*s == ' ' || *s == '\t')
            s++;
        if (!*s)
            break;
        key = s;
        eq = s + strcspn(s, "= \t");
        if (*eq != '=')
            return bad(p, "attribute '%.40s' is not KEY=VALUE", key);
        *eq = '\0';
        val = eq + 1;
        if (*val == '"') {
            char *q = strchr(++val, '"');
            if (!q)
                return bad(p, "the quoted value of %s does not end", key);
            *q = '\0';
            s = q + 1;
            if (*s && *s != ' ' && *s != '\t')
                return bad(p, "text after the quoted value of %s", key);
        } else {
            s = val + strcspn(val, " \t");
            if (*s)
                *s++ = '\0';
        }
        for (size_t k = 0; k < sizeof keys / sizeof *keys; k++)
            if (strcmp(key, keys[k].key) == 0)
                *(const char **)((char *)at + keys[k].off) = val;
    }
    return 0;
}

/* exec_host "h1/0*2+h2/0-3+h3" (the host is the text before '/'). */
static int hosts_exec_host(struct pbs *p, const char *v, size_t off)
{
    for (const char *s = v;; s++) {
        size_t n = strcspn(s, "+"), h = strcspn(s, "/+");
        if (h == 0)
            return bad(p, "exec_host '%.60s' has an empty host", v);
        if (off != DRY)
            acct_host(&p->a, off, s, h);
        s += n;
        if (!*s)
            return 0;
    }
}

/* exec_vnode "(v1:ncpus=2)+(v2:ncpus=1+v3:ncpus=1)": chunks in
 * parentheses, each one or more vnodes joined by '+'. */
static int hosts_exec_vnode(struct pbs *p, const char *v, size_t off)
{
    int depth = 0;

    for (const char *s = v; *s;) {
        size_t n;
        if (*s == '(') {
            if (depth++)
                return bad(p, "exec_vnode '%.60s' nests parentheses", v);
            s++;
        }
        n = strcspn(s, ":+()");
        if (n == 0)
            return bad(p, "exec_vnode '%.60s' has an empty vnode", v);
        if (off != DRY)
            acct_host(&p->a, off, s, n);
        s += n;
        s += strcspn(s, "+()");
        if (*s == ')') {
            if (!depth--)
                return bad(p, "exec_vnode '%.60s' has a ')' without '('", v);
            s++;
        }
        if (*s == '(')
            return bad(p, "exec_vnode '%.60s' lacks a '+' between chunks", v);
        if (*s == '+' && *++s == '\0')
            return bad(p, "exec_vnode '%.60s' ends with '+'", v);
    }
    if (depth)
        return bad(p, "exec_vnode '%.60s' has a '(' without ')'", v);
    return 0;
}

/* The nodes of a select or nodes spec: the sum over its '+' chunks of
 * each one's leading count (1 when it starts with a name). */
static int chunk_count(struct pbs *p, const char *v, const char *name,
                       size_t *out)
{
    size_t sum = 0;

    for (const char *s = v;;) {
        size_t n = 1;
        if (isdigit((unsigned char)*s)) {
            n = 0;
            while (isdigit((unsigned char)*s)) {
                n = n * 10 + (size_t)(*s++ - '0');
                if (n > ((size_t)1 << 24))
                    return bad(p, "%s asks for more than 2^24 nodes", name);
            }
        }
        sum += n;
        s += strcspn(s, "+");
        if (!*s++)
            break;
    }
    if (sum > ((size_t)1 << 24))
        return bad(p, "%s asks for more than 2^24 nodes", name);
    *out = sum;
    return 0;
}

/* A run's hosts (from off on; DRY: checked only) or node count, from S
 * or E attributes. */
static int placement(struct pbs *p, const struct attrs *at, size_t off,
                     size_t *need)
{
    int64_t v;

    *need = 0;
    if (at->exec_host && *at->exec_host)
        return hosts_exec_host(p, at->exec_host, off);
    if (at->exec_vnode && *at->exec_vnode)
        return hosts_exec_vnode(p, at->exec_vnode, off);
    if (at->nodect) {
        if (bfs_parse_i64(at->nodect, &v) != 0 || v < 0 ||
            v > ((int64_t)1 << 24))
            return bad(p, "Resource_List.nodect '%.40s' is not a node count",
                       at->nodect);
        *need = (size_t)v;
        return 0;
    }
    if (at->select && *at->select)
        return chunk_count(p, at->select, "Resource_List.select", need);
    if (at->nodes && *at->nodes)
        return chunk_count(p, at->nodes, "Resource_List.nodes", need);
    return 0;
}

/* ---- records ------------------------------------------------------- */

static struct pjob *job_of(struct pbs *p, const char *id)
{
    size_t k = hostlist_index_find(p->jix, id);

    if (k == (size_t)-1) {
        k = p->n_jobs;
        hostlist_index_add(p->jix, id, k);
        BFS_GROW(p->jobs, p->cap_jobs, p->n_jobs + 1);
        p->jobs[p->n_jobs++] = (struct pjob){0, NO_RUN};
    }
    return &p->jobs[k];
}

/* Gives run r the hosts or count of at when it has none. */
static int fill_placement(struct pbs *p, size_t r, const struct attrs *at)
{
    struct acct_run *run = &p->a.runs[r];
    size_t off, need;
    int rc;

    if (run->n > 0 || run->need > 0)
        return 0;
    off = acct_hosts_begin(&p->a);
    if ((rc = placement(p, at, off, &need)) != 0)
        return rc;
    run = &p->a.runs[r];
    run->off = off;
    run->n = p->a.n_nodes - off;
    run->need = run->n ? 0 : need;
    return 0;
}

/* Gives job j a new run from start to end (IMPORT_TIME_NONE: open),
 * placed by at, and the state state. */
static int add_run(struct pbs *p, struct pjob *j, const struct attrs *at,
                   int64_t start, int64_t end, int state)
{
    size_t off = acct_hosts_begin(&p->a), need;
    int rc = placement(p, at, off, &need);

    if (rc)
        return rc;
    j->run = acct_run_add(&p->a, start, end, off, need);
    j->state = state;
    return 0;
}

static int record_start(struct pbs *p, struct pjob *j, int64_t t,
                        const struct attrs *at)
{
    struct import_acct_report *rep = p->a.rep;
    int64_t start;
    int rc;

    if ((rc = attr_time(p, at->start, "start", &start)) != 0)
        return rc;
    if (start == IMPORT_TIME_NONE)
        start = t;
    acct_saw(&p->a, start);
    if (j->state != NO_RUN) {
        struct acct_run *run = &p->a.runs[j->run];
        if (run->start == start) {
            rep->duplicates++;
            return fill_placement(p, j->run, at);
        }
        if (j->state == OPEN) {
            run->end = start;
            rep->restarted++;
        }
    }
    return add_run(p, j, at, start, IMPORT_TIME_NONE, OPEN);
}

static int record_end(struct pbs *p, struct pjob *j, int64_t t,
                      const struct attrs *at)
{
    struct import_acct_report *rep = p->a.rep;
    int64_t start, end;
    int rc;

    if ((rc = attr_time(p, at->start, "start", &start)) != 0 ||
        (rc = attr_time(p, at->end, "end", &end)) != 0)
        return rc;
    if (end == IMPORT_TIME_NONE)
        end = t;
    acct_saw(&p->a, start);
    acct_saw(&p->a, end);
    if (j->state != NO_RUN) {
        struct acct_run *run = &p->a.runs[j->run];
        int same = start == IMPORT_TIME_NONE || run->start == start;
        if (same && (j->state == OPEN || j->state == PENDING_E)) {
            if (j->state == PENDING_E)
                rep->deleted--;
            run->end = end;
            j->state = CLOSED;
            return fill_placement(p, j->run, at);
        }
        if (same) {
            rep->duplicates++;
            return fill_placement(p, j->run, at);
        }
        if (j->state == OPEN && start != IMPORT_TIME_NONE) {
            run->end = start;
            rep->restarted++;
        }
    }
    if (start == IMPORT_TIME_NONE) {
        rep->never_ran++;
        return 0;
    }
    return add_run(p, j, at, start, end, CLOSED);
}

/* One record line (modified in place; an acct_record_fn). */
static int record(void *arg, char *line)
{
    struct pbs *p = arg;
    struct import_acct_report *rep = p->a.rep;
    char *f[3], *msg, type;
    struct attrs at;
    struct pjob *j;
    int64_t t = 0;
    int rc;

    f[0] = line;
    for (int k = 1; k < 3; k++) {
        char *c = strchr(f[k - 1], ';');
        if (!c)
            return bad(p, "expected DATE TIME;TYPE;ID;MESSAGE");
        *c = '\0';
        f[k] = c + 1;
    }
    msg = strchr(f[2], ';');
    if (!msg)
        return bad(p, "expected DATE TIME;TYPE;ID;MESSAGE");
    *msg++ = '\0';
    if ((rc = record_time(p, f[0], strlen(f[0]), &t)) != 0)
        return rc;
    if (strlen(f[1]) != 1 || !isalpha((unsigned char)f[1][0]))
        return bad(p, "record type '%.20s' is not one letter", f[1]);
    type = f[1][0];
    if (!strchr("SERDA", type)) {
        acct_skip_kind(&p->a, f[1], 1);
        return 0;
    }
    if (!*f[2] || strpbrk(f[2], " \t"))
        return bad(p, "job ID '%.40s' is empty or holds a blank", f[2]);
    acct_saw(&p->a, t);
    if (type == 'S' || type == 'E') {
        int64_t x;
        size_t need;
        if ((rc = parse_attrs(p, msg, &at)) != 0 ||
            (rc = attr_time(p, at.start, "start", &x)) != 0 ||
            (rc = attr_time(p, at.end, "end", &x)) != 0 ||
            (rc = placement(p, &at, DRY, &need)) != 0)
            return rc;
        j = job_of(p, f[2]);
        return type == 'S' ? record_start(p, j, t, &at)
                           : record_end(p, j, t, &at);
    }
    j = job_of(p, f[2]);
    if (j->state != OPEN) {
        rep->ends_nothing++;
        return 0;
    }
    p->a.runs[j->run].end = t;
    if (type == 'R') {
        rep->reruns++;
        j->state = CLOSED;
    } else {
        rep->deleted++;
        j->state = PENDING_E;
    }
    return 0;
}

int import_pbs(const char *const *src, size_t n, const char *out_path,
               const char *const *comments, const struct import_log_opts *o,
               struct import_stats *st, struct import_acct_report *rep,
               struct bfs_error *e)
{
    struct import_acct_report r;
    struct pbs p;
    char zone[160];
    const char *extra[3] = {zone,
                            "nodes: exec_host, else exec_vnode; else "
                            "Resource_List.nodect, select or nodes, placed",
                            NULL};
    int rc;

    memset(&r, 0, sizeof r);
    memset(&p, 0, sizeof p);
    snprintf(r.log.format, sizeof r.log.format, "pbs");
    acct_init(&p.a, o, &r);
    p.jix = hostlist_index_new();
    if ((rc = import_log_check_opts(o, e)) != 0 ||
        (rc = import_tz_open(o->tz ? o->tz : "UTC", &p.tz, e)) != 0)
        goto out;
    snprintf(r.tz, sizeof r.tz, "%s", import_tz_name(p.tz));
    snprintf(zone, sizeof zone,
             "times: record stamps in %s (--tz) converted to UTC; start= "
             "and end= are Unix seconds",
             r.tz);
    rc = acct_import(&p.a, src, n, record, &p, "PBS", out_path, comments, extra,
                     st, rep, e);
out:
    xfree(p.jobs);
    hostlist_index_free(p.jix);
    import_tz_close(p.tz);
    acct_release(&p.a);
    return rc;
}
