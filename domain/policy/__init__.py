"""Versions of the reference design, the memory model policy and the re-pass policy."""
