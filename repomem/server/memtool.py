"""Anthropic's client-side memory tool command set, backed by the project memory.

Agents built on the Anthropic API call a `memory` tool with the commands `view`, `create`,
`str_replace`, `insert`, `delete` and `rename` on paths under `/memories`. Here that directory
is a view of the project memory:

- `/memories/REPOMEM.md` (the memory file's own name) is the file itself. `view` shows it with
  line numbers; `str_replace`, `insert` and `create` (a full rewrite) edit it under the memory
  lock. The result must still parse, must keep every entry (use `forget` to drop one), and new
  text goes through the secret filter. A status changes only through its operation: a fact
  marked `forgotten` is forgotten as `forget` does it (its text erased); `stale`,
  `superseded`, `valid` again, `confirmed` and new facts written other than valid are refused,
  naming the tool or command that checks them. It cannot be deleted or renamed.
- `/memories/<topic>.md` is the facts whose topic is `<topic>`, one per paragraph as
  `id: text`. `create` and `insert` remember new facts with that topic (one per paragraph,
  or per line when there are no blank lines; near-duplicates merge; existing facts are kept);
  `str_replace` inside one fact's text supersedes it (why: "edited through the memory tool"),
  replacing a fact's whole text with nothing forgets it; `delete` forgets every fact of the
  topic; `rename` moves them to another topic.
- `view /memories` lists the file and one entry per topic.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass

from repomem.config import Config
from repomem.errors import InputError, NotFoundError
from repomem.fsutil import control_chars, echo, valid_text
from repomem.memory import access
from repomem.memory.file import MemoryDoc
from repomem.memory.model import Fact
from repomem.server.tools import Result, assistant_source, memory_file_text, shown_prose

ROOT = "/memories"
COMMANDS = ("view", "create", "str_replace", "insert", "delete", "rename")
WHY = "edited through the memory tool"
# letters and digits of any script (`\\w`): a topic in Japanese or Russian keeps its own file
_UNSAFE = re.compile(r"[^\w. -]+")
_HEADING = re.compile(r"^#{1,6}\s")
_BULLET = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+")


@dataclass
class Target:
    kind: str  # "root", "file" or "topic"
    name: str = ""  # the topic's file name without ".md"


def slug(topic: str) -> str:
    """A topic's file name (without `.md`)."""
    # NFC: a client may send `é` as `e` and a combining accent
    return _UNSAFE.sub("-", unicodedata.normalize("NFC", topic)).strip(" .-") or "topic"


def file_name(cfg: Config) -> str:
    """The memory file's name, as it appears under /memories.

    Raises:
        ConfigError: when `memory.file` points outside the repository.
    """
    return access.memory_path(cfg).name


def parse_path(cfg: Config, raw: str | None, what: str = "path") -> Target:
    """Where a `/memories/...` path points.

    Raises:
        InputError: for a path outside `/memories`, with `..`, or in a sub-directory.
    """
    if raw is None or not raw.strip():
        raise InputError(f"The command needs `{what}`, a path under {ROOT}.")
    path = raw.strip()
    if "\\" in path or "%2e" in path.lower() or "\x00" in path:
        raise InputError(f"`{echo(raw)}` is not a plain {ROOT} path; use forward slashes only.")
    if path != ROOT and not path.startswith(ROOT + "/"):
        raise InputError(f"Path must start with {ROOT}, got: {echo(raw)}")
    rest = path[len(ROOT) :].strip("/")
    if not rest:
        return Target("root")
    if ".." in rest.split("/") or "." in rest.split("/"):
        raise InputError(f"Path {echo(raw)} would escape {ROOT}; use /memories/<topic>.md.")
    if "/" in rest:
        raise InputError(
            f"{ROOT} has no sub-directories here (got {echo(raw)}); use {ROOT}/<topic>.md or "
            f"{ROOT}/{file_name(cfg)}."
        )
    if rest == file_name(cfg):
        return Target("file")
    name = unicodedata.normalize("NFC", rest[:-3] if rest.endswith(".md") else rest)
    if slug(name) != name:
        raise InputError(
            f"`{echo(rest)}` is not a usable topic file name; use letters, digits, spaces, `.`, "
            f"`_` or `-`, like {ROOT}/testing.md."
        )
    return Target("topic", name)


