"""What the hook scripts do when git runs them: the preserved hook's input, a missing repomem."""

from __future__ import annotations

import os
import subprocess

from repomem import hooks
from tests.conftest import Repo, wait_until
from tests.hooks.hookfiles import OLD_HOOK, TRUE, hook_dir, write_hook


def test_post_rewrite_passes_standard_input_to_the_original_hook(repo: Repo) -> None:
    repo.write("a.py", "x = 1\n")
    repo.commit()
    write_hook(hook_dir(repo) / "post-rewrite", OLD_HOOK)
    hooks.install(repo.config(), python=TRUE)
    repo.git("commit", "-q", "--amend", "-m", "amended")
    out = (repo.root / ".git" / "old-hook.out").read_text()
    assert out == "old amend\n"
    assert len((repo.root / ".git" / "old-hook.stdin").read_text().split()) == 2  # old new


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
