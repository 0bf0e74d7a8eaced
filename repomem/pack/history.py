"""Git history signals for ranking: files changed recently, and files that change together.

Both come from the last `HISTORY_COMMITS` commits on HEAD, read once per HEAD and cached in the
state directory. Bulk commits (formatting sweeps, vendoring) touch too many files to say
anything about coupling and are left out of co-change.
"""

from __future__ import annotations

import json
import logging
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from repomem import vcs
from repomem.fsutil import atomic_write

log = logging.getLogger(__name__)

HISTORY_COMMITS = 1000
BULK_COMMIT = 30  # files; larger commits don't count for co-change
RECENT_COMMITS = 50
CACHE_VERSION = 2  # 2: paths unquoted (`vcs.commit_log`), so non-ASCII names match


@dataclass
class History:
    """Per-file recency (0..1, newest commits highest) and co-change counts."""

    recency: dict[str, float] = field(default_factory=dict)
    changes: dict[str, int] = field(default_factory=dict)  # commits touching each file
    pairs: dict[str, dict[str, int]] = field(default_factory=dict)  # file -> partner -> n

    def cochanged(self, seeds: dict[str, float], *, top: int = 30) -> dict[str, float]:
        """Files that changed together with the seeds: max over seeds of
        seed strength x P(file changed | seed changed), the seeds themselves left out."""
        out: dict[str, float] = defaultdict(float)
        for seed, strength in seeds.items():
            n = self.changes.get(seed, 0)
            if n < 2:
                continue  # one commit says nothing about coupling
            for partner, together in self.pairs.get(seed, {}).items():
                if together < 2:
                    continue
                out[partner] = max(out[partner], strength * together / n)
        best = sorted(out.items(), key=lambda kv: -kv[1])[:top]
        return dict(best)


def build(commits: list[vcs.Commit]) -> History:
    h = History()
    pairs: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for i, files in enumerate(c.files for c in commits):
        for f in files:
            h.changes[f] = h.changes.get(f, 0) + 1
            if i < RECENT_COMMITS and f not in h.recency:
                h.recency[f] = 1.0 - i / RECENT_COMMITS
        if 1 < len(files) <= BULK_COMMIT:
            for a in files:
                row = pairs[a]
                for b in files:
                    if a != b:
                        row[b] += 1
    h.pairs = {a: dict(row) for a, row in pairs.items()}
    return h


def load(root: Path, cache_dir: Path | None) -> History:
    """The history of the repository at `root` (empty outside git), cached per HEAD."""
    head = vcs.head(root)
    if head is None:
        return History()
    cache = cache_dir / "history.json" if cache_dir is not None else None
    if cache is not None:
        try:
            data = json.loads(cache.read_text(encoding="utf-8"))
            if data.get("version") == CACHE_VERSION and data.get("head") == head:
                return History(data["recency"], data["changes"], data["pairs"])
        except (OSError, ValueError, KeyError):
            pass  # absent or corrupt: rebuilt below
    h = build(vcs.commit_log(root, limit=HISTORY_COMMITS))
    if cache is not None:
        try:
            cache.parent.mkdir(parents=True, exist_ok=True)
            atomic_write(cache, json.dumps({"version": CACHE_VERSION, "head": head,
                                            "recency": h.recency, "changes": h.changes,
                                            "pairs": h.pairs}))  # fmt: skip
        except OSError as exc:
            log.debug("cannot cache git history: %s", exc)
    return h