def _topics(doc: MemoryDoc) -> dict[str, list[Fact]]:
    out: dict[str, list[Fact]] = {}
    for f in doc.facts():
        if f.status in ("valid", "stale") and f.topic:
            out.setdefault(slug(f.topic), []).append(f)
    return out


def _render_topic(name: str, facts: list[Fact]) -> tuple[str, list[tuple[int, int, Fact]]]:
    """The topic file's text and where each fact's text lies in it."""
    text = f"<!-- repomem facts with topic `{facts[0].topic if facts else name}`: id: text -->\n"
    spans: list[tuple[int, int, Fact]] = []
    for f in facts:
        mark = " [stale]" if f.status == "stale" else ""
        text += f"\n{f.id}{mark}: "
        spans.append((len(text), len(text) + len(f.text), f))
        text += f.text + "\n"
    return text, spans


def _size(n: int) -> str:
    return f"{n}B" if n < 1024 else f"{n / 1024:.1f}K"


def _numbered(path: str, text: str, view_range: list[int] | None) -> str:
    lines = text.split("\n")
    start = 1
    if view_range:
        if len(view_range) != 2:
            raise InputError("`view_range` must be two numbers: [first_line, last_line or -1].")
        first = max(1, view_range[0])
        last = len(lines) if view_range[1] == -1 else view_range[1]
        if last < first - 1:
            raise InputError(f"Invalid `view_range` {view_range}: the end comes before the start.")
        lines = lines[first - 1 : last]
        start = first
    body = "\n".join(f"{str(i + start).rjust(6)}\t{line}" for i, line in enumerate(lines))
    return f"Here's the content of {path} with line numbers:\n{body}"


def _find_once(text: str, old: str, shown: str) -> int:
    """Where `old` occurs in `text`, which must be exactly once.

    Raises:
        InputError: when it does not occur, or occurs more than once (naming the lines).
    """
    starts = [m.start() for m in re.finditer(re.escape(old), text)]
    if not starts:
        raise InputError(
            f"No replacement was performed, old_str `{echo(old)}` did not appear verbatim in "
            f"{shown}."
        )
    if len(starts) > 1:
        lines = ", ".join(str(text.count("\n", 0, p) + 1) for p in starts)
        raise InputError(
            f"No replacement was performed: old_str `{echo(old)}` appears {len(starts)} times in "
            f"{shown} (lines {lines}); make it unique."
        )
    return starts[0]


def _paragraphs(text: str) -> list[str]:
    """Facts in a block of text: one per paragraph, or per line when there are no blank lines."""
    lines = [ln for ln in text.replace("\r\n", "\n").split("\n") if not _HEADING.match(ln)]
    lines = [ln for ln in lines if not ln.strip().startswith("<!--")]
    body = "\n".join(lines).strip()
    if not body:
        return []
    blocks = re.split(r"\n\s*\n", body) if re.search(r"\n\s*\n", body) else body.split("\n")
    out = []
    for block in blocks:
        cleaned = " ".join(_BULLET.sub("", ln).strip() for ln in block.split("\n")).strip()
        if cleaned:
            out.append(cleaned)
    return out


def run(
    cfg: Config,
    command: str,
    *,
    path: str | None = None,
    view_range: list[int] | None = None,
    file_text: str | None = None,
    old_str: str | None = None,
    new_str: str | None = None,
    insert_line: int | None = None,
    insert_text: str | None = None,
    old_path: str | None = None,
    new_path: str | None = None,
    read_only: bool = False,
) -> Result:
    """Carry out one memory tool command.

    Raises:
        InputError: unknown command, missing or bad arguments, a refused edit.
        NotFoundError: a topic with no facts.
        MemoryFileError: an edit of the memory file that would not parse.
    """
    if command not in COMMANDS:
        raise InputError(f"Unknown memory command `{command}`; use one of {', '.join(COMMANDS)}.")
    # JSON can carry half of a UTF-16 pair, which the file cannot hold
    file_text, old_str, new_str, insert_text = (
        None if t is None else valid_text(t) for t in (file_text, old_str, new_str, insert_text)
    )
    if read_only and command != "view":
        raise InputError(
            f"This server is read-only (`repomem serve --read-only`); `{command}` is refused, "
            f"only `view` works."
        )
    if command == "rename":
        return _rename(cfg, parse_path(cfg, old_path, "old_path"), parse_path(cfg, new_path,
                       "new_path"), old_path or "", new_path or "")  # fmt: skip
    target = parse_path(cfg, path)
    shown = echo(path.strip()) if path else ROOT
    if command == "view":
        return _view(cfg, target, shown, view_range)
    if target.kind == "root":
        raise InputError(f"`{command}` needs a file: {ROOT}/{file_name(cfg)} or a topic file.")
    if command == "delete":
        return _delete(cfg, target, shown)
    if command == "create":
        if file_text is None:
            raise InputError("`create` needs `file_text`.")
        if target.kind == "file":
            return _edit_file(cfg, shown, lambda current: _rewrite(cfg, current, file_text))
        return _add(cfg, target, file_text, f"File created successfully at: {shown}")
    if command == "insert":
        if insert_text is None or insert_line is None:
            raise InputError("`insert` needs `insert_line` and `insert_text`.")
        if target.kind == "file":
            return _edit_file(cfg, shown, lambda cur: _insert(cfg, cur, insert_line, insert_text))
        return _add(cfg, target, insert_text, f"The file {shown} has been edited.")
    if old_str is None or new_str is None:
        raise InputError("`str_replace` needs `old_str` and `new_str`.")
    if not old_str:
        raise InputError("`old_str` is empty; give text that appears once in the file.")
    if target.kind == "file":
        return _edit_file(cfg, shown, lambda cur: _replace(cfg, shown, cur, old_str, new_str))
    return _replace_fact(cfg, target, shown, old_str, new_str)


