"""Reading the value after a credential name, and judging whether it is a secret.

:func:`_secret_value` reads the value of an assignment the scans of :mod:`.assign` found:
quoted (also in triple, escaped, Lua or typographic quotes, in triple quotes or a template
string over lines, or as literals concatenated or joined, also over lines: :mod:`.literals`
reads those), bare in config files and comments, in a URL's query or a connection string, a
shell command, an XML element, a Markdown table row, a YAML block scalar or on the next
line. It drops values of names that are names, settings or numbers (``token_url``,
``password_field``, ``auth_timeout``), words assigned to *token*, *key* and *auth* names
(those credentials are machine-made), sentences and code.

The shapes read outside the assignment regex live here too: a value after a space
(``ENV DB_PASSWORD ...``, ``db.password ...``, SQL's ``WITH PASSWORD '...'``, "connect
with password ..."), an XML value before its key (``<add value="..." key="DbPassword"
/>``), a secret stated in a sentence ("the staging password is ...") and a tuple
assignment (``user, password = "app", "..."``).
"""

from __future__ import annotations

import functools
import re

from repomem.secrets._common import (
    _GENERATED_KEYWORDS,
    _NL,
    _OPENING_BRACKETS,
    REDACTED,
    _has_digit_and_letter,
    _is_name_value,
    _is_placeholder,
    _line_start,
    _looks_generated,
    _plain_secret,
    _typed,
)
from repomem.secrets.literals import _joined_literals, _template_value

# Last words of a name that make the value a name, a setting or a number, not a secret:
# token_url, password_field, auth_type, secret_name, api_key_header, tokenLimit ...
_LAST_WORD = re.compile(r"(?:[A-Z]?[a-z0-9]+|[A-Z0-9]+)\Z")
_NAME_SUFFIXES = frozenset(
    {
        "url",
        "uri",
        "path",
        "file",
        "dir",
        "name",
        "field",
        "type",
        "header",
        "env",
        "var",
        "count",
        "limit",
        "size",
        "length",
        "len",
        "timeout",
        "ttl",
        "expiry",
        "expires",
        "lifetime",
        "max",
        "min",
        "prefix",
        "version",
        "id",
        "hdr",
        # settings and descriptions about a credential, not the credential
        "help",
        "hint",
        "kind",
        "chars",
        "group",
        "scheme",
        "manager",
        "encoding",
        "callback",
        "policy",
        "backend",
        "provider",
        "encoder",
        "ref",
        "method",
        "format",
        "mode",
        "algorithm",
        "alg",
        "strategy",
        "label",
        "prompt",
        "message",
        "scanning",
    }
)

# Bare values that are YAML/TOML structure or references rather than scalars.
_BARE_NOT_VALUE = "{[&*!|>#"
# A word in Markdown's bold or italics: **hunter2hunter**, *abc123* (not a mask: ****).
_EMPHASIS = re.compile(r"(?P<mark>\*\*?)(?P<word>[^\s*`]{1,200}?)(?P=mark)(?![*\w])")

# The groups of the assignment tail's quoted values (its other values: bare, eol).
_QUOTED_GROUPS = frozenset({"quoted", "equoted", "lua", "curly"})
_SPACE = re.compile(r"\s")  # the characters str.isspace() is true for

# AWS secret access keys: 40 base64 characters, recognised unquoted even in code because
# they are written in ~/.aws/credentials style (aws_secret_access_key = ...).
_AWS_SECRET_NAME = re.compile(r"secret[_-]?access[_-]?key")
# The shortest rest of such a name after its keyword "secret": "accesskey".
_AWS_NAME_REST = len("accesskey")
_AWS_SECRET_VALUE = re.compile(r"[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])")

# How far a bare config value is read (a longer line's value is its first word).
_CONFIG_VALUE_CHARS = 1024

# Inline comment in a bare config value: "token = abc123  # comment".
_INLINE_COMMENT = re.compile(r"[ \t]+#.*")
_LINE_END = re.compile(f"[{_NL}]")

