/* check_hostlist.c - Slurm host list expansion, name order and the index.
 *
 * Expected expansions are written out by hand from Slurm's notation.
 */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <string.h>

#include "formats/hostlist.h"
#include "testutil.h"

/* Expands list and checks the names against the blank-separated want. */
static void expect(const char *list, const char *want)
{
    struct hostlist h;
    struct bfs_error e;
    char buf[4096], *w[256];
    size_t nw;

    hostlist_init(&h);
    bfs_error_clear(&e);
    ck_assert_msg(hostlist_expand(&h, list, (size_t)1 << 20, "--max-nodes",
                                  NULL, 0, &e) == 0,
                  "%s: %s", list, e.msg);
    snprintf(buf, sizeof buf, "%s", want);
    nw = bfs_split_ws(buf, w, 256);
    ck_assert_msg(h.n == nw, "%s: %zu names, want %zu", list, h.n, nw);
    for (size_t i = 0; i < nw; i++)
        ck_assert_str_eq(h.names[i], w[i]);
    hostlist_release(&h);
}

/* Expects list to fail with a message containing want (and "column"). */
static void expect_error(const char *list, const char *want)
{
    struct hostlist h;
    struct bfs_error e;

    hostlist_init(&h);
    hostlist_push(&h, "keep");
    bfs_error_clear(&e);
    ck_assert_msg(hostlist_expand(&h, list, (size_t)1 << 20, "--max-nodes",
                                  "log", 7, &e) == BFS_EPARSE,
                  "'%s' expanded", list);
    ck_assert_msg(strstr(e.msg, want) != NULL, "'%s': message '%s'", list,
                  e.msg);
    ck_assert_msg(strncmp(e.msg, "log:7: ", 7) == 0, "'%s': '%s'", list, e.msg);
    /* The list is left as it was. */
    ck_assert_uint_eq(h.n, 1);
    ck_assert_str_eq(h.names[0], "keep");
    hostlist_release(&h);
}

START_TEST(test_plain)
{
    expect("n1", "n1");
    expect("c05n06,a02n02", "c05n06 a02n02");
    expect("node-1.cluster,x_y", "node-1.cluster x_y");
    expect("b7,b7", "b7 b7");
}
END_TEST

START_TEST(test_ranges)
{
    expect("nid[00012-00015,00020]",
           "nid00012 nid00013 nid00014 nid00015 nid00020");
    expect("gpu[1,3-4]", "gpu1 gpu3 gpu4");
    expect("a[1-3,5],b7,c[01-02]-ib", "a1 a2 a3 a5 b7 c01-ib c02-ib");
    expect("n[8-10]", "n8 n9 n10");
    expect("n[08-10]", "n08 n09 n10");
    expect("n[0-2]", "n0 n1 n2");
    expect("n[5]", "n5");
    expect("n[007]", "n007");
    expect("[1-2]", "1 2");
    expect("c5n[1-2]x", "c5n1x c5n2x");
    expect("n[3-3]", "n3");
}
END_TEST

START_TEST(test_cross_product)
{
    expect("rack[1-2]-node[01-02]",
           "rack1-node01 rack1-node02 rack2-node01 rack2-node02");
    expect("r[1,3]n[1-2]s[7]", "r1n1s7 r1n2s7 r3n1s7 r3n2s7");
    expect("a[1-2][3-4],z", "a13 a14 a23 a24 z");
}
END_TEST

