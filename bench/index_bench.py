#!/usr/bin/env python3
"""Indexing speed: repomem against raw tree-sitter, aider's RepoMap tags and universal-ctags.

Everything runs side by side in one run, on the same files:

* corpus: the interpreter's standard library (default) or a copy of `--repo`, committed into a
  fresh git repository in a temporary directory (the given repository is only read);
* repomem: a cold `indexer.run(full=True)` in a fresh process (import time reported apart, peak
  RSS, store size), then incremental runs: no change, and one appended line in one file;
* raw tree-sitter: `Parser(lang).parse(bytes)` of the files repomem parsed, in 1 process and in
  as many processes as repomem's workers;
* aider: `RepoMap.get_tags_raw` over the same files, in aider's own venv (see bench/setup.sh);
* universal-ctags over the same files.

It prints a Markdown table with the ratios (`--json` prints the results as JSON). Nothing here
asserts on timings.

    python bench/index_bench.py [--repo PATH] [--aider-python /work/bench-venv/bin/python]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from pathlib import Path
from typing import Any

DEFAULT_AIDER_PYTHON = "/work/bench-venv/bin/python"
MARK = "@@BENCH@@"
MB = 1024 * 1024

# Runs in a fresh interpreter with repomem's venv: one `indexer.run`, timed apart from imports.
REPOMEM_SCRIPT = r"""
import time
T0 = time.perf_counter()
import json, resource, sys
from repomem import config
from repomem.index import indexer
from repomem.index import store as _store  # lancedb + pyarrow: counted as import time
T1 = time.perf_counter()
a = json.loads(sys.argv[1])
cfg = config.load(a["root"], overrides=a["overrides"] or None)
prof = None
if a["profile"]:
    import cProfile
    prof = cProfile.Profile()
    prof.enable()
T2 = time.perf_counter()
rep = indexer.run(cfg, full=a["full"])
T3 = time.perf_counter()
if prof is not None:
    prof.disable()
    prof.dump_stats(a["profile"])
ru_self = resource.getrusage(resource.RUSAGE_SELF)
ru_kids = resource.getrusage(resource.RUSAGE_CHILDREN)
out = {
    "import_s": T1 - T0, "config_s": T2 - T1, "run_s": T3 - T2, "script_s": T3 - T0,
    "report_seconds": rep.seconds, "files_seen": rep.files_seen, "parsed": rep.parsed,
    "added": len(rep.added), "modified": rep.modified[:20], "deleted": len(rep.deleted),
    "unchanged": rep.unchanged, "skipped": rep.skipped, "parse_errors": len(rep.parse_errors),
    "full": rep.full,
    "store_uri": indexer.store_uri(cfg), "workers": cfg.index.workers or None,
    "rss_main_kb": ru_self.ru_maxrss, "rss_worker_max_kb": ru_kids.ru_maxrss,
    "cpu_main_s": ru_self.ru_utime + ru_self.ru_stime,
    "cpu_workers_s": ru_kids.ru_utime + ru_kids.ru_stime,
}
if a["list_files"]:  # not part of the timed process: subtracted by the caller
    T4 = time.perf_counter()
    st = indexer.open_store(cfg)
    cols = st.column("files", ["path", "size", "skip"])
    out["indexed"] = [
        [p, s] for p, s, k in zip(cols["path"], cols["size"], cols["skip"]) if not k
    ]
    out["list_s"] = time.perf_counter() - T4
print("@@BENCH@@" + json.dumps(out))
"""

# Runs with aider's venv: tags of the listed files, as RepoMap extracts them on a cold cache.
AIDER_SCRIPT = r"""
import time
T0 = time.perf_counter()
import json, os, sys, warnings
os.environ.setdefault("TQDM_DISABLE", "1")
warnings.simplefilter("ignore")
from aider.repomap import RepoMap
T1 = time.perf_counter()
a = json.loads(sys.argv[1])
root = a["root"]
with open(a["files"], encoding="utf-8") as fh:
    rels = json.load(fh)

class IO:  # aider.io.InputOutput's file reading, without a terminal
    def read_text(self, fname, silent=False):
        try:
            with open(fname, encoding="utf-8", errors="replace") as f:
                return f.read()
        except OSError:
            return None
    def tool_output(self, *args, **kw):
        pass
    tool_warning = tool_error = tool_output

class Model:
    def token_count(self, text):
        return len(text) // 4 + 1

