/* options.c - the table of `bfsim replay`'s options.
 *
 * Design: one const array of entries, tmux-style, each naming its own
 * parser and default printer; everything else about an option (getopt's
 * table, the help, a sweep's key check) is derived by the code that
 * iterates the array.  A parser writes one field (or two) of struct
 * replay_args and returns NULL or the problem with its argument; the
 * caller words the usage error ("--tfwd: 'x' is not ..."), so every
 * message names the option and the value the same way.  A default
 * printer reads the struct options_default() filled, never a literal,
 * so the help shows what the code does.  Nothing here prints.
 */
#include "config.h"

#include "engine/options.h"

#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "base/util.h"
#include "engine/predict.h"
#include "formats/jobs.h"

void options_default(struct replay_args *a)
{
    memset(a, 0, sizeof *a);
    replay_opts_default(&a->replay);
}

int options_parse_nodes(const char *s, size_t *skip, size_t *count)
{
    const char *colon = strchr(s, ':');
    int64_t a = 0, b;
    char buf[64];

    if (colon) {
        if ((size_t)(colon - s) >= sizeof buf)
            return -1;
        memcpy(buf, s, (size_t)(colon - s));
        buf[colon - s] = '\0';
        if (bfs_parse_i64(buf, &a) || a < 0)
            return -1;
        s = colon + 1;
    }
    if (bfs_parse_i64(s, &b) || b < 1)
        return -1;
    *skip = (size_t)a;
    *count = (size_t)b;
    return 0;
}

/* ---- the records, whichever the command ------------------------------- */

/* The problem with a time that does not parse (OPTIONS_TIME, --start,
 * --end). */
static const char *const not_a_time =
    "is neither 'YYYY-MM-DD HH:MM:SS' nor Unix seconds";

const char *options_set(const struct options_entry *o, void *a, const char *arg)
{
    char *f = (char *)a + o->field;
    double d;
    int i;

    switch (o->type) {
    case OPTIONS_FLAG:
        *(int *)(void *)f = 1;
        return NULL;
    case OPTIONS_HELP:
        return NULL;
    case OPTIONS_STRING:
        *(const char **)(void *)f = arg;
        return NULL;
    case OPTIONS_INT:
        if (bfs_parse_int(arg, &i) || i < o->lo || i > o->hi)
            return o->bad;
        *(int *)(void *)f = i;
        return NULL;
    case OPTIONS_DOUBLE:
        if (bfs_parse_double(arg, &d) || d < o->lo || d > o->hi ||
            (o->lo_open && d == o->lo))
            return o->bad;
        *(double *)(void *)f = d;
        return NULL;
    case OPTIONS_LIST: {
        struct options_list *l = (void *)f;
        if (l->n == OPTIONS_MAX_LIST)
            return "is one too many (the option is taken 64 times at most)";
        l->v[l->n++] = arg;
        return NULL;
    }
    case OPTIONS_KEYED: {
        struct options_keyed *k = (void *)f;
        if (k->n == OPTIONS_MAX_LIST)
            return "is one too many (64 such options at most)";
        k->name[k->n] = o->name;
        k->value[k->n++] = arg ? arg : "1";
        return NULL;
    }
    case OPTIONS_TIME:
        return bfs_time_parse(arg, (int64_t *)(void *)f) ? not_a_time : NULL;
    case OPTIONS_CUSTOM:
        return o->parse(a, arg);
    }
    return "is not understood";
}

void options_value(const struct options_entry *o, const void *a, char *buf,
                   size_t size)
{
    const char *f = (const char *)a + o->field;

    if (o->show) {
        o->show(a, buf, size);
        return;
    }
    switch (o->type) {
    case OPTIONS_FLAG:
        snprintf(buf, size, "%d", *(const int *)(const void *)f);
        break;
    case OPTIONS_INT:
        snprintf(buf, size, "%d", *(const int *)(const void *)f);
        break;
    case OPTIONS_DOUBLE:
        snprintf(buf, size, "%g", *(const double *)(const void *)f);
        break;
    case OPTIONS_STRING: {
        const char *v = *(const char *const *)(const void *)f;
        snprintf(buf, size, "%s", v ? v : "");
        break;
    }
    case OPTIONS_TIME: {
        int64_t t = *(const int64_t *)(const void *)f;
        char d[BFS_TIME_LEN];
        snprintf(buf, size, "%s",
                 t >= BFS_TIME_MIN && t <= BFS_TIME_MAX ? bfs_time_format(t, d)
                                                        : "");
        break;
    }
    default:
        snprintf(buf, size, "%s", "");
    }
}

/* The typed value of o in a, under o->key. */
static size_t record_typed(const struct options_entry *o, const void *a,
                           struct summary_value *v)
{
    const char *f = (const char *)a + o->field;

    memset(v, 0, sizeof *v);
    v->key = o->key;
    v->unit = "";
    switch (o->type) {
    case OPTIONS_FLAG:
    case OPTIONS_INT:
        v->type = SUMMARY_INT;
        v->v.i = *(const int *)(const void *)f;
        return 1;
    case OPTIONS_DOUBLE:
        v->type = SUMMARY_REAL;
        v->v.d = *(const double *)(const void *)f;
        return 1;
    case OPTIONS_STRING:
        v->type = SUMMARY_TEXT;
        v->v.s = *(const char *const *)(const void *)f;
        v->none = v->v.s == NULL;
        return 1;
    default:
        return 0;
    }
}

