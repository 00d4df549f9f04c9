# solvers: the MILP layer, the backends configure found, the exact
# allocators and the instance files (issue 3).  src/local.mk lists the
# rest of the library; these add to it.
libbfsim_a_SOURCES += \
	src/milp.c src/milp.h \
	src/solver.c src/solver.h \
	src/alloc_dp.c src/alloc_milp.c \
	src/instance.c src/instance.h

if HAVE_CBC
libbfsim_a_SOURCES += solvers/cbc.c
endif
if HAVE_GLPK
libbfsim_a_SOURCES += solvers/glpk.c
endif
