from __future__ import annotations

from pathlib import Path

import pytest

from repomem import config
from repomem.errors import ConfigError, NotARepoError
from tests.conftest import Repo


def test_defaults_apply_without_a_config_file(repo: Repo) -> None:
    cfg = config.load(repo.root)
    assert cfg.root == repo.root.resolve()
    assert cfg.file is None
    assert cfg.index.max_file_size == 1_048_576


def test_root_is_found_by_walking_up_from_a_subdirectory(repo: Repo) -> None:
    sub = repo.root / "a" / "b"
    sub.mkdir(parents=True)
    assert config.find_root(sub) == repo.root.resolve()


def test_a_repomem_file_marks_the_root_even_without_git(folder: Repo) -> None:
    folder.write(".repomem", "[index]\nmax_file_size = 10\n")
    sub = folder.root / "src"
    sub.mkdir()
    cfg = config.load(sub)
    assert cfg.root == folder.root.resolve()
    assert cfg.index.max_file_size == 10


def test_precedence_is_defaults_then_file_then_environment_then_flags(repo: Repo) -> None:
    repo.write(".repomem", "[index]\nmax_file_size = 100\nworkers = 3\nlock_timeout = 5\n")
    env = {"REPOMEM_INDEX_WORKERS": "2", "REPOMEM_INDEX_LOCK_TIMEOUT": "7.5"}
    cfg = config.load(repo.root, overrides={"index.workers": 1}, environ=env)
    assert cfg.index.max_file_size == 100  # file
    assert cfg.index.lock_timeout == 7.5  # environment beats file
    assert cfg.index.workers == 1  # flag beats environment


def test_environment_lists_accept_commas_or_json(repo: Repo) -> None:
    cfg = config.load(repo.root, environ={"REPOMEM_INDEX_EXCLUDE": "a/*, b/*"})
    assert cfg.index.exclude == ["a/*", "b/*"]
    cfg = config.load(repo.root, environ={"REPOMEM_INDEX_EXCLUDE": '["c/*"]'})
    assert cfg.index.exclude == ["c/*"]


def test_unknown_key_is_an_error_naming_the_key_and_the_file(repo: Repo) -> None:
    path = repo.write(".repomem", "[index]\nmax_fil_size = 3\n")
    with pytest.raises(ConfigError) as err:
        config.load(repo.root)
    assert "index.max_fil_size" in str(err.value)
    assert str(path) in str(err.value)
    assert "\n" not in str(err.value)
    # it names the key meant, not `.repomem.example` (a file an installed repomem has not)
    assert "did you mean `index.max_file_size`?" in str(err.value)
    assert ".repomem.example" not in str(err.value)


def test_unknown_section_is_an_error(repo: Repo) -> None:
    repo.write(".repomem", "[indexx]\nworkers = 1\n")
    with pytest.raises(ConfigError, match="indexx"):
        config.load(repo.root)


@pytest.mark.parametrize(
    ("line", "key"),
    [
        ("max_file_size = 'big'", "index.max_file_size"),
        ("skip_generated = 1", "index.skip_generated"),
        ("exclude = 'a'", "index.exclude"),
        ("exclude = [1, 2]", "index.exclude"),
        ("max_file_size = true", "index.max_file_size"),
    ],
)
def test_wrong_type_is_an_error_naming_the_key(repo: Repo, line: str, key: str) -> None:
    repo.write(".repomem", f"[index]\n{line}\n")
    with pytest.raises(ConfigError, match=key.replace(".", r"\.")):
        config.load(repo.root)


@pytest.mark.parametrize(
    ("section", "line", "key", "span"),
    [
        ("index", "max_file_size = -1", "index.max_file_size", "at least 1"),
        ("memory", "duplicate_similarity = 5", "memory.duplicate_similarity", "between 0 and 1"),
        ("watch", "debounce_ms = -100", "watch.debounce_ms", "at least 0"),
        ("pack", "memory_share = 1.5", "pack.memory_share", "between 0 and 1"),
    ],
)
def test_a_number_out_of_its_range_is_an_error_naming_the_key_and_the_range(
    repo: Repo, section: str, line: str, key: str, span: str
) -> None:
    # `max_file_size = -1` silently left every file out of the index
    repo.write(".repomem", f"[{section}]\n{line}\n")
    with pytest.raises(ConfigError, match=key.replace(".", r"\.") + ".*" + span):
        config.load(repo.root)


