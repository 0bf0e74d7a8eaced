"""What people and assistants do with facts: remember, supersede, forget, check, confirm.

Every function takes the resolved `Config`, changes the memory file inside
`access.editing()` (lock, re-read, atomic replace) and returns what it did.
"""

from __future__ import annotations

import contextlib
import re
from dataclasses import dataclass, field

from repomem import fsutil, secrets, vcs
from repomem.config import Config
from repomem.errors import InputError, NotFoundError
from repomem.memory import access, model
from repomem.memory.cite import Resolver
from repomem.memory.file import MemoryDoc
from repomem.memory.model import Citation, Fact, NextStep

MAX_TEXT_CHARS = 4000  # a fact, summary, title or step (the file is read by people and packs)
_WORD = re.compile(r"[A-Za-z0-9_]+")


@dataclass
class Outcome:
    """The result of a memory operation."""

    fact: Fact
    action: str  # "added", "merged", "superseded", "forgotten", "confirmed", "unchanged"
    version: int = 0
    notes: list[str] = field(default_factory=list)


def clean_text(cfg: Config, text: str, what: str = "The fact") -> str:
    """`text` if it holds no credential or personal data; redacted or refused per config.

    Raises:
        InputError: when it does and `memory.on_secret` is "refuse" (the default).
    """
    redacted, count = _redact_written(cfg, text)
    redacted, personal = secrets.redact_personal(redacted)
    if not count and not personal:
        return text
    if cfg.memory.on_secret == "redact":
        return redacted
    kind = "a credential" if count else "personal data (an e-mail address or phone number)"
    raise InputError(
        f"{what} looks like it contains {kind}; remove it (or set memory.on_secret = "
        f'"redact" in .repomem to store it redacted).'
    )


def redacted(cfg: Config, text: str, *, prose: bool = False) -> str:
    """`text` with credentials and personal data redacted (its lines kept), whatever
    `memory.on_secret` says: for what the memory records from elsewhere (commit subjects, a
    Claude session's prompt and last message), which nobody can take back and write again.
    `prose`: text that may quote code, a command or a configuration (a prompt, a message)."""
    return secrets.redact_personal(_redact_written(cfg, text, prose=prose)[0])[0]


def _redact_written(cfg: Config, text: str, *, prose: bool = False) -> tuple[str, int]:
    """`text` with its credentials redacted, and how many, read as config (`password: x` in
    prose counts too) and then as prose, which reads a typed value followed by words ("the
    staging password: hunter2hunter (rotated)") that a config's value, the rest of its line,
    is not."""
    extra = cfg.secrets.extra_patterns
    text, count = secrets.redact(text, config_like=True, prose=prose, extra_patterns=extra)
    text, more = secrets.redact(text, prose=True)
    return text, count + more


def redacted_line(cfg: Config, text: str) -> str:
    """`redacted` on one line."""
    return redacted(cfg, fsutil.one_line(text))


def entry_text(cfg: Config, text: str, what: str = "The fact") -> str:
    """`clean_text` for the text of one entry (a fact, summary, title or step), on one line
    and of a statement's length.

    One line: an entry's text is a paragraph of the file, and a line break inside it could
    write a field or heading of its own (`\n- cite: ../outside`) that the file would then
    read back as real.

    Raises:
        InputError: as `clean_text`, or when the text is longer than `MAX_TEXT_CHARS`.
    """
    text = fsutil.one_line(text)
    if len(text) > MAX_TEXT_CHARS:
        raise InputError(
            f"{what} is {len(text):,} characters long; keep it under {MAX_TEXT_CHARS:,} (the "
            f"memory holds statements: cite the code or write a note on a file instead)."
        )
    return clean_text(cfg, text, what)


def _words(text: str) -> set[str]:
    return {w.lower() for w in _WORD.findall(text) if len(w) > 1}


def similarity(a: str, b: str) -> float:
    """Word-set overlap (Jaccard) of two texts, 0..1."""
    wa, wb = _words(a), _words(b)
    if not wa or not wb:
        return 1.0 if a.strip().lower() == b.strip().lower() else 0.0
    return len(wa & wb) / len(wa | wb)


# Words that turn a statement around: two facts that differ in them say different things,
# however many words they share ("must be enabled" / "must never be enabled").
_NEGATIONS = frozenset(
    "not no never nor neither none nothing without avoid disable disabled instead".split()
)