# A value set in a shell command (PGPASSWORD=x psql): up to a space, quote or operator.
_SHELL_WORD = re.compile(r"[^\s\"'`;&|()<>\[\]{},\\]{6,}(?![\[({])")
# A value in a URL query or a connection string: up to the next separator.
# Read from the text, not the tail's 64-character `bare` group, so a long value is whole.
_QUERY_VALUE = re.compile(r"[^\s\"'`;&#<>]{1,1024}")
# The same in a query encoded in another URL's: also up to an encoded separator or quote
# (%26 "&", %23 "#", %3B ";", %20 " ", %22 '"', %27 "'").
_ENCODED_QUERY_VALUE = re.compile(r"(?:[^\s\"'`;&#<>%]|%(?!2[02367]|3[bB])){1,1024}")
# A Markdown table cell's text, up to the next "|".
_TABLE_VALUE = re.compile(f"[^|{_NL}]{{1,1024}}")
# YAML block scalar indicators (with an indentation digit, a chomping sign, a comment): the
# value is on the next, more indented line, maybe after blank lines.
_BLOCK_SCALAR = re.compile(r"[|>](?:[1-9]?[-+]?|[-+][1-9])(?:[ \t]+#[^\r\n]*)?[ \t]*\Z")
_NEXT_LINE = re.compile(r"[ \t]*\r?\n(?:[ \t]*\r?\n){0,3}([ \t]+)(\S[^\r\n]*)")
# A YAML tag or anchor before a value: `password: !!str ...`, `password: &pw ...`.
_YAML_PROPERTY = re.compile(r"(?:!![a-z]+|&[\w-]+)[ \t]+(?=[^\s|>])")
# A plain YAML scalar alone on its line (not a mapping, a list item or a comment).
_LONE_SCALAR = re.compile(r"[^\s#&*!|>{}\[\]\-\"'`%@,?:][^\s]*\Z")
# The text of an XML element, also in CDATA, up to its closing tag.
_XML_TEXT = re.compile(
    f"(?:<!\\[CDATA\\[(?P<cdata>[^\\]<{_NL}]{{1,4096}})\\]\\]>|(?P<text>[^<{_NL}]{{1,4096}}))"
    r"\s{0,200}</"
)

# Code in documentation read as a config value: a call or subscript of a name.
_CODE_VALUE = re.compile(r"[A-Za-z_][\w.]*\s*[(\[{]")


@functools.lru_cache(maxsize=1024)  # (pure; a text dense with credentials repeats values)
def _is_prose(value: str) -> bool:
    """True for a value that is words, not a secret: ":param password: The user password.",
    "token: see the vault entry". Three words or more (unless one is a long generated
    word), or two plain words."""
    words = value.split()
    if len(words) >= 3:
        return not any(len(w) >= 12 and _has_digit_and_letter(w) for w in words)
    return len(words) == 2 and all(w.strip(".,;:!?()\"'").isalpha() for w in words)


def _mixes_case_and_digits(word: str) -> bool:
    """True for a word of eight characters or more with a digit, a small and a capital
    letter: a password or a key (``Hq71mZpe4T``), not a word, a name in one case or an
    algorithm (``sha256``, ``passwordHash``)."""
    return (
        len(word) >= 8
        and any(map(str.isdigit, word))
        and any(map(str.islower, word))
        and any(map(str.isupper, word))
    )


def _is_sentence(value: str) -> bool:
    """True for a quoted config value that is a sentence (a capital, a comma, a full stop),
    not a passphrase ("correct horse battery staple")."""
    words = value.split()
    return (
        len(words) >= 3
        and (value[0].isupper() or "," in value or value.endswith((".", ":", "?", "!")))
        and _is_prose(value)
    )


def _next_line_value(text: str, m: re.Match[str]) -> tuple[int, int] | None:
    """The span of a YAML value on the line after ``password:``: one plain word, indented
    deeper than the key (not ``type: string``, a list item or a comment)."""
    nxt = _NEXT_LINE.match(text, m.end())
    if nxt is None or _LONE_SCALAR.match(nxt.group(2).rstrip()) is None:
        return None
    line_start = _line_start(text, m.start())
    key_indent = len(text[line_start : m.start()]) - len(text[line_start : m.start()].lstrip())
    value = nxt.group(2).rstrip()
    if len(nxt.group(1)) <= key_indent or not _plain_secret(value) or _CODE_VALUE.match(value):
        return None
    return nxt.start(2), nxt.start(2) + len(value)


