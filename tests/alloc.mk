# Tests of the solver layer, the exact allocators and instance files.
check_PROGRAMS += tests/check_solver tests/check_alloc tests/check_instance
tests_check_solver_SOURCES = tests/check_solver.c tests/testutil.h
tests_check_solver_CFLAGS = $(BFS_TEST_CFLAGS)
tests_check_solver_LDADD = $(BFS_TEST_LIBS)
tests_check_alloc_SOURCES = tests/check_alloc.c tests/testutil.h
tests_check_alloc_CFLAGS = $(BFS_TEST_CFLAGS)
tests_check_alloc_LDADD = $(BFS_TEST_LIBS)
tests_check_instance_SOURCES = tests/check_instance.c tests/testutil.h
tests_check_instance_CFLAGS = $(BFS_TEST_CFLAGS)
tests_check_instance_LDADD = $(BFS_TEST_LIBS)

# Every exact method replays the bundled data to the same bytes.
check_PROGRAMS += tests/check_agree
tests_check_agree_SOURCES = tests/check_agree.c tests/testutil.h
tests_check_agree_CFLAGS = $(BFS_TEST_CFLAGS)
tests_check_agree_LDADD = $(BFS_TEST_LIBS)
