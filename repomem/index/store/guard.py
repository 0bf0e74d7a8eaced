"""The write lock, and what becomes of LanceDB's failures: damaged or vanished table files
become one `StoreError` that says how to repair, a write the file system refused (a full disk,
a read-only store) becomes the OS error, and a reader that met a writer's changes (`_RACE`)
waits for that writer and reads again. `Store` wraps its public methods in `_guard`."""

from __future__ import annotations

import contextlib
import errno
import functools
import logging
import os
import re
from typing import TYPE_CHECKING, Any

from repomem.errors import StoreError
from repomem.fsutil import FileLock, cannot_write

if TYPE_CHECKING:
    from repomem.index.store import Store

log = logging.getLogger(__name__)


class WriteLock(FileLock):
    """The index's exclusive write lock (released by the OS if its holder dies)."""

    def timeout_message(self, holder: str) -> str:
        return (
            f"The index at `{self.path.parent}` is locked by {holder} for over "
            f"{self.timeout:g}s; wait for it to finish or raise `index.lock_timeout`."
        )


# ----------------------------------------------------------------- damage and races
# What LanceDB raises when a table's files are damaged or vanish under a reader: a Rust
# error surfaced as RuntimeError/OSError/ValueError whose text names Lance.
_LANCE_ERROR = ("lance error", "lanceerror")
# What a reader meets when a writer changes the tables under it (a schema rebuild drops and
# re-creates them; a compaction's cleanup removes the files of old versions): files gone, or a
# table without its full-text index yet. It waits for that writer, then reads again.
_RACE = ("not found", "inverted index")


def _lance_failure(exc: BaseException) -> bool:
    text = str(exc).lower()
    return isinstance(exc, RuntimeError | OSError | ValueError) and any(
        marker in text for marker in (*_LANCE_ERROR, *_RACE)
    )


def _await_writer(store: Store) -> None:
    """Wait until no process holds the write lock (a reader cannot always take it: then it
    just reads again)."""
    with contextlib.suppress(StoreError), WriteLock(store.lock_path, store.lock_timeout):
        pass


# Writes the file system refused, as LanceDB reports them (the OS error's text): a full
# disk or a read-only store, not damage.
_REFUSED = (
    (re.compile(r"no space left on device|os error 28|disk quota exceeded", re.I), errno.ENOSPC),
    (re.compile(r"permission denied|os error 13", re.I), errno.EACCES),
    (re.compile(r"read-only file system|os error 30", re.I), errno.EROFS),
)


def _refused_write(exc: BaseException, *, writing: bool) -> OSError | None:
    """The OS error inside a LanceDB error when the file system refused a write (a full disk
    at any time; a denied write only while writing: a reader denied is not)."""
    if not isinstance(exc, OSError | RuntimeError):
        return None
    for pattern, code in _REFUSED:
        if (writing or code == errno.ENOSPC) and pattern.search(str(exc)):
            return OSError(code, os.strerror(code))
    return None


def _guard(name: str, method: Any) -> Any:
    """`method` with LanceDB's errors turned into one `StoreError` that says what to do. A
    reader whose files a concurrent writer removed (`_RACE`) waits for it and reads again."""

    @functools.wraps(method)
    def guarded(self: Store, *args: Any, **kwargs: Any) -> Any:
        try:
            return method(self, *args, **kwargs)
        except StoreError:
            raise
        except Exception as exc:
            refused = _refused_write(exc, writing=self._writing)
            if refused is not None:  # the disk, not the store: the last update is kept
                raise cannot_write(self.uri, refused) from exc
            if not _lance_failure(exc):
                raise
            if not self._writing and any(m in str(exc).lower() for m in _RACE):
                log.info("%s: %s; reading again once the writer is done", name, exc)
                _await_writer(self)
                self.refresh()
                try:
                    return method(self, *args, **kwargs)
                except Exception as again:
                    if not _lance_failure(again):
                        raise
                    exc = again
            first = re.sub(r",?\s*/rustc/\S+", "", str(exc).strip().splitlines()[0])[:200]
            raise StoreError(
                f"The index store `{self.uri}` is damaged or was changed under this process "
                f"({first}); run `repomem doctor --fix` to repair it."
            ) from exc

    return guarded
