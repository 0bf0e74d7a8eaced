"""Index commands: init, index, status, search, symbol."""

from __future__ import annotations

import shlex
import shutil
from pathlib import Path
from typing import Annotated, Any

import typer

from repomem.cli._app import Bar, app, fail, indexing, load_config, print_json
from repomem.cli._state import state
from repomem.errors import RepomemError
from repomem.fsutil import cannot_write, echo

SHOWN_REFS = 50  # references `repomem symbol` lists (all of them with --json)


def _run_index(full: bool, quiet: bool) -> Any:
    from repomem.index import indexer

    cfg = load_config()
    with indexing(cfg):
        report = indexer.run(cfg, full=full, progress=Bar(not quiet))
    if not quiet:
        _print_report(report)
    return cfg, report


def change_counts(report: Any) -> list[str]:
    """`2 added`, `1 renamed`, ... for each kind of change an index report holds."""
    kinds = ("added", "modified", "deleted", "renamed")
    return [f"{len(getattr(report, k))} {k}" for k in kinds if getattr(report, k)]


def _print_report(report: Any) -> None:
    if not report.git:
        typer.echo("Note: not a git repository; indexing a plain folder (git features are off).")
    if report.seeded_from:
        typer.echo(f"Started from the index of the worktree at {report.seeded_from}.")
    parts = [f"{report.files_seen} files", f"{report.parsed} parsed", *change_counts(report)]
    typer.echo(
        f"Indexed {', '.join(parts)} in {report.seconds:.2f}s"
        + (" (full build)" if report.full else "")
        + "."
    )
    if report.skipped:
        skipped = ", ".join(f"{n} {k}" for k, n in sorted(report.skipped.items()))
        typer.echo(f"Skipped: {skipped}.")
    if report.redactions:
        typer.echo(f"Redacted {report.redactions} secret(s) before storing.")
    if report.embedded:
        typer.echo(f"Embedded {report.embedded} file(s) in {report.embed_seconds:.1f}s.")
    if report.recovered:
        typer.echo(f"Completed an interrupted run ({report.recovered} files re-indexed).")
    if report.parse_errors:
        typer.echo(
            f"{len(report.parse_errors)} file(s) have syntax errors; their other "
            f"symbols are indexed."
        )


@app.command()
def init(
    quiet: Annotated[bool, typer.Option("-q", "--quiet", help="Print nothing on success.")] = False,
) -> None:
    """Write `.repomem` from the example if absent, build the index, and say what to do next."""
    from repomem import config

    try:
        root = config.find_root(state.repo)
        target = root / config.CONFIG_NAME
        if not target.exists():
            example = Path(__file__).parent.parent / "data" / "repomem.example.toml"
            try:
                shutil.copyfile(example, target)
            except OSError as exc:
                raise cannot_write(target, exc) from exc
            if not quiet:
                typer.echo(f"Wrote {target} (every key commented out, defaults apply).")
        _run_index(full=False, quiet=quiet)
    except RepomemError as exc:
        raise fail(exc) from None
    if not quiet:
        typer.echo(_next_steps(state.repo))


def _next_steps(repo: Path | None) -> str:
    """What to run after `init`, with the `-C PATH` the user gave (else run from elsewhere
    they would act on another folder)."""
    cmd = f"repomem -C {shlex.quote(str(repo))}" if repo is not None else "repomem"
    steps = [
        (f'{cmd} pack "the task"', "context for a new session"),
        (f"{cmd} mcp-config --client claude-code --write", "serve it to an editor (MCP)"),
        (f"{cmd} claude-hooks --write", "a pack for each Claude Code session's first task"),
        (f"{cmd} hooks install", "refresh the index after commits"),
    ]
    width = max(len(c) for c, _ in steps) + 3
    lines = [f"  {c.ljust(width)}{what}" for c, what in steps]
    return "\n".join(["Next:", *lines, f"  {cmd} search QUERY | symbol NAME | status"])


@app.command()
def index(
    full: Annotated[bool, typer.Option("--full", help="Rebuild from scratch.")] = False,
    quiet: Annotated[bool, typer.Option("-q", "--quiet", help="Print nothing on success.")] = False,
) -> None:
    """Build the index, or bring it up to date (only what changed is parsed)."""
    try:
        _run_index(full=full, quiet=quiet)
    except RepomemError as exc:
        raise fail(exc) from None


