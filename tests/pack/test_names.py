from __future__ import annotations

import pytest

from repomem.pack import names
from tests.conftest import Repo
from tests.pack.ranking import index_by_path, ranked_in


def test_a_file_named_by_a_word_of_the_task_rises_by_that_words_rarity(repo: Repo) -> None:
    repo.write("docs_tool/ext/autodoc/__init__.py", "def setup(app):\n    return {}\n")
    repo.write("docs_tool/ext/autodoc/typehints.py", "def merge(app, node):\n    return node\n")
    repo.write("docs_tool/ext/autodoc/mock.py", "def mock(modnames):\n    return []\n")
    for i in range(6):
        repo.write(f"docs_tool/util/part_{i}.py", f"def helper_{i}():\n    return {i}\n")
    repo.commit()
    ranked = ranked_in(repo, "`autodoc_typehints = 'description'` puts a return type on classes")
    by_path = index_by_path(ranked)
    assert by_path["docs_tool/ext/autodoc/typehints.py"].signals["path"] == 1.0
    assert by_path["docs_tool/ext/autodoc/mock.py"].signals.get("path", 0) < 0.5
    assert "docs_tool/util/part_0.py" not in by_path or not by_path[
        "docs_tool/util/part_0.py"
    ].signals.get("path")
    assert ranked[0].path == "docs_tool/ext/autodoc/typehints.py"


def test_two_words_of_the_task_name_a_file_that_writes_them_as_one(repo: Repo) -> None:
    repo.write("docs_tool/builders/manpage.py", "def write(app):\n    return app\n")
    repo.write("docs_tool/builders/html.py", "def write(app):\n    return app\n")
    repo.write("docs_tool/builders/text.py", "def write(app):\n    return app\n")
    repo.commit()
    ranked = ranked_in(repo, "Generate man page section directories")
    assert ranked[0].path == "docs_tool/builders/manpage.py"
    assert ranked[0].signals["path"] == 1.0


def test_a_file_name_shared_by_many_files_names_none_of_them(repo: Repo) -> None:
    for pkg in "abcdefg":
        repo.write(f"{pkg}/__init__.py", f"NAME = {pkg!r}\n")
    repo.write("a/core.py", "def run():\n    return 1\n")
    repo.commit()
    ranked = ranked_in(repo, "My package's `mypkg/__init__.py` imports a/core.py and fails")
    by_path = index_by_path(ranked)
    assert by_path["a/core.py"].signals["mention"] == 1.0
    assert all(by_path[f"{p}/__init__.py"].signals.get("mention", 0) == 0 for p in "abcdefg")


def _traceback_repo(repo: Repo) -> str:
    repo.write("src/tool/main.py", "def run(args):\n    return dispatch(args)\n")
    repo.write("src/tool/dispatch.py", "def dispatch(args):\n    return convert(args)\n")
    repo.write("src/tool/convert.py", "def convert(args):\n    return int(args[0])\n")
    repo.commit()
    return (
        "Crash on start\n\nTraceback (most recent call last):\n"
        '  File "/usr/lib/python3/site-packages/tool/main.py", line 2, in run\n'
        '  File "/usr/lib/python3/site-packages/tool/dispatch.py", line 2, in dispatch\n'
        '  File "/usr/lib/python3/site-packages/tool/convert.py", line 2, in convert\n'
        "ValueError: invalid literal for int()\n"
    )


