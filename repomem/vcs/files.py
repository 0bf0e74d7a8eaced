"""The files of a work tree: those git lists (tracked, and untracked but not ignored), those with
uncommitted changes, and the files of checked-out submodules in their place."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from repomem.vcs.gitpython import _repo, _translate_public, git_error


def list_files(
    root: Path,
    *,
    untracked: bool = True,
    paths: Sequence[str] | None = None,
    submodules: bool = False,
) -> list[str]:
    """Tracked files plus (by default) untracked files that .gitignore does not exclude.

    Paths are repo-relative with '/'. Files deleted from the work tree but still tracked are
    left out. With `paths`, only those paths (files or folders, taken literally) are listed.
    With `submodules`, each initialised submodule (checked out, as `git submodule update
    --init` leaves it) stands for its files, listed by its own repository in the same way
    (nested ones too); a submodule not checked out stays one entry, its folder.
    """
    repo = _repo(root)
    if repo is None:
        return []
    wanted = None if paths is None else list(paths)
    return _list_tree(repo, root, "", untracked, wanted, _nesting(submodules))


MAX_SUBMODULE_DEPTH = 8  # submodules within submodules, at most this deep


def _nesting(submodules: bool) -> int:
    """How many levels of submodules to look into."""
    return MAX_SUBMODULE_DEPTH if submodules else 0


def _list_tree(
    repo: Any, root: Path, where: str, untracked: bool, paths: list[str] | None, nesting: int
) -> list[str]:
    """The files of the work tree at `where` ("" for the repository, else a submodule's
    folder), relative to `root`; with `paths` (relative to `where`), only those; its
    submodules' files `nesting` levels deep."""
    subs = _submodules_at(repo, root, where, nesting)
    inner: dict[str, list[str] | None] = {}  # submodule -> its paths (None: all)
    own: list[str] = []
    for path in paths or []:
        sub = next((s for s in subs if path == s or path.startswith(s + "/")), None)
        if sub is None:
            own.append(path)
        elif path == sub:
            inner[sub] = None
        else:
            wanted = inner.setdefault(sub, [])
            if wanted is not None:
                wanted.append(path[len(sub) + 1 :])
    listed: list[str] = []
    if paths is None or own:
        listed = _ls(repo, untracked, [f":(literal){p}" for p in own], where)
    if paths is None:  # a submodule counts once its superproject tracks it (a gitlink)
        tracked = set(listed)
        inner = {s: None for s in subs if s in tracked}
    prefix = f"{where}/" if where else ""
    out = [prefix + p for p in listed if p not in inner]
    for sub, sub_paths in inner.items():
        out += _list_tree(repo, root, prefix + sub, untracked, sub_paths, nesting - 1)
    return out


def _submodules_at(repo: Any, root: Path, where: str, nesting: int) -> list[str]:
    """The checked-out submodules of the work tree at `where`, relative to it: the paths its
    `.gitmodules` names whose folder holds a repository (`<path>/.git`); none at `nesting` 0."""
    base = root / where
    gitmodules = base / ".gitmodules"
    if nesting <= 0 or not gitmodules.is_file():
        return []
    try:
        out: str = repo.git.execute(
            ["git", "config", "-z", "--file", str(gitmodules), "--get-regexp",
             r"^submodule\..*\.path$"]
        )  # fmt: skip
    except git_error():  # none named (status 1), or a file git cannot read
        return []
    found: list[str] = []
    for entry in out.split("\0"):
        _, _, value = entry.partition("\n")
        rel = value.strip().strip("/")
        parts = rel.split("/")
        if not rel or ".." in parts or "." in parts or "" in parts or "\\" in rel:
            continue  # never a folder outside this work tree
        folder = base / rel
        if folder.is_dir() and not folder.is_symlink() and os.path.lexists(folder / ".git"):
            found.append(rel)
    return found


def _ls(repo: Any, untracked: bool, specs: list[str], where: str = "") -> list[str]:
    # One git call: with -t each entry is tagged, and files deleted from the work tree come
    # twice, as tracked ("H", or "S"/"M" for skip-worktree and unmerged) and as removed ("R").
    args = ["-z", "-t", "--cached", "--deleted"]
    if untracked:
        args += ["--others", "--exclude-standard"]
    git = ["git", "-C", where] if where else ["git"]
    seen: dict[str, None] = {}  # a file named twice (itself and its folder) is listed once
    for start in range(0, max(len(specs), 1), 500):  # a command line holds 500 paths
        tail = ["--", *specs[start : start + 500]] if specs else []
        out: str = repo.git.execute([*git, "ls-files", *args, *tail])
        entries = [e for e in out.split("\0") if len(e) > 2]
        gone = {e[2:] for e in entries if e[0] == "R"}
        for entry in entries:
            path = entry[2:]
            if entry[0] != "R" and path not in gone:
                seen.setdefault(path, None)
    return list(seen)


def dirty_paths(root: Path, *, submodules: bool = False) -> list[str]:
    """Paths with uncommitted changes (modified, staged, untracked-not-ignored, deleted; a
    rename's source counts as deleted). With `submodules`, a checked-out submodule with
    changes stands for its own changed paths (as `list_files` lists its files)."""
    repo = _repo(root)
    if repo is None:
        return []
    return _dirty(repo, root, "", _nesting(submodules))


def _dirty(repo: Any, root: Path, where: str, nesting: int) -> list[str]:
    # Without optional locks: git status otherwise rewrites the index to refresh its stat
    # data, and a `git commit` made meanwhile fails on the lock (a pack runs beside the user).
    git = ["git", "-C", where] if where else ["git"]
    out: str = repo.git.execute(
        [*git, "--no-optional-locks", "status", "--porcelain=v1", "-z", "--untracked-files=all"]
    )
    paths: list[str] = []
    entries = out.split("\0")
    i = 0
    while i < len(entries):
        entry = entries[i]
        i += 1
        if len(entry) < 4:
            continue
        status, path = entry[:2], entry[3:]
        paths.append(path)
        if "R" in status or "C" in status:
            # the source follows; a rename's is gone from the work tree, a copy's is not
            if "R" in status and i < len(entries) and entries[i]:
                paths.append(entries[i])
            i += 1
    subs = _submodules_at(repo, root, where, nesting)
    prefix = f"{where}/" if where else ""
    out_paths: list[str] = []
    for path in paths:
        if path.rstrip("/") in subs:
            out_paths += _dirty(repo, root, prefix + path.rstrip("/"), nesting - 1)
        else:
            out_paths.append(prefix + path)
    return out_paths


_translate_public(globals(), __name__)
