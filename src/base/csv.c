/* csv.c - CSV fields quoted as RFC 4180 says (see csv.h).
 *
 * The test for quotes is one pass over the text; a field that needs none
 * is written with one fputs, so unquoted output costs what it did before
 * this module.  csv_fieldf formats into a stack buffer and falls back to
 * the heap only for a field longer than it.
 */
#include "config.h"

#include "base/csv.h"

#include <stdarg.h>
#include <string.h>

#include "base/util.h"

static int blank(char c)
{
    return c == ' ' || c == '\t';
}

int csv_needs_quotes(const char *s)
{
    size_t n = strlen(s);

    if (n == 0)
        return 0;
    return s[0] == '#' || blank(s[0]) || blank(s[n - 1]) ||
           strpbrk(s, ",\"\r\n") != NULL;
}

void csv_field(FILE *f, const char *s)
{
    if (!csv_needs_quotes(s)) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (const char *q; (q = strchr(s, '"')) != NULL; s = q + 1) {
        fwrite(s, 1, (size_t)(q - s) + 1, f); /* up to and with the quote */
        fputc('"', f);
    }
    fputs(s, f);
    fputc('"', f);
}

void csv_fieldf(FILE *f, const char *fmt, ...)
{
    char buf[256], *p = buf;
    va_list ap;
    int n;

    va_start(ap, fmt);
    n = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if ((size_t)n >= sizeof buf) {
        p = xmalloc((size_t)n + 1);
        va_start(ap, fmt);
        vsnprintf(p, (size_t)n + 1, fmt, ap);
        va_end(ap);
    }
    csv_field(f, p);
    if (p != buf)
        xfree(p);
}
