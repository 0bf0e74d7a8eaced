"""The memory file's merge driver: registered, used by git, removed byte for byte."""

from __future__ import annotations

import subprocess
import sys

import pytest

from repomem import hooks
from tests.conftest import Repo
from tests.hooks.hookfiles import TRUE


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
