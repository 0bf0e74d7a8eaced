"""The rest of an assignment after its keyword, read by one anchored regex.

:func:`_tail` reads, at the end of a credential's keyword, the rest of the name, an
optional closing quote or bracket (dict keys, subscripts), an optional type annotation,
the operator (``=``, ``:``, ``:=``, ``=>``, a setter's ``(``, XML's ``>``, a Markdown
table's ``|``, a here-string's ``<<<`` ...) and the value (quoted, also in triple, escaped,
Lua or typographic quotes, or in triple quotes or a template string over lines; bare; or on
the next line).  :mod:`.assign` judges the context and :mod:`.values` the value.
"""

from __future__ import annotations

import functools
import re

from repomem.secrets._common import _NL

# A quoted value's characters: an escaped pair or any character but the closing quote, at
# most 4,096.  Read one at a time, they cost 0.1 us each (a long token three times the rest
# of the tail); _QUOTED_RUNS reads a run of plain characters in one step, taken whole by a
# look-ahead and its back-reference (no backtracking into it, so no other way to split the
# run).  It reads as far or further, and stops where _QUOTED_CHARS stops (a quote that
# closes, a line break, a backslash before one) within those 4,096: where its value is
# longer, _tail reads it again the slow way (which finds no value there).
_QUOTED_CHARS = r"(?:\\.|(?!(?P=q))[^\\NL]){0,4096}"
_QUOTED_RUNS = r"""(?:(?=(?P<run>[^\\NL"'`]{1,4096}))(?P=run)|\\.|(?!(?P=q))["'`]){0,4096}"""
_QUOTED_LIMIT = 4096

# The rest of an assignment after the keyword: the rest of the name, an optional closing
# quote/bracket (dict keys, subscripts), an optional type annotation, the operator and the
# value.  "==" and "!=" are comparisons, not assignments.
_ASSIGNMENT_TAIL_SOURCE = r"""
    (?P<rest>[\w.-]{0,64})                      # _KEY, Hash, .value
    (?P<close>\\?["'`”’]\]?|\]|\*\*|__)?        # "password": ..., cfg["password"] = ...
    [ \t]*                                      # (**Password**: in Markdown, \"]: in JSON)
    (?P<op> :[ \t]*&?(?:'\w+[ \t]+)?["']?[A-Za-z_][\w.\[\],|<> \t]{0,80}?["']?[ \t]*=(?!=)
                                                # k: str = "...", k: "str" = "..."
      | :{1,3}=  | =>  | \?=  | \+=  | =(?!=)  | :(?![:=])(?:\*\*|__)?   # **Password:** ...
                                                # (Makefiles' ::= and :::= too)
      | <<<                                     # read -r pw <<< "...": a shell's here-string
      | %3[dD]                                  # password%3D...: URL-encoded, in a query
      | value[ \t]*=(?!=)                        # <add key="ApiKey" value="..."/>
      | ,\s{0,40}(?:default[ \t]*=)?(?=[ \t]*[bBrRuUfF]{0,2}["'])
                                                # getenv("DB_PASSWORD", [default=]"..."), define
      | (?P<fallback>\)[ \t]*\{|\)?[ \t]*(?:\|\|=?|\?\?=?|or(?=[ \t])))
                                                # getenv("DB_PASSWORD") or "...", || "...",
                                                # ENV.fetch('DB_PASSWORD') { "..." }
      | \((?:\s{0,40}[bBrRuUfF]{0,2}["'][^"'\n]{1,100}["'][ \t]*,){0,2}\s{0,40}
                                                # setPassword("..."), set_password("s", "u", "...")
      | (?P<xml>(?:(?<=[ \t])[\w:.-]{1,40}=(?:"[^"<>\n]{0,100}"|'[^'<>\n]{0,100}')[ \t]*){0,4}
                >\s{0,200})                     # <password>...</, <password encrypted="false">
      | (?P<table>\|)                            # | password | ... |: a Markdown table row
      | ->  | –  | —                             # Password -> ...: an arrow or a dash in notes
      | (?P<gotype>(?<=[ \t])[A-Za-z_][\w.*\[\]]{0,40}[ \t]*=(?!=)) )
                                                # var dbPassword string = "..."
    [ \t]*(?:\\\r?\n[ \t]*)?                    # password = \ then the value on the next line
    (?P<default_of>(?:[\w.]{1,40}\([^()\n]{0,100}\)|process\.env\.\w{1,64})
                   [ \t]*(?:or|\|\||\?\?)[ \t]*)?   # getenv("X") or "...": a default
    (?P<wrapped>(?:str|String)?\([ \t\r\n]*(?:[bBrRuUfF]{0,2}["'][^"'\n]{1,100}["'][ \t]*,[ \t]*)?)?
    (?:["'`][ \t]*\+[ \t]*(?=[bBrRuUfF]{0,2}["'`]))?   # "...&password=" + "...": concatenated
                                                # ( "..." ) wrapped, str("..."), ("user", "...")
    (?: (?=[bBrRuUfF]{0,2}(?:'{3}|"{3})|raw|s|\#)   # (a test first: most values fail it)
        (?:[bBrRuUfF]{0,2}|raw|s|\#{1,3})(?P<tq>'{3}|"{3})
        (?P<triple>[^"'`\\NL]{0,1024}[NL][^"'`\\]{0,1024})(?P=tq)
                                                # triple quotes over lines (Python, Kotlin,
                                                # Swift's raw #-strings, Scala's raw ones,
                                                # Java's and C#'s text blocks; no quote inside)
      | [bBrRuUfF]{0,2}(?P<q>'{3}|"{3}|["'`])(?P<quoted>QUOTED)(?P=q)
      | \\(?P<eq>["'])(?P<equoted>[^\\"'NL]{1,4096})\\(?P=eq)   # \"...\" inside JSON (notebooks)
      | \[\[(?P<lua>[^\]NL]{1,4096})\]\]           # Lua's [[...]]
      | [‘“„‚«](?P<curly>[^’”NL]{1,4096})[’”“‘»]    # typographic quotes (pasted from a document:
                                                # “...”, German „...“, French «...»)
      | `(?P<template>[^`\\]{1,1024})`            # a template string over lines (JavaScript,
                                                # Go's raw strings): a quoted value stops at
                                                # a line break
      | (?P<bare>[^\s"'`][^NL]{0,63})           # config values: see _secret_value
      | (?P<eol>(?=\r?\n)) )                    # password: then the value on the next line
    """
