"""Small file-system helpers shared by the core: atomic writes, an inter-process lock, a
file's lines as editors, git and tree-sitter number them, and text made valid Unicode."""

from __future__ import annotations

import contextlib
import errno
import logging
import os
import re
import stat
import tempfile
import threading
import time
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from repomem.errors import LockTimeoutError, WriteAccessError

log = logging.getLogger(__name__)

# A wait for a lock longer than this is said once (a pack behind a full build waits minutes).
LOCK_NOTICE_SECONDS = 1.0

# The device is full or over quota: nothing to make writable, space to free.
_NO_SPACE = (errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC))


def cannot_write(path: Path | str, exc: OSError) -> WriteAccessError:
    """The one-line error for a write that the file system refused."""
    why = exc.strerror or type(exc).__name__
    if exc.errno in _NO_SPACE:
        return WriteAccessError(
            f"Cannot write `{path}` ({why}); free some space on its disk and run the command "
            f"again (nothing was lost: repomem writes whole files or nothing)."
        )
    return WriteAccessError(
        f"Cannot write `{path}` ({why}); repomem keeps its index, locks, session state or "
        f"memory there: make it writable."
    )


_LONE_CR = re.compile("\r(?!\n)")


def lone_cr_as_lf(text: str) -> str:
    """`text` with each `\\r` not followed by `\\n` (old Mac OS line ends) made a `\\n`, so
    tree-sitter, line counts and `text_lines` see the lines editors show; `\\r\\n` is kept.
    Same length, so offsets into the text stay valid."""
    return _LONE_CR.sub("\n", text) if "\r" in text else text


def text_lines(text: str) -> list[str]:
    """The lines of a file's text, numbered as editors and the index number them: split at
    `\\n` (a `\\r` before it dropped) and at a lone `\\r` (the index parses text through
    `lone_cr_as_lf`). `str.splitlines` also splits at form feeds, which PEP 8 allows in code,
    and at other separators, and would shift every line after one."""
    text = lone_cr_as_lf(text)
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    if "\r" in text:
        return [ln[:-1] if ln.endswith("\r") else ln for ln in lines]
    return lines


# Every break str.splitlines() knows, with the blanks around it.
_LINE_BREAK = re.compile(r"[ \t]*(?:\r\n|[\r\n\v\f\x1c-\x1e\x85\u2028\u2029])\s*")


# The other control characters (C0 but tab, DEL, C1): a NUL makes git take the committed
# memory file for binary, and an escape sequence rewrites the terminal that shows it.
_CONTROL = re.compile(r"[\x00-\x08\x0e-\x1b\x1f\x7f-\x84\x86-\x9f]")


def one_line(text: str) -> str:
    """`text` on one line: each line break (any `str.splitlines` knows) and the blanks around
    it become one space, other control characters are dropped, the ends are stripped, and it
    is `valid_text`. For text written where a line break would start something else: an entry
    or field of the memory file, an error message."""
    return _LINE_BREAK.sub(" ", _CONTROL.sub("", valid_text(text)).strip())


def control_chars(text: str) -> set[str]:
    """The control characters of `text` that `one_line` drops (not tabs nor line breaks)."""
    return set(_CONTROL.findall(text))


ECHO_CHARS = 200  # of a value someone gave, said back in a message


def echo(value: str) -> str:
    """`value` as a message says it back: on one line, and cut to `ECHO_CHARS` (a long
    argument is its giver's own; said back whole it would fill a screen, or a model's
    context, for nothing)."""
    one = " ".join(value.split())
    return one if len(one) <= ECHO_CHARS else one[: ECHO_CHARS - 1] + "…"


def utf8_name(name: str) -> bool:
    """True when `name` is valid Unicode. git and `os.walk` give a file name that is not UTF-8
    on disk with its bytes as surrogates, which no store, JSON, terminal or memory file holds."""
    if name.isascii():
        return True
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def nfc(text: str) -> str:
    """`text` in Unicode normal form C: how two spellings of one file name compare (macOS
    writes `café` decomposed, keyboards type it composed)."""
    return text if text.isascii() else unicodedata.normalize("NFC", text)


def valid_text(value: str) -> str:
    """`value` as valid Unicode, writable as UTF-8 to a file or the store: lone surrogates
    become U+FFFD, as invalid UTF-8 in a file is read.

    Python keeps a command-line byte that is not UTF-8 as a surrogate (`\\udcff`): those bytes
    are taken as they were. JSON can carry half of a UTF-16 pair (`"\\ud83d"`): a pair written
    as two halves is joined, a lone half replaced."""
    if value.isascii():
        return value
    try:
        value.encode("utf-8")
        return value
    except UnicodeEncodeError:
        pass
    try:
        raw = value.encode("utf-8", "surrogateescape")  # each undecodable byte, as it was
    except UnicodeEncodeError:
        return value.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")
    return raw.decode("utf-8", "replace")


def read_exact(path: Path | str) -> str:
    """A UTF-8 text file as written (no newline translation: what `atomic_write` wrote)."""
    with open(path, encoding="utf-8", newline="") as fh:
        return fh.read()


