/* check_nodetypes.c - node types: the type table of a native trace (read,
 * written, and every bad form, with its file and line) and node-type
 * mapping files (nodetypes.h) in both forms, with samples written by hand
 * from sinfo's documented output format and the expected types worked
 * out by reading the samples. */
#include "config.h"

#include "testutil.h"
#include "formats/nodetypes.h"
#include "formats/trace.h"

#include <string.h>

/* ---- typed traces ------------------------------------------------------ */

/* Opens a trace that must read; fails the test otherwise. */
static struct trace_reader *open_ok(const char *path)
{
    struct trace_reader *r;
    struct bfs_error e;

    bfs_error_clear(&e);
    ck_assert_msg(trace_open(path, &r, &e) == 0, "%s", e.msg);
    return r;
}

/* Asserts that the trace text fails at "FILE:LINE:" with what. */
static void expect_bad_trace(const char *name, const char *text, int line,
                             const char *what)
{
    struct trace_reader *r;
    struct bfs_error e;
    const char *p = tu_write(name, text);
    char where[4200];

    bfs_error_clear(&e);
    ck_assert_msg(trace_open(p, &r, &e) < 0, "%s: accepted", name);
    snprintf(where, sizeof where, "%s:%d: ", p, line);
    ck_assert_msg(strstr(e.msg, where) == e.msg, "%s: '%s' lacks '%s'", name,
                  e.msg, where);
    ck_assert_msg(strstr(e.msg, what) != NULL, "%s: '%s' lacks '%s'", name,
                  e.msg, what);
}

static const char *const names4[] = {"a", "b", "c", "d"};
static const char *const types4[] = {"V100", "A100", "V100", "cpu"};

/* Writes the 4-node sample: typed when types is not NULL. */
static void write4(const char *path, const char *const *types)
{
    struct trace_writer *w;
    struct bfs_error e;
    uint32_t j[] = {3, 0}, l[] = {0};

    bfs_error_clear(&e);
    ck_assert_msg(
        trace_writer_open_typed(path, names4, types, 4, NULL, &w, &e) == 0,
        "%s", e.msg);
    ck_assert_int_eq(trace_writer_event(w, 100, j, 2, NULL, 0, &e), 0);
    ck_assert_int_eq(trace_writer_event(w, 160, NULL, 0, l, 1, &e), 0);
    ck_assert_msg(trace_writer_finish(w, &e) == 0, "%s", e.msg);
}

START_TEST(test_typed_roundtrip)
{
    const char *p = tu_tmp("typed.trace"), *gz = tu_tmp("typed.trace.gz");
    struct trace_reader *r;
    struct trace_event ev;
    struct bfs_error e;
    char *text;

    write4(p, types4);
    text = tu_slurp(p);
    ck_assert_str_eq(text, "bfsim-trace 1\n"
                           "node a V100\nnode b A100\nnode c V100\n"
                           "node d cpu\n"
                           "100 +0 +3\n"
                           "160 -0\n");
    free(text);
    write4(gz, types4);
    for (int k = 0; k < 2; k++) {
        r = open_ok(k ? gz : p);
        /* Numbered by first appearance: V100 0, A100 1, cpu 2. */
        ck_assert_uint_eq(trace_type_count(r), 3);
        ck_assert_str_eq(trace_type_name(r, 0), "V100");
        ck_assert_str_eq(trace_type_name(r, 1), "A100");
        ck_assert_str_eq(trace_type_name(r, 2), "cpu");
        ck_assert_uint_eq(trace_node_type(r, 0), 0);
        ck_assert_uint_eq(trace_node_type(r, 1), 1);
        ck_assert_uint_eq(trace_node_type(r, 2), 0);
        ck_assert_uint_eq(trace_node_type(r, 3), 2);
        bfs_error_clear(&e);
        ck_assert_int_eq(trace_next(r, &ev, &e), 1);
        ck_assert_int_eq(trace_next(r, &ev, &e), 1);
        ck_assert_int_eq(trace_next(r, &ev, &e), 0);
        trace_close(r);
    }
}
END_TEST

