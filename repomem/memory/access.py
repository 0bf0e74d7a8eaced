"""Where the memory file is, and reading or changing it safely.

Every change happens inside `editing()`: an exclusive inter-process lock, a fresh read of the
file, the change, a check that nothing the file held was lost, an atomic replace. Two writers
(a CLI call and the MCP server, two terminals) therefore never lose each other's work.
"""

from __future__ import annotations

import contextlib
import logging
import os
from collections.abc import Iterator
from pathlib import Path

from repomem.config import Config
from repomem.errors import ConfigError, MemoryFileError
from repomem.fsutil import FileLock, atomic_write, read_exact
from repomem.memory import file as mfile
from repomem.memory import migrations, model
from repomem.memory.file import MemoryDoc

log = logging.getLogger(__name__)


_MEMORY_SUFFIXES = (".md", ".markdown", ".txt")  # what `memory.file` may name


def memory_path(cfg: Config) -> Path:
    """The memory file's path (`memory.file`, relative to the repository root).

    Raises:
        ConfigError: when `memory.file` points outside the repository.
        MemoryFileError: when it is a symbolic link (or lies in a linked folder) that leads
            outside the repository: a problem of the file, as a malformed one is.
    """
    rel = Path(cfg.memory.file.strip() or "REPOMEM.md")
    path = (cfg.root / rel).resolve() if not rel.is_absolute() else rel.resolve()
    root = cfg.root.resolve()
    if path != root and root not in path.parents:
        named = Path(os.path.normpath(rel if rel.is_absolute() else cfg.root / rel))
        if any(r in named.parents for r in (cfg.root, root)):
            # the setting names a file inside: a link in the checkout leads out
            shown = named.relative_to(cfg.root if cfg.root in named.parents else root)
            raise MemoryFileError(
                f"`{shown.as_posix()}` is a symbolic link to `{path}`, outside the repository "
                f"`{root}`; repomem neither reads nor writes through it: put the memory file "
                f"itself there (or set `memory.file` in `.repomem`)."
            )
        raise ConfigError(
            f"`memory.file` = `{cfg.memory.file}` is outside the repository `{root}`; use a "
            f"path inside it."
        )
    inside = path.relative_to(root).parts
    if ".git" in inside or path.suffix.lower() not in _MEMORY_SUFFIXES:
        # `.git/config` or `setup.py` would be rewritten as a memory file
        raise ConfigError(
            f"`memory.file` = `{cfg.memory.file}` must be a Markdown or text file "
            f"({', '.join(_MEMORY_SUFFIXES)}) outside `.git`; fix it in `.repomem`."
        )
    return path


def lock(cfg: Config) -> FileLock:
    """The lock every writer of the memory file holds from its read to its write (`editing`,
    `memory merge`)."""
    from repomem.index.state import state_dir

    return FileLock(state_dir(cfg) / "memory.lock", cfg.index.lock_timeout)


def read_text(path: Path) -> str | None:
    """The file's text exactly as stored (no newline translation), or None when absent.

    Raises:
        MemoryFileError: when it exists but cannot be read or is not UTF-8.
    """
    try:
        return read_exact(path)
    except FileNotFoundError:
        return None
    except UnicodeDecodeError as exc:
        raise MemoryFileError(
            f"`{path.name}` is not valid UTF-8 (byte {exc.start}); fix or restore it from git."
        ) from exc
    except OSError as exc:
        raise MemoryFileError(f"Cannot read `{path}` ({exc.strerror}); check it.") from exc


def parse_text(text: str, path: Path) -> MemoryDoc:
    """Parse the file's text, migrating an older schema first."""
    first = mfile.parse(text, path)
    if first.schema_version == model.SCHEMA_VERSION:
        return first
    return mfile.parse(migrations.migrate(text, first.schema_version, path.name), path)


def doc_from_text(text: str | None, path: Path) -> MemoryDoc:
    """The memory held by `text` (the file's content, None when absent): empty text is a new
    memory, an older schema is migrated."""
    if text is None or not text.strip():
        return mfile.new_doc(path)
    return parse_text(text, path)


def load(cfg: Config) -> MemoryDoc:
    """The memory as it is now (an empty one if the file does not exist yet), without a lock.

    Raises:
        MemoryFileError: when the file is malformed (the message names the line).
    """
    path = memory_path(cfg)
    return doc_from_text(read_text(path), path)


@contextlib.contextmanager
def editing(cfg: Config) -> Iterator[MemoryDoc]:
    """Lock, read, yield the memory for changes, then write it back if anything changed.

    The version counter goes up by one per write. The write is refused (nothing is written)
    when the new text would lose an entry the file held.

    Raises:
        MemoryFileError: on a malformed file, or a change that would lose entries.
        LockTimeoutError: when another writer holds the lock too long.
    """
    with lock(cfg):
        path = memory_path(cfg)
        before_text = read_text(path)
        doc = doc_from_text(before_text, path)
        before = entry_ids(doc)
        yield doc
        if not doc.changed:
            return
        doc.version += 1
        doc.schema_version = model.SCHEMA_VERSION
        text = doc.render()
        after_doc = mfile.parse(text, path)
        lost = before - entry_ids(after_doc)
        if lost:
            raise MemoryFileError(
                f"Refusing to write `{path.name}`: it would lose {', '.join(sorted(lost))}; "
                f"this is a bug in repomem, please report it."
            )
        misread = _misread(doc, after_doc)
        if misread:
            raise MemoryFileError(
                f"Refusing to write `{path.name}`: {', '.join(misread)} would be read back "
                f"differently; this is a bug in repomem, please report it."
            )
        if before_text is not None and read_text(path) != before_text:  # pragma: no cover
            raise MemoryFileError(f"`{path.name}` changed while locked; retry.")
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(path, text)


def _misread(written: MemoryDoc, read: MemoryDoc) -> list[str]:
    """The entries this write changed that the file, read again, would not give back as
    written (their text taken for the file's structure, or a field for another)."""
    again = {e.item.id: e.item for sec in read.sections for e in sec.entries}
    steps = [(x.text, x.done) for x in written.next_steps()]
    out = [
        e.item.id
        for sec in written.sections
        for e in sec.entries
        if e.raw is None
        and (
            e.item.id not in again
            or mfile.render_item(again[e.item.id]) != mfile.render_item(e.item)
        )
    ]
    if steps != [(x.text, x.done) for x in read.next_steps()]:
        out.append("the next steps")
    return out


def entry_ids(doc: MemoryDoc) -> set[str]:
    """Every id the file holds: entries, and sessions folded into History (a write never
    loses one)."""
    ids = {e.item.id for s in doc.sections for e in s.entries}
    for h in doc.history():
        ids.update(h.sessions)
    return ids