size_t options_record(const struct options_command *c, const void *a,
                      struct summary_value *v, size_t max)
{
    struct summary_value one[OPTIONS_MAX_RECORD];
    size_t n = 0;

    for (size_t i = 0; i < c->count; i++) {
        const struct options_entry *o = &c->table[i];
        size_t k;
        if (!o->recorded)
            continue;
        memset(one, 0, sizeof one);
        k = o->record ? o->record(a, one) : record_typed(o, a, one);
        for (size_t j = 0; j < k && n < max; j++) {
            if (one[j].none) /* not given, and no default: absent */
                continue;
            v[n] = one[j];
            v[n].group = "parameters";
            v[n].describes = 1;
            if (!v[n].unit)
                v[n].unit = "";
            n++;
        }
    }
    return n;
}

const struct options_entry *options_lookup(const struct options_command *c,
                                           const char *name)
{
    for (size_t i = 0; i < c->count; i++)
        if (strcmp(c->table[i].name, name) == 0)
            return &c->table[i];
    return NULL;
}

const struct options_entry *
options_lookup_short(const struct options_command *c, int ch)
{
    for (size_t i = 0; ch && i < c->count; i++)
        if (c->table[i].short_name == ch)
            return &c->table[i];
    return NULL;
}

/* getopt_long's tables for c's records: long options whose val is 256 +
 * the record's index (or its short name), and the short options'
 * string, ':' first (a missing argument returns ':'). */
static void getopt_tables(const struct options_command *c, struct option *lo,
                          char *shorts)
{
    *shorts++ = ':';
    for (size_t i = 0; i < c->count; i++) {
        const struct options_entry *o = &c->table[i];
        lo[i].name = o->name;
        lo[i].has_arg = o->arg ? required_argument : no_argument;
        lo[i].flag = NULL;
        lo[i].val = o->short_name ? o->short_name : 256 + (int)i;
        if (o->short_name) {
            *shorts++ = (char)o->short_name;
            if (o->arg)
                *shorts++ = ':';
        }
    }
    *shorts = '\0';
}

/* The record getopt_long's return ch stands for, or NULL with the
 * problem in e (an unknown option, or one missing its value). */
static const struct options_entry *
getopt_record(const struct options_command *c, int ch, char **argv,
              struct bfs_error *e)
{
    const struct options_entry *o;

    if (ch == ':') {
        bfs_fail(e, BFS_EUSAGE, "option '%s' needs a value", argv[optind - 1]);
        return NULL;
    }
    o = ch >= 256 ? &c->table[ch - 256] : options_lookup_short(c, ch);
    if (!o && optopt > 0 && optopt < 256 && !options_lookup_short(c, optopt))
        /* an unknown letter, maybe inside "-qx" */
        bfs_fail(e, BFS_EUSAGE, "unknown option '-%c'", optopt);
    else if (!o)
        bfs_fail(e, BFS_EUSAGE, "unknown or incomplete option '%s'",
                 argv[optind - 1]);
    return o;
}

int options_parse(const struct options_command *c, int argc, char **argv,
                  void *a, unsigned char *given_out, int *help, int *operand,
                  struct bfs_error *e)
{
    struct option *lo = xcalloc(c->count + 1, sizeof *lo);
    unsigned char *given = xcalloc(c->count + 1, 1);
    char *shorts = xmalloc(3 * c->count + 2);
    const struct options_entry *o;
    const char *problem;
    int ch, rc = 0, h = 0;

    c->defaults(a);
    getopt_tables(c, lo, shorts);
    opterr = 0;
    optind = 0;
    while (!h && (ch = getopt_long(argc, argv, shorts, lo, NULL)) != -1) {
        if ((o = getopt_record(c, ch, argv, e)) == NULL) {
            rc = BFS_EUSAGE;
            break;
        }
        if ((problem = options_set(o, a, o->arg ? optarg : NULL)) != NULL) {
            rc = bfs_fail(e, BFS_EUSAGE, "--%s: '%s' %s", o->name, optarg,
                          problem);
            break;
        }
        given[o - c->table] = 1;
        h = o->type == OPTIONS_HELP;
    }
    if (rc == 0 && !h && c->check)
        rc = c->check(a, given, e);
    if (rc == 0) {
        *help = h;
        *operand = optind;
        if (given_out)
            memcpy(given_out, given, c->count);
    }
    xfree(given);
    xfree(shorts);
    xfree(lo);
    return rc;
}

/* The help's layout: option names from column 2, text from HELP_COL,
 * lines at most HELP_WIDTH characters. */
#define HELP_COL 21
#define HELP_WIDTH 78

/* Writes text from column col (the cursor there) wrapped at word
 * boundaries, continuation lines from HELP_COL. */
static void help_wrap(FILE *f, const char *p, size_t col)
{
    int first = 1;

    while (*p) {
        size_t w = strcspn(p, " ");
        if (!first && col + 1 + w > HELP_WIDTH) {
            fprintf(f, "\n%*s", HELP_COL, "");
            col = HELP_COL;
            first = 1;
        }
        if (!first) {
            fputc(' ', f);
            col++;
        }
        fwrite(p, 1, w, f);
        col += w;
        first = 0;
        for (p += w; *p == ' '; p++)
            ;
    }
    fputc('\n', f);
}

