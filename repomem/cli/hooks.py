"""The `hooks` command group: install, uninstall and show the git hooks."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from repomem.cli._app import app, fail, load_config, print_json
from repomem.errors import RepomemError

hooks_app = typer.Typer(
    help="Git hooks that refresh the index after commits, merges, checkouts and rewrites.",
    no_args_is_help=True,
)
app.add_typer(hooks_app, name="hooks")

STATE_WORDS = {
    "installed": "installed",
    "missing": "not installed",
    "foreign": "another hook (install keeps it and runs it first)",
    "outdated": "outdated",
    "broken": "broken",
}


def _print_states(states: list[Any], as_json: bool, cfg: Any) -> None:
    from repomem import hooks
    from repomem.memory import access

    try:  # a `memory.file` outside the repository is the user's to fix, in one line
        driver = hooks.merge_driver_state(cfg)
        name = access.memory_path(cfg).name
    except RepomemError as exc:
        raise fail(exc) from None
    if as_json:
        print_json(
            {
                "hooks": [s.as_dict() for s in states],
                "log": str(hooks.log_path(cfg)),
                "merge_driver": driver,
            }
        )
        return
    for s in states:
        extra = " (runs the earlier hook first)" if s.chained and s.state == "installed" else ""
        detail = f": {s.detail}" if s.detail else ""
        typer.echo(f"{s.name:<14} {STATE_WORDS.get(s.state, s.state)}{extra}{detail}  [{s.path}]")
    manager = states[0].manager if states else "git"
    if manager == "husky":
        typer.echo("Managed by husky: repomem's lines are a marked block in .husky/<hook>.")
    typer.echo(_merge_driver_line(driver, name))
    typer.echo(f"Log: {hooks.log_path(cfg)}")


def _merge_driver_line(state: dict[str, object], name: str) -> str:
    if state["driver"] and state["gitattributes"]:
        return f"Merge driver: registered for {name} (.git/config, .gitattributes)."
    if state["driver"] or state["gitattributes"]:
        where = ".git/config" if state["driver"] else ".gitattributes"
        return (
            f"Merge driver: only in {where}; run `repomem hooks install --merge-driver` to "
            f"register it whole."
        )
    return (
        f"Merge driver: not registered (`repomem hooks install --merge-driver` makes merges "
        f"union both sides of {name})."
    )


@hooks_app.command("install")
def install(
    merge_driver: Annotated[
        bool,
        typer.Option(
            "--merge-driver", help="Also register the memory file's merge driver (git config)."
        ),
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Install the hooks (existing hooks are kept and run first)."""
    from repomem import hooks

    try:
        cfg = load_config()
        states = hooks.install(cfg, merge_driver=merge_driver)
    except RepomemError as exc:
        raise fail(exc) from None
    _print_states(states, as_json, cfg)


@hooks_app.command("uninstall")
def uninstall(
    keep_merge_driver: Annotated[
        bool, typer.Option("--keep-merge-driver", help="Leave the merge driver registered.")
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Remove the hooks and restore the ones that were there before."""
    from repomem import hooks

    try:
        cfg = load_config()
        states = hooks.uninstall(cfg, merge_driver=not keep_merge_driver)
    except RepomemError as exc:
        raise fail(exc) from None
    _print_states(states, as_json, cfg)


@hooks_app.command("status")
def status(
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Show whether each hook is installed and healthy."""
    from repomem import hooks

    try:
        cfg = load_config()
        states = hooks.status(cfg)
    except RepomemError as exc:
        raise fail(exc) from None
    _print_states(states, as_json, cfg)


@hooks_app.command("run", hidden=True)
def run(
    marker: Annotated[
        Path | None,
        typer.Option("--marker", help="The queued-refresh marker to clear.", metavar="FILE"),
    ] = None,
) -> None:
    """What the installed hooks start in the background: an index run (output to the log)."""
    from repomem import hooks
    from repomem.cli.index import _print_report

    try:
        report = hooks.refresh(load_config(), marker)
    except RepomemError as exc:
        raise fail(exc) from None
    _print_report(report)