class Map(RepoMap):
    def load_tags_cache(self):
        if a["cache_dir"]:  # aider's own on-disk cache (diskcache/SQLite), empty at the start
            from diskcache import Cache
            self.TAGS_CACHE = Cache(a["cache_dir"])
        else:
            self.TAGS_CACHE = {}

rm = Map(root=root, main_model=Model(), io=IO(), refresh="always")
defs = refs = 0
T2 = time.perf_counter()
for rel in rels:
    fname = os.path.join(root, rel)
    if a["cache_dir"]:
        tags = rm.get_tags(fname, rel)
    else:
        tags = list(rm.get_tags_raw(fname, rel))
    for t in tags:
        if t.kind == "def":
            defs += 1
        else:
            refs += 1
T3 = time.perf_counter()
import importlib.metadata as md
out = {
    "import_s": T1 - T0, "tags_s": T3 - T2, "files": len(rels), "defs": defs, "refs": refs,
    "aider": md.version("aider-chat"),
    "language_pack": md.version("tree-sitter-language-pack"),
    "tree_sitter": md.version("tree-sitter"),
}
print("@@BENCH@@" + json.dumps(out))
"""


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def clean_env(home: Path) -> dict[str, str]:
    """The environment for child processes: no REPOMEM_* from the caller, private state dirs."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("REPOMEM_")}
    env["REPOMEM_HOME"] = str(home / "repomem-home")
    env["TQDM_DISABLE"] = "1"
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


def run_marked(cmd: list[str], env: dict[str, str], cwd: Path | None = None) -> tuple[dict, float]:
    """Run a child whose last marked stdout line is a JSON result; (result, wall seconds)."""
    t = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=cwd)
    wall = time.perf_counter() - t
    found = [ln for ln in proc.stdout.splitlines() if ln.startswith(MARK)]
    if proc.returncode != 0 or not found:
        raise RuntimeError(
            f"{cmd[0]} failed (exit {proc.returncode}):\n"
            f"{proc.stderr[-4000:]}\n{proc.stdout[-2000:]}"
        )
    return json.loads(found[-1][len(MARK) :]), wall


# ------------------------------------------------------------------------- corpus


def git(root: Path, *args: str) -> str:
    return subprocess.run(
        [
            "git",
            "-c",
            "user.name=bench",
            "-c",
            "user.email=bench@example.invalid",
            "-c",
            "commit.gpgsign=false",
            "-c",
            "core.hooksPath=/dev/null",
            "-c",
            "core.autocrlf=false",
            "-C",
            str(root),
            *args,
        ],
        check=True,
        capture_output=True,
        text=True,
    ).stdout


def source_files(repo: Path) -> list[str]:
    """What a repository holds in its work tree: tracked and untracked-not-ignored files."""
    out = git(repo, "ls-files", "-z", "--cached", "--others", "--exclude-standard")
    gone = set(git(repo, "ls-files", "-z", "--deleted").split("\0"))
    return sorted({p for p in out.split("\0") if p and p not in gone})


def make_corpus(dest: Path, repo: Path | None, code_only: bool) -> str:
    """Copy the input to `dest` and commit it there; returns a description."""
    if repo is None:
        import sysconfig

        src = Path(sysconfig.get_paths()["stdlib"])
        shutil.copytree(
            src, dest, symlinks=True, ignore=shutil.ignore_patterns("site-packages", "__pycache__")
        )
        desc = f"Python {sys.version.split()[0]} stdlib ({src})"
    else:
        src = repo.resolve()
        if not (src / ".git").exists():
            raise SystemExit(f"--repo {repo}: not the top of a git work tree")
        for rel in source_files(src):
            a, b = src / rel, dest / rel
            if not a.is_symlink() and not a.is_file():
                continue  # a submodule or a vanished file
            b.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(a, b, follow_symlinks=False)
        desc = f"copy of {src} (work tree, tracked + untracked-not-ignored files)"
    if code_only:
        from repomem.index import languages, parser

        removed = 0
        for p in sorted(dest.rglob("*"), reverse=True):
            if p.is_dir() and not p.is_symlink():
                if not any(p.iterdir()):
                    p.rmdir()
            elif not parser.supports(languages.detect(p.relative_to(dest).as_posix())):
                p.unlink()
                removed += 1
        desc += f", code files only ({removed} others removed)"
    git(dest, "init", "-q")
    git(dest, "add", "-A", "-f")
    git(dest, "commit", "-q", "--no-verify", "-m", "bench corpus")
    return desc