/* One record of the help: "  -o, --output FILE  TEXT (default: D)". */
static void help_entry(FILE *f, const struct options_entry *o, const void *d)
{
    char left[128], def[256], text[1024];
    size_t col;

    if (o->short_name)
        snprintf(left, sizeof left, "  -%c, --%s%s%s", o->short_name, o->name,
                 o->arg ? " " : "", o->arg ? o->arg : "");
    else
        snprintf(left, sizeof left, "  --%s%s%s", o->name, o->arg ? " " : "",
                 o->arg ? o->arg : "");
    if (o->show_default) {
        options_value(o, d, def, sizeof def);
        snprintf(text, sizeof text, "%s (default: %s)", o->help, def);
    } else {
        snprintf(text, sizeof text, "%s", o->help);
    }
    col = strlen(left);
    fputs(left, f);
    if (col + 2 <= HELP_COL) {
        fprintf(f, "%*s", (int)(HELP_COL - col), "");
        col = HELP_COL;
    } else {
        fputs("  ", f);
        col += 2;
    }
    help_wrap(f, text, col);
}

int options_help(const struct options_command *c, FILE *f)
{
    void *d = xcalloc(1, c->size);

    c->defaults(d);
    fputs(c->synopsis, f);
    for (size_t g = 0; g < c->n_groups; g++) {
        fprintf(f, "\n%s\n", c->groups[g]);
        for (size_t i = 0; i < c->count; i++)
            if ((size_t)c->table[i].group == g)
                help_entry(f, &c->table[i], d);
    }
    if (c->tail)
        fputs(c->tail, f);
    xfree(d);
    return ferror(f) ? -1 : 0;
}

/* ---- parsers ------------------------------------------------------------- */

static const char *p_start(void *v, const char *s)
{
    struct replay_args *a = v;
    if (bfs_time_parse(s, &a->replay.start))
        return not_a_time;
    a->replay.has_start = 1;
    return NULL;
}

static const char *p_end(void *v, const char *s)
{
    struct replay_args *a = v;
    if (bfs_time_parse(s, &a->replay.end))
        return not_a_time;
    a->replay.has_end = 1;
    return NULL;
}

static const char *p_nodes(void *v, const char *s)
{
    struct replay_args *a = v;
    if (options_parse_nodes(s, &a->replay.node_skip, &a->replay.node_count))
        return "is not [SKIP:]COUNT with COUNT >= 1";
    return NULL;
}

static const char *p_objective(void *v, const char *s)
{
    struct replay_args *a = v;
#define OBJ_NAME(name, text) " " text
    a->replay.objective = job_objective_parse(s);
    if (a->replay.objective < 0)
        return "is not a metric (known:" JOB_OBJECTIVES(OBJ_NAME) ")";
    return NULL;
#undef OBJ_NAME
}

static const char *p_tie_break(void *v, const char *s)
{
    struct replay_args *a = v;
    if (tiebreak_parse(s, &a->replay.tie_break))
        return "is not a rule (known: first-admitted least-remaining "
               "most-remaining fewest-node-seconds random:SEED)";
    return NULL;
}

static const char *p_node_pick(void *v, const char *s)
{
    struct replay_args *a = v;
    if (nodepick_parse(s, &a->replay.node_pick))
        return "is not a rule (known: longest-idle lowest-index random:SEED "
               "oracle predicted)";
    return NULL;
}

static const char *p_hints(void *v, const char *s)
{
    struct replay_args *a = v;
    if (nodepick_hints_parse(s, &a->replay.hints))
        return "is not a source of hints (known: off oracle predicted)";
    return NULL;
}

static const char *p_belief(void *v, const char *s)
{
    struct replay_args *a = v;
#define BELIEF_MODEL(name, text) " learn:" text
    if (belief_opts_parse(s, &a->replay.belief))
        return "is not a belief (known: true FILE predict:FILE" CURVEFIT_MODELS(
            BELIEF_MODEL) ")";
    return NULL;
#undef BELIEF_MODEL
}

/* X[:SEED] with X a number in [lo, hi) into *x and *seed (kept when
 * SEED is not given). */
static const char *number_seed(const char *s, double lo, double hi, double *x,
                               uint64_t *seed)
{
    const char *colon = strchr(s, ':');
    char buf[64];
    double v;
    uint64_t sd = *seed;

    if (colon) {
        int64_t n;
        if (bfs_parse_i64(colon + 1, &n) || n < 0)
            return "SEED is not a count";
        sd = (uint64_t)n;
    }
    if (strlen(s) >= sizeof buf)
        return "is too long";
    memcpy(buf, s, strlen(s) + 1);
    if (colon)
        buf[colon - s] = '\0';
    if (bfs_parse_double(buf, &v) || !(v >= lo) || !(v < hi))
        return "is out of range";
    *x = v;
    *seed = sd;
    return NULL;
}

static const char *p_observe_noise(void *v, const char *s)
{
    struct replay_args *a = v;
    if (number_seed(s, 0, 10, &a->replay.belief.noise, &a->replay.belief.seed))
        return "is not SIGMA[:SEED] (SIGMA a number in [0, 10), SEED a "
               "count)";
    return NULL;
}

