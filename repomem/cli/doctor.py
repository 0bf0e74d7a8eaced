"""The `doctor` command: check the store, hooks and memory file; `--fix` repairs."""

from __future__ import annotations

from typing import Annotated

import typer

from repomem.cli._app import app, fail, load_config, print_json
from repomem.errors import RepomemError

MARKS = {"ok": "ok", "problem": "PROBLEM", "note": "note", "skipped": "skipped"}


@app.command()
def doctor(
    fix: Annotated[
        bool, typer.Option("--fix", help="Repair what can be repaired (rebuild, reinstall).")
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Check the index store, the git hooks and the memory file; exit 1 if a problem remains."""
    from repomem import doctor as doc

    try:
        cfg = load_config()
        checks = doc.diagnose(cfg)
        if fix:
            checks = doc.repair(cfg, checks)
            after = doc.diagnose(cfg)
        else:
            after = checks
    except RepomemError as exc:
        raise fail(exc) from None
    if as_json:
        print_json(
            {
                "checks": [c.as_dict() for c in checks],
                "after": [c.as_dict() for c in after] if fix else None,
                "ok": all(c.ok for c in after),
            }
        )
    else:
        for c in checks:
            tail = ""
            if c.fixed:
                tail = f"  -> fixed ({c.fix})"
            elif c.fix and not c.ok and not fix:
                tail = "  (--fix repairs this)"
            typer.echo(f"{MARKS[c.status]:<8} {c.name:<9} {c.message}{tail}")
        if fix:
            left = [c for c in after if not c.ok]
            typer.echo(
                "All checks pass after the repair."
                if not left
                else "Still wrong: " + "; ".join(f"{c.name}: {c.message}" for c in left)
            )
    if not all(c.ok for c in after):
        raise typer.Exit(1)
