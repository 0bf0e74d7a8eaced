"""Project memory commands: `remember`, `memory ...` and `session ...`."""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path
from typing import Annotated, Any

import typer

from repomem.cli._app import app, fail, load_config, print_json
from repomem.cli._state import state
from repomem.errors import RepomemError
from repomem.memory.model import Fact
from repomem.plural import counted
from repomem.secrets import redact_value

memory_app = typer.Typer(
    help="The project memory file: show, check, supersede, forget, log, diff, merge.",
    no_args_is_help=True,
)
session_app = typer.Typer(
    help="Sessions: record what a stretch of work learned and changed.", no_args_is_help=True
)
app.add_typer(memory_app, name="memory")
app.add_typer(session_app, name="session")

_CITE_HELP = (
    "Code the fact rests on: PATH, PATH:SYMBOL or PATH:START-END (repeatable); PATH from the "
    "current folder, else from the repository root."
)


def _cites(specs: list[str] | None) -> list[str] | None:
    """Citations as typed, each PATH taken from the folder the command runs in (`-C` too),
    as `note` takes its path, when a file is there; else as given (from the root)."""
    if specs is None:
        return None
    base = state.repo if state.repo is not None else Path.cwd()
    out: list[str] = []
    for spec in specs:
        path, sep, target = spec.strip().partition(":")
        here = os.path.abspath(os.path.join(base, path)) if path else ""
        if path and not os.path.isabs(path) and os.path.lexists(here):
            spec = here + sep + target
        out.append(spec)
    return out


@app.command()
def remember(
    text: Annotated[str, typer.Argument(help="The fact, in one or a few sentences.")],
    cite: Annotated[list[str] | None, typer.Option("--cite", help=_CITE_HELP)] = None,
    topic: Annotated[str, typer.Option("--topic", help="A topic word or phrase.")] = "",
    kind: Annotated[
        str, typer.Option("--kind", help="fact (default), convention or decision.")
    ] = "fact",
    confidence: Annotated[
        str, typer.Option("--confidence", help="high, medium (default) or low.")
    ] = "medium",
    source: Annotated[
        str, typer.Option("--source", help="Who says so (default: person).")
    ] = "person",
) -> None:
    """Record a fact in the project memory (near-duplicates are merged, not appended)."""
    from repomem.memory import ops

    try:
        out = ops.remember(
            load_config(), text, cites=_cites(cite) or [], topic=topic, kind=kind,
            confidence=confidence, source=source,
        )  # fmt: skip
    except RepomemError as exc:
        raise fail(exc) from None
    if out.action == "merged":
        typer.echo(f"Already known: {out.notes[0]} (version {out.version}).")
    else:
        typer.echo(f"Remembered {out.fact.id} (version {out.version}).")
        for note in out.notes:
            typer.echo(f"Note: {note}.")


@memory_app.command("show")
def show(
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    everything: Annotated[
        bool, typer.Option("--all", help="Include superseded and forgotten entries.")
    ] = False,
) -> None:
    """Show the facts, conventions, decisions, next steps and recent sessions."""
    from repomem.memory import access

    try:
        cfg = load_config()
        doc = access.load(cfg)
        path = access.memory_path(cfg)
    except RepomemError as exc:
        raise fail(exc) from None
    facts = [f for f in doc.facts() if everything or f.status in ("valid", "stale")]
    if as_json:
        # the file is hand-editable: a credential pasted into it is not shown
        print_json(
            _shown(
                cfg,
                {
                    "file": str(path),
                    "version": doc.version,
                    "schema_version": doc.schema_version,
                    "overview": doc.overview(),
                    "facts": [dataclasses.asdict(f) for f in facts],
                    "next_steps": [dataclasses.asdict(s) for s in doc.next_steps()],
                    "sessions": [dataclasses.asdict(s) for s in doc.sessions()],
                    "history": [dataclasses.asdict(h) for h in doc.history()],
                },
            )
        )
        return
    lines = [f"{path.name} version {doc.version}"]
    for kind, title in (
        ("convention", "Conventions"),
        ("decision", "Decisions"),
        ("fact", "Facts"),
    ):
        rows = [f for f in facts if f.kind == kind]
        if rows:
            lines.append(f"\n{title}:")
            for f in rows:
                lines.append("  " + f.summary_line())
    steps = [step for step in doc.next_steps() if not step.done]
    if steps:
        lines.append("\nNext steps:")
        for step in steps:
            lines.append(f"  - {step.text}")
    sessions = doc.sessions()
    if sessions:
        lines.append(f"\nSessions ({len(sessions)} recent, {len(doc.history())} compacted):")
        for s in sessions[-5:]:
            lines.append(f"  {s.id}  {s.started[:10]}  {s.title or '-'}")
    typer.echo(_shown(cfg, "\n".join(lines)))


