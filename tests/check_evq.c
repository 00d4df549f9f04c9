/* check_evq.c - the event queue pops in (time, kind, push order). */
#include "config.h"

#include "engine/evq.h"
#include "testutil.h"

#include <check.h>

/* Fixed pushes: the expected pop order is sorted by hand. */
START_TEST(test_order)
{
    struct evq q;
    struct evq_event e;
    static const int64_t t[] = {5, 3, 5, 3, 1, 5};
    static const int k[] = {1, 2, 0, 2, 9, 0};
    /* pops: (1,9,#4) (3,2,#1) (3,2,#3) (5,0,#2) (5,0,#5) (5,1,#0) */
    static const size_t want[] = {4, 1, 3, 2, 5, 0};

    evq_init(&q);
    for (size_t i = 0; i < 6; i++)
        evq_push(&q, (struct evq_event){.time = t[i], .kind = k[i], .ref = i});
    for (size_t i = 0; i < 6; i++) {
        ck_assert_int_eq(evq_pop(&q, &e), 0);
        ck_assert_uint_eq(e.ref, want[i]);
    }
    ck_assert_int_eq(evq_pop(&q, &e), -1);
    ck_assert_ptr_null(evq_peek(&q));
    evq_release(&q);
}
END_TEST

/* Many pseudo-random pushes and pops interleaved, checked against a
 * brute-force minimum search over the pushed events still pending. */
START_TEST(test_random_against_scan)
{
    struct evq q;
    struct evq_event e, pend[512];
    size_t np = 0, pushed = 0;
    uint64_t x = 88172645463325252ULL;

    evq_init(&q);
    for (int step = 0; step < 20000; step++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        if (np < 512 && (x % 3 != 0 || np == 0)) {
            struct evq_event ev = {.time = (int64_t)(x >> 40) % 50,
                                   .kind = (int)((x >> 20) % 3),
                                   .ref = pushed};
            evq_push(&q, ev);
            ev.seq = pushed++;
            pend[np++] = ev;
        } else {
            size_t best = 0;
            for (size_t i = 1; i < np; i++) {
                const struct evq_event *a = &pend[i], *b = &pend[best];
                if (a->time < b->time ||
                    (a->time == b->time &&
                     (a->kind < b->kind ||
                      (a->kind == b->kind && a->seq < b->seq))))
                    best = i;
            }
            ck_assert_int_eq(evq_pop(&q, &e), 0);
            ck_assert_uint_eq(e.ref, pend[best].ref);
            pend[best] = pend[--np];
        }
    }
    evq_release(&q);
}
END_TEST

static int keep_odd_ref(const struct evq_event *ev, void *arg)
{
    (void)arg;
    return ev->ref % 2 == 1;
}

/* Filtering drops exactly the refused events and keeps the others' pop
 * order: the pushes of test_order, odd refs kept, pop (3,2,#1) (5,0,#5)
 * (5,1,#3) by hand; then a later push still goes in its place. */
START_TEST(test_filter)
{
    struct evq q;
    struct evq_event e;
    static const int64_t t[] = {5, 3, 5, 5, 1, 5};
    static const int k[] = {1, 2, 0, 1, 9, 0};
    static const size_t want[] = {1, 6, 5, 3};

    evq_init(&q);
    for (size_t i = 0; i < 6; i++)
        evq_push(&q, (struct evq_event){.time = t[i], .kind = k[i], .ref = i});
    evq_filter(&q, keep_odd_ref, NULL);
    ck_assert_uint_eq(q.n, 3);
    evq_push(&q, (struct evq_event){.time = 4, .kind = 0, .ref = 6});
    for (size_t i = 0; i < 4; i++) {
        ck_assert_int_eq(evq_pop(&q, &e), 0);
        ck_assert_uint_eq(e.ref, want[i]);
    }
    ck_assert_int_eq(evq_pop(&q, &e), -1);
    evq_release(&q);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("evq");
    TCase *tc = tcase_create("heap");

    tcase_add_test(tc, test_order);
    tcase_add_test(tc, test_random_against_scan);
    tcase_add_test(tc, test_filter);
    suite_add_tcase(s, tc);
    return tu_run(s);
}
