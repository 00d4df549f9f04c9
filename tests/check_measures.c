/* check_measures.c - the table of measures (engine/measures.h) against
 * every place that shows a measure: the JSON summary, the HDF5 file's
 * /summary and root attributes, a sweep's results table (CSV and the
 * "columns" text of results.h5) and bfsim(1)'s MEASURES.
 *
 * The bfsim program replays the bundled trace on 64 nodes with dp, once
 * with --summary and -o, once as the only run of a sweep.  Values read
 * back are compared exactly: JSON reals carry 17 significant digits, the
 * HDF5 attributes and the sweep's CSV (%.17g) the very double.  The
 * expected set of machine measures is written out by hand below, not
 * read from the table.
 */
#include "config.h"

#include "alloc/alloc.h"
#include "engine/measures.h"
#include "testjson.h"
#include "testutil.h"

#include <check.h>
#include <hdf5.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

static const char *trace_path(void)
{
    return tu_src("traces/summit-2021-02.trace.gz");
}

static const char *jobs_path(void)
{
    return tu_src("datasets/hps-shufflenet-10J.jobs");
}

/* Runs "cd / && bfsim ARGS" and expects exit status 0. */
static void run_bfsim(const char *args)
{
    char *cmd = xmalloc(strlen(args) + 4096);
    int st;

    sprintf(cmd, "cd / && %s %s", tu_bfsim(), args);
    st = system(cmd);
    ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "failed: %s", cmd);
    free(cmd);
}

/* The flat names of a row: key, or key.status for each status. */
static size_t row_names(const struct measure *m, char names[][64])
{
    if (!(m->flags & MEASURE_PER_STATUS)) {
        snprintf(names[0], 64, "%s", m->key);
        return 1;
    }
    for (int s = 0; s < SOLVE_N_STATUSES; s++)
        snprintf(names[s], 64, "%s.%s", m->key, solve_status_name(s));
    return SOLVE_N_STATUSES;
}

/* The JSON value of a flat name ("a.b": member b of object a). */
static json_t *json_at(json_t *root, const char *name)
{
    char buf[64];
    char *dot;

    snprintf(buf, sizeof buf, "%s", name);
    dot = strchr(buf, '.');
    if (!dot)
        return json_object_get(root, buf);
    *dot = '\0';
    return json_object_get(json_object_get(root, buf), dot + 1);
}

/* ---- the table itself ------------------------------------------------ */

