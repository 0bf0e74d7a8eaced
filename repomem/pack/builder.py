"""Build a context pack: the task in, a ranked bundle of code that fits a token budget out.

Sections, in order: a header (repository, indexed commit, freshness, budget used), the project
memory (overview, conventions, relevant facts with stale ones marked, next steps, recent
sessions; see `repomem.pack.memory`), the ranked files with the reason for each, the code (whole
small files, else the relevant symbols' bodies, with paths and line numbers), then a repository
map (signatures of the top files).

Packing is greedy by value per token over whole items: an item's value is its file's score
times the share of it that is likely relevant, so a large file's relevant symbols beat the whole
file, and nothing is ever cut in the middle. Two exceptions, both measured on where gold patches
land (bench/README.md, "ninth run"): each of the top three files, whole if it fits in 40% of the
budget, else its best symbol, is valued whatever its size (otherwise a long function that
matches best loses to short ones that match a little, and a large budget is spread thin over
forty files); and a nested function is offered as the outermost function around it. Items never
repeat: a symbol inside a file (or a class) already in the pack is skipped. The budget is a
hard ceiling, checked on the rendered text with a real tokenizer.
"""

from __future__ import annotations

import json
import logging
import re
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from repomem import secrets, vcs
from repomem.config import CONFIG_NAME, Config, PackSection
from repomem.errors import BudgetError, InputError, RepomemError
from repomem.fsutil import text_lines
from repomem.index import chunks, dense, indexer, languages, query
from repomem.index import graph as graphs
from repomem.index.discovery import IGNORE_FILE
from repomem.pack import history as githistory
from repomem.pack import memory as pmemory
from repomem.pack import task as tasks
from repomem.pack import tokens
from repomem.pack.candidates import Candidate, SymbolHit, file_symbols
from repomem.pack.rank import rank

log = logging.getLogger(__name__)
_POOL = ThreadPoolExecutor(1, thread_name_prefix="repomem-pack")

FORMATS = ("md", "json", "xml")
RANKING_SIZE = 30  # `ranking` lists at least the 20 best files, whether or not they fit
CODE_FILES = 40  # candidates whose code may enter the pack
WHOLE_FILE_MAX = 1500  # tokens: larger files contribute symbols instead
RELEVANT_SPAN = 600  # tokens of an item that count as relevant in its value
LEAD_FILES = 3  # in each of the top files, the whole file if it fits in LEAD_SHARE of the
LEAD_SHARE = 0.4  # budget, else its best symbol, is valued whatever its size
PARENT_SHARE = 0.5  # budget: a nested function's hit brings its parent in only up to this
SYMBOLS_PER_FILE = 8  # best matching symbols of a file offered to the packer
SYMBOL_FLOOR = 0.5  # a symbol's value: its file's score x (floor + (1 - floor) x its own)
MAP_FILES = 30
MAP_SYMBOLS = 12
MIN_BUDGET = 200
UNCOMMITTED_SHOWN = 8  # files with uncommitted changes named in the header
# After the rendered pack is fitted to the budget, what is left of it goes to the best items
# that did not make it, in at most this many more rounds (each renders and counts the pack).
# The packing counts an item's heading and reason by estimate, so a pack of many small items
# or long reasons could stop at two thirds of its budget (gin, 3,000 tokens: 1,960).
TOP_UP_ROUNDS = 3
# JSON and XML echo the task's head, not all of it: the caller has the task, and a long issue
# (a 25,000-character log) would otherwise fill the budget and leave no room for code.
TASK_ECHO = 1000  # characters


@dataclass
class Item:
    """One entry of a pack (the JSON contract's `items`)."""

    kind: str  # "file", "symbol" or "map"
    path: str
    symbol: str
    start_line: int
    end_line: int
    tokens: int
    score: float
    reason: str
    text: str
    exact: bool = field(default=True, repr=False, compare=False)
    lead: bool = field(default=False, repr=False, compare=False)  # valued whatever its size

    def count(self, margin: float) -> int:
        """Count the tokens exactly (estimates are used to order candidates)."""
        if not self.exact:
            self.tokens = tokens.count(self.text, margin)
            self.exact = True
        return self.tokens


