"""Offline scripts that build data files the packages ship (run from the repository root with python -m; never
imported by the service, so they may read and write files the pure domain must not)."""