START_TEST(test_untyped_unchanged)
{
    const char *a = tu_tmp("plain-a.trace"), *b = tu_tmp("plain-b.trace");
    struct trace_writer *w;
    struct trace_reader *r;
    struct bfs_error e;
    uint32_t j[] = {3, 0}, l[] = {0};
    char *ta, *tb;

    /* trace_writer_open and the typed open without types: same bytes. */
    bfs_error_clear(&e);
    ck_assert_int_eq(trace_writer_open(a, names4, 4, NULL, &w, &e), 0);
    ck_assert_int_eq(trace_writer_event(w, 100, j, 2, NULL, 0, &e), 0);
    ck_assert_int_eq(trace_writer_event(w, 160, NULL, 0, l, 1, &e), 0);
    ck_assert_int_eq(trace_writer_finish(w, &e), 0);
    write4(b, NULL);
    ta = tu_slurp(a);
    tb = tu_slurp(b);
    ck_assert_str_eq(ta, "bfsim-trace 1\nnode a\nnode b\nnode c\nnode d\n"
                         "100 +0 +3\n160 -0\n");
    ck_assert_str_eq(ta, tb);
    free(ta);
    free(tb);
    r = open_ok(a);
    ck_assert_uint_eq(trace_type_count(r), 0);
    for (size_t i = 0; i < 4; i++)
        ck_assert_uint_eq(trace_node_type(r, i), 0);
    trace_close(r);
}
END_TEST

START_TEST(test_typed_bad_inputs)
{
    expect_bad_trace("t-missing.trace",
                     "bfsim-trace 1\n# c\nnode a X\n\nnode b\n10 +0\n", 5,
                     "node 'b' has no type but the first node (line 3) has "
                     "one");
    expect_bad_trace("t-extra.trace", "bfsim-trace 1\nnode a\nnode b X\n", 3,
                     "node 'b' has a type but the first node (line 2) has "
                     "none");
    expect_bad_trace("t-fields.trace", "bfsim-trace 1\nnode a X\nnode b X Y\n",
                     3, "expected 'node NAME' or 'node NAME TYPE'");
    /* Trailing blanks are no type. */
    expect_bad_trace("t-blank.trace", "bfsim-trace 1\nnode a X\nnode b \t\n", 3,
                     "has no type");
    expect_bad_trace("t-ctrl.trace", "bfsim-trace 1\nnode a X\nnode b \001\n",
                     3, "bad node type");
    expect_bad_trace("t-dup.trace", "bfsim-trace 1\nnode a X\nnode a Y\n", 3,
                     "duplicate node name 'a'");
}
END_TEST

START_TEST(test_typed_writer_errors)
{
    static const char *const blank[] = {"A100", "A 100", "x", "y"};
    static const char *const empty[] = {"A100", "", "x", "y"};
    const char *p = tu_tmp("tw.trace");
    struct trace_writer *w;
    struct bfs_error e;

    bfs_error_clear(&e);
    ck_assert_int_eq(trace_writer_open_typed(p, names4, blank, 4, NULL, &w, &e),
                     BFS_EINVAL);
    ck_assert_msg(strstr(e.msg, "node 1 (b): type 'A 100'"), "%s", e.msg);
    bfs_error_clear(&e);
    ck_assert_int_eq(trace_writer_open_typed(p, names4, empty, 4, NULL, &w, &e),
                     BFS_EINVAL);
    ck_assert_msg(strstr(e.msg, "node 1 (b): type ''"), "%s", e.msg);
    ck_assert_int_eq(tu_exists(p), 0);
}
END_TEST

/* ---- mapping files ----------------------------------------------------- */

/* A sinfo sample in the form `sinfo -N -h -o '%N %P %f %G'` prints: one
 * line per node and partition, the default partition starred, features
 * comma-separated, GRES with its socket binding, "(null)" for none. */