static const char *p_explore(void *v, const char *s)
{
    struct replay_args *a = v;
    struct belief_opts *b = &a->replay.belief;
    static const char bad[] = "is not EPS[:SEED], thompson[:SEED] or ucb[:K] "
                              "(EPS a probability in [0, 1], SEED a count, K "
                              "a number in [0, 100))";

    b->explore_rule = EXPLORE_EPS;
    if (strncmp(s, "thompson", 8) == 0 && (s[8] == '\0' || s[8] == ':')) {
        int64_t n;
        b->explore_rule = EXPLORE_THOMPSON;
        b->explore = 0;
        if (s[8] && (bfs_parse_i64(s + 9, &n) || n < 0))
            return bad;
        if (s[8])
            b->explore_seed = (uint64_t)n;
        return NULL;
    }
    if (strncmp(s, "ucb", 3) == 0 && (s[3] == '\0' || s[3] == ':')) {
        b->explore_rule = EXPLORE_UCB;
        b->explore = 0;
        b->explore_k = 1.0;
        if (s[3] && (bfs_parse_double(s + 4, &b->explore_k) ||
                     !(b->explore_k >= 0) || !(b->explore_k < 100)))
            return bad;
        return NULL;
    }
    if (number_seed(s, 0, 1.0000001, &b->explore, &b->explore_seed) ||
        b->explore > 1)
        return bad;
    return NULL;
}

static const char *p_belief_pool(void *v, const char *s)
{
    struct replay_args *a = v;
    struct belief_opts *b = &a->replay.belief;

    if (!*s)
        return "is not off, alone or a feature column's name";
    b->pool = strcmp(s, "off") == 0     ? POOL_OFF
              : strcmp(s, "alone") == 0 ? POOL_ALONE
                                        : POOL_FEATURE;
    b->pool_column = b->pool == POOL_FEATURE ? s : NULL;
    return NULL;
}

static const char *p_compat(void *v, const char *s)
{
    struct replay_args *a = v;
    if (strcmp(s, "bftrainer") != 0)
        return "is not a compatible mode (known: bftrainer)";
    a->replay.mode = REPLAY_COMPAT;
    return NULL;
}

static const char *p_types_aware(void *v, const char *s)
{
    struct replay_args *a = v;
    if (strcmp(s, "yes") != 0 && strcmp(s, "no") != 0)
        return "is neither yes nor no";
    a->replay.types_aware = strcmp(s, "yes") == 0;
    return NULL;
}

static const char *p_big_m(void *v, const char *s)
{
    struct replay_args *a = v;
    if (strcmp(s, "legacy") != 0 && strcmp(s, "exact") != 0)
        return "is neither legacy nor exact";
    a->replay.legacy_cap = strcmp(s, "legacy") == 0;
    return NULL;
}

/* ---- defaults as the help shows them ------------------------------------- */

static void d_trace(const void *v, char *b, size_t n)
{
    const struct replay_args *d = v;
    if (d->replay.trace_path)
        snprintf(b, n, "%s", d->replay.trace_path);
    else
        snprintf(b, n, "the bundled Summit trace, %s", OPTIONS_BUNDLED_TRACE);
}

static void d_jobs(const void *v, char *b, size_t n)
{
    const struct replay_args *d = v;
    if (d->replay.jobs_path)
        snprintf(b, n, "%s", d->replay.jobs_path);
    else
        snprintf(b, n, "the bundled 10-job ShuffleNet set, %s",
                 OPTIONS_BUNDLED_JOBS);
}

static void show_time(int has, int64_t t, const char *none, char *b, size_t n)
{
    char ts[BFS_TIME_LEN];

    if (has)
        snprintf(b, n, "%s", bfs_time_format(t, ts));
    else
        snprintf(b, n, "%s", none);
}

static void d_start(const void *v, char *b, size_t n)
{
    const struct replay_args *d = v;
    show_time(d->replay.has_start, d->replay.start,
              "the later of the trace's start and the first submission", b, n);
}

static void d_end(const void *v, char *b, size_t n)
{
    const struct replay_args *d = v;
    show_time(d->replay.has_end, d->replay.end, "the trace's end", b, n);
}

static void d_nodes(const void *v, char *b, size_t n)
{
    const struct replay_args *d = v;
    if (d->replay.node_count)
        snprintf(b, n, "%zu:%zu", d->replay.node_skip, d->replay.node_count);
    else if (d->replay.node_skip)
        snprintf(b, n, "all after the first %zu", d->replay.node_skip);
    else
        snprintf(b, n, "all");
}

static void d_objective(const void *v, char *b, size_t n)
{
    const struct replay_args *d = v;
    snprintf(b, n, "%s", job_objective_name(d->replay.objective));
}

static void d_tie_break(const void *v, char *b, size_t n)
{
    const struct replay_args *d = v;
    snprintf(b, n, "%s", d->replay.tie_break.name);
}

static void d_node_pick(const void *v, char *b, size_t n)
{
    const struct replay_args *d = v;
    snprintf(b, n, "%s", d->replay.node_pick.name);
}

static void d_types_aware(const void *v, char *b, size_t n)
{
    const struct replay_args *d = v;
    snprintf(b, n, "%s", d->replay.types_aware ? "yes" : "no");
}

static void d_hints(const void *v, char *b, size_t n)
{
    const struct replay_args *d = v;
    snprintf(b, n, "%s", nodepick_hints_name(d->replay.hints));
}

static void d_belief(const void *v, char *b, size_t n)
{
    const struct replay_args *d = v;
    snprintf(b, n, "%s", belief_opts_name(&d->replay.belief));
}

static void d_observe_noise(const void *v, char *b, size_t n)
{
    const struct replay_args *d = v;
    snprintf(b, n, "%g:%" PRIu64, d->replay.belief.noise,
             d->replay.belief.seed);
}

static void d_explore(const void *v, char *b, size_t n)
{
    const struct replay_args *d = v;
    const struct belief_opts *o = &d->replay.belief;

    if (o->explore_rule == EXPLORE_THOMPSON)
        snprintf(b, n, "thompson:%" PRIu64, o->explore_seed);
    else if (o->explore_rule == EXPLORE_UCB)
        snprintf(b, n, "ucb:%g", o->explore_k);
    else
        snprintf(b, n, "%g:%" PRIu64, o->explore, o->explore_seed);
}

