"""The index store's schema version (kept apart from `store` so checking it needs no LanceDB)."""

from __future__ import annotations

# Bump when a table's columns or their meaning change; add a migration in `store.MIGRATIONS`
# from the previous version, or let the derived tables be rebuilt.
SCHEMA_VERSION = 2  # 2: the `chunks` table
