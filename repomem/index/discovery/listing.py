"""The candidate files of a repository: git's listing, or a walk of a plain folder that
honours its `.gitignore` files; each path judged by the `rules` filter."""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import pathspec

from repomem import vcs
from repomem.config import Config
from repomem.index.discovery.rules import Filter

ALWAYS_PRUNED = frozenset({".git", ".hg", ".svn", ".bzr", "_darcs", ".jj"})


@dataclass
class Listing:
    """The candidate files of a repository and those skipped before reading."""

    paths: list[str]
    skipped: dict[str, list[str]]
    git: bool


def git_files(cfg: Config, paths: Sequence[str] | None = None) -> list[str]:
    """The files git lists for this configuration's index (of `paths` only, files or folders,
    when given): tracked ones, untracked ones git does not ignore while
    `index.include_untracked` is on, and the files of checked-out submodules while
    `index.submodules` is. Empty outside a git work tree. The one place that turns the
    settings into git's listing: a run's plan, `why_not_indexed` and `doctor` agree on it.

    Raises:
        GitError: if git cannot list the files.
    """
    return vcs.list_files(
        cfg.root, untracked=cfg.index.include_untracked, paths=paths,
        submodules=cfg.index.submodules,
    )  # fmt: skip


def list_candidates(cfg: Config, git_files: list[str] | None, memo: Path | None = None) -> Listing:
    """Candidate paths (sorted) and path-level skips.

    `git_files` is the git listing, or None for a plain walk. `memo`: a file that keeps the
    paths' verdicts between processes (read, and rewritten when a path was new).
    """
    filt = Filter(cfg)
    if memo is not None:
        filt.recall(memo)
    skipped: dict[str, list[str]] = {}
    paths: list[str] = []
    source = git_files if git_files is not None else _walk(cfg.root, filt)
    for rel in source:
        why = filt.reason(rel)
        if why is None:
            paths.append(rel)
        else:
            skipped.setdefault(why, []).append(rel)
    if memo is not None and filt.judged:
        filt.save(memo, [*paths, *(p for ps in skipped.values() for p in ps)])
    paths.sort()
    return Listing(paths=paths, skipped=skipped, git=git_files is not None)


def unmatched_excludes(cfg: Config, git_files: list[str] | None) -> list[str]:
    """The `index.exclude` patterns that match no file of the repository (`git_files`, or a
    walk of a plain folder when None): a typo in one excludes nothing, silently."""
    listing = list_candidates(cfg, git_files)
    paths = [*listing.paths, *(p for ps in listing.skipped.values() for p in ps)]
    return [
        p for p in cfg.index.exclude
        if p.strip() and not p.lstrip().startswith(("#", "!"))
        and not any(pathspec.GitIgnoreSpec.from_lines([p]).match_files(paths))
    ]  # fmt: skip


def _walk(root: Path, filt: Filter) -> list[str]:
    """All files under a non-git folder, honouring nested .gitignore files."""
    out: list[str] = []
    specs: list[tuple[str, pathspec.GitIgnoreSpec]] = []
    visited: set[tuple[int, int]] = set()

    def ignored(rel: str, is_dir: bool) -> bool:
        for base, spec in specs:
            if base and not rel.startswith(base + "/"):
                continue
            sub = rel[len(base) + 1 :] if base else rel
            if spec.match_file(sub + ("/" if is_dir else "")):
                return True
        return False

    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        try:
            st = os.stat(dirpath)
            key = (st.st_dev, st.st_ino)
        except OSError:
            dirnames[:] = []
            continue
        if key in visited:
            dirnames[:] = []
            continue
        visited.add(key)
        rel_dir = os.path.relpath(dirpath, root).replace(os.sep, "/")
        rel_dir = "" if rel_dir == "." else rel_dir
        gi = Path(dirpath) / ".gitignore"
        if gi.is_file():
            try:
                lines = gi.read_text(encoding="utf-8", errors="replace").splitlines()
                specs.append((rel_dir, pathspec.GitIgnoreSpec.from_lines(lines)))
            except OSError:
                pass
        keep = []
        for d in sorted(dirnames):
            rel = f"{rel_dir}/{d}" if rel_dir else d
            if d in ALWAYS_PRUNED or d in filt.vendor or ignored(rel, True):
                continue
            keep.append(d)
        dirnames[:] = keep
        for name in sorted(filenames):
            rel = f"{rel_dir}/{name}" if rel_dir else name
            if not ignored(rel, False):
                out.append(rel)
    return out