def _secret_value(
    text: str,
    m: re.Match[str],
    keyword_name: str,
    config_like: bool,
    context: str = "",
) -> tuple[int, int] | None:
    """The span of the secret value in an assignment match, or None if it is not one.

    ``context`` says how to read a bare (unquoted) value in code: ``comment`` (one word, as
    in config), ``shell`` (the name in capitals inside a command line: ``"PGPASSWORD=x
    psql"``), ``query`` (after ``?``, ``&`` or ``;``: a URL's query or a connection string),
    ``encoded`` (after ``%3D``: a query encoded in another URL's, up to an encoded
    separator), ``xml`` (``<password>x</password>``), ``table`` (a Markdown table's cell),
    ``herestring`` (a shell's ``read pw <<< x``: one word), ``option`` (a Windows command's
    ``/pass:x``: one word, typed).  A template string over lines is read in code only (in
    a shell script its backquotes run a command).
    """
    name_rest = m.group("rest")
    group = m.lastgroup or ""  # the value's group: the last the tail's alternatives close
    if group == "bare" and not (config_like or context) and len(name_rest) < _AWS_NAME_REST:
        return None  # password=password in code: bare, read below only as an AWS key's
        # value or in a context
    last = _LAST_WORD.search(name_rest) if name_rest else None
    if last is not None and last.group(0).lower() in _NAME_SUFFIXES:
        return None
    if group == "eol":
        return _next_line_value(text, m) if config_like and m.group("op") == ":" else None
    if group == "template":
        return None if config_like else _template_value(m, keyword_name, group)
    if group == "triple":  # (TOML's too)
        return _template_value(m, keyword_name, group)
    quoted = m.group(group) if group in _QUOTED_GROUPS else None
    joined = None  # where the last of the literals concatenated to the value ends
    if quoted is not None:
        value = quoted
        if group == "quoted" and not config_like and len(m.group("q")) == 1:
            found = _joined_literals(text, m, value)
            if found is None:
                return None  # "prefix_" + user_id: a name or a random value labelled
            value, joined = found
        if config_like:
            value = value.strip()
            if len(value) < 6:
                return None
        elif len(value) < 6 or _SPACE.search(value):
            return None
        start = m.start(group) + quoted.find(value) if joined is None else m.start(group)
    else:
        bare = m.group("bare")
        start = m.start("bare")
        aws_name = len(name_rest) >= _AWS_NAME_REST  # (a cheap test first)
        if aws_name and _AWS_SECRET_NAME.search(keyword_name + name_rest.lower()):
            key = _AWS_SECRET_VALUE.match(bare)
            if key is None:
                return None
            value = key.group(0)
        elif context == "xml":
            element = _XML_TEXT.match(text, start)
            if element is None:
                return None
            group = "cdata" if element.group("cdata") is not None else "text"
            value = element.group(group).strip()
            if len(value) < 6 or _is_prose(value):
                return None
            start = element.start(group) + element.group(group).find(value)
        elif context in ("query", "encoded"):
            word = (_QUERY_VALUE if context == "query" else _ENCODED_QUERY_VALUE).match(
                text, start
            )  # none for an empty `?password=&a=1`
            if word is None or len(word.group(0)) < 6:
                return None
            value = word.group(0)
            if "(" in value:
                return None  # "...; pw = format(x)": code in a string
            inner = value[1:-1]
            if value[0] + value[-1] == "{}" and _has_digit_and_letter(inner) and "!" not in inner:
                value = inner  # ODBC's PWD={...}, not a format field ({password!r})
                start += 1
        elif context == "table":  # | password | value |
            cell = _TABLE_VALUE.match(text, start)
            value = cell.group(0).strip().strip("*") if cell is not None else ""
            if len(value.split()) != 1 or len(value) < 6:
                return None
            start = text.index(value, start)
        elif context == "option":  # cmdkey /pass:...: one word typed like a password
            word = _SHELL_WORD.match(text, start)
            if word is None or bare[0] in "%$!*" or not _typed(word.group(0)):
                return None  # /pass:%PASSWORD%, /password:secret
            value = word.group(0)
        elif context == "herestring":  # read -r pw <<< ...: one word
            word = _SHELL_WORD.match(text, start)
            if word is None:
                return None
            value = word.group(0)
        elif context == "shell" and (
            name_rest.isupper() or (not name_rest and keyword_name != "auth")
        ):  # AUTH=CRAM-MD5 is an IMAP capability
            # An environment variable set in a shell command: NAME=value, no spaces.
            word = _SHELL_WORD.match(text, start)
            if m.end("rest") != start - 1 or text[start - 1] != "=" or word is None:
                return None
            value = word.group(0)
        elif not config_like:
            return None
        elif bare[0] in "!&" and (prop := _YAML_PROPERTY.match(bare)) is not None:
            start += prop.end()
            value = bare[prop.end() :].split(None, 1)[0]
            if len(value) < 6:
                return None
        elif bare[0] in "|>" and _BLOCK_SCALAR.match(bare):
            # password: |  then the value on the next line
            nxt = _NEXT_LINE.match(text, m.start("bare") + len(bare.rstrip()))
            if nxt is None:
                return None
            value = nxt.group(2).rstrip()
            start = nxt.start(2)
            if len(value) < 6 or _is_prose(value):
                return None
        elif bare[0] == "*" and (emphasis := _EMPHASIS.match(bare)) is not None:
            # password: **hunter2hunter** (Markdown: a note, a fact, a README), typed or
            # generated (not **required**)
            value = emphasis.group("word")
            start += emphasis.start("word")
            if len(value) < 6 or not (_typed(value) or _looks_generated(value)):
                return None
        elif bare[0] in _BARE_NOT_VALUE:
            return None
        else:
            # A config value runs to the end of its line, read within a bounded window: a
            # minified file's megabyte-long line has a keyword every few bytes, and reading
            # to its end for each made redaction quadratic.
            limit = start + _CONFIG_VALUE_CHARS
            newline = text.find("\n", start, limit)  # (a find first: the class is slow)
            eol = _LINE_END.search(text, start, newline + 1 if newline >= 0 else limit)
            bare = text[start : eol.start() if eol is not None else limit]
            if eol is None and limit < len(text):
                bare = bare.split(None, 1)[0]  # a line longer than the window: its first word
            if "#" in bare:
                bare = _INLINE_COMMENT.sub("", bare)
            value = bare.rstrip().rstrip(",")
            prose = m.group("op") == ":" and _is_prose(value)
            if prose or (
                m.group("op") == ":"
                and not _OPENING_BRACKETS.isdisjoint(value)  # (a cheap test first)
                and _CODE_VALUE.match(value)
            ):
                # words, or a call in docs; but a word typed like a password or generated,
                # then words or an aside, is a secret: "password: Hq71mZpe4T for the bot",
                # "password: Hq71mZpe4T (rotated)" (a fact remembered, a note, a commit message)
                first = value.split(None, 1)[0].rstrip(",;.)")
                if _mixes_case_and_digits(first) and _CODE_VALUE.match(first) is None:
                    value = first
                elif prose:
                    return None  # "Password: must be 12 characters." (not "password = a b c")
            cut = value.find(REDACTED)
            if cut > 0 or context == "comment" or keyword_name in _GENERATED_KEYWORDS:
                # a token later on the line was redacted: this value is a word before it; in
                # a comment or prose the value is one word ("# pw: x1 (rotated monthly)")
                # (a token or key is one word: `X-API-Key: abc123" https://...` in a command)
                words = value[: cut if cut > 0 else None].split()
                value = words[0].rstrip(",;.\"'`") if words else ""
            if len(value) < 6:
                return None
    if _is_placeholder(value) or _is_name_value(value):
        return None
    if keyword_name in _GENERATED_KEYWORDS and (
        not _looks_generated(value) or any(c.isspace() or c in "[]()|<>*" for c in value)
    ):
        return None  # "input_token": "Marker", "NextMarker || Contents[-1].Key", 1*<any CHAR
    if quoted is not None and config_like and _is_sentence(value):
        return None  # "nextToken": "A generated value, used for paginating results."
    if context == "table" and not (_typed(value) or _looks_generated(value)):
        return None  # | password | required |: a table of settings, not of values
    if (
        quoted is None
        and config_like
        and not _OPENING_BRACKETS.isdisjoint(value)
        and _CODE_VALUE.match(value)
    ):
        return None  # docs' code: password = request.form['password'], auth=HTTPAuth(...)
    return start, start + len(value) if joined is None else joined