static const char sinfo_sample[] =
    "gpu-a01 gpu a100,ib,nvme gpu:a100:4(S:0-1)\n"
    "gpu-a01 debug a100,ib,nvme gpu:a100:4(S:0-1)\n"
    "gpu-a02 gpu a100,ib,nvme gpu:a100:4(S:0-1)\n"
    "gpu-v01 gpu v100,ib gpu:v100:8(S:0-1)\n"
    "gpu-v01 debug v100,ib gpu:v100:8(S:0-1)\n"
    "cpu001 batch* ib (null)\n"
    "cpu002 batch* ib (null)\n"
    "cpu003 batch* bigmem,ib (null)\n";

static struct nodetypes *load_ok(const char *path, enum nodetypes_rule rule)
{
    struct nodetypes *m;
    struct bfs_error e;

    bfs_error_clear(&e);
    ck_assert_msg(nodetypes_load(path, rule, &m, &e) == 0, "%s", e.msg);
    return m;
}

/* Asserts that loading text fails at "FILE:LINE:" with what. */
static void expect_bad_map(const char *name, const char *text,
                           enum nodetypes_rule rule, int line, const char *what)
{
    struct nodetypes *m;
    struct bfs_error e;
    const char *p = tu_write(name, text);
    char where[4200];

    bfs_error_clear(&e);
    ck_assert_msg(nodetypes_load(p, rule, &m, &e) < 0, "%s: accepted", name);
    snprintf(where, sizeof where, line ? "%s:%d: " : "%s: ", p, line);
    ck_assert_msg(strstr(e.msg, where) == e.msg, "%s: '%s' lacks '%s'", name,
                  e.msg, where);
    ck_assert_msg(strstr(e.msg, what) != NULL, "%s: '%s' lacks '%s'", name,
                  e.msg, what);
}

START_TEST(test_sinfo_gres)
{
    static const char *const nodes[] = {"cpu002", "gpu-a02", "gpu-a01",
                                        "cpu001", "gpu-v01"};
    const char *p = tu_write("sinfo.txt", sinfo_sample);
    struct nodetypes *m = load_ok(p, NODETYPES_RULE_DEFAULT);
    struct nodetypes_table t;
    struct bfs_error e;

    ck_assert_str_eq(nodetypes_form(m), "sinfo");
    ck_assert_int_eq(nodetypes_rule(m), NODETYPES_RULE_GRES);
    ck_assert_uint_eq(nodetypes_hosts(m), 6);
    ck_assert_str_eq(nodetypes_find(m, "gpu-a01"), "gpu:a100:4");
    ck_assert_str_eq(nodetypes_find(m, "gpu-v01"), "gpu:v100:8");
    ck_assert_str_eq(nodetypes_find(m, "cpu003"), "none");
    ck_assert_ptr_null(nodetypes_find(m, "gpu-a03"));
    bfs_error_clear(&e);
    ck_assert_int_eq(nodetypes_apply(m, nodes, 5, &t, &e), 0);
    /* In node order: none, gpu:a100:4, gpu:a100:4, none, gpu:v100:8; the
     * file's cpu003 is not among the nodes. */
    ck_assert_uint_eq(t.n_nodes, 5);
    ck_assert_uint_eq(t.n_types, 3);
    ck_assert_str_eq(t.names[0], "none");
    ck_assert_str_eq(t.names[1], "gpu:a100:4");
    ck_assert_str_eq(t.names[2], "gpu:v100:8");
    ck_assert_uint_eq(t.type[0], 0);
    ck_assert_uint_eq(t.type[1], 1);
    ck_assert_uint_eq(t.type[2], 1);
    ck_assert_uint_eq(t.type[3], 0);
    ck_assert_uint_eq(t.type[4], 2);
    ck_assert_str_eq(t.per_node[4], "gpu:v100:8");
    ck_assert_uint_eq(t.unused, 1);
    nodetypes_table_release(&t);
    nodetypes_table_release(&t); /* emptied: a no-op */
    nodetypes_free(m);
}
END_TEST

