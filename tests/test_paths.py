"""Client paths are confined to the repository root."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from repomem.errors import InputError
from repomem.paths import check_glob, confine, confine_glob
from tests.conftest import Repo


def test_relative_paths_inside_the_repository_are_normalised(repo: Repo) -> None:
    repo.write("src/a.py", "x = 1\n")
    cfg = repo.config()
    assert confine(cfg, "src/a.py") == "src/a.py"
    assert confine(cfg, "./src//a.py") == "src/a.py"
    assert confine(cfg, "src\\a.py") == "src/a.py"
    assert confine(cfg, "src/new.py") == "src/new.py"  # need not exist yet


@pytest.mark.parametrize(
    ("raw", "words"),
    [
        ("", "empty"),
        (".", "root"),
        ("../x.py", "`..`"),
        ("src/../../x.py", "`..`"),
        ("/etc/passwd", "absolute"),
        ("\\\\server\\share", "absolute"),
        ("C:/x.py", "absolute"),
        ("~/x.py", "absolute"),
        ("a\x00b", "NUL"),
        ("out.py", "outside the repository"),
        ("outdir/x.py", "outside the repository"),
        (".env.production", "credential"),
        ("keys/id_rsa", "credential"),
        (".git/config", "inside `.git`"),
        ("sub/.git/HEAD", "inside `.git`"),
    ],
)
def test_escapes_and_credential_files_are_refused(
    repo: Repo, tmp_path: Path, raw: str, words: str
) -> None:
    (tmp_path / "x.py").write_text("x\n", encoding="utf-8")
    os.symlink(tmp_path / "x.py", repo.root / "out.py")
    os.symlink(tmp_path, repo.root / "outdir")
    with pytest.raises(InputError) as info:
        confine(repo.config(), raw)
    assert words in str(info.value)


def test_a_symlink_that_stays_inside_is_allowed(repo: Repo) -> None:
    repo.write("real.py", "x = 1\n")
    os.symlink(repo.root / "real.py", repo.root / "alias.py")
    assert confine(repo.config(), "alias.py") == "alias.py"


def test_a_symlink_to_a_credential_file_is_refused_like_the_file(repo: Repo) -> None:
    repo.write(".env", "DB_PASSWORD=x\n")
    os.symlink(".env", repo.root / "settings.py")
    with pytest.raises(InputError, match="credential file"):
        confine(repo.config(), "settings.py")


def test_a_path_too_long_for_the_file_system_is_an_input_error(repo: Repo) -> None:
    for raw in ("x" * 5000, "a/" * 2100 + "b.py"):
        with pytest.raises(InputError, match="longer than a file system allows"):
            confine(repo.config(), raw)


def test_absolute_paths_inside_the_repository_are_allowed_when_asked(
    repo: Repo, tmp_path: Path
) -> None:
    repo.write("src/a.py", "x = 1\n")
    cfg = repo.config()
    assert confine(cfg, str(repo.root / "src/a.py"), allow_absolute=True) == "src/a.py"
    with pytest.raises(InputError, match="is absolute"):
        confine(cfg, str(repo.root / "src/a.py"))
    with pytest.raises(InputError, match="outside the repository"):
        confine(cfg, str(tmp_path / "elsewhere.py"), allow_absolute=True)
    with pytest.raises(InputError, match="credential"):
        confine(cfg, str(repo.root / ".env"), allow_absolute=True)


def test_globs_may_not_be_absolute_or_climb_out() -> None:
    assert confine_glob("src/**/*.py") == "src/**/*.py"
    for bad in ("/etc/*", "../*", "a/../../b", "C:/x"):
        with pytest.raises(InputError):
            confine_glob(bad)


def test_a_glob_with_a_nul_byte_is_refused_like_a_path_with_one() -> None:
    # it matched nothing, so search_code said "No results" where file_overview named the NUL
    with pytest.raises(InputError, match="NUL byte"):
        confine_glob("src/\x00*.py")


@pytest.mark.parametrize(
    "glob", ["*.py", "src/[ab].py", "[!_]*", "[]]x", "[!]]x", "[[]literal", "a]b", "", "**/x"]
)
def test_a_glob_whose_sets_are_all_closed_is_taken_as_it_is(glob: str) -> None:
    assert check_glob(glob) == glob


@pytest.mark.parametrize("glob", ["[[", "src/[ab.py", "[", "x[!", "[]", "[!]", "[a][b"])
def test_a_glob_with_a_bracket_never_closed_is_refused_naming_it(glob: str) -> None:
    # fnmatch takes such a `[` literally: `search --path '[['` matched nothing, silently
    with pytest.raises(InputError) as err:
        check_glob(glob)
    assert str(err.value).startswith(f"The path glob `{glob}` has a `[` that is never closed")


def test_a_symlink_into_git_is_refused_like_the_path_itself(repo: Repo) -> None:
    os.symlink(".git/config", repo.root / "cfglink")
    os.symlink(".git", repo.root / "gitlink")
    for raw in ("cfglink", "gitlink/HEAD"):
        with pytest.raises(InputError, match="inside `.git`"):
            confine(repo.config(), raw)


NFC_NAME = "caf\u00e9.py"  # é composed, as most keyboards type it
NFD_NAME = "cafe\u0301.py"  # e + combining acute, as macOS writes file names


@pytest.mark.parametrize(("on_disk", "typed"), [(NFD_NAME, NFC_NAME), (NFC_NAME, NFD_NAME)])
def test_a_name_typed_in_the_other_unicode_form_gives_the_name_on_disk(
    repo: Repo, on_disk: str, typed: str
) -> None:
    repo.write(f"d\u00e9j\u00e0/{on_disk}", "x = 1\n")
    cfg = repo.config()
    assert confine(cfg, f"d\u00e9j\u00e0/{typed}") == f"d\u00e9j\u00e0/{on_disk}"
    assert confine(cfg, f"deja\u0300/{typed}".replace("deja", "de\u0301ja")) == (
        f"d\u00e9j\u00e0/{on_disk}"
    )
    assert confine(cfg, f"d\u00e9j\u00e0/{typed}x") == f"d\u00e9j\u00e0/{typed}x"  # no such file
