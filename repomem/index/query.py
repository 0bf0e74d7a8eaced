"""Read-side operations over the index: status, search, symbol lookup.

These are the library calls behind `repomem status`, `repomem search` and `repomem symbol`; they
return plain JSON-ready values (documented in the README) and never print.
"""

from __future__ import annotations

import time
import unicodedata
from collections import Counter
from typing import Any

from repomem import paths
from repomem.config import Config
from repomem.errors import InputError, NotFoundError, StoreError
from repomem.fsutil import echo, text_lines, valid_text
from repomem.index import indexer
from repomem.index.languages import name_parts

SYMBOL_KINDS = (
    "class",
    "function",
    "method",
    "interface",
    "struct",
    "enum",
    "trait",
    "type",
    "module",
    "namespace",
    "constant",
    "variable",
    "field",
    "property",
    "constructor",
    "macro",
    "file",
)


def require_store(cfg: Config) -> Any:
    """The repository's store, which must have been built.

    Raises:
        StoreError: if there is no index yet, or its first build has not finished.
    """
    store = None if indexer.store_absent(cfg) else indexer.reader(cfg)
    if store is None or not store.exists():
        raise StoreError(f"No index for `{cfg.root}` yet; run `repomem index` first.")
    if "*" in store.read_journal() and not store.published():
        # its tables hold some of the files and no full-text index: every answer would be wrong
        raise StoreError(
            f"The index of `{cfg.root}` is incomplete (its first build was interrupted); "
            "run `repomem index` first."
        )
    return store


# Three of `why_not_indexed`'s answers, which callers tell apart (the others: a skip reason,
# not listed by git)
MISSING = "does not exist"
DIRECTORY = "a directory"
NEW = "new since the last index run"


def why_not_indexed(cfg: Config, store: Any, rel: str) -> str | None:
    """Why the index has no content for the repository path `rel`, as a phrase: `MISSING`,
    `DIRECTORY`, "skipped as `generated` (a lock file ...)" (the reasons `status` counts),
    "not listed by git ...", `NEW`; None when indexed."""
    from repomem import vcs
    from repomem.index import discovery

    row = store.file(rel)
    if row is not None and not row["skip"]:
        return None
    why = row["skip"] if row is not None else None
    full = cfg.root / rel
    if why is None:
        if not full.exists() and not full.is_symlink():
            return MISSING
        if full.is_dir():
            return DIRECTORY
        why = discovery.Filter(cfg).reason(rel)
    if why is None:
        try:
            discovery.stat_file(cfg, rel)
        except discovery.Skip as skip:
            why = skip.reason
    if why is not None:
        meaning = discovery.SKIP_REASONS.get(why)
        return f"skipped as `{why}`" + (f" ({meaning})" if meaning else "")
    if vcs.open_repo(cfg.root) is not None and not discovery.git_files(cfg, [rel]):
        return "not listed by git: ignored, or untracked while `index.include_untracked` is off"
    return NEW


def indexed_spelling(store: Any, rel: str) -> str:
    """`rel` as the index spells it: itself, or the one path the index holds that is `rel` in
    another Unicode normal form (on macOS, git lists a name composed that the file system
    keeps decomposed, and either spelling opens the file)."""
    if rel.isascii():
        return rel
    forms = {unicodedata.normalize(form, rel) for form in ("NFC", "NFD")} - {rel}
    found = store.column("files", ["path"], [rel, *sorted(forms)])["path"]
    return found[0] if len(found) == 1 else rel


def status(cfg: Config) -> dict[str, Any]:
    """Counts, languages, skips, store size and freshness against HEAD and the work tree."""
    store = require_store(cfg)
    meta = store.all_meta()
    files = store.column(
        "files", ["path", "language", "hash", "size", "mtime_ns", "skip", "symbols"]
    )
    states = {
        p: (s, m, h)
        for p, s, m, h in zip(
            files["path"], files["size"], files["mtime_ns"], files["hash"], strict=True
        )
    }
    plan = indexer.make_plan(cfg, states)
    indexed = [i for i, skip in enumerate(files["skip"]) if not skip]
    languages = Counter(files["language"][i] for i in indexed)
    skipped = Counter({k: len(v) for k, v in plan.skipped.items()})
    gone = set(plan.deleted)
    for path, skip in zip(files["path"], files["skip"], strict=True):
        if skip and path not in gone:
            skipped[skip] += 1
    indexed_commit = meta.get("indexed_commit") or None
    fresh_head = indexed_commit == plan.head
    changed, deleted = indexer.pending_changes(cfg, store, plan, states)
    pending = len(changed) + len(deleted)
    indexed_at = float(meta.get("indexed_at") or 0)
    return {
        "root": str(cfg.root),
        "git": plan.git,
        "store": store.uri,
        "schema_version": int(meta.get("schema_version") or 0),
        "files": len(indexed),
        "symbols": store.count("symbols"),
        "references": store.count("refs"),
        "commits": store.count_commits(),
        "languages": dict(languages.most_common()),
        "skipped": dict(sorted(skipped.items())),
        "store_bytes": store.size_bytes(),
        "head": plan.head,
        "indexed_commit": indexed_commit,
        "indexed_at": indexed_at,
        "age_seconds": round(time.time() - indexed_at, 1) if indexed_at else None,
        "pending": {"changed": len(changed), "deleted": len(deleted)},
        "fresh": fresh_head and pending == 0 and indexer.built_under_current_rules(cfg, meta),
        "llm_rerank": _rerank_spend(cfg),
    }


