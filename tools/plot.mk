# plot.mk: filled in by its area.