START_TEST(test_table)
{
    /* Written out by hand: the measures that depend on the machine. */
    static const char *const machine[] = {
        "solve_seconds_median", "solve_seconds_p95", "solve_seconds_max",
        "solve_seconds_total",  "wall_seconds",      "events_per_second",
        "peak_rss_kib",
    };
    size_t n_machine = 0, n_values;
    struct replay_stats st;
    struct summary_value v[MEASURES_MAX_VALUES];

    ck_assert_uint_ge(measures_n, 30);
    for (size_t i = 0; i < measures_n; i++) {
        const struct measure *m = &measures[i];
        int is_machine = 0;
        for (size_t k = 0; k < sizeof machine / sizeof *machine; k++)
            is_machine |= strcmp(m->key, machine[k]) == 0;
        ck_assert_msg(is_machine == !!(m->flags & MEASURE_MACHINE),
                      "%s: machine flag", m->key);
        n_machine += is_machine;
        ck_assert_msg(strlen(m->def) > 5, "%s: no definition", m->key);
        /* The report shows the machine's measures apart, in the run. */
        if (is_machine)
            ck_assert_msg(m->group == MEASURE_G_RUN, "%s: group", m->key);
        /* Its words: one '#' for the value, a line unless in the first
         * line, and a display unit of measures.h's list. */
        {
            static const char *const shows[] = {
                "",    "node-hours", "%",        "duration", "s",
                "MiB", "samples",    "events/s", "index",
            };
            const char *hash = strchr(m->label, '#');
            int known = 0;
            ck_assert_msg(hash && !strchr(hash + 1, '#'), "%s: label '%s'",
                          m->key, m->label);
            ck_assert_msg((m->group == MEASURE_G_HEAD) == (*m->line == '\0'),
                          "%s: line '%s'", m->key, m->line);
            for (size_t k = 0; k < sizeof shows / sizeof *shows; k++)
                known |= strcmp(m->show, shows[k]) == 0;
            ck_assert_msg(known, "%s: display unit '%s'", m->key, m->show);
        }
        ck_assert_ptr_eq(measures_find(m->key), m);
        for (size_t k = 0; k < i; k++)
            ck_assert_str_ne(measures[k].key, m->key);
        /* Numbers have a unit, descriptions none. */
        ck_assert_msg(!!(m->flags & MEASURE_DESCRIBES) == (*m->unit == '\0'),
                      "%s: unit '%s'", m->key, m->unit);
    }
    ck_assert_uint_eq(n_machine, sizeof machine / sizeof *machine);
    ck_assert_ptr_null(measures_find("no_such_measure"));

    /* measures_values reads each field where the table says it is. */
    memset(&st, 0, sizeof st);
    st.events = 7;
    st.first_time = INT64_C(1612915732);
    st.harvest_ratio = 0.25;
    st.peak_rss_kib = 1234;
    st.partial = 1;
    st.mode = "bftrainer";
    st.solves_by_status[SOLVE_FEASIBLE] = 3;
    /* Without a belief its rows are left out; with one they are in. */
    n_values = measures_values(&st, v);
    {
        size_t n_belief = 0, n_types = 0, n_ckpt = 0;
        for (size_t i = 0; i < measures_n; i++) {
            n_belief += (measures[i].flags & MEASURE_OF_BELIEF) != 0;
            n_types += (measures[i].flags & MEASURE_OF_TYPES) != 0;
            n_ckpt += (measures[i].flags & MEASURE_OF_CKPT) != 0;
        }
        /* lost to restarts and to pauses, node-s writing, writes,
         * restarts */
        ck_assert_uint_eq(n_ckpt, 5);
        ck_assert_uint_eq(n_belief, 7);
        /* types_aware, mixed_types, three per-type rows, type_moves */
        ck_assert_uint_eq(n_types, 6);
        ck_assert_uint_eq(n_values, measures_n - 1 + SOLVE_N_STATUSES -
                                        n_belief - n_types - n_ckpt);
        st.belief = "learn:power";
        n_values = measures_values(&st, v);
        ck_assert_uint_eq(n_values,
                          measures_n - 1 + SOLVE_N_STATUSES - n_types - n_ckpt);
        /* with checkpoints, their rows too */
        st.ckpt = 1;
        ck_assert_uint_eq(measures_values(&st, v),
                          measures_n - 1 + SOLVE_N_STATUSES - n_types);
        st.ckpt = 0;
        /* with two node types: two rows a type, named by the types */
        st.n_types = 2;
        strcpy(st.type_names[0], "A100");
        strcpy(st.type_names[1], "V100");
        st.harvest_t[1] = 0.5;
        n_values = measures_values(&st, v);
        ck_assert_uint_eq(n_values,
                          measures_n - 1 + SOLVE_N_STATUSES + 3 - n_ckpt);
    }
    for (size_t i = 0; i < n_values; i++) {
        char name[64];
        summary_name(&v[i], name, sizeof name);
        if (strcmp(name, "events") == 0)
            ck_assert_int_eq(v[i].v.i, 7);
        else if (strcmp(name, "first_time") == 0)
            ck_assert_int_eq(v[i].v.i, INT64_C(1612915732));
        else if (strcmp(name, "harvest_ratio") == 0)
            ck_assert_double_eq(v[i].v.d, 0.25);
        else if (strcmp(name, "peak_rss_kib") == 0)
            ck_assert_int_eq(v[i].v.i, 1234);
        else if (strcmp(name, "partial") == 0)
            ck_assert_int_eq(v[i].v.i, 1);
        else if (strcmp(name, "mode") == 0)
            ck_assert_str_eq(v[i].v.s, "bftrainer");
        else if (strcmp(name, "solves_by_status.feasible") == 0)
            ck_assert_int_eq(v[i].v.i, 3);
        else if (strcmp(name, "harvest_ratio_by_type.V100") == 0)
            ck_assert_double_eq(v[i].v.d, 0.5);
        else if (strcmp(name, "harvest_ratio_by_type.A100") == 0)
            ck_assert_double_eq(v[i].v.d, 0.0);
        else if (v[i].type == SUMMARY_REAL)
            ck_assert_double_eq(v[i].v.d, 0.0);
        else if (v[i].type != SUMMARY_TEXT)
            ck_assert_msg(v[i].v.i == 0, "%s = %" PRId64, name, v[i].v.i);
    }
}
END_TEST

/* ---- JSON and HDF5 --------------------------------------------------- */

/* Attribute key of loc, read as int64 or double after checking its
 * class; returns 0 when absent. */
