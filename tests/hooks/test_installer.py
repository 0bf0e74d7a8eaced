"""Installing and uninstalling the git hooks: chained, husky, pre-commit, hooksPath."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from repomem import hooks
from repomem.errors import HookError
from repomem.hooks import scripts
from repomem.index import query
from tests.conftest import Repo, wait_until
from tests.hooks.hookfiles import OLD_HOOK, TRUE, hook_dir, write_hook


def test_hooks_installed_beside_an_existing_hook_run_both(repo: Repo) -> None:
    repo.write("a.py", "def first():\n    pass\n")
    repo.commit()
    write_hook(hook_dir(repo) / "post-commit", OLD_HOOK)
    states = hooks.install(repo.config())
    assert [s.state for s in states] == ["installed"] * 4
    assert states[0].chained and not states[1].chained
    repo.write("a.py", "def after_commit():\n    pass\n")
    t0 = time.monotonic()
    head = repo.commit("second")
    took = time.monotonic() - t0
    assert (repo.root / ".git" / "old-hook.out").read_text() == "old \n"
    log = hooks.log_path(repo.config())
    wait_until(lambda: log.exists() and "Indexed" in log.read_text(), "the background index")
    assert "post-commit: repomem index" in log.read_text()
    status = query.status(repo.config())
    assert status["indexed_commit"] == head and status["fresh"]
    assert took < 30  # not a timing claim: the commit did not wait for the whole index run


def test_uninstall_restores_exactly_what_was_there(repo: Repo) -> None:
    original = hook_dir(repo) / "post-merge"
    write_hook(original, OLD_HOOK, mode=0o750)
    before = sorted(p.name for p in hook_dir(repo).iterdir())
    hooks.install(repo.config(), python=TRUE)
    hooks.install(repo.config(), python=TRUE)  # twice: the original is not lost
    assert (hook_dir(repo) / "post-merge.repomem-orig").read_text() == OLD_HOOK
    states = hooks.uninstall(repo.config())
    assert [s.state for s in states] == ["missing", "foreign", "missing", "missing"]
    assert original.read_text() == OLD_HOOK
    assert original.stat().st_mode & 0o777 == 0o750
    assert sorted(p.name for p in hook_dir(repo).iterdir()) == before


def test_core_hooks_path_is_respected(repo: Repo) -> None:
    repo.git("config", "core.hooksPath", ".githooks")
    write_hook(repo.root / ".githooks" / "post-checkout", OLD_HOOK)
    states = hooks.install(repo.config(), python=TRUE)
    assert {s.manager for s in states} == {"hooksPath"}
    assert (repo.root / ".githooks" / "post-commit").exists()
    assert not (hook_dir(repo) / "post-commit").exists()
    assert states[2].name == "post-checkout" and states[2].chained
    hooks.uninstall(repo.config())
    assert sorted(p.name for p in (repo.root / ".githooks").iterdir()) == ["post-checkout"]
    assert (repo.root / ".githooks" / "post-checkout").read_text() == OLD_HOOK


def test_a_hooks_path_shared_by_every_repository_is_refused(repo: Repo, tmp_path: Path) -> None:
    shared = tmp_path / "global-hooks"
    write_hook(shared / "pre-push", OLD_HOOK)
    repo.git("config", "--global", "core.hooksPath", str(shared))
    with pytest.raises(HookError, match=r"global git config.*every repository"):
        hooks.install(repo.config(), python=TRUE)
    assert sorted(p.name for p in shared.iterdir()) == ["pre-push"]
    repo.git("config", "core.hooksPath", ".githooks")  # this repository's own: fine
    assert {s.state for s in hooks.install(repo.config(), python=TRUE)} == {"installed"}
    assert (repo.root / ".githooks" / "post-commit").exists()


def test_uninstall_removes_the_hooks_folder_install_created_and_forgets_it(repo: Repo) -> None:
    repo.git("config", "core.hooksPath", "tools/githooks")
    hooks.install(repo.config(), python=TRUE)
    hooks.install(repo.config(), python=TRUE)  # the folder exists now: still repomem's
    assert (repo.root / "tools" / "githooks" / "post-commit").exists()
    hooks.uninstall(repo.config())
    assert not (repo.root / "tools").exists()
    assert "repomem" not in (repo.root / ".git" / "config").read_text()
    assert repo.git("config", "core.hooksPath").strip() == "tools/githooks"  # the user's


def test_uninstall_keeps_a_hooks_folder_the_user_made_or_added_to(repo: Repo) -> None:
    repo.git("config", "core.hooksPath", ".githooks")
    (repo.root / ".githooks").mkdir()
    hooks.install(repo.config(), python=TRUE)
    hooks.uninstall(repo.config())
    assert list((repo.root / ".githooks").iterdir()) == []  # empty, but made by the user
    (repo.root / ".githooks").rmdir()
    hooks.install(repo.config(), python=TRUE)
    write_hook(repo.root / ".githooks" / "pre-push", OLD_HOOK)
    hooks.uninstall(repo.config())
    assert [p.name for p in (repo.root / ".githooks").iterdir()] == ["pre-push"]
    assert "repomem" not in (repo.root / ".git" / "config").read_text()


@pytest.mark.parametrize("existing", ["npx lint-staged\n", "npx lint-staged"])
def test_husky_hooks_get_a_marked_block_that_uninstall_removes(repo: Repo, existing: str) -> None:
    repo.git("config", "core.hooksPath", ".husky/_")
    (repo.root / ".husky" / "_").mkdir(parents=True)
    user_hook = repo.root / ".husky" / "post-merge"
    user_hook.write_text(existing, encoding="utf-8")
    states = hooks.install(repo.config(), python=TRUE)
    assert {s.manager for s in states} == {"husky"}
    assert [s.state for s in states] == ["installed"] * 4
    text = user_hook.read_text()
    assert text.startswith(hooks.BLOCK_START) and text.endswith(existing)  # runs first
    hooks.install(repo.config(), python=TRUE)  # an update replaces the block
    assert user_hook.read_text().count(hooks.BLOCK_END) == 1
    created = repo.root / ".husky" / "post-commit"
    assert created.exists() and os.access(created, os.X_OK)
    hooks.uninstall(repo.config())
    assert user_hook.read_text() == existing
    assert not created.exists()


HUSKY_H = 'n=$(basename "$0"); s=$(dirname "$(dirname "$0")")/$n; [ -f "$s" ] || exit 0; sh -e "$s" "$@"\n'  # noqa: E501


EARLY_ENDS = {
    "exit-at-end": "echo lint\nexit 0\n",
    "bare-exit": "echo lint\nexit\n",
    "exit-status": "echo lint\n  exit $?",
    "exit-in-if": 'echo lint\nif [ -n "$HOME" ]; then\n    exit 0\nfi\necho more\n',
    "comment-after-exit": "echo lint\nexit 0\n# keep going: nothing below runs\n",
    "exec": "exec true\n",
    "failing-under-sh-e": "false\necho never\n",
    "shebang": "#!/usr/bin/env sh\necho lint\nexit 0\n",
    "shebang-only": "#!/bin/sh",
}


@pytest.mark.parametrize("existing", EARLY_ENDS.values(), ids=EARLY_ENDS.keys())
def test_a_husky_hook_that_ends_early_still_runs_the_block(repo: Repo, existing: str) -> None:
    repo.git("config", "core.hooksPath", ".husky/_")
    write_hook(repo.root / ".husky" / "_" / "h", HUSKY_H)
    write_hook(repo.root / ".husky" / "_" / "post-commit", '#!/bin/sh\n. "$(dirname "$0")/h"\n')
    user_hook = repo.root / ".husky" / "post-commit"
    user_hook.write_text(existing, encoding="utf-8")
    states = hooks.install(repo.config(), python=TRUE)
    assert states[0].state == "installed", states[0]
    repo.commit("first")
    log = hooks.log_path(repo.config())
    assert log.exists() and "post-commit: repomem index" in log.read_text()
    hooks.uninstall(repo.config())
    assert user_hook.read_text() == existing


HUSKY_SH = """if [ -z "$husky_skip_init" ]; then
  readonly husky_skip_init=1
  export husky_skip_init
  sh -e "$0" "$@"
  exit $?
