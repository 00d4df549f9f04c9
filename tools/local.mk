# tools: files added by this area.