def _shown(cfg: Any, value: Any) -> Any:
    """Output built from the memory file, which is hand-editable: its credentials redacted as
    the memory's prose is filtered (a pasted token or `DB_PASSWORD=...` is not shown)."""
    return redact_value(value, cfg.secrets.extra_patterns, config_like=True)


@memory_app.command("recall")
def recall(
    query: Annotated[str, typer.Argument(help="Words or identifiers.")],
    limit: Annotated[int, typer.Option("--limit", min=1, max=200, help="At most N.")] = 10,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Search the memory (facts, sessions, history); stale facts are marked."""
    from repomem.memory import derived

    try:
        hits = derived.recall(load_config(), query, limit=limit)
    except RepomemError as exc:
        raise fail(exc) from None
    if as_json:
        print_json(
            [{"kind": type(i).__name__.lower(), "score": round(s, 3), **dataclasses.asdict(i)}
             for i, s in hits]
        )  # fmt: skip
        return
    if not hits:
        typer.echo("No matches.")
    for item, score in hits:
        if isinstance(item, Fact):
            typer.echo(f"{score:6.2f}  {item.summary_line()}")
        else:
            label = getattr(item, "title", "") or getattr(item, "label", "")
            typer.echo(f"{score:6.2f}  {item.id}  {label}")


@memory_app.command("supersede")
def supersede(
    fact_id: Annotated[str, typer.Argument(metavar="ID", help="The fact to replace.")],
    text: Annotated[str, typer.Argument(help="The new fact.")],
    why: Annotated[str, typer.Option("--why", help="Why the old fact no longer holds.")] = "",
    cite: Annotated[list[str] | None, typer.Option("--cite", help=_CITE_HELP)] = None,
) -> None:
    """Replace a fact; the old one stays in the file as superseded, with the reason."""
    from repomem.memory import ops

    try:
        out = ops.supersede(load_config(), fact_id, text, why=why, cites=_cites(cite))
    except RepomemError as exc:
        raise fail(exc) from None
    typer.echo(f"Superseded {fact_id} by {out.fact.id} (version {out.version}).")


@memory_app.command("forget")
def forget(
    fact_id: Annotated[str, typer.Argument(metavar="ID", help="The fact to remove.")],
) -> None:
    """Remove a fact's text for real (mistakes, secrets, personal data); a tombstone id stays."""
    from repomem.memory import ops

    try:
        out = ops.forget(load_config(), fact_id)
    except RepomemError as exc:
        raise fail(exc) from None
    if out.action == "unchanged":
        typer.echo(f"{fact_id} was already forgotten.")
        return
    typer.echo(f"Forgot {fact_id} (version {out.version}); {out.notes[0]}.")


@memory_app.command("check")
def check(
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Mark stale every fact whose cited code changed, moved away or was deleted."""
    from repomem.memory import ops

    try:
        report = ops.check(load_config())
    except RepomemError as exc:
        raise fail(exc) from None
    if as_json:
        print_json(dataclasses.asdict(report))
        return
    typer.echo(
        f"Checked {counted(report.checked, 'fact')} with citations: "
        f"{len(report.newly_stale)} newly stale, {len(report.still_stale)} still stale, "
        f"{len(report.moved)} with updated lines."
    )
    for fact_id, reason in report.newly_stale:
        typer.echo(f"  STALE {fact_id}: {reason}")
    if report.newly_stale or report.still_stale:
        typer.echo("Confirm one with `repomem memory confirm ID` or supersede it.")


@memory_app.command("confirm")
def confirm(
    fact_id: Annotated[str, typer.Argument(metavar="ID", help="The fact to re-validate.")],
) -> None:
    """Re-validate a fact against the current code (its citations take today's hashes)."""
    from repomem.memory import ops

    try:
        out = ops.confirm(load_config(), fact_id)
    except RepomemError as exc:
        raise fail(exc) from None
    typer.echo(f"Confirmed {fact_id} (version {out.version}).")


@memory_app.command("next")
def next_step(
    text: Annotated[str, typer.Argument(help="An open question or next step.")],
    done: Annotated[
        bool, typer.Option("--done", help="Tick off the step with this text (or its start).")
    ] = False,
) -> None:
    """Add an open question or next step, or tick one off with --done."""
    from repomem.memory import ops

    try:
        cfg = load_config()
        if done:
            said, version = "Done", ops.complete_next_step(cfg, text)
        else:
            out = ops.add_next_step(cfg, text)
            said, version = out.action.capitalize(), out.version
    except RepomemError as exc:
        raise fail(exc) from None
    typer.echo(f"{said} (version {version}).")


@memory_app.command("log")
def log_cmd(
    limit: Annotated[int, typer.Option("--limit", min=1, help="At most N versions.")] = 20,
) -> None:
    """The versions of the memory file (its counter and its git history) and what each changed."""
    from repomem.memory import history

    try:
        rows = history.log(load_config(), limit=limit)
    except RepomemError as exc:
        raise fail(exc) from None
    if not rows:
        typer.echo("No versions yet.")
    for v, d in rows:
        rev = v.rev[:10] if v.rev != history.WORKING else "working"
        parts = []
        if d.added:
            parts.append(
                f"+{len(d.added)} ({', '.join(d.added[:4])}{'…' if len(d.added) > 4 else ''})"
            )
        if d.changed:
            parts.append(
                f"~{len(d.changed)} ({', '.join(d.changed[:3])}{'…' if len(d.changed) > 3 else ''})"
            )
        if d.removed:
            parts.append(f"-{len(d.removed)}")
        typer.echo(
            f"v{v.version:<4} {rev:<10} {v.date[:10]:<10} {v.subject[:50]}  {' '.join(parts)}"
        )


@memory_app.command("diff")
def diff_cmd(
    a: Annotated[
        str | None, typer.Argument(help="Version number, git revision (default HEAD).")
    ] = None,
    b: Annotated[
        str | None, typer.Argument(help="Version number, git revision or `working` (default).")
    ] = None,
) -> None:
    """Compare two versions of the memory file entry by entry."""
    from repomem.memory import history

    try:
        va, vb, d = history.diff(load_config(), a, b)
    except RepomemError as exc:
        raise fail(exc) from None
    typer.echo(
        f"v{va.version} ({va.subject or va.rev[:10]}) -> "
        f"v{vb.version} ({vb.subject or vb.rev[:10]})"
    )
    for i in d.added:
        typer.echo(f"+ {i}")
    for c in d.changed:
        typer.echo(f"~ {c}")
    for i in d.removed:
        typer.echo(f"- {i}")
    if not (d.added or d.changed or d.removed):
        typer.echo("No differences.")


@memory_app.command("merge")
def merge_cmd(
    base: Annotated[Path | None, typer.Argument(help="Git's %O (merge driver use).")] = None,
    ours: Annotated[Path | None, typer.Argument(help="Git's %A, rewritten with the union.")] = None,
    theirs: Annotated[Path | None, typer.Argument(help="Git's %B.")] = None,
) -> None:
    """Union both sides of a conflicted memory file; with three paths, act as git's merge driver."""
    from repomem.memory import access, merge

    try:
        if base is not None or ours is not None or theirs is not None:
            if base is None or ours is None or theirs is None:
                typer.echo("Error: give all three of BASE OURS THEIRS, or none.", err=True)
                raise typer.Exit(1)
            merge.merge_driver(base, ours, theirs)
            return
        cfg = load_config()
        path = access.memory_path(cfg)
        blocks = merge.resolve(cfg)
    except RepomemError as exc:
        raise fail(exc) from None
    if blocks:
        typer.echo(
            f"Merged {counted(blocks, 'conflict block')} in {path.name}; review and commit it."
        )
    else:
        typer.echo(f"No conflict markers in {path.name}.")


# ----------------------------------------------------------------------- sessions
@session_app.command("start")
def session_start(
    title: Annotated[str, typer.Option("--title", help="What this session is for.")] = "",
    agent: Annotated[str, typer.Option("--agent", help="Who works (e.g. claude-code).")] = "",
) -> None:
    """Record the start of a session (time, HEAD, dirty files)."""
    from repomem.memory import session

    try:
        rec = session.start(load_config(), title, agent=agent)
    except RepomemError as exc:
        raise fail(exc) from None
    head = (rec["head"] or "no commit")[:12]
    typer.echo(f"Started {rec['id']} at {head} ({counted(len(rec['dirty']), 'dirty file')}).")


@session_app.command("end")
def session_end(
    summary: Annotated[str, typer.Option("--summary", help="What was done, in a few lines.")] = "",
    learned: Annotated[
        list[str] | None, typer.Option("--learned", help="A fact learned (repeatable).")
    ] = None,
    next_steps: Annotated[
        list[str] | None, typer.Option("--next", help="An open next step (repeatable).")
    ] = None,
) -> None:
    """Close the session: record its changes (commits, files, symbols), summary and facts."""
    from repomem.memory import compact, session

    try:
        cfg = load_config()
        res = session.end(
            cfg, summary=summary, learned=learned or [], next_steps=next_steps or [],
            summarizer=compact.default_summarizer(cfg),
        )  # fmt: skip
    except RepomemError as exc:
        raise fail(exc) from None
    s = res.session
    if res.already:
        typer.echo(session.already_note(res, bool(summary or learned or next_steps)))
        return
    typer.echo(
        f"Ended {s.id}: {counted(len(s.commits), 'commit')}, "
        f"{counted(len(s.added) + len(s.modified) + len(s.deleted) + len(s.renamed), 'file')}, "
        f"{counted(len(s.symbols), 'symbol change')}, {counted(len(res.learned), 'fact')} "
        f"(version {res.version})."
    )
    if res.compacted:
        typer.echo(f"Compacted {counted(res.compacted, 'older session')} into History.")


@session_app.command("discard")
def session_discard() -> None:
    """Drop the open session without recording it (e.g. one left open by a crash)."""
    from repomem.memory import session

    try:
        rec = session.discard(load_config())
    except RepomemError as exc:
        raise fail(exc) from None
    typer.echo(f"Discarded {rec['id']}.")


@session_app.command("list")
def session_list(
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """The open session, the recorded sessions (newest first) and the compacted history."""
    from repomem.memory import session

    try:
        cfg = load_config()
        data = session.listing(cfg)
    except RepomemError as exc:
        raise fail(exc) from None
    if as_json:
        print_json(
            _shown(
                cfg,
                {
                    "open": data["open"]
                    and {k: v for k, v in data["open"].items() if k != "dirty"},
                    "sessions": [dataclasses.asdict(s) for s in data["sessions"]],
                    "history": [dataclasses.asdict(h) for h in data["history"]],
                },
            )
        )
        return
    lines = []
    if data["open"]:
        o = data["open"]
        lines.append(f"OPEN  {o['id']}  since {o.get('started') or '?'}  {o.get('title') or ''}")
    for s in data["sessions"]:
        commits = counted(len(s.commits), "commit")
        lines.append(f"      {s.id}  {s.started[:16]}  {s.title or '-'}  ({commits})")
    for h in data["history"]:
        lines.append(f"      {h.id}  {h.label}  (compacted)")
    if lines:
        typer.echo(_shown(cfg, "\n".join(lines)))
    else:
        typer.echo("No sessions yet; start one with `repomem session start --title TEXT`.")
