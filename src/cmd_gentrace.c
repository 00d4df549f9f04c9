/* PLACEHOLDER - replaced by the real command before any commit. */
#include "config.h"
#include "cmd.h"
#include <stdio.h>
int cmd_gen_trace(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fputs("bfsim: gen_trace: not built yet\n", stderr);
    return CMD_FAIL;
}