@dataclass
class Pack:
    """A context pack, renderable as Markdown, JSON or XML."""

    task: str
    budget: int
    tokens: int
    fresh: bool
    repository: str
    commit: str | None
    pending: int
    items: list[Item] = field(default_factory=list)
    indexed_at: float | None = None  # when the index was last updated (Unix time)
    ranking: list[tuple[str, float]] = field(default_factory=list)
    seconds: float = 0.0
    uncommitted: list[str] = field(default_factory=list)  # indexed files with changes

    def to_dict(self) -> dict[str, Any]:
        """The stable JSON contract (see the README)."""
        return {
            "task": _echo(self.task),
            "budget": self.budget,
            "tokens": self.tokens,
            "fresh": self.fresh,
            "repository": self.repository,
            "commit": self.commit,
            "pending": self.pending,
            "indexed_at": self.indexed_at,
            "items": [_item_dict(i) for i in self.items],
            "ranking": [{"path": p, "score": round(s, 4)} for p, s in self.ranking],
            "uncommitted": self.uncommitted[:UNCOMMITTED_SHOWN],
        }

    def render(self, fmt: str = "md") -> str:
        if fmt == "json":
            return json.dumps(self.to_dict(), ensure_ascii=False, separators=(",", ":"))
        if fmt == "xml":
            return _render_xml(self)
        return _render_md(self)