static void d_belief_pool(const void *v, char *b, size_t n)
{
    const struct replay_args *d = v;
    snprintf(b, n, "%s", belief_pool_name(&d->replay.belief));
}

static void show_name(const char *name, char *b, size_t n)
{
    snprintf(b, n, "%s", name ? name : "none compiled in");
}

static void d_allocator(const void *v, char *b, size_t n)
{
    const struct replay_args *d = v;
    show_name(d->replay.alloc.name, b, n);
}

static void d_solver(const void *v, char *b, size_t n)
{
    const struct replay_args *d = v;
    show_name(d->replay.alloc.solver, b, n);
}

static void d_model(const void *v, char *b, size_t n)
{
    const struct replay_args *d = v;
    show_name(d->replay.alloc.model, b, n);
}

static void d_compat(const void *v, char *b, size_t n)
{
    const struct replay_args *d = v;
    snprintf(b, n, "%s", d->replay.mode == REPLAY_COMPAT ? "bftrainer" : "off");
}

static void d_big_m(const void *v, char *b, size_t n)
{
    const struct replay_args *d = v;
    snprintf(b, n, "%s", d->replay.legacy_cap ? "legacy" : "exact");
}

/* ---- values recorded with the results ------------------------------------ */

static size_t text(struct summary_value *v, const char *key, const char *s)
{
    v->key = key;
    v->type = SUMMARY_TEXT;
    v->v.s = s;
    return 1;
}

static size_t integer(struct summary_value *v, const char *key, int64_t i)
{
    v->key = key;
    v->type = SUMMARY_INT;
    v->v.i = i;
    return 1;
}

static size_t real(struct summary_value *v, const char *key, double d)
{
    v->key = key;
    v->type = SUMMARY_REAL;
    v->v.d = d;
    return 1;
}

/* A time, none when not given. */
static size_t time_of(struct summary_value *v, const char *key, int has,
                      int64_t t)
{
    integer(v, key, has ? t : 0);
    v->type = SUMMARY_TIME;
    v->none = !has;
    return 1;
}

static size_t r_start(const void *p, struct summary_value *v)
{
    const struct replay_args *a = p;
    return time_of(v, "start", a->replay.has_start, a->replay.start);
}

static size_t r_end(const void *p, struct summary_value *v)
{
    const struct replay_args *a = p;
    return time_of(v, "end", a->replay.has_end, a->replay.end);
}

static size_t r_nodes(const void *p, struct summary_value *v)
{
    const struct replay_args *a = p;
    integer(&v[0], "node_skip", (int64_t)a->replay.node_skip);
    return 1 + integer(&v[1], "node_count", (int64_t)a->replay.node_count);
}

static size_t r_objective(const void *p, struct summary_value *v)
{
    const struct replay_args *a = p;
    return text(v, "objective", job_objective_name(a->replay.objective));
}

static size_t r_tie_break(const void *p, struct summary_value *v)
{
    const struct replay_args *a = p;
    return text(v, "tie_break", a->replay.tie_break.name);
}

static size_t r_node_pick(const void *p, struct summary_value *v)
{
    const struct replay_args *a = p;
    return text(v, "node_pick", a->replay.node_pick.name);
}

static size_t r_hints(const void *p, struct summary_value *v)
{
    const struct replay_args *a = p;
    return text(v, "hints", nodepick_hints_name(a->replay.hints));
}

static size_t r_belief(const void *p, struct summary_value *v)
{
    const struct replay_args *a = p;
    return text(v, "belief", belief_opts_name(&a->replay.belief));
}

static size_t r_observe_noise(const void *p, struct summary_value *v)
{
    const struct replay_args *a = p;
    real(&v[0], "observe_noise", a->replay.belief.noise);
    return 1 + integer(&v[1], "observe_seed", (int64_t)a->replay.belief.seed);
}

/* EPS[:SEED] as explore and explore_seed; thompson as explore_rule and
 * explore_seed, ucb as explore_rule and explore_k. */
static size_t r_explore(const void *p, struct summary_value *v)
{
    const struct replay_args *a = p;
    const struct belief_opts *o = &a->replay.belief;

    if (o->explore_rule == EXPLORE_THOMPSON) {
        text(&v[0], "explore_rule", "thompson");
        return 1 + integer(&v[1], "explore_seed", (int64_t)o->explore_seed);
    }
    if (o->explore_rule == EXPLORE_UCB) {
        text(&v[0], "explore_rule", "ucb");
        return 1 + real(&v[1], "explore_k", o->explore_k);
    }
    real(&v[0], "explore", o->explore);
    return 1 + integer(&v[1], "explore_seed", (int64_t)o->explore_seed);
}

/* Recorded only when not off (so that a run without it keeps its
 * bytes). */
static size_t r_belief_pool(const void *p, struct summary_value *v)
{
    const struct replay_args *a = p;

    if (a->replay.belief.pool == POOL_OFF)
        return 0;
    return text(v, "belief_pool", belief_pool_name(&a->replay.belief));
}

static size_t r_compat(const void *p, struct summary_value *v)
{
    const struct replay_args *a = p;
    return text(v, "mode",
                a->replay.mode == REPLAY_COMPAT ? "bftrainer" : "default");
}

static size_t r_big_m(const void *p, struct summary_value *v)
{
    const struct replay_args *a = p;
    return text(v, "big_m", a->replay.legacy_cap ? "legacy" : "exact");
}