def atomic_write(path: Path | str, text: str) -> None:
    """Write `text` to `path` atomically (temp file in the same directory, then replace).

    Newlines are written as given (no translation), so a file read with `newline=""` round-trips
    byte for byte. A symlink is written through (the file it names is replaced); a device, FIFO
    or socket is written to in place.
    """
    target = Path(path)
    if target.is_symlink():
        # written through the link: replacing the link would leave the file it names as it was
        target = Path(os.path.realpath(target))
        if target.is_symlink():  # a loop: realpath stops where it began
            loop = OSError(errno.ELOOP, os.strerror(errno.ELOOP))
            raise cannot_write(path, loop) from loop
    try:
        mode = target.stat().st_mode
    except OSError:
        mode = 0
    if mode and not stat.S_ISREG(mode):
        # a device, FIFO or socket (`--out /dev/stdout`, a named pipe) is written to, never
        # replaced by a file; a directory is an error naming it
        try:
            with open(target, "w", encoding="utf-8", newline="") as fh:
                fh.write(text)
        except OSError as exc:
            raise cannot_write(target, exc) from exc
        return
    try:
        fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    except OSError as exc:
        raise cannot_write(target, exc) from exc
    try:
        try:
            with open(fd, "w", encoding="utf-8", newline="") as fh:
                fh.write(text)
                fh.flush()
                os.fsync(fh.fileno())
        except OSError as exc:  # a full disk: the target is left as it was
            raise cannot_write(target, exc) from exc
        if target.exists():
            with contextlib.suppress(OSError):
                os.chmod(tmp, target.stat().st_mode & 0o7777)
        else:
            with contextlib.suppress(OSError):
                os.chmod(tmp, 0o644)
        os.replace(tmp, target)
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)


_Lock = TypeVar("_Lock", bound="FileLock")


class FileLock:
    """An exclusive lock on a local file, shared between processes (the OS frees it on death).

    Not re-entrant (see `ReentrantFileLock`): each one opens the file anew, and the lock is
    the open file's, so another call of this process waits as another process does. Waits up
    to `timeout` seconds, then raises `LockTimeoutError` with `timeout_message()`.
    """

    def __init__(self, path: Path, timeout: float) -> None:
        self.path = path
        self.timeout = timeout
        self._fd: int | None = None

    def timeout_message(self, holder: str) -> str:
        return (
            f"`{self.path}` is locked by {holder} for over {self.timeout:g}s; wait for it to "
            f"finish and retry."
        )

    def __enter__(self: _Lock) -> _Lock:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            raise cannot_write(self.path, exc) from exc
        start = time.monotonic()
        deadline = start + self.timeout
        delay = 0.005
        noticed = False
        while not _try_lock(fd):
            now = time.monotonic()
            if now >= deadline:
                holder = _read_holder(fd)
                os.close(fd)
                raise LockTimeoutError(self.timeout_message(holder))
            if not noticed and now - start >= LOCK_NOTICE_SECONDS:
                noticed = True
                log.warning(
                    "waiting for %s to release `%s` (up to %gs)",
                    _read_holder(fd), self.path, self.timeout,
                )  # fmt: skip
            time.sleep(delay)
            delay = min(delay * 2, 0.1)
        try:  # who holds it, for the timeout message of the next waiter
            os.ftruncate(fd, 0)
            os.lseek(fd, 0, os.SEEK_SET)  # reading the holder moved the offset
            os.write(fd, f"{os.getpid()}\n".encode())
        except OSError:  # a full disk: the lock holds all the same
            pass
        self._fd = fd
        return self

    def __exit__(self, *exc: object) -> None:
        if self._fd is not None:
            with contextlib.suppress(OSError):
                os.ftruncate(self._fd, 0)
            _unlock(self._fd)
            os.close(self._fd)
            self._fd = None


class ReentrantFileLock(FileLock):
    """A `FileLock` that the thread holding it takes again at once (a call made under the lock
    that takes it itself), released when the outermost `with` ends; the outermost waits up to
    its `timeout`, the nested ones never wait. Other threads of the process wait for it as
    other processes do, each on an opening of its own of the file.
    """

    def __enter__(self: _Lock) -> _Lock:
        holds = _holds()
        key = os.path.realpath(self.path)
        hold = holds.get(key)
        if hold is not None:
            hold.depth += 1
            return self
        super().__enter__()
        holds[key] = _Hold(self)
        return self

    def __exit__(self, *exc: object) -> None:
        holds = _holds()
        key = os.path.realpath(self.path)
        hold = holds.get(key)
        if hold is None:
            return
        hold.depth -= 1
        if hold.depth == 0:
            del holds[key]
            FileLock.__exit__(hold.lock, *exc)


@dataclass
class _Hold:
    """A `ReentrantFileLock` that a thread holds: the one that took it, and how deep."""

    lock: FileLock
    depth: int = 1


_THREAD = threading.local()


def _holds() -> dict[str, _Hold]:
    """The `ReentrantFileLock`s this thread holds, by the real path of their files."""
    holds: dict[str, _Hold] | None = getattr(_THREAD, "holds", None)
    if holds is None:
        holds = _THREAD.holds = {}
    return holds


def _try_lock(fd: int) -> bool:
    try:
        import fcntl

        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return True
    except BlockingIOError:
        return False
    except ImportError:  # pragma: no cover - Windows
        import msvcrt

        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)  # type: ignore[attr-defined]
            return True
        except OSError:
            return False


def _unlock(fd: int) -> None:
    try:
        import fcntl

        fcntl.flock(fd, fcntl.LOCK_UN)
    except ImportError:  # pragma: no cover - Windows
        import msvcrt

        with contextlib.suppress(OSError):
            msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)  # type: ignore[attr-defined]


def _read_holder(fd: int) -> str:
    """Who holds the lock, as its holder wrote it: another process, or another call of this
    one (the MCP server answers calls in threads)."""
    try:
        os.lseek(fd, 0, os.SEEK_SET)
        pid = os.read(fd, 32).decode().strip()
    except OSError:
        pid = ""
    if pid == str(os.getpid()):
        return f"another call of this repomem process (pid {pid})"
    return f"another repomem process (pid {pid})" if pid else "another repomem process"
