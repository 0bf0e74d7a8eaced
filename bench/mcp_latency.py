"""Latency of each MCP tool on a large repository, through the SDK's client, in process.

    python bench/mcp_latency.py [--repo /work/.mirror/sympy+sympy/repo] [--calls 20]

Clones the repository (`git clone --shared`, so the source is only read) into a temporary
directory, builds the index, then calls every tool `--calls` times through `mcp.Client(server)`
(the real protocol stack, in memory) and prints the median and p95 per tool. Beside it, the
same work called directly on `repomem.server.tools` (no MCP), so the adapter's own cost shows
as the difference. Write tools write into the clone's memory file. Also one cold stdio
round trip (spawn, initialize, one call) for reference.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import anyio
from mcp import Client, StdioServerParameters

from repomem import config
from repomem.index import indexer
from repomem.server import memtool, tools
from repomem.server.mcp import build_server

WORDS = (
    "matrix determinant series expansion limit integral polynomial factor solver "
    "printer latex plotting physics units quantum tensor geometry parsing lambdify "
    "assumptions sets logic combinatorics ntheory stats codegen cache"
).split()


def pct(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(round(q * (len(s) - 1))))]


def fact(i: int) -> str:
    a, b = WORDS[i % len(WORDS)], WORDS[(i * 7 + 3) % len(WORDS)]
    return f"Bench note {i}: {a} code calls into {b} helpers ({os.urandom(3).hex()})."


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repo", default="/work/.mirror/sympy+sympy/repo")
    ap.add_argument("--calls", type=int, default=20)
    ap.add_argument("--keep", help="Clone into this directory (kept) instead of a temporary one.")
    args = ap.parse_args()
    tmp = None if args.keep else tempfile.TemporaryDirectory(prefix="mcp-bench-")
    root = Path(args.keep or tmp.name) / "repo"  # type: ignore[union-attr]
    if not root.exists():
        subprocess.run(["git", "clone", "-q", "--shared", args.repo, str(root)], check=True)
    os.environ.setdefault("REPOMEM_HOME", str(root.parent / "home"))
    cfg = config.load(root)
    files = len(subprocess.run(["git", "ls-files"], cwd=root, capture_output=True, text=True,
                               check=True).stdout.splitlines())  # fmt: skip
    t0 = time.perf_counter()
    report = indexer.run(cfg)
    print(f"repository: {args.repo} ({files} files in git); index build "
          f"{time.perf_counter() - t0:.1f}s ({report.files_seen} files seen)")  # fmt: skip

    sample = "sympy/simplify/simplify.py" if (root / "sympy").is_dir() else None
    if sample is None:
        found = tools.search_code(cfg, "def", None, "*.py", 1).data["results"]
        sample = found[0]["path"]
    n = args.calls
    ids: list[str] = []
    last = tools.LastPack()
    task = "simplify() returns a wrong result for trigonometric expressions with powers"

    # name -> (arguments for call i, the same work without MCP)
    plan: list[tuple[str, Callable[[int], dict[str, Any]], Callable[[int], Any]]] = [
        ("index_status", lambda i: {}, lambda i: tools.index_status(cfg)),
        ("refresh", lambda i: {}, lambda i: tools.refresh(cfg)),
        ("search_code", lambda i: {"query": f"{WORDS[i % len(WORDS)]} simplify", "limit": 10},
         lambda i: tools.search_code(cfg, f"{WORDS[i % len(WORDS)]} simplify", None, None, 10)),
        ("get_symbol", lambda i: {"name": "simplify"},
         lambda i: tools.get_symbol(cfg, "simplify", True)),
        ("find_references", lambda i: {"name": "simplify"},
         lambda i: tools.find_references(cfg, "simplify", 100)),
        ("file_overview", lambda i: {"path": sample},
         lambda i: tools.file_overview(cfg, sample)),
        ("context_pack", lambda i: {"task": task},
         lambda i: tools.context_pack(cfg, task, None, last)),
        ("remember", lambda i: {"fact": fact(i), "cites": [sample]},
         lambda i: tools.remember(cfg, fact(1000 + i), [sample], None, "fact")),
        ("recall", lambda i: {"query": WORDS[i % len(WORDS)]},
         lambda i: tools.recall(cfg, WORDS[i % len(WORDS)], 10)),
        ("supersede", lambda i: {"id": ids.pop(), "fact": fact(2000 + i), "why": "bench"},
         lambda i: tools.supersede(cfg, ids.pop(), fact(3000 + i), "bench", None)),
        ("forget", lambda i: {"id": ids.pop()}, lambda i: tools.forget(cfg, ids.pop())),
        ("memory_check", lambda i: {}, lambda i: tools.memory_check(cfg)),
        ("write_note", lambda i: {"path": sample, "note": fact(6000 + i), "replace": True},
         lambda i: tools.write_note(cfg, sample, fact(7000 + i), True)),
        ("memory view /memories", lambda i: {"command": "view", "path": "/memories"},
         lambda i: memtool.run(cfg, "view", path="/memories")),
        ("memory view REPOMEM.md", lambda i: {"command": "view", "path": "/memories/REPOMEM.md"},
         lambda i: memtool.run(cfg, "view", path="/memories/REPOMEM.md")),
    ]  # fmt: skip

    async def measure() -> list[tuple[str, list[float], list[float]]]:
        rows = []
        async with Client(build_server(cfg)) as c:
            for name, make, direct in plan:
                tool = name.split()[0]
                via: list[float] = []
                raw: list[float] = []
                for i in range(n):
                    if tool in ("supersede", "forget") and len(ids) < 2:
                        for k in range(n * 2):
                            ids.append(tools.remember(cfg, fact(5000 + k + i * 100), None, None,
                                                      "fact").data["id"])  # fmt: skip
                    a = make(i)
                    t = time.perf_counter()
                    r = await c.call_tool(tool, a)
                    via.append(time.perf_counter() - t)
                    assert not r.is_error, (name, r.content[0].text)
                    t = time.perf_counter()
                    await anyio.to_thread.run_sync(direct, i)
                    raw.append(time.perf_counter() - t)
                rows.append((name, via, raw))
            # sessions come in pairs
            via_s, via_e = [], []
            for i in range(n):
                t = time.perf_counter()
                r = await c.call_tool("session_start", {"title": f"bench {i}"})
                via_s.append(time.perf_counter() - t)
                t = time.perf_counter()
                end = {"summary": "bench", "learned": [fact(9000 + i)]}
                r = await c.call_tool("session_end", end)
                via_e.append(time.perf_counter() - t)
                assert not r.is_error
            rows.append(("session_start", via_s, []))
            rows.append(("session_end", via_e, []))
        return rows

    rows = anyio.run(measure)
    print(f"\n{n} calls per tool, in-process mcp.Client; milliseconds")
    print("| tool | median | p95 | direct median | MCP overhead |")
    print("|---|---:|---:|---:|---:|")
    for name, via, raw in rows:
        med = statistics.median(via) * 1000
        line = f"| {name} | {med:.1f} | {pct(via, 0.95) * 1000:.1f} |"
        if raw:
            dmed = statistics.median(raw) * 1000
            line += f" {dmed:.1f} | {med - dmed:+.1f} |"
        else:
            line += " - | - |"
        print(line)

    async def cold() -> float:
        params = StdioServerParameters(
            command=sys.executable, args=["-m", "repomem", "-C", str(root), "serve"],
            env=dict(os.environ),
        )  # fmt: skip
        t = time.perf_counter()
        async with Client(params) as c:
            await c.call_tool("search_code", {"query": "simplify"})
        return time.perf_counter() - t

    print(f"\ncold stdio round trip (spawn, initialize, one search_code): {anyio.run(cold):.2f}s")
    if tmp is not None:
        tmp.cleanup()


if __name__ == "__main__":
    main()