# ------------------------------------------------------------------------ view


def _view(cfg: Config, target: Target, shown: str, view_range: list[int] | None) -> Result:
    if target.kind == "root":
        name = file_name(cfg)
        entries = [(len(memory_file_text(cfg).encode()), f"{ROOT}/{name}")]
        topics = _topics(access.load(cfg))
        for tname in sorted(topics):
            text, _ = _render_topic(tname, topics[tname])
            # a topic named like the memory file opens without `.md` (with it: the file)
            shown_name = tname if f"{tname}.md" == name else f"{tname}.md"
            entries.append((len(text.encode()), f"{ROOT}/{shown_name}"))
        lines = [f"{_size(sum(n for n, _ in entries))}\t{ROOT}"]
        lines += [f"{_size(n)}\t{p}" for n, p in entries]
        header = (
            f"Here're the files and directories up to 2 levels deep in {ROOT}, excluding hidden "
            f"items:"
        )
        data = {"files": [{"path": p, "bytes": n} for n, p in entries]}
        return Result(header + "\n" + "\n".join(lines), data)
    if target.kind == "file":
        text = memory_file_text(cfg)
        return Result(_numbered(shown, text, view_range), {"path": shown})
    facts = _topics(access.load(cfg)).get(target.name)
    if not facts:
        raise NotFoundError(f"The path {shown} does not exist. Please provide a valid path.")
    text, _ = _render_topic(target.name, facts)
    return Result(
        _numbered(shown, shown_prose(cfg, text), view_range),
        {"path": shown, "facts": [f.id for f in facts]},
    )


# ------------------------------------------------------------------------ topic files


def _add(cfg: Config, target: Target, text: str, message: str) -> Result:
    from repomem.memory import ops

    texts = _paragraphs(text)
    if not texts:
        raise InputError("The text holds no fact; write one fact per paragraph or line.")
    source = assistant_source(cfg)
    added: list[str] = []
    merged: list[str] = []
    # one write for all: a refused paragraph (a credential) leaves the file as it was
    with access.editing(cfg) as doc:
        topic = next((f.topic for f in _topics(doc).get(target.name, [])), target.name)
        for t in texts:
            out = ops.remember(cfg, t, topic=topic, source=source, doc=doc)
            (merged if out.action == "merged" else added).append(out.fact.id)
    note = f" ({len(added)} fact(s) added, {len(merged)} merged into existing ones)"
    return Result(message + note, {"added": added, "merged": merged, "topic": topic})