def dir_bytes(path: Path) -> int:
    total = 0
    for dirpath, _dirs, names in os.walk(path):
        for n in names:
            with contextlib.suppress(OSError):
                total += os.lstat(os.path.join(dirpath, n)).st_size
    return total


# ------------------------------------------------------------------------- repomem


def repomem_run(
    root: Path,
    env: dict[str, str],
    *,
    full: bool,
    list_files: bool = False,
    overrides: dict[str, Any] | None = None,
    profile: str = "",
) -> dict[str, Any]:
    arg = {
        "root": str(root),
        "full": full,
        "list_files": list_files,
        "overrides": overrides or {},
        "profile": profile,
    }
    # cwd outside any checkout, so `python -c` does not import a `repomem/` from the cwd
    res, wall = run_marked(
        [sys.executable, "-c", REPOMEM_SCRIPT, json.dumps(arg)], env, cwd=root.parent
    )
    res["process_s"] = wall - res.get("list_s", 0.0)
    return res


def repomem_cli(root: Path, env: dict[str, str]) -> dict[str, Any]:
    """`repomem -C ROOT index`, timed as a whole process; parses its summary line."""
    exe = Path(sys.executable).with_name("repomem")
    cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "repomem"]
    t = time.perf_counter()
    proc = subprocess.run(
        [*cmd, "-C", str(root), "index"], capture_output=True, text=True, env=env, cwd=root.parent
    )
    wall = time.perf_counter() - t
    if proc.returncode != 0:
        raise RuntimeError(f"repomem index failed:\n{proc.stderr[-4000:]}")
    m = re.search(r"(\d+) parsed", proc.stdout)
    s = re.search(r" in ([0-9.]+)s", proc.stdout)
    return {
        "process_s": wall,
        "parsed": int(m.group(1)) if m else None,
        "reported_s": float(s.group(1)) if s else None,
        "output": proc.stdout.strip(),
    }