static int h5_num(hid_t loc, const char *key, int want_float, int64_t *i,
                  double *d)
{
    hid_t a, t;

    if (H5Aexists(loc, key) <= 0)
        return 0;
    a = H5Aopen(loc, key, H5P_DEFAULT);
    ck_assert_int_ge(a, 0);
    t = H5Aget_type(a);
    ck_assert_msg(H5Tget_class(t) == (want_float ? H5T_FLOAT : H5T_INTEGER),
                  "%s: HDF5 class", key);
    ck_assert_uint_eq(H5Tget_size(t), 8);
    if (want_float)
        ck_assert_int_ge(H5Aread(a, H5T_NATIVE_DOUBLE, d), 0);
    else
        ck_assert_int_ge(H5Aread(a, H5T_NATIVE_INT64, i), 0);
    H5Tclose(t);
    H5Aclose(a);
    return 1;
}

/* A variable-length string attribute (malloc'd), or NULL when absent. */
static char *h5_str(hid_t loc, const char *key)
{
    hid_t a, t;
    char *s = NULL, *copy;

    if (H5Aexists(loc, key) <= 0)
        return NULL;
    a = H5Aopen(loc, key, H5P_DEFAULT);
    t = H5Aget_type(a);
    ck_assert_int_eq(H5Tget_class(t), H5T_STRING);
    ck_assert_int_ge(H5Aread(a, t, &s), 0);
    copy = xstrdup(s);
    H5free_memory(s);
    H5Tclose(t);
    H5Aclose(a);
    return copy;
}

static herr_t count_attr(hid_t loc, const char *name, const H5A_info_t *info,
                         void *arg)
{
    (void)loc;
    (void)name;
    (void)info;
    ++*(size_t *)arg;
    return 0;
}

/* The run's parameters: the JSON summary's and the HDF5 file's root
 * attributes are the same values (both written from the replay's option
 * records), and those of the run of test_json_and_hdf5 are, by hand:
 * --nodes 64 (no skip), --allocator dp, --label 'run 1', the defaults
 * for the rest. */
static void check_parameters(json_t *p, hid_t f)
{
    static const struct {
        const char *key;
        double want;
    } nums[] = {{"node_skip", 0},  {"node_count", 64},   {"max_jobs", 10},
                {"tfwd", 10},      {"time_limit", 10},   {"gap", 1e-8},
                {"align_jobs", 0}, {"apply_feasible", 0}};
    static const struct {
        const char *key, *want;
    } texts[] = {{"allocator", "dp"},
                 {"big_m", "exact"},
                 {"mode", "default"},
                 {"objective", "file"},
                 {"tie_break", "first-admitted"},
                 {"label", "run 1"}};
    const char *k;
    json_t *v;

    ck_assert_msg(json_is_object(p), "no \"parameters\" in the summary");
    for (size_t i = 0; i < sizeof nums / sizeof *nums; i++) {
        v = json_object_get(p, nums[i].key);
        ck_assert_msg(json_is_number(v), "parameters.%s", nums[i].key);
        ck_assert_double_eq(json_number_value(v), nums[i].want);
    }
    for (size_t i = 0; i < sizeof texts / sizeof *texts; i++)
        ck_assert_str_eq(json_string_value(json_object_get(p, texts[i].key)),
                         texts[i].want);
    /* --start was not given: absent rather than invented */
    ck_assert_ptr_null(json_object_get(p, "start"));
    json_object_foreach(p, k, v)
    {
        int64_t hi = 0;
        double hd = 0;
        char *s;

        if (json_is_string(v)) {
            s = h5_str(f, k);
            ck_assert_msg(s != NULL, "%s: not a root attribute", k);
            ck_assert_str_eq(s, json_string_value(v));
            free(s);
        } else {
            ck_assert_msg(h5_num(f, k, json_is_real(v), &hi, &hd),
                          "%s: not a root attribute", k);
            if (json_is_real(v))
                ck_assert_double_eq(hd, json_real_value(v));
            else
                ck_assert_int_eq(hi, json_integer_value(v));
        }
    }
}