def _echo(task: str) -> str:
    """The task's first `TASK_ECHO` characters, cut at a line or word end, with "…" when cut."""
    if len(task) <= TASK_ECHO:
        return task
    head = task[:TASK_ECHO]
    cut = max(head.rfind("\n"), head.rfind(" "))
    return (head[:cut] if cut > TASK_ECHO // 2 else head).rstrip() + " …"


def _item_dict(item: Item) -> dict[str, Any]:
    data = asdict(item)
    data.pop("exact")
    data.pop("lead")
    data["score"] = round(item.score, 4)
    return data


def _estimate(text: str, margin: float) -> int:
    # cl100k averages ~3.5-4 characters per token on code; 3 keeps estimates on the high side
    return int(len(text) / 3 * margin) + 1


def build(
    cfg: Config,
    task: str,
    *,
    budget: int | None = None,
    fmt: str | None = None,
    refresh: bool | None = None,
) -> Pack:
    """Build the context pack for a task.

    Indexes the repository first if it has no index yet, and refreshes a stale index when
    `refresh` (default `pack.refresh`) is on.

    Raises:
        InputError: if the task is empty or the format unknown.
        BudgetError: if the budget cannot hold even the header.
        StoreError: if the index cannot be built or read.
    """
    t0 = time.monotonic()
    # A pasted log or command may carry a token: the pack echoes the task, so it is redacted
    # first, as prose (`password: Tr0ub4dor3` counts; pasted code such as
    # `api_key = os.environ[...]` stays as written).
    text, _ = secrets.redact(task.strip(), prose=True, extra_patterns=cfg.secrets.extra_patterns)
    if not text:
        raise InputError("The task is empty; pass the task text (or --task-file FILE).")
    fmt = cfg.pack.format if fmt is None else fmt
    if fmt not in FORMATS:
        raise InputError(f"Unknown pack format `{fmt}`; use one of {', '.join(FORMATS)}.")
    budget = cfg.pack.budget if budget is None else budget
    if budget < MIN_BUDGET:
        raise BudgetError(
            f"A budget of {budget} tokens cannot hold a pack; the minimum is {MIN_BUDGET}."
        )
    refresh = cfg.pack.refresh if refresh is None else refresh
    dirty = _POOL.submit(vcs.dirty_paths, cfg.root)  # git works while the store is read
    store = indexer.reader(cfg)
    refreshed = not store.exists() or refresh
    if refreshed:
        indexer.run(cfg)  # it compared the work tree with the store: now fresh
        store = indexer.reader(cfg)
    meta = store.all_meta()  # one read for both keys
    commit = meta.get("indexed_commit") or None
    try:
        indexed_at: float | None = float(meta.get("indexed_at") or "")
    except ValueError:
        indexed_at = None
    pending = 0
    fresh = True
    if not refreshed:
        states = store.file_states()
        plan = indexer.make_plan(cfg, states)
        pending = len(indexer.really_changed(cfg, plan, states)) + len(plan.deleted)
        fresh = (
            pending == 0 and commit == plan.head and indexer.built_under_current_rules(cfg, meta)
        )

    signals = tasks.analyse(text)
    selection = pmemory.select(cfg, store, text)
    changed = _uncommitted(dirty, {CONFIG_NAME, IGNORE_FILE, selection.path})
    signals.cited = selection.cited
    state = indexer.state_dir(cfg)
    symbols: dict[str, list[dict[str, Any]]] = {}  # file symbols read once per pack
    ranked = rank(
        store, signals, graph_cache=state, history=githistory.load(cfg.root, state),
        embedder=dense.embedder_for(cfg), symbols=symbols, uncommitted=changed,
    )  # fmt: skip
    working = {c.path for c in ranked if "work" in c.signals}  # the indexed ones (rank knows)
    uncommitted = [p for p in changed if p in working]
    if cfg.pack.llm_rerank:
        from repomem.llm import rerank as model_rerank

        ranked = model_rerank.rerank(cfg, text, ranked)
    pack = Pack(
        task=text, budget=budget, tokens=0, fresh=fresh, repository=cfg.root.name,
        commit=commit, pending=pending, indexed_at=indexed_at,
        ranking=[(c.path, c.score) for c in ranked[:RANKING_SIZE]], uncommitted=uncommitted,
    )  # fmt: skip
    margin = cfg.pack.token_margin
    extra = cfg.secrets.extra_patterns
    top_paths = [c.path for c in ranked[:10]]
    entries = pmemory.finish(cfg, selection, top_paths) + pmemory.recent(selection)
    memory = []
    for e in sorted(entries, key=lambda e: -e.score):
        # the file is committed and edited by hand: a secret written into it stops here
        body, _ = secrets.redact(e.text, config_like=True, extra_patterns=extra)
        memory.append(Item("memory", selection.path, e.symbol, 0, 0, _estimate(body, margin),
                           e.score, e.reason, body, exact=False))  # fmt: skip
    candidates = _code_items(store, ranked[:CODE_FILES], margin, symbols, budget)
    candidates += _note_items(cfg, store, ranked[:CODE_FILES], margin)
    map_items = _map_items(store, ranked[:MAP_FILES], margin, symbols)
    _fill(pack, memory, candidates, map_items, budget, margin, cfg.pack, fmt)
    pack.seconds = time.monotonic() - t0
    return pack


def _uncommitted(dirty: Future[list[str]], own: set[str]) -> list[str]:
    """The paths with uncommitted changes but repomem's `own` (none without git, or when git
    fails); `rank` keeps those it indexed."""
    try:
        return [p for p in dirty.result() if p not in own]
    except (RepomemError, OSError, vcs.git_error()) as exc:
        log.debug("no uncommitted changes for the pack: %s", exc)
        return []


def warm(cfg: Config) -> float:
    """Build what the next pack would otherwise build first, in a background refresh (a git
    hook's, the watcher's): the def/ref graph with its PageRank and the git history's signals,
    both cached on disk until the index or HEAD changes. Returns the seconds it took.

    After a commit the first pack paid for both: on a 12,000-file repository 2.6 s more than
    a warm pack with the graph built whole, about 1 s with the graph updated in place.

    Raises:
        StoreError: if the store cannot be read.
    """
    t0 = time.monotonic()
    store = indexer.reader(cfg)
    if store.exists():
        state = indexer.state_dir(cfg)
        graphs.cached(store, state)
        githistory.load(cfg.root, state)
    return time.monotonic() - t0


def _with_parents(
    hits: list[SymbolHit], rows: list[dict[str, Any]], fits: Callable[[int, int], bool]
) -> list[SymbolHit]:
    """The hits with each nested function replaced by its outermost enclosing function that
    `fits` (lines), at the better of the two scores: a nested helper means little without the
    function around it, and once in the pack it would keep that function out (items never
    overlap). A parent too large for the pack leaves the nested function as it is."""
    nested = [h for h in hits if h.kind in chunks.KINDS and "." in h.qualname]
    if not nested:
        return hits
    functions = {r["qualname"]: r for r in rows if r["kind"] in chunks.KINDS}
    out = {(h.start_line, h.end_line): h for h in hits}
    for h in nested:
        parent = None  # the outermost function whose qualified name prefixes the hit's
        prefix = h.qualname
        while "." in prefix:
            prefix = prefix.rsplit(".", 1)[0]
            row = functions.get(prefix)
            if (
                row
                and row["start_line"] <= h.start_line
                and h.end_line <= row["end_line"]
                and fits(int(row["start_line"]), int(row["end_line"]))
            ):
                parent = row
        if parent is None:
            continue
        span = (int(parent["start_line"]), int(parent["end_line"]))
        old = out.get(span)
        if old is None or old.score < h.score:
            out[span] = SymbolHit(
                h.path, parent["name"], parent["qualname"], parent["kind"],
                parent["signature"], span[0], span[1], h.score,
                f"contains `{h.name}`, a function that {h.reason}",
            )  # fmt: skip
        if span != (h.start_line, h.end_line):
            out.pop((h.start_line, h.end_line), None)
    return list(out.values())


def _code_items(
    store: Any, ranked: list[Candidate], margin: float,
    known: dict[str, list[dict[str, Any]]], budget: int,
) -> list[Item]:  # fmt: skip
    """Whole files and symbol bodies of the ranked files; `known` caches symbol tables."""
    paths = [c.path for c in ranked if c.score > 0]
    texts = store.texts(paths)
    # symbol tables for nested functions' parents: those the map reads anyway
    rows = file_symbols(store, paths[:MAP_FILES], known)
    items: list[Item] = []
    for place, c in enumerate(ranked):
        text = texts.get(c.path)
        if text is None or c.score <= 0:
            continue
        lines = text_lines(text)
        estimate = _estimate(text, margin)
        top = place < LEAD_FILES
        whole = max(WHOLE_FILE_MAX, int(budget * LEAD_SHARE)) if top else WHOLE_FILE_MAX
        n = tokens.count(text, margin) if estimate <= whole * 1.3 else estimate
        if n <= whole:
            items.append(
                Item("file", c.path, "", 1, max(1, len(lines)), n, c.score, c.reason, text,
                     lead=top)
            )  # fmt: skip
            if n <= RELEVANT_SPAN:
                continue  # a small file is better whole than in pieces
        hits = sorted(c.symbols.values(), key=lambda h: -h.score)[:SYMBOLS_PER_FILE]

        def fits(start: int, end: int) -> bool:
            body = "\n".join(lines[start - 1 : end])  # noqa: B023 - called at once
            return _estimate(body, margin) <= budget * PARENT_SHARE

        hits = sorted(_with_parents(hits, rows.get(c.path, []), fits), key=lambda h: -h.score)
        lead = top  # a top file's best symbol (with a body) is valued whatever its size
        for hit in hits:
            body = "\n".join(lines[hit.start_line - 1 : hit.end_line])
            if not body.strip():
                continue
            items.append(
                Item(
                    "symbol",
                    c.path,
                    hit.qualname,
                    hit.start_line,
                    hit.end_line,
                    _estimate(body, margin),
                    c.score * (SYMBOL_FLOOR + (1 - SYMBOL_FLOOR) * hit.score),
                    f"{hit.kind} that {hit.reason}",
                    body,
                    exact=False,
                    lead=lead,
                )
            )
            lead = False
    return items


def _note_items(cfg: Config, store: Any, ranked: list[Candidate], margin: float) -> list[Item]:
    """Notes on the top files written by people, assistants or the model (offline notes only
    repeat the docstrings and signatures the code and map already show)."""
    from repomem.llm import notes

    scores = {c.path: c.score for c in ranked if c.score > 0}
    items = []
    for path, note in notes.best_notes(cfg, list(scores), store=store).items():
        if note.source == notes.GENERATED_OFFLINE:
            continue
        reason = f"{note.source} note on a top-ranked file"
        if note.stale:
            reason += "; stale: the file changed since it was written"
        text = note.text.strip()
        items.append(
            Item("note", path, note.source, 0, 0, _estimate(text, margin),
                 scores[path] * (0.6 if note.stale else 1.0), reason, text, exact=False)
        )  # fmt: skip
    return items


def _map_items(
    store: Any, ranked: list[Candidate], margin: float, known: dict[str, list[dict[str, Any]]]
) -> list[Item]:
    paths = [c.path for c in ranked if c.score > 0]
    symbols = file_symbols(store, paths, known)
    items = []
    for c in ranked:
        rows = [r for r in symbols.get(c.path, []) if r["kind"] not in ("variable", "field")]
        if not rows:
            continue
        # top-level definitions first, then their members
        rows.sort(key=lambda r: (r["qualname"].count("."), r["start_line"]))
        shown = sorted(rows[:MAP_SYMBOLS], key=lambda r: r["start_line"])
        text = "\n".join(
            f"{'  ' * (1 + r['qualname'].count('.'))}{r['start_line']}: {r['signature']}"
            for r in shown
        )
        items.append(
            Item(
                "map",
                c.path,
                "",
                0,  # signatures from across the file, not a range of its lines
                0,
                _estimate(text, margin),
                c.score,
                "signatures of a top-ranked file",
                text,
                exact=False,
            )
        )
    return items


def _density(item: Item) -> float:
    if item.lead:
        return item.score
    return item.score * min(1.0, RELEVANT_SPAN / max(item.tokens, 1))


def _overlaps(item: Item, chosen: list[Item]) -> bool:
    for other in chosen:
        if other.path != item.path or (item.kind == "note") != (other.kind == "note"):
            continue  # a note never overlaps code; two notes on one path do
        if other.kind in ("file", "note") or item.kind in ("file", "note"):
            return True
        if item.start_line <= other.end_line and other.start_line <= item.end_line:
            return True
    return False


def _fill(
    pack: Pack, memory: list[Item], code: list[Item], maps: list[Item], budget: int,
    margin: float, opts: PackSection, fmt: str,
) -> None:  # fmt: skip
    base = tokens.count(pack.render(fmt), margin)
    while base > budget and (pack.ranking or pack.uncommitted):
        if pack.uncommitted:  # a hint: it goes before the ranking is shortened
            pack.uncommitted = []
        else:
            pack.ranking = pack.ranking[:-5] if len(pack.ranking) > 5 else []
        base = tokens.count(pack.render(fmt), margin)
    if base > budget:
        raise BudgetError(
            f"A budget of {budget} tokens cannot hold the pack's header ({base} tokens); "
            f"raise --budget."
        )
    per_item = 12  # headings and fences around each item, counted again at the end
    used = base
    chosen: list[Item] = []
    # memory first, in order of value, within its share (what it leaves goes to code)
    memory_budget = int(budget * opts.memory_share)
    spent_memory = 0
    for item in memory:
        cost = item.count(margin) + 4
        if spent_memory + cost > memory_budget or used + cost > budget:
            continue
        chosen.append(item)
        spent_memory += cost
        used += cost
    for item in sorted(code, key=lambda i: (-_density(i), i.path, i.start_line)):
        if used + per_item >= budget or _overlaps(item, chosen):
            continue
        if used + min(item.tokens, _estimate(item.text, 1.0) // 2) + per_item > budget:
            continue  # cannot fit even on an optimistic count
        cost = item.count(margin) + per_item
        if used + cost > budget:
            continue
        chosen.append(item)
        used += cost
    map_budget = min(
        budget - used, int(budget * opts.map_share) + max(0, budget - used - budget // 2)
    )
    spent = 0
    for item in maps:
        if spent + item.count(margin) + 8 > map_budget:
            break
        chosen.append(item)
        spent += item.tokens
    pack.items = _sections(chosen)
    _fit(pack, budget, margin, fmt)
    if TOP_UP_ROUNDS:
        _top_up(pack, code, maps, budget, margin, fmt)
        _fit(pack, budget, margin, fmt)


def _fit(pack: Pack, budget: int, margin: float, fmt: str) -> None:
    """Drop the least valuable items until the rendered pack fits, and settle `pack.tokens`
    on the count of the text that states it (the header shows the count itself).

    The rendered text is the truth. Counting a rendered pack costs ~8 ms, so items go in
    batches: as many of the least valuable as an overestimate of what each frees says are
    needed, then the pack is counted again. With an overestimate a batch never drops more
    than one at a time would."""
    settling = 0
    while True:
        count = tokens.count(pack.render(fmt), margin)
        if count <= budget:
            # a longer number only adds tokens, so this settles within a round or two
            if count == pack.tokens or settling == 3:
                return
            pack.tokens = count
            settling += 1
            continue
        pack.tokens = count
        if not pack.items:
            return
        excess = count - budget
        freed = 0.0
        # memory was given its share up front: code makes room first
        for worst in sorted(pack.items, key=lambda i: (i.kind == "memory", _density(i))):
            pack.items.remove(worst)
            freed += _freed_at_most(worst)
            if freed >= excess:
                break


def _sections(items: list[Item]) -> list[Item]:
    return sorted(items, key=lambda i: (_SECTION[i.kind], -i.score, i.path, i.start_line))


def _top_up(
    pack: Pack, code: list[Item], maps: list[Item], budget: int, margin: float, fmt: str
) -> None:
    """Fill what the fitted pack leaves of its budget with the best items left out: in each
    round as many as an estimate of their rendered cost says fit, kept only if the rendered
    pack still does (else the round's estimate is halved and tried again)."""
    taken = {id(i) for i in pack.items}
    ordered = sorted(code, key=lambda i: (-_density(i), i.path, i.start_line)) + maps
    rest = [i for i in ordered if id(i) not in taken]
    scale = 1.0
    for _ in range(TOP_UP_ROUNDS):
        room = (budget - pack.tokens) * scale
        batch: list[Item] = []
        spent = 0
        for item in rest:
            if spent + 20 > room:
                break
            if len(item.text) / 6 > room - spent or _overlaps(item, pack.items + batch):
                continue  # too big even on an optimistic count, or already in
            item.count(margin)  # its `tokens`, which JSON shows, counted rather than estimated
            cost = tokens.count(_rendered(item, fmt), margin) + 2  # + the join, roughly
            if spent + cost <= room:
                batch.append(item)
                spent += cost
        if not batch:
            return
        before = pack.items
        pack.items = _sections(before + batch)
        count = tokens.count(pack.render(fmt), margin)
        if count > budget:
            pack.items = before  # pack.tokens still counts it
            scale /= 2
            continue
        pack.tokens = count
        rest = [i for i in rest if all(i is not b for b in batch)]


_SECTION = {"memory": 0, "note": 1, "file": 2, "symbol": 2, "map": 3}  # the packs' sections


def _freed_at_most(item: Item) -> float:
    """More tokens than removing `item` frees from a rendered pack (its text, escaped in JSON
    and XML, plus its heading, reason and fences)."""
    return 2 * item.tokens + len(item.reason) + len(item.path) + len(item.symbol) + 40


_MEMORY_TITLES = {
    "overview": "Overview",
    "conventions": "Conventions",
    "fact": "Facts relevant to the task",
    "decision": "Decisions relevant to the task",
    "next": "Next steps",
    "session": "Recent sessions",
    "history": "Earlier sessions",
    "error": "Memory file problem",
}


def _fence(path: str) -> str:
    lang = languages.detect(path)
    return {"cpp": "cpp", "csharp": "csharp", "tsx": "tsx"}.get(lang, lang)


def _render_md(pack: Pack) -> str:
    first = pack.task.splitlines()[0][:120]
    state = "fresh" if pack.fresh else f"stale: {pack.pending} file(s) changed since indexing"
    if pack.indexed_at is not None:
        state += f", updated {query.ago(time.time() - pack.indexed_at)}"
    out = [
        f"# Context pack: {first}",
        f"Repository `{pack.repository}` at {(pack.commit or 'no commit')[:12]} (index {state}); "
        f"{pack.tokens} of {pack.budget} tokens.",
    ]
    if pack.uncommitted:
        shown = ", ".join(f"`{p}`" for p in pack.uncommitted[:UNCOMMITTED_SHOWN])
        more = len(pack.uncommitted) - UNCOMMITTED_SHOWN
        out.append(f"Uncommitted changes in {shown}" + (f" and {more} more." if more > 0 else "."))
    memory = [i for i in pack.items if i.kind == "memory"]
    if memory:
        out.append(f"\n## Project memory (from `{memory[0].path}`)")
        last = ""
        for i in memory:
            title = _MEMORY_TITLES.get(i.symbol.split(" ")[0], i.symbol)
            if title != last:
                out.append(f"\n### {title}")
                last = title
            out.append(i.text)
    if pack.ranking:
        out.append("\n## Most relevant files")
        out.extend(f"{i}. `{p}` ({s:.2f})" for i, (p, s) in enumerate(pack.ranking[:20], 1))
    notes = [i for i in pack.items if i.kind == "note"]
    if notes:
        out.append("\n## Notes on these files")
        for i in notes:
            stale = " (stale: the file changed since)" if "stale" in i.reason else ""
            out.append(f"- `{i.path}` ({i.symbol}){stale}: " + " ".join(i.text.split()))
    code = [i for i in _reading_order(pack) if i.kind in ("file", "symbol")]
    if code:
        out.append("\n## Code")
        out.extend(_md_item(i) for i in code)
    maps = [i for i in pack.items if i.kind == "map"]
    if maps:
        out.append("\n## Repository map (line: signature)")
        out.extend(_md_item(i) for i in maps)
    return "\n".join(out) + "\n"


def _md_item(i: Item) -> str:
    """A code or map item as Markdown (memory and notes are rendered in their sections)."""
    if i.kind == "map":
        return f"{i.path}\n{i.text}"
    where = f"{i.path}:{i.start_line}-{i.end_line}"
    title = f"`{i.symbol}` in {where}" if i.symbol else where
    ticks = "`" * max(3, 1 + max((len(m) for m in _TICKS.findall(i.text)), default=0))
    return f"\n### {title}\n_{i.reason}_\n{ticks}{_fence(i.path)}\n{i.text.rstrip()}\n{ticks}"


# A line that opens or closes a code fence (CommonMark): the pack's fence is made longer than
# any in the code it holds (a docstring's ``` example, a whole Markdown file).
_TICKS = re.compile(r"^ {0,3}(`{3,})", re.M)
# Characters XML 1.0 does not allow in a document, even escaped: shown as U+FFFD.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def _xml_text(text: str) -> str:
    return escape(_NOT_XML.sub("\ufffd", text))


def _xml_attr(text: str) -> str:
    return quoteattr(_NOT_XML.sub("\ufffd", text))


def _reading_order(pack: Pack) -> list[Item]:
    """The items in the order Markdown and XML show them: by section, and the code grouped
    by file (files in ranking order, each file's items in line order), read like the files
    themselves rather than jumping between them by value (JSON keeps the value order)."""
    place = {p: n for n, (p, _) in enumerate(pack.ranking)}

    def key(i: Item) -> tuple[int, int, str, int]:
        if i.kind not in ("file", "symbol"):
            return (_SECTION[i.kind], 0, "", 0)  # a stable sort keeps their order
        return (_SECTION[i.kind], place.get(i.path, len(place)), i.path, i.start_line)

    return sorted(pack.items, key=key)


def _render_xml(pack: Pack) -> str:
    out = [
        f"<context_pack repository={_xml_attr(pack.repository)} "
        f"commit={_xml_attr(pack.commit or '')} fresh={_xml_attr(str(pack.fresh).lower())} "
        f'budget="{pack.budget}" tokens="{pack.tokens}">',
        f"<task>{_xml_text(_echo(pack.task))}</task>",
        "<ranking>",
        *(f'<file path={_xml_attr(p)} score="{s:.3f}"/>' for p, s in pack.ranking[:20]),
        "</ranking>",
    ]
    if pack.uncommitted:
        shown = pack.uncommitted[:UNCOMMITTED_SHOWN]
        more = len(pack.uncommitted) - len(shown)
        out += [
            f'<uncommitted more="{more}">',
            *(f"<file path={_xml_attr(p)}/>" for p in shown),
            "</uncommitted>",
        ]
    out.extend(_xml_item(i) for i in _reading_order(pack))
    out.append("</context_pack>")
    return "\n".join(out) + "\n"


def _xml_item(i: Item) -> str:
    attrs = (
        f'path={_xml_attr(i.path)} start_line="{i.start_line}" '
        f'end_line="{i.end_line}" reason={_xml_attr(i.reason)}'
    )
    if i.symbol:
        attrs += f" symbol={_xml_attr(i.symbol)}"
    return f"<{i.kind} {attrs}>\n{_xml_text(i.text)}\n</{i.kind}>"


def _rendered(item: Item, fmt: str) -> str:
    """What `item` adds to a pack rendered in `fmt` (its section's heading aside)."""
    if fmt == "json":
        return json.dumps(_item_dict(item), ensure_ascii=False, separators=(",", ":")) + ","
    return _xml_item(item) if fmt == "xml" else _md_item(item)