def pick_touch_file(files: list[tuple[str, int]], wanted: str | None) -> str:
    if wanted:
        if wanted not in {p for p, _ in files}:
            raise SystemExit(f"--touch {wanted}: not among the parsed files")
        return wanted
    by_size = sorted(files, key=lambda f: (f[1], f[0]))
    return by_size[len(by_size) // 2][0]  # a median-size source file


def append_line(path: Path, n: int) -> None:
    data = path.read_bytes()
    sep = b"" if data.endswith(b"\n") or not data else b"\n"
    path.write_bytes(data + sep + f"# repomem bench edit {n}\n".encode())


# ------------------------------------------------------------------------- parsing baselines


def _parse_job(job: tuple[str, str, list[tuple[str, str]]]) -> tuple[float, int]:
    """Parse files in this process; (seconds in the timed loop alone, number of files).

    mode "raw": `Parser(lang).parse(bytes)` only. mode "extract": repomem's `parser.parse`
    (parse + tag query + symbols and references). mode "pipeline": repomem's per-file worker
    (`indexer.process_file`: read, hash, redact, parse, search tokens). Reading the files is
    outside the timed loop except for "pipeline", which reads them itself as repomem does.
    """
    mode, root, files = job
    from repomem.index import languages
    from repomem.index import parser as rparser

    if mode == "pipeline":
        from repomem import config
        from repomem.index import indexer

        cfg = config.load(root)
        none: dict[str, str] = {}
        t = time.perf_counter()
        for rel, _lang in files:
            indexer.process_file(cfg, rel, None, none)
        return time.perf_counter() - t, len(files)
    datas = [(lang, Path(root, rel).read_bytes()) for rel, lang in files]
    if mode == "raw":
        from tree_sitter import Parser

        parsers = {lang: Parser(languages.grammar(lang)) for lang, _ in datas}
        t = time.perf_counter()
        for lang, data in datas:
            parsers[lang].parse(data)
        return time.perf_counter() - t, len(files)
    texts = [(lang, data.decode("utf-8", "replace").removeprefix("\ufeff")) for lang, data in datas]
    for lang in {lang for lang, _ in texts}:  # compile the queries outside the timing
        rparser.parse("", lang)
    t = time.perf_counter()
    for lang, text in texts:
        rparser.parse(text, lang)
    return time.perf_counter() - t, len(files)


def split_by_size(files: list[tuple[str, str, int]], n: int) -> list[list[tuple[str, str]]]:
    """n bins of about equal bytes (largest first into the lightest bin)."""
    bins: list[list[tuple[str, str]]] = [[] for _ in range(n)]
    load = [0] * n
    for rel, lang, size in sorted(files, key=lambda f: -f[2]):
        i = load.index(min(load))
        bins[i].append((rel, lang))
        load[i] += size
    return bins


def parse_bench(mode: str, root: Path, files: list[tuple[str, str, int]], procs: int) -> dict:
    """Time `mode` over `files` in `procs` processes: the slowest worker's loop, and the wall
    time including starting the processes."""
    if procs <= 1:
        secs, n = _parse_job((mode, str(root), [(r, lang) for r, lang, _ in files]))
        return {"s": secs, "wall_s": secs, "files": n, "procs": 1}
    jobs = [(mode, str(root), b) for b in split_by_size(files, procs)]
    t = time.perf_counter()
    with ProcessPoolExecutor(procs, mp_context=get_context("spawn")) as pool:
        results = list(pool.map(_parse_job, jobs))
    wall = time.perf_counter() - t
    return {
        "s": max(s for s, _ in results),
        "wall_s": wall,
        "files": sum(n for _, n in results),
        "procs": procs,
    }


def _spin(n: int) -> float:
    t = time.perf_counter()
    x = 0
    for i in range(n):
        x += i
    return time.perf_counter() - t


def machine_parallelism(procs: int, n: int = 10_000_000) -> dict[str, Any]:
    """How much more CPU-bound work `procs` processes get done than one (ideal: `procs`x)."""
    one = min(_spin(n) for _ in range(2))
    with ProcessPoolExecutor(procs, mp_context=get_context("spawn")) as pool:
        list(pool.map(_spin, [1000] * procs))  # start the workers
        par = max(pool.map(_spin, [n] * procs))
    return {"procs": procs, "one_s": one, "parallel_s": par, "speedup": procs * one / par}


def cpu_counters() -> dict[str, float] | None:
    """Machine-wide busy and steal CPU seconds (Linux /proc/stat) and this process tree's own."""
    try:
        with open("/proc/stat", encoding="ascii") as fh:
            fields = [int(x) for x in fh.readline().split()[1:]]
    except (OSError, ValueError):
        return None
    import resource

    tick = os.sysconf("SC_CLK_TCK")
    user, nice, system, _idle, _iowait, irq, softirq, steal = (fields + [0] * 8)[:8]
    own = 0.0
    for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN):
        ru = resource.getrusage(who)
        own += ru.ru_utime + ru.ru_stime
    return {
        "busy": (user + nice + system + irq + softirq) / tick,
        "steal": steal / tick,
        "own": own,
        "t": time.monotonic(),
    }


def other_load(start: dict[str, float] | None) -> dict[str, float] | None:
    """CPU seconds that other processes used (and the hypervisor stole) since `start`."""
    end = cpu_counters()
    if start is None or end is None:
        return None
    wall = end["t"] - start["t"]
    other = max(0.0, (end["busy"] - start["busy"]) - (end["own"] - start["own"]))
    return {"wall_s": wall, "other_cpu_s": other, "steal_s": end["steal"] - start["steal"]}


# ------------------------------------------------------------------------- aider and ctags


def find_aider(python: str | None) -> tuple[str | None, str]:
    exe = python or (DEFAULT_AIDER_PYTHON if Path(DEFAULT_AIDER_PYTHON).exists() else None)
    if exe is None:
        return None, "no aider venv (run bench/setup.sh, or pass --aider-python)"
    try:
        probe = subprocess.run([exe, "-c", "import aider.repomap"], capture_output=True, text=True)
    except OSError as exc:
        return None, f"cannot run `{exe}` ({exc}); run bench/setup.sh or fix --aider-python"
    if probe.returncode != 0:
        tail = (probe.stderr.strip().splitlines() or ["?"])[-1]
        return None, f"`{exe} -c 'import aider.repomap'` failed: {tail}"
    return exe, ""


