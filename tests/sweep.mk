# sweep.mk: filled in by its area.