def _polarity(text: str) -> tuple[frozenset[str], frozenset[str]]:
    """A text's negations and numbers (`don't` and `cannot` read as `not`)."""
    lowered = re.sub(r"n['’]t\b", " not", text.lower()).replace("cannot", "can not")
    words = _WORD.findall(lowered)
    return (
        frozenset(w for w in words if w in _NEGATIONS),
        frozenset(w for w in words if any(ch.isdigit() for ch in w)),
    )


def says_otherwise(a: str, b: str) -> bool:
    """True when two similar texts differ in a negation or a number: not duplicates."""
    return _polarity(a) != _polarity(b)


def _head(cfg: Config) -> str:
    h = vcs.head(cfg.root)
    return h[:12] if h else "no-commit"


def _resolve_all(cfg: Config, specs: list[str]) -> list[Citation]:
    resolver = Resolver(cfg)
    out: list[Citation] = []
    for spec in specs:
        c = resolver.resolve(spec)
        if all(x.target != c.target or x.start_line != c.start_line for x in out):
            out.append(c)
    return out


def credit(cfg: Config, fallback: str = "person") -> str:
    """Who a new fact is credited to: the open session if there is one, else `fallback`."""
    from repomem.memory import session

    current = session.open_session(cfg)
    if current and not current.get("corrupt"):
        return f"session {current['id']}"
    return fallback


def _source(cfg: Config, source: str) -> str:
    """Facts recorded by a person while a session is open are credited to the session."""
    return credit(cfg) if source == "person" else entry_text(cfg, source, "The source")


def _get(doc: MemoryDoc, fact_id: str) -> Fact:
    fact = doc.fact(fact_id)
    if fact is None:
        known = [f.id for f in doc.facts() if f.status in ("valid", "stale")]  # the current
        hint = f" Current facts: {', '.join(known[-8:])}." if known else ""
        raise NotFoundError(
            f"No fact `{fsutil.echo(fact_id)}` in `{doc.path.name}`; see `repomem memory "
            f"show`.{hint}"
        )
    return fact


def remember(
    cfg: Config,
    text: str,
    *,
    cites: list[str] | None = None,
    topic: str = "",
    kind: str = "fact",
    source: str = "person",
    confidence: str = "medium",
    doc: MemoryDoc | None = None,
) -> Outcome:
    """Record a fact (or convention, decision). A near-duplicate of a current fact of the same
    kind is merged into it (its citations added) instead of appended.

    Raises:
        InputError: empty text, credential/personal data, bad citation, bad kind.
    """
    text = text.strip()
    if not text:
        raise InputError("The fact is empty; give its text.")
    if kind not in model.KINDS:
        raise InputError(
            f"Unknown kind `{fsutil.echo(kind)}`; use one of {', '.join(model.KINDS)}."
        )
    if confidence not in model.CONFIDENCES:
        raise InputError(
            f"Unknown confidence `{confidence}`; use one of {', '.join(model.CONFIDENCES)}."
        )
    text = entry_text(cfg, text)
    topic = entry_text(cfg, topic, "The topic")
    citations = _resolve_all(cfg, cites or [])
    source = _source(cfg, source)
    if doc is not None:
        return _remember_in(cfg, doc, text, citations, topic, kind, source, confidence)
    with access.editing(cfg) as d:
        out = _remember_in(cfg, d, text, citations, topic, kind, source, confidence)
    out.version = d.version
    return out


