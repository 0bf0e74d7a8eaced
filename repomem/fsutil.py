"""Small file-system helpers shared by the core."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path


def atomic_write(path: Path | str, text: str) -> None:
    """Write `text` to `path` atomically (temp file in the same directory, then replace)."""
    target = Path(path)
    tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    try:
        with open(tmp, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    finally:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()
