"""Runnable examples of the client (run them as scripts; tests import them)."""