def _replace_fact(cfg: Config, target: Target, shown: str, old: str, new: str) -> Result:
    from repomem.memory import ops

    facts = _topics(access.load(cfg)).get(target.name)
    if not facts:
        raise NotFoundError(f"The path {shown} does not exist. Please provide a valid path.")
    text, spans = _render_topic(target.name, facts)
    pos = _find_once(text, old, shown)
    hit = next((s for s in spans if s[0] <= pos and pos + len(old) <= s[1]), None)
    if hit is None:
        raise InputError(
            "No replacement was performed: old_str must lie within the text of one fact (not "
            "its id or the header)."
        )
    start, _, fact = hit
    new_text = fact.text[: pos - start] + new + fact.text[pos - start + len(old) :]
    if not new_text.strip():
        ops.forget(cfg, fact.id)
        return Result(f"The memory file has been edited: forgot {fact.id}.", {"forgot": fact.id})
    out = ops.supersede(cfg, fact.id, new_text, why=WHY, source=assistant_source(cfg))
    return Result(
        f"The memory file has been edited: {fact.id} superseded by {out.fact.id}.",
        {"superseded": fact.id, "by": out.fact.id, "version": out.version},
    )


def _delete(cfg: Config, target: Target, shown: str) -> Result:
    from repomem.memory import ops

    if target.kind == "file":
        raise InputError(
            f"{shown} is the project memory itself and cannot be deleted; forget single facts "
            f"(or delete a topic file) instead."
        )
    with access.editing(cfg) as doc:  # all of the topic's facts in one write, or none
        facts = _topics(doc).get(target.name)
        if not facts:
            raise NotFoundError(f"The path {shown} does not exist")
        for f in facts:
            ops.forget(cfg, f.id, doc=doc)
    return Result(
        f"Successfully deleted {shown} (forgot {len(facts)} fact(s))",
        {"forgot": [f.id for f in facts]},
    )


def _rename(cfg: Config, old: Target, new: Target, old_raw: str, new_raw: str) -> Result:
    from repomem.memory import ops

    if old.kind != "topic" or new.kind != "topic":
        raise InputError(
            f"Only topic files can be renamed; {ROOT}/{file_name(cfg)} and {ROOT} stay put."
        )
    topics = _topics(access.load(cfg))
    if not topics.get(old.name):
        raise NotFoundError(f"The path {echo(old_raw.strip())} does not exist")
    if topics.get(new.name) and new.name != old.name:
        raise InputError(f"The destination {echo(new_raw.strip())} already exists")
    topic = ops.clean_text(cfg, new.name, "The topic")
    moved = []
    with access.editing(cfg) as doc:
        for f in doc.facts():
            if f.status in ("valid", "stale") and f.topic and slug(f.topic) == old.name:
                f.topic = topic
                doc.touch(f)
                moved.append(f.id)
    return Result(
        f"Successfully renamed {old_raw.strip()} to {new_raw.strip()} ({len(moved)} fact(s))",
        {"moved": moved, "topic": topic},
    )


# ------------------------------------------------------------------------ the memory file


def _edit_file(cfg: Config, shown: str, change: Callable[[str], tuple[str, str]]) -> Result:
    """Apply `change(current_text) -> (new_text, message)` to the memory file under its lock.

    A fact marked forgotten is forgotten as `forget` does it; other status changes are
    refused (`_status_edits`)."""
    from repomem.memory import ops

    with access.editing(cfg) as doc:
        path = access.memory_path(cfg)
        current = doc.render()  # the file as read by `editing` (rendering is lossless)
        new_text, message = change(current)
        if new_text == current:
            return Result(message, {"path": shown, "changed": False})
        added = control_chars(new_text) - control_chars(current)
        if added:
            # a NUL makes git take the committed file for binary; an escape rewrites a terminal
            raise InputError(
                f"Refusing the edit: it writes a control character (U+{ord(min(added)):04X}) "
                f"into {shown}, which holds text only; remove it."
            )
        new_doc = access.parse_text(new_text, path)
        # the same ids `editing` guards (history sessions too), so a lossy edit is the
        # agent's mistake named here, not reported by `editing` as a bug in repomem
        lost = sorted(access.entry_ids(doc) - access.entry_ids(new_doc))
        if lost:
            raise InputError(
                f"Refusing the edit: it would drop {', '.join(lost[:8])} from {shown}; forget a "
                f"fact with the forget tool (or delete its topic file) instead."
            )
        forgetting = _status_edits(doc, new_doc)
        doc.prefix, doc.sections, doc.newline = new_doc.prefix, new_doc.sections, new_doc.newline
        doc.schema_version = new_doc.schema_version
        doc.version = max(doc.version, new_doc.version)
        doc.changed = True
        for fact_id in forgetting:
            ops.forget(cfg, fact_id, doc=doc)
    if forgetting:
        message += f"\nMarked forgotten, so forgot {', '.join(forgetting)} (its text is erased)."
    data = {"path": shown, "changed": True, "version": doc.version}
    return Result(message, data | {"forgot": forgetting} if forgetting else data)


