"""Tests for repomem.secrets._common: redaction keeps every line break, under any line ending."""

from __future__ import annotations

import random

import pytest

from repomem.secrets import REDACTED, redact
from tests.secrets.cases import (
    ALNUM,
    B64,
    BEARER,
    GITHUB_PAT,
    JWT,
    OPENAI_LEGACY,
    OPENAI_PROJECT,
    PASSWORD,
    fake,
    line_shape,
    pem_block,
)


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"], ids=["lf", "crlf", "cr"])
def test_line_count_is_preserved_with_any_line_ending(newline: str) -> None:
    text = newline.join(
        [
            "import os",
            f'API_KEY = "{OPENAI_PROJECT}"',
            pem_block("PRIVATE KEY", lines=3, newline=newline),
            f"DSN = 'postgres://app:{PASSWORD}@db/app'",
            f"# {GITHUB_PAT} {JWT}",
            "done = True",
        ]
    )
    out, n = redact(text)
    assert n == 5
    assert line_shape(out) == line_shape(text)
    assert out.splitlines()[0] == "import os"
    assert out.splitlines()[-1] == "done = True"


def test_line_count_is_preserved_with_unusual_line_breaks() -> None:
    text = f"a = 1\x0bpassword = '{PASSWORD}'\u2028b = 2\x85" + pem_block(newline="\u2029")
    out, n = redact(text)
    assert n == 2
    assert line_shape(out) == line_shape(text)


def test_line_count_is_preserved_when_an_extra_pattern_spans_lines() -> None:
    text = "keep\nBEGIN-INTERNAL\nsecret one\r\nsecret two\rEND-INTERNAL\nkeep\n"
    out, n = redact(text, extra_patterns=[r"(?s)BEGIN-INTERNAL.*?END-INTERNAL"])
    assert n == 1
    assert line_shape(out) == line_shape(text)
    assert out.splitlines()[0] == "keep"
    assert out.splitlines()[1] == REDACTED
    assert out.splitlines()[-1] == "keep"


# ---------------------------------------------------------------------------------------
# Random documents
# ---------------------------------------------------------------------------------------

_FRAGMENTS = [
    "x = 1",
    "def f(password):",
    "    pass",
    f'API_KEY = "{OPENAI_LEGACY}"',
    f"token: {fake(ALNUM, 20, 60)}",
    f"# see {GITHUB_PAT}",
    f"DSN=postgres://app:{PASSWORD}@db/app",
    f"Authorization: Bearer {BEARER}",
    pem_block(lines=2),
    "-----BEGIN PRIVATE KEY-----",
    fake(B64, 64, 61),
    "",
    "   ",
    "İstanbul ünïcode",
]
_BREAKS = ["\n", "\r\n", "\r", "\x0b", "\x0c", "\x1c", "\x85", "\u2028", "\u2029"]


@pytest.mark.parametrize("seed", range(40))
def test_random_documents_keep_their_line_structure(seed: int) -> None:
    rng = random.Random(seed)
    text = "".join(rng.choice(_FRAGMENTS) + rng.choice(_BREAKS) for _ in range(rng.randint(1, 30)))
    for config_like in (False, True):
        out, n = redact(text, config_like=config_like, extra_patterns=[r"(?s)BEGIN.{0,80}"])
        assert line_shape(out) == line_shape(text)
        assert (n == 0) == (out == text)
