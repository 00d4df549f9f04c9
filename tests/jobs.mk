# Tests of src/jobs.c: job sets, curves, the bundled datasets.
check_PROGRAMS += tests/check_jobs
tests_check_jobs_SOURCES = tests/check_jobs.c tests/testutil.h
tests_check_jobs_CFLAGS = $(BFS_TEST_CFLAGS)
tests_check_jobs_LDADD = $(BFS_TEST_LIBS)
