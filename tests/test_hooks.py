from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from repomem import hooks
from repomem.errors import HookError
from repomem.index import indexer, query
from tests.conftest import Repo, wait_until

OLD_HOOK = '#!/bin/sh\necho "old $@" >> "$(git rev-parse --git-dir)/old-hook.out"\ncat >> "$(git rev-parse --git-dir)/old-hook.stdin"\nexit 0\n'  # noqa: E501
TRUE = "/bin/true"  # a "python" that does nothing, for tests about the hook files only


def hook_dir(repo: Repo) -> Path:
    return repo.root / ".git" / "hooks"


def write_hook(path: Path, text: str, mode: int = 0o755) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    path.chmod(mode)


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


def test_post_rewrite_passes_standard_input_to_the_original_hook(repo: Repo) -> None:
    repo.write("a.py", "x = 1\n")
    repo.commit()
    write_hook(hook_dir(repo) / "post-rewrite", OLD_HOOK)
    hooks.install(repo.config(), python=TRUE)
    repo.git("commit", "-q", "--amend", "-m", "amended")
    out = (repo.root / ".git" / "old-hook.out").read_text()
    assert out == "old amend\n"
    assert len((repo.root / ".git" / "old-hook.stdin").read_text().split()) == 2  # old new


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


def test_a_missing_repomem_never_fails_the_git_command(repo: Repo) -> None:
    repo.write("a.py", "x = 1\n")
    hooks.install(repo.config(), python="/nonexistent/python3")
    assert hooks.status(repo.config())[0].state == "broken"
    env = {**os.environ, "PATH": "/usr/bin:/bin"}
    subprocess.run(["git", "add", "-A"], cwd=repo.root, check=True, env=env)
    done = subprocess.run(
        ["git", "commit", "-q", "-m", "x"], cwd=repo.root, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0 and done.stderr == ""
    log = hooks.log_path(repo.config())
    wait_until(lambda: log.exists() and "repomem not found" in log.read_text(), "the log line")


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


# husky 9's scripts in `.husky/_`: each runs the user's `.husky/<hook>` with `sh -e`
HUSKY_H = 'n=$(basename "$0"); s=$(dirname "$(dirname "$0")")/$n; [ -f "$s" ] || exit 0; sh -e "$s" "$@"\n'  # noqa: E501


# What a user's `.husky/<hook>` may do before its end, so that anything appended never runs
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


# husky 4 to 8: `.husky/<hook>` sources `_/husky.sh`, which runs the file again with `sh -e`
# and exits; what comes before that line runs twice
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
    write_hook(user_hook, existing + hooks._block("post-commit", TRUE, False))
    state = hooks.status(repo.config())[0]
    assert state.state == "outdated" and "reinstall" in state.detail, state
    assert hooks.install(repo.config(), python=TRUE)[0].state == "installed"
    assert user_hook.read_text().startswith(hooks.BLOCK_START)
    hooks.uninstall(repo.config())
    assert user_hook.read_text() == existing


def test_a_hook_replaced_by_another_tool_is_reported(repo: Repo) -> None:
    hooks.install(repo.config(), python=TRUE)
    write_hook(hook_dir(repo) / "post-commit", "#!/bin/sh\n# File generated by pre-commit\n")
    assert hooks.status(repo.config())[0].state == "foreign"
    hooks.uninstall(repo.config())  # someone else's hook is left alone
    assert "pre-commit" in (hook_dir(repo) / "post-commit").read_text()


# What `pre-commit install` writes when a hook is there already: it keeps that hook as
# `<hook>.legacy` and runs it from its own script ("migration mode")
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


def test_hooks_outside_git_are_a_clear_error(folder: Repo) -> None:
    with pytest.raises(HookError, match="not a git work tree"):
        hooks.install(folder.config())


def test_the_merge_driver_is_registered_used_by_git_and_removed(repo: Repo) -> None:
    repo.write(".gitattributes", "*.png binary")
    repo.write("REPOMEM.md", "base\n")
    repo.commit("base")
    # A driver that keeps both sides, to see git call it (the memory module supplies the real one).
    command = f"{sys.executable} -c \"import sys; a, b = sys.argv[1:3]; t = open(b).read(); open(a, 'a').write(t)\" %A %B"  # noqa: E501
    hooks.register_merge_driver(repo.config(), "memtest", command)
    assert repo.git("config", "merge.memtest.driver").strip() == command
    attrs = (repo.root / ".gitattributes").read_text()
    assert attrs == "*.png binary\n/REPOMEM.md merge=memtest\n"
    repo.commit("driver")
    repo.git("checkout", "-q", "-b", "other")
    repo.write("REPOMEM.md", "theirs\n")
    repo.commit("theirs")
    repo.git("checkout", "-q", "main")
    repo.write("REPOMEM.md", "ours\n")
    repo.commit("ours")
    repo.git("merge", "-q", "--no-edit", "other")  # no conflict: the driver merged
    assert (repo.root / "REPOMEM.md").read_text() == "ours\ntheirs\n"
    hooks.unregister_merge_driver(repo.config(), "memtest")
    # put back byte for byte: the file had no final newline
    assert (repo.root / ".gitattributes").read_bytes() == b"*.png binary"
    with pytest.raises(subprocess.CalledProcessError):
        repo.git("config", "merge.memtest.driver")


@pytest.mark.parametrize("before", ["*.png binary\n", "*.png binary\r\n", "*.png binary"])
def test_unregistering_the_merge_driver_restores_the_attributes_byte_for_byte(
    repo: Repo, before: str
) -> None:
    (repo.root / ".gitattributes").write_bytes(before.encode())
    hooks.register_merge_driver(repo.config(), "memtest", "true %A")
    hooks.unregister_merge_driver(repo.config(), "memtest")
    assert (repo.root / ".gitattributes").read_bytes() == before.encode()


def test_install_with_the_merge_driver_flag_registers_the_memory_merge(repo: Repo) -> None:
    hooks.install(repo.config(), python=TRUE, merge_driver=True)
    state = hooks.merge_driver_state(repo.config())
    assert state["gitattributes"] is True
    assert str(state["driver"]).endswith("-m repomem memory merge %O %A %B")
    hooks.uninstall(repo.config())
    assert hooks.merge_driver_state(repo.config()) == {"driver": None, "gitattributes": False}
    assert not (repo.root / ".gitattributes").exists()


def test_a_queued_refresh_absorbs_later_hooks(repo: Repo) -> None:
    repo.write("a.py", "x = 1\n")
    repo.commit()
    hooks.install(repo.config())
    log = hooks.log_path(repo.config())
    marker = log.parent / "hooks.pending"
    marker.parent.mkdir(parents=True, exist_ok=True)
    marker.write_text(f"{os.getpid()}\n")  # a live process is "waiting for the lock"
    repo.commit("absorbed")
    assert "post-commit: a refresh is already queued" in log.read_text()
    assert "repomem index" not in log.read_text()
    marker.write_text("999999999\n")  # that process died: the next hook starts a refresh
    head = repo.commit("started")
    wait_until(lambda: "Indexed" in log.read_text(), "the background index")
    assert query.status(repo.config())["indexed_commit"] == head
    assert not marker.exists()  # the refresh cleared it once it held the lock


def test_refresh_clears_only_its_own_marker(repo: Repo, tmp_path: Path) -> None:
    repo.write("a.py", "x = 1\n")
    marker = tmp_path / "pending"
    marker.write_text("12345\n")
    report = hooks.refresh(repo.config(), marker)
    assert report.added == ["a.py"]
    assert marker.exists()
    marker.write_text(f"{os.getpid()}\n")
    hooks.refresh(repo.config(), marker)
    assert not marker.exists()


def cache_files(repo: Repo) -> dict[str, tuple[int, int]]:
    """The pack caches in the state folder: name -> (inode, mtime)."""
    from repomem.index import indexer

    state = indexer.state_dir(repo.config())
    return {
        p.name: (p.stat().st_ino, p.stat().st_mtime_ns)
        for p in (state / "graph.pickle", state / "history.json")
        if p.exists()
    }


def test_a_refresh_folds_rows_the_fulltext_index_lacks_into_it(repo: Repo) -> None:
    repo.write("a.py", "def first():\n    pass\n")
    repo.commit()
    cfg = repo.config()
    indexer.run(cfg)
    repo.write("a.py", "def second():\n    pass\n")
    indexer.update(cfg, ["a.py"], optimize=False)  # a watcher's save, say
    assert indexer.open_store(cfg).indexes_lagging(share=0.0, floor=0)
    hooks.refresh(cfg)
    assert not indexer.open_store(cfg).indexes_lagging(share=0.0, floor=0)


def test_a_refresh_prepares_what_the_next_pack_reads(repo: Repo) -> None:
    from repomem.index.graph import cache as graph_cache
    from repomem.pack import builder

    repo.write("a.py", "from b import helper\n\ndef main():\n    return helper()\n")
    repo.write("b.py", "def helper():\n    return 1\n")
    repo.commit("first")
    for change in ("second", "third"):
        hooks.refresh(repo.config())
        ready = cache_files(repo)
        assert set(ready) == {"graph.pickle", "history.json"}
        graph_cache._MEMO.clear()  # a new process: only the files on disk
        builder.build(repo.config(), "why does main call helper", refresh=False)
        assert cache_files(repo) == ready  # taken as they were, not built again
        repo.write("b.py", f"def helper():\n    return 2\n\ndef {change}():\n    pass\n")
        repo.commit(change)  # the index and HEAD move: the next refresh renews both


@pytest.mark.parametrize("name", ["./REPOMEM.md", "my memory.md", "mem[1].md", "docs/mém ory*.md"])
def test_the_merge_driver_applies_to_the_memory_file_whatever_its_name(
    repo: Repo, name: str
) -> None:
    repo.write(".repomem", f'[memory]\nfile = "{name}"\n')
    cfg = repo.config()
    hooks.register_merge_driver(cfg, "memtest", "true %A")
    rel = name.removeprefix("./")
    out = subprocess.run(
        ["git", "check-attr", "merge", "--", rel, "other.md", "mem1.md"],
        cwd=repo.root, capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    assert out.count("merge: memtest") == 1 and out.count("merge: unspecified") == 2, out
    assert hooks.merge_driver_state(cfg, "memtest")["gitattributes"] is True


def test_a_python_that_lost_repomem_is_reported_and_logged(
    repo: Repo, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo.write("a.py", "x = 1\n")
    hooks.install(repo.config(), python="/bin/false")  # runs, but cannot `import repomem`
    monkeypatch.setenv("PATH", "/usr/bin:/bin")  # and no `repomem` command to fall back to
    state = hooks.status(repo.config())[0]
    assert state.state == "broken" and "cannot import repomem" in state.detail
    subprocess.run(["git", "add", "-A"], cwd=repo.root, check=True)
    done = subprocess.run(["git", "commit", "-q", "-m", "x"], cwd=repo.root, capture_output=True)
    assert done.returncode == 0
    log = hooks.log_path(repo.config())
    wait_until(lambda: log.exists() and "no longer has it" in log.read_text(), "the log line")


def test_start_refresh_runs_the_hooks_refresh_in_the_background_unless_one_is_queued(
    repo: Repo,
) -> None:
    repo.write("a.py", "x = 1\n")
    head = repo.commit()
    cfg = repo.config()
    log = hooks.log_path(cfg)
    marker = log.parent / "hooks.pending"
    marker.parent.mkdir(parents=True, exist_ok=True)
    marker.write_text(f"{os.getpid()}\n")  # a live process is "waiting for the lock"
    hooks.start_refresh(cfg, name="test")
    wait_until(lambda: log.exists() and "test: a refresh is already queued" in log.read_text(),
               "the queued line")  # fmt: skip
    assert "test: repomem index" not in log.read_text()
    marker.write_text("999999999\n")  # that process died
    hooks.start_refresh(cfg, name="test")
    wait_until(lambda: "test: repomem index" in log.read_text(), "the started line")
    wait_until(lambda: "Indexed" in log.read_text(), "the background index")
    assert query.status(cfg)["indexed_commit"] == head
    wait_until(lambda: not marker.exists(), "the marker cleared")  # the refresh wrote its pid


def test_start_refresh_in_a_folder_without_git_runs_the_refresh_too(folder: Repo) -> None:
    folder.write("a.py", "x = 1\n")
    cfg = folder.config()
    hooks.start_refresh(cfg, name="test")
    log = hooks.log_path(cfg)
    assert "test: repomem index" in log.read_text()
    wait_until(lambda: "Indexed" in log.read_text(), "the background index")
    for proc in hooks._STARTED:  # a child of this process: reaped here, not at exit
        proc.wait(timeout=60)
    assert query.status(cfg)["files"] == 1


def test_a_worktree_added_gets_its_index_from_the_main_one_in_the_background(
    repo: Repo,
) -> None:
    from repomem.index import indexer

    repo.write("a.py", "def first():\n    pass\n")
    repo.commit()
    indexer.run(repo.config())
    hooks.install(repo.config())
    path = repo.root.parent / "wt"
    repo.git("worktree", "add", "-q", "-b", "wt", str(path))
    wt = Repo(path, git=False)
    log = hooks.log_path(wt.config())
    wait_until(lambda: log.exists() and "Indexed" in log.read_text(), "the worktree's index")
    assert "post-checkout: repomem index" in log.read_text()
    assert f"Started from the index of the worktree at {repo.root.resolve()}" in log.read_text()
    assert query.status(wt.config())["fresh"]
