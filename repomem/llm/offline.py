"""Deterministic per-file notes, made without a model.

A note says what a file is for (its module docstring, leading comment or README-style title and
first paragraph; license headers, tool directives and preprocessor lines are skipped), its entry
points (`main`, command-line markers, then public top-level definitions) and its gotchas (TODO,
FIXME, XXX, HACK and BUG markers). The same input always gives the same note, under one
`VERSION` of these rules.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from repomem.index import languages
from repomem.plural import counted

_LICENSE = re.compile(r"copyright|licen[cs]e|spdx-|all rights reserved|\(c\) \d{4}", re.I)
_PY_DOCSTRING = re.compile(r"""\A(?:[rRuU]{0,2})(\"\"\"|'''|\"|')(.*?)\1""", re.S)
# Lines starting with "#" that are code, not comments: C preprocessor, Rust attributes, C#.
_DIRECTIVE = re.compile(
    r"#\s*(?:include|define|undef|if|ifdef|ifndef|elif|else|endif|pragma|import|error|line|"
    r"region|endregion|nullable)\b|#!?\["
)
# Comments that speak to a tool, not to a reader: magic comments (Ruby's
# `frozen_string_literal: true`, `encoding: utf-8`, Sorbet's `typed: strict`), Go build
# constraints (`//go:build linux`, `// +build`), linters' and formatters' switches.
_TOOL_COMMENT = re.compile(
    r"-\*-|(?:frozen_string_literal|encoding|coding|warn_indent|shareable_constant_value|typed|"
    r"rubocop|pylint|mypy|type|noqa|fmt|isort|pyright|flake8|ruff|nolint|vim?|jshint|jslint|"
    r"istanbul|tslint|clang-format)\s*[:=]|go:\w|\+build\b|@ts-|@flow\b|eslint|prettier|NOLINT"
)
# Bump when the notes `offline_note` writes change: the next notes run then rewrites the
# offline notes an older version wrote (see `repomem.llm.generation.values.OFFLINE_META`).
# 1: the first version recorded (notes from before it are all rewritten once); 2: Kotlin,
# Swift, Scala, Lua and Bash files have symbols (they were text), a definition whose owner the
# file does not define is top-level (`function M.new`), `private` and `local` ones are no entry;
# 3: Lua table functions without `self` are functions (`function Path.join`, was a method),
# top-level Swift operators and Kotlin annotation classes are entries (index schema 22); 4: a
# Lua file's purpose is read from LuaDoc's `---` comments without a leftover `-`
VERSION = 4

# Line comment markers, longest first (LuaDoc's `---` before Lua's `--`).
_LINE_COMMENTS = ("///", "//!", "//", "#", "---", "--", ";;", "%")
_MARKER = re.compile(r"\b(TODO|FIXME|XXX|HACK|BUG)\b[:(]?\s*(.{0,80})")
_CLI_HINTS = (
    ('if __name__ == "__main__"', "runs as a script"),
    ("if __name__ == '__main__'", "runs as a script"),
    ("argparse.ArgumentParser", "command-line interface (argparse)"),
    ("@app.command", "command-line interface"),
    ("@click.command", "command-line interface (click)"),
    ("process.argv", "reads command-line arguments"),
)
_TOP_KINDS = ("class", "function", "interface", "struct", "trait", "enum", "type", "module",
              "namespace", "macro", "constant", "object")  # fmt: skip


def offline_note(path: str, language: str, text: str, symbols: Sequence[dict[str, Any]]) -> str:
    """A deterministic note from the leading docstring or comment, entry points and markers."""
    if not text.strip():
        return "Purpose: empty file."
    purpose = leading_doc(text, language, path)
    tops = _tops(symbols)
    if not purpose:
        main_class = next(
            (s for s in tops if s["kind"] == "class" and first_line(s.get("doc") or "")), None
        )
        if main_class is not None:
            purpose = f"{main_class['name']}: {first_line(main_class['doc'])}"
        else:
            purpose = _shape(path, language, text, symbols)
    lines = [f"Purpose: {purpose}"]
    entries = entry_points(text, language, symbols)
    if entries:
        lines.append("Entry points: " + ", ".join(entries))
    markers = [f"{m.group(1)} {m.group(2).strip()}".strip() for m in _MARKER.finditer(text)]
    if markers:
        more = f" (+{len(markers) - 3} more)" if len(markers) > 3 else ""
        lines.append("Gotchas: " + "; ".join(markers[:3]) + more)
    return "\n".join(lines)


