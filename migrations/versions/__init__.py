"""Alembic revisions: frozen history, one file per revision."""
