from __future__ import annotations

import pytest

from repomem.pack import penalties
from tests.conftest import Repo
from tests.pack.ranking import ranked_in


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
    assert (penalties.penalty(path) == penalties.VENDOR_PENALTY) is vendored


def test_tests_docs_and_text_rank_below_source_code() -> None:
    assert penalties.penalty("src/app.py") == 1.0
    assert penalties.penalty("tests/test_app.py") == penalties.TEST_PENALTY
    assert penalties.penalty("doc/conf.py") == penalties.DOC_PENALTY
    assert penalties.penalty("examples/plot_lines.py") == penalties.DOC_PENALTY
    assert penalties.penalty("README.md") == penalties.TEXT_PENALTY
    assert penalties.penalty("docs/usage.rst") == pytest.approx(
        penalties.DOC_PENALTY * penalties.TEXT_PENALTY
    )


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
    assert (penalties.penalty(path) == penalties.DOC_PENALTY) is bench


def test_a_vendored_library_matching_every_word_stays_below_the_code(repo: Repo) -> None:
    words = "render the toolbar button label when the theme changes"
    repo.write("app/toolbar.py", 'def render_label(theme):\n    """The toolbar."""\n    return 1\n')
    repo.write("app/static/jquery-3.5.1.js", f"// {words}\n" * 3)
    repo.commit()
    order = [c.path for c in ranked_in(repo, f"The toolbar: {words}")]
    assert order.index("app/toolbar.py") < order.index("app/static/jquery-3.5.1.js")
