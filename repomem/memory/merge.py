"""Union merge of two versions of the memory file (a git merge driver, or conflict markers).

Facts, sessions and history entries are matched by id: entries only one side has are kept,
entries both sides changed are decided three-way against the common base (a side that did not
change it yields to the one that did). A fact both sides changed is merged field by field:

- a fact forgotten on either side stays forgotten (forgetting erases; an edit on the other
  side must not bring the text back);
- what people write (text, kind, topic, confidence) is taken from the side that changed it;
  when both changed one of them differently (or there is no base to tell), the fact is a
  conflict: `MergeConflictError`, whose text is the file merged but for those facts, each left
  between git's conflict markers with both versions and the base;
- what repomem keeps (the status with its reason and time, `confirmed`, the citations' lines
  and hashes) is taken, when both changed it, from the side whose status is further along:
  forgotten > superseded > stale > valid, then the later time, then ours.

Sessions and History entries are written by repomem once (at a session's end, at a
compaction) and never changed by it afterwards: compaction removes sessions from Sessions and
adds a new History entry, it edits none. A change to one on a branch is therefore a person's
(or a model's through the memory tool), and one both sides changed is merged field by field as
what people write in a fact is: each field from the side that changed it; both changing one
field differently (or no base to tell) is a conflict, left between conflict markers. A session
compacted on either side leaves Sessions, even if the other side edited it (its History entry
summarises it as it was; the edit stays in git history). Both sides compacting the same
sessions alike write the same entry under the same id (`compact` draws it from the entry's
content), kept once; compacting them differently (a model's summary) keeps both entries.

Entries only theirs has are added after ours, but for sessions and History entries: each goes
before the first of ours that started later, so a log in time order on both sides stays in time
order (ours are not moved, and one without a start goes last).

Prose sections take the changed side, or both sides' lines when both changed. The version
counter becomes one more than the larger of the two.
"""

from __future__ import annotations

import re
from dataclasses import fields, replace
from pathlib import Path

from repomem.config import Config
from repomem.errors import MemoryFileError
from repomem.fsutil import atomic_write
from repomem.memory import access
from repomem.memory import file as mfile
from repomem.memory.file import Entry, Item, MemoryDoc, Section
from repomem.memory.model import Fact, HistoryEntry, NextStep, Session

_RANK = {"valid": 0, "stale": 1, "superseded": 2, "forgotten": 3}
# A fact's fields people write: both sides changing one differently is a conflict.
_WRITTEN = ("text", "kind", "topic", "confidence")
# Fields repomem keeps, in groups that change together: both sides changing a group take the
# side whose status is further along.
_KEPT: tuple[tuple[str, ...], ...] = (
    ("status", "stale", "superseded_by", "superseded_at", "why", "forgotten", "confirmed"),
    ("cites",),
    ("source",),
    ("recorded",),
)


class MergeConflictError(MemoryFileError):
    """Both sides changed what a person wrote in the same entries differently.

    `text` is the merged file with each of those entries between conflict markers (ours, the
    base, theirs); `ids` names the entries.
    """

    def __init__(self, message: str, text: str, ids: list[str]) -> None:
        super().__init__(message)
        self.text = text
        self.ids = ids


def _parse(text: str | None, path: Path, side: str) -> MemoryDoc | None:
    if text is None or not text.strip():
        return None
    try:
        return access.parse_text(text, path)
    except MemoryFileError as exc:
        raise MemoryFileError(f"Cannot merge: {side} side is malformed ({exc})") from None


def _raw(entry: Entry, nl: str) -> str:
    return entry.raw if entry.raw is not None else mfile.render_item(entry.item, nl)


def _when(item: object) -> str:
    if isinstance(item, Fact):
        return max(item.forgotten, item.confirmed, item.recorded, item.superseded_at[-20:])
    return ""


def _pick(base: Entry | None, ours: Entry, theirs: Entry, nl: str) -> Entry | None:
    """The merged entry: `ours`, `theirs` or a new one; None for a conflict."""
    a, b = _raw(ours, nl), _raw(theirs, nl)
    if a == b:
        return ours
    if base is not None:
        o = _raw(base, nl)
        if o == a:
            return theirs
        if o == b:
            return ours
    oi, ti = ours.item, theirs.item
    bi = base.item if base is not None and type(base.item) is type(oi) else None
    merged: Item | None = None
    if isinstance(oi, Fact) and isinstance(ti, Fact):
        merged = _merge_fact(bi if isinstance(bi, Fact) else None, oi, ti)
    elif isinstance(oi, Session | HistoryEntry) and type(ti) is type(oi):
        merged = _merge_written(bi, oi, ti)
    if merged is None:
        return None
    for side in (ours, theirs):
        if merged == side.item:
            return side
    return Entry(item=merged, raw=None, trail=ours.trail)


