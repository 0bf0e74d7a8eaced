"""The memory file's git merge driver: `merge.<name>.driver` in `.git/config` and a
`<pattern> merge=<name>` line in `.gitattributes`, registered and removed byte for byte."""

from __future__ import annotations

import re

from repomem import vcs
from repomem.config import Config
from repomem.errors import HookError
from repomem.fsutil import atomic_write, read_exact
from repomem.hooks.state import _git_root
from repomem.paths import root_pattern

MERGE_DRIVER = "repomem"


def _attributes_line(cfg: Config, name: str, pattern: str | None) -> str:
    return f"{pattern or _memory_pattern(cfg)} merge={name}"


def _memory_pattern(cfg: Config) -> str:
    """The memory file as a `.gitattributes` pattern that matches it and nothing else: its
    path from the root (`./REPOMEM.md` is `/REPOMEM.md`), glob characters escaped, and the
    whole C-quoted when it has a space or a quote (as git reads quoted patterns)."""
    from repomem.memory import access

    rel = access.memory_path(cfg).relative_to(cfg.root.resolve()).as_posix()
    pattern = root_pattern(rel)
    if re.search(r'[\s"]', pattern):
        quoted = pattern.replace("\\", "\\\\").replace('"', '\\"').replace("\t", "\\t")
        return f'"{quoted}"'
    return pattern


def register_merge_driver(
    cfg: Config,
    name: str,
    command: str,
    *,
    pattern: str | None = None,
    description: str = "repomem project memory",
) -> None:
    """Register a git merge driver: `merge.<name>.driver` in `.git/config` and a
    `<pattern> merge=<name>` line in `.gitattributes` (pattern: the memory file).

    Raises:
        HookError: outside a git work tree, or when `.gitattributes` cannot be written.
    """
    root = _git_root(cfg)
    vcs.config_set(root, f"merge.{name}.name", description)
    vcs.config_set(root, f"merge.{name}.driver", command)
    line = _attributes_line(cfg, name, pattern)
    attributes = root / ".gitattributes"
    try:
        text = read_exact(attributes) if attributes.exists() else ""
        if line not in text.splitlines():
            nl = "\r\n" if "\r\n" in text else "\n"  # the file's own line ends
            sep = "" if not text or text.endswith("\n") else nl
            if sep:  # remembered so that unregistering puts the file back byte for byte
                vcs.config_set(root, f"merge.{name}.{_ADDED_NEWLINE}", "true")
            atomic_write(attributes.resolve(), f"{text}{sep}{line}{nl}")
    except OSError as exc:
        raise HookError(f"Cannot update `{attributes}` ({exc.strerror or exc}).") from exc


_ADDED_NEWLINE = "repomemaddednewline"  # git config: the driver's line needed a newline first


def unregister_merge_driver(cfg: Config, name: str, *, pattern: str | None = None) -> None:
    """Undo `register_merge_driver` (a `.gitattributes` left empty is removed).

    Raises:
        HookError: outside a git work tree, or when `.gitattributes` cannot be written.
    """
    root = _git_root(cfg)
    added_newline = vcs.config_get(root, f"merge.{name}.{_ADDED_NEWLINE}") == "true"
    vcs.config_remove_section(root, f"merge.{name}")
    line = _attributes_line(cfg, name, pattern)
    attributes = root / ".gitattributes"
    try:
        if not attributes.exists():
            return
        lines = read_exact(attributes).splitlines(keepends=True)
        kept = [x for x in lines if x.rstrip("\r\n") != line]
        if len(kept) == len(lines):
            return
        if added_newline and kept and lines[-1].rstrip("\r\n") == line:
            kept[-1] = kept[-1].rstrip("\r\n")  # the file had no final newline before
        if kept:
            atomic_write(attributes.resolve(), "".join(kept))
        else:
            attributes.unlink()
    except OSError as exc:
        raise HookError(f"Cannot update `{attributes}` ({exc.strerror or exc}).") from exc


def merge_driver_state(cfg: Config, name: str = MERGE_DRIVER) -> dict[str, object]:
    """Whether the merge driver is registered in `.git/config` and `.gitattributes`."""
    root = _git_root(cfg)
    line = _attributes_line(cfg, name, None)
    attributes = root / ".gitattributes"
    try:
        attr = line in attributes.read_text(encoding="utf-8").splitlines()
    except OSError:
        attr = False
    return {"driver": vcs.config_get(root, f"merge.{name}.driver"), "gitattributes": attr}
