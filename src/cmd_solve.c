/* PLACEHOLDER - replaced by the real command before any commit. */
#include "config.h"
#include "cmd.h"
#include <stdio.h>
int cmd_solve(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fputs("bfsim: solve: not built yet\n", stderr);
    return CMD_FAIL;
}
