# The library every program and test links, and the bfsim program.
noinst_LIBRARIES += libbfsim.a
libbfsim_a_SOURCES = \
	src/error.c src/error.h \
	src/util.c src/util.h \
	src/trace.c src/trace.h \
	src/jobs.c src/jobs.h \
	src/alloc.c src/alloc.h src/alloc_impl.h \
	src/evq.c src/evq.h \
	src/replay.c src/replay.h \
	src/sweep.c src/sweep.h

bin_PROGRAMS += bfsim
bfsim_SOURCES = src/main.c src/cmd.h \
	src/cmd_replay.c \
	src/cmd_solve.c \
	src/cmd_convert.c \
	src/cmd_info.c \
	src/cmd_gentrace.c \
	src/cmd_sweep.c
bfsim_LDADD = libbfsim.a $(BFS_LIBS)

dist_man1_MANS += src/bfsim.1
