#!/usr/bin/env python3
"""Retrieval tasks from a repository's own history, for languages SWE-bench does not cover.

    python bench/history_tasks.py --source owner/name=GITDIR ... [--per-repo 40] \\
        [--window 1500] --out tasks.jsonl

Each task is a past commit: its message is the task text, the source files it modified (not
tests, not added files: a retriever can only rank what exists at the parent) are the gold
files, its parent is the checkout, its diff the gold patch (so pack coverage of the edits is
scored too). `../shared/eval/run_eval.py` reads these rows as "history tasks".

The rule is fixed before any retriever is run on the tasks, the same for every repository:
among the newest `--window` non-merge commits, keep those whose subject has at least four
words and is not a merge, revert, release or dependency bump; that modify one to three source
files (by extension, tests left out) and change at most ten files in all; then take
`--per-repo` of them evenly spaced from newest to oldest. Trailers (`Signed-off-by:`,
`Co-authored-by:`) are dropped from the message; everything else stays, including the pull
request number a squash merge appends.

A commit message is written by the author of the change, after the fact, so it tends to name
the code more directly than an issue: expect higher numbers than on SWE-bench, and compare
retrievers on the same tasks, not with SWE-bench rows.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
from pathlib import Path

SOURCE_EXT = {
    ".py": "python", ".js": "javascript", ".jsx": "javascript", ".mjs": "javascript",
    ".cjs": "javascript", ".ts": "typescript", ".tsx": "typescript", ".go": "go",
    ".rs": "rust", ".java": "java", ".c": "c", ".h": "c", ".cc": "cpp", ".cpp": "cpp",
    ".hpp": "cpp", ".cs": "c_sharp", ".rb": "ruby", ".php": "php", ".kt": "kotlin",
    ".kts": "kotlin", ".swift": "swift", ".scala": "scala", ".lua": "lua", ".sh": "bash",
}  # fmt: skip
# Tests by the conventions of the languages above; the benchmark's own definition, kept apart
# from repomem's so the gold files do not depend on the code being measured.
TEST = re.compile(
    r"(^|/)(tests?|__tests__|spec|specs|testdata|test-?utils?|fixtures?)/"
    r"|(^|/)test_[^/]*$|_test\.\w+$|\.(test|spec)\.\w+$|(Test|Tests|IT)\.(java|kt)$"
    r"|(^|/)src/\w*[tT]est\w*/|Tests?\.swift$|(^|/)Tests/|(Spec|Test|Suite)\.scala$|_spec\.lua$"
    r"|(^|/)(benches|examples?)/"
)
SKIP_SUBJECT = re.compile(
    r"^(merge|revert|bump|release|prepare release|update dependenc|chore\(deps|build\(deps"
    r"|chore\(release|v?\d+\.\d+(\.\d+)?\b)",
    re.I,
)
TRAILER = re.compile(r"^[A-Z][\w-]*(-[Bb]y|-[Tt]o)?: .+$")


def git(gitdir: str, *args: str) -> str:
    return subprocess.run(
        ["git", "--git-dir", gitdir, *args], check=True, capture_output=True, text=True,
        errors="replace",
    ).stdout  # fmt: skip


def message(gitdir: str, sha: str) -> str:
    lines = git(gitdir, "log", "-1", "--format=%B", sha).rstrip().splitlines()
    while lines and (TRAILER.match(lines[-1].strip()) or not lines[-1].strip()):
        lines.pop()
    return "\n".join(lines).strip()


def candidates(gitdir: str, window: int) -> list[dict]:
    # one `git log` with each commit's changed files, rather than a `diff-tree` per commit
    out = git(
        gitdir, "log", "--no-merges", f"-n{window}", "--name-status", "--no-renames",
        "--format=%x00%H %P%x09%cI%x09%s", "HEAD",
    )  # fmt: skip
    rows = []
    for entry in out.split("\0")[1:]:
        head, _, changes = entry.partition("\n")
        ids, date, subject = head.split("\t", 2)
        parts = ids.split()
        if len(parts) != 2 or len(subject.split()) < 4 or SKIP_SUBJECT.match(subject.strip()):
            continue
        sha, parent = parts
        status = [c.split("\t") for c in changes.splitlines() if c.strip()]
        if not status or len(status) > 10:
            continue
        gold = [
            s[-1] for s in status
            if s[0] == "M" and Path(s[-1]).suffix in SOURCE_EXT and not TEST.search(s[-1])
        ]  # fmt: skip
        if not 1 <= len(gold) <= 3:
            continue
        rows.append({"sha": sha, "parent": parent, "date": date, "gold": gold})
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--source", action="append", required=True, help="owner/name=GITDIR")
    ap.add_argument("--per-repo", type=int, default=40)
    ap.add_argument("--window", type=int, default=1500, help="newest non-merge commits looked at")
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    tasks = []
    for spec in a.source:
        name, gitdir = spec.split("=", 1)
        found = candidates(gitdir, a.window)
        step = max(1, len(found) / a.per_repo) if found else 1
        picked = [found[int(i * step)] for i in range(min(a.per_repo, len(found)))]
        for c in picked:
            patch = git(gitdir, "diff", c["parent"], c["sha"], "--", *c["gold"])
            tasks.append({
                "id": f"{name.replace('/', '__')}-{c['sha'][:10]}", "repo": name,
                "parent": c["parent"], "query": message(gitdir, c["sha"]),
                "gold_files": c["gold"], "patch": patch, "date": c["date"],
                "language": SOURCE_EXT[Path(c["gold"][0]).suffix],
            })  # fmt: skip
        print(f"{name}: {len(found)} qualifying commits, {len(picked)} taken")
    with open(a.out, "w", encoding="utf-8") as fh:
        fh.writelines(json.dumps(t) + "\n" for t in tasks)
    print(f"{len(tasks)} tasks -> {a.out}")


if __name__ == "__main__":
    main()