def _merge_fact(base: Fact | None, ours: Fact, theirs: Fact) -> Fact | None:
    """A fact both sides changed, merged field by field (module docstring); None: a conflict."""
    ko = (_RANK.get(ours.status, 0), _when(ours))
    kt = (_RANK.get(theirs.status, 0), _when(theirs))
    ahead = theirs if kt > ko else ours
    if "forgotten" in (ours.status, theirs.status):
        return ahead  # forgetting erases the text: the other side's edit of it goes too
    out = replace(ahead, cites=list(ahead.cites))
    for name in _WRITTEN:
        written = _three_way(base, ours, theirs, (name,))
        if written is None:
            return None
        _set(out, (name,), written)
    for group in _KEPT:
        kept = _three_way(base, ours, theirs, group)
        _set(out, group, _get(ahead, group) if kept is None else kept)
    return out


def _merge_written(base: Item | None, ours: Item, theirs: Item) -> Item | None:
    """A session or History entry both sides changed: every field is a person's (module
    docstring), taken from the side that changed it; None: a conflict."""
    out = replace(ours)
    for name in (f.name for f in fields(ours) if f.name != "id"):
        value = _three_way(base, ours, theirs, (name,))
        if value is None:
            return None
        _set(out, (name,), value)
    return out


def _get(item: Item, group: tuple[str, ...]) -> tuple[object, ...]:
    return tuple(getattr(item, name) for name in group)


def _set(item: Item, group: tuple[str, ...], values: tuple[object, ...]) -> None:
    for name, value in zip(group, values, strict=True):
        setattr(item, name, value)


def _three_way(
    base: Item | None, ours: Item, theirs: Item, group: tuple[str, ...]
) -> tuple[object, ...] | None:
    """The group's values: the side that changed them (from the base); None when both did
    differently, or they differ with no base to tell."""
    o, t = _get(ours, group), _get(theirs, group)
    if o == t:
        return o
    if base is None:
        return None
    b = _get(base, group)
    if b == o:
        return t
    if b == t:
        return o
    return None


def _merge_prose(base: str | None, ours: str, theirs: str) -> str:
    if ours == theirs or theirs == base:
        return ours
    if ours == base:
        return theirs
    ours_lines = ours.splitlines(keepends=True)
    have = {ln.strip() for ln in ours_lines}
    extra = [ln for ln in theirs.splitlines(keepends=True) if ln.strip() and ln.strip() not in have]
    if not extra:
        return ours
    body = "".join(ours_lines).rstrip("\r\n")
    nl = "\r\n" if "\r\n" in ours else "\n"
    tail = ours[len(ours.rstrip("\r\n")) :] or nl
    return (
        body
        + nl
        + "".join(ln if ln.endswith("\n") else ln + nl for ln in extra).rstrip("\r\n")
        + tail
    )


def _merge_steps(
    base: list[NextStep], ours: list[NextStep], theirs: list[NextStep]
) -> list[NextStep]:
    out = [NextStep(s.text, s.done) for s in ours]
    index = {s.text: s for s in out}
    base_done = {s.text: s.done for s in base}
    for s in theirs:
        if s.text in index:
            mine = index[s.text]
            if s.done != mine.done and base_done.get(s.text) == mine.done:
                mine.done = s.done
        elif s.text not in base_done:
            out.append(NextStep(s.text, s.done))
    return out


