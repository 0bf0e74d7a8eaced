"""Ranking signals from what the task names.

`mention`: a file path, module path or stack-trace frame quoted in the task points at the file
(a frame also at its function); `identifier`: an identifier quoted in the task is defined in the
file (shared among its definers); `path`: words of the task name the file or its folders,
weighted by how rare each word is among the repository's paths.
"""

from __future__ import annotations

import math
import re
from collections import defaultdict
from functools import lru_cache
from typing import Any

from repomem.fsutil import nfc
from repomem.index import graph as graphs
from repomem.index import tokens as tok
from repomem.pack.candidates import WEIGHTS, _add_symbol
from repomem.pack.penalties import _VENDORED_FILE, _kind
from repomem.pack.task import Frame, TaskSignals

PATH_COMPOUNDS = True  # "man page" names `manpage.py`: two adjacent words written as one
# A bare file name (`pyproject.toml`, `index.rst`) that matches docs or a text file names it at
# most this much, so their penalty stays (dev: 1 better, none worse; bench/README.md, run 11)
BARE_TEXT_MENTION = 0.4
# A traceback's frames other than its innermost (where the error was raised) name their files
# this much (dev: no change at 0.8, two tasks worse at 0.6; bench/README.md, run 11)
FRAME_OUTER = 0.8
MAX_MENTIONED = 5  # a mentioned file name shared by more files than this names none of them
# A long path (two folders or more) whose only match is by its bare file name names the user's
# own file (`/Users/me/code/bot/bot/logging.py` is not `src/_pytest/logging.py`), unless the
# match is at the repository's root (`/home/me/go/src/.../gin/errors.go` is `errors.go`).
BARE_NAME_FROM_LONG_PATH_ROOT_ONLY = True


@lru_cache(maxsize=4)
def _name_index(indexed: tuple[str, ...]) -> tuple[dict[str, list[str]], dict[str, str]]:
    """Each file name (`c.py`, in normal form C) -> the files so named, in index order; and
    each file's path in normal form C -> the path (a task that types `café.py` composed names
    the file macOS wrote decomposed). (Every suffix of every path, its first form, cost 0.4 s
    per process on 11,600 files.)"""
    by_name: dict[str, list[str]] = defaultdict(list)
    for path in indexed:
        by_name[nfc(path.rpartition("/")[2])].append(path)
    return dict(by_name), {nfc(p): p for p in indexed}


def _mentions(
    store: Any, signals: TaskSignals, by_name: dict[str, list[str]], known: dict[str, str],
    cand: Any, modules: graphs.ModuleIndex,
) -> None:  # fmt: skip
    """Files the task names: by path (its longest suffix that names any), by dotted module,
    and by the frames of a traceback (`by_name`, `known`: `_name_index` of the indexed files)."""
    in_frames = {f.path for f in signals.frames} | {f.path.lstrip("./") for f in signals.frames}
    for mentioned in signals.paths:
        if mentioned in in_frames:
            continue  # weighed by its place in the traceback below
        # the longest suffix of the mentioned path that names files in the repository
        parts = mentioned.strip("/").split("/")
        resolved = _suffix_hits(by_name, parts)
        if resolved and BARE_NAME_FROM_LONG_PATH_ROOT_ONLY and len(parts) >= 3:
            kept = [p for p in resolved[0] if "/" not in p or _suffix_len(p, parts) >= 2]
            resolved = (kept, resolved[1]) if kept else None
        if resolved:
            hits, strength = resolved
            for path in hits:
                value = strength / len(hits)
                _, _, doc, text = _kind(path)
                if len(parts) == 1 and (doc or text):
                    # `pyproject.toml`, `index.rst`: most likely the user's own file, which
                    # only shares its name with the repository's docs or examples
                    value = min(value, BARE_TEXT_MENTION)
                c = cand(path)
                c.signals["mention"] = max(c.signals.get("mention", 0.0), value)
    for dotted in signals.dotted:
        parts = dotted.split(".")
        for i in range(len(parts), 0, -1):
            found = modules.get(".".join(parts[:i]))
            if found and len(found) <= 3:
                for path in found:
                    c = cand(path)
                    c.signals["mention"] = max(c.signals.get("mention", 0.0), 0.8 / len(found))
                break
    # Each traceback's innermost frame in the repository (where the error was raised) names
    # its file in full, the calls that led there a little less (`FRAME_OUTER`).
    located: list[tuple[Frame, list[str], float]] = []
    for frame in signals.frames:
        parts = frame.path.replace("\\", "/").strip("/").split("/")
        # the indexed file the frame's path ends with (its longest such suffix)
        tail = next((known[nfc("/".join(parts[i:]))] for i in range(len(parts))
                     if nfc("/".join(parts[i:])) in known), None)  # fmt: skip
        if tail is not None:
            located.append((frame, [tail], 1.0))
        elif resolved := _suffix_hits(by_name, parts):
            located.append((frame, *resolved))  # `site-packages/_pytest/x.py`: `src/_pytest/x.py`
    innermost: dict[int, int] = {}
    for i, (frame, _, _) in enumerate(located):
        if frame.trace not in innermost or not frame.innermost_first:
            innermost[frame.trace] = i
    for i, (frame, hits, strength) in enumerate(located):
        if innermost[frame.trace] != i:
            strength *= FRAME_OUTER
        for path in hits:
            c = cand(path)
            c.signals["mention"] = max(c.signals.get("mention", 0.0), strength / len(hits))
        if len(hits) == 1 and frame.function:
            for r in store.symbols_named(frame.function)[:20]:
                if r["path"] == hits[0]:
                    _add_symbol(
                        cand(hits[0]), r, 1.0,
                        f"is in a stack frame quoted in the task (line {frame.line})", ties=True,
                    )  # fmt: skip