START_TEST(test_sinfo_features_and_header)
{
    /* Without -h, sinfo prints its column headers first. */
    char text[2048];
    const char *p;
    struct nodetypes *m;

    snprintf(text, sizeof text, "NODELIST PARTITION AVAIL_FEATURES GRES\n%s",
             sinfo_sample);
    p = tu_write("sinfo-h.txt", text);
    m = load_ok(p, NODETYPES_RULE_FEATURES);
    ck_assert_uint_eq(nodetypes_hosts(m), 6);
    ck_assert_str_eq(nodetypes_find(m, "gpu-a02"), "a100,ib,nvme");
    ck_assert_str_eq(nodetypes_find(m, "cpu001"), "ib");
    ck_assert_str_eq(nodetypes_find(m, "cpu003"), "bigmem,ib");
    nodetypes_free(m);
}
END_TEST

START_TEST(test_sinfo_partition)
{
    /* Disjoint partitions: the default's star is dropped. */
    static const char disjoint[] = "gpu-a01 gpu a100 gpu:a100:4\n"
                                   "cpu001 batch* ib (null)\n"
                                   "cpu[002-003] batch* ib (null)\n";
    const char *p = tu_write("sinfo-p.txt", disjoint);
    struct nodetypes *m = load_ok(p, NODETYPES_RULE_PARTITION);

    ck_assert_uint_eq(nodetypes_hosts(m), 4);
    ck_assert_str_eq(nodetypes_find(m, "gpu-a01"), "gpu");
    ck_assert_str_eq(nodetypes_find(m, "cpu003"), "batch");
    nodetypes_free(m);
    /* The sample's gpu-a01 is in gpu and debug: two types. */
    expect_bad_map("sinfo-pp.txt", sinfo_sample, NODETYPES_RULE_PARTITION, 2,
                   "node 'gpu-a01' has type 'debug' here but 'gpu' on line 1");
}
END_TEST

START_TEST(test_hostlist_form)
{
    static const char *const nodes[] = {"gpu01", "gpu02", "gpu03", "gpu04",
                                        "gpu05", "gpu06", "big01"};
    const char *p = tu_write("map.txt", "# the machine\n"
                                        "\n"
                                        "gpu[01-04] A100\n"
                                        "  gpu[05-06],big01\tH100\n"
                                        "gpu03 A100\n"
                                        "spare[1-2] A100\n");
    struct nodetypes *m = load_ok(p, NODETYPES_RULE_DEFAULT);
    struct nodetypes_table t;
    struct bfs_error e;

    ck_assert_str_eq(nodetypes_form(m), "hostlist");
    ck_assert_int_eq(nodetypes_rule(m), NODETYPES_RULE_DEFAULT);
    ck_assert_uint_eq(nodetypes_hosts(m), 9);
    bfs_error_clear(&e);
    ck_assert_int_eq(nodetypes_apply(m, nodes, 7, &t, &e), 0);
    ck_assert_uint_eq(t.n_types, 2);
    ck_assert_str_eq(t.names[0], "A100");
    ck_assert_str_eq(t.names[1], "H100");
    for (size_t i = 0; i < 7; i++)
        ck_assert_uint_eq(t.type[i], i < 4 ? 0 : 1);
    ck_assert_uint_eq(t.unused, 2); /* spare1, spare2 */
    nodetypes_table_release(&t);
    nodetypes_free(m);
}
END_TEST

START_TEST(test_unknown_host)
{
    static const char *const nodes[] = {"gpu01", "gpu07"};
    const char *p = tu_write("map-u.txt", "gpu[01-04] A100\n");
    struct nodetypes *m = load_ok(p, NODETYPES_RULE_DEFAULT);
    struct nodetypes_table t;
    struct bfs_error e;
    char want[4200];

    bfs_error_clear(&e);
    ck_assert_int_eq(nodetypes_apply(m, nodes, 2, &t, &e), BFS_ENOTFOUND);
    snprintf(want, sizeof want,
             "%s: node 'gpu07' (node 1 of 2) is not in the mapping", p);
    ck_assert_str_eq(e.msg, want);
    nodetypes_free(m);
}
END_TEST