def merge_docs(base: MemoryDoc | None, ours: MemoryDoc, theirs: MemoryDoc) -> MemoryDoc:
    """Union `theirs` into `ours` (changed in place and returned).

    Raises:
        MergeConflictError: when both sides changed what a person wrote in an entry
            differently (its `text` holds the rest merged).
    """
    nl = ours.newline
    base_entries = {e.item.id: e for s in base.sections for e in s.entries} if base else {}
    # prose: the prefix and each section's text before its entries
    ours.prefix = _merge_prose(base.prefix if base else None, ours.prefix, theirs.prefix)
    base_steps = base.next_steps() if base else []
    steps = _merge_steps(base_steps, ours.next_steps(), theirs.next_steps())
    for tsec in theirs.sections:
        if tsec.key == "next":
            continue
        osec = _same_section(ours, tsec)
        bsec = _same_section(base, tsec) if base else None
        if osec is None:
            if tsec.key in mfile.ENTRY_SECTIONS:
                continue  # made when its entries are added below
            ours.sections.append(
                Section(key=tsec.key, heading=tsec.heading, preamble=tsec.preamble)
            )
        else:  # an entry section's prose before its entries too (a team's paragraph)
            osec.preamble = _merge_prose(
                bsec.preamble if bsec else None, osec.preamble, tsec.preamble
            )
    if steps != ours.next_steps():
        ours.set_next_steps(steps)
    # entries
    conflicts: list[tuple[Entry, str]] = []
    for tentry in (e for s in theirs.sections for e in s.entries):
        item_id = tentry.item.id
        mine = ours.find(item_id)
        if mine is None:
            if isinstance(tentry.item, Fact) or item_id not in base_entries:
                ours.add(tentry.item, in_order=True)  # the Sessions log reads in time order
                added = ours.find(item_id)
                if added is not None and theirs.newline == nl:
                    added.raw = tentry.raw
            continue
        was = base_entries.get(item_id)
        chosen = _pick(was, mine, tentry, nl)
        if chosen is None:
            conflicts.append(_conflict_block(mine, was, tentry, nl))
        elif chosen is tentry:
            mine.item = tentry.item
            mine.raw = tentry.raw if theirs.newline == nl else None
        elif chosen is not mine:
            mine.item, mine.raw = chosen.item, None
    # sessions compacted on either side leave the Sessions section
    compacted = {sid for h in ours.history() for sid in h.sessions}
    for s in list(ours.sessions()):
        if s.id in compacted:
            ours.remove(s)
    ours.version = max(ours.version, theirs.version) + 1
    ours.changed = True
    if conflicts:
        for entry, block in conflicts:
            entry.raw = block  # rendered as it is: the markers stand where our version was
        ids = [entry.item.id for entry, _ in conflicts]
        shown = ", ".join(f"`{i}`" for i in ids)
        raise MergeConflictError(
            f"Both sides changed what {shown} say{'s' if len(ids) == 1 else ''} differently",
            ours.render(),
            ids,
        )
    return ours


def _conflict_block(ours: Entry, base: Entry | None, theirs: Entry, nl: str) -> tuple[Entry, str]:
    """Our entry and git's diff3-style conflict block holding both versions and the base."""
    was = _raw(base, nl) if base is not None else None
    return ours, _both_sides(_raw(ours, nl), _raw(theirs, nl), was)


def _same_section(doc: MemoryDoc | None, sec: Section) -> Section | None:
    if doc is None:
        return None
    for s in doc.sections:
        if (sec.key and s.key == sec.key) or (
            not sec.key and s.heading.strip() == sec.heading.strip()
        ):
            return s
    return None


def merge_texts(base: str | None, ours: str, theirs: str, path: Path) -> str:
    """The union of two versions of the memory file's text (with their common base, if any).

    Raises:
        MemoryFileError: when a side cannot be parsed.
        MergeConflictError: when both sides changed what a person wrote in an entry
            differently.
    """
    o = _parse(ours, path, "our")
    t = _parse(theirs, path, "their")
    if o is None:
        return theirs
    if t is None:
        return ours
    b = None
    try:
        b = _parse(base, path, "the base")
    except MemoryFileError:
        b = None  # a broken base only costs the three-way refinement
    return merge_docs(b, o, t).render()


_OPEN = mfile.CONFLICT_OPEN
_BASE = re.compile(r"^\|{7}(?: |$)")
_MID = re.compile(r"^={7}\s*$")
_CLOSE = mfile.CONFLICT_CLOSE


def split_conflicts(text: str) -> tuple[str, str, str | None]:
    """(ours, theirs, base or None) rebuilt from a file with git conflict markers.

    Raises:
        MemoryFileError: on unbalanced markers.
    """
    ours: list[str] = []
    theirs: list[str] = []
    base: list[str] = []
    has_base = False
    state = ""
    for n, line in enumerate(text.splitlines(keepends=True), 1):
        if _OPEN.match(line):
            if state:
                raise MemoryFileError(f"line {n}: nested conflict marker; resolve by hand.")
            state = "ours"
        elif _BASE.match(line) and state == "ours":
            state, has_base = "base", True
        elif _MID.match(line) and state in ("ours", "base"):
            state = "theirs"
        elif _CLOSE.match(line) and state == "theirs":
            state = ""
        elif state == "ours":
            ours.append(line)
        elif state == "base":
            base.append(line)
        elif state == "theirs":
            theirs.append(line)
        else:
            ours.append(line)
            theirs.append(line)
            base.append(line)
    if state:
        raise MemoryFileError("unterminated conflict block; resolve by hand.")
    return "".join(ours), "".join(theirs), "".join(base) if has_base else None