def _suffix_len(path: str, parts: list[str]) -> int:
    """How many trailing components `path` shares with the mentioned `parts`."""
    mine = nfc(path).split("/")
    n = 0
    while n < min(len(mine), len(parts)) and mine[-1 - n] == parts[-1 - n]:
        n += 1
    return n


def _suffix_hits(by_name: dict[str, list[str]], parts: list[str]) -> tuple[list[str], float] | None:
    """The files a mentioned path names by its longest suffix that names any (at most
    `MAX_MENTIONED`, else none), and how strongly: a whole path or a folder with the name
    fully, a bare file name less."""
    parts = [nfc(p) for p in parts]
    named = by_name.get(parts[-1]) if parts else None
    if not named:
        return None
    for i in range(len(parts)):
        suffix = "/".join(parts[i:])
        hits = [p for p in named if nfc(p) == suffix or nfc(p).endswith("/" + suffix)]
        if hits:
            if len(hits) > MAX_MENTIONED:
                return None  # `__init__.py`, `conf.py`: names no file in particular
            return hits[:5], 1.0 if i == 0 or len(parts) - i > 1 else 0.6
    return None


def _identifiers(store: Any, signals: TaskSignals, cand: Any) -> None:
    names = signals.identifiers[:40]
    found = store.symbols_named_many(names)
    for rank_i, name in enumerate(names):
        rows = found.get(name, [])[:40]
        definers = {r["path"] for r in rows}
        if not definers or len(definers) > 12:
            continue
        weight = (1.0 if rank_i < 10 else 0.7) / len(definers) ** 0.5
        for r in rows:
            c = cand(r["path"])
            c.signals["identifier"] = min(1.0, c.signals.get("identifier", 0.0) + weight)
            _add_symbol(c, r, 0.9, f"defines `{name}`, named in the task")


_PLAIN_STEMS = frozenset({"__init__", "index", "mod", "main", "__main__"})


@lru_cache(maxsize=4)
def _path_index(
    indexed: tuple[str, ...],
) -> tuple[dict[str, list[str]], dict[str, list[str]], dict[str, int]]:
    """Each path's stem words and folder words, and in how many paths each word occurs."""
    stems: dict[str, list[str]] = {}
    folders: dict[str, list[str]] = {}
    df: dict[str, int] = defaultdict(int)
    folder_tokens: dict[str, list[str]] = {}  # files share folders: tokenize each once
    for path in indexed:
        if _VENDORED_FILE.search(path):
            continue
        folder, _, name = path.rpartition("/")
        stem = name.split(".", 1)[0]
        stem_words = [] if stem in _PLAIN_STEMS else tok.tokens(stem)
        folder_words = folder_tokens.get(folder)
        if folder_words is None:
            folder_words = folder_tokens[folder] = tok.tokens(folder.replace("/", " "))
        stems[path] = stem_words
        folders[path] = folder_words
        for w in set(stem_words) | set(folder_words):
            df[w] += 1
    return stems, folders, dict(df)


_WORD = re.compile(r"[a-z]{3,}")


def _compounds(text: str) -> set[str]:
    """Adjacent words joined ("man page" -> `manpage`), as file names often write them."""
    words = _WORD.findall(text.lower())
    return {a + b for a, b in zip(words, words[1:], strict=False)}


def _path_words(signals: TaskSignals, indexed: list[str], cand: Any) -> None:
    """Files whose name (or folders) are words of the task, by the words' rarity in paths."""
    if not WEIGHTS.get("path"):
        return
    focus = set(tok.tokens(" ".join([signals.title, *signals.identifiers[:20]])))
    words = set(tok.tokens(signals.text)) | focus
    if PATH_COMPOUNDS:
        focus |= _compounds(signals.title)
        words |= _compounds(signals.text) | focus
    stems, folders, df = _path_index(tuple(indexed))
    n = len(stems) or 1

    def weight(w: str) -> float:
        return math.log(n / df[w]) * (1.0 if w in focus else 0.5)

    scores: dict[str, float] = {}
    for path, stem_words in stems.items():
        # the whole stem must be named (all its parts), folders count half
        stem_score = (
            sum(weight(w) for w in set(stem_words)) / len(set(stem_words))
            if stem_words and all(w in words for w in stem_words)
            else 0.0
        )
        folder_score = 0.5 * max((weight(w) for w in folders[path] if w in words), default=0.0)
        value = stem_score + folder_score
        if value > 0:
            scores[path] = value
    top = max(scores.values(), default=0.0)
    if top <= 0:
        return
    for path, value in scores.items():
        if value / top > 0.2:
            cand(path).signals["path"] = value / top
