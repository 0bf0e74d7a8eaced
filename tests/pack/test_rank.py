from __future__ import annotations

import math

import pytest

from repomem.index import indexer
from repomem.pack import rank
from repomem.pack import task as tasks
from tests.conftest import Repo


@pytest.mark.parametrize(
    ("path", "vendored"),
    [
        ("sphinx/themes/basic/static/jquery-3.5.1.js", True),
        ("static/underscore-1.13.1.js", True),
        ("web/app.min.js", True),
        ("web/theme.min.css", True),
        ("lib/jquery.js", True),
        ("sphinx/themes/basic/static/doctools.js", False),
        ("src/app.js", False),
        ("numpy_compat_1.py", False),
    ],
)
def test_vendored_copies_of_web_libraries_are_damped_hardest(path: str, vendored: bool) -> None:
    assert (rank.penalty(path) == rank.VENDOR_PENALTY) is vendored


def test_tests_docs_and_text_rank_below_source_code() -> None:
    assert rank.penalty("src/app.py") == 1.0
    assert rank.penalty("tests/test_app.py") == rank.TEST_PENALTY
    assert rank.penalty("doc/conf.py") == rank.DOC_PENALTY
    assert rank.penalty("examples/plot_lines.py") == rank.DOC_PENALTY
    assert rank.penalty("README.md") == rank.TEXT_PENALTY
    assert rank.penalty("docs/usage.rst") == pytest.approx(rank.DOC_PENALTY * rank.TEXT_PENALTY)


@pytest.mark.parametrize(
    ("path", "bench"),
    [
        ("asv_bench/benchmarks/rolling.py", True),
        ("crates/globset/benches/bench.rs", True),
        ("bench/skip.py", True),
        ("metrics/src/main/java/com/google/gson/metrics/ParseBenchmark.java", True),
        ("sympy/core/benchmarks/bench_basic.py", True),
        ("tools/bench_parse.py", True),
        ("router_bench.go", True),
        ("src/router.bench.ts", True),
        ("src/benchmark_utils.py", False),
        ("src/pytest_benchmark/plugin.py", False),
        ("lib/workbench/view.ts", False),
    ],
)
def test_benchmark_sources_are_damped_like_examples(path: str, bench: bool) -> None:
    assert (rank.penalty(path) == rank.DOC_PENALTY) is bench


def _by_path(ranked: list[rank.Candidate]) -> dict[str, rank.Candidate]:
    return {c.path: c for c in ranked}


def _ranked(repo: Repo, text: str) -> list[rank.Candidate]:
    cfg = repo.config()
    indexer.run(cfg)
    store = indexer.open_store(cfg)
    return rank.rank(store, tasks.analyse(text), graph_cache=indexer.state_dir(cfg))


def test_a_vendored_library_matching_every_word_stays_below_the_code(repo: Repo) -> None:
    words = "render the toolbar button label when the theme changes"
    repo.write("app/toolbar.py", 'def render_label(theme):\n    """The toolbar."""\n    return 1\n')
    repo.write("app/static/jquery-3.5.1.js", f"// {words}\n" * 3)
    repo.commit()
    order = [c.path for c in _ranked(repo, f"The toolbar: {words}")]
    assert order.index("app/toolbar.py") < order.index("app/static/jquery-3.5.1.js")


def test_a_file_named_by_a_word_of_the_task_rises_by_that_words_rarity(repo: Repo) -> None:
    repo.write("docs_tool/ext/autodoc/__init__.py", "def setup(app):\n    return {}\n")
    repo.write("docs_tool/ext/autodoc/typehints.py", "def merge(app, node):\n    return node\n")
    repo.write("docs_tool/ext/autodoc/mock.py", "def mock(modnames):\n    return []\n")
    for i in range(6):
        repo.write(f"docs_tool/util/part_{i}.py", f"def helper_{i}():\n    return {i}\n")
    repo.commit()
    ranked = _ranked(repo, "`autodoc_typehints = 'description'` puts a return type on classes")
    by_path = _by_path(ranked)
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
    ranked = _ranked(repo, "Generate man page section directories")
    assert ranked[0].path == "docs_tool/builders/manpage.py"
    assert ranked[0].signals["path"] == 1.0


