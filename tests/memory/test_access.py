"""Safe writes: many processes writing at once lose nothing; a refused write changes nothing."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from repomem.errors import ConfigError, MemoryFileError
from repomem.memory import access, ops
from tests.conftest import Repo

WRITER = """
import sys
from repomem import config
from repomem.memory import ops
cfg = config.load(sys.argv[1])
w = sys.argv[2]
for i in range(int(sys.argv[3])):
    ops.remember(cfg, f"Writer {w} fact {i} concerns module_{w}_{i} only.")
"""


def test_parallel_writers_lose_no_fact(repo: Repo) -> None:
    repo.commit("init")
    writers, each = 4, 50
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", WRITER, str(repo.root), str(w), str(each)],
            stderr=subprocess.PIPE,
        )  # fmt: skip
        for w in range(writers)
    ]
    for p in procs:
        _, err = p.communicate(timeout=300)
        assert p.returncode == 0, err.decode()
    doc = access.load(repo.config())
    texts = {f.text for f in doc.facts()}
    assert len(texts) == writers * each
    assert doc.version == writers * each


def test_memory_file_outside_the_repository_is_a_config_error(repo: Repo) -> None:
    with pytest.raises(ConfigError, match="outside the repository"):
        access.memory_path(repo.config(**{"memory.file": "../elsewhere.md"}))


def test_a_memory_file_linked_outside_the_repository_is_named_as_a_link(
    repo: Repo, tmp_path: Path
) -> None:
    private = tmp_path / "private.md"
    private.write_text("Notes kept outside the repository.\n", encoding="utf-8")
    (repo.root / "REPOMEM.md").symlink_to(private)
    with pytest.raises(MemoryFileError) as err:
        access.load(repo.config())
    message = str(err.value)
    assert "`REPOMEM.md` is a symbolic link" in message and "`memory.file` =" not in message
    assert private.read_text(encoding="utf-8") == "Notes kept outside the repository.\n"


def test_a_custom_memory_path_is_used(repo: Repo) -> None:
    cfg = repo.config(**{"memory.file": "docs/MEMORY.md"})
    ops.remember(cfg, "Lives in docs.")
    assert "Lives in docs." in (repo.root / "docs/MEMORY.md").read_text(encoding="utf-8")


def test_a_broken_file_is_never_overwritten(repo: Repo) -> None:
    cfg = repo.config()
    ops.remember(cfg, "First.")
    path = repo.root / "REPOMEM.md"
    broken = path.read_text(encoding="utf-8").replace("· valid", "· maybe")
    path.write_text(broken, encoding="utf-8")
    with pytest.raises(MemoryFileError, match="line .*unknown status"):
        ops.remember(cfg, "Second.")
    assert path.read_text(encoding="utf-8") == broken


def test_not_utf8_is_a_clear_error(repo: Repo) -> None:
    (repo.root / "REPOMEM.md").write_bytes(b"\xff\xfe bad")
    with pytest.raises(MemoryFileError, match="not valid UTF-8"):
        access.load(repo.config())


def test_a_schema_0_file_is_migrated_on_the_first_write(repo: Repo) -> None:
    path = repo.write("REPOMEM.md", "# Our notes\n\nKeep the API stable.\n")
    ops.remember(repo.config(), "A fact.")
    text = path.read_text(encoding="utf-8")
    assert text.startswith("<!-- repomem:memory schema_version=1 version=1 -->\n# Our notes\n")
    assert "Keep the API stable." in text and "## Facts" in text


@pytest.mark.parametrize("name", [".git/config", "setup.py", "sub/.git/notes.md", "notes"])
def test_a_memory_file_that_is_not_a_markdown_file_outside_git_is_refused(
    repo: Repo, name: str
) -> None:
    # `remember` rewrote `.git/config` (git then refused to run) or `setup.py` as memory
    with pytest.raises(ConfigError, match="must be a Markdown or text file"):
        access.memory_path(repo.config(**{"memory.file": name}))


@pytest.mark.parametrize(
    ("key", "value"),
    [("pack.token_margin", float("nan")), ("index.lock_timeout", float("inf")),
     ("memory.on_secret", "banana"), ("pack.format", "")],
)  # fmt: skip
def test_a_setting_that_is_not_a_number_or_not_a_known_word_is_refused(
    repo: Repo, key: str, value: object
) -> None:
    with pytest.raises(ConfigError, match=key):
        repo.config(**{key: value})