def test_installed_frames_name_the_source_files_and_functions(
    repo: Repo, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(names, "FRAME_OUTER", 1.0)
    ranked = index_by_path(ranked_in(repo, _traceback_repo(repo)))
    for path in ("src/tool/main.py", "src/tool/dispatch.py", "src/tool/convert.py"):
        assert ranked[path].signals["mention"] == 1.0
    hits = [
        h
        for p in ("main", "dispatch", "convert")
        for h in ranked[f"src/tool/{p}.py"].symbols.values()
    ]
    assert {h.name for h in hits} >= {"run", "dispatch", "convert"}
    assert any(h.reason.startswith("is in a stack frame quoted in the task (line 2)") for h in hits)


def test_the_innermost_frame_of_a_traceback_leads_when_outer_frames_weigh_less(
    repo: Repo, monkeypatch: pytest.MonkeyPatch
) -> None:
    text = _traceback_repo(repo)
    monkeypatch.setattr(names, "FRAME_OUTER", 0.6)
    order = ranked_in(repo, text)
    ranked = index_by_path(order)
    assert ranked["src/tool/convert.py"].signals["mention"] == 1.0
    assert ranked["src/tool/main.py"].signals["mention"] == pytest.approx(0.6)
    assert order[0].path == "src/tool/convert.py"


def test_a_go_panic_names_the_function_of_its_innermost_frame(repo: Repo) -> None:
    funcs = "".join(f"func (c *Command) step{i}() {{\n\tc.n++\n}}\n\n" for i in range(5))
    repo.write("command.go", f"package cobra\n\ntype Command struct{{ n int }}\n\n{funcs}")
    repo.commit()
    text = (
        "panic: boom\n\ngoroutine 1 [running]:\n"
        "github.com/spf13/cobra.(*Command).step3(0xc0000f2000)\n"
        "\t/home/me/go/pkg/mod/github.com/spf13/cobra@v1.8.0/command.go:18 +0x1a5\n"
    )
    ranked = index_by_path(ranked_in(repo, text))
    hits = ranked["command.go"].symbols.values()
    framed = [h.name for h in hits if h.reason.startswith("is in a stack frame")]
    assert framed == ["step3"]


def test_a_frames_function_reads_as_a_sentence_in_its_reason(repo: Repo) -> None:
    """Rendered after the symbol's kind: it read "method that in a stack frame ..."."""
    filler = "".join(f"\n\ndef helper_{i}(a, b):\n    return a * {i} + b\n" for i in range(200))
    code = "def outer():\n    return inner()\n\n\ndef inner():\n    1 / 0\n"
    repo.write("tool.py", code + filler)  # too large to be packed whole
    repo.commit()
    text = (
        "Traceback (most recent call last):\n"
        '  File "tool.py", line 2, in outer\n'
        '  File "tool.py", line 6, in inner\n'
        "ZeroDivisionError: division by zero\n"
    )
    from repomem.pack import builder

    items = builder.build(repo.config(), text, budget=1000).to_dict()["items"]
    reasons = {i["symbol"]: i["reason"] for i in items if i["kind"] == "symbol"}
    assert reasons["inner"] == "function that is in a stack frame quoted in the task (line 6)"


def test_a_bare_config_file_name_can_leave_the_docs_penalty_on(
    repo: Repo, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo.write("examples/pyproject.toml", "[tool.linter]\nignore-paths = []\n")
    repo.write("linter/expand.py", "def expand_modules(ignore_paths):\n    return []\n")
    repo.commit()
    text = "ignore-paths from pyproject.toml is not applied by expand_modules"
    monkeypatch.setattr(names, "BARE_TEXT_MENTION", 1.0)
    ranked = index_by_path(ranked_in(repo, text))
    assert ranked["examples/pyproject.toml"].signals["mention"] == 1.0  # named: no penalty
    monkeypatch.setattr(names, "BARE_TEXT_MENTION", 0.4)
    order = ranked_in(repo, text)
    assert index_by_path(order)["examples/pyproject.toml"].signals["mention"] == pytest.approx(0.4)
    assert order[0].path == "linter/expand.py"


def test_a_long_path_into_another_project_names_no_file_by_its_bare_name(repo: Repo) -> None:
    repo.write("src/_pytest/logging.py", "def catching_logs():\n    return 1\n")
    repo.write("src/_pytest/python.py", "def collect():\n    return 2\n")
    repo.write("setup.py", "def build():\n    return 3\n")
    repo.commit()
    by_path = index_by_path(
        ranked_in(repo, "/Users/me/code/bot/bot/logging.py:12: error; see setup.py")
    )
    assert not by_path.get("src/_pytest/logging.py") or not by_path[
        "src/_pytest/logging.py"
    ].signals.get("mention")
    by_path = index_by_path(ranked_in(repo, "/home/me/src/proj/setup.py:3: SyntaxError"))
    assert by_path["setup.py"].signals.get("mention")  # a root file: the repository's own
    by_path = index_by_path(ranked_in(repo, "/opt/venv/lib/site-packages/_pytest/logging.py:12"))
    assert by_path["src/_pytest/logging.py"].signals.get("mention")


@pytest.mark.parametrize(
    ("on_disk", "typed"), [("cafe\u0301", "caf\u00e9"), ("caf\u00e9", "cafe\u0301")]
)
def test_a_path_named_in_the_other_unicode_form_is_a_mention(
    repo: Repo, on_disk: str, typed: str
) -> None:
    repo.write(f"shop/{on_disk}.py", "def brew():\n    return 1\n")
    repo.write("shop/other.py", "def pour():\n    return 2\n")
    repo.commit()
    by_path = index_by_path(ranked_in(repo, f"The cups from shop/{typed}.py are cold"))
    assert by_path[f"shop/{on_disk}.py"].signals["mention"] == 1.0
