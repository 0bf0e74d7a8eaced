"""What a session changed: the commits made and the files and symbols added, modified,
deleted or renamed since its record was taken (up to where it ended, for one set aside); the
session's own commits are told from others' (a pull, a branch switch)."""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from repomem import vcs
from repomem.config import Config
from repomem.fsutil import text_lines, utf8_name
from repomem.memory import access, ops
from repomem.memory.cite import Resolver, digest, parse_symbols, symbol_hashes

MAX_SYMBOLS = 40
MAX_FILES = 60


def _old_symbols(rel: str, data: bytes | None) -> dict[str, str]:
    """{qualified name: body hash} of a committed version of `rel` ({} if absent)."""
    if data is None:
        return {}
    text = data.decode("utf-8", "replace")
    return symbol_hashes(text_lines(text), parse_symbols(rel, text))


def _hash_now(files: Resolver, rel: str) -> str | None:
    f = files.file(rel)
    return digest(f.lines) if f is not None else None


@dataclass
class Changes:
    commits: list[str] = field(default_factory=list)
    added: list[str] = field(default_factory=list)
    modified: list[str] = field(default_factory=list)
    deleted: list[str] = field(default_factory=list)
    renamed: list[str] = field(default_factory=list)
    symbols: list[str] = field(default_factory=list)

    @property
    def empty(self) -> bool:
        """No commit made and no file changed (symbols change only with files)."""
        return not (self.commits or self.added or self.modified or self.deleted or self.renamed)


def changes(cfg: Config, record: dict[str, Any]) -> Changes:
    """What changed in the work tree and history since `record` was taken (up to its end,
    for one `set_aside`: see the module's doc)."""
    root = cfg.root
    head = record.get("head")
    dirty: dict[str, dict[str, Any]] = record.get("dirty") or {}
    reflog = record.get("reflog")
    until = record.get("end_reflog")
    until = until if isinstance(until, int) else None
    made = vcs.commits_made(root, reflog, until) if isinstance(reflog, int) else None
    # set aside, and HEAD moved since (the next session committed, or checked out): the end
    # is the session's commits, the work tree another's
    moved = until is not None and vcs.reflog_size(root) != until
    end_head: str | None = record.get("end_head") if moved else None
    if made is not None:  # the commits made in this checkout during the session, any branch
        subjects = [(sha[:7], subject) for sha, subject in made]
    elif moved:
        subjects = vcs.commits_since(root, head, until=end_head) if end_head else []
    else:
        subjects = vcs.commits_since(root, head)
    out = Changes(commits=[f"{sha} {ops.redacted_line(cfg, subject)}" for sha, subject in subjects])
    if vcs.open_repo(root) is None:
        return out
    sym_added: list[str] = []
    sym_changed: list[str] = []
    sym_removed: list[str] = []
    files = Resolver(cfg)  # each file of the work tree read and parsed once

    @functools.cache
    def show(rev: str, rel: str) -> bytes | None:  # a committed version, read from git once
        return vcs.show_file(root, rev, rel)

    now = end_head if moved else vcs.head(root)
    new_symbols: Callable[[str], dict[str, str]] = files.symbol_hashes
    before_rev: dict[str, str | None] = {}  # where a file's start is read, if not at `head`
    if moved and made is not None:
        listing, before_rev, new_symbols = _own_work(root, made, now, files, show, edits=False)
    elif moved:  # no reflog to tell the session's commits by: the history up to its end
        listing = vcs.changes_since(root, head, to=end_head) if end_head else []

        def committed_symbols(rel: str) -> dict[str, str]:
            return _old_symbols(rel, show(end_head, rel) if end_head else None)

        new_symbols = committed_symbols
    elif made is not None and head and now and not _linear(root, head, now, made):
        # HEAD moved to another line, the session committed on a branch it then left, or
        # others' commits came in (a pull): the difference between start and end is not the
        # session's work; its own commits and the uncommitted edits are.
        listing, before_rev, new_symbols = _own_work(root, made, now, files, show)
    else:
        listing = vcs.changes_since(root, head)

    def old_symbols(rel: str) -> dict[str, str]:
        """The file's symbols at the start: from the snapshot if it was dirty, else HEAD."""
        if rel in dirty:
            return dict(dirty[rel].get("symbols") or {})
        rev = before_rev.get(rel, head)
        return _old_symbols(rel, show(rev, rel) if rev else None)

    def gone_at_start(rel: str) -> bool:
        return rel in dirty and dirty[rel].get("hash") is None

    def unchanged_since_start(rel: str) -> bool:  # (the work tree is not the end once moved)
        return not moved and rel in dirty and _hash_now(files, rel) == dirty[rel].get("hash")

    # the memory file records the session; it is not part of the work
    seen: set[str] = {access.memory_path(cfg).relative_to(root.resolve()).as_posix()}
    for status, path, new in listing:
        if status == "R" and new and not utf8_name(new) and utf8_name(path):
            status, new = "D", ""  # renamed to a name the memory file cannot hold: gone
        if status == "R" and new in dirty and gone_at_start(path):
            status, path, new = "M", new, ""  # renamed before the session: only edits count
        target = new or path
        if target in seen or not (utf8_name(path) and utf8_name(target)):
            continue  # a name that is not UTF-8 cannot be written to the memory file
        seen.add(target)
        if unchanged_since_start(target) and not new:
            continue
        if status == "R":
            out.renamed.append(f"{path} -> {new}")
            before, after = old_symbols(path), new_symbols(new)
        elif status == "A":
            out.added.append(path)
            before, after = old_symbols(path), new_symbols(path)
        elif status == "D":
            out.deleted.append(path)
            before, after = old_symbols(path), {}
        else:
            out.modified.append(path)
            before, after = old_symbols(path), new_symbols(path)
        sym_added += [n for n in after if n not in before]
        sym_removed += [n for n in before if n not in after]
        sym_changed += [n for n in after if n in before and before[n] != after[n]]
    # files dirty at the start and since reverted to HEAD drop out of `git diff`
    for rel, snap in dirty.items():
        if moved or rel in seen or snap.get("hash") is None:
            continue
        now = _hash_now(files, rel)
        if now is not None and now != snap["hash"]:
            out.modified.append(rel)
    for name in ("added", "modified", "deleted", "renamed"):
        values: list[str] = getattr(out, name)
        values.sort()
        if len(values) > MAX_FILES:
            setattr(out, name, [*values[:MAX_FILES], f"… {len(values) - MAX_FILES} more"])
    syms = (
        [f"+{n}" for n in sym_added] + [f"~{n}" for n in sym_changed]
        + [f"-{n}" for n in sym_removed]
    )  # fmt: skip
    if len(syms) > MAX_SYMBOLS:
        syms = [*syms[:MAX_SYMBOLS], f"…+{len(syms) - MAX_SYMBOLS}"]
    out.symbols = [s.replace(" ", "") for s in syms]
    return out


