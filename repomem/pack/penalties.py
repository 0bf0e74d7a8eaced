"""Damping of the files that are rarely the code to change, unless the task names them.

Test files, documentation and example code, and text files (docs, changelogs, config) get a
mild penalty: for a change request, the code to change is usually the implementation, while
tests and docs remain good context. Vendored copies of third-party libraries
(`jquery-3.5.1.js`, `*.min.js`) get a strong one: they match every query and are never the code
to change. `rank` applies `penalty` to every file the task does not name.
"""

from __future__ import annotations

import re
from functools import lru_cache

from repomem.index import languages, parser

TEST_PENALTY = 0.6
TEXT_PENALTY = 0.7  # docs, changelogs and config rank below code unless named
DOC_PENALTY = 0.6  # code under docs/ or examples/, and benchmarks
VENDOR_PENALTY = 0.1

_DOC_PATH = re.compile(r"(^|/)(docs?|documentation|examples?|samples?|demos?)/")
# Benchmark sources measure the code rather than being it (`benches/`, `asv_bench/`, gson's
# `*Benchmark.java`, `bench_*.py`). Damped like examples: of 509 dev, Lite and history tasks,
# 13 had one in their top 10 and none had one as gold; no gold file moved (bench/README.md, run 12).
_BENCH_PATH = re.compile(
    r"(^|/)(benchmarks?|benches|asv_bench|bench)/|(^|/)bench_[^/]*$|_bench\.\w+$"
    r"|Benchmarks?\.\w+$|\.bench\.\w+$"
)
# After GitHub linguist's vendor list: versioned or minified copies of web libraries.
_VENDORED_FILE = re.compile(
    r"[-.]v?\d+(\.\d+)+(\.min|\.slim)?\.(js|mjs|css)$|[.-]min\.(js|mjs|css)$"
    r"|(^|/)(jquery|underscore|backbone|bootstrap|modernizr|html5shiv|respond|mootools|lodash"
    r"|require|d3|angular|moment)([.-][^/]*)?\.(js|css)$"
)


def penalty(path: str) -> float:
    """How much a file's score is damped when the task does not name it."""
    vendored, test, doc, text = _kind(path)
    if vendored:
        return VENDOR_PENALTY
    factor = 1.0
    if test:
        factor *= TEST_PENALTY
    elif doc:
        factor *= DOC_PENALTY
    if text:
        factor *= TEXT_PENALTY
    return factor


@lru_cache(maxsize=100_000)
def _kind(path: str) -> tuple[bool, bool, bool, bool]:
    """(vendored, test, docs, examples or benchmarks, text without a parser) for a path."""
    return (
        bool(_VENDORED_FILE.search(path)),
        languages.is_test_path(path),
        bool(_DOC_PATH.search(path) or _BENCH_PATH.search(path)),
        not parser.supports(languages.detect(path)),
    )
