"""Hook files for the hooks tests: a hook that was there before, and where hooks go."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import Repo

OLD_HOOK = '#!/bin/sh\necho "old $@" >> "$(git rev-parse --git-dir)/old-hook.out"\ncat >> "$(git rev-parse --git-dir)/old-hook.stdin"\nexit 0\n'  # noqa: E501


TRUE = "/bin/true"  # a "python" that does nothing, for tests about the hook files only


def hook_dir(repo: Repo) -> Path:
    return repo.root / ".git" / "hooks"


def write_hook(path: Path, text: str, mode: int = 0o755) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    path.chmod(mode)
