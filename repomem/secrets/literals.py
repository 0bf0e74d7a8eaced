"""The string literals a value is made of, and values whose words run over lines.

:func:`_joined_literals` reads the literals joined after a quoted value: concatenated with
"+" in any quotes, adjacent as Python and C join them, over lines after a backslash or
around a "+" (and between two literals in parentheses); and tells a prefix added to an
identity or a random value (``"prefix_" + user_id``: a label) from the part of a password a
person chose (``"hunter-" + year``).  :func:`_template_value` reads a value in a template
string or triple quotes over lines, and :func:`_parts_over_lines` cuts a value that runs
over lines into the parts redacted one by one, so every line keeps its place.
"""

from __future__ import annotations

import re

from repomem.secrets._common import (
    _GENERATED_KEYWORDS,
    _is_name_value,
    _is_placeholder,
    _looks_generated,
)

# String literals concatenated after a quoted value, in any quotes: with "+" ("abc" + 'def'),
# or adjacent as Python and C join them ("abc" 'def', "abc" "def"), and not followed by
# anything else (+ suffix: a value built, read as before); one literal.  A line may end
# before or after a "+" (JavaScript, Java, C#: `"abc" +\n "def"`, `"abc"\n + "def"`) or
# after a backslash (Python's continuation: `"abc" \\\n "def"`); in parentheses also between
# two literals (`API_KEY = (\n "abc"\n "def"\n)`), which outside them starts a statement.
# (a literal in double or single quotes: its group left open, for a backquoted one after "+")
_JOINED = r"""[bBrRuUfF]{0,2}(?:"([^"\\\r\n]{0,4096})"|'([^'\\\r\n]{0,4096})'"""
# Blanks, maybe over a line break (after a backslash or not); blanks over a backslash's only.
_OVER_A_LINE = r"[ \t]*(?:\\?\r?\n[ \t]*)?"
_OVER_A_CONTINUED_LINE = r"[ \t]*(?:\\\r?\n[ \t]*)?"


def _concatenated(adjacent: str) -> re.Pattern[str]:
    """The literals joined after a value: ``adjacent`` between two literals, blanks over a
    line around a "+".  What follows on the line (or after a backslash) is neither: a "+" at
    the start of the next line may be a diff's (``+OTHER = 1``)."""
    plus = _OVER_A_LINE
    return re.compile(
        rf"""(?:{plus}\+{plus}{_JOINED}|`([^`\\\r\n]{{0,4096}})`)|{adjacent}{_JOINED})){{1,16}}"""
        rf"""(?!{_OVER_A_CONTINUED_LINE}\+|{adjacent}[bBrRuUfF]{{0,2}}["'`])"""
    )


_CONCATENATED = _concatenated(_OVER_A_CONTINUED_LINE)
_CONCATENATED_OVER_LINES = _concatenated(_OVER_A_LINE)
_LITERAL = re.compile(rf"""{_JOINED}|`([^`\\\r\n]*)`)""")
# A value followed by "+" and a name or a call (its start: the operand), also over a line:
# "prefix_" + user_id.
_ADDED_TO_A_NAME = re.compile(
    rf"""{_OVER_A_LINE}\+{_OVER_A_LINE}(?![bBrRuUfF]{{0,2}}["'`])(?P<operand>[^\s"'`,;]{{1,80}})"""
)
# A prefix: a lower- or upper-case word (or words) ending in a separator, sixteen characters
# at most ("prefix_", "tmp-pass-", "vault:", "PREFIX_"; not "Summer-", "hunter2_").
_PREFIX = re.compile(r"(?:[a-z]+(?:[_\-:/.][a-z]+)*|[A-Z]+(?:[_\-:/.][A-Z]+)*)[_\-:/.]\Z")
_SEPARATORS = frozenset("_-:/.")
# The words of an operand (user_id, userId, UUID.randomUUID, token_hex) ...
_OPERAND_WORD = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])")
# ... that make it an identity (what the credential is for) or a random value, so a prefix
# added to it is a label and the secret, if any, is not in the source.
_LABELLED = frozenset(
    {
        *("id", "uid", "name", "user", "username", "login", "email", "account", "tenant"),
        *("org", "project", "host", "path", "key", "token", "tok", "slug", "role", "session"),
        *("uuid", "guid", "random", "rand", "urandom", "secrets", "nonce", "salt", "hex"),
        *("hash", "digest", "hexdigest"),
    }
)