def aider_bench(
    python: str, root: Path, rels: list[str], work: Path, env: dict[str, str], cache: bool
) -> dict:
    listing = work / "aider-files.json"
    listing.write_text(json.dumps(rels), encoding="utf-8")
    cache_dir = ""
    if cache:
        cache_dir = str(work / "aider-tags-cache")
        shutil.rmtree(cache_dir, ignore_errors=True)
    arg = {"root": str(root), "files": str(listing), "cache_dir": cache_dir}
    res, wall = run_marked([python, "-c", AIDER_SCRIPT, json.dumps(arg)], env, cwd=work)
    res["process_s"] = wall
    return res


def find_ctags() -> tuple[str | None, str]:
    exe = shutil.which("ctags")
    if exe is None:
        return None, "ctags not on PATH (run bench/setup.sh: apt-get install universal-ctags)"
    out = subprocess.run([exe, "--version"], capture_output=True, text=True).stdout
    if "Universal Ctags" not in out:
        return None, f"{exe} is not universal-ctags (run bench/setup.sh)"
    return exe, ""


def ctags_bench(exe: str, root: Path, rels: list[str], work: Path) -> dict:
    listing = work / "ctags-files.txt"
    listing.write_text("".join(r + "\n" for r in rels), encoding="utf-8")
    out = work / "tags.json"
    cmd = [exe, "--output-format=json", "--fields=+n", "-f", str(out), "-L", str(listing)]
    t = time.perf_counter()
    proc = subprocess.run(cmd, cwd=root, capture_output=True, text=True)
    wall = time.perf_counter() - t
    if proc.returncode != 0:
        raise RuntimeError(f"ctags failed: {proc.stderr[-2000:]}")
    with open(out, encoding="utf-8", errors="replace") as fh:
        tags = sum(1 for ln in fh if '"_type": "tag"' in ln)
    version = subprocess.run([exe, "--version"], capture_output=True, text=True).stdout
    return {"s": wall, "tags": tags, "version": version.splitlines()[0], "cmd": " ".join(cmd[:-4])}


# ------------------------------------------------------------------------- report


def fmt_s(x: float | None) -> str:
    return "-" if x is None else f"{x:.2f}"


def ratio(a: float | None, b: float | None) -> str:
    return "-" if not a or not b else f"{a / b:.2f}x"


