"""What the MCP tools do, as plain functions over the core: each returns a `Result`.

A `Result` is a compact text for the model plus JSON-ready data for clients that read
structured content. Nothing here imports `mcp`; `repomem.server.mcp` registers these functions
as tools and turns `RepomemError` into tool errors. Every path a client sends goes through
`repomem.server.paths`, except cited paths: the core's citation resolver, which reads them,
confines those. Every text returned passes the secret filter (`scrub`).
"""

from __future__ import annotations

import dataclasses
import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import Any

from repomem import config, secrets
from repomem.config import Config
from repomem.errors import InputError, NotARepoError, NotFoundError, StoreError
from repomem.fsutil import echo, nfc
from repomem.memory.file import MemoryDoc
from repomem.memory.model import Fact, HistoryEntry, Session
from repomem.paths import confine, confine_glob

BODY_LINES = 300  # a symbol body longer than this is cut (the rest is one file read away)
SHOWN_REFS = 30
SEARCH_MAX = 100
REFS_MAX = 500


@dataclass
class Result:
    """A tool's answer: compact text for the model, structured data for programs."""

    text: str
    data: dict[str, Any] = field(default_factory=dict)


def scrub(cfg: Config, value: Any) -> Any:
    """`value` with every credential in its strings redacted (a last line of defence: the index
    and the memory file are filtered when written, but hand edits are not)."""
    return secrets.redact_value(value, cfg.secrets.extra_patterns)


# The core's messages give command-line advice; over MCP the same step is a tool (or an
# argument). Each pattern is a phrase the core writes, matched exactly.
_ADVICE = [
    (re.compile(r" \(or --task-file FILE\)"), ""),
    (re.compile(r"raise --budget"), "raise `max_tokens`"),
    (re.compile(r"try `repomem search [^`]*`"), "try `search_code`"),
    (re.compile(r"see `repomem memory show`"), "see `recall`"),
    (re.compile(r"`repomem session start`"), "`session_start`"),
    (re.compile(r"`repomem session end`"), "`session_end`"),
    (re.compile(r"\(--why TEXT\)"), "(the `why` argument)"),
    (
        re.compile(r"add facts with `repomem remember`, steps with `repomem memory next`"),
        "record facts with `remember`",
    ),
    (re.compile(r"run `repomem index`( first| or)"), r"call `refresh`\1"),
    (
        re.compile(r"run `repomem memory supersede (\S+) TEXT --why WHY`"),
        r"call `supersede` with id `\1`",
    ),
]


def for_tools(message: str) -> str:
    """A core message with its command-line advice put in terms of the MCP tools."""
    for pattern, replacement in _ADVICE:
        message = pattern.sub(replacement, message)
    return message


def check_root(cfg: Config) -> None:
    """Fail when the repository's folder is gone (deleted or moved while the server runs).

    Without this a write would create the folder again to hold a memory file or a lock, and
    a pack would index the empty folder and call it fresh.

    Raises:
        NotARepoError: when `cfg.root` is no longer a folder.
    """
    if not cfg.root.is_dir():
        raise NotARepoError(
            f"The repository `{cfg.root}` no longer exists (deleted or moved while the server "
            f"ran); restart the server in the repository's new place."
        )


@dataclass
class LastPack:
    """The newest pack this server built (the `latest pack` resource); its text names its
    task in the first line. One attribute, so concurrent packs need no lock."""

    text: str | None = None


# --------------------------------------------------------------------------- code


