"""The memory file's versions: its own counter, matched with its git history.

`log()` lists the committed versions (plus the working copy when it differs) with what each
changed; `diff()` compares two versions entry by entry.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from repomem import vcs
from repomem.config import Config
from repomem.errors import InputError, MemoryFileError
from repomem.memory import access
from repomem.memory import file as mfile
from repomem.memory.file import MemoryDoc

WORKING = "working"


@dataclass
class Version:
    rev: str  # a commit sha, or "working"
    date: str
    subject: str
    version: int
    doc: MemoryDoc | None = None


@dataclass
class Delta:
    added: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    changed: list[str] = field(default_factory=list)  # "id: status a -> b" or "id: edited"


def _doc(text: str | None, path: Path) -> MemoryDoc | None:
    if text is None or not text.strip():
        return None
    try:
        return access.parse_text(text, path)
    except MemoryFileError:
        return None  # an old broken version: listed, not compared


def versions(cfg: Config, *, limit: int = 50) -> list[Version]:
    """Newest first: the working copy (if it differs from HEAD), then each commit of the file."""
    path = access.memory_path(cfg)
    rel = path.relative_to(cfg.root.resolve()).as_posix()
    out: list[Version] = []
    committed = vcs.show_file(cfg.root, "HEAD", rel)  # what the working copy is compared with
    head_text = committed.decode("utf-8", "replace") if committed is not None else None
    for sha, date, subject in vcs.file_history(cfg.root, rel, limit=limit):
        data = vcs.show_file(cfg.root, sha, rel)
        text = data.decode("utf-8", "replace") if data is not None else None
        doc = _doc(text, path)
        out.append(Version(sha, date, subject, doc.version if doc else 0, doc))
    working = access.read_text(path)
    if working is not None and working != head_text:
        doc = _doc(working, path)
        out.insert(0, Version(WORKING, "", "(uncommitted)", doc.version if doc else 0, doc))
    return out


def _states(doc: MemoryDoc | None) -> dict[str, tuple[str, str]]:
    """{id: (status or kind, rendered text)}."""
    if doc is None:
        return {}
    out: dict[str, tuple[str, str]] = {}
    for e in doc.entries(*mfile.ENTRY_SECTIONS):
        status = getattr(e.item, "status", type(e.item).__name__.lower())
        out[e.item.id] = (status, mfile.render_item(e.item))
    return out


def delta(old: MemoryDoc | None, new: MemoryDoc | None) -> Delta:
    a, b = _states(old), _states(new)
    # a session that left Sessions for a History entry is compacted, not removed
    folded = {sid: h.id for h in (new.history() if new else []) for sid in h.sessions}
    d = Delta(
        added=[i for i in b if i not in a],
        removed=[i for i in a if i not in b and i not in folded],
        changed=[
            f"{i}: session -> compacted into {folded[i]}" for i in a if i not in b and i in folded
        ],
    )
    for i in b:
        if i in a and a[i] != b[i]:
            sa, sb = a[i][0], b[i][0]
            d.changed.append(f"{i}: {sa} -> {sb}" if sa != sb else f"{i}: edited")
    return d


def log(cfg: Config, *, limit: int = 50) -> list[tuple[Version, Delta]]:
    vs = versions(cfg, limit=limit + 1)
    rows: list[tuple[Version, Delta]] = []
    for i, v in enumerate(vs[:limit]):
        older = vs[i + 1].doc if i + 1 < len(vs) else None
        rows.append((v, delta(older, v.doc)))
    return rows


def _pick(cfg: Config, spec: str | None, vs: list[Version], default: str) -> Version:
    spec = (spec or default).strip()
    path = access.memory_path(cfg)
    if spec == WORKING:
        doc = _doc(access.read_text(path), path)
        return Version(WORKING, "", "working copy", doc.version if doc else 0, doc)
    digits = spec[1:] if spec[:1] in "vV" else spec
    if digits.isdigit() and len(digits) < 7:
        for v in vs:
            if v.version == int(digits):
                return v
        raise InputError(f"No version {digits} of `{path.name}` in its git history.")
    sha = vcs.resolve_rev(cfg.root, spec)
    if sha is None and spec == default == "HEAD":
        return Version("", "", "nothing committed yet", 0, None)  # all of it is new
    if sha is None:
        raise InputError(f"`{spec}` is neither a memory version nor a git revision.")
    rel = path.relative_to(cfg.root.resolve()).as_posix()
    data = vcs.show_file(cfg.root, sha, rel)
    doc = _doc(data.decode("utf-8", "replace") if data is not None else None, path)
    return Version(sha, "", spec, doc.version if doc else 0, doc)


def diff(cfg: Config, a: str | None = None, b: str | None = None) -> tuple[Version, Version, Delta]:
    """Compare versions `a` (default HEAD) and `b` (default the working copy).

    Each may be a version number (`12` or `v12`), a git revision, or `working`.
    """
    vs = versions(cfg)
    va = _pick(cfg, a, vs, "HEAD")
    vb = _pick(cfg, b, vs, WORKING)
    return va, vb, delta(va.doc, vb.doc)
