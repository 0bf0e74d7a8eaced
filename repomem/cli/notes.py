"""Notes commands: `notes` (generate or show per-file notes) and `note` (write one)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from repomem.cli._app import Bar, app, fail, indexing, load_config, print_json
from repomem.cli._state import state
from repomem.errors import LLMError, RepomemError


def _abs(raw: str) -> str:
    """A path as typed, made absolute from the directory the command runs in (`-C` too)."""
    p = Path(raw)
    if p.is_absolute():
        return str(p)
    base = state.repo if state.repo is not None else Path.cwd()
    return str((base / p).resolve())


@app.command()
def notes(
    paths: Annotated[
        list[str] | None,
        typer.Argument(
            help="Files or folders (default: every indexed file).", metavar="[PATHS]..."
        ),
    ] = None,
    llm: Annotated[
        bool | None,
        typer.Option(
            "--llm/--no-llm",
            help="Use the model (needs ANTHROPIC_API_KEY) or only offline notes. "
            "Default: the model when a key is set and llm.enabled.",
        ),
    ] = None,
    max_files: Annotated[
        int | None,
        typer.Option(
            "--max-files",
            min=0,
            help="Send at most N files this run (default llm.max_files_per_run).",
        ),
    ] = None,
    dry_run: Annotated[
        bool,
        typer.Option(
            "--dry-run", help="Print the files that would be sent, tokens and cost; send nothing."
        ),
    ] = False,
    show: Annotated[
        bool,
        typer.Option("--show", help="Show the notes of PATHS (or all) instead of generating."),
    ] = False,
    refresh: Annotated[
        bool,
        typer.Option("--refresh/--no-refresh", help="Bring the index up to date first."),
    ] = True,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Write per-file notes (purpose, entry points, gotchas), by the model or offline.

    With an API key the model writes them, cached by content hash so an unchanged file is never
    sent again; without one they are written offline.

    People's notes (`repomem note PATH TEXT`) are never overwritten. `--show` lists notes,
    marking stale ones (their file changed since).
    """
    from repomem.llm import generation
    from repomem.llm import notes as core

    given = [_abs(p) for p in paths or []]
    try:
        cfg = load_config()
        if show:
            _show(cfg, [core.repo_path(cfg, p) for p in given], as_json)
            return
        if refresh:
            from repomem.index import indexer

            with indexing(cfg):
                indexer.run(cfg, progress=Bar(not as_json))
        if dry_run:
            model = cfg.llm.model if _wants_model(cfg, llm) else None
            report = generation.estimate(cfg, given, model=model, max_files=max_files)
        else:
            client = _client(cfg, llm)
            try:
                report = generation.generate(
                    cfg, given, client=client, max_files=max_files, progress=Bar(not as_json)
                )
            finally:
                if client is not None:
                    client.close()
    except RepomemError as exc:
        raise fail(exc) from None
    if as_json:
        print_json(report.as_dict())
    else:
        _print_report(cfg, report)
    if report.error:
        typer.echo(f"Error: {report.error}", err=True)
        raise typer.Exit(1)


def _wants_model(cfg: Any, llm: bool | None) -> bool:
    """Whether a run would use the model: `--llm`, or by default when a key is set."""
    from repomem.llm import client as llm_client

    return llm is True or (llm is None and llm_client.configured(cfg))


def _client(cfg: Any, llm: bool | None) -> Any:
    """The client for a real run, None for offline notes.

    Raises:
        LLMError: `--llm` without a key or with `llm.enabled` false.
    """
    from repomem.llm import client as llm_client

    if llm is False:
        return None
    client = llm_client.from_config(cfg)
    if client is None and llm is True:
        why = (
            "`llm.enabled` is false in the configuration"
            if not cfg.llm.enabled
            else f"{llm_client.API_KEY_ENV} is not set"
        )
        raise LLMError(
            f"--llm needs the model, but {why}; set it, or drop --llm for offline notes."
        )
    return client


