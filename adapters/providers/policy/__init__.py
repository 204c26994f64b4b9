"""Shipped policy documents (package data); their bytes define the compiled policy version."""