def _remember_in(
    cfg: Config, doc: MemoryDoc, text: str, citations: list[Citation], topic: str, kind: str,
    source: str, confidence: str,
) -> Outcome:  # fmt: skip
    threshold = cfg.memory.duplicate_similarity
    best: Fact | None = None
    best_score = 0.0
    contrary: list[str] = []  # similar facts that say otherwise: kept apart, named
    for f in doc.facts():
        if f.kind != kind or f.status not in ("valid", "stale"):
            continue
        score = similarity(f.text, text)
        if score >= threshold and says_otherwise(f.text, text):
            contrary.append(f.id)
            continue
        if score > best_score:
            best, best_score = f, score
    if best is not None and best_score >= threshold:
        # a citation given again is taken as it is now (the restated fact is about today's code)
        given = {c.spec: c for c in citations}
        best.cites = [given.pop(x.spec, x) for x in best.cites] + list(given.values())
        if topic and not best.topic:
            best.topic = topic
        best.confirmed = model.now_iso()
        if best.status == "stale" and citations:
            best.status, best.stale = "valid", ""
        doc.touch(best)
        note = f"merged into `{best.id}` ({best_score:.0%} similar)"
        return Outcome(fact=best, action="merged", notes=[note])
    fact = Fact(
        id=model.new_id(model.KIND_PREFIX[kind], text),
        kind=kind,
        text=text,
        topic=topic,
        cites=citations,
        source=source,
        recorded=model.now_iso(),
        confidence=confidence,
    )
    while doc.find(fact.id) is not None:  # pragma: no cover - 32-bit id collision
        fact.id = model.new_id(model.KIND_PREFIX[kind], text)
    doc.add(fact)
    notes = [
        f"`{fid}` is similar but says otherwise; if this replaces it, run "
        f"`repomem memory supersede {fid} TEXT --why WHY` (or forget one of them)"
        for fid in contrary
    ]
    return Outcome(fact=fact, action="added", notes=notes)


def supersede(
    cfg: Config, fact_id: str, text: str, *, why: str, cites: list[str] | None = None,
    source: str = "person",
) -> Outcome:  # fmt: skip
    """Replace a fact with a new one; the old stays in the file as superseded, with the reason
    and the commit at which it changed.

    Raises:
        NotFoundError: no such fact.  InputError: it is not current, or bad text/citations.
    """
    why = why.strip()
    if not why:
        raise InputError("Say why the fact is superseded (--why TEXT).")
    text = entry_text(cfg, text)
    why = entry_text(cfg, why, "The reason")
    if not text:
        raise InputError("The new fact is empty; give its text.")
    new_cites = _resolve_all(cfg, cites) if cites else None
    source = _source(cfg, source)
    with access.editing(cfg) as doc:
        old = _get(doc, fact_id)
        if old.status in ("superseded", "forgotten"):
            raise InputError(
                f"`{fact_id}` is already {old.status}"
                + (f" (by `{old.superseded_by}`)" if old.superseded_by else "")
                + "; supersede the current fact instead."
            )
        if new_cites is None:
            resolver = Resolver(cfg)
            new_cites = []
            for c in old.cites:
                # code that is gone is simply not cited by the new fact
                with contextlib.suppress(InputError):
                    new_cites.append(resolver.resolve(c.spec))
        new = Fact(
            id=model.new_id(model.KIND_PREFIX[old.kind], text),
            kind=old.kind,
            text=text,
            topic=old.topic,
            cites=new_cites,
            source=source,
            recorded=model.now_iso(),
            confidence=old.confidence,
        )
        old.status = "superseded"
        old.superseded_by = new.id
        old.superseded_at = f"{_head(cfg)}, {model.now_iso()}"
        old.why = why
        doc.touch(old)
        doc.add(new)
    return Outcome(
        fact=new, action="superseded", version=doc.version, notes=[f"replaces `{old.id}`"]
    )


def forget(cfg: Config, fact_id: str, *, doc: MemoryDoc | None = None) -> Outcome:
    """Remove a fact's text and fields for real, leaving a tombstone with its id.

    Pass `doc` (inside `access.editing`) to forget several facts in one write.

    Raises:
        NotFoundError: no such fact.
    """
    if doc is not None:
        return _forget_in(doc, fact_id)
    with access.editing(cfg) as d:
        out = _forget_in(d, fact_id)
    out.version = d.version
    return out


def _forget_in(doc: MemoryDoc, fact_id: str) -> Outcome:
    f = _get(doc, fact_id)
    if f.status == "forgotten":
        return Outcome(fact=f, action="unchanged", version=doc.version)
    tomb = Fact(id=f.id, kind=f.kind, status="forgotten", forgotten=model.now_iso())
    for field_name, value in tomb.__dict__.items():
        setattr(f, field_name, value)
    doc.touch(f)
    return Outcome(
        fact=f, action="forgotten", version=doc.version,
        notes=["its text stays in git history; rewrite history if it held a secret"],
    )  # fmt: skip