START_TEST(test_errors)
{
    struct hostlist h;
    struct bfs_error e;

    hostlist_init(&h);
    bfs_error_clear(&e);
    ck_assert_int_eq(hostlist_expand(&h, "", 10, "--max-nodes", NULL, 0, &e),
                     BFS_EPARSE);
    ck_assert_str_eq(e.msg, "empty host list");
    hostlist_release(&h);

    expect_error("a[1-3", "unbalanced '[' at column 2");
    expect_error("a[1-3,", "unbalanced '[' at column 2");
    expect_error("a1-3]", "unbalanced ']' at column 5");
    expect_error("a[1-[2]]", "nested '[' at column 5");
    expect_error("a[5-3]", "reversed range at column 3");
    expect_error("b,a[10-09]", "reversed range at column 5");
    expect_error("a[1-010]", "range bounds of different widths at column 3");
    expect_error("a[01-100]", "range bounds of different widths");
    expect_error("a[001-01]", "range bounds of different widths");
    expect_error("a[]", "empty range at column 3");
    expect_error("a[1,,2]", "empty range at column 5");
    expect_error("a[1-]", "empty range at column 5");
    expect_error("a[-1]", "empty range at column 3");
    expect_error("a,,b", "empty host name at column 3");
    expect_error("a,", "empty host name at column 3");
    expect_error(",a", "empty host name at column 1");
    expect_error("a[1-2:2]", "unexpected character in brackets at column 6");
    expect_error("a[x]", "expected a number at column 3");
    expect_error("a b", "blank in host name at column 2");
    expect_error("None assigned", "blank in host name");
    /* The limit used here is 2^20 = 1048576 hosts. */
    expect_error("n[0-99999999]",
                 "more than 1048576 hosts (the limit --max-nodes sets) at "
                 "column 3");
    /* 1025 * 1025 = 1050625 > 1048576 > 1024 * 1024. */
    expect_error("n[0-1024]m[0-1024]", "more than 1048576 hosts");
    expect_error("a[1-3222222,5]", "more than 1048576 hosts");
    /* Over several expressions: 1048576 + 1. */
    expect_error("a[1-1048576],b", "sets) at column 14");
    expect_error("n[1234567890123456789]", "number too long");
    /* The first good expressions were appended, then removed again. */
    expect_error("a[1-3],b[2-1]", "reversed range at column 10");
}
END_TEST

START_TEST(test_order)
{
    struct hostlist h;
    const char *want[] = {"a", "a1",   "a2",    "a02", "a10",
                          "b", "c1n2", "c1n10", "c2n1"};

    ck_assert_int_lt(hostlist_name_cmp("n2", "n10"), 0);
    ck_assert_int_gt(hostlist_name_cmp("n10", "n9"), 0);
    ck_assert_int_lt(hostlist_name_cmp("n2", "n02"), 0);
    ck_assert_int_lt(hostlist_name_cmp("n02", "n3"), 0);
    ck_assert_int_lt(hostlist_name_cmp("a9b", "a10a"), 0);
    ck_assert_int_lt(hostlist_name_cmp("a", "a0"), 0);
    ck_assert_int_eq(hostlist_name_cmp("x007y", "x007y"), 0);
    ck_assert_int_lt(hostlist_name_cmp("A", "a"), 0);

    hostlist_init(&h);
    ck_assert_int_eq(hostlist_expand(&h, "c2n1,c1n[10,2],a[10,2,1],a02,b,a,a1",
                                     100, "--max-nodes", NULL, 0, NULL),
                     0);
    hostlist_sort(&h);
    ck_assert_uint_eq(h.n, sizeof want / sizeof *want);
    for (size_t i = 0; i < h.n; i++)
        ck_assert_str_eq(h.names[i], want[i]);
    hostlist_release(&h);
}
END_TEST

START_TEST(test_index)
{
    struct hostlist_index *ix = hostlist_index_new();
    char name[32];

    for (size_t i = 0; i < 10000; i++) {
        snprintf(name, sizeof name, "nid%05zu", i);
        ck_assert_int_eq(hostlist_index_add(ix, name, i * 3), 1);
    }
    ck_assert_int_eq(hostlist_index_add(ix, "nid00017", 5), 0);
    ck_assert_uint_eq(hostlist_index_count(ix), 10000);
    for (size_t i = 0; i < 10000; i++) {
        snprintf(name, sizeof name, "nid%05zu", i);
        ck_assert_uint_eq(hostlist_index_find(ix, name), i * 3);
    }
    ck_assert_uint_eq(hostlist_index_find(ix, "nid10000"), (size_t)-1);
    ck_assert_uint_eq(hostlist_index_find(ix, ""), (size_t)-1);
    hostlist_index_free(ix);
    hostlist_index_free(NULL);
}
END_TEST