START_TEST(test_json_and_hdf5)
{
    const char *json = tu_tmp("m.json"), *h5 = tu_tmp("m.h5");
    char args[8192], names[SOLVE_N_STATUSES][64];
    json_t *root;
    hid_t f, g;
    size_t n_attrs = 0, n_expected = 0, pos = 0;
    const char *k;
    json_t *jv;

    snprintf(args, sizeof args,
             "replay --trace %s --jobs %s --nodes 64 --allocator dp -q "
             "--belief %s --label 'run 1' --summary %s -o %s",
             trace_path(), jobs_path(), jobs_path(), json, h5);
    run_bfsim(args);
    root = tu_load_json(json);
    f = H5Fopen(h5, H5F_ACC_RDONLY, H5P_DEFAULT);
    ck_assert_int_ge(f, 0);
    g = H5Gopen2(f, "summary", H5P_DEFAULT);
    ck_assert_int_ge(g, 0);

    /* The JSON object's keys are the table's, in its order (the node
     * types' rows left out: the trace has none). */
    json_object_foreach(root, k, jv)
    {
        if (strcmp(k, "parameters") == 0)
            continue; /* the options, below */
        while (pos < measures_n &&
               (measures[pos].flags & (MEASURE_OF_TYPES | MEASURE_OF_CKPT)))
            pos++;
        ck_assert_msg(pos < measures_n, "JSON key %s beyond the table", k);
        ck_assert_str_eq(k, measures[pos].key);
        pos++;
    }
    ck_assert_uint_eq(pos, measures_n);

    for (size_t i = 0; i < measures_n; i++) {
        const struct measure *m = &measures[i];
        size_t nn = row_names(m, names);
        if (m->flags & (MEASURE_OF_TYPES | MEASURE_OF_CKPT)) {
            ck_assert_ptr_null(json_object_get(root, m->key));
            continue;
        }
        for (size_t q = 0; q < nn; q++) {
            json_t *j = json_at(root, names[q]);
            hid_t loc = m->flags & MEASURE_DESCRIBES ? f : g;
            int64_t hi = 0;
            double hd = 0.0;
            char *s;

            ck_assert_msg(j != NULL, "%s: not in the JSON summary", names[q]);
            n_expected += !(m->flags & MEASURE_DESCRIBES);
            switch (m->type) {
            case MEASURE_INT:
                ck_assert_msg(json_is_integer(j), "%s: JSON type", names[q]);
                ck_assert_msg(h5_num(loc, names[q], 0, &hi, &hd),
                              "%s: not in the HDF5 file", names[q]);
                ck_assert_msg(hi == json_integer_value(j),
                              "%s: HDF5 %" PRId64
                              ", JSON %" JSON_INTEGER_FORMAT,
                              names[q], hi, json_integer_value(j));
                break;
            case MEASURE_REAL:
                ck_assert_msg(json_is_real(j), "%s: JSON type", names[q]);
                ck_assert_msg(h5_num(loc, names[q], 1, &hi, &hd),
                              "%s: not in the HDF5 file", names[q]);
                ck_assert_msg(hd == json_real_value(j),
                              "%s: HDF5 %.17g, JSON %.17g", names[q], hd,
                              json_real_value(j));
                break;
            case MEASURE_TIME:
                ck_assert_msg(json_is_string(j), "%s: JSON type", names[q]);
                ck_assert_msg(h5_num(loc, names[q], 0, &hi, &hd),
                              "%s: not in the HDF5 file", names[q]);
                ck_assert_int_eq(hi, tu_parse_time(json_string_value(j)));
                break;
            case MEASURE_BOOL:
                /* partial: false here, 0 as the root attribute */
                ck_assert(json_is_false(j));
                ck_assert_msg(h5_num(loc, names[q], 0, &hi, &hd),
                              "%s: not in the HDF5 file", names[q]);
                ck_assert_int_eq(hi, 0);
                break;
            case MEASURE_TEXT:
                ck_assert_msg(json_is_string(j), "%s: JSON type", names[q]);
                s = h5_str(loc, names[q]);
                ck_assert_msg(s != NULL, "%s: not in the HDF5 file", names[q]);
                ck_assert_str_eq(s, json_string_value(j));
                free(s);
                break;
            }
        }
    }
    /* /summary holds nothing else. */
    ck_assert_int_ge(H5Aiterate2(g, H5_INDEX_NAME, H5_ITER_NATIVE, NULL,
                                 count_attr, &n_attrs),
                     0);
    ck_assert_uint_eq(n_attrs, n_expected);
    /* Values that this replay fixes, from the options given. */
    ck_assert_int_eq(json_integer_value(json_object_get(root, "nodes")), 64);
    ck_assert_str_eq(json_string_value(json_object_get(root, "allocator")),
                     "dp");
    ck_assert_str_eq(json_string_value(json_object_get(root, "mode")),
                     "default");
    ck_assert_int_eq(json_integer_value(json_object_get(root, "jobs_total")),
                     10);
    check_parameters(json_object_get(root, "parameters"), f);
    H5Gclose(g);
    H5Fclose(f);
    json_decref(root);
}
END_TEST

