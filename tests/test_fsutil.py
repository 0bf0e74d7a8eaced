"""Atomic writes and the inter-process lock: a place that cannot be written gives one error
naming it (a directory where the file should be fails the same way for root as a read-only
folder does for anyone else)."""

from __future__ import annotations

from pathlib import Path

import pytest

from repomem.errors import LockTimeoutError, RepomemError, WriteAccessError
from repomem.fsutil import (
    FileLock,
    ReentrantFileLock,
    atomic_write,
    lone_cr_as_lf,
    read_exact,
    text_lines,
)


def test_atomic_write_replaces_the_file_whole(tmp_path: Path) -> None:
    target = tmp_path / "a.txt"
    atomic_write(target, "one\r\n")
    assert read_exact(target) == "one\r\n"  # CRLF kept both ways
    atomic_write(target, "two\n")
    assert target.read_bytes() == b"two\n"
    assert [p.name for p in tmp_path.iterdir()] == ["a.txt"]  # no temp file left


def test_a_write_the_file_system_refuses_is_one_error_naming_the_place(tmp_path: Path) -> None:
    blocker = tmp_path / "state"
    blocker.write_text("a file where a folder should be")
    with pytest.raises(WriteAccessError) as caught:
        atomic_write(blocker / "session.json", "{}")
    assert "`" + str(blocker / "session.json") + "`" in str(caught.value)
    assert isinstance(caught.value, RepomemError) and isinstance(caught.value, OSError)
    lock_dir = tmp_path / "index.lock"
    lock_dir.mkdir()
    with pytest.raises(WriteAccessError, match="index.lock"), FileLock(lock_dir, 1.0):
        pass


def test_one_line_joins_every_kind_of_line_break_with_one_space() -> None:
    from repomem.fsutil import one_line

    text = "  a  \r\n  b\x0bc\x1cd\u2028e\n\n\tf  "
    assert one_line(text) == "a b c d e f"
    assert one_line("keeps  inner  spaces") == "keeps  inner  spaces"
    assert one_line("x") == "x" and one_line("") == ""


def test_one_line_drops_control_characters_but_keeps_tabs_and_letters() -> None:
    from repomem.fsutil import one_line

    assert one_line("a\x00b\x1b[2J\tc\x7fd\x9f é 中") == "ab[2J\tcd é 中"


def test_a_full_disk_says_to_free_space_not_to_make_the_folder_writable(tmp_path: Path) -> None:
    import errno

    from repomem.fsutil import cannot_write

    with pytest.raises(OSError) as full, open("/dev/full", "w") as fh:
        fh.write("x")
        fh.flush()
    assert full.value.errno == errno.ENOSPC
    message = str(cannot_write(tmp_path / "REPOMEM.md", full.value))
    assert "free some space" in message and "make it writable" not in message
    denied = str(cannot_write(tmp_path, PermissionError(errno.EACCES, "Permission denied")))
    assert "make it writable" in denied


def test_atomic_write_writes_through_symlinks_and_into_special_files(tmp_path: Path) -> None:
    import os
    import stat
    import threading

    real = tmp_path / "real.md"
    real.write_text("old", encoding="utf-8")
    link = tmp_path / "link.md"
    link.symlink_to(real.name)
    atomic_write(link, "new")
    assert link.is_symlink() and real.read_text(encoding="utf-8") == "new"

    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got: list[str] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_text(encoding="utf-8")))
    reader.start()
    atomic_write(fifo, "through the pipe\n")
    reader.join(timeout=30)
    assert got == ["through the pipe\n"] and stat.S_ISFIFO(fifo.stat().st_mode)

    atomic_write("/dev/null", "discarded")  # `pack --out /dev/null` replaced the device
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


def test_atomic_write_to_a_symlink_loop_is_an_error_and_keeps_the_links(tmp_path: Path) -> None:
    (tmp_path / "loop1").symlink_to("loop2")
    (tmp_path / "loop2").symlink_to("loop1")
    with pytest.raises(WriteAccessError, match="symbolic links"):
        atomic_write(tmp_path / "loop1", "x")
    assert (tmp_path / "loop1").is_symlink()