def context_pack(cfg: Config, task: str, max_tokens: int | None, last: LastPack) -> Result:
    """The context pack for `task` as Markdown, within `max_tokens` (capped by the config)."""
    from repomem.pack import builder

    if max_tokens is not None:
        config.check_budget(max_tokens, "`max_tokens`")
    asked = cfg.server.pack_budget if max_tokens is None else max_tokens
    budget = min(asked, cfg.server.max_pack_tokens)
    pack = builder.build(cfg, task, budget=budget, fmt="md")
    text = pack.render("md")
    last.text = text
    data = pack.to_dict()
    # the text already holds the code: the structured copy lists what is in it, not the code
    data["items"] = [
        {k: v for k, v in item.items() if k != "text"} for item in data.get("items", [])
    ]
    data["pending"] = pack.pending
    if budget != asked:
        data["budget_lowered_from"] = asked
        text = (
            f"(max_tokens {asked} is above this server's limit; packed within {budget}: "
            f"server.max_pack_tokens)\n" + text
        )
    return Result(text, data)


def search_code(
    cfg: Config, query: str, kind: str | None, path_glob: str | None, limit: int
) -> Result:
    """Full-text search over the index."""
    from repomem.index import query as q

    if not query.strip():
        raise InputError("The query is empty; give words or identifiers to search for.")
    if kind is not None and kind not in q.SYMBOL_KINDS:
        raise InputError(f"Unknown kind `{echo(kind)}`; use one of {', '.join(q.SYMBOL_KINDS)}.")
    glob = confine_glob(path_glob) if path_glob else None
    hits = q.search(cfg, query, kind=kind, path_glob=glob, limit=max(1, min(limit, SEARCH_MAX)))
    said = echo(query)
    lines = [f"{len(hits)} result(s) for `{said}`:"] if hits else [f"No results for `{said}`."]
    for h in hits:
        label = h["signature"] or h["qualname"]
        where = f"{h['path']}:{h['start_line']}-{h['end_line']}"
        lines.append(f"{h['score']:6.2f}  {h['kind']:<9} {where}  {label}".rstrip())
    return Result("\n".join(lines), {"results": hits})


def get_symbol(cfg: Config, name: str, include_body: bool) -> Result:
    """Definitions named `name`, with their bodies (cut at BODY_LINES) and references."""
    from repomem.index import query as q

    if not name.strip():
        raise InputError("The symbol name is empty; give a name like `parse` or `Config.load`.")
    defs = q.symbol(cfg, name.strip(), with_body=include_body)  # NotFoundError when none
    refs = defs[0]["references"]  # the same list on every definition
    out = []
    for d in defs:
        d = {k: v for k, v in d.items() if k != "references"}
        if _gone(cfg, d["path"]):
            d["deleted"] = True
        if include_body:
            body_lines = d["body"].splitlines()
            if len(body_lines) > BODY_LINES:
                d["body"] = "\n".join(body_lines[:BODY_LINES])
                d["body_truncated"] = len(body_lines) - BODY_LINES
        out.append(d)
    parts: list[str] = []
    for d in out:
        head = f"{d['kind']} `{d['qualname']}` in {d['path']}:{d['start_line']}-{d['end_line']}"
        if d.get("deleted"):
            head += " (deleted since the index was updated; call `refresh`)"
        parts.append(head)
        if d.get("doc"):
            parts.append(d["doc"].strip().splitlines()[0])
        if include_body:
            parts.append(f"```{d['language']}\n{d['body']}\n```")
            if d.get("body_truncated"):
                parts.append(f"({d['body_truncated']} more lines: read the file)")
        else:
            parts.append(d["signature"])
    parts.append(_refs_text(refs))
    return Result("\n".join(parts), {"definitions": out, "references": refs})


def _gone(cfg: Config, rel: str) -> bool:
    """Whether an indexed path is no longer in the work tree (the index is behind)."""
    return not os.path.lexists(cfg.root / rel)


def _refs_text(refs: list[dict[str, Any]]) -> str:
    if not refs:
        return "No references in the index."
    files = len({r["path"] for r in refs})
    lines = [f"{len(refs)} reference(s) in {files} file(s):"]
    for r in refs[:SHOWN_REFS]:
        scope = f" in {r['scope']}" if r["scope"] else ""
        lines.append(f"  {r['path']}:{r['line']} {r['kind']}{scope}")
    if len(refs) > SHOWN_REFS:
        lines.append(f"  … {len(refs) - SHOWN_REFS} more (see structured content)")
    return "\n".join(lines)