/* ---- the human report ------------------------------------------------ */

/* Where the line "  LINE: " of group g is in text, sect[] the titles'
 * places (sect[MEASURE_N_GROUPS] the end), or NULL. */
static const char *report_line(char *const *sect, int g, const char *line)
{
    char want[128];
    const char *p;

    snprintf(want, sizeof want, "\n  %s: ", line);
    p = memmem(sect[g], (size_t)(sect[g + 1] - sect[g]), want, strlen(want));
    return p;
}

/* The report's groups are the titles below, in this order (written out
 * by hand); every measure but those of the first line, of node types
 * (this trace has none) and those left out when 0 has its words on its
 * line "  LINE: ..." in its group.  Numbers are in the display units: 64 nodes,
 * 10 jobs (the options), and the idle node-hours are the JSON summary's
 * idle_node_seconds / 3600 (from 1000: whole), the summary's of the same
 * replay with --summary (which then prints no report). */
START_TEST(test_report)
{
    static const char *const titles[] = {
        "What was replayed", "Idle nodes and harvest", "Training",
        "Completion",        "The allocator",          "The run (this machine)",
    };
    const char *out = tu_tmp("report.txt"), *sum = tu_tmp("report.json");
    char args[8192], *text, *sect[MEASURE_N_GROUPS + 1], want[128];
    json_t *root;
    double h;

    /* with --summary there is no report: a second, identical replay */
    snprintf(args, sizeof args,
             "replay --trace %s --jobs %s --nodes 64 --allocator dp -q "
             "--belief %s --summary %s",
             trace_path(), jobs_path(), jobs_path(), sum);
    run_bfsim(args);
    snprintf(args, sizeof args,
             "replay --trace %s --jobs %s --nodes 64 --allocator dp -q "
             "--belief %s >%s",
             trace_path(), jobs_path(), jobs_path(), out);
    run_bfsim(args);
    text = tu_slurp(out);
    ck_assert_ptr_nonnull(text);
    {
        const char *first = "bfsim replay (default mode, allocator dp, "
                            "objective file)\n";
        ck_assert_msg(strncmp(text, first, strlen(first)) == 0,
                      "first line: %.80s", text);
    }
    /* The titles, in order, each on its own line. */
    ck_assert_uint_eq(sizeof titles / sizeof *titles, MEASURE_N_GROUPS - 1);
    sect[MEASURE_N_GROUPS] = text + strlen(text);
    for (int g = MEASURE_G_HEAD + 1; g < MEASURE_N_GROUPS; g++) {
        ck_assert_str_eq(measure_group_titles[g], titles[g - 1]);
        snprintf(want, sizeof want, "\n%s\n", titles[g - 1]);
        sect[g] = strstr(text, want);
        ck_assert_msg(sect[g] != NULL, "no section %s", titles[g - 1]);
        ck_assert(g == MEASURE_G_HEAD + 1 || sect[g - 1] < sect[g]);
    }
    for (size_t i = 0; i < measures_n; i++) {
        const struct measure *m = &measures[i];
        const char *hash = strchr(m->label, '#'), *line, *end;
        char before[128];
        if (m->group == MEASURE_G_HEAD ||
            (m->flags & (MEASURE_OF_TYPES | MEASURE_OF_CKPT)) ||
            (m->flags & MEASURE_REPORT_NONZERO) || /* below */
            strcmp(m->key, "solver_params") == 0)  /* empty with dp */
            continue;
        ck_assert_msg(hash && !strchr(hash + 1, '#'), "%s: label", m->key);
        line = report_line(sect, m->group, m->line);
        ck_assert_msg(line != NULL, "%s: no line '%s' in %s", m->key, m->line,
                      titles[m->group - 1]);
        end = strchr(line + 1, '\n');
        snprintf(before, sizeof before, "%.*s", (int)(hash - m->label),
                 m->label);
        ck_assert_msg(
            memmem(line, (size_t)(end - line), before, strlen(before)) &&
                memmem(line, (size_t)(end - line), hash + 1, strlen(hash + 1)),
            "%s: '%s' not on its line", m->key, m->label);
    }
    root = tu_load_json(sum);
    h = tu_jnum(root, "idle_node_seconds") / 3600.0;
    snprintf(want, sizeof want,
             h >= 1000 ? "\n  idle node-hours: %.0f offered, "
                       : "\n  idle node-hours: %.1f offered, ",
             h);
    ck_assert_msg(strstr(text, want) != NULL, "no '%s' in the report", want);
    /* Zeros of the measures that apply to some options only, and the
     * statuses no call had, are left out: dp builds no MILP (the
     * summary's max_model_rows is 0) and every call is optimal. */
    ck_assert_int_eq(tu_jnum(root, "max_model_rows"), 0);
    ck_assert_int_eq(
        tu_jnum(root, "solves"),
        json_integer_value(json_object_get(
            json_object_get(root, "solves_by_status"), "optimal")));
    snprintf(want, sizeof want, "\n  calls: %.0f, optimal %.0f\n",
             tu_jnum(root, "solves"), tu_jnum(root, "solves"));
    ck_assert_msg(strstr(text, want) != NULL, "no '%s' in the report", want);
    ck_assert_ptr_null(strstr(text, "largest model"));
    ck_assert_ptr_null(strstr(text, "\n  node pick: "));
    ck_assert_ptr_nonnull(strstr(text, "\n  nodes: 64\n"));
    ck_assert_ptr_nonnull(strstr(text, "\n  jobs: 10 in the set, "));
    json_decref(root);
    free(text);
}
END_TEST

