/* PLACEHOLDER - replaced by the real command before any commit. */
#include "config.h"
#include "cmd.h"
#include <stdio.h>
int cmd_info(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fputs("bfsim: info: not built yet\n", stderr);
    return CMD_FAIL;
}