def find_references(cfg: Config, name: str, limit: int) -> Result:
    """Where `name` is used (calls, imports, type references), by file and line."""
    from repomem.index import query as q

    bare = q.identifier(name)
    if not bare:
        raise InputError("The name is empty; give an identifier like `parse`.")
    # the whole name: an import is stored under it (`using Shop.App.Services;`)
    refs = q.references(cfg, name.strip(), limit=max(1, min(limit, REFS_MAX)))
    return Result(_refs_text(refs), {"name": bare, "references": refs})


def file_overview(cfg: Config, path: str) -> Result:
    """A file's symbols, its notes (and its folders' notes) and the memory facts that cite it;
    for a folder, its notes, its indexed files and the facts citing them."""
    from repomem.index import query as q
    from repomem.llm import notes as llm_notes
    from repomem.memory import access

    store = q.require_store(cfg)
    rel = q.indexed_spelling(store, confine(cfg, path))
    rows = store.rows_for_path("files", rel)
    if not rows:
        # the reason a file is skipped, as `index_status` counts it: not "call refresh"
        why = q.why_not_indexed(cfg, store, rel) or q.NEW
        if why == q.MISSING:
            raise NotFoundError(
                f"`{echo(rel)}` does not exist; give an indexed file (see search_code)."
            )
        if why == q.DIRECTORY:
            return _folder_overview(cfg, store, rel)
        if why == q.NEW:
            raise NotFoundError(f"`{echo(rel)}` is {why}; call refresh, then ask again.")
        raise NotFoundError(f"`{echo(rel)}` is not indexed, {why}.")
    if _gone(cfg, rel):
        raise NotFoundError(
            f"`{echo(rel)}` was deleted after the index was last updated; call `refresh` (see "
            f"search_code for where its code went)."
        )
    row = rows[0]
    symbols = store.file_symbols([rel]).get(rel, [])
    notes = [
        {"source": n.source, "text": n.text, "stale": n.stale}
        for n in llm_notes.list_notes(cfg, [rel], store=store)
    ]
    folders = [p.as_posix() for p in reversed(PurePosixPath(rel).parents) if p.name]
    folder_notes = [
        {"path": n.path, "source": n.source, "text": n.text, "stale": n.stale}
        for n in llm_notes.list_notes(cfg, folders, store=store)
    ]
    facts = _citing(access.load(cfg), lambda cited: nfc(cited) == nfc(rel))
    info = {
        "path": rel,
        "language": row["language"],
        "lines": row.get("lines"),
        "size": row["size"],
        "skipped": row["skip"] or None,
    }
    lines = [
        f"{rel} ({row['language'] or 'text'}, {row.get('lines') or 0} lines, {row['size']} bytes)"
        + (f", not parsed: {row['skip']}" if row["skip"] else "")
    ]
    if symbols:
        lines.append(f"Symbols ({len(symbols)}):")
        for s in symbols[:80]:
            indent = "  " * (1 + s["qualname"].count("."))
            lines.append(f"{indent}{s['start_line']}: {s['kind']} {s['signature'] or s['name']}")
        if len(symbols) > 80:
            lines.append(f"  … {len(symbols) - 80} more")
    for n in notes:
        stale = ", stale: the file changed since" if n["stale"] else ""
        lines.append(f"Note ({n['source']}{stale}): {n['text']}")
    for n in folder_notes:
        lines.append(f"Note on the folder `{n['path']}/` ({n['source']}): {n['text']}")
    lines += _facts_lines(facts, "it")
    sym_data = [
        {k: s[k] for k in ("name", "qualname", "kind", "signature", "start_line", "end_line")}
        for s in symbols
    ]
    data = {"file": info, "symbols": sym_data, "notes": notes, "folder_notes": folder_notes,
            "facts": facts}  # fmt: skip
    return Result("\n".join(lines), data)