/* ---- the sweep's results table --------------------------------------- */

/* The machine measures as the "columns" text of results.h5 lists them:
 * its last line, "a, b and c measure the machine ...". */
static char *columns_text(const char *h5)
{
    hid_t f = H5Fopen(h5, H5F_ACC_RDONLY, H5P_DEFAULT), d;
    char *s;

    ck_assert_int_ge(f, 0);
    d = H5Dopen2(f, "results", H5P_DEFAULT);
    ck_assert_int_ge(d, 0);
    s = h5_str(d, "columns");
    ck_assert_ptr_nonnull(s);
    H5Dclose(d);
    H5Fclose(f);
    return s;
}

/* Whether word is one of the names of the list "a, b and c". */
static int in_list(const char *list, size_t len, const char *word)
{
    size_t w = strlen(word);
    const char *p = list;

    while ((p = strstr(p, word)) && p < list + len) {
        int start = p == list || p[-1] == ' ';
        int end = p + w == list + len || p[w] == ',' || p[w] == ' ';
        if (start && end)
            return 1;
        p += w;
    }
    return 0;
}

START_TEST(test_sweep_table)
{
    const char *dir = tu_tmp("sweep");
    char cfg[4096], args[8192], path[4096], names[SOLVE_N_STATUSES][64];
    char *csv, *lines[4], *head[256], *row[256], *cols, *last, *end;
    size_t nh, nr, nl = 0;
    json_t *sum, *direct;

    mkdir(dir, 0777);
    snprintf(cfg, sizeof cfg, "%s/m.json", dir);
    {
        FILE *fp = fopen(cfg, "w");
        ck_assert_ptr_nonnull(fp);
        fprintf(fp,
                "{\"trace\": \"%s\", \"jobs\": \"%s\", \"nodes\": 64, "
                "\"allocator\": \"dp\"}\n",
                trace_path(), jobs_path());
        ck_assert_int_eq(fclose(fp), 0);
    }
    snprintf(args, sizeof args, "sweep %s -q", cfg);
    run_bfsim(args);
    snprintf(path, sizeof path, "%s/m.sweep/results.csv", dir);
    csv = tu_slurp(path);
    ck_assert_ptr_nonnull(csv);
    for (char *p = csv, *nlp; *p && nl < 4; p = nlp + 1) {
        nlp = strchr(p, '\n');
        ck_assert_ptr_nonnull(nlp);
        *nlp = '\0';
        lines[nl++] = p;
    }
    ck_assert_uint_eq(nl, 2); /* the header and the one run */
    ck_assert_ptr_null(strchr(lines[1], '"'));
    nh = bfs_split(lines[0], ',', head, 256);
    nr = bfs_split(lines[1], ',', row, 256);
    ck_assert_uint_eq(nh, nr);
    snprintf(path, sizeof path, "%s/m.sweep/runs/%s/summary.json", dir, row[0]);
    sum = tu_load_json(path);
    snprintf(path, sizeof path, "%s/direct.json", dir);
    snprintf(args, sizeof args,
             "replay --trace %s --jobs %s --nodes 64 --allocator dp -q "
             "--summary %s",
             trace_path(), jobs_path(), path);
    run_bfsim(args);
    direct = tu_load_json(path);

    for (size_t i = 0; i < measures_n; i++) {
        const struct measure *m = &measures[i];
        size_t nn = row_names(m, names);
        /* --belief true: its rows are in neither summary nor table (the
         * JSON test checks them with a belief); nor are the node types'
         * on a trace without types, nor the checkpoints' without them. */
        if (m->flags &
            (MEASURE_OF_BELIEF | MEASURE_OF_TYPES | MEASURE_OF_CKPT)) {
            ck_assert_ptr_null(json_at(sum, m->key));
            ck_assert_ptr_null(json_at(direct, m->key));
            for (size_t c = 1; c < nh; c++)
                ck_assert_str_ne(head[c], m->key);
            continue;
        }
        for (size_t q = 0; q < nn; q++) {
            char col[80], want[128];
            const char *cell = NULL;
            json_t *j = json_at(sum, names[q]), *jd = json_at(direct, names[q]);
            /* Keys of the configuration come first; a measure of the same
             * name is "summary.NAME". */
            int is_key = strcmp(names[q], "trace") == 0 ||
                         strcmp(names[q], "jobs") == 0 ||
                         strcmp(names[q], "nodes") == 0 ||
                         strcmp(names[q], "allocator") == 0;
            snprintf(col, sizeof col, "%s%s", is_key ? "summary." : "",
                     names[q]);
            for (size_t c = 1; c < nh; c++)
                if (strcmp(head[c], col) == 0)
                    cell = row[c];
            ck_assert_msg(cell != NULL, "%s: no column in results.csv", col);
            ck_assert_ptr_nonnull(j);
            switch (m->type) {
            case MEASURE_INT:
                snprintf(want, sizeof want, "%" JSON_INTEGER_FORMAT,
                         json_integer_value(j));
                break;
            case MEASURE_REAL:
                snprintf(want, sizeof want, "%.17g", json_real_value(j));
                break;
            case MEASURE_BOOL:
                snprintf(want, sizeof want, "%d", json_is_true(j));
                break;
            case MEASURE_TIME:
            case MEASURE_TEXT:
                snprintf(want, sizeof want, "%s", json_string_value(j));
                break;
            }
            ck_assert_msg(strcmp(cell, want) == 0, "%s: table %s, summary %s",
                          col, cell, want);
            /* The same options replayed directly give the same results,
             * the machine's measures apart. */
            if (!(m->flags & MEASURE_MACHINE))
                ck_assert_msg(json_equal(j, jd), "%s: sweep and direct replay",
                              names[q]);
        }
    }

    /* results.h5 names the machine columns: exactly the table's. */
    snprintf(path, sizeof path, "%s/m.sweep/results.h5", dir);
    cols = columns_text(path);
    last = strstr(cols, " measure the machine");
    ck_assert_ptr_nonnull(last);
    end = last;
    while (last > cols && last[-1] != '\n')
        last--;
    for (size_t i = 0; i < measures_n; i++)
        ck_assert_msg(in_list(last, (size_t)(end - last), measures[i].key) ==
                          !!(measures[i].flags & MEASURE_MACHINE),
                      "%s: in the machine list or not as the table says",
                      measures[i].key);
    free(cols);
    json_decref(direct);
    json_decref(sum);
    free(csv);
}
END_TEST