def render(r: dict[str, Any]) -> str:
    c, rm = r["corpus"], r["repomem"]["cold"]
    run_s = rm["run_s"]
    code_mb = c["code_bytes"] / MB
    idx_mb = c["indexed_bytes"] / MB
    m = r["machine"]
    par = m.get("parallelism")
    load = m.get("other_load")
    lines = [
        f"## Indexing benchmark: {c['description']}",
        "",
        f"- machine: {m['cpus']} CPUs, Python {m['python']}; repomem workers: {rm['workers_used']}"
        + (
            f"; a CPU-bound loop gets {par['speedup']:.2f}x the work done in {par['procs']} "
            f"processes as in 1 (ideal {par['procs']}x)"
            if par
            else ""
        ),
        (
            f"- other load during the run: {load['other_cpu_s']:.1f} CPU-s used by other "
            f"processes, {load['steal_s']:.1f} s stolen by the hypervisor, over "
            f"{load['wall_s']:.0f} s"
            if load
            else "- other load during the run: unknown (no /proc/stat)"
        ),
        f"- corpus: {c['listed_files']} files ({c['listed_bytes'] / MB:.1f} MB) in git; "
        f"repomem indexed {c['indexed_files']} ({idx_mb:.1f} MB), of which "
        f"{c['code_files']} in parsed languages ({code_mb:.1f} MB: "
        f"{', '.join(f'{k} {v}' for k, v in c['code_languages'].items())}); "
        f"skipped {c['skipped']}",
        "- every baseline below gets exactly those parsed-language files",
        "",
        "| tool | files | time (s) | files/s | MB/s | notes |",
        "| --- | ---: | ---: | ---: | ---: | --- |",
    ]

    def row(name: str, files: int, secs: float | None, mb: float, note: str) -> None:
        fps = f"{files / secs:.0f}" if secs else "-"
        mbs = f"{mb / secs:.2f}" if secs else "-"
        lines.append(f"| {name} | {files} | {fmt_s(secs)} | {fps} | {mbs} | {note} |")

    row(
        "repomem cold index, `run()` only",
        c["indexed_files"],
        run_s,
        idx_mb,
        f"{rm['parsed']} parsed; imports {rm['import_s']:.2f} s apart; "
        f"CPU main {rm['cpu_main_s']:.1f} s + workers {rm['cpu_workers_s']:.1f} s",
    )
    row(
        "repomem cold index, whole process",
        c["indexed_files"],
        rm["process_s"],
        idx_mb,
        f"peak RSS main {rm['rss_main_kb'] / 1024:.0f} MB, worker "
        f"{rm['rss_worker_max_kb'] / 1024:.0f} MB; store {r['repomem']['store_bytes'] / MB:.1f} MB",
    )
    for key, label in (("raw_1", "raw tree-sitter parse"), ("raw_n", "raw tree-sitter parse")):
        p = r["parse"].get(key)
        if p:
            row(
                f"{label}, {p['procs']} proc",
                p["files"],
                p["s"],
                code_mb,
                "`Parser.parse(bytes)` only"
                + (f"; wall with process start {p['wall_s']:.2f} s" if p["procs"] > 1 else ""),
            )
    for key, label, note in (
        ("extract_1", "repomem `parser.parse`", "parse + tag query + symbols/refs"),
        ("extract_n", "repomem `parser.parse`", "parse + tag query + symbols/refs"),
        ("pipeline_1", "repomem `process_file`", "read, hash, redact, parse, search tokens"),
    ):
        p = r["parse"].get(key)
        if p:
            mb = idx_mb if key.startswith("pipeline") else code_mb
            row(f"{label}, {p['procs']} proc", p["files"], p["s"], mb, note)
    for key, label in (("raw", "aider `get_tags_raw`"), ("cache", "aider `get_tags`")):
        a = r["aider"].get(key)
        if a:
            note = (
                f"{a['defs']} defs, {a['refs']} refs; import {a['import_s']:.2f} s; "
                f"aider-chat {a['aider']}, language-pack {a['language_pack']}"
            )
            if key == "cache":
                note = "cold diskcache (what aider does first); " + note
            row(label + ", 1 proc", a["files"], a["tags_s"], code_mb, note)
    if r["ctags"].get("s"):
        ct = r["ctags"]
        row("universal-ctags", c["code_files"], ct["s"], code_mb, f"{ct['tags']} tags (defs only)")
    for name, why in r["skipped_tools"].items():
        lines.append(f"| {name} | - | - | - | - | skipped: {why} |")

    inc = r["repomem"]["incremental"]
    if inc:
        lines += [
            "",
            f"Incremental (median of {inc['repeat']}; edited file: `{inc['file']}`):",
            "",
            "| run | `run()` s | process s | CLI process s | parsed |",
            "| --- | ---: | ---: | ---: | ---: |",
            f"| no change | {fmt_s(inc['nochange_run_s'])} | {fmt_s(inc['nochange_process_s'])} "
            f"| {fmt_s(inc['nochange_cli_s'])} | {inc['nochange_parsed']} |",
            f"| one line appended to one file | {fmt_s(inc['onefile_run_s'])} "
            f"| {fmt_s(inc['onefile_process_s'])} | {fmt_s(inc['onefile_cli_s'])} "
            f"| {inc['onefile_parsed']} (CLI: {inc['onefile_cli_parsed']}) |",
            f"| difference | {inc['delta_run_s']:+.3f} | | {inc['delta_cli_s']:+.3f} | |",
        ]

    raw1 = (r["parse"].get("raw_1") or {}).get("s")
    rawn = (r["parse"].get("raw_n") or {}).get("s")
    aider_s = (r["aider"].get("raw") or {}).get("tags_s")
    lines += [
        "",
        "| ratio | value | target |",
        "| --- | ---: | --- |",
        f"| aider `get_tags_raw` / repomem cold `run()` | {ratio(aider_s, run_s)} | >= 3x |",
        f"| repomem cold `run()` / raw parse, 1 proc | {ratio(run_s, raw1)} | <= 2x |",
        f"| repomem cold `run()` / raw parse, {(r['parse'].get('raw_n') or {}).get('procs', '-')} "
        f"procs | {ratio(run_s, rawn)} | <= 2x |",
        f"| universal-ctags / repomem cold `run()` | {ratio(r['ctags'].get('s'), run_s)} "
        f"| reference |",
    ]
    if inc:
        lines.append(
            f"| one-file refresh minus no-change `run()` | {inc['delta_run_s']:+.3f} s | < 0.3 s |"
        )
        lines.append(f"| files parsed by the one-file refresh | {inc['onefile_parsed']} | 1 |")
    return "\n".join(lines)