FOLDER_FILES_SHOWN = 40


def _folder_overview(cfg: Config, store: Any, rel: str) -> Result:
    """A folder's notes, the indexed files in it and the memory facts that cite them."""
    from repomem.llm import notes as llm_notes
    from repomem.memory import access

    inside = f"{rel}/"
    under = nfc(inside)  # compared as `file_overview` compares a file's path
    files = sorted(p for p in store.column("files", ["path"])["path"] if nfc(p).startswith(under))
    notes = [
        {"source": n.source, "text": n.text, "stale": n.stale}
        for n in llm_notes.list_notes(cfg, [rel], store=store)
    ]
    facts = _citing(access.load(cfg), lambda cited: nfc(cited).startswith(under))
    lines = [f"{inside} (folder, {len(files)} indexed file(s))"]
    lines += [f"  {p}" for p in files[:FOLDER_FILES_SHOWN]]
    if len(files) > FOLDER_FILES_SHOWN:
        lines.append(f"  … {len(files) - FOLDER_FILES_SHOWN} more")
    lines += [f"Note ({n['source']}): {n['text']}" for n in notes]
    if not notes:
        lines.append(f"No notes on the folder `{rel}`; write one with write_note.")
    lines += _facts_lines(facts, "its files")
    data = {"folder": {"path": rel, "files": len(files)}, "files": files[:FOLDER_FILES_SHOWN],
            "notes": notes, "facts": facts}  # fmt: skip
    return Result("\n".join(lines), data)


def _citing(doc: MemoryDoc, cited: Callable[[str], bool]) -> list[dict[str, Any]]:
    """The current facts citing a path that `cited` accepts, with those citations."""
    return [
        {"id": f.id, "kind": f.kind, "status": f.status, "text": f.text, "topic": f.topic,
         "cites": [c.target for c in f.cites if cited(c.path)]}
        for f in doc.facts()
        if f.status in ("valid", "stale") and any(cited(c.path) for c in f.cites)
    ]  # fmt: skip


def _facts_lines(facts: list[dict[str, Any]], what: str) -> list[str]:
    if not facts:
        return [f"No memory facts cite {what}."]
    lines = [f"Facts citing {what}:"]
    for fact in facts:
        mark = "STALE " if fact["status"] == "stale" else ""
        lines.append(f"  {fact['id']} {mark}{fact['text']}")
    return lines


def write_note(cfg: Config, path: str, note: str, replace: bool) -> Result:
    """An assistant's note on a file, stored apart from generated notes (never replaced by
    them); `replace` drops the assistant's earlier notes on that path first."""
    from repomem.llm import notes as llm_notes

    rel = confine(cfg, path)
    written, redacted = llm_notes.write_note(
        cfg, rel, note, source=llm_notes.ASSISTANT, replace=replace
    )
    text = f"Noted on {written.path} (source assistant)."
    if redacted:
        text += f" {redacted} secret(s) were redacted from the note."
    data = {"path": written.path, "source": written.source, "text": written.text,
            "redacted": redacted, "replaced": replace}  # fmt: skip
    return Result(text, data)


def index_status(cfg: Config) -> Result:
    """Counts and freshness of the index."""
    from repomem.index import query as q
    from repomem.index.schema import SCHEMA_VERSION

    st = q.status(cfg)
    pending = st["pending"]
    state = (
        "fresh" if st["fresh"]
        else f"stale: {pending['changed']} changed, {pending['deleted']} deleted file(s)"
        + ("" if st["indexed_commit"] == st["head"] else ", HEAD moved")
        + ("" if st["schema_version"] == SCHEMA_VERSION else ", older index schema")
        + "; call refresh"
    )  # fmt: skip
    text = (
        f"{st['files']} files, {st['symbols']} symbols, {st['references']} references; "
        f"index {state}. Indexed at {str(st['indexed_commit'] or 'no commit')[:12]}, "
        f"{st['age_seconds']}s ago."
    )
    return Result(text, st)