def _rerank_spend(cfg: Config) -> dict[str, float] | None:
    """Today's estimated spend on model re-ranking against its cap; None while it is off."""
    if not cfg.pack.llm_rerank:
        return None
    from repomem.llm import rerank

    return {"spent_today_usd": round(rerank.spent_today(cfg), 4),
            "daily_usd": cfg.pack.llm_rerank_daily_usd}  # fmt: skip


def search(
    cfg: Config,
    query: str,
    *,
    kind: str | None = None,
    path_glob: str | None = None,
    limit: int = 20,
) -> list[dict[str, Any]]:
    """Full-text search over symbols and files, best first; `path_glob` keeps the paths (or
    file names) it matches.

    Raises:
        InputError: if `path_glob` has a `[` never closed.
        StoreError: if there is no index yet.
    """
    if path_glob is not None:
        paths.check_glob(path_glob)
    store = require_store(cfg)
    return [h.as_dict() for h in store.search(query, kind=kind, path_glob=path_glob, limit=limit)]


def symbol(
    cfg: Config, name: str, *, with_body: bool = True, max_refs: int = 200
) -> list[dict[str, Any]]:
    """Definitions named `name` (or with that qualified name, or one ending with its parts
    however they are joined: `Cart.total` finds `Shop.Cart.total`, `Db::new` finds `Db.new`,
    Go's `pkg.(*Db).New` finds `Db.New`),
    with body and references.

    Raises:
        NotFoundError: if no definition matches.
    """
    if not name.strip():
        raise InputError("The symbol name is empty; give one (`Parser.parse`, `parse`).")
    name = valid_text(name)
    store = require_store(cfg)
    defs = store.symbols_named(name) or _named_by_parts(store, name)
    if not defs:
        raise NotFoundError(
            f"No symbol named `{echo(name)}` in the index; try `repomem search {echo(name)}`, "
            "or run "
            "`repomem index` first if it was written since the last update."
        )
    references = _references(store, defs[0]["qualname"], max_refs)
    texts: dict[str, list[str]] = {}
    out = []
    for d in sorted(defs, key=lambda r: (r["path"], r["start_line"])):
        item = {
            k: d[k]
            for k in (
                "name",
                "qualname",
                "kind",
                "path",
                "start_line",
                "end_line",
                "signature",
                "doc",
                "language",
            )
        }
        if with_body:
            if d["path"] not in texts:
                row = store.file(d["path"])
                texts[d["path"]] = text_lines(row["text"] if row else "")
            item["body"] = "\n".join(texts[d["path"]][d["start_line"] - 1 : d["end_line"]])
        out.append(item)
    for item in out:
        item["references"] = references
    return out


SUFFIX_CANDIDATES = 2000  # definitions of the last part read to match the others


def _named_by_parts(store: Any, name: str) -> list[dict[str, Any]]:
    """Definitions whose qualified name ends with the parts of `name`, however they are joined:
    the stored one may begin with a module or namespace (Ruby, PHP, C#, C++) the asker left
    out, and the asker may join the parts as the language does."""
    parts = name_parts(name)
    if len(parts) == 1 and parts[0] != name.strip():
        return list(store.symbols_named(parts[0]))  # `parse()`: the name it calls
    if len(parts) < 2:
        return []
    n = len(parts)
    return [
        d
        for d in store.symbols_named(parts[-1], limit=SUFFIX_CANDIDATES)
        if name_parts(d["qualname"])[-n:] == parts
    ]


def references(cfg: Config, name: str, *, limit: int = 200) -> list[dict[str, Any]]:
    """Where the identifier `name` (its `identifier`: the last part) is used, by path and line,
    and where a qualified `name` is imported by that whole name (`using Shop.App.Services;`).

    Raises:
        StoreError: if there is no index yet.
    """
    return _references(require_store(cfg), name, limit)


def identifier(name: str) -> str:
    """The last part of a name however its language joins the parts (`Db::new`, `a.b`,
    `Cart#add`): the identifier references are stored under."""
    parts = name_parts(name)
    return parts[-1] if parts else ""


def _references(store: Any, name: str, limit: int) -> list[dict[str, Any]]:
    last = identifier(name)
    rows = store.references_to(last, limit=limit)
    whole = name.strip()
    if whole != last:
        # an import is stored under the whole name it imports (`using Shop.App.Services;`)
        rows += [r for r in store.references_to(whole, limit=limit) if r["kind"] == "import"]
    return [
        {k: r[k] for k in ("path", "line", "kind", "scope", "count")}
        for r in sorted(rows, key=lambda r: (r["path"], r["line"]))
    ]


def ago(seconds: float) -> str:
    """An age in words: `42 s ago`, `5 min ago`, `3.5 h ago`, `4 days ago`."""
    seconds = max(0.0, seconds)
    if seconds < 90:
        return f"{seconds:.0f} s ago"
    if seconds < 5400:
        return f"{seconds / 60:.0f} min ago"
    if seconds < 2 * 86400:
        return f"{seconds / 3600:.1f} h ago"
    return f"{seconds / 86400:.0f} days ago"