# A value after a space: `ENV DB_PASSWORD ...` (Dockerfile), `db.password ...`
# (.properties), SQL's `WITH PASSWORD '...'`, "connect with password ..." (prose and
# docstrings).
_SPACED = re.compile(
    r"""(?P<rest>[\w.-]{0,64})[ \t]+(?P<q>['"`]?)(?P<value>[^\s'"`]{1,200})(?P=q)"""
)


# The words before "password ..." in a sentence that gives it: "use password ...", "connect
# with the password ...".
_USE_PASSWORD = tuple(f"{verb} {the}" for verb in ("use", "using", "with") for the in ("", "the "))


def _spaced_value(
    text: str, keyword: str, start: int, end: int, line: str, config_like: bool
) -> tuple[int, int] | None:
    """The span of a secret given after the credential name and a space, in the four forms
    where that is a value: a Dockerfile's ``ENV NAME value``, a ``.properties`` line
    ``db.password value`` (a dotted name starting a config line, the value typed or
    generated), SQL's ``PASSWORD '...'`` (the keyword in capitals, or after
    ``WITH``/``LOGIN``) and "with/use [the] password ..." in a sentence (a word with a digit
    or a symbol).  ``keyword`` is the name's keyword at ``start:end`` as written in lower
    case (password, passwd), or what a name in another language names."""
    m = _SPACED.match(text, end)
    if m is None:
        return None
    value, q = m.group("value"), m.group("q")
    last = _LAST_WORD.search(m.group("rest"))
    if last is not None and last.group(0).lower() in _NAME_SUFFIXES:
        return None  # ENV DB_PASSWORD_FILE /run/secrets/db
    before = line.lower()
    if config_like and line.strip() == "ENV":
        pass
    elif config_like and not line.strip() and "." in text[start - 1 : start] and not q:
        if not (_typed(value) or _looks_generated(value)):  # db.password Tr0ub4dor (.properties)
            return None
    elif q == "'" and keyword in _CHOSEN_WORDS and not m.group("rest"):
        if not (text[start:end].isupper() or before.endswith(("with ", "login "))):
            return None
    elif not q and keyword in _CHOSEN_WORDS and not m.group("rest"):
        if not before.endswith(_USE_PASSWORD):
            return None
        value = value.rstrip(".,;:)")
        if not _typed(value):
            return None
    else:
        return None
    if not _plain_secret(value, keyword):
        return None
    return m.start("value"), m.start("value") + len(value)