/* ---- the table ----------------------------------------------------------- */

#define IN OPTIONS_INPUT
#define POL OPTIONS_POLICY
#define OUT OPTIONS_OUTPUT
#define F(member) .field = offsetof(struct replay_args, member)
#define STRING(member) .type = OPTIONS_STRING, F(member)
#define FLAG(member) .type = OPTIONS_FLAG, F(member)
#define CUSTOM(p) .type = OPTIONS_CUSTOM, .parse = p
#define SECONDS                                                                \
    .type = OPTIONS_DOUBLE, .lo = 0, .hi = HUGE_VAL, .lo_open = 1,             \
    .bad = "is not a positive number of seconds"

/* Within a group, the order is the help's.  Recorded: what decides the
 * run's results, but not the inputs' and outputs' paths (which the HDF5
 * file records with their CRCs); --types-aware and --mixed-types are
 * recorded by the run itself, on a trace with node types only. */
const struct options_entry options_table[] = {
    {"trace", 0, "FILE", IN, STRING(replay.trace_path), .show = d_trace,
     .show_default = 1, .help = "native trace"},
    {"jobs", 0, "FILE", IN, STRING(replay.jobs_path), .show = d_jobs,
     .show_default = 1, .help = "job set: native, or a BFTrainer bounds table"},
    {"curves", 0, "FILE", IN, STRING(replay.curves_path),
     .help = "BFTrainer long curve table for --jobs"},
    {"start", 0, "TIME", IN, CUSTOM(p_start), .show = d_start,
     .show_default = 1, .recorded = 1,
     .help = "replay from TIME: 'YYYY-MM-DD HH:MM:SS' (UTC) or Unix seconds",
     .record = r_start},
    {"end", 0, "TIME", IN, CUSTOM(p_end), .show = d_end, .show_default = 1,
     .recorded = 1, .help = "last event time replayed", .record = r_end},
    {"nodes", 0, "[SKIP:]COUNT", IN, CUSTOM(p_nodes), .show = d_nodes,
     .show_default = 1, .recorded = 1,
     .help = "use COUNT nodes of the trace's node order after skipping SKIP",
     .record = r_nodes},
    {"align-jobs", 0, NULL, IN, FLAG(replay.align_jobs), .recorded = 1,
     .help = "shift the job set's submission times so that the first is the "
             "replay's start",
     .key = "align_jobs"},

    {"max-jobs", 0, "N", POL, .type = OPTIONS_INT, F(replay.max_jobs), .lo = 0,
     .hi = INT_MAX, .bad = "is not a count", .show_default = 1, .recorded = 1,
     .help = "jobs in the system at once, 0 = no limit", .key = "max_jobs"},
    {"tfwd", 0, "SECONDS", POL, SECONDS, F(replay.tfwd), .show_default = 1,
     .recorded = 1, .help = "allocator's forward-looking horizon",
     .key = "tfwd"},
    {"objective", 0, "NAME", POL, CUSTOM(p_objective), .show = d_objective,
     .show_default = 1, .recorded = 1,
     .help = "metric O(n) maximised: file (the job file's O column), "
             "throughput, speedup, prop-fair",
     .record = r_objective},
    {"tie-break", 0, "RULE", POL, CUSTOM(p_tie_break), .show = d_tie_break,
     .show_default = 1, .recorded = 1,
     .help = "which equally good allocation the exact allocators return: "
             "first-admitted, least-remaining, most-remaining, "
             "fewest-node-seconds or random:SEED",
     .record = r_tie_break},
    {"node-pick", 0, "RULE", POL, CUSTOM(p_node_pick), .show = d_node_pick,
     .show_default = 1, .recorded = 1,
     .help = "which free nodes a growing job takes and which a shrinking job "
             "gives back: longest-idle, lowest-index, random:SEED, oracle "
             "(the trace's future) or predicted (from its past)",
     .record = r_node_pick},
    {"hints", 0, "SOURCE", POL, CUSTOM(p_hints), .show = d_hints,
     .show_default = 1, .recorded = 1,
     .help = "what the allocator's horizon term knows of each node's "
             "remaining idle time: off (every node stays for Tfwd), oracle "
             "(the trace's future) or predicted (from its past), taken in the "
             "--node-pick order",
     .record = r_hints},
    {"belief", 0, "SOURCE", POL, CUSTOM(p_belief), .show = d_belief,
     .show_default = 1, .recorded = 1,
     .help = "what the allocator believes of the jobs' curves: true (the job "
             "set's), FILE (a job file's curves, matched by name), "
             "predict:FILE (a predictor file's curves from the jobs' "
             "features; bfsim curves --fit-predictor) or learn:MODEL "
             "(amdahl, power or interp, refitted as the job runs); the "
             "training follows the job set's curves",
     .record = r_belief},
    {"belief-curves", 0, "FILE", POL, STRING(replay.belief.curves),
     .help = "BFTrainer long curve table for a --belief FILE that is a "
             "bounds table"},
    {"belief-prior", 0, "FILE", POL, STRING(replay.belief.prior_path),
     .help = "learn: a job file whose curves are the priors, or "
             "predict:FILE, a predictor file's curves; without one, a "
             "linear curve through the job's first observation",
     .recorded = 1, .key = "belief_prior"},
    {"observe-noise", 0, "SIGMA[:SEED]", POL, CUSTOM(p_observe_noise),
     .show = d_observe_noise, .show_default = 1, .recorded = 1,
     .help = "learn: each observed rate is multiplied by exp(SIGMA z), z a "
             "seeded standard normal draw",
     .record = r_observe_noise},
    {"explore", 0, "EPS[:SEED]|thompson[:SEED]|ucb[:K]", POL, CUSTOM(p_explore),
     .show = d_explore, .show_default = 1, .recorded = 1,
     .help = "learn: at each decision, a job observed at fewer than three "
             "counts is shown, with probability EPS, its believed O doubled "
             "at the counts it has not tried; thompson[:SEED]: each job is "
             "shown, at each decision, a curve drawn from its posterior "
             "(seeded draws); ucb[:K]: each job is shown its posterior "
             "mean's curve plus K (default 1) standard deviations of P(n) "
             "(learn:amdahl and learn:power)",
     .record = r_explore},
    {"belief-pool", 0, "off|alone|COLUMN", POL, CUSTOM(p_belief_pool),
     .show = d_belief_pool, .show_default = 1, .recorded = 1,
     .help = "learn: off keeps the least-squares fit as the belief; alone "
             "makes it the posterior mean from the job's own prior; COLUMN "
             "(a job-file feature column, e.g. family) the posterior mean "
             "from a prior pooled over the other jobs of the same value "
             "observed at two counts or more (learn:amdahl and learn:power)",
     .record = r_belief_pool},
    {"types-aware", 0, "yes|no", POL, CUSTOM(p_types_aware),
     .show = d_types_aware, .show_default = 1,
     .help = "on a trace with node types: no decides as if every node were "
             "of one type, the training still paced by the types the jobs "
             "get"},
    {"mixed-types", 0, NULL, POL, FLAG(replay.mixed_types),
     .help = "on a trace with node types: a job may hold nodes of several "
             "types at once, paced by its slowest (milp's count model only)"},
    {"allocator", 0, "NAME", POL, STRING(replay.alloc.name),
     .show = d_allocator, .show_default = 1, .recorded = 1,
     .help = "milp (the exact MILP), dp (the exact dynamic programme) or even "
             "(the published replayer's even-share baseline)",
     .key = "allocator"},
    {"solver", 0, "NAME", POL, STRING(replay.alloc.solver), .show = d_solver,
     .show_default = 1, .recorded = 1,
     .help = "MILP backend, cbc or glpk, and options after commas: "
             "isolate=yes|no (a child process per solve), start=yes|no "
             "(count model, and node model on CBC: start from dp's optimum; "
             "the count model then leaves out the counts no tied allocation "
             "uses), aggregate=auto|yes|no (count model, one node type: alike "
             "jobs grouped into classes; auto when a class has two or more), "
             "and the solver's own KEY=VALUE parameters (`bfsim solve "
             "--solver cbc,help` lists them)",
     .key = "solver"},
    {"model", 0, "NAME", POL, STRING(replay.alloc.model), .show = d_model,
     .show_default = 1, .recorded = 1,
     .help = "MILP formulation: count or node", .key = "model"},
    {"time-limit", 0, "SECONDS", POL, SECONDS, F(replay.alloc.time_limit),
     .show_default = 1, .recorded = 1,
     .help = "wall-clock limit per solve (milp and dp)", .key = "time_limit"},
    {"gap", 0, "G", POL, .type = OPTIONS_DOUBLE, F(replay.alloc.gap_rel),
     .lo = 0, .hi = HUGE_VAL, .bad = "is not a gap >= 0", .show_default = 1,
     .recorded = 1, .help = "relative MIP gap", .key = "gap"},
    {"apply-feasible", 0, NULL, POL, FLAG(replay.apply_feasible), .recorded = 1,
     .help = "apply answers found at the time limit (default mode; the "
             "compatible mode never does)",
     .key = "apply_feasible"},
    {"compat", 0, "bftrainer", POL, CUSTOM(p_compat), .show = d_compat,
     .recorded = 1, .help = "reproduce the published BFTrainer replayer",
     .record = r_compat},
    {"big-m", 0, "legacy|exact", POL, CUSTOM(p_big_m), .show = d_big_m,
     .show_default = 1, .recorded = 1,
     .help = "legacy caps every change at (N+1)/2 nodes per job and event, "
             "as the published MILP did",
     .record = r_big_m},

    {"steps", 0, "FILE", OUT, STRING(replay.steps_path), .sweep_managed = 1,
     .help = "one CSV row per event, BFTrainer's columns"},
    {"summary", 0, "FILE", OUT, STRING(summary), .sweep_managed = 1,
     .help = "JSON summary of every measure ('-' for standard output); "
             "without it a report in sentences goes to standard output"},
    {"job-log", 0, "FILE", OUT, STRING(job_log), .sweep_managed = 1,
     .help = "one CSV row per job of the set"},
    {"output", 'o', "FILE", OUT, STRING(output), .sweep_managed = 1,
     .help = "HDF5 file with the event, solve, allocation and job tables and "
             "the run's options as attributes"},
    {"dump-instances", 0, "DIR", OUT, STRING(replay.dump_dir),
     .help = "write every allocation instance solved as DIR/evt-NNNNNN.json, "
             "for `bfsim solve`: the problem itself, before any reduction"},
    {"write-mps", 0, "DIR", OUT, STRING(replay.alloc.mps_dir),
     .help = "milp: write every MILP handed to the solver as "
             "DIR/evt-NNNNNN.K.mps in free MPS (K: 1 the objective, 2 the "
             "tie-break, 3 on its certificates), after its solve, with its "
             "status and objective in a comment; a maximisation is written as "
             "the minimisation of the negated objective"},
    {"quiet", 'q', NULL, OUT, FLAG(quiet), .sweep_managed = 1,
     .help = "no progress line on standard error"},
    {"help", 'h', NULL, OUT, .type = OPTIONS_HELP, .sweep_managed = 1,
     .help = "this help"},
    {"strict", 0, NULL, OUT, FLAG(strict),
     .help = "exit with status 1 after a warning (allocator calls not proven "
             "optimal, no job admitted, submissions outside the window, no "
             "job finished); the outputs are written"},
    {"batsim-jobs", 0, "FILE", OUT, STRING(batsim_jobs), .sweep_managed = 1,
     .help = "the jobs' node-level schedule as a Batsim-style jobs.csv: a row "
             "per job and interval with the same nodes, allocated_resources "
             "an interval set of node positions"},
    {"label", 0, "TEXT", OUT, STRING(label), .recorded = 1, .key = "label",
     .help = "a name for the run, recorded with its results (the summary's "
             "parameters, the HDF5 file's root attributes)"},
};