# In comments and prose a colon is not a type annotation ("password: x1, then a = 1").
_ANNOTATION = r""":[ \t]*&?(?:'\w+[ \t]+)?["']?[A-Za-z_][\w.\[\],|<> \t]{0,80}?["']?[ \t]*=(?!=)
                                                # k: str = "...", k: "str" = "..."
      |"""
assert _ANNOTATION in _ASSIGNMENT_TAIL_SOURCE


def _compile_tail(annotation: bool, quoted: str) -> re.Pattern[str]:
    """The tail with a type annotation as an operator or not, its quoted values read by
    ``quoted``."""
    source = _ASSIGNMENT_TAIL_SOURCE
    if not annotation:
        source = source.replace(_ANNOTATION, "")
    return re.compile(source.replace("QUOTED", quoted).replace("NL", _NL), re.VERBOSE)


@functools.cache
def _tail_regex(comment: bool, runs: bool) -> re.Pattern[str]:
    """The tail for code, or for comments and prose (``comment``), its quoted values read by
    runs or by characters; compiled at its first use: the four cost 20 ms, which a text
    without a credential's name (a Claude Code hook's memory digest) never needs."""
    return _compile_tail(not comment, _QUOTED_RUNS if runs else _QUOTED_CHARS)


def _tail(text: str, end: int, comment: bool) -> re.Match[str] | None:
    """The assignment's tail after the keyword ending at ``end`` (see _ASSIGNMENT_TAIL_SOURCE),
    read as in comments and prose when ``comment``."""
    m = _tail_regex(comment, True).match(text, end)
    quoted = m.group("quoted") if m is not None else None
    if quoted is not None and len(quoted) > _QUOTED_LIMIT:
        return _tail_regex(comment, False).match(text, end)
    return m
