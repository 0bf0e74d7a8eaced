"""A context pack, and its rendering as Markdown, JSON (the stable contract) or XML.

Sections, in order: a header (repository, indexed commit, freshness, budget used, uncommitted
changes, deleted files marked), the project memory, the ranked files, notes on them, the code
(grouped by file in ranking order, with paths and line numbers), then the repository map
(signatures of the top files). JSON keeps the items in value order and echoes only the task's
head.
"""

from __future__ import annotations

import json
import re
import time
from dataclasses import asdict, dataclass, field
from typing import Any

from repomem import fsutil
from repomem.index import languages
from repomem.pack.items import Item
from repomem.plural import counted

FORMATS = ("md", "json", "xml")
UNCOMMITTED_SHOWN = 8  # files with uncommitted changes named in the header
# JSON and XML echo the task's head, not all of it: the caller has the task, and a long issue
# (a 25,000-character log) would otherwise fill the budget and leave no room for code.
TASK_ECHO = 1000  # characters


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
    deleted: set[str] = field(default_factory=set)  # those of `uncommitted` deleted
    # the rendering `build` measured against its `max_chars` (in its format; "" without one):
    # a caller prints it rather than rendering again, which costs as much and may differ
    # (Markdown says how long ago the index was updated)
    rendered: str = field(default="", repr=False, compare=False)

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
            "uncommitted_deleted": [
                p for p in self.uncommitted[:UNCOMMITTED_SHOWN] if p in self.deleted
            ],
        }

    def render(self, fmt: str = "md") -> str:
        if fmt == "json":
            return json.dumps(self.to_dict(), ensure_ascii=False, separators=(",", ":"))
        if fmt == "xml":
            return _render_xml(self)
        return _render_md(self)


def utf16_len(text: str) -> int:
    """`text`'s length as JavaScript counts it (Claude Code's limits on a hook's output): in
    UTF-16 code units, so a character beyond U+FFFF (an emoji, a rarer CJK one) counts two."""
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


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


_SECTION = {"memory": 0, "note": 1, "file": 2, "symbol": 2, "map": 3}  # the packs' sections


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


def memory_title(symbol: str) -> str:
    """The heading a memory entry goes under (`fact f-…` -> "Facts relevant to the task")."""
    return _MEMORY_TITLES.get(symbol.split(" ")[0], symbol)


def _fence(path: str) -> str:
    lang = languages.detect(path)
    return {"cpp": "cpp", "csharp": "csharp", "tsx": "tsx"}.get(lang, lang)


def _render_md(pack: Pack) -> str:
    # a terminal would run an escape sequence of the task, and a model gets a NUL for nothing
    first = fsutil.one_line(pack.task.splitlines()[0])[:120]
    state = (
        "fresh" if pack.fresh else f"stale: {counted(pack.pending, 'file')} changed since indexing"
    )
    if pack.indexed_at is not None:
        from repomem.index import query

        state += f", updated {query.ago(time.time() - pack.indexed_at)}"
    out = [
        f"# Context pack: {first}",
        f"Repository `{pack.repository}` at {(pack.commit or 'no commit')[:12]} (index {state}); "
        f"{pack.tokens} of {pack.budget} tokens.",
    ]
    if pack.uncommitted:
        shown = ", ".join(
            f"`{p}`" + (" (deleted)" if p in pack.deleted else "")
            for p in pack.uncommitted[:UNCOMMITTED_SHOWN]
        )
        more = len(pack.uncommitted) - UNCOMMITTED_SHOWN
        out.append(f"Uncommitted changes in {shown}" + (f" and {more} more." if more > 0 else "."))
    memory = [i for i in pack.items if i.kind == "memory"]
    if memory:
        out.append(f"\n## Project memory (from `{memory[0].path}`)")
        last = ""
        for i in memory:
            title = memory_title(i.symbol)
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


# (xml.sax.saxutils imports urllib.request, http.client, ssl and email: imported when needed,
# as `query`, which imports the indexer: a session's memory digest needs neither)
def _xml_text(text: str) -> str:
    from xml.sax.saxutils import escape

    return escape(_NOT_XML.sub("\ufffd", text))


def _xml_attr(text: str) -> str:
    from xml.sax.saxutils import quoteattr

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
            *(
                f"<file path={_xml_attr(p)}"
                + (' deleted="true"' if p in pack.deleted else "")
                + "/>"
                for p in shown
            ),
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
