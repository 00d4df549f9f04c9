# sweep.mk: `bfsim sweep` (src/sweep.c, src/cmd_sweep.c) and its tests.
check_PROGRAMS += tests/check_sweep
tests_check_sweep_SOURCES = tests/check_sweep.c tests/testutil.h
tests_check_sweep_CFLAGS = $(BFS_TEST_CFLAGS)
tests_check_sweep_LDADD = $(BFS_TEST_LIBS)
