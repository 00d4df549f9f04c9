/* testjson.h - reading bfsim's outputs in the Check tests: times as the
 * outputs write them and the summary JSON (jansson).  Header-only, like
 * testutil.h; the parsers are the tests' own, not the library's. */
#ifndef BFS_TESTJSON_H
#define BFS_TESTJSON_H

#include <check.h>
#include <errno.h>
#include <jansson.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* A time at the start of s: "YYYY-MM-DD HH:MM:SS" (UTC; anything may
 * follow), or Unix seconds (nothing may follow). */
static inline int64_t tu_parse_time(const char *s)
{
    struct tm tm;
    char *end;
    long long v;
    int n = -1;

    memset(&tm, 0, sizeof tm);
    if (sscanf(s, "%4d-%2d-%2d %2d:%2d:%2d%n", &tm.tm_year, &tm.tm_mon,
               &tm.tm_mday, &tm.tm_hour, &tm.tm_min, &tm.tm_sec, &n) == 6 &&
        n == 19) {
        tm.tm_year -= 1900;
        tm.tm_mon -= 1;
        return (int64_t)timegm(&tm);
    }
    errno = 0;
    v = strtoll(s, &end, 10);
    ck_assert_msg(errno == 0 && end != s && *end == '\0', "bad time '%s'", s);
    return (int64_t)v;
}

/* The JSON file at path (a new reference); fails the test if unreadable. */
static inline json_t *tu_load_json(const char *path)
{
    json_error_t je;
    json_t *j = json_load_file(path, 0, &je);

    ck_assert_msg(j != NULL, "%s: %s", path, je.text);
    return j;
}

/* The number under key in a summary object. */
static inline double tu_jnum(json_t *root, const char *key)
{
    json_t *v = json_object_get(root, key);

    ck_assert_msg(json_is_number(v), "summary: no number %s", key);
    return json_number_value(v);
}

/* The time under key in a summary object. */
static inline int64_t tu_jtime(json_t *root, const char *key)
{
    json_t *v = json_object_get(root, key);

    ck_assert_msg(json_is_string(v), "summary: no time %s", key);
    return tu_parse_time(json_string_value(v));
}

#endif