/* ---- the man page ---------------------------------------------------- */

/* One line of roff as text: "\-" is '-', "\e" a backslash. */
static void unroff(char *s)
{
    char *w = s;

    for (const char *r = s; *r; r++) {
        if (r[0] == '\\' && (r[1] == '-' || r[1] == 'e')) {
            *w++ = r[1] == '-' ? '-' : '\\';
            r++;
        } else {
            *w++ = *r;
        }
    }
    *w = '\0';
}

/* bfsim(1)'s MEASURES: between '.\" BEGIN MEASURES' and '.\" END
 * MEASURES', one entry per row of the table in its order, each ".TP",
 * then ".B key" or '.BR key " (unit)"' or '.BR key " (unit; machine)"',
 * then the definition on one line. */
START_TEST(test_man)
{
    char *text = tu_slurp(tu_src("src/cli/bfsim.1")), *p, *end, *save = NULL;
    char *line;
    size_t found = 0;

    ck_assert_ptr_nonnull(text);
    p = strstr(text, "\n.SH MEASURES\n");
    ck_assert_ptr_nonnull(p);
    p = strstr(p, "\n.\\\" BEGIN MEASURES\n");
    ck_assert_ptr_nonnull(p);
    p = strchr(p + 1, '\n') + 1;
    end = strstr(p, "\n.\\\" END MEASURES\n");
    ck_assert_ptr_nonnull(end);
    end[1] = '\0';
    for (line = strtok_r(p, "\n", &save); line;
         line = strtok_r(NULL, "\n", &save)) {
        const struct measure *m;
        char key[128], tags[128] = "", want[128], *head, *def;
        ck_assert_str_eq(line, ".TP");
        head = strtok_r(NULL, "\n", &save);
        def = strtok_r(NULL, "\n", &save);
        ck_assert_ptr_nonnull(head);
        ck_assert_ptr_nonnull(def);
        unroff(head);
        unroff(def);
        if (strncmp(head, ".B ", 3) == 0) {
            snprintf(key, sizeof key, "%s", head + 3);
        } else {
            char *q = strstr(head, " \" (");
            size_t l = strlen(head);
            ck_assert_msg(strncmp(head, ".BR ", 4) == 0 && q &&
                              strcmp(head + l - 2, ")\"") == 0,
                          "bfsim.1: %s", head);
            snprintf(key, sizeof key, "%.*s", (int)(q - head - 4), head + 4);
            snprintf(tags, sizeof tags, "%.*s", (int)(l - 2 - (q + 4 - head)),
                     q + 4);
        }
        ck_assert_uint_lt(found, measures_n);
        m = &measures[found++];
        ck_assert_msg(strcmp(key, m->key) == 0, "bfsim.1 lists %s for %s", key,
                      m->key);
        snprintf(want, sizeof want, "%s%s%s", m->unit,
                 *m->unit && (m->flags & MEASURE_MACHINE) ? "; " : "",
                 m->flags & MEASURE_MACHINE ? "machine" : "");
        ck_assert_msg(strcmp(tags, want) == 0, "bfsim.1: %s (%s), table (%s)",
                      key, tags, want);
        ck_assert_msg(strcmp(def, m->def) == 0,
                      "bfsim.1: %s: \"%s\"; table: \"%s\"", key, def, m->def);
    }
    ck_assert_uint_eq(found, measures_n);
    free(text);
}
END_TEST

