"""What every part of the secret filter shares: the replacement, the mask that keeps line
breaks, and the tests that tell a secret from a placeholder or a name.

A redaction never adds or removes a line break (:func:`_mask`), and a value that is masked
or templated (``${VAR}``, ``<your-key>``, ``xxxx``, an earlier ``[REDACTED]``), a
well-known dummy (``changeme``) or a name (a URL, a path, an identifier, a version) is not
a secret.  This module imports nothing else of the package.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable

REDACTED = "[REDACTED]"
"""What every credential is replaced with."""

# Every character str.splitlines() breaks on; a redaction must keep each of them.
_NL = "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"
_LINE_BREAK = re.compile(f"(\r\n|[{_NL}])")


def _mask(secret: str) -> str:
    """``[REDACTED]`` in place of ``secret``, keeping its line breaks exactly.

    For a multi-line secret the first non-blank line becomes ``[REDACTED]`` and the others
    become empty, so a PEM key keeps its shape and every later line keeps its number.
    """
    if not any(ch in secret for ch in _NL):
        return REDACTED
    pieces = _LINE_BREAK.split(secret)  # text, break, text, break, ..., text
    last = len(pieces) - 1
    placed = False
    for i in range(0, len(pieces), 2):
        if not placed and pieces[i].strip():
            pieces[i] = REDACTED
            placed = True
        elif pieces[i] and (
            i in (0, last) or (pieces[i - 1].endswith("\r") and pieces[i + 1].startswith("\n"))
        ):
            # Emptying text between "\r" and "\n" would merge two line breaks into one, and
            # emptying the text's last line would drop it.  At either end of the match the
            # neighbour is unknown, so keep a space there.
            pieces[i] = " "
        else:
            pieces[i] = ""
    return "".join(pieces)


def _lower(text: str) -> str:
    """``text`` lower-cased one character for one (a position in the copy is the same in
    the text).  The one character whose lower case is longer, the Turkish dotted capital
    "İ" (``"İ".lower()`` is "i" and a combining dot), is read as "i", as Turkish writes it
    in lower case: ``ŞİFRE`` is ``şifre``."""
    lowered = text.lower()
    return lowered if len(lowered) == len(text) else text.replace("\u0130", "i").lower()


def _line_start(text: str, at: int, floor: int = 0) -> int:
    """Where the line holding ``at`` starts (after a "\\n" or a "\\r"), looked for back to
    ``floor`` only: ``floor`` when the line starts before it."""
    return max(text.rfind("\n", floor, at), text.rfind("\r", floor, at)) + 1 or floor


def _splice(text: str, edits: Iterable[tuple[int, int, str]]) -> str:
    """``text`` with the span ``start:end`` of each edit replaced by its string (the edits in
    text order, not overlapping)."""
    pieces: list[str] = []
    last = 0
    for start, end, replacement in edits:
        pieces.append(text[last:start])
        pieces.append(replacement)
        last = end
    pieces.append(text[last:])
    return "".join(pieces)


# Publicly known dummy values: redacting them would hide nothing and hurt readability.
_DUMMY_VALUES = frozenset(
    {
        "changeme",
        "change-me",
        "change_me",
        "changeit",  # the default password of Java's cacerts
        "replaceme",
        "replace-me",
        "replace_me",
        "password",
        "passwd",
        "pass",  # user:pass@host, the canonical URL example
        "secret",
        "example",
        "placeholder",
        "redacted",
        "dummy",
        "none",
        "null",
        "undefined",
        "true",
        "false",
        "bearer",  # token = "Bearer": an auth scheme
        "basic",
        "enabled",
        "disabled",
    }
)

# Masked or templated values: references and template fields rather than secrets.  Token
# detectors skip these too ("ghp_xxxx...", "sk-<your-key>").
_MASK = re.compile(
    r"""
      \$(?:\w+|\{[^}]*\}|\(.*\))\Z      # $VAR, ${VAR}, $(command)
    | .*(?:\{\{|\$\{|%\(|\#\{)          # {{ var }}, ${VAR} inside, %(name)s, #{ruby}
    | .*<[^<>]*>                        # <your-key>, sk-<key>
    | .*\{[\w.\[\]]*(?:[!:][^{}]*)?\}     # {password}, {}, {0:>8}, {self.x}: format
    | .*%[-#0 +]*[0-9.]*[sdrifxX]        # %s, %d, %-8s: printf fields
    | .*(?:xxxx|\*\*\*\*|\.\.\.\.)
    """,
    re.IGNORECASE | re.VERBOSE,
)

# Dummy words in assignment values ("your-api-key", "example-password", "changeme123").
# Token detectors do not use this: AKIAIOSFODNN7EXAMPLE has the shape of a key and is
# redacted like one.
_DUMMY_WORDS = re.compile(r"your|.*(?:example|placeholder|changeme|redacted)", re.IGNORECASE)

# Values that name something: URLs, paths, dotted module paths, identifiers.
_NAME_VALUE = re.compile(
    r"""
      [a-z][\w+.-]*://.*                                 # URL (credentials: see _URL)
    | (?:~|\.{1,2})?/[\w.-]+(?:/[\w.-]+)*/?\Z           # /etc/app/key, ./keys, ~/x
    | [\w./:-]+\.(?:pem|key|crt|cer|der|p12|pfx|jks|json|ya?ml|toml|ini|cfg|env|txt|gpg|asc)\Z
    | [A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+\Z                 # auth.User, app.tokens.Backend
    | [~^]?\d+(?:[.-]\d+)+\Z                             # 1.3.6.1.5.5.7.3.1, 2011-06-15, ^4.0.0
    | \d{4}-\d\d-\d\d[T ]\d\d:\d\d                        # 2016-09-08T21:47:36Z: a time
    | [a-z]+(?:-[a-z]+){2,}\Z                            # no-password-required: kebab words
    | [A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\Z                    # GITHUB_TOKEN (env var names)
    | [a-z]+(?:_[a-z]+)+\Z                               # access_token, new_password
    | (?:[a-z]{2,}|[A-Z]+[a-z]{2,})(?:[A-Z]+[a-z]{2,})*[A-Z]+[a-z]*\Z  # nextToken, AWSKeyId
    | \#[\w-]*\Z                                         # #ff0000, #ansired: colours
    | arn:                                               # AWS resource names
    | \w+(?:::\w+)+\Z                                    # AWS::S3::Flag, Foo::Bar: type names
    | [A-Z][a-z]*(?:-[A-Z][a-z]*)+\Z                     # X-Api-Key: header names
    """,
    re.VERBOSE,
)


def _is_mask(value: str) -> bool:
    """True when ``value`` is masked or templated: xxxx, ****, <key>, ${VAR}, [REDACTED]."""
    return (
        REDACTED in value
        or len(set(value)) == 1  # "xxxxxx", "000000", "******"
        or _MASK.match(value) is not None
    )


# The two tests of a value are pure and cost microseconds (regexes of many branches): a text
# dense with credential names repeats the same few values, so their answers are kept.
@functools.lru_cache(maxsize=1024)
def _is_placeholder(value: str) -> bool:
    """True when ``value`` is a mask, a template, a dummy word or an earlier redaction."""
    return (
        _is_mask(value) or value.lower() in _DUMMY_VALUES or _DUMMY_WORDS.match(value) is not None
    )


# Regular expressions (searched, bounded: `.*` before nested classes was cubic on "[a-b" * k).
_REGEX_LIKE = re.compile(r"\\[wdsbWDSB]|\(\?|\[\^|\[[^\]\[]{0,40}\w-\w[^\]\[]{0,40}\]")


@functools.lru_cache(maxsize=1024)
def _is_name_value(value: str) -> bool:
    """True when ``value`` names something (a URL, a path, an identifier, a version, a
    regular expression) rather than being a secret."""
    return _NAME_VALUE.match(value) is not None or _REGEX_LIKE.search(value) is not None


# The tests of a value's characters run at C speed (`any(map(...))`, `isdisjoint`): a
# generator per character cost a text dense with credentials a tenth of its time.
_BASE64_PUNCTUATION = frozenset("+/=")


def _has_digit_and_letter(value: str) -> bool:
    return any(map(str.isdigit, value)) and any(map(str.isalpha, value))


def _looks_generated(value: str) -> bool:
    """True for machine-made values: a digit, base64 punctuation or mixed case (a capital
    after the first letter: "Marker" is a word).

    Tokens and API keys are generated, so a lower-case word ("comment", "marker") assigned
    to a token or key name is a lexer token kind or a setting, not a credential.
    """
    return (
        any(map(str.isdigit, value))
        or not _BASE64_PUNCTUATION.isdisjoint(value)
        or (value[1:] != value[1:].lower() and value != value.upper())
    )


def _redact_group(
    m: re.Match[str], group: str, length: int | None = None, replacement: str = REDACTED
) -> str:
    """The whole match with group `group` (its first `length` characters) replaced by
    `replacement`."""
    start = m.start(group) - m.start()
    end = m.end(group) - m.start() if length is None else start + length
    whole = m.group(0)
    return whole[:start] + replacement + whole[end:]


# Keywords whose values are machine-generated (see _looks_generated); passwords, pass
# phrases and secrets may be anything a person typed.
_GENERATED_KEYWORDS = frozenset({"token", "key", "auth"})


def _plain_secret(value: str, keyword: str = "") -> bool:
    """True when ``value``, found in one of the shapes read outside the assignment regex
    (a spaced value, a tuple, an XML value before its key, a YAML value on the next line),
    may be a secret: six characters or more, not a placeholder nor a name, and generated
    when ``keyword`` names a token or key (no keyword: any such value)."""
    if len(value) < 6 or _is_placeholder(value) or _is_name_value(value):
        return False
    return keyword not in _GENERATED_KEYWORDS or _looks_generated(value)


_SYMBOLS = frozenset("!@#$%^&*~+=?/\\|")

# What opens a call, a subscript or a literal: a value holding one is code (a set's test
# costs less than a regex's).
_OPENING_BRACKETS = frozenset("([{")


def _typed(value: str) -> bool:
    """True for a word a person typed as a password: it has a digit or a symbol."""
    return any(map(str.isdigit, value)) or not _SYMBOLS.isdisjoint(value)


# Tokens that page through results, lock or order requests, or are published (DKIM's, in
# DNS): not credentials.
_BOOKKEEPING_TOKENS = (
    "next", "page", "pagination", "continuation", "idempotency", "client", "lock", "change",
    "sync", "cancel", "input", "output", "request", "csrf", "xsrf", "public", "dkim",
)  # fmt: skip
