#!/usr/bin/env python3
"""How fast the secret filter reads code, and texts dense with credentials, against a baseline
revision of it.

    python bench/redact_bench.py [--baseline REV] [--rounds 3] [--corpus DIR]

The baseline is `repomem/secrets` (and `repomem/errors.py`) of the git revision REV (default
HEAD), taken with `git archive` into a temporary directory and imported as
`repomem_baseline`, so both run in this one process on the same texts:

1. **Corpus**: every `.py` file under DIR (default: the interpreter's standard library,
   `sysconfig.get_paths()["stdlib"]`, site-packages included), read as UTF-8; files that are
   not are skipped. Each file is redacted as code (`redact(text)`) by both, one after the other,
   their order swapped from one file to the next and from one round to the next, so the load
   of other processes falls on both alike. Reported: the CPU time (`time.process_time`) of
   each round and MB/s of the fastest, the ratio of the summed times, and how many files the
   two redact differently (a baseline from before a change of the rules differs on purpose).
2. **Dense**: 1.6 MB of one line repeated (`password="..."` in code, `password=x` in code,
   bare values in config, a comment, YAML, an API key), or of a word that introduces a
   credential without one (`connect(`, `net use `, ...), the fastest of the rounds of each
   (the baseline and this tree in turn, the first of them swapped from round to round).

Nothing is asserted: it measures, people judge. On a machine shared with other work, run it
when it is quiet and compare ratios, not times.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import subprocess
import sys
import sysconfig
import tarfile
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from repomem.secrets import redact  # noqa: E402

Redact = Callable[..., tuple[str, int]]

DENSE = {
    # name: (line, config_like)
    "code, quoted": ('password="Tr0ub4dor&3x"\n', False),
    "code, bare": ("password=x\n", False),
    "config, bare": ("password=Tr0ub4dor&3x\n", True),
    "comment": ("# password: Tr0ub4dor3x\n", False),
    "yaml": ("password: Tr0ub4dor3x\n", True),
    "api key": ('api_key = "abcDEF0123456789xyz"\n', False),
}
# Words that introduce a credential, repeated without one: every hit is to be dropped inside
# the regex engine (a megabyte of "connect(" took seconds when each was read in Python).
REPEATED_WORDS = (
    *("connect(", "connect(\n", "login(", "creds ", "log in ", "expdp ", "rman target "),
    *("userid=", "redis(", "new PDO(", "FTP(", "--password-stdin ", "sudo -S ", "exp "),
    *("net use ", "net use \\\\s\\x /user:me ", "NET USER ", "net  use ", "net\tuser "),
    *(" /rp ", "schtasks /p "),
)
DENSE.update({f"word {word!r}": (word, False) for word in REPEATED_WORDS})


def load_baseline(rev: str, into: Path) -> Redact:
    """`redact` of `repomem/secrets` at git revision `rev`, imported as `repomem_baseline`."""
    archive = subprocess.run(
        ["git", "archive", rev, "repomem/secrets", "repomem/errors.py"],
        cwd=ROOT,
        check=True,
        capture_output=True,
    ).stdout
    package = into / "repomem_baseline"
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        for member in tar.getmembers():
            if not member.isfile():
                continue
            data = tar.extractfile(member)
            assert data is not None
            source = data.read().decode("utf-8").replace("repomem.", "repomem_baseline.")
            target = package / Path(member.name).relative_to("repomem")
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(source, encoding="utf-8")
    (package / "__init__.py").write_text("", encoding="utf-8")
    sys.path.insert(0, str(into))
    from repomem_baseline.secrets import redact as baseline  # type: ignore[import-not-found]

    return baseline  # type: ignore[no-any-return]


def corpus(root: Path) -> list[str]:
    texts = []
    for folder, _, names in os.walk(root):
        for name in sorted(names):
            if name.endswith(".py"):
                with contextlib.suppress(UnicodeDecodeError, OSError):
                    texts.append((Path(folder) / name).read_text(encoding="utf-8"))
    return texts


def interleaved(texts: list[str], baseline: Redact, rounds: int) -> tuple[list[float], ...]:
    """CPU seconds of each round for the baseline and this tree, each file by both in turn."""
    clock = time.process_time
    base_times, tree_times = [], []
    for r in range(rounds):
        base = tree = 0.0
        for i, text in enumerate(texts):
            first, second = (baseline, redact) if (i + r) % 2 else (redact, baseline)
            t0 = clock()
            first(text)
            t1 = clock()
            second(text)
            t2 = clock()
            if first is baseline:
                base, tree = base + t1 - t0, tree + t2 - t1
            else:
                tree, base = tree + t1 - t0, base + t2 - t1
        base_times.append(base)
        tree_times.append(tree)
    return base_times, tree_times


def dense(baseline: Redact, rounds: int) -> None:
    print("\n| dense text (1.6 MB) | baseline s | this tree s | baseline / this |")
    print("|---|---:|---:|---:|")
    for name, (line, config_like) in DENSE.items():
        text = line * (1_600_000 // len(line))
        times: dict[str, list[float]] = {"base": [], "tree": []}
        for r in range(rounds):  # (alternating, so a burst of other work falls on both)
            order = (("base", baseline), ("tree", redact))
            for label, fn in order if r % 2 == 0 else order[::-1]:
                t0 = time.process_time()
                fn(text, config_like=config_like)
                times[label].append(time.process_time() - t0)
        best = {label: min(each) for label, each in times.items()}
        print(f"| {name} | {best['base']:.2f} | {best['tree']:.2f} | "
              f"{best['base'] / best['tree']:.2f} |")  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--baseline", default="HEAD", help="git revision to compare with")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--corpus", type=Path, default=Path(sysconfig.get_paths()["stdlib"]))
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="redact-bench-") as tmp:
        baseline = load_baseline(args.baseline, Path(tmp))
        texts = corpus(args.corpus)
        mb = sum(len(t.encode("utf-8")) for t in texts) / 1e6
        differ = sum(baseline(t) != redact(t) for t in texts)
        base_times, tree_times = interleaved(texts, baseline, args.rounds)
        print(f"{len(texts)} files, {mb:.1f} MB ({args.corpus}); baseline {args.baseline}; "
              f"{differ} redacted differently; load {os.getloadavg()[0]:.1f}")  # fmt: skip
        print("\n| corpus | CPU s per round | MB/s (fastest) |")
        print("|---|---|---:|")
        for label, times in (("baseline", base_times), ("this tree", tree_times)):
            rounds = ", ".join(f"{t:.2f}" for t in times)
            print(f"| {label} | {rounds} | {mb / min(times):.1f} |")
        print(f"\nthis tree / baseline throughput: {sum(base_times) / sum(tree_times):.3f}")
        dense(baseline, args.rounds)


if __name__ == "__main__":
    main()