def _labels(operand: str) -> bool:
    """True when a prefix added to ``operand`` (``"prefix_" + user_id``) is a label: the
    operand names an identity or makes a random value (``user_id``, ``userId``, ``name``,
    ``path``, ``uuid4().hex``, ``secrets.token_hex(8)``, ``UUID.randomUUID()``).  Added to
    anything else (a year, a counter, a date, a suffix), the literal is the part of the
    password a person chose and the rest is guessed: ``"hunter-" + year``."""
    return any(word.lower() in _LABELLED for word in _OPERAND_WORD.findall(operand))


# What may follow a literal that another joins (a blank, "+", a quote, a prefix, a
# backslash), or a line break: in parentheses, or before a line that starts with a blank or
# a "+" (the "\n" of "\r\n": the character after the "\r").
_JOINING = frozenset(" \t+\"'bBrRuUfF\\")
_LINE_BREAKS = frozenset("\r\n")
_NEXT_LINE_JOINING = frozenset(" \t+\n")


def _joined_literals(text: str, m: re.Match[str], value: str) -> tuple[str, int | None] | None:
    """The value of the literal the assignment tail ``m`` read (``value``, in one quote), with
    the literals joined after it, and where the last of them ends (None: the literal alone);
    None when the literal is a prefix added to an identity or a random value."""
    end = m.end()
    after = text[end : end + 1]  # (what may join a literal: a test of it first)
    if after not in _JOINING and not (
        after in _LINE_BREAKS
        and (m.group("wrapped") or text[end + 1 : end + 2] in _NEXT_LINE_JOINING)
    ):
        return value, None
    joins = _CONCATENATED_OVER_LINES if m.group("wrapped") else _CONCATENATED
    more = joins.match(text, end)
    if more is not None:  # "abc" + "def", "abc" 'def': the literals are the value
        value += "".join(
            next(part for part in lit.groups() if part is not None)
            for lit in _LITERAL.finditer(more.group(0))
        )
        return value, more.end() - 1
    if (
        value[-1:] in _SEPARATORS  # (a character's test first: few values end in one)
        and len(value) <= 16
        and _PREFIX.match(value) is not None
        and (added := _ADDED_TO_A_NAME.match(text, end)) is not None
        and _labels(added.group("operand"))
    ):
        return None  # "prefix_" + user_id: a name or a random value labelled
    return value, None


# A word of a template over lines.
_WORD = re.compile(r"\S+")


def _parts_over_lines(text: str, span: tuple[int, int], template: bool) -> list[tuple[int, int]]:
    """The parts of a value's ``span`` that runs over lines, each redacted on its own so each
    line keeps its place: a template's words, the texts of literals joined in parentheses
    (``template`` False); a value on one line whole."""
    start, end = span
    if text.find("\n", start, end) < 0 and text.find("\r", start, end) < 0:
        return [span]
    if template:
        return [word.span() for word in _WORD.finditer(text, start, end)]
    return [
        lit.span(lit.lastindex)
        for lit in _LITERAL.finditer(text, start - 1, end + 1)
        if lit.lastindex is not None and lit.group(lit.lastindex)
    ]


def _template_value(m: re.Match[str], keyword_name: str, group: str) -> tuple[int, int] | None:
    """The span of the value in a template string or triple quotes over lines (```\\n
    ...\\n```, ``\"\"\"\\n ...\\n\"\"\"``: the tail's group ``group``): its one word, or a
    generated value wrapped over its lines (one word a line), from the first character to
    the last (see :func:`_parts_over_lines`)."""
    content = m.group(group)
    words = content.split()
    if not words or len(words) != sum(1 for line in content.splitlines() if line.strip()):
        return None  # empty, or a line of words: a query, markup, a message
    value = "".join(words)
    if (
        len(value) < 6
        or (len(words) > 1 and not _looks_generated(value))
        or _is_placeholder(value)
        or _is_name_value(value)
        or (keyword_name in _GENERATED_KEYWORDS and not _looks_generated(value))
    ):
        return None
    start = m.start(group) + len(content) - len(content.lstrip())
    return start, m.end(group) - (len(content) - len(content.rstrip()))