def _tops(symbols: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The file's top-level definitions; when they are only namespaces or modules holding
    classes, functions or types (a PHP or C# namespace, a Ruby module around the file's
    classes), the definitions inside them."""
    # A definition whose owner the file does not define is top-level in it too: a Lua module
    # table's functions (`function M.new`), a Swift extension's methods of another file's type.
    defined = {s.get("qualname") or s["name"] for s in symbols}
    tops = [s for s in symbols if not s.get("parent") or s["parent"] not in defined]
    while tops and all(s["kind"] in ("namespace", "module") for s in tops):
        names = {s.get("qualname") or s["name"] for s in tops}
        inner = [s for s in symbols if s.get("parent") in names]
        if not any(s["kind"] in _TOP_KINDS for s in inner):
            break  # a module of methods: the module is what it defines
        tops = inner
    return tops


def _shape(path: str, language: str, text: str, symbols: Sequence[dict[str, Any]]) -> str:
    name = language if language else languages.detect(path)
    counts: dict[str, int] = {}
    for s in _tops(symbols):
        counts[s["kind"]] = counts.get(s["kind"], 0) + 1
    n_lines = line_count(text)
    if not counts:
        return f"{name or 'text'} file, {counted(n_lines, 'line')}."
    kinds = ", ".join(counted(n, k)
                      for k, n in sorted(counts.items(), key=lambda kv: -kv[1]))  # fmt: skip
    return f"{name} file, {counted(n_lines, 'line')}, defining {kinds}."


def leading_doc(text: str, language: str, path: str = "") -> str:
    """The first sentence or paragraph of a file's docstring or leading comment ("" if none)."""
    body = text.lstrip("\ufeff")
    lines = body.splitlines()
    i = 0
    if lines and lines[0].startswith("#!"):
        i = 1
        if "python" in lines[0]:
            language = "python"  # an extension-less script
    if path.endswith((".md", ".rst", ".txt")) or language in ("markdown", "text", ""):
        return _prose_head(lines[i:])
    comments: list[list[str]] = []  # leading comment blocks, in order
    block: list[str] = []
    in_c_block = False
    while i < len(lines):
        raw = lines[i]
        line = raw.strip()
        if in_c_block:
            end = line.find("*/")
            block.append((line[:end] if end >= 0 else line).lstrip("*").strip())
            if end >= 0:
                in_c_block = False
                comments.append(block)
                block = []
            i += 1
            continue
        if line.startswith("/*"):
            inner = line[2:].lstrip("*!")
            end = inner.find("*/")
            if end >= 0:
                comments.append([inner[:end].strip()])
            else:
                block = [inner.strip()]
                in_c_block = True
            i += 1
            continue
        prefix = next((p for p in _LINE_COMMENTS if line.startswith(p)), None)
        if prefix == "#" and _DIRECTIVE.match(line):  # code, not a comment: skip it
            if block:
                comments.append(block)
                block = []
            i += 1
            continue
        if prefix is not None:
            if line.startswith("#!") or _TOOL_COMMENT.match(line[len(prefix) :].strip()):
                i += 1
                continue
            block.append(line[len(prefix) :].strip())
            i += 1
            continue
        if block:
            comments.append(block)
            block = []
        if not line:
            i += 1
            continue
        break
    if block:
        comments.append(block)
    if language == "python" and i < len(lines):
        m = _PY_DOCSTRING.match("\n".join(lines[i:]).lstrip())
        if m:
            doc = _paragraph(m.group(2).splitlines())
            if doc:
                return doc
    for c in comments:
        text_block = " ".join(c)
        if c and not _LICENSE.search(text_block) and not _TOOL_COMMENT.match(text_block):
            doc = _paragraph(c)
            if doc:
                return doc
    return ""


def _paragraph(lines: Sequence[str]) -> str:
    words: list[str] = []
    for line in lines:
        s = line.strip()
        if not s:
            if words:
                break
            continue
        words.append(s)
    para = " ".join(words)
    # first sentence if the paragraph is long
    if len(para) > 200:
        m = re.search(r"(?<=[.!?])\s", para)
        para = para[: m.start()] if m and m.start() <= 300 else para[:200].rstrip() + "..."
    return para


def _prose_head(lines: Sequence[str]) -> str:
    """Title and first paragraph of Markdown, reStructuredText or plain text."""
    items = [line.strip() for line in lines]

    def rule(s: str) -> bool:  # an underline or overline: ====, ----, ~~~~
        return len(s) >= 3 and set(s) <= set("=-~*^#+`")

    j = 0
    while j < len(items) and not items[j]:
        j += 1
    title = ""
    if j < len(items):
        first = items[j]
        if rule(first) and j + 1 < len(items):  # overlined title
            title, j = items[j + 1], j + 2
        elif first.startswith("#"):
            title, j = first.lstrip("#").strip(), j + 1
        elif j + 1 < len(items) and rule(items[j + 1]):  # underlined title
            title, j = first, j + 2
    rest = [
        r
        for r in items[j:]
        if not rule(r) and not r.startswith(("[![", "![", "<", "```", ".. ", ":"))
    ]
    para = _paragraph(rest)
    if title and para:
        return f"{title}: {para}"
    return title or para


def entry_points(text: str, language: str, symbols: Sequence[dict[str, Any]]) -> list[str]:
    """Main entry points: `main`, CLI markers, then public top-level definitions, at most 8."""
    out: list[str] = []
    defined = {s.get("qualname") or s["name"] for s in symbols}

    def orphan(s: dict[str, Any]) -> bool:  # its owner is defined elsewhere (`Job.new`)
        return bool(s.get("parent")) and s["parent"] not in defined

    tops = [s for s in _tops(symbols) if s["kind"] in _TOP_KINDS or orphan(s)]
    public = [s for s in tops if _public(s["name"], language) and not _hidden(s)]
    mains = [s for s in tops if s["name"] == "main"]
    for s in mains:
        out.append(f"{s['name']}()")
    for needle, label in _CLI_HINTS:
        if needle in text and label not in out:
            out.append(label)
            break
    rest = [s for s in public if s["name"] != "main" and s["kind"] != "constant"]
    rest.sort(key=lambda s: (s["kind"] != "class", s["start_line"]))
    # overloads once; a definition of another file's owner by its qualified name (`Job.new`)
    labels = list(dict.fromkeys(
        f"{s['kind']} {s.get('qualname') or s['name'] if orphan(s) else s['name']}" for s in rest
    ))  # fmt: skip
    limit = 8
    out.extend(labels[:limit])
    if len(labels) > limit:
        out.append(f"... {len(labels) - limit} more")
    return out


def _public(name: str, language: str) -> bool:
    if not name or name.startswith("_"):
        return False
    if language == "go":
        return name[0].isupper() or name == "main"
    return True


# Definitions written as private to their file or scope (Kotlin, Swift, Scala, Lua).
_HIDDEN = re.compile(r"(?:@\S+\s+)*(?:private|fileprivate|local)\b")


def _hidden(symbol: dict[str, Any]) -> bool:
    return bool(_HIDDEN.match(symbol.get("signature") or ""))


def line_count(text: str) -> int:
    """Lines in `text`, a last line without a line end included."""
    return text.count("\n") + (0 if text.endswith("\n") or not text else 1)


def first_line(doc: str) -> str:
    """The first non-empty line of a docstring or comment, without comment marks."""
    for line in doc.strip().splitlines():
        line = line.strip().strip("/*#").strip()
        if line:
            return line[:200]
    return ""