fi
"""


def test_a_husky_8_hook_runs_the_block_once_after_its_husky_line(repo: Repo) -> None:
    repo.git("config", "core.hooksPath", ".husky")
    write_hook(repo.root / ".husky" / "_" / "husky.sh", HUSKY_SH)
    existing = '#!/usr/bin/env sh\n. "$(dirname -- "$0")/_/husky.sh"\n\necho lint\nexit 0\n'
    user_hook = repo.root / ".husky" / "post-commit"
    write_hook(user_hook, existing)
    hooks.install(repo.config(), python=TRUE)
    text = user_hook.read_text()
    assert text.index(hooks.BLOCK_START) > text.index("husky.sh")
    repo.commit("first")
    log = hooks.log_path(repo.config()).read_text()
    assert len([ln for ln in log.splitlines() if " post-commit: " in ln]) == 1, log
    hooks.uninstall(repo.config())
    assert user_hook.read_text() == existing


def test_a_husky_block_an_earlier_repomem_put_at_the_end_is_outdated(repo: Repo) -> None:
    repo.git("config", "core.hooksPath", ".husky/_")
    user_hook = repo.root / ".husky" / "post-commit"
    existing = "echo lint\nif true; then exit 0; fi\n"
    write_hook(user_hook, existing + scripts._block("post-commit", TRUE, False))
    state = hooks.status(repo.config())[0]
    assert state.state == "outdated" and "reinstall" in state.detail, state
    assert hooks.install(repo.config(), python=TRUE)[0].state == "installed"
    assert user_hook.read_text().startswith(hooks.BLOCK_START)
    hooks.uninstall(repo.config())
    assert user_hook.read_text() == existing


PRE_COMMIT_HOOK = (
    "#!/bin/sh\n# File generated by pre-commit: https://pre-commit.com\n"
    'legacy="$(dirname "$0")/$(basename "$0").legacy"\n'
    'if [ -x "$legacy" ]; then "$legacy" "$@" || exit $?; fi\n'
)


def pre_commit_install(repo: Repo, name: str) -> None:
    path = hook_dir(repo) / name
    os.replace(path, path.with_name(name + ".legacy"))
    write_hook(path, PRE_COMMIT_HOOK)


def test_a_hook_pre_commit_took_over_is_still_ours_to_update_and_uninstall(repo: Repo) -> None:
    write_hook(hook_dir(repo) / "post-commit", OLD_HOOK)
    hooks.install(repo.config(), python=TRUE)
    pre_commit_install(repo, "post-commit")
    states = hooks.status(repo.config())
    assert states[0].state == "installed" and "pre-commit" in states[0].detail
    hooks.install(repo.config(), python=TRUE)  # updated where pre-commit runs it
    assert (hook_dir(repo) / "post-commit").read_text() == PRE_COMMIT_HOOK
    assert not (hook_dir(repo) / "post-commit.repomem-orig.repomem-orig").exists()
    repo.git("commit", "-q", "--allow-empty", "-m", "c")
    assert (repo.root / ".git" / "old-hook.out").read_text() == "old \n"  # still chained
    hooks.uninstall(repo.config())
    left = {p.name: p.read_text() for p in hook_dir(repo).iterdir() if "sample" not in p.name}
    # as if repomem had never been installed: pre-commit's hook, running the user's as legacy
    assert left == {"post-commit": PRE_COMMIT_HOOK, "post-commit.legacy": OLD_HOOK}


def test_uninstall_removes_our_hook_pre_commit_kept_when_nothing_was_there_before(
    repo: Repo,
) -> None:
    hooks.install(repo.config(), python=TRUE)
    pre_commit_install(repo, "post-merge")
    hooks.uninstall(repo.config())
    assert not (hook_dir(repo) / "post-merge.legacy").exists()
    assert (hook_dir(repo) / "post-merge").read_text() == PRE_COMMIT_HOOK
    assert not any(hooks.MARKER in p.read_text(errors="replace") for p in hook_dir(repo).iterdir())