def test_waiting_for_a_held_lock_is_said_once_naming_the_holder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A pack waiting for a full build's lock sat silent for a minute, as if hung."""
    import logging
    import os

    from repomem import fsutil
    from repomem.errors import LockTimeoutError

    monkeypatch.setattr(fsutil, "LOCK_NOTICE_SECONDS", 0.05)
    path = tmp_path / "index.lock"
    caplog.set_level(logging.WARNING, logger="repomem.fsutil")
    with FileLock(path, 1.0), pytest.raises(LockTimeoutError), FileLock(path, 0.4):
        pass
    (record,) = caplog.records
    assert record.levelno == logging.WARNING
    assert f"pid {os.getpid()})" in record.getMessage() and str(path) in record.getMessage()
    # held by this very process (the MCP server's calls run in threads): said so
    assert "another call of this repomem process" in record.getMessage()
    # the waiter that read the holder, once it holds the lock, names itself alone (it wrote
    # its pid after NUL bytes, where its read had left the offset)
    import threading

    holder = FileLock(path, 1.0).__enter__()
    waiter = FileLock(path, 30.0)
    seen: list[bytes] = []
    noticed = threading.Event()
    monkeypatch.setattr(fsutil.log, "warning", lambda *a, **k: noticed.set())

    def wait_then_look() -> None:
        with waiter:
            seen.append(path.read_bytes())

    thread = threading.Thread(target=wait_then_look)
    thread.start()
    assert noticed.wait(30)
    holder.__exit__()
    thread.join(30)
    assert seen == [f"{os.getpid()}\n".encode()]


def test_a_reentrant_lock_is_taken_again_by_its_thread_and_waited_for_by_any_other(
    tmp_path: Path,
) -> None:
    """The session's record had two locks, one taken under the other, because a call under
    one could not take it again: it waited for itself until it timed out."""
    import os
    import subprocess
    import sys
    import threading

    path = tmp_path / "state" / "session.lock"
    other_thread: list[str] = []

    def from_another_thread() -> None:
        try:
            with ReentrantFileLock(path, 0.0):
                other_thread.append("taken")
        except LockTimeoutError as exc:
            other_thread.append(str(exc))

    probe = "import pathlib, sys\nfrom repomem.fsutil import FileLock\n"
    probe += "with FileLock(pathlib.Path(sys.argv[1]), 0.0): pass\n"
    with ReentrantFileLock(path, 5.0):
        with ReentrantFileLock(tmp_path / "state" / ".." / "state" / "session.lock", 0.0):
            pass  # its own thread: taken at once, under another spelling of its path too
        # ...and held still, until the outermost `with` ends
        thread = threading.Thread(target=from_another_thread)
        thread.start()
        thread.join(30)
        elsewhere = subprocess.run(
            [sys.executable, "-c", probe, str(path)], capture_output=True, text=True, timeout=60
        )
    assert other_thread == [
        f"`{path}` is locked by another call of this repomem process (pid {os.getpid()}) "
        "for over 0s; wait for it to finish and retry."
    ]
    assert elsewhere.returncode == 1
    assert f"locked by another repomem process (pid {os.getpid()})" in elsewhere.stderr
    thread = threading.Thread(target=from_another_thread)
    thread.start()
    thread.join(30)
    assert other_thread[1:] == ["taken"]  # released whole


def test_a_lone_carriage_return_ends_a_line_and_crlf_stays_one_line_end() -> None:
    # old Mac files (`\r` only) were one line
    assert text_lines("a\rb\r\rc\r") == ["a", "b", "", "c"]
    assert text_lines("a\r\nb\r\n") == ["a", "b"]
    assert text_lines("a\r\nb\rc\n\x0cd") == ["a", "b", "c", "\x0cd"]  # a form feed is not
    mixed = "a\rb\r\nc\r"
    assert lone_cr_as_lf(mixed) == "a\nb\r\nc\n" and len(lone_cr_as_lf(mixed)) == len(mixed)
    assert lone_cr_as_lf("no breaks") == "no breaks"