const size_t options_count = sizeof options_table / sizeof *options_table;

/* The groups' names, and their headings in the help. */
static const char *const replay_group_names[OPTIONS_N_GROUPS] = {
    "Input", "Policy", "Output"};
static const char *const replay_groups[OPTIONS_N_GROUPS] = {
    "Input:", "Policy:", "Output:"};

const char *const options_one_group[1] = {"Options:"};

const char *options_group_name(enum options_group g)
{
    return (unsigned)g < OPTIONS_N_GROUPS ? replay_group_names[g] : "?";
}

/* The options that configure some allocators only, and which (a list
 * the message quotes: "milp or dp").  --apply-feasible is not one: it is
 * a policy for time-limited answers, which even never gives, so it
 * changes nothing there rather than being ignored (and a sweep may cross
 * it with every allocator). */
static const struct {
    const char *option, *allocators;
} only_for[] = {{"solver", "milp"},
                {"model", "milp"},
                {"time-limit", "milp or dp"},
                {"gap", "milp"}};

int options_check(const struct replay_args *a, const unsigned char *given,
                  struct bfs_error *e)
{
    const char *alloc = a->replay.alloc.name;

    for (size_t i = 0; i < options_count; i++) {
        if (given[i] &&
            (a->replay.belief.kind != BELIEF_FILE ||
             predict_source(a->replay.belief.path)) &&
            strcmp(options_table[i].name, "belief-curves") == 0)
            return bfs_fail(e, BFS_EUSAGE,
                            "--belief-curves is an option of --belief FILE; "
                            "--belief %s would ignore it",
                            belief_opts_name(&a->replay.belief));
        if (given[i] && a->replay.belief.kind != BELIEF_LEARN &&
            (strcmp(options_table[i].name, "belief-prior") == 0 ||
             strcmp(options_table[i].name, "observe-noise") == 0 ||
             strcmp(options_table[i].name, "explore") == 0 ||
             strcmp(options_table[i].name, "belief-pool") == 0))
            return bfs_fail(e, BFS_EUSAGE,
                            "--%s is an option of --belief learn:MODEL; "
                            "--belief %s would ignore it",
                            options_table[i].name,
                            belief_opts_name(&a->replay.belief));
        if (given[i] && a->replay.belief.model == CURVEFIT_INTERP &&
            ((strcmp(options_table[i].name, "belief-pool") == 0 &&
              a->replay.belief.pool != POOL_OFF) ||
             (strcmp(options_table[i].name, "explore") == 0 &&
              a->replay.belief.explore_rule != EXPLORE_EPS)))
            return bfs_fail(e, BFS_EUSAGE,
                            "--%s with this value needs a posterior: "
                            "--belief learn:amdahl or learn:power, not "
                            "learn:interp",
                            options_table[i].name);
        if (!given[i] || !alloc)
            continue;
        for (size_t k = 0; k < sizeof only_for / sizeof *only_for; k++)
            if (strcmp(options_table[i].name, only_for[k].option) == 0 &&
                !bfs_word_in(only_for[k].allocators, ' ', alloc))
                return bfs_fail(e, BFS_EUSAGE,
                                "--%s is an option of --allocator %s; "
                                "--allocator %s would ignore it",
                                only_for[k].option, only_for[k].allocators,
                                alloc);
    }
    /* unknown names now, before any input is read */
    return alloc_check_names(&a->replay.alloc, e);
}

static void replay_defaults(void *a)
{
    options_default(a);
}

static int replay_check(const void *a, const unsigned char *given,
                        struct bfs_error *e)
{
    return options_check(a, given, e);
}

const struct options_command options_replay = {
    .name = "replay",
    .synopsis = "Usage: bfsim replay [OPTIONS]\n"
                "\n"
                "Replay a node idle/preempt trace with elastic training jobs "
                "and\n"
                "report what a backfill trainer would have done.\n",
    OPTIONS_RECORDS(options_table, replay_groups, replay_args, replay_defaults,
                    replay_check),
};

const struct options_command *const options_commands[] = {
    &options_replay, &options_solve,  &options_sweep,  &options_gentrace,
    &options_info,   &options_curves, &options_convert};
const size_t options_n_commands =
    sizeof options_commands / sizeof *options_commands;

const struct options_entry *options_find(const char *name)
{
    return options_lookup(&options_replay, name);
}

const struct options_entry *options_find_short(int c)
{
    return options_lookup_short(&options_replay, c);
}