# a fact's status and what records it: changed only by the operations that check them
_STATUS_FIELDS = ("status", "stale", "superseded_by", "superseded_at", "forgotten", "confirmed")


def _status(fact: Fact) -> tuple[str, ...]:
    return tuple(getattr(fact, name) for name in _STATUS_FIELDS)


def _status_edits(old: MemoryDoc, new: MemoryDoc) -> list[str]:
    """The ids of the facts the edit marks forgotten, their status in `new` set back for
    `forget` to erase them.

    Raises:
        InputError: for any other change of a fact's status (or a forgotten fact's entry),
            naming the operation that makes it.
    """
    before = {f.id: f for f in old.facts()}
    forgetting: list[str] = []
    for f in new.facts():
        was = before.get(f.id)
        if was is None:
            if _status(f) != _status(Fact(f.id)):
                raise InputError(
                    f"Refusing the edit: the new fact `{f.id}` is written {f.status} or with a "
                    f"status field; a new fact is recorded valid (write it without them, or use "
                    f"the remember tool)."
                )
            continue
        if was.status == "forgotten" and f != was:
            raise InputError(
                f"Refusing the edit: `{f.id}` is forgotten and stays so; record the fact anew "
                f"with the remember tool."
            )
        if _status(f) == _status(was):
            continue
        if f.status == "forgotten":
            for name in _STATUS_FIELDS:
                setattr(f, name, getattr(was, name))
            forgetting.append(f.id)
        elif was.status == "superseded":
            raise InputError(
                f"Refusing the edit: `{f.id}` is superseded by `{was.superseded_by}` and stays "
                f"so; supersede or forget the current fact with the supersede or forget tool."
            )
        elif f.status == "superseded" or (f.superseded_by, f.superseded_at) != (
            was.superseded_by, was.superseded_at,
        ):  # fmt: skip
            raise InputError(
                f"Refusing the edit: `{f.id}` is superseded with the supersede tool (it records "
                f"the new fact, why and when); use it instead of editing the status."
            )
        elif f.status == "stale" and (was.status != "stale" or f.stale != was.stale):
            raise InputError(
                f"Refusing the edit: a fact turns stale when its cited code changes, as the "
                f"memory_check tool finds; call it, or supersede or forget `{f.id}`."
            )
        else:  # valid again, or `confirmed`: checked against the code by `confirm`
            raise InputError(
                f"Refusing the edit: `{f.id}` is confirmed against the cited code with the "
                f"confirm_fact tool; call it, or supersede the fact with the supersede tool."
            )
    return forgetting


def _replace(cfg: Config, shown: str, current: str, old: str, new: str) -> tuple[str, str]:

    pos = _find_once(current, old, shown)
    text = _new_lines_checked(cfg, current, current[:pos] + new + current[pos + len(old) :])
    line = text[:pos].count("\n")
    lines = text.split("\n")
    snippet = "\n".join(
        f"{str(n + 1).rjust(6)}\t{lines[n]}"
        for n in range(max(0, line - 2), min(len(lines), line + 3))
    )
    return text, (
        "The memory file has been edited. Here is the snippet showing the change (with line "
        f"numbers):\n{snippet}"
    )


def _insert(cfg: Config, current: str, at: int, text: str) -> tuple[str, str]:

    lines = current.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if at < 0 or at > len(lines):
        raise InputError(
            f"Invalid `insert_line` parameter: {at}. It should be within the range "
            f"[0, {len(lines)}]."
        )
    lines.insert(at, text.rstrip("\n"))
    return _new_lines_checked(cfg, current, "\n".join(lines) + "\n"), (
        "The memory file has been edited."
    )


def _rewrite(cfg: Config, current: str, text: str) -> tuple[str, str]:
    return _new_lines_checked(cfg, current, text), "The memory file has been rewritten."


def _new_lines_checked(cfg: Config, current: str, text: str) -> str:
    """`text` with each line the file did not hold passed through the secret filter: whole
    lines, so an edit cannot complete a credential from pieces (`ghp_` + what follows it)."""
    from repomem.memory import ops

    known = set(current.split("\n"))
    return "\n".join(
        ln if ln in known or not ln.strip() else ops.clean_text(cfg, ln, "The new text")
        for ln in text.split("\n")
    )
