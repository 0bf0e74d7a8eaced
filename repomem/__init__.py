"""repomem: repository memory for coding assistants.

The library API; the `repomem` CLI and the MCP server are thin adapters over it.
"""

from __future__ import annotations

from repomem.errors import (
    BudgetError,
    ConfigError,
    InputError,
    LLMError,
    LockTimeoutError,
    MemoryFileError,
    NotARepoError,
    NotFoundError,
    ParseError,
    RepomemError,
    StoreError,
)

__version__ = "0.1.0"

__all__ = [
    "BudgetError",
    "ConfigError",
    "InputError",
    "LLMError",
    "LockTimeoutError",
    "MemoryFileError",
    "NotARepoError",
    "NotFoundError",
    "ParseError",
    "RepomemError",
    "StoreError",
    "__version__",
]