def _print_report(cfg: Any, report: Any) -> None:
    from repomem.llm import client as llm_client

    plan = report.plan
    if plan.model is None:
        typer.echo("Model: none (offline notes; set ANTHROPIC_API_KEY to use Claude).")
    else:
        price, known = llm_client.price_for(plan.model)
        note = "" if known else " (unknown model: priced as the dearest known one)"
        typer.echo(
            f"Model: {plan.model} (${price.input:g} / ${price.output:g} per million "
            f"input / output tokens){note}"
        )
    typer.echo(
        f"Files: {plan.indexed} indexed, {plan.fresh} with an up-to-date note"
        + (f", {len(plan.reuse)} reusing a note of the same content" if plan.reuse else "")
        + (f", {len(plan.pending)} waiting in a batch" if plan.pending else "")
        + (f", {len(plan.excluded)} excluded by llm.exclude" if plan.excluded else "")
        + "."
    )
    if plan.model is not None:
        verb = "Would send" if report.dry_run else "Sent"
        how = " in one Message Batch (half price)" if plan.batch else ""
        typer.echo(
            f"{verb} {len(plan.send)} file(s){how}: about {plan.input_tokens:,} input tokens, "
            f"at most {plan.output_tokens:,} output tokens, at most ${plan.cost_usd:.4f}."
        )
        if plan.capped:
            typer.echo(
                f"Capped: {len(plan.capped)} more file(s) wait for later runs "
                f"(llm.max_files_per_run = {cfg.llm.max_files_per_run}, --max-files, "
                f"llm.max_cost_usd = ${cfg.llm.max_cost_usd:g})."
            )
        if plan.capped or report.dry_run:
            typer.echo(
                f"All {len(plan.send) + len(plan.capped)} file(s) needing a model note: about "
                f"{plan.all_input_tokens:,} input tokens, at most {plan.all_output_tokens:,} "
                f"output, at most ${plan.all_cost_usd:.4f} (half with batches)."
            )
    if report.dry_run:
        for p in plan.send:
            typer.echo(f"  {p.input_tokens:>7,}  {p.path}")
        if plan.offline:
            typer.echo(f"Would write {len(plan.offline)} offline note(s).")
        return
    done = []
    if report.collected:
        done.append(f"{report.collected} from an earlier batch")
    if report.written_llm:
        done.append(f"{report.written_llm} by the model")
    if report.reused:
        done.append(f"{report.reused} reused")
    if report.written_offline:
        done.append(f"{report.written_offline} offline")
    typer.echo("Notes written: " + (", ".join(done) if done else "none (all up to date)") + ".")
    if report.requests:
        typer.echo(
            f"API: {report.requests} request(s), {report.input_tokens:,} input and "
            f"{report.output_tokens:,} output tokens, about ${report.cost_usd:.4f}."
        )
    if report.batch_pending:
        typer.echo(
            f"Batch {report.batch_id} is still processing; run `repomem notes` later to collect it."
        )
    for path, message in sorted(report.failed.items()):
        typer.echo(f"Failed: {path}: {message}")


def _show(cfg: Any, rels: list[str], as_json: bool) -> None:
    """The notes of these paths (all with none), and for each path without notes why.

    Raises:
        NotFoundError: a path without notes does not exist.
    """
    from repomem.index import query
    from repomem.llm import notes as core

    store = query.require_store(cfg)
    rels = [query.indexed_spelling(store, r) for r in rels]
    found = core.list_notes(cfg, rels or None, store=store)
    noted = {n.path for n in found}
    missing = [core.why_no_notes(cfg, r, store=store) for r in rels if r not in noted]
    if as_json:
        print_json([n.as_dict() for n in found])
        return
    if not rels and not found:
        typer.echo("No notes; run `repomem notes` to generate them.")
        return
    last = None
    for n in found:
        if n.path != last:
            typer.echo(f"{n.path}")
            last = n.path
        stale = ", stale" if n.stale else ""
        typer.echo(f"  [{n.source}{stale}]")
        for line in n.text.splitlines():
            typer.echo(f"    {line}")
    for message in missing:
        typer.echo(message)


@app.command()
def note(
    path: Annotated[str, typer.Argument(help="A file or folder inside the repository.")],
    text: Annotated[
        str | None,
        typer.Argument(help="The note ('-' reads stdin). Without TEXT, show PATH's notes."),
    ] = None,
    source: Annotated[
        str, typer.Option("--source", help="Who writes it: human or assistant.")
    ] = "human",
    replace: Annotated[
        bool, typer.Option("--replace", help="Replace this source's earlier notes on PATH.")
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Write a note on a file or folder, or show its notes when no TEXT is given.

    A person's note is kept apart from generated notes and never overwritten by them. Secrets
    in the text are redacted."""
    from repomem.llm import notes as core

    try:
        cfg = load_config()
        target = _abs(path)
        if text is None:
            _show(cfg, [core.repo_path(cfg, target)], as_json)
            return
        body = sys.stdin.read() if text == "-" else text
        written, redacted = core.write_note(cfg, target, body, source=source, replace=replace)
    except RepomemError as exc:
        raise fail(exc) from None
    if as_json:
        print_json({**written.as_dict(), "redacted": redacted})
        return
    typer.echo(f"Noted on {written.path} ({written.source}).")
    if redacted:
        typer.echo(f"Redacted {redacted} secret(s) from the note.")