/* ---- Batsim interval sets ---------------------------------------------- */

/* Parses set (limit 1000) and checks the canonical form printed back. */
static void expect_ids(const char *set, const char *canonical, size_t count)
{
    uint32_t *ids = NULL;
    size_t n = 99, cap = 0;
    struct bfs_error e;
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);

    bfs_error_clear(&e);
    ck_assert_msg(hostlist_ids_parse(set, 1000, "the limit", &ids, &n, &cap,
                                     NULL, 0, &e) == 0,
                  "'%s': %s", set, e.msg);
    ck_assert_uint_eq(n, count);
    hostlist_ids_write(f, ids, n);
    fclose(f);
    ck_assert_str_eq(text, canonical);
    free(text);
    free(ids);
}

static void expect_ids_error(const char *set, uint32_t limit, int code,
                             const char *want)
{
    uint32_t *ids = NULL;
    size_t n = 99, cap = 0;
    struct bfs_error e;

    bfs_error_clear(&e);
    ck_assert_int_eq(hostlist_ids_parse(set, limit, "the machine's 8 nodes",
                                        &ids, &n, &cap, "f.csv", 7, &e),
                     code);
    ck_assert_msg(strstr(e.msg, want) != NULL, "'%s': '%s' lacks '%s'", set,
                  e.msg, want);
    ck_assert_msg(strstr(e.msg, "f.csv:7") != NULL, "%s", e.msg);
    ck_assert_uint_eq(n, 99); /* unchanged */
    free(ids);
}

/* The examples of Batsim's interval-set page: {1, 2, 3, 5, 7} in five
 * spellings, all printing "1-3 5 7"; and the writer's own forms. */
START_TEST(test_ids)
{
    expect_ids("1-3 5 7", "1-3 5 7", 5);
    expect_ids("1-2 3 5 7", "1-3 5 7", 5);
    expect_ids("1 2 3 5 7", "1-3 5 7", 5);
    expect_ids("1-2 1-3 5 7", "1-3 5 7", 5);
    expect_ids("5 2-2 7 1-3", "1-3 5 7", 5);
    expect_ids("37-42", "37-42", 6);
    expect_ids("0", "0", 1);
    expect_ids("", "", 0);
    expect_ids("  0-3  7 ", "0-3 7", 5);
    expect_ids("4-9 0-5", "0-9", 10);   /* overlap merged */
    expect_ids("0-9 2-3 5", "0-9", 10); /* contained */
    expect_ids("999", "999", 1);
}
END_TEST

START_TEST(test_ids_errors)
{
    expect_ids_error("0-", 8, BFS_EPARSE, "upper bound at column 3");
    expect_ids_error("3-1", 8, BFS_EPARSE, "reversed range at column 3");
    expect_ids_error("a", 8, BFS_EPARSE, "expected a resource id at column 1");
    expect_ids_error("1,2", 8, BFS_EPARSE, "expected a space");
    expect_ids_error("-1", 8, BFS_EPARSE, "column 1");
    expect_ids_error("1\t2", 8, BFS_EPARSE, "column 2");
    expect_ids_error("99999999999", 8, BFS_EPARSE, "id too large");
    /* ids 0..7 only: 8 is the first beyond; a huge range costs nothing */
    expect_ids_error("0-3 8", 8, BFS_ERANGE,
                     "resource 8 at column 5 is beyond the machine's 8 nodes");
    expect_ids_error("0-4000000000", 8, BFS_ERANGE, "resource 4000000000");
}
END_TEST

int main(void)
{
    Suite *s = suite_create("hostlist");
    TCase *tc = tcase_create("hostlist");

    tcase_add_test(tc, test_plain);
    tcase_add_test(tc, test_ranges);
    tcase_add_test(tc, test_cross_product);
    tcase_add_test(tc, test_errors);
    tcase_add_test(tc, test_order);
    tcase_add_test(tc, test_index);
    tcase_add_test(tc, test_ids);
    tcase_add_test(tc, test_ids_errors);
    suite_add_tcase(s, tc);
    return tu_run(s);
}
