"""PostgreSQL repositories, one module per repository: every statement scoped by tenant and principal, rows
translated by hand. Nothing is re-exported here; import from the defining module."""