def refresh(cfg: Config) -> Result:
    """Bring the index up to date (only what changed)."""
    from concurrent.futures import BrokenExecutor

    from repomem.index import indexer

    try:
        report = indexer.run(cfg)
    except BrokenExecutor as exc:
        # the parse workers ended under it (killed: they ignore a Ctrl-C to the group)
        lost = indexer.lost_build(cfg, "the next `refresh`")
        said = lost or "the batches it finished are kept; call `refresh` to go on"
        raise StoreError(f"The refresh was cut short: {said}.") from exc
    data = {
        "files_seen": report.files_seen,
        "added": len(report.added),
        "modified": len(report.modified),
        "deleted": len(report.deleted),
        "renamed": len(report.renamed),
        "parsed": report.parsed,
        "unchanged": report.unchanged,
        "full": report.full,
        "seconds": round(report.seconds, 3),
    }
    text = (
        f"Index refreshed in {report.seconds:.2f}s: {len(report.added)} added, "
        f"{len(report.modified)} modified, {len(report.deleted)} deleted, "
        f"{len(report.renamed)} renamed, {report.unchanged} unchanged."
    )
    return Result(text, data)


# --------------------------------------------------------------------------- memory


def assistant_source(cfg: Config) -> str:
    """Who a fact is credited to: the open session, else "assistant"."""
    from repomem.memory import ops

    return ops.credit(cfg, "assistant")


def _fact_data(f: Fact) -> dict[str, Any]:
    data = dataclasses.asdict(f)
    data["cites"] = [c.target for c in f.cites]
    return {k: v for k, v in data.items() if v not in ("", [], None)}


def remember(
    cfg: Config, fact: str, cites: list[str] | None, topic: str | None, kind: str
) -> Result:
    from repomem.memory import ops

    # cited paths are confined by the core (`cite.Resolver.relpath` -> `paths.confine`)
    out = ops.remember(
        cfg, fact, cites=cites or [], topic=topic or "", kind=kind, source=assistant_source(cfg)
    )
    if out.action == "merged":
        text = f"Already known: {out.notes[0]} (memory version {out.version})."
    else:
        text = f"Remembered {out.fact.id} (memory version {out.version})."
        text += "".join(f" Note: {for_tools(note)}." for note in out.notes)
    return Result(text, {"action": out.action, "version": out.version, **_fact_data(out.fact)})


def recall(cfg: Config, query: str, limit: int) -> Result:
    from repomem.memory import derived

    if not query.strip():
        raise InputError("The query is empty; give words to look for in the memory.")
    hits = derived.recall(cfg, query, limit=max(1, min(limit, 100)))
    lines = [] if hits else [f"Nothing in the memory matches `{echo(query)}`."]
    results: list[dict[str, Any]] = []
    for item, score in hits:
        if isinstance(item, Fact):
            lines.append(f"{score:6.2f}  {item.summary_line()}")
            entry = {"type": item.kind, **_fact_data(item)}
        elif isinstance(item, Session):
            lines.append(f"{score:6.2f}  {item.id} session: {item.title or '-'}: {item.summary}")
            entry = {"type": "session", **dataclasses.asdict(item)}
        else:
            assert isinstance(item, HistoryEntry)
            lines.append(f"{score:6.2f}  {item.id} history {item.label}: {item.summary}")
            entry = {"type": "history", **dataclasses.asdict(item)}
        entry["score"] = round(score, 3)
        results.append(entry)
    return Result("\n".join(lines), {"results": results})


def supersede(cfg: Config, fact_id: str, fact: str, why: str, cites: list[str] | None) -> Result:
    from repomem.memory import ops

    out = ops.supersede(
        cfg, fact_id.strip(), fact, why=why, cites=cites or None, source=assistant_source(cfg)
    )
    text = f"Superseded {fact_id} by {out.fact.id} (memory version {out.version})."
    return Result(text, {"replaces": fact_id, "version": out.version, **_fact_data(out.fact)})