# An XML setting with its value before its key: <add value="..." key="DbPassword" />.
_VALUE_BEFORE_KEY = re.compile(
    r"""<[\w:.-]+[ \t][^<>]{0,200}?\bvalue=(["'])(?P<value>[^"'<>\n]{1,200})\1"""
    r"""[^<>]{0,200}?\b(?:key|name)=["']\Z"""
)


def _value_before_key(
    text: str, keyword: str, start: int, end: int, line: str, prefix: str
) -> tuple[int, int] | None:
    """The span of the value of ``<add value="..." key="DbPassword" />``, the name ending in
    the keyword at ``start:end`` (``keyword`` as :func:`_spaced_value` takes it) and its
    closing quote."""
    m = _VALUE_BEFORE_KEY.search(line)
    if m is None or text[end : end + 1] != line[-1]:
        return None
    value = m.group("value")
    if not _plain_secret(value, keyword):
        return None
    begin = start - len(prefix) - len(line) + m.start("value")
    return begin, begin + len(value)


# A secret stated in a sentence: "the staging password is Tr0ub4dor&3", "the API key for CI
# was 3f9a...", "the password for staging: ...", "the password was changed to ...", "set the
# password to ...": the credential word, up to eight words, "is"/"was"/"being" (maybe
# "changed to") or a colon, or "to" right after the word; one word, also on the next line.
_STATED_TAIL = re.compile(
    r"(?:s?(?:[ \t]+[\w.-]+){0,8}?(?:[ \t]+(?:is|was|being)(?:[ \t]+(?:changed|set|reset)[ \t]+to)?"
    r"|(?<=[\w.-]):)|[ \t]+to(?=[ \t])):?(?:[ \t]+|[ \t]*\r?\n[ \t]*)(?:now[ \t]+|still[ \t]+)?"
    r"""(?P<q>[`"']?)(?P<value>[^\s`"']+)"""
)
# Words a person picks: "password is hunter2!"; the rest are machine-made.
_CHOSEN_WORDS = frozenset({"password", "passwd", "passphrase", "passcode", "pwd", "pw"})


def _stated_value(text: str, lowered: str, keyword: str, end: int) -> tuple[int, int] | None:
    """The span of a secret stated after the credential word ending at ``end`` (``keyword``
    as :func:`_spaced_value` takes it): a word with a digit or a symbol after a password
    (not "password is hashed", "is None", "is self.x"), a long word mixing letters and
    digits after a token, secret or key."""
    m = _STATED_TAIL.match(lowered, end)
    if m is None:
        return None
    begin = m.start("value")
    value = text[begin : m.end("value")]
    if not m.group("q"):
        value = value.rstrip(".,;:)*")  # the end of the sentence, **bold** text
        if value.endswith(("\\n", "\\r")):
            value = value[:-2]  # "Your API key is ...\n": a line printed, in a JSON string
    if (
        len(value) < 6
        or any(c in "()[]{}" for c in value)
        or _is_placeholder(value)
        or _is_name_value(value)
    ):
        return None
    if keyword in _CHOSEN_WORDS:
        if not _typed(value):
            return None
    elif len(value) < 12 or not _has_digit_and_letter(value):
        return None
    return begin, begin + len(value)