@app.command()
def status(
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Show what is indexed and whether the index is fresh."""
    from repomem.index import query
    from repomem.index.schema import SCHEMA_VERSION

    try:
        data = query.status(load_config())
    except RepomemError as exc:
        raise fail(exc) from None
    if as_json:
        print_json(data)
        return
    fresh = (
        "fresh"
        if data["fresh"]
        else (
            f"stale: {data['pending']['changed']} changed, {data['pending']['deleted']} deleted"
            + ("" if data["indexed_commit"] == data["head"] else ", HEAD moved")
            + ("" if data["schema_version"] == SCHEMA_VERSION else ", older index schema")
        )
    )
    typer.echo(f"Repository: {data['root']}" + ("" if data["git"] else " (not git)"))
    typer.echo(f"Index:      {data['store']}")
    typer.echo(
        f"Files:      {data['files']}  symbols: {data['symbols']}  references: {data['references']}"
        f"  commits: {data['commits']}"
    )
    langs = ", ".join(f"{k} {v}" for k, v in list(data["languages"].items())[:12])
    typer.echo(f"Languages:  {langs or '-'}")
    if data["skipped"]:
        typer.echo("Skipped:    " + ", ".join(f"{k} {v}" for k, v in data["skipped"].items()))
    if data["store_bytes"] is not None:
        typer.echo(f"Store size: {data['store_bytes'] / 1e6:.1f} MB")
    commit = (data["indexed_commit"] or "-")[:12]
    typer.echo(f"Commit:     {commit}  ({fresh})")
    if data["indexed_at"]:
        import time

        from repomem.index.query import ago

        when = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(data["indexed_at"]))
        typer.echo(f"Updated:    {when} ({ago(data['age_seconds'])})")
    spend = data["llm_rerank"]
    if spend is not None:
        typer.echo(
            f"Re-ranking: by the model, ${spend['spent_today_usd']:.4f} of "
            f"${spend['daily_usd']:.2f} spent today (estimated, UTC day)"
        )


@app.command()
def search(
    query_text: Annotated[str, typer.Argument(metavar="QUERY", help="Words or identifiers.")],
    kind: Annotated[
        str | None,
        typer.Option(  # noqa: UP045
            "--kind", help="Only this kind: function, class, method, ..., or file."
        ),
    ] = None,
    path: Annotated[
        str | None,
        typer.Option(  # noqa: UP045
            "--path", help="Only paths matching this glob.", metavar="GLOB"
        ),
    ] = None,
    limit: Annotated[int, typer.Option("--limit", min=1, max=1000, help="At most N hits.")] = 20,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Full-text search over symbols, docs, paths and file text (code-aware tokens)."""
    from repomem.index import query

    if kind is not None and kind not in query.SYMBOL_KINDS:
        typer.echo(
            f"Error: unknown kind `{echo(kind)}`; use one of {', '.join(query.SYMBOL_KINDS)}.",
            err=True,
        )
        raise typer.Exit(1)
    try:
        hits = query.search(load_config(), query_text, kind=kind, path_glob=path, limit=limit)
    except RepomemError as exc:
        raise fail(exc) from None
    if as_json:
        print_json(hits)
        return
    if not hits:
        typer.echo("No matches.")
        return
    for h in hits:
        where = f"{h['path']}:{h['start_line']}"
        label = h["signature"] or h["qualname"]
        typer.echo(f"{h['score']:7.2f}  {h['kind']:<10} {where}  {label}")


@app.command()
def symbol(
    name: Annotated[str, typer.Argument(help="A name or qualified name (Class.method).")],
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    no_body: Annotated[bool, typer.Option("--no-body", help="Leave out the source.")] = False,
) -> None:
    """Show a symbol's definition with its body, location and references."""
    from repomem.index import query

    try:
        defs = query.symbol(load_config(), name, with_body=not no_body)
    except RepomemError as exc:
        raise fail(exc) from None
    if as_json:
        print_json(defs)
        return
    for d in defs:
        typer.echo(f"{d['kind']} {d['qualname']}  {d['path']}:{d['start_line']}-{d['end_line']}")
        if d["doc"]:
            typer.echo("  " + d["doc"].splitlines()[0])
        if "body" in d:
            typer.echo(d["body"])
        typer.echo("")
    refs = defs[0]["references"]
    if not refs:
        typer.echo("No references in the index.")
        return
    typer.echo(f"{len(refs)} reference(s):")
    for r in refs[:SHOWN_REFS]:
        scope = f" in {r['scope']}" if r["scope"] else ""
        typer.echo(f"  {r['path']}:{r['line']}  {r['kind']}{scope}")
    if len(refs) > SHOWN_REFS:
        typer.echo(f"  … {len(refs) - SHOWN_REFS} more (all of them with --json)")
