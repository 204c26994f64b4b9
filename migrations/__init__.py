"""Alembic environment and revisions, shipped inside the package so `agent db upgrade` works installed."""