def test_bad_environment_value_names_the_variable(repo: Repo) -> None:
    with pytest.raises(ConfigError, match="REPOMEM_INDEX_WORKERS"):
        config.load(repo.root, environ={"REPOMEM_INDEX_WORKERS": "many"})


def test_unknown_environment_key_in_a_known_section_is_an_error(repo: Repo) -> None:
    with pytest.raises(ConfigError, match="index.nope"):
        config.load(repo.root, environ={"REPOMEM_INDEX_NOPE": "1"})


@pytest.mark.parametrize("value", ["relhome", "./cache/repomem"])
def test_a_relative_repomem_home_is_an_error_naming_the_variable(repo: Repo, value: str) -> None:
    # relative, it would put the store and caches in whatever folder a command runs from
    with pytest.raises(ConfigError, match=r"REPOMEM_HOME.*absolute"):
        config.load(repo.root, environ={"REPOMEM_HOME": value})
    config.load(repo.root, environ={"REPOMEM_HOME": "~/cache/repomem"})  # the home folder's


def test_invalid_toml_is_a_one_line_error(repo: Repo) -> None:
    repo.write(".repomem", "[index\n")
    with pytest.raises(ConfigError, match="not valid TOML"):
        config.load(repo.root)


def test_a_config_file_that_is_not_utf8_says_so(repo: Repo) -> None:
    (repo.root / ".repomem").write_bytes(b"[index]\nexclude = ['caf\xe9']\n")
    with pytest.raises(ConfigError, match=r"not UTF-8 text .*save it as UTF-8"):
        config.load(repo.root)


def test_missing_directory_is_not_a_repo_error(tmp_path: Path) -> None:
    with pytest.raises(NotARepoError, match="does not exist"):
        config.load(tmp_path / "nope")


def test_example_file_documents_every_key_with_its_default() -> None:
    example = Path(__file__).parents[1] / ".repomem.example"
    packaged = Path(config.__file__).parent / "data" / "repomem.example.toml"
    assert example.read_text(encoding="utf-8") == packaged.read_text(encoding="utf-8")
    # Uncommenting every key must give exactly the defaults.
    lines = []
    for line in example.read_text(encoding="utf-8").splitlines():
        if line.startswith("# ") and " = " in line and not line.startswith("# ("):
            lines.append(line[2:])
        elif line.startswith("["):
            lines.append(line)
    parsed = config.tomllib.loads("\n".join(lines))
    expected = config.tomllib.loads(config.defaults_as_toml())
    assert parsed == expected


def test_a_bad_extra_pattern_names_the_file_and_the_key(repo: Repo) -> None:
    repo.write(".repomem", '[secrets]\nextra_patterns = ["(["]\n')
    with pytest.raises(ConfigError, match=r"`secrets.extra_patterns` in `.*\.repomem` holds"):
        config.load(repo.root)


def test_a_byte_order_mark_before_the_settings_is_accepted(repo: Repo) -> None:
    (repo.root / ".repomem").write_bytes("\ufeff[pack]\nbudget = 1234\n".encode())
    assert config.load(repo.root).pack.budget == 1234


def test_the_disk_root_or_home_folder_is_not_taken_for_a_project(tmp_path: Path) -> None:
    with pytest.raises(NotARepoError, match="not a project folder"):
        config.find_root("/")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("HOME", str(tmp_path))
        with pytest.raises(NotARepoError, match="not a project folder"):
            config.find_root(tmp_path)
        (tmp_path / ".repomem").write_text("", encoding="utf-8")
        assert config.find_root(tmp_path) == tmp_path.resolve()


def test_a_folder_inside_a_bare_repository_is_not_taken_for_a_project(tmp_path: Path) -> None:
    import subprocess

    bare = tmp_path / "shared.git"
    subprocess.run(["git", "init", "-q", "--bare", str(bare)], check=True)
    with pytest.raises(NotARepoError, match="bare git repository"):
        config.find_root(bare / "hooks")
