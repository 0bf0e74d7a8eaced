"""The repository's own git settings: paths ignored in this clone only."""

from __future__ import annotations

from repomem import vcs
from tests.conftest import Repo


def test_ignore_locally_adds_a_path_once_and_never_one_already_ignored(repo: Repo) -> None:
    exclude = repo.root / ".git" / "info" / "exclude"
    exclude.write_text("# local rules", encoding="utf-8")  # no final line break
    (repo.root / ".gitignore").write_text("*.log\n", encoding="utf-8")
    assert vcs.ignore_locally(repo.root, "notes/mine.json")
    assert not vcs.ignore_locally(repo.root, "notes/mine.json")  # ignored now
    assert not vcs.ignore_locally(repo.root, "build.log")  # ignored by .gitignore
    assert exclude.read_text(encoding="utf-8") == "# local rules\n/notes/mine.json\n"
    (repo.root / "notes").mkdir()
    (repo.root / "notes" / "mine.json").write_text("{}", encoding="utf-8")
    assert "mine.json" not in repo.git("status", "--porcelain", "--untracked-files=all")


def test_ignore_locally_without_git_does_nothing(folder: Repo) -> None:
    assert not vcs.ignore_locally(folder.root, "a.json")
    assert not (folder.root / ".git").exists()