def test_a_file_name_shared_by_many_files_names_none_of_them(repo: Repo) -> None:
    for pkg in "abcdefg":
        repo.write(f"{pkg}/__init__.py", f"NAME = {pkg!r}\n")
    repo.write("a/core.py", "def run():\n    return 1\n")
    repo.commit()
    ranked = _ranked(repo, "My package's `mypkg/__init__.py` imports a/core.py and fails")
    by_path = _by_path(ranked)
    assert by_path["a/core.py"].signals["mention"] == 1.0
    assert all(by_path[f"{p}/__init__.py"].signals.get("mention", 0) == 0 for p in "abcdefg")


def test_the_best_chunk_scores_its_file_and_names_its_function(
    repo: Repo, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(rank.WEIGHTS, "bm25_chunk", 1.0)
    filler = "".join(f"def step_{i}(data):\n    return data + {i}\n\n" for i in range(40))
    body = "    # renew the expired certificate chain before the handshake\n    return chain\n"
    repo.write("pkg/big.py", f"{filler}def refresh(chain):\n{body}\n{filler}")
    repo.write("pkg/other.py", "def certificate_path():\n    return 'x'\n")
    repo.commit()
    ranked = _by_path(_ranked(repo, "Renewing an expired certificate chain fails"))
    big = ranked["pkg/big.py"]
    assert big.signals["bm25_chunk"] == pytest.approx(1.0)
    (hit,) = [h for h in big.symbols.values() if h.name == "refresh"]
    assert hit.reason == "has a body that matches the task"
    assert hit.start_line == 121


def test_no_chunk_search_while_its_weight_is_zero(
    repo: Repo, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(rank.WEIGHTS, "bm25_chunk", 0.0)
    repo.write("pkg/a.py", "def refresh(chain):\n    return 'renew expired certificate chain'\n")
    repo.commit()
    assert all("bm25_chunk" not in c.signals for c in _ranked(repo, "renew expired certificate"))


def test_a_file_referenced_by_many_loses_by_how_many(
    repo: Repo, monkeypatch: pytest.MonkeyPatch
) -> None:
    text = "def parse_config(path):\n    '''Read the settings file.'''\n    return path\n"
    repo.write("pkg/hub.py", text)
    repo.write("pkg/leaf.py", text.replace("parse_config", "load_config"))
    for i in range(15):  # 15 modules use the hub
        repo.write(f"pkg/user_{i}.py", f"from pkg.hub import parse_config\n\nX{i} = parse_config\n")
    repo.write("pkg/caller.py", "from pkg.leaf import load_config\n\nY = load_config\n")
    repo.commit()
    task = "Reading the settings file fails"
    monkeypatch.setattr(rank, "HUB_WEIGHT", 0.0)
    plain = {c.path: c.score for c in _ranked(repo, task)}
    monkeypatch.setattr(rank, "HUB_WEIGHT", 0.12)
    damped = {c.path: c.score for c in _ranked(repo, task)}
    assert plain["pkg/hub.py"] - damped["pkg/hub.py"] == pytest.approx(0.12 * math.log(16))
    assert plain["pkg/leaf.py"] - damped["pkg/leaf.py"] == pytest.approx(0.12 * math.log(2))
    monkeypatch.setattr(rank, "HUB_WEIGHT", 10.0)  # more than any file's score: floored at 0
    floored = {c.path: c.score for c in _ranked(repo, task)}
    assert floored["pkg/hub.py"] == 0.0 and plain["pkg/hub.py"] > 0


def test_uncommitted_work_rises_without_seeding_anything(
    repo: Repo, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo.write("pkg/parser.py", "def parse_header(line):\n    return line.split(':')\n")
    repo.write("pkg/wip.py", "from pkg.helpers import tidy\n\ndef draft():\n    return tidy()\n")
    repo.write("pkg/helpers.py", "def tidy():\n    return 1\n")
    for i in range(12):
        repo.write(f"pkg/other_{i}.py", f"def header_{i}(line):\n    return line\n")
    repo.commit()
    cfg = repo.config()
    indexer.run(cfg)
    store = indexer.open_store(cfg)
    signals = tasks.analyse("parse_header drops the value of a header line")
    state = indexer.state_dir(cfg)
    clean = {c.path: c for c in rank.rank(store, signals, graph_cache=state)}
    ranked = rank.rank(
        store, signals, graph_cache=state, uncommitted=["pkg/wip.py", "gone.py", ".env"]
    )
    work = {c.path: c for c in ranked}
    assert ranked[0].path == "pkg/parser.py"  # the match still leads
    assert work["pkg/wip.py"].signals["work"] == 1.0
    assert "has uncommitted changes" in work["pkg/wip.py"].reason
    assert work["pkg/wip.py"].score > clean.get("pkg/wip.py", rank.Candidate("")).score
    assert "gone.py" not in work and ".env" not in work  # only indexed files
    # a prior, not evidence: what it imports gains nothing from it
    assert work["pkg/helpers.py"].score == clean["pkg/helpers.py"].score
    # a change sweeping over many files says less of each
    sweep = [f"pkg/other_{i}.py" for i in range(12)] + ["pkg/wip.py"]
    spread = rank.rank(store, signals, graph_cache=state, uncommitted=sweep)
    assert {c.signals.get("work") for c in spread if c.path in sweep} == {1.0}  # 13 <= 20
    monkeypatch.setattr(rank, "WORK_FILES", 4)
    spread = rank.rank(store, signals, graph_cache=state, uncommitted=sweep)
    assert {c.signals.get("work") for c in spread if c.path in sweep} == {4 / 13}


def test_a_task_naming_an_issue_finds_the_commits_that_name_it(repo: Repo) -> None:
    for name in ("shapes", "colors", "units", "values", "bases"):
        repo.write(f"pkg/{name}.py", f"def {name}_value(x):\n    return x\n")
    repo.commit("Start")
    repo.write("pkg/bases.py", "def bases_value(x):\n    return -x\n")
    fix = repo.commit("Keep the dotted names of stand-ins (#8164)")
    repo.write("pkg/units.py", "def units_value(x):\n    return x + 1\n")
    repo.commit("Tidy #816 and #81640")
    task = "Subclass documentation shows a truncated parent, a regression of #8164"
    ranked = _ranked(repo, task)
    assert ranked[0].path == "pkg/bases.py"
    assert f"past commit like the task ({fix[:10]} “Keep the dotted names" in ranked[0].reason
    assert "commits" not in next(c for c in ranked if c.path == "pkg/units.py").signals


def test_files_changed_by_commits_like_the_task_rise(
    repo: Repo, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("shapes", "colors", "units", "values"):
        repo.write(f"pkg/{name}.py", f"def {name}_value(x):\n    return x\n")
    repo.commit("Start")
    repo.write("pkg/values.py", "def values_value(x):\n    return -x\n")
    fix = repo.commit("Fix the remainder of negative operands\n\nIt rounded toward zero.")
    repo.write("pkg/shapes.py", "def shapes_value(x):\n    return x + 1\n")
    repo.write("pkg/colors.py", "def colors_value(x):\n    return x + 1\n")
    repo.commit("Remainder cleanup")
    repo.write("pkg/shapes.py", "def shapes_value(x):\n    return x + 2\n")
    repo.write("pkg/units.py", "def units_value(x):\n    return x + 1\n")
    repo.commit("Remainder cleanup")  # shapes' second match: its best commit counts, not both
    task = "The remainder of negative operands is wrong"
    ranked = _ranked(repo, task)
    signal = {c.path: c.signals.get("commits", 0.0) for c in ranked}
    assert ranked[0].path == "pkg/values.py"  # last by name: only its history lifts it
    assert signal["pkg/values.py"] == pytest.approx(1.0)
    # weaker matches, each shared by two files
    assert 0 < signal["pkg/shapes.py"] == signal["pkg/colors.py"] == signal["pkg/units.py"] < 0.5
    assert f"past commit like the task ({fix[:10]} “Fix the remainder" in ranked[0].reason
    monkeypatch.setitem(rank.WEIGHTS, "commits", 0.0)
    assert all("commits" not in c.signals for c in _ranked(repo, task))


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
    monkeypatch.setattr(rank, "FRAME_OUTER", 1.0)
    ranked = _by_path(_ranked(repo, _traceback_repo(repo)))
    for path in ("src/tool/main.py", "src/tool/dispatch.py", "src/tool/convert.py"):
        assert ranked[path].signals["mention"] == 1.0
    hits = [
        h
        for p in ("main", "dispatch", "convert")
        for h in ranked[f"src/tool/{p}.py"].symbols.values()
    ]
    assert {h.name for h in hits} >= {"run", "dispatch", "convert"}
    assert any(h.reason.startswith("in a stack frame quoted in the task (line 2)") for h in hits)


def test_the_innermost_frame_of_a_traceback_leads_when_outer_frames_weigh_less(
    repo: Repo, monkeypatch: pytest.MonkeyPatch
) -> None:
    text = _traceback_repo(repo)
    monkeypatch.setattr(rank, "FRAME_OUTER", 0.6)
    order = _ranked(repo, text)
    ranked = _by_path(order)
    assert ranked["src/tool/convert.py"].signals["mention"] == 1.0
    assert ranked["src/tool/main.py"].signals["mention"] == pytest.approx(0.6)
    assert order[0].path == "src/tool/convert.py"


def test_a_bare_config_file_name_can_leave_the_docs_penalty_on(
    repo: Repo, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo.write("examples/pyproject.toml", "[tool.linter]\nignore-paths = []\n")
    repo.write("linter/expand.py", "def expand_modules(ignore_paths):\n    return []\n")
    repo.commit()
    text = "ignore-paths from pyproject.toml is not applied by expand_modules"
    monkeypatch.setattr(rank, "BARE_TEXT_MENTION", 1.0)
    ranked = _by_path(_ranked(repo, text))
    assert ranked["examples/pyproject.toml"].signals["mention"] == 1.0  # named: no penalty
    monkeypatch.setattr(rank, "BARE_TEXT_MENTION", 0.4)
    order = _ranked(repo, text)
    assert _by_path(order)["examples/pyproject.toml"].signals["mention"] == pytest.approx(0.4)
    assert order[0].path == "linter/expand.py"


def test_a_long_path_into_another_project_names_no_file_by_its_bare_name(repo: Repo) -> None:
    repo.write("src/_pytest/logging.py", "def catching_logs():\n    return 1\n")
    repo.write("src/_pytest/python.py", "def collect():\n    return 2\n")
    repo.write("setup.py", "def build():\n    return 3\n")
    repo.commit()
    by_path = _by_path(_ranked(repo, "/Users/me/code/bot/bot/logging.py:12: error; see setup.py"))
    assert not by_path.get("src/_pytest/logging.py") or not by_path[
        "src/_pytest/logging.py"
    ].signals.get("mention")
    by_path = _by_path(_ranked(repo, "/home/me/src/proj/setup.py:3: SyntaxError"))
    assert by_path["setup.py"].signals.get("mention")  # a root file: the repository's own
    by_path = _by_path(_ranked(repo, "/opt/venv/lib/site-packages/_pytest/logging.py:12"))
    assert by_path["src/_pytest/logging.py"].signals.get("mention")