# The names before the credential name in a tuple assignment, from the start of its line
# (`user, password = ...`), and the value at the same place on the right: one regex for
# each count of names before.
_TUPLE_TARGETS = re.compile(r"[ \t]*(?:[A-Za-z_][\w.]{0,40}[ \t]*,[ \t]*){1,4}\Z")
# (an item: a string, a name or a PHP variable: $user, $this->user)
_TUPLE_ITEM = r"""(?:[bBrRuUfF]{0,2}(["'])[^"'\n]{0,200}\1|[\w.$>-]{1,64})[ \t]*,[ \t]*"""
_TUPLE_VALUES = tuple(
    re.compile(
        rf"""[ \t]*(?:{_TUPLE_ITEM}){{{before}}}"""
        r"""[bBrRuUfF]{0,2}(?P<q>["'])(?P<value>[^"'\n]{6,200})(?P=q)"""
    )
    for before in range(5)
)


def _tuple_value(text: str, m: re.Match[str], keyword: str, before: int) -> tuple[int, int] | None:
    """The span of the string assigned to the credential name in a tuple assignment, the
    name after ``before`` other targets: ``user, password = "app", "..."``."""
    found = _TUPLE_VALUES[before].match(text, m.end("op"))
    if found is None:
        return None
    value = found.group("value")
    if any(c.isspace() for c in value) or not _plain_secret(value, keyword):
        return None
    return found.span("value")


# A list of values assigned to a credential name in the plural (passwords = ["...", "..."],
# "API_KEYS": [...], also over lines), or YAML's "passwords:" and its "- ..." lines: its
# quoted strings (a list of something else is read up to it), each typed or generated.
_LIST_ITEM = re.compile(
    r"""\s{0,200}[bBrRuUfF]{0,2}(?P<q>["'`])(?P<value>[^"'`\\\n]{1,200})(?P=q)\s{0,200}"""
    r"(?P<next>[,)\]])"
)
_YAML_ITEM = re.compile(
    r"""[ \t]*\r?\n[ \t]*-[ \t]+(?P<q>["']?)(?P<value>[^\s"'#]{1,200})(?P=q)[ \t]*"""
    r"(?=\r?\n|\Z|\#)"
)
_LIST_ITEMS = 256  # read at the most


# The operators that assign a list (passwords = [...], "tokens": [...], API_KEYS := [...]).
_LIST_OPERATORS = frozenset({"=", ":", ":=", "=>"})


def _list_values(
    text: str, m: re.Match[str] | None, keyword: str, config_like: bool, context: str | None
) -> list[tuple[int, int]]:
    """The spans of the secrets in the list assigned by ``m`` to a plural name (the tail
    after it, its ``context`` as for :func:`_secret_value`; the value ``[``, or in config
    the end of the line after a colon): strings typed like a password or generated, not
    placeholders, names or words (``passwords = ["password", "password2"]``)."""
    if (
        m is None
        or keyword == "auth"  # preferred_auths = ["CRAM-MD5", ...]: mechanisms
        or context not in ("", "comment")
        or m.group("rest")
        or m.group("op") not in _LIST_OPERATORS
    ):
        return []
    if m.lastgroup == "eol" and config_like and m.group("op") == ":":
        pattern, at = _YAML_ITEM, m.end()
    elif m.lastgroup == "bare" and m.group("bare").startswith("["):
        pattern, at = _LIST_ITEM, m.start("bare") + 1
    else:
        return []
    spans = []
    for _ in range(_LIST_ITEMS):
        item = pattern.match(text, at)
        if item is None:
            break
        if _listed_secret(item.group("value"), keyword):
            spans.append(item.span("value"))
        at = item.end()
        if pattern is _LIST_ITEM and item.group("next") != ",":
            break  # the list's end
    return spans


def _listed_secret(value: str, keyword: str) -> bool:
    """True for a secret in a list named for ``keyword``: a token or a key of 16 characters
    or more, letters and digits (not a tokenizer's ``"19June2000"``), else a word typed like
    a password (a digit or a symbol)."""
    if _SPACE.search(value) or not _plain_secret(value, keyword):
        return False
    if keyword in _GENERATED_KEYWORDS:
        return len(value) >= 16 and _has_digit_and_letter(value)
    return _typed(value)
