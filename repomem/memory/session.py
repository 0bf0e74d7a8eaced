"""Sessions: what one stretch of work set out to do, learned and changed.

`start()` records the time, HEAD and the dirty files (with their content hashes and symbols)
in `<state dir>/session.json`, local to the clone. `end()` compares the work tree with that
snapshot through git and the parser: commits made, files added/modified/deleted/renamed, and
symbols added, removed or changed; then appends one entry to the memory file with the summary
and the learned facts. A session left open (a crash, a closed terminal) is reported and can be
ended or discarded.

A session opened for a client (a Claude Code session, see `repomem.server.claude_sessions`)
names it in its record's `owner`, so only that client ends it; one opened by hand has none. The
client may `set_aside` the record when its own session ends, which frees the slot for the next
session at once, and `end(record=...)` it later. The record set aside keeps where the session
ended (the time, and HEAD's reflog then), so a late `end` counts the commits made up to there
and not the next session's; the work tree is not kept, so its uncommitted edits count only
while HEAD has not moved since (once the next session committed or checked out, they can no
longer be told from its own, and are left out).
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from repomem import vcs
from repomem.config import Config
from repomem.errors import InputError
from repomem.fsutil import ReentrantFileLock, atomic_write, cannot_write, text_lines, utf8_name
from repomem.memory import access, compact, model, ops
from repomem.memory.cite import Resolver, digest, parse_symbols, symbol_hashes
from repomem.memory.model import Session
from repomem.memory.session_record import lock as session_lock
from repomem.memory.session_record import open_session as open_session
from repomem.memory.session_record import record_path as _state_path

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


def start(
    cfg: Config,
    title: str = "",
    *,
    agent: str = "",
    owner: str = "",
    notes: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """Open a session (`owner`: the client's session it is kept for, see the module's doc;
    `notes`: what the client keeps in the record besides).

    Raises:
        InputError: when one is already open (end or discard it first).
        LockTimeoutError: when another start or end holds the record's lock too long.
    """
    with _lock(cfg):
        return _start(cfg, title, agent, owner, notes)


def _start(
    cfg: Config, title: str, agent: str, owner: str, notes: Mapping[str, Any] | None
) -> dict[str, Any]:
    current = open_session(cfg)
    if current is not None and current.get("owner"):
        # opened by a client's hooks: a model told to start a session should not drop it
        raise InputError(
            f"Session `{current['id']}` is open already, recording {current.get('agent') or 'a'}"
            f" session `{current['owner']}` until it ends; work on, no other session is needed "
            f"(`session end` with a summary ends it now)."
        )
    if current is not None:
        raise InputError(
            f"Session `{current['id']}` ({current.get('title') or 'untitled'}, started "
            f"{current.get('started') or 'at an unknown time'}) is still open; end it with "
            f"`repomem session end` or drop it with `repomem session discard`."
        )
    title = ops.entry_text(cfg, title, "The title")
    agent = ops.entry_text(cfg, agent, "The agent") if agent else agent
    info = vcs.open_repo(cfg.root)
    dirty: dict[str, dict[str, Any]] = {}
    files = Resolver(cfg)
    for rel in vcs.dirty_paths(cfg.root) if info else []:
        dirty[rel] = {"hash": _hash_now(files, rel), "symbols": files.symbol_hashes(rel)}
    record = {
        "id": model.new_session_id(),
        "title": title,
        "agent": agent,
        "started": model.now_iso(),
        "head": info.head if info else None,
        "reflog": vcs.reflog_size(cfg.root) if info else None,  # commits made after it are ours
        "branch": (info.branch or "") if info else "",
        "dirty": dirty,
        "pid": os.getpid(),
        **({"owner": owner} if owner else {}),
        **(notes or {}),
    }
    path = _state_path(cfg)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise cannot_write(path.parent, exc) from exc
    atomic_write(path, json.dumps(record, indent=1))
    return record


def _lock(cfg: Config) -> ReentrantFileLock:
    """The lock under which the open session's record is read, changed and written: two
    clients starting (or ending) a session at once would both succeed, one of them on a
    session the other then overwrote (or recorded twice). Taken again at once by a caller
    that holds it already (the Claude Code hooks: `session_record.lock`)."""
    return session_lock(cfg)


def retitle(cfg: Config, title: str) -> dict[str, Any]:
    """Give the open session `title`.

    Raises:
        InputError: when none is open (or its record is unreadable), or `title` holds a secret.
    """
    return note(cfg, title=ops.entry_text(cfg, title, "The title"))


def note(cfg: Config, **fields: Any) -> dict[str, Any]:
    """Add `fields` to the open session's record (a client's notes, see `start`).

    Raises:
        InputError: when none is open (or its record is unreadable).
    """
    with _lock(cfg):
        record = _updated(cfg, "start one with `repomem session start`", fields)
        atomic_write(_state_path(cfg), json.dumps(record, indent=1))
    return record


def _updated(cfg: Config, otherwise: str, fields: dict[str, Any]) -> dict[str, Any]:
    """The open session's record with `fields` added (not written yet).

    Raises:
        InputError: when none is open (or its record is unreadable), saying `otherwise`.
    """
    record = open_session(cfg)
    if record is None or record.get("corrupt"):
        raise InputError(f"No session is open; {otherwise}.")
    record.update(fields)
    return record


def set_aside(
    cfg: Config, dest: Path, *, ended: float | None = None, **fields: Any
) -> dict[str, Any]:
    """Move the open session's record to `dest`, with where it ended (now, or at `ended`
    seconds since the epoch: its time, and HEAD's reflog then) and `fields` added: no session
    is open then, and `end(cfg, record=...)` records this one later, up to its end.

    Raises:
        InputError: when none is open (or its record is unreadable).
    """
    with _lock(cfg):
        record = _updated(cfg, "nothing to set aside", {**fields, **_end_of(cfg.root, ended)})
        path = _state_path(cfg)
        atomic_write(path, json.dumps(record, indent=1))  # then moved whole: never half of it
        try:
            os.replace(path, dest)
        except OSError as exc:
            raise cannot_write(dest, exc) from exc
    return record


def _end_of(root: Path, when: float | None) -> dict[str, Any]:
    """The fields that say where a session ended: `ended` (its time), and `end_reflog` and
    `end_head` (HEAD's reflog size then, and its commit; None without a reflog)."""
    size: int | None = None
    sha: str | None = None
    if when is None:
        size = vcs.reflog_size(root)
        sha = vcs.head(root) if size is not None else None
    else:
        at = vcs.reflog_at(root, when)
        size, sha = at if at is not None else (None, None)
    return {"ended": model.now_iso(when), "end_reflog": size, "end_head": sha}


def discard(cfg: Config) -> dict[str, Any]:
    """Drop the open session without recording it.

    Raises:
        InputError: when none is open.
    """
    with _lock(cfg):
        current = open_session(cfg)
        if current is None:
            raise InputError("No session is open; nothing to discard.")
        with contextlib.suppress(FileNotFoundError):
            _state_path(cfg).unlink()
    return current


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


def _fallback_summary(ch: Changes) -> str:
    parts: list[str] = []
    if ch.commits:
        subjects = "; ".join(c.split(" ", 1)[1] if " " in c else c for c in ch.commits[:5])
        more = f" and {len(ch.commits) - 5} more" if len(ch.commits) > 5 else ""
        parts.append(f"{len(ch.commits)} commit(s): {subjects}{more}.")
    touched = len(ch.added) + len(ch.modified) + len(ch.deleted) + len(ch.renamed)
    if touched:
        parts.append(f"{touched} file(s) changed.")
    return " ".join(parts) or "No changes recorded."


@dataclass
class EndResult:
    session: Session
    learned: list[ops.Outcome]
    compacted: int
    version: int


def end(
    cfg: Config,
    *,
    summary: str = "",
    learned: list[str] | None = None,
    next_steps: list[str] | None = None,
    summarizer: compact.Summarizer | None = None,
    record: dict[str, Any] | None = None,
    changed: Changes | None = None,
) -> EndResult:
    """Close the open session (or `record`, one `set_aside`, which leaves the open one
    alone): compute its changes (unless `changed` gives them), add its entry and learned
    facts, compact older sessions when the log is over its size threshold.

    Raises:
        InputError: when no session is open, or a learned fact holds a secret.
    """
    args = (summary, learned, next_steps, summarizer, changed)
    if record is not None:  # set aside: the open session's record is not touched
        return _end(cfg, record, True, *args)
    with _lock(cfg):
        return _end(cfg, open_session(cfg), False, *args)


def _end(
    cfg: Config,
    record: dict[str, Any] | None,
    set_aside_record: bool,
    summary: str,
    learned: list[str] | None,
    next_steps: list[str] | None,
    summarizer: compact.Summarizer | None,
    changed: Changes | None,
) -> EndResult:
    if record is None:
        raise InputError("No session is open; start one with `repomem session start`.")
    summary = ops.entry_text(cfg, summary, "The summary")
    texts = [ops.entry_text(cfg, t) for t in (learned or []) if t.strip()]
    steps = [ops.entry_text(cfg, t, "The next step") for t in (next_steps or []) if t.strip()]
    ch = changed or (changes(cfg, record) if not record.get("corrupt") else Changes())
    info = vcs.open_repo(cfg.root)
    end_head = info.head if info else None
    if isinstance(record.get("end_reflog"), int):  # set aside: counted up to where it ended
        end_head = record.get("end_head")
    sess = Session(
        id=record["id"],
        title=record.get("title") or "",
        summary=summary or _fallback_summary(ch),
        started=record.get("started") or model.now_iso(),
        start_head=(record.get("head") or "")[:12],
        branch=record.get("branch") or "",
        ended=str(record.get("ended") or model.now_iso()),
        end_head=(end_head or "")[:12],
        agent=record.get("agent") or "",
        commits=ch.commits,
        added=ch.added,
        modified=ch.modified,
        deleted=ch.deleted,
        renamed=ch.renamed,
        symbols=ch.symbols,
    )
    outcomes: list[ops.Outcome] = []
    with access.editing(cfg) as doc:
        while doc.find(sess.id) is not None:
            sess.id = model.new_session_id()
        for text in texts:
            outcomes.append(ops.remember(cfg, text, source=f"session {sess.id}", doc=doc))
        # facts recorded during the session (`remember` credits the open session) count too
        during = [f.id for f in doc.facts() if f.source == f"session {record['id']}"]
        sess.learned = list(dict.fromkeys([*during, *(o.fact.id for o in outcomes)]))
        doc.add(sess)
        if steps:
            current = doc.next_steps()
            for text in steps:  # as `memory next` adds one
                ops.merge_step(current, text)
            doc.set_next_steps(current)
        compacted = compact.maybe_compact(cfg, doc, summarizer)
    if not set_aside_record:
        with contextlib.suppress(FileNotFoundError):
            _state_path(cfg).unlink()
    return EndResult(session=sess, learned=outcomes, compacted=compacted, version=doc.version)


def listing(cfg: Config) -> dict[str, Any]:
    """The open session (if any), the recorded sessions newest first, and the history."""
    doc = access.load(cfg)
    return {
        "open": open_session(cfg),
        "sessions": list(reversed(doc.sessions())),
        "history": doc.history(),
    }
