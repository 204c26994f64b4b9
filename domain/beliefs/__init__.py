"""Committed beliefs and what happens to them: commit, governed user operations, ranking, lifecycle@2
and retrieval@3."""