/* `bfsim --measures`: a header and one CSV row per row of the table, in
 * order; rows written out by hand from bfsim(1)'s MEASURES
 * (a definition with a comma is quoted). */
START_TEST(test_print_table)
{
    const char *out = tu_tmp("measures.csv");
    char args[4096], *text, *line, *save = NULL;
    size_t n = 0;

    snprintf(args, sizeof args, "--measures > %s", out);
    run_bfsim(args);
    text = tu_slurp(out);
    ck_assert_ptr_nonnull(text);
    ck_assert_ptr_nonnull(
        strstr(text, "key,type,unit,machine,describes,definition\n"
                     "bfsim_version,text,,0,1,the bfsim version that ran "
                     "the replay\n"
                     "mode,text,,0,1,\"the replay's semantics: default, or "
                     "bftrainer (--compat)\"\n"));
    ck_assert_ptr_nonnull(
        strstr(text, "\nharvest_ratio,real,1,0,0,allocated_node_seconds / "
                     "idle_node_seconds (0 without idle nodes)\n"));
    ck_assert_ptr_nonnull(
        strstr(text, "\nfirst_time,time,UTC,0,0,\"the replay's start, "
                     "t0\"\n"));
    ck_assert_ptr_nonnull(strstr(text, "\nwall_seconds,real,s,1,0,the "
                                       "replay's wall time\n"));
    for (line = strtok_r(text, "\n", &save); line;
         line = strtok_r(NULL, "\n", &save), n++)
        if (n > 0) {
            size_t k = strcspn(line, ",");
            ck_assert_uint_le(n, measures_n);
            ck_assert_int_eq(strncmp(line, measures[n - 1].key, k), 0);
            ck_assert_uint_eq(strlen(measures[n - 1].key), k);
        }
    ck_assert_uint_eq(n, measures_n + 1);
    free(text);
}
END_TEST

static Suite *measures_suite(void)
{
    Suite *s = suite_create("measures");
    TCase *tc = tcase_create("table");
    TCase *out = tcase_create("outputs");

    tcase_add_test(tc, test_table);
    tcase_add_test(tc, test_man);
    tcase_add_test(tc, test_print_table);
    suite_add_tcase(s, tc);
    /* Three replays of 64 nodes and a sweep: a few seconds. */
    tcase_set_timeout(out, 120);
    tcase_add_test(out, test_json_and_hdf5);
    tcase_add_test(out, test_report);
    tcase_add_test(out, test_sweep_table);
    suite_add_tcase(s, out);
    return s;
}

int main(void)
{
    return tu_run(measures_suite());
}
