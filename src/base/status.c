/* status.c - the names of the solve statuses, generated from the one
 * list in status.h. */
#include "config.h"

#include "base/status.h"

const char *solve_status_name(int status)
{
    switch (status) {
#define SOLVE_ST_CASE(name, text)                                              \
    case SOLVE_##name:                                                         \
        return text;
        SOLVE_STATUSES(SOLVE_ST_CASE)
#undef SOLVE_ST_CASE
    }
    return "unknown";
}
