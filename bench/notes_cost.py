#!/usr/bin/env python3
"""What per-file notes cost on a large repository, and what a re-run sends.

One run, on one corpus:

1. **Corpus.** `--repo PATH` is cloned (`git clone`, so a bare mirror works) into a temporary
   directory; without it the interpreter's standard library is copied there and committed.
2. **Index.** `indexer.run` (cold).
3. **Estimate.** The `repomem notes --dry-run` plan for every indexed file, without caps: files,
   input tokens (cl100k times `pack.token_margin`, system prompt included), the output ceiling
   (`llm.max_output_tokens` per file), and the cost at list price and with the Batches API, for
   the configured model and a few others. Also what one run sends under the default caps.
4. **Re-run.** Against the fake Messages API from the tests, in process (no network): notes for
   every file (as one Message Batch), then a re-run with no change, then a re-run after one
   file changes; the requests each one sends are counted.

    python bench/notes_cost.py [--repo PATH] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from repomem import config  # noqa: E402
from repomem.index import indexer  # noqa: E402
from repomem.llm import client as llm  # noqa: E402
from repomem.llm import generation  # noqa: E402
from tests.llm.fakeapi import FakeAnthropic  # noqa: E402

MODELS = ("claude-haiku-4-5", "claude-haiku-5-5", "claude-sonnet-5-5", "claude-opus-5-5")
NO_CAPS = {"llm.max_files_per_run": 10**9, "llm.max_cost_usd": 1e12}


def git(cwd: Path, *args: str) -> str:
    env = {**os.environ, "GIT_AUTHOR_NAME": "bench", "GIT_AUTHOR_EMAIL": "b@example.com",
           "GIT_COMMITTER_NAME": "bench", "GIT_COMMITTER_EMAIL": "b@example.com"}  # fmt: skip
    return subprocess.run(
        ["git", *args], cwd=cwd, env=env, check=True, capture_output=True, text=True
    ).stdout


def make_corpus(repo: str | None, dest: Path) -> str:
    if repo:
        subprocess.run(["git", "clone", "-q", repo, str(dest)], check=True)
        return f"{repo} @ {git(dest, 'rev-parse', '--short', 'HEAD').strip()}"
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    shutil.copytree(
        stdlib, dest, ignore=shutil.ignore_patterns("site-packages", "__pycache__", "*.pyc")
    )
    git(dest, "init", "-q", "-b", "main")
    git(dest, "add", "-A")
    git(dest, "commit", "-q", "-m", "corpus")
    return f"Python {sys.version.split()[0]} standard library"


def pick_file(cfg: config.Config) -> str:
    store = indexer.open_store(cfg)
    cols = store.column("files", ["path", "language", "skip", "size"])
    rows = sorted(
        (s, p)
        for p, lang, skip, s in zip(
            cols["path"], cols["language"], cols["skip"], cols["size"], strict=True
        )
        if not skip and lang == "python" and s > 2000
    )
    return rows[len(rows) // 2][1]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--repo", help="a git repository (work tree or bare) to clone as the corpus")
    ap.add_argument("--json", action="store_true", help="print the results as JSON")
    args = ap.parse_args()
    out: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="notes-bench-") as tmp:
        root = Path(tmp) / "corpus"
        out["corpus"] = make_corpus(args.repo, root)
        os.environ["REPOMEM_HOME"] = str(Path(tmp) / "home")
        cfg = config.load(root, overrides=NO_CAPS)
        t0 = time.perf_counter()
        rep = indexer.run(cfg)
        out["index_seconds"] = round(time.perf_counter() - t0, 1)
        out["files_listed"] = rep.files_seen
        store = indexer.open_store(cfg)

        # ---- estimate (dry-run plan, no caps)
        t0 = time.perf_counter()
        plan = generation.plan(cfg, store, model=cfg.llm.model)
        out["plan_seconds"] = round(time.perf_counter() - t0, 1)
        n = len(plan.send)
        out["files_indexed"] = plan.indexed
        out["files_needing_notes"] = n  # empty files get offline notes, never sent
        out["input_tokens"] = plan.all_input_tokens
        out["output_tokens_ceiling"] = plan.all_output_tokens
        out["mean_input_tokens_per_file"] = round(plan.all_input_tokens / max(1, n))
        out["cost"] = {
            m: {
                "list": round(
                    llm.estimate_cost(plan.all_input_tokens, plan.all_output_tokens, m), 2
                ),
                "batch": round(
                    llm.estimate_cost(plan.all_input_tokens, plan.all_output_tokens, m, batch=True),
                    2,
                ),
            }
            for m in MODELS
        }
        capped_cfg = config.load(root)
        capped = generation.plan(capped_cfg, store, model=capped_cfg.llm.model)
        out["default_caps"] = {
            "max_files_per_run": capped_cfg.llm.max_files_per_run,
            "max_cost_usd": capped_cfg.llm.max_cost_usd,
            "files_sent": len(capped.send),
            "cost_usd_ceiling": round(capped.cost_usd, 4),
            "batch": capped.batch,
        }

        # ---- re-runs against the fake API
        with FakeAnthropic() as fake:
            env = {
                "ANTHROPIC_API_KEY": "sk-ant-bench-not-a-real-key",
                "ANTHROPIC_BASE_URL": fake.url,
            }
            fake.batch_polls_before_end = 0
            client = llm.from_config(cfg, environ=env, sleep=lambda s: None)
            assert client is not None

            def counted(**kw: Any) -> dict[str, Any]:
                before = len(fake.requests)
                t = time.perf_counter()
                r = generation.generate(cfg, client=client, **kw)
                new = fake.requests[before:]
                return {
                    "seconds": round(time.perf_counter() - t, 1),
                    "http_requests": len(new),
                    "messages": sum(1 for q in new if q.path == "/v1/messages"),
                    "batch_requests": sum(
                        len(q.body["requests"]) for q in new if q.path == "/v1/messages/batches"
                    ),
                    "notes_written": r.written_llm + r.collected,
                    "error": r.error,
                }

            out["first_run"] = counted()
            out["rerun_unchanged"] = counted()
            changed = pick_file(cfg)
            path = root / changed
            path.write_text(path.read_text(encoding="utf-8") + "\n# changed\n", encoding="utf-8")
            indexer.run(cfg)
            out["changed_file"] = changed
            out["rerun_one_changed"] = counted()
            client.close()
    if args.json:
        print(json.dumps(out, indent=2))
        return
    print(f"Corpus: {out['corpus']}: {out['files_listed']} files listed, indexed in "
          f"{out['index_seconds']} s")  # fmt: skip
    print(f"Model notes needed: {n} of {out['files_indexed']} indexed files (empty files are "
          f"never sent); plan (dry-run) took {out['plan_seconds']} s")  # fmt: skip
    print(f"Input tokens (cl100k x margin, system prompt included): {out['input_tokens']:,} "
          f"({out['mean_input_tokens_per_file']:,} per file); output ceiling "
          f"{out['output_tokens_ceiling']:,}")  # fmt: skip
    print()
    print("| model | cost, list price (ceiling) | cost with the Batches API |")
    print("|---|---|---|")
    for m, c in out["cost"].items():
        print(f"| {m} | ${c['list']:,.2f} | ${c['batch']:,.2f} |")
    dc = out["default_caps"]
    print()
    print(f"One run under the default caps ({dc['max_files_per_run']} files, "
          f"${dc['max_cost_usd']:g}): sends {dc['files_sent']} files, at most "
          f"${dc['cost_usd_ceiling']}{' (batch)' if dc['batch'] else ''}")  # fmt: skip
    print()
    print("| run (fake API, in process) | HTTP requests | messages | batched requests | notes |")
    print("|---|---|---|---|---|")
    runs = (
        ("all files", "first_run"),
        ("re-run, nothing changed", "rerun_unchanged"),
        (f"re-run, `{out['changed_file']}` changed", "rerun_one_changed"),
    )
    for label, key in runs:
        r = out[key]
        print(f"| {label} | {r['http_requests']} | {r['messages']} | {r['batch_requests']} "
              f"| {r['notes_written']} |")  # fmt: skip


if __name__ == "__main__":
    main()
