"""Forming memories from a segment: clauses and language, the three stages of formation@9, their
schemas and local validation, rendering, equivalence, merging, grounding and the deterministic formers."""