@dataclass
class CheckReport:
    checked: int = 0
    newly_stale: list[tuple[str, str]] = field(default_factory=list)  # (id, reason)
    still_stale: list[str] = field(default_factory=list)
    moved: list[str] = field(default_factory=list)  # ids whose line numbers were updated
    version: int = 0


def check(cfg: Config) -> CheckReport:
    """Mark stale every current fact whose cited code changed, vanished or moved files; update
    the line numbers of code that only moved within its file."""
    report = CheckReport()
    resolver = Resolver(cfg)
    with access.editing(cfg) as doc:
        for f in doc.facts():
            if f.status not in ("valid", "stale") or not f.cites:
                continue
            report.checked += 1
            reasons, updated = resolver.check_all(f.cites)
            moved = any(
                (a.start_line, a.end_line) != (b.start_line, b.end_line)
                for a, b in zip(f.cites, updated, strict=True)
            )
            if reasons and f.status == "valid":
                f.status = "stale"
                f.stale = f"{'; '.join(reasons)} (found {model.now_iso()})"
                report.newly_stale.append((f.id, "; ".join(reasons)))
                doc.touch(f)
            elif reasons:
                report.still_stale.append(f.id)
            if moved and not reasons:
                f.cites = updated
                report.moved.append(f.id)
                doc.touch(f)
    report.version = doc.version
    return report


def confirm(cfg: Config, fact_id: str) -> Outcome:
    """Re-validate a fact against the current code: its citations take today's lines and hashes.

    Raises:
        NotFoundError: no such fact.  InputError: superseded/forgotten, or cited code gone.
    """
    resolver = Resolver(cfg)
    with access.editing(cfg) as doc:
        f = _get(doc, fact_id)
        if f.status in ("superseded", "forgotten"):
            raise InputError(f"`{fact_id}` is {f.status}; it cannot be confirmed.")
        fresh: list[Citation] = []
        for c in f.cites:
            reason, current = resolver.check(c)
            if not reason:  # unchanged, or only moved: keep following that code
                fresh.append(current)
                continue
            try:
                fresh.append(resolver.resolve(c.spec, follow_renames=True))
            except InputError as exc:
                raise InputError(
                    f"Cannot confirm `{fact_id}`: {exc} Supersede it with a fact that cites "
                    f"the code as it is now."
                ) from None
        f.cites = fresh
        f.status, f.stale = "valid", ""
        f.confirmed = model.now_iso()
        doc.touch(f)
    return Outcome(fact=f, action="confirmed", version=doc.version)


def complete_next_step(cfg: Config, text: str) -> int:
    """Tick off the open next step whose text is, or starts with, `text`; returns the version.

    Raises:
        NotFoundError: no open step matches.  InputError: several do.
    """
    needle = " ".join(text.split()).lower()
    with access.editing(cfg) as doc:
        steps = doc.next_steps()
        open_steps = [s for s in steps if not s.done]
        exact = [s for s in open_steps if s.text.lower() == needle]
        found = exact or [s for s in open_steps if s.text.lower().startswith(needle)]
        if not found:
            raise NotFoundError(f"No open next step matches `{text}`; see `repomem memory show`.")
        if len(found) > 1:
            raise InputError(f"`{text}` matches {len(found)} next steps; give more of the text.")
        found[0].done = True
        doc.set_next_steps(steps)
    return doc.version


@dataclass
class StepOutcome:
    """What `add_next_step` did."""

    action: str  # "added", "reopened" (it was ticked off), "already open"
    version: int


def add_next_step(cfg: Config, text: str) -> StepOutcome:
    """Append an open item to Next steps, or open again the same one ticked off before."""
    text = entry_text(cfg, text, "The next step")
    if not text:
        raise InputError("The next step is empty; give its text.")
    with access.editing(cfg) as doc:
        steps = doc.next_steps()
        action = merge_step(steps, text)
        if action != "already open":
            doc.set_next_steps(steps)
    return StepOutcome(action, doc.version)


def merge_step(steps: list[NextStep], text: str) -> str:
    """Add the step `text` to `steps` (in place): one already open changes nothing, one ticked
    off before is opened again, a new one is appended. Returns "already open", "reopened" or
    "added"."""
    same = [s for s in steps if s.text == text]
    if any(not s.done for s in same):
        return "already open"
    if same:
        same[0].done = False
        return "reopened"
    steps.append(NextStep(text))
    return "added"
