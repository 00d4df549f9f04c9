/* backend.c - what the MILP backends (solvers/) share beyond the
 * interface of backend.h: reading the parameter text solver.c hands them.
 *
 * solver.c has checked the user's parameters against the backend's table
 * and rewritten them as "key=value,..." with known keys only, so a
 * backend has only to split the text; each maps the pairs to its own
 * library's settings.
 */
#include "config.h"

#include "solver/backend.h"

#include <string.h>

int solver_param_next(const char **p, char *key, size_t kcap, char *value,
                      size_t vcap)
{
    while (**p) {
        const char *s = *p;
        size_t len = strcspn(s, ","), klen = strcspn(s, "=");
        int fits = klen < kcap && len - klen - 1 < vcap;

        if (fits) {
            memcpy(key, s, klen);
            key[klen] = '\0';
            memcpy(value, s + klen + 1, len - klen - 1);
            value[len - klen - 1] = '\0';
        }
        *p = s + len;
        if (**p == ',')
            (*p)++;
        if (fits)
            return 1;
    }
    return 0;
}