def _linear(root: Path, head: str, now: str, made: list[tuple[str, str]]) -> bool:
    """Whether the work tree's history since `head` is exactly the session's own commits."""
    if not all(vcs.is_ancestor(root, rev, now) for rev in [head, *(c for c, _ in made)]):
        return False
    ours = [sha for sha, _ in made]
    return all(
        any(sha.startswith(short) for sha in ours) for short, _ in vcs.commits_since(root, head)
    )


def _own_work(
    root: Path,
    made: list[tuple[str, str]],
    now: str | None,
    files: Resolver,
    show: Callable[[str, str], bytes | None],
    *,
    edits: bool = True,
) -> tuple[list[tuple[str, str, str]], dict[str, str | None], Callable[[str], dict[str, str]]]:
    """The files the session's own commits and uncommitted edits (unless not `edits`) changed,
    as (status, path, new path) against where each file started: the parent of the first of
    those commits that touched it, else HEAD. Also where each starts, and its symbols at the
    end (the work tree for uncommitted edits, else the last commit that touched it, which may
    be on a branch that is not checked out)."""
    start: dict[str, str | None] = {}  # path -> revision its start is read from
    last: dict[str, str] = {}  # path -> the last session commit that touched it
    origin: dict[str, str] = {}  # path at the end -> its path at the start
    for sha, _ in made:
        for status, path, new in vcs.commit_changes(root, sha):
            for rel in (path, new) if new else (path,):
                start.setdefault(origin.get(rel, rel), f"{sha}^" if status != "A" else None)
            if new:
                origin[new] = origin.pop(path, path)
                last[path] = sha
            last[new or path] = sha
    uncommitted = vcs.changes_since(root, now) if edits and now else []
    edited = {new or path for _, path, new in uncommitted}
    for _, path, new in uncommitted:
        start.setdefault(origin.get(path, path), now)
        if new:
            origin[new] = origin.pop(path, path)

    def in_tree(rel: str) -> bool:  # its end is the work tree (else the last commit)
        return rel in edited or rel not in last

    def exists(rel: str) -> bool:
        if in_tree(rel):
            return files.file(rel) is not None
        return show(last[rel], rel) is not None

    def at_end(rel: str) -> dict[str, str]:
        if in_tree(rel):
            return files.symbol_hashes(rel)
        return _old_symbols(rel, show(last[rel], rel))

    listing: list[tuple[str, str, str]] = []
    moved = set(origin.values())
    for rel in sorted({*start, *origin, *last, *edited}):
        was = origin.get(rel, rel)
        before = start.get(was)
        existed = before is not None and show(before, was) is not None
        if was != rel and exists(rel):
            listing.append(("R", was, rel))
        elif rel in moved and rel not in origin:
            continue  # the start of a rename, listed with its end
        elif exists(rel):
            listing.append(("M" if existed else "A", rel, ""))
        elif existed:
            listing.append(("D", rel, ""))
    return listing, start, at_end
