"""Parse source text with tree-sitter into symbols, references and imports.

Tag queries (`queries/<language>.scm`) follow one capture convention:

- `@definition.<kind>` on a definition node, with `@name` on its name node (or, where the
  grammar has none, the name its pattern sets: `(#set! "name" "Companion")`). `<kind>` is one
  of class, function, method, interface, struct, enum, trait, object, type, module, namespace,
  constant, variable, field, property, constructor, macro. An optional `@receiver` names an
  explicit parent (Go methods, Kotlin extension functions), overriding the enclosing
  definitions in the qualified name; a function under it is a method, unless the capture gives
  the parent's kind: `@receiver.module` (a Lua module table holds functions).
- `@definition.<kind>.open` on a statement that applies to what follows it (`namespace App;` in
  PHP and C#): the definition extends to the next node of the same type, or its parent's end.
- `@scope` on a node that names a scope without being a symbol itself (a Rust `impl`), with `@name`;
  `@scope.<kind>` gives the scope's kind (default `impl`, which is class-like).
- `@reference.<kind>` on a use, with `@name` on the identifier used (call, type, class, ...).
  `member` (a property or field read or set: `order.Total`) is the fallback kind: a name that
  another reference pattern captures too (`order.Pay()` is a call) keeps the other kind only.
- `@import` on an import statement, with `@name` on the imported module or path.

The qualified name of a definition joins the names of the definitions (and scopes) that contain it
with dots. A function directly inside a class-like definition becomes a method. Syntax errors only
affect the broken region: tree-sitter recovers and the query still matches the rest of the file.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass
from functools import cache
from operator import itemgetter
from typing import Any

from tree_sitter import Node, Parser, Query, QueryCursor, QueryError

from repomem.errors import ParseError
from repomem.index.languages import grammar, query_source, spec_for
from repomem.types import ParseResult, Reference, Symbol

# A function directly inside one of these is a method. Namespaces and modules are not class-like
# (a Rust `mod` or C++ `namespace` holds free functions); a language may add kinds (Ruby modules).
CLASS_LIKE = frozenset({"class", "struct", "interface", "trait", "impl", "enum", "object"})
MAX_SIGNATURE = 300
MAX_DOC = 1200
_WS = re.compile(r"\s+")
_TRAILING_EQUALS = re.compile(r"\s=$")
_COMMENT_PREFIX = re.compile(r"^\s*(///?|//!|/\*\*?|\*/?|#+|---?)\s?")
_ATTRIBUTE_TYPES = frozenset(
    {
        "decorator",
        "attribute_item",
        "attribute_list",
        "annotation",
        "marker_annotation",
        "attribute",
        "inner_attribute_item",
        "annotated_expression",  # Kotlin's `@Throws(E::class)` above a top-level function
    }
)
# The bodies of grammars that do not name them with a `body` field (Kotlin, Swift, Scala).
_BODY_TYPES = frozenset(
    {"function_body", "class_body", "enum_class_body", "protocol_body", "template_body"}
)
# The nodes that wrap a definition with what is written for it: its line and doc start at
# theirs (decorators, `export`, `template <...>`, and Kotlin's annotations that the grammar
# reads as an expression's: an `annotation class` under `@Target(...)`).
_WRAPPER_TYPES = frozenset(
    {
        "export_statement",
        "decorated_definition",
        "template_declaration",
        "ambient_declaration",
        "annotated_expression",
    }
)


@dataclass(frozen=True)
class _Path:
    """An import path joined from several name nodes, read as a node is."""

    text: bytes
    start_point: tuple[int, int]


@dataclass
class _Def:
    start: int
    end: int
    name: str
    kind: str
    node: Node
    receiver: str = ""
    receiver_kind: str = "class"
    is_scope: bool = False
    qualname: str = ""
    parent: str = ""


@cache
def _parser(language: str) -> tuple[Parser, Query]:
    lang = grammar(language)
    try:
        query = Query(lang, query_source(language))
    except QueryError as exc:
        raise ParseError(f"The tag query for `{language}` does not compile: {exc}") from exc
    return Parser(lang), query


def supports(language: str) -> bool:
    """Whether `language` is parsed into symbols (otherwise it is indexed as plain text)."""
    return spec_for(language) is not None


def parse(text: str, language: str) -> ParseResult:
    """Extract definitions, references and imports from source text.

    Raises:
        ParseError: if the language's grammar or query cannot be loaded.
    """
    spec = spec_for(language)
    if spec is None:
        return ParseResult()
    parser, query = _parser(language)
    # tree-sitter ends lines at `\n` only: old Mac line ends are made `\n` where the text is
    # read (`discovery.read_file`, `fsutil.lone_cr_as_lf`)
    source = text.encode("utf-8", "surrogatepass")
    tree = parser.parse(source)
    root = tree.root_node

    defs: dict[tuple[int, int, str], _Def] = {}
    raw_refs: list[tuple[int, Node | _Path, str]] = []  # (byte, name node, kind)
    def_name_bytes: set[int] = set()
    tags = _PATTERN_TAGS.setdefault(language, {})
    for pattern, caps in QueryCursor(query).matches(root):
        tag = tags.get(pattern)
        if tag is None or (tag and tag not in caps):
            # Usually a pattern always yields the same capture names; alternations may not.
            tag = tags[pattern] = _tag_of(caps)
        names = caps.get("name") or []
        if not tag or not (names or tag[0] == "d"):
            continue
        if tag[0] == "r":  # reference.<kind>
            kind = tag[10:]
            for n in names:
                raw_refs.append((n.start_byte, n, kind))
            continue
        if tag == "import":
            for n in names:
                raw_refs.append((n.start_byte, _import_path(n), "import"))
            continue
        # A definition the language leaves unnamed has the name its pattern sets (Kotlin's
        # `companion object` is `Companion`).
        name_node = names[0] if names else None
        name = _text(name_node) if name_node is not None else _set_name(query, pattern)
        if not name:
            continue
        node = caps[tag][0]
        key = (node.start_byte, node.end_byte, name)
        if key in defs:
            continue
        receiver_cap = next((c for c in caps if c.startswith("receiver")), "")
        receiver_nodes = caps.get(receiver_cap)
        is_scope = tag.startswith("scope")
        # `@scope` names a class-like scope (a Rust impl); `@scope.<kind>` says which kind.
        kind = (tag[6:] or "impl") if is_scope else tag[len("definition.") :]
        end = node.end_byte
        if kind.endswith(".open"):
            kind = kind[: -len(".open")]
            end = _open_end(node)
        defs[key] = _Def(
            node.start_byte,
            end,
            name,
            kind,
            node,
            receiver=_text(receiver_nodes[0]) if receiver_nodes else "",
            receiver_kind=receiver_cap[len("receiver.") :] or "class",
            is_scope=is_scope,
        )
        if name_node is not None:
            def_name_bytes.add(name_node.start_byte)

    if any(kind == "member" for _, _, kind in raw_refs):
        raw_refs = _members_once(raw_refs)
    ordered = sorted(defs.values(), key=lambda d: (d.start, -d.end))
    _qualify(ordered, CLASS_LIKE | frozenset(spec.class_like))
    symbols = tuple(_symbol(d, source, spec.doc_style) for d in ordered if not d.is_scope)
    references = _scope_refs(raw_refs, ordered, def_name_bytes)
    return ParseResult(symbols=symbols, references=references, has_error=root.has_error)


_PATTERN_TAGS: dict[str, dict[int, str]] = {}


def _members_once(
    raw: list[tuple[int, Node | _Path, str]],
) -> list[tuple[int, Node | _Path, str]]:
    """The references with each `member` use counted once, and not at all where another kind
    captures the same name (`order.Pay()` is a call, not also a member)."""
    taken = {byte for byte, _, kind in raw if kind != "member"}
    out = []
    for ref in raw:
        if ref[2] == "member":
            if ref[0] in taken:
                continue
            taken.add(ref[0])
        out.append(ref)
    return out


def _import_path(node: Node) -> Node | _Path:
    """The import path that starts at `node`: the node, or with the parts that follow it
    as its siblings (Scala's `import a.b.C` is three identifiers apart, not one node)."""
    parts = [node.text or b""]
    sib = node.next_sibling
    while sib is not None and sib.type == "." and (part := sib.next_sibling) is not None:
        if part.type != node.type:
            break
        parts.append(part.text or b"")
        sib = part.next_sibling
    return _Path(b".".join(parts), node.start_point) if len(parts) > 1 else node


def _set_name(query: Query, pattern: int) -> str:
    value = query.pattern_settings(pattern).get("name")
    return value if isinstance(value, str) else ""


def _tag_of(caps: dict[str, list[Node]]) -> str:
    for cap in caps:
        if cap.startswith(("definition.", "reference.", "scope")) or cap == "import":
            return cap
    return ""


def _text(node: Node) -> str:
    raw = node.text
    return raw.decode("utf-8", "replace") if raw is not None else ""


def _qualify(ordered: list[_Def], class_like: frozenset[str]) -> None:
    stack: list[_Def] = []
    for d in ordered:
        # Pop what ended, and siblings captured on the very same node (`int a, b;`).
        while stack and (
            stack[-1].end <= d.start or (stack[-1].start == d.start and stack[-1].end == d.end)
        ):
            stack.pop()
        parent = stack[-1] if stack else None
        outer = parent.qualname if parent is not None else ""
        if d.receiver:
            # An explicit owner (`func (s *Server) Handle`, `void W::f()`) inside whatever
            # encloses the definition (a C++ namespace, a Ruby module).
            d.parent = f"{outer}.{d.receiver}" if outer else d.receiver
        else:
            d.parent = outer
        d.qualname = f"{d.parent}.{d.name}" if d.parent else d.name
        parent_kind = d.receiver_kind if d.receiver else (parent.kind if parent else "")
        if d.kind == "function" and parent_kind in class_like:
            d.kind = "method"
        stack.append(d)


def _open_end(node: Node) -> int:
    """Where a bodiless namespace statement stops applying: the next one, or its parent's end."""
    sib = node.next_sibling
    while sib is not None:
        if sib.type == node.type:
            return sib.start_byte
        sib = sib.next_sibling
    parent = node.parent
    return parent.end_byte if parent is not None else node.end_byte


def _scope_refs(
    raw: list[tuple[int, Node | _Path, str]], ordered: list[_Def], def_names: set[int]
) -> tuple[Reference, ...]:
    """Attach each use to its innermost enclosing definition and fold repeats into counts."""
    starts = [d.start for d in ordered]
    # Folded by raw bytes: each distinct name is decoded once, its first node gives the line.
    folded: dict[tuple[bytes, str, str], list[Any]] = {}
    raw.sort(key=itemgetter(0))
    stack: list[_Def] = []
    i = 0
    for byte, node, kind in raw:
        if byte in def_names and kind != "import":
            continue
        # Enter every definition that starts at or before this use.
        hi = bisect_right(starts, byte)
        while i < hi:
            d = ordered[i]
            while stack and (
                stack[-1].end <= d.start or (stack[-1].start == d.start and stack[-1].end == d.end)
            ):
                stack.pop()
            stack.append(d)
            i += 1
        while stack and stack[-1].end <= byte:
            stack.pop()
        key = (node.text or b"", kind, stack[-1].qualname if stack else "")
        entry = folded.get(key)
        if entry is None:
            folded[key] = [node, 1]
        else:
            entry[1] += 1
    out: list[Reference] = []
    for (raw_name, kind, scope), (node, uses) in folded.items():
        name = raw_name.decode("utf-8", "replace")
        if kind == "import":
            name = _WS.sub("", name).strip("\"'`<>")
        if name:
            out.append(Reference(name, kind, node.start_point[0] + 1, scope, uses))
    return tuple(out)


def _symbol(d: _Def, source: bytes, doc_style: str) -> Symbol:
    node = d.node
    first_row, comments = _preamble(node, source)
    doc = _python_docstring(node) if doc_style == "python" else ""
    return Symbol(
        name=d.name,
        kind=d.kind,
        qualname=d.qualname,
        signature=_signature(node, source),
        doc=doc or _comment_doc(comments),
        start_line=first_row + 1,
        end_line=_end_line(node, d.end, source),
        parent=d.parent,
    )


def _preamble(node: Node, source: bytes) -> tuple[int, list[Node]]:
    """The first row of a definition with what is written for it, and its comments: its
    wrappers and decorators (`@property`, `export`, `template <class T>`), then the attributes
    and comments just above it (`#[derive]`, a Go or Javadoc doc comment; never a comment that
    ends a line of code), so a symbol's code reads as it does in the file, doc included."""
    target = node
    while target.parent is not None and target.parent.type in _WRAPPER_TYPES:
        target = target.parent
    row = target.start_point[0]
    comments: list[Node] = []
    sib = target.prev_sibling
    while sib is not None and sib.end_point[0] >= row - 1:
        if "comment" in sib.type and _opens_line(sib, source):
            comments.append(sib)
        elif sib.type not in _ATTRIBUTE_TYPES:
            break
        row = sib.start_point[0]
        sib = sib.prev_sibling
    comments.reverse()
    return row, comments


def _opens_line(node: Node, source: bytes) -> bool:
    """Whether only indentation precedes `node` on its line (not a comment after code)."""
    line_start = source.rfind(b"\n", 0, node.start_byte) + 1
    return not source[line_start : node.start_byte].strip()


def _end_line(node: Node, end: int, source: bytes) -> int:
    if end != node.end_byte:  # an open-ended namespace: up to the line before `end`
        return source.count(b"\n", 0, max(end - 1, node.start_byte)) + 1
    after = node.next_sibling
    if node.has_error and after is not None and after.type == "ERROR":
        # The grammar gave up inside the definition (TypeScript's generic call signatures in
        # an interface) and closed it early with a missing `}`: the rest, up to the real
        # closing brace, is the error node that follows.
        node = after
    row, column = node.end_point
    # A node that ends with its newline (a preprocessor line) ends on the line before.
    return row if column == 0 and row > node.start_point[0] else row + 1


def _signature(node: Node, source: bytes) -> str:
    body = node.child_by_field_name("body")
    if body is None:
        body = next((c for c in node.children if c.type in _BODY_TYPES), None)
    end = body.start_byte if body is not None and body.start_byte > node.start_byte else None
    if end is None and _is_callable(node):
        # A bodyless callable (a prototype, an overload, an interface or abstract method) is
        # all signature, however many lines its parameters take; its `;` is not.
        kept = [c for c in node.children if c.is_named or c.type not in _CLOSERS]
        end = kept[-1].end_byte if kept else node.end_byte
    if end is None:
        # the line that declares it, after any attributes above it (`[XmlArray("x")]`)
        head = next((c for c in node.children if c.type not in _ATTRIBUTE_TYPES), node)
        line_end = source.find(b"\n", head.start_byte)
        end = node.end_byte if line_end == -1 else min(line_end, node.end_byte)
    # Comments between the header and the body are not part of the signature.
    pieces: list[bytes] = []
    pos = node.start_byte
    for child in node.children:
        if child.start_byte >= end:
            break
        if "comment" in child.type:
            pieces.append(source[pos : child.start_byte])
            pos = child.end_byte
    pieces.append(source[pos:end] if pos < end else b"")
    text = _WS.sub(" ", b" ".join(pieces).decode("utf-8", "replace"))
    # `def f(x: Int): Int =` (Scala's body is the expression after the `=`)
    text = _TRAILING_EQUALS.sub("", text.strip().rstrip("{:").rstrip())
    if len(text) > MAX_SIGNATURE:
        text = text[: MAX_SIGNATURE - 3].rstrip() + "..."
    return text


_CLOSERS = frozenset({";", ",", "end"})


def _is_callable(node: Node) -> bool:
    """Whether `node` declares something called with parameters: its own `parameters` (most
    grammars), or a function declarator under its pointer declarators (C and C++)."""
    if node.child_by_field_name("parameters") is not None:
        return True
    declarator = node.child_by_field_name("declarator")
    while declarator is not None and declarator.type != "function_declarator":
        declarator = declarator.child_by_field_name("declarator")
    return declarator is not None


def _python_docstring(node: Node) -> str:
    body = node.child_by_field_name("body")
    if body is None or body.named_child_count == 0:
        return ""
    first = body.named_children[0]
    if first.type != "expression_statement" or first.named_child_count == 0:
        return ""
    string = first.named_children[0]
    if string.type != "string":
        return ""
    parts = [_text(c) for c in string.named_children if c.type == "string_content"]
    return _clip("".join(parts)) if parts else ""


# Comments addressed to tools, not readers: Go's `//go:noinline`, `//go:generate`, build tags,
# linters' `//nolint:...` and `//lint:ignore`.
_DIRECTIVE = re.compile(r"^\s*//(?:go:|\+build\b|nolint\b|lint:)")


def _comment_doc(comments: list[Node]) -> str:
    lines = [ln for c in comments for ln in _text(c).splitlines() if not _DIRECTIVE.match(ln)]
    if not lines:
        return ""
    cleaned = [_COMMENT_PREFIX.sub("", ln).rstrip() for ln in lines]
    cleaned = [ln.rstrip("*/").rstrip() for ln in cleaned]
    return _clip("\n".join(ln for ln in cleaned).strip())


def _clip(doc: str) -> str:
    lines = [ln.strip() for ln in doc.strip().splitlines()]
    text = "\n".join(lines).strip()
    if len(text) > MAX_DOC:
        text = text[: MAX_DOC - 3].rstrip() + "..."
    return text
