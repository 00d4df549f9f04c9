# tools: files added by this area.
include $(srcdir)/tools/bench.mk
include $(srcdir)/tools/plot.mk
