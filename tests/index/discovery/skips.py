"""What a real index run on a repository skipped, by reason (the discovery tests' helper)."""

from __future__ import annotations

from repomem.index import indexer
from tests.conftest import Repo


def skipped(repo: Repo, **overrides: object) -> dict[str, list[str]]:
    report = indexer.run(repo.config(**overrides))
    return {k: sorted(v) for k, v in report.skipped_paths.items()}