START_TEST(test_bad_mappings)
{
    expect_bad_map("dup.txt", "gpu[01-04] A100\n# x\ngpu04 H100\n",
                   NODETYPES_RULE_DEFAULT, 3,
                   "node 'gpu04' has type 'H100' here but 'A100' on line 1");
    expect_bad_map("empty.txt", "gpu[01-02] A100\ngpu03\n",
                   NODETYPES_RULE_DEFAULT, 2,
                   "empty type: 'gpu03' has no type");
    /* A GRES that is nothing but a socket binding cleans to nothing. */
    expect_bad_map("empty-gres.txt", "n1 batch ib gpu:4\nn2 batch ib (S:0-1)\n",
                   NODETYPES_RULE_GRES, 2,
                   "empty type: the gres field of node 'n2'");
    expect_bad_map("three.txt", "gpu01 A100 extra\n", NODETYPES_RULE_DEFAULT, 1,
                   "3 fields: expected 'HOSTLIST TYPE' or sinfo's");
    expect_bad_map("mixed.txt", "n1 batch ib (null)\nn2 A100\n",
                   NODETYPES_RULE_DEFAULT, 2,
                   "2 fields: expected sinfo's 'NODE PARTITION FEATURES GRES'");
    expect_bad_map("mixed2.txt", "n1 A100\nn2 batch ib (null)\n",
                   NODETYPES_RULE_DEFAULT, 2,
                   "4 fields: expected 'HOSTLIST TYPE'");
    expect_bad_map("range.txt", "gpu[04-01] A100\n", NODETYPES_RULE_DEFAULT, 1,
                   "reversed range");
    expect_bad_map("ctrl.txt", "gpu01 A\001\n", NODETYPES_RULE_DEFAULT, 1,
                   "bad type");
    expect_bad_map("rule.txt", "gpu01 A100\n", NODETYPES_RULE_FEATURES, 1,
                   "the type rule 'features' is for sinfo output");
    expect_bad_map("none.txt", "# nothing\n\n", NODETYPES_RULE_DEFAULT, 0,
                   "no node in the file");
}
END_TEST

START_TEST(test_rule_names)
{
    enum nodetypes_rule r = NODETYPES_RULE_DEFAULT;
    struct bfs_error e;

    bfs_error_clear(&e);
    ck_assert_int_eq(nodetypes_rule_parse("features", &r, &e), 0);
    ck_assert_int_eq(r, NODETYPES_RULE_FEATURES);
    ck_assert_str_eq(nodetypes_rule_name(r), "features");
    ck_assert_int_eq(nodetypes_rule_parse("gpu", &r, &e), BFS_EUSAGE);
    ck_assert_int_eq(r, NODETYPES_RULE_FEATURES);
    ck_assert_msg(strstr(e.msg, "partition, features or gres"), "%s", e.msg);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("nodetypes");
    TCase *tc = tcase_create("nodetypes");

    tcase_add_test(tc, test_typed_roundtrip);
    tcase_add_test(tc, test_untyped_unchanged);
    tcase_add_test(tc, test_typed_bad_inputs);
    tcase_add_test(tc, test_typed_writer_errors);
    tcase_add_test(tc, test_sinfo_gres);
    tcase_add_test(tc, test_sinfo_features_and_header);
    tcase_add_test(tc, test_sinfo_partition);
    tcase_add_test(tc, test_hostlist_form);
    tcase_add_test(tc, test_unknown_host);
    tcase_add_test(tc, test_bad_mappings);
    tcase_add_test(tc, test_rule_names);
    suite_add_tcase(s, tc);
    return tu_run(s);
}