def forget(cfg: Config, fact_id: str) -> Result:
    from repomem.memory import ops

    out = ops.forget(cfg, fact_id.strip())
    if out.action == "unchanged":
        return Result(f"{fact_id} was already forgotten.", {"id": fact_id, "action": "unchanged"})
    text = f"Forgot {fact_id} (memory version {out.version}); {for_tools(out.notes[0])}."
    return Result(text, {"id": fact_id, "action": out.action, "version": out.version})


def confirm_fact(cfg: Config, fact_id: str) -> Result:
    from repomem.memory import ops

    out = ops.confirm(cfg, fact_id.strip())
    cited = ", ".join(c.target for c in out.fact.cites) or "no code"
    text = f"Confirmed {out.fact.id} against {cited} as it is now (memory version {out.version})."
    return Result(text, {"action": out.action, "version": out.version, **_fact_data(out.fact)})


def memory_check(cfg: Config) -> Result:
    from repomem.memory import ops

    report = ops.check(cfg)
    lines = [
        f"Checked {report.checked} fact(s) with citations: {len(report.newly_stale)} newly "
        f"stale, {len(report.still_stale)} still stale, {len(report.moved)} with updated lines."
    ]
    lines += [f"  STALE {fid}: {reason}" for fid, reason in report.newly_stale]
    if report.newly_stale or report.still_stale:
        lines.append(
            "Confirm a stale fact that still holds (confirm_fact), supersede it (supersede) or "
            "forget it."
        )
    return Result("\n".join(lines), dataclasses.asdict(report))


def session_start(cfg: Config, title: str | None, agent: str | None) -> Result:
    from repomem.memory import session

    rec = session.start(cfg, title or "", agent=agent or "mcp")
    head = (rec["head"] or "no commit")[:12]
    text = f"Started {rec['id']} at {head} ({len(rec['dirty'])} dirty file(s))."
    data = {k: v for k, v in rec.items() if k not in ("dirty", "pid")}
    data["dirty"] = sorted(rec["dirty"])
    return Result(text, data)


def session_end(
    cfg: Config, summary: str, learned: list[str] | None, next_steps: list[str] | None
) -> Result:
    from repomem.memory import compact, session

    res = session.end(
        cfg, summary=summary, learned=learned or [], next_steps=next_steps or [],
        summarizer=compact.default_summarizer(cfg),
    )  # fmt: skip
    s = res.session
    data = {"session": dataclasses.asdict(s), "version": res.version, "compacted": res.compacted}
    if res.already:
        note = session.already_note(res, bool(summary or learned or next_steps))
        return Result(for_tools(note), data | {"already": res.already})
    files = len(s.added) + len(s.modified) + len(s.deleted) + len(s.renamed)
    text = (
        f"Ended {s.id}: {len(s.commits)} commit(s), {files} file(s), {len(s.symbols)} symbol "
        f"change(s), {len(s.learned)} fact(s) (memory version {res.version})."
    )
    if res.compacted:
        text += f" Compacted {res.compacted} older session(s) into History."
    return Result(text, data)


def memory_file_text(cfg: Config) -> str:
    """The memory file as stored (a fresh template when it does not exist yet), to show: its
    credentials redacted as the memory's prose is (`DB_PASSWORD=x` counts, as in config)."""
    from repomem.memory import access

    text = access.read_text(access.memory_path(cfg))
    if text is None or not text.strip():
        return access.load(cfg).render()
    return shown_prose(cfg, text)


def shown_prose(cfg: Config, text: str) -> str:
    """Memory text to show a client, with credentials redacted by the rules facts pass."""
    return str(secrets.redact_value(text, cfg.secrets.extra_patterns, config_like=True))
