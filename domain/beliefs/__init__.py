"""Committed beliefs and what happens to them: commit (and the segment-local belief view it works
through), governed user operations, ranking, lifecycle@2 and retrieval@3."""