def _conflict_message(exc: MergeConflictError, name: str) -> str:
    return (
        f"{exc}; the rest of `{name}` is merged and each such entry is left between conflict "
        f"markers with both versions and the base: keep the version you want (or write one "
        f"from both) and delete the marker lines, then commit."
    )


def resolve(cfg: Config) -> int:
    """`resolve_file` on the memory file under the memory's lock (as every writer of it):
    another `memory merge` that resolved it meanwhile, and a `remember` after that, are not
    written over. Conflict markers without the base (git's default style) are merged against
    the base git keeps in its index during a merge.

    Raises:
        MemoryFileError: as `resolve_file`.
        LockTimeoutError: when another writer holds the lock too long.
    """
    from repomem import vcs

    path = access.memory_path(cfg)
    rel = path.relative_to(cfg.root.resolve()).as_posix()
    staged = vcs.show_file(cfg.root, ":1", rel)  # stage 1: the merge's common ancestor
    with access.lock(cfg):
        return resolve_file(path, base=staged.decode("utf-8", "replace") if staged else None)


def resolve_file(path: Path, *, base: str | None = None) -> int:
    """Replace a memory file holding conflict markers by the union of both sides; `base`:
    the common ancestor's text, for markers that do not hold it. Takes no lock: `resolve`
    does, for the memory file of a repository.

    Returns how many conflict blocks were resolved (0: nothing to do).

    Raises:
        MemoryFileError: unbalanced markers, a side that cannot be parsed.
        MergeConflictError: entries both sides changed differently (the file is then written
            merged but for those, each between conflict markers).
    """
    text = access.read_text(path)
    if text is None:
        raise MemoryFileError(f"`{path}` does not exist; nothing to merge.")
    blocks = sum(1 for ln in text.splitlines() if _OPEN.match(ln))
    if not blocks:
        return 0
    try:
        ours, theirs, marked = split_conflicts(text)
    except MemoryFileError as exc:
        raise MemoryFileError(f"`{path.name}` {exc}") from None
    try:
        merged = merge_texts(marked if marked is not None else base, ours, theirs, path)
    except MergeConflictError as exc:
        # a file merged before but for its conflicts, merged again: only the version would
        # count up at each try
        if mfile.HEADER.sub("", exc.text, 1) != mfile.HEADER.sub("", text, 1):
            atomic_write(path, exc.text)
        raise MergeConflictError(_conflict_message(exc, path.name), exc.text, exc.ids) from None
    atomic_write(path, merged)
    return blocks


def merge_driver(base: Path, ours: Path, theirs: Path, name: str = "REPOMEM.md") -> None:
    """Git merge driver: `repomem memory merge %O %A %B` writes the union into %A.

    Raises:
        MergeConflictError: when both sides changed what a person wrote in an entry
            differently; %A then holds the union with those entries between conflict markers,
            and git reports the conflict (as it does for text).
        MemoryFileError: when a side cannot be parsed; %A then holds both sides between
            conflict markers (git reports a conflict and keeps %A: left as ours alone, it
            would read as merged and lose theirs), for `repomem memory merge` once fixed.
    """
    texts = [access.read_text(p) for p in (base, ours, theirs)]
    if texts[1] is None:
        raise MemoryFileError(f"`{ours}` does not exist; git passes it as %A.")
    try:
        merged = merge_texts(texts[0], texts[1], texts[2] or "", Path(name))
    except MergeConflictError as exc:
        atomic_write(ours, exc.text)
        raise MergeConflictError(_conflict_message(exc, name), exc.text, exc.ids) from None
    except MemoryFileError as exc:
        atomic_write(ours, _both_sides(texts[1], texts[2] or "", texts[0]))
        raise MemoryFileError(
            f"{exc}; both sides are left in `{name}` between conflict markers: fix the "
            f"broken entry there, then run `repomem memory merge`."
        ) from None
    atomic_write(ours, merged)


def _both_sides(ours: str, theirs: str, base: str | None) -> str:
    """One conflict block holding both whole sides (and the base), as `split_conflicts` reads."""
    nl = "\r\n" if "\r\n" in ours else "\n"

    def ended(text: str) -> str:
        return text if not text or text.endswith("\n") else text + nl

    middle = f"||||||| base{nl}{ended(base)}" if base is not None else ""
    return f"<<<<<<< ours{nl}{ended(ours)}{middle}======={nl}{ended(theirs)}>>>>>>> theirs{nl}"