# ------------------------------------------------------------------------- main


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repo", type=Path, help="a git work tree to copy and index (default: stdlib)")
    ap.add_argument(
        "--aider-python", help=f"python of a venv with aider-chat (default {DEFAULT_AIDER_PYTHON})"
    )
    ap.add_argument("--no-aider", action="store_true", help="skip aider")
    ap.add_argument("--no-ctags", action="store_true", help="skip universal-ctags")
    ap.add_argument(
        "--no-breakdown",
        action="store_true",
        help="skip repomem's parser.parse / process_file timings",
    )
    ap.add_argument(
        "--aider-cache",
        action="store_true",
        help="also time aider's get_tags with a cold diskcache",
    )
    ap.add_argument(
        "--procs",
        type=int,
        default=os.cpu_count() or 1,
        help="processes for the parallel raw parse (default: CPUs)",
    )
    ap.add_argument("--repeat", type=int, default=3, help="runs per incremental case (median)")
    ap.add_argument("--touch", help="repo-relative file to edit for the incremental run")
    ap.add_argument("--code-only", action="store_true", help="keep only files in parsed languages")
    ap.add_argument(
        "--profile",
        metavar="N",
        type=int,
        default=0,
        help="also profile one cold run with workers=1 under cProfile and print the top N",
    )
    ap.add_argument("--workdir", type=Path, help="where to build the corpus (default: a temp dir)")
    ap.add_argument("--keep", action="store_true", help="keep the work directory")
    ap.add_argument("--json", action="store_true", help="print the results as JSON")
    ap.add_argument("--save", type=Path, metavar="FILE", help="also write the results as JSON")
    args = ap.parse_args()

    from repomem.index import languages, parser

    work = Path(tempfile.mkdtemp(prefix="repomem-bench-", dir=args.workdir))
    root = work / "corpus"
    env = clean_env(work)
    results: dict[str, Any] = {
        "machine": {"cpus": os.cpu_count(), "python": sys.version.split()[0]},
        "skipped_tools": {},
        "parse": {},
        "aider": {},
        "ctags": {},
    }
    counters = cpu_counters()
    try:
        if args.procs > 1:
            log(f"== machine: CPU-bound loop in 1 and {args.procs} processes")
            results["machine"]["parallelism"] = machine_parallelism(args.procs)
        log(f"== corpus -> {root}")
        desc = make_corpus(root, args.repo, args.code_only)
        listed = source_files(root)

        log("== repomem cold index (fresh process, full=True)")
        cold = repomem_run(root, env, full=True, list_files=True)
        indexed = [(p, int(s)) for p, s in cold.pop("indexed")]
        cold["workers_used"] = cold["workers"] or os.cpu_count()
        store = Path(cold["store_uri"])
        results["repomem"] = {"cold": cold, "store_bytes": dir_bytes(store), "incremental": {}}
        code = [(p, languages.detect(p), s) for p, s in indexed]
        code = [f for f in code if parser.supports(f[1])]
        langs: dict[str, int] = {}
        for _p, lang, _s in code:
            langs[lang] = langs.get(lang, 0) + 1
        results["corpus"] = {
            "description": desc,
            "root": str(root),
            "listed_files": len(listed),
            "listed_bytes": sum(os.lstat(root / p).st_size for p in listed),
            "indexed_files": len(indexed),
            "indexed_bytes": sum(s for _, s in indexed),
            "code_files": len(code),
            "code_bytes": sum(s for *_, s in code),
            "code_languages": dict(sorted(langs.items(), key=lambda kv: -kv[1])),
            "skipped": cold["skipped"],
        }
        rels = [p for p, _l, _s in code]
        log(f"   {cold['run_s']:.2f} s run, {len(indexed)} indexed, {len(code)} code files")

        log("== raw tree-sitter parse")
        results["parse"]["raw_1"] = parse_bench("raw", root, code, 1)
        if args.procs > 1:
            results["parse"]["raw_n"] = parse_bench("raw", root, code, args.procs)
        if not args.no_breakdown:
            log("== repomem parser.parse and process_file (breakdown)")
            results["parse"]["extract_1"] = parse_bench("extract", root, code, 1)
            if args.procs > 1:
                results["parse"]["extract_n"] = parse_bench("extract", root, code, args.procs)
            everything = [(p, languages.detect(p), s) for p, s in indexed]
            results["parse"]["pipeline_1"] = parse_bench("pipeline", root, everything, 1)

        if args.no_aider:
            results["skipped_tools"]["aider"] = "--no-aider"
        else:
            exe, why = find_aider(args.aider_python)
            if exe is None:
                log(f"   aider skipped: {why}")
                results["skipped_tools"]["aider"] = why
            else:
                log("== aider RepoMap.get_tags_raw")
                results["aider"]["raw"] = aider_bench(exe, root, rels, work, env, cache=False)
                if args.aider_cache:
                    log("== aider RepoMap.get_tags (cold diskcache)")
                    results["aider"]["cache"] = aider_bench(exe, root, rels, work, env, cache=True)

        if args.no_ctags:
            results["skipped_tools"]["universal-ctags"] = "--no-ctags"
        else:
            exe, why = find_ctags()
            if exe is None:
                log(f"   ctags skipped: {why}")
                results["skipped_tools"]["universal-ctags"] = why
            else:
                log("== universal-ctags")
                results["ctags"] = ctags_bench(exe, root, rels, work)

        if args.repeat > 0:
            log("== repomem incremental")
            results["repomem"]["incremental"] = incremental(
                root, env, indexed_code=[(p, s) for p, _l, s in code], args=args
            )
        results["repomem"]["store_bytes_after"] = dir_bytes(store)

        if args.profile:
            log("== cProfile of a cold run with index.workers=1")
            prof_path = work / "cold.prof"
            repomem_run(
                root, env, full=True, overrides={"index.workers": 1}, profile=str(prof_path)
            )
            results["profile"] = profile_text(prof_path, args.profile)
        results["machine"]["other_load"] = other_load(counters)
    finally:
        if args.keep:
            log(f"kept {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)

    if args.save:
        args.save.write_text(json.dumps(results, indent=1), encoding="utf-8")
    if args.json:
        print(json.dumps(results, indent=1))
        return
    print(render(results))
    if results.get("profile"):
        print("\n### cProfile, cold run, workers=1\n\n```\n" + results["profile"] + "\n```")


def incremental(
    root: Path, env: dict[str, str], indexed_code: list[tuple[str, int]], args: argparse.Namespace
) -> dict[str, Any]:
    target = pick_touch_file(indexed_code, args.touch)
    nochange, nochange_cli, onefile, onefile_cli = [], [], [], []
    edits = 0
    for _ in range(args.repeat):
        nochange.append(repomem_run(root, env, full=False))
        nochange_cli.append(repomem_cli(root, env))
    for _ in range(args.repeat):
        edits += 1
        append_line(root / target, edits)
        onefile.append(repomem_run(root, env, full=False))
        edits += 1
        append_line(root / target, edits)
        onefile_cli.append(repomem_cli(root, env))

    def med(rows: list[dict[str, Any]], key: str) -> float:
        return statistics.median(float(x[key]) for x in rows)

    out = {
        "repeat": args.repeat,
        "file": target,
        "nochange_run_s": med(nochange, "run_s"),
        "nochange_process_s": med(nochange, "process_s"),
        "nochange_cli_s": med(nochange_cli, "process_s"),
        "nochange_parsed": max(x["parsed"] for x in nochange),
        "onefile_run_s": med(onefile, "run_s"),
        "onefile_process_s": med(onefile, "process_s"),
        "onefile_cli_s": med(onefile_cli, "process_s"),
        "onefile_parsed": max(x["parsed"] for x in onefile),
        "onefile_cli_parsed": max((x["parsed"] or 0) for x in onefile_cli),
        "runs": {
            "nochange": nochange,
            "nochange_cli": nochange_cli,
            "onefile": onefile,
            "onefile_cli": onefile_cli,
        },
    }
    out["delta_run_s"] = out["onefile_run_s"] - out["nochange_run_s"]
    out["delta_cli_s"] = out["onefile_cli_s"] - out["nochange_cli_s"]
    return out


def profile_text(path: Path, top: int) -> str:
    import io
    import pstats

    buf = io.StringIO()
    st = pstats.Stats(str(path), stream=buf)
    st.strip_dirs().sort_stats("tottime").print_stats(top)
    buf.write("\n")
    st.sort_stats("cumulative").print_stats(top)
    return buf.getvalue().strip()


if __name__ == "__main__":
    main()
