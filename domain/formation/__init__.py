"""Forming memories from a segment: clauses and language, the three stages of formation@9 and the one-call
extraction of formation@8/@10, their schemas and local validation, rendering, equivalence, merging,
grounding and the deterministic formers."""
