"""Assignments: keyword scans of the text, then the rest of the assignment read at each hit.

``password = "..."``, ``"api_key": "..."``, ``TOKEN=...`` and friends are found in a
lower-cased copy of the text by four scans for the keywords ``pass``/``pwd``/``pw``,
``token``/``key`` (after api/access/private), ``secret`` and ``auth``, each with a
look-ahead for an assignment operator (or one of the few spaced forms below), so ``pass``
statements and the like are dropped inside the regex engine.  The few remaining hits are
checked in Python: the keyword must stand as a word of the name, and an anchored regex
reads the operator and value (:mod:`.tail`; :mod:`.values` reads and judges the value).  Full-width
forms typed with a CJK input method (``password＝"..."``, ``ＰＡＳＳＷＯＲＤ：...``) are read
as the ASCII characters they stand for, and names written in Chinese, Japanese or Korean
(``密码=...``) are found too (see :mod:`.nonascii`).  The names of a password, a secret, a
token, a key or credentials in other languages (``contraseña``, ``senha``, ``пароль``,
``api_schlüssel``, ``κωδικός``: :mod:`.foreign`) are found by branches of the same scans and
read as the English word's.
``Authorization:`` headers ride on the ``auth`` hits, and so do secrets stated in a
sentence ("the staging password is ...", "the password for staging: ...", "... was
changed to ...", "connect with password ..."), environment variables set inside a command
written in code (``"PGPASSWORD=... psql"``, ``# run with DB_PASSWORD=...``), values in a
URL's query (also ``?p=...``, and encoded: ``password%3D...``), a connection string or a
``key=value`` string (``?password=...&``, ``;Pwd={...};``, ``"host=db password=..."``),
setters (``setDbPassword("...")``, ``withPassword``, ``builder.password("...")``,
``set_password("svc", "user", "...")``, ``PasswordAuthenticator("user", "...")``),
names given with a value (``getenv("db_password", "...")``, ``define('DB_PASSWORD',
'...')``, ``props.put("mail.smtp.password", "...")``), defaults of environment variables
(``process.env.DB_PASSWORD || "..."``, ``os.environ.get("DB_PASSWORD") or "..."``,
``ENV.fetch("DB_PASSWORD") { "..." }``), XML elements (also with attributes, a namespace,
CDATA, the value on the next line, or named by a ``key``/``name`` attribute) and
``key="ApiKey" value="..."`` settings, SQL's ``WITH PASSWORD '...'``, Dockerfiles' ``ENV
DB_PASSWORD ...``, Go's ``var dbPassword string = "..."``, a Windows command's option
(``cmdkey /pass:...``, ``wmic /password:...``), values wrapped in parentheses,
``str(...)`` or triple quotes or continued after ``\\``, escaped quotes inside JSON
(notebooks), YAML block scalars, tags, anchors and values on the next line, Markdown bold
names and table rows, comments in code read like config (``# old password: ...``, ``/* pw:
... */``; a bare word inside a docstring or a block comment too), a name paired with its
value in a tuple or a list (``("password", "...")``), and the strings of a list assigned
to a name in the plural (``passwords = ["...", "..."]``, ``API_KEYS = [...]``, YAML's ``-
...`` items).  The ``k`` scan also finds ``Cookie``/``Set-Cookie`` headers (generated
values of their ``name=value`` pairs) and a URL's ``?key=...``; the ``auth`` hits also
read Digest and AWS Signature V4 headers, and values concatenated after ``"Bearer "`` or
``"...&password="``.  Three more scans find words that introduce a credential in other
shapes: SQL's ``IDENTIFIED BY '...'`` in any case, and the user and password given to a
login or a connection, as arguments (``login("user", "...")``, ``NetworkCredential("user",
"...")``, ``connect(host, "user", "...")``), as a pair assigned (``creds = ("admin",
"...")``) or in a sentence ("log in with admin / ...", "creds: admin/...").  Headers,
cookies and those words are read by :mod:`.commands`.
"""

from __future__ import annotations

import bisect
import re

from repomem.secrets._common import (
    _BOOKKEEPING_TOKENS,
    _OPENING_BRACKETS,
    REDACTED,
    _is_name_value,
    _is_placeholder,
    _line_start,
    _looks_generated,
    _lower,
    _typed,
)
from repomem.secrets.commands import (
    _AUTH_HEADER_TAIL,
    _C_WORDS,
    _D_WORDS,
    _G_WORDS,
    _GIVEN,
    _P_FIRST,
    _P_WORDS,
    _Q_WORDS,
    _U_WORDS,
    _WORD_KINDS,
    _cookie_spans,
    _p_word,
    _word_kind,
    _word_spans,
)
from repomem.secrets.foreign import (
    _OWN_SCANS,
    _WIDE_LETTERS,
    FOREIGN_MEANINGS,
    _branches,
    _foreign_name,
)
from repomem.secrets.literals import _parts_over_lines
from repomem.secrets.nonascii import (
    _cjk_hits,
    _cjk_spans,
    _fold_confusables,
    _fold_full_width,
    _held,
)
from repomem.secrets.tail import _tail
from repomem.secrets.values import (
    _TUPLE_TARGETS,
    _list_values,
    _secret_value,
    _spaced_value,
    _stated_value,
    _tuple_value,
    _value_before_key,
)

# Keywords searched for in the lower-cased text.  "key" only counts after api / access /
# private and the names of keys that sign or encrypt (api_key, accessKey, private-key,
# ENCRYPTION_KEY, signingKey, MASTER_KEY, FERNET_KEY, hmac-key); "pass" also covers
# password, passwd, passphrase and German passwort; "secret" covers client_secret; "auth"
# also finds Authorization headers.
#
# Four regexes find them, each starting with a literal character (a fast scan): "p" for
# pass/pwd/pw, "k" for token/key (token is recognised at its "k" by a look-behind), "c" for
# secret and "u" for auth.  Each looks ahead for an assignment operator after the rest of
# the name, so the many keyword hits that are not assignments ("pass" statements, "key="
# arguments) are dropped without Python-level work.
_PASS_SUFFIXES = ("word", "wd", "phrase", "code", "wort", "w")
# Keys that sign or encrypt, named for what they do or for the library: sixteen characters
# or more (the shortest AES key in hex; a key's check value is shorter).
_SIGNING_KEYS = ("encryption", "signing", "master", "fernet", "hmac")
_SIGNING_KEY_NAME = re.compile(f"(?:{'|'.join(_SIGNING_KEYS)})[_ -]?\\Z")
_KEY_NAMES = ("api", "access", "private", *_SIGNING_KEYS)
# "key" after one of them, maybe a separator between: one look-behind for the names of each
# length (a look-behind's alternatives must be as long), each tried at every "key"; and
# Azure's AccountKey.
_AFTER_KEY_NAME = "|".join(
    [
        f"(?<=(?:{'|'.join(name for name in _KEY_NAMES if len(name) == length)}){sep}key)"
        for length in sorted({len(name) for name in _KEY_NAMES})
        for sep in ("", "[_ -]")
    ]
    + ["(?<=accountkey)"]
)
_THEN_OPERATOR = (
    r"(?=[\w.-]{0,64}(?:(?:\\?[\"'`”’＂＇]\]?|\]|\*\*|__)?[ \t\u3000]*"
    r"(?:[:=?|+>–—＝：]|->|value[ \t]*=|%3d|<<<)"
    r"|[\"'`][ \t]*,|[(>]"  # getenv("DB_PASSWORD", "..."), setPassword("..."), <password>
    r"|[\"'][ \t]*/?>"  # <add value="..." key="DbPassword" />
    r"|(?:[\"'`]\]?)?\)[ \t]*(?:[|?{]|or[ \t])"  # getenv("DB_PASSWORD") || "..."
    # PASSWORD '...' (SQL), ENV DB_PASSWORD ... (one word to the end of the line),
    # var pw string = ... (Go), <password encrypted="false">
    r"|[ \t]+(?:['\"`]|[^\s]{1,200}[ \t]*(?:\r?\n|\Z)|[a-z_][\w.:*\[\]]{0,40}[ \t]*=(?!=)))"
    # the password for x is ..., the password for staging: ..., set the password to ...
    r"|[a-z]{0,6}(?:(?:[ \t]+[\w.-]+){0,8}?(?:[ \t]+(?:is|was|being):?|:)|[ \t]+to)[ \t\r\n]"
    r"|(?:(?<=(?:use|ith|ing) pass)|(?<=(?:use|ith|ing) the pass))word[ \t])"
    # connect with password ..., use the password ...
)
# "cookie" is found at its "k" too: Cookie and Set-Cookie headers (see _cookie_spans).
# The "p" scan also finds a URL's short `?p=...` (six characters or more, not a regular
# expression's `(?P=name)`), and the words of commands and calls that take a password
# (see _P_WORDS).  A scan costs half a nanosecond a character however rare its letter (its
# matches cost more where the letter is common), so the keywords share the scans of the
# words of :mod:`.commands`: "secret" is found at its "c" with the words with a "c"
# (_C_WORDS), "auth" at its "u" with "net use" (_U_WORDS); and each branch starts with a
# literal, which the engine rejects at once at the other occurrences of the scan's letter
# (a look-around first is evaluated there: the `?p=` branch so cost a third of the "p"
# scan).
_ASSIGNED_MEANINGS = FOREIGN_MEANINGS - {"cred"}


def _foreign(letter: str) -> str:
    """The branches (each then "|") of the scan of ``letter`` for the names in other
    languages found at it (see :mod:`.foreign`): a password's, a secret's, a token's or a
    key's looked ahead for an assignment as the English keywords are, credentials for a
    user and a password given as the English ``creds`` are.  An empty group at the end of
    each marks its hits (the scans have no other group)."""
    assigned = _branches(letter, _ASSIGNED_MEANINGS)
    creds = _branches(letter, frozenset({"cred"}))
    return "".join(
        f"{branch}(?P<f{n}>){_THEN_OPERATOR if n < len(assigned) else _GIVEN}|"
        for n, branch in enumerate((*assigned, *creds))
    )


# Where a name in another language is found, an English keyword may start too (the "c"
# of SecretArn, which the lower-cased copy reads as Spanish "secreta", is no word of that
# name): each scan's English branches alone, read there (see _scan).
_ENGLISH_ALONE: dict[re.Pattern[str], re.Pattern[str]] = {}


def _scan_of(letter: str, english: str, after: str = "") -> re.Pattern[str]:
    """The scan of ``letter``: the branches of the names in other languages found at it,
    then ``english``, the branches of its English keywords and words (each group then
    ``after``).  A branch starts with a literal, which the engine rejects at once."""
    scan = re.compile(f"{letter}(?:{_foreign(letter)}{english}){after}")
    _ENGLISH_ALONE[scan] = re.compile(f"{letter}(?:{english}){after}")
    return scan


# A URL's `?p=`: six characters, not a regular expression's `(?P=name)`.
_SHORT_AHEAD = r"""(?=[^\s"'`;&#<>?=/()]{6})"""
_KEYWORD_SCANS: tuple[re.Pattern[str], ...] = (
    _scan_of(
        "p",
        f"{_P_FIRST}|ass{_THEN_OPERATOR}|wd?{_THEN_OPERATOR}"
        rf"|=(?<=[?&;]p=)(?<!\(\?p=){_SHORT_AHEAD}|%3d(?<=[?&;]p%3d)(?<!\(\?p%3d){_SHORT_AHEAD}"
        f"|{_P_WORDS}",
    ),
    _scan_of(
        "k",
        "en(?<=token)|ie(?<=cookie)|ey(?:"
        + _AFTER_KEY_NAME
        + "|(?<=[?&]key)(?==))",  # ?key=...: a URL's API key
        _THEN_OPERATOR,
    ),
    _scan_of("c", f"ret(?<=secret){_THEN_OPERATOR}|{_C_WORDS}"),
    _scan_of("u", f"th(?<=auth){_THEN_OPERATOR}|{_U_WORDS}"),
)
# The scans of the words of :mod:`.commands` with a "d", a "g" and a "q", and the names in
# other languages found at those letters.
_WORD_SCANS = tuple(
    _scan_of(letter, words) for letter, words in (("d", _D_WORDS), ("g", _G_WORDS), ("q", _Q_WORDS))
)
# The scans of the names with none of the scans' letters: Portuguese senha, Polish haslo,
# Indonesian rahasia at an "h", Turkish sifre at an "f", French jeton at a "j", Finnish
# salasana at an "l".  A scan costs a text a pass, and every text pays it: code written
# all in ASCII names its passwords so too (``senha = "..."``, ``DB_SIFRE``), with no
# accented comment or config file to tell its language (see :mod:`.foreign`).
_OWN_LETTER_SCANS = tuple(
    re.compile(f"{letter}(?:{_foreign(letter)[:-1]})") for letter in _OWN_SCANS
)
# The scans of the names written with no letter of those (in Cyrillic or Greek, Turkish
# şifre, Vietnamese bí mật), each run on a text that holds its letter, in the lower-cased
# copy of the text as it is (where the look-alikes of Latin letters are kept).
_WIDE_SCANS = {
    letter: re.compile(f"{letter}(?:{_foreign(letter)[:-1]})") for letter in _WIDE_LETTERS
}
# A keyword scan's match -> its keyword, and how far before the match the keyword starts
# (token and cookie are found at their "k", secret at its "c", auth at its "u", ?p= with
# its "="); a match not here is a word that introduces a credential (_P_WORDS, _C_WORDS,
# _U_WORDS, _D_WORDS, _G_WORDS, _Q_WORDS).
_MATCHED_KEYWORDS = {
    "pass": ("pass", 0),
    "pwd": ("pwd", 0),
    "pw": ("pw", 0),
    "p=": ("p", 0),
    "p%3d": ("p", 0),
    "ken": ("token", 2),
    "kie": ("cookie", 3),
    "key": ("key", 0),
    "cret": ("secret", 2),
    "uth": ("auth", 1),
}
# Every scan of the lowered text: the keywords', the words' and the names' in other
# languages with a letter of their own (eleven, each a pass).
_SCANS = (*_KEYWORD_SCANS, *_WORD_SCANS, *_OWN_LETTER_SCANS)

# A character of a name (after Python's `pass_`, see _keyword_end).
_NAME_CHAR = re.compile(r"[\w.-]")

# First words of a name that make it a setting about secrets when its value is a plain word:
# on_secret = "refuse" (repomem's own `.repomem`), redact_tokens = "always".
_SETTING_PREFIX = re.compile(r"(?<![\w-])(?:on|skip|redact|allow|detect|scan|use|check)[_-]\Z")


def _keyword_end(
    text: str, lowered: str, keyword: str, start: int, word_end: int, plural: bool = False
) -> int:
    """End of the keyword at ``start`` (its scan's match ending at ``word_end``) if it
    stands as a word of a name (with ``plural``, followed by an "s" that ends the word:
    passwords, API_KEYS), else -1.  A name in another language (see :mod:`.foreign`) is
    the word its scan found, ``keyword`` what it names."""
    # (the English keywords that are also what a name names, secret, token and key, end
    # where their scan's match does)
    end = word_end if keyword in FOREIGN_MEANINGS else start + len(keyword)
    if keyword == "pass":
        for suffix in _PASS_SUFFIXES:
            if lowered.startswith(suffix, end):
                end += len(suffix)
                break
        else:  # bare "pass" ends the name: DB_PASS, dbPass; not bypass, pass_zero, PassArg
            if start and "a" <= text[start - 1] <= "z":
                return -1
            # pass_="..." (Python's keyword avoided) is a password
            python_pass = text.startswith("_", end) and not _NAME_CHAR.match(text, end + 1)
            if end < len(text) and (text[end].isalnum() or text[end] in "_.-") and not python_pass:
                return -1
    elif (
        keyword in ("pwd", "pw", "auth", "password")
        and start
        and text[start - 1].islower()
        and not text.endswith(("BasicAuth", "DigestAuth"), 0, end)
    ):
        return -1  # oauth, getpwd, setpw, resenha; not HTTPBasicAuth(user, password)
    if plural:
        if not text.startswith("S" if "A" <= text[end - 1] <= "Z" else "s", end):
            return -1
        end += 1
    if end < len(text):
        nxt = text[end]
        # tokenizer, author, secretary, parola, секретарь; TOKENIZER, AUTHOR.  Camel case
        # (authToken) is fine.
        if nxt.islower() or (nxt.isupper() and text[end - 1].isupper()):
            return -1
    return end


def _line_before(text: str, start: int) -> tuple[str, str]:
    """The line before the name holding the keyword at ``start``, and the name's part before
    the keyword (``set`` of setPassword, ``DB_`` of DB_PASSWORD)."""
    i = start
    while i and (text[i - 1].isalnum() or text[i - 1] in "_.-"):
        i -= 1
    if not i or text[i - 1] in "\n\r":
        return "", text[i:start]  # the name starts its line
    return text[_line_start(text, i, max(0, i - 200)) : i], text[i:start]


def _in_command(line: str) -> bool:
    """True when a name after ``line`` is a word of a command line written in code: after a
    quote (``"PGPASSWORD=x psql"``), a comment marker, another word (``export``, ``-e``) or
    IPython's ``!``, not at the start of a statement (``PASSWORD=hunter2`` assigns a
    variable) nor after ``(``/``,`` (a keyword argument)."""
    if line.strip(" \t") == "!":
        return True  # IPython's shell escape: !PGPASSWORD=... psql
    if not line or line[-1] not in " \t\"'`":
        return False
    head = line.rstrip(" \t")
    return bool(head.strip()) and head[-1] not in "(,"


_CLOSING_PAREN = re.compile(r"\s*\)")
# The tail's groups of a value whose words may run over lines.
_WORDS_OVER_LINES = frozenset({"template", "triple"})

# A comment line, or a comment after code: "# old password: x", "// token: x".  Two
# regexes: the line's start matched, its marker after code searched (a `.*` before the
# marker backtracked through the whole line at every keyword hit).
_COMMENT_LINE = re.compile(r"[ \t]*(?:#|//|/\*|\*|--|;|::|%|<!--|rem[ \t])", re.I)
_COMMENT_AFTER_CODE = re.compile(r"[ \t](?:#|//|/\*)[ \t]")


def _is_comment(line: str) -> bool:
    """True when ``line`` (no line break in it) is a comment or has one after code."""
    if not line:
        return False  # (the name starts its line: the common case of a text dense with them)
    return _COMMENT_LINE.match(line) is not None or (
        ("#" in line or "/" in line) and _COMMENT_AFTER_CODE.search(line) is not None
    )


def _may_be_read_in_prose(bare: str) -> bool:
    """False when a comment's reading of the bare value ``bare`` (see :func:`_secret_value` and
    the checks of a comment's value in :func:`_assignment_spans`) keeps it: its first word,
    maybe cut at an earlier redaction, is short, code, a name, a placeholder or not
    generated, and it is no YAML tag, anchor or block scalar whose value is another word.
    (Finding the docstrings of a text costs as much as reading it: asked only where it may
    matter.)"""
    if bare[0] in "!&|>" or REDACTED in bare:
        return True
    words = bare.split(None, 1)
    if len(words) == 1 and len(bare) >= 64:
        return True  # a word longer than the bare value the tail reads
    word = words[0]
    value = word.rstrip(",;.\"'`")
    return (
        len(value) >= 6
        and _looks_generated(word)
        and _OPENING_BRACKETS.isdisjoint(word)
        and not (_is_placeholder(value) or _is_name_value(value))
    )


class _ProseRegions:
    """The docstrings and block comments of a text, found once it is asked about one: from
    a triple quote (\"\"\" or \'\'\') anywhere, or a "/*" that starts its line (not a glob's
    "src/*.py"), to the mark that closes it (or the end of the text)."""

    def __init__(self, text: str) -> None:
        self._text = text
        self._bounds: list[int] | None = None  # start, end, start, end ...

    def holds(self, position: int) -> bool:
        """True when ``position`` lies inside a docstring or a block comment."""
        if self._bounds is None:
            self._bounds = self._find()
        return bisect.bisect_right(self._bounds, position) % 2 == 1

    def _find(self) -> list[int]:
        text = self._text
        marks = []
        for mark in ('"""', "'''", "/*", "*/"):
            at = text.find(mark)
            while at >= 0:
                if mark != "/*" or not text[text.rfind("\n", 0, at) + 1 : at].strip():
                    marks.append((at, mark))
                at = text.find(mark, at + len(mark))
        marks.sort()
        bounds = []
        closing = ""
        for at, mark in marks:
            if not closing and mark != "*/":
                closing = "*/" if mark == "/*" else mark
                bounds.append(at + len(mark))
            elif mark == closing and at >= bounds[-1]:
                closing = ""
                bounds.append(at)
        if closing:
            bounds.append(len(text))
        return bounds


def _not_a_credential_name(text: str, m: re.Match[str], start: int, end: int, prefix: str) -> bool:
    """True when the name at `start` holds the keyword without naming a credential: between
    colons (an AWS ARN's `:secret:`, a reST role `:token:`), the English word "pass" alone
    ("you can pass :option:"), a paging or idempotency token (`next_token`, `ClientToken`,
    `--lock-token`), a public key token."""
    i = start - len(prefix)
    if i and text[i - 1] == ":" and m.group("op") == ":" and m.start("op") == m.end("rest"):
        return True
    word = text[start:end]
    if word == "pass" and not prefix and m.group("op") != "<<<":
        # lower-case "pass" alone is often the English word ("you can pass :option:"); as a
        # key (`pass: Hk2Lm8`) its value has a digit or a symbol
        named = m.end("close") if m.group("close") else m.end("rest")
        if m.start("op") != named:  # "pass :option:", a space before the colon
            return True
        words = (m.group("quoted") or m.group("bare") or "").split(None, 1)
        return not (words and _typed(words[0]))
    return word.lower() in ("token", "key") and _bookkeeping(prefix)


def _bookkeeping(prefix: str) -> bool:
    """True when a token or key named with ``prefix`` before the keyword pages, locks or
    orders requests (``next_token``, ``ClientToken``, ``--lock-token``), or is published
    (a DKIM token is a DNS record)."""
    return prefix.lower().replace("-", "_").rstrip("_").endswith(_BOOKKEEPING_TOKENS)


# The user given before a URL's short `p=`: ?user=admin&p=..., ?u=admin&p=...
_QUERY_USER = re.compile(r"[?&;](?:u|user|user_?name|login|email|uid)=[^\s&;\"'#]+[&;]\Z", re.I)


def _short_password(value: str, line: str) -> bool:
    """True when the value of a URL's ``p=`` is a password: typed (a digit or a symbol) after
    a user (``?user=admin&p=...``), or generated-looking alone (digits, lower and upper case
    letters: not a page number, a slug or a project path)."""
    if len(value) > 200 or "/" in value or not _typed(value):
        return False
    if _QUERY_USER.search(line):
        return True
    return (
        any(c.isdigit() for c in value)
        and any(c.islower() for c in value)
        and any(c.isupper() for c in value)
    )


def _is_namespaced(line: str, prefix: str) -> bool:
    """True when the name holding a keyword follows "::" (``line`` and ``prefix`` as
    :func:`_line_before` returns them; a part after a dot follows the dot).

    "AWS::SecretsManager::Secret": "c85175a4" maps a type name to a schema hash.
    """
    return "." not in prefix and line.endswith("::")


# How the name before a "(" makes a setter: setPassword, set_password, setDbPassword,
# withPassword, builder.password(...); and HTTPBasicAuth("user", "...").
_SETTER = re.compile(r"(?:[sS]et|[wW]ith)(?:[A-Z_]\w*)?|\w*(?:Basic|Digest)")
# Classes named for the password they hold: PasswordAuthenticator("user", "..."),
# PasswordCredential("user", "...").
_CREDENTIAL_CLASSES = frozenset({"Authenticator", "Credential", "Credentials"})
# Calls that take a name and its value: getenv("db_password", "..."),
# props.setProperty("password", "..."), conf.set("fs.s3a.secret.key", "...").
_KEY_VALUE_CALL = re.compile(
    r"\b(?:[sS]et\w*|put|add|getenv|get|env|fetch|getProperty|GetEnvironmentVariable)"
    r"\([ \t]*[\"'`]\Z"
)
# The shell's read before the name (and its options and other names): read -r user pass.
_READ_NAMES = re.compile(r"(?<![\w-])read(?:[ \t]+-\w+)*(?:[ \t]+[A-Za-z_]\w*)*[ \t]+\Z")
# After a name in the plural, a list assigned: passwords = [, "tokens": [, or the end of
# the line (YAML's items on the next lines).
_LIST_AHEAD = re.compile(r"""(?:["'`]\]?|\])?[ \t]*(?::=|=>|=|:)[ \t]*(?:\[|\r?\n)""")
# The name is the first item of a tuple or a list (not of a call's arguments), opened here:
# [("username", "admin"), ("password", "...")], dict([["password", "..."]]).
_PAIR_OPEN = re.compile(r"""(?<![\w.\])])[(\[][ \t]*["'`]\Z""")
# ... and closed after its value.
_PAIR_CLOSE = re.compile(r"[ \t]*[)\]]")
# An XML element's name starts here (<password>, <jdbc:password>), or its key attribute's
# value (<entry key="password">, <string name="api_key">).
_XML_OPEN = re.compile(r"<(?:[\w.-]+:)?\Z")
_XML_KEY_ATTR = re.compile(r"<[\w:.-]+[ \t][^<>]{0,200}?\b(?:key|name)=[\"']\Z")
# The name is the first cell of a Markdown table row: | password | ... |
_TABLE_CELL = re.compile(r"\|[ \t]*[`*]{0,2}\Z")
# The name is a key inside a string: "password=...", "host=db user=app password=..." (libpq).
_IN_STRING = re.compile(r"[\"']\Z|[\"'](?:[\w.-]+=[^\s\"'=]*[ \t]+){1,8}\Z")


def _context(
    text: str,
    m: re.Match[str],
    line: str,
    prefix: str,
    span: tuple[int, int],
    config_like: bool,
    prose: bool,
) -> str | None:
    """How to read the value of the assignment ``m`` (see :func:`_secret_value`), or None
    when its operator does not assign here: a call that is not a setter, ``>`` outside XML,
    ``||`` after a name that is not an environment variable, ``|`` outside a table (in
    config files and prose only), a Go type outside ``var``/``const``."""
    op = m.group("op")
    start, end = span
    if op[0] != "=" and op != ":":  # (the shapes below have other operators: skip their tests)
        close = m.group("close")
        name = prefix + text[start:end] + m.group("rest")
        if op[0] == "(":  # setPassword("..."), set_password("..."): a setter, not a check
            setter = prefix.rpartition(".")[2]
            if m.group("quoted") is None:
                return None
            if m.group("rest") in _CREDENTIAL_CLASSES:
                return ""  # PasswordAuthenticator("admin", "..."): a credential made of a pair
            return "" if _SETTER.fullmatch(setter) or prefix.endswith(".") else None
        if m.group("xml") is not None:
            if _XML_OPEN.search(line) or (close and _XML_KEY_ATTR.search(line)):
                return "xml"
            return None
        if m.group("fallback") is not None:  # getenv("DB_PASSWORD") or "...": a default
            upper = name.rpartition(".")[2].isupper()
            return "" if upper and m.group("quoted") is not None else None
        if m.group("table") is not None:
            return "table" if (config_like or prose) and _TABLE_CELL.search(line) else None
        if m.group("gotype") is not None:  # var dbPassword string = "..."
            return "" if line.rstrip().endswith(("var", "const")) else None
        if op[0] in ",v":
            # after a whole quoted name only: <add key="ApiKey" value="..."/>, and for ","
            # an environment-style name (define('API_KEY', ...)) or a call taking a name and its
            # value (getenv("db_password", "..."), props.put("mail.smtp.password", "..."))
            if not (close and close[0] in "\"'`" and line.endswith(close[0])):
                return None
            env_style = name.isupper() and prefix in ("", prefix.rstrip("_") + "_")
            if op[0] == "," and _PAIR_OPEN.search(line) and not env_style:
                # ("password", "..."), ["password", "..."]: a name and its value (a constant's
                # name, ("SECRET_KEY", "..."), is a setting's: its value as in `SECRET_KEY = ...`)
                return "pair"
            if op[0] == "," and not (env_style or _KEY_VALUE_CALL.search(line)):
                return None
            return ""
        if op[0] == "%":  # password%3D...: a query encoded (in another URL's query)
            return "encoded"
        if op in ("::=", ":::=") and not config_like:
            return None  # Makefiles' assignments; in code, a grammar's rule
        if op == "<<<":  # read -r pw <<< "...": the name read from a here-string
            return "herestring" if _READ_NAMES.search(line) else None
    if not line:
        return ""  # the name starts its line: none of the shapes below
    if op == ":" and line[-1] == "/" and (len(line) == 1 or line[-2] in " \t\"'"):
        return "option"  # cmdkey /pass:..., wmic /password:...: a Windows command's option
    if line.endswith(("?", "&")) or line.rstrip(" ").endswith(";"):  # "...; Password=x"
        return "query"
    if not config_like and text[start:end].isupper() and _in_command(line):
        return "shell"
    if (
        not config_like
        and op == "="
        and not m.group("close")
        and ('"' in line or "'" in line)  # (a quick test first: _IN_STRING searches)
        and _IN_STRING.search(line)
    ):
        return "query"  # "password=...", "host=db password=...": a connection string
    return ""


def _scan(pattern: re.Pattern[str], lowered: str, hits: list[tuple[int, str, int]]) -> None:
    """Add the hits of ``pattern`` in ``lowered`` to ``hits``: (where the name starts, its
    keyword or kind of word, where its scan's match ends).  Where a name in another
    language is found, an English keyword or word starting there is a hit too (which of the
    two is a word of the name, :func:`_keyword_end` tells)."""
    for hit in pattern.finditer(lowered):
        if hit.lastgroup is not None:  # a name in another language
            name = _foreign_name(lowered, hit.end())
            if name is not None:
                hits.append((name[0], name[1], hit.end()))
            english = _ENGLISH_ALONE.get(pattern)
            alone = english.match(lowered, hit.start()) if english is not None else None
            if alone is None:
                continue
            hit = alone
        matched = hit.group()
        kind = _MATCHED_KEYWORDS.get(matched)
        if kind is None:  # a word that introduces a credential
            kind = _p_word(matched) if matched[0] == "p" else _word_kind(matched)
        hits.append((hit.start() - kind[1], kind[0], hit.end()))


def _assignment_spans(text: str, config_like: bool, prose: bool = False) -> list[tuple[int, int]]:
    """Spans of secret values assigned to credential-named keys (or stated in a sentence:
    "the staging password is ..."), in text order."""
    lowered = _lower(text)
    plain = lowered
    if not text.isascii():  # pаssword with a Cyrillic "а": names read as they look
        lowered = _fold_confusables(text, lowered) or lowered
    # (start, keyword or kind of word, end of the scan's match)
    hits: list[tuple[int, str, int]] = []
    for pattern in _SCANS:
        _scan(pattern, lowered, hits)
    if not text.isascii():  # (_fold_full_width and _cjk_hits take only such a text)
        for letter in _held(plain, _WIDE_LETTERS):  # (as written: пароль, not пapoль)
            _scan(_WIDE_SCANS[letter], plain, hits)
        folded = _fold_full_width(text, lowered, hits)
        if folded is not None:
            return _assignment_spans(folded, config_like, prose)
        hits.extend(_cjk_hits(text))
    if not hits:
        return []
    hits.sort()
    spans: list[tuple[int, int]] = []
    regions = _ProseRegions(text)
    done = 0  # hits before this offset lie inside an assignment already handled
    for start, keyword, word_end in hits:
        if start < done:
            continue
        if keyword == "auth" and lowered.startswith("authorization", start):
            header = _AUTH_HEADER_TAIL.match(text, start + 13)
            if header is not None:
                group = header.lastgroup or "value"
                if not _is_placeholder(header.group(group)):
                    spans.append(header.span(group))
                    done = header.end()
            continue
        if keyword in _WORD_KINDS or keyword in ("cookie", "cjk"):
            if keyword == "cookie":
                found = _cookie_spans(text, start)
            elif keyword == "cjk":
                found = _cjk_spans(text, start)
            else:
                found = _word_spans(text, lowered, start, keyword, word_end)
            if found:
                spans.extend(found)
                done = found[-1][1]
            continue
        end = _keyword_end(text, lowered, keyword, start, word_end)
        plural = end < 0
        if plural:  # passwords = [...]: a list, or nothing
            end = _keyword_end(text, lowered, keyword, start, word_end, plural=True)
            if end < 0 or not _LIST_AHEAD.match(text, end):
                continue
        # what the name is called: the keyword as written (password, passwd, secret), or
        # what a name in another language names (contraseña: password)
        name = keyword if keyword in FOREIGN_MEANINGS else lowered[start:end]
        line, prefix = _line_before(text, start)
        comment = not config_like and (prose or _is_comment(line))
        m = _tail(text, end, comment)
        context = None
        if m is not None:
            context = _context(text, m, line, prefix, (start, end), config_like, comment)
        if (
            context == ""
            and m is not None
            and m.lastgroup == "bare"
            and not (config_like or comment)
        ):  # a bare word in a docstring or a block comment: read like a comment's
            op = m.group("op")
            annotation = op[0] == ":" and op[-1] == "=" and len(op) > 2  # (in code only)
            bare = m.group("bare")
            if (
                annotation
                or ((len(bare) >= 6 or bare[0] in "!&|>") and _may_be_read_in_prose(bare))
            ) and regions.holds(start):
                comment = True
                if annotation:  # (else the same match)
                    m = _tail(text, end, comment)
                    if m is not None:
                        context = _context(
                            text, m, line, prefix, (start, end), config_like, comment
                        )
        if plural:
            if keyword in ("token", "key") and _bookkeeping(prefix):
                continue  # next_tokens, "DkimTokens": [...]
            found = _list_values(text, m, keyword, config_like or comment, context)
            if found:
                spans.extend(found)
                done = found[-1][1]
            continue
        if m is None or context is None:
            span = _spaced_value(text, name, start, end, line, config_like)
            if span is None:
                span = _value_before_key(text, name, start, end, line, prefix)
            if span is None:
                span = _stated_value(text, lowered, name, end)
            if span is not None:
                spans.append(span)
                done = span[1]
            continue
        close = m.group("close")
        if comment and (keyword == "pass" and end - start == 4 or m.group("bare") is None):
            comment = False  # "# First pass: ...": only a bare password-like value
        if comment and not context:
            context = "comment"
        targets = (
            _TUPLE_TARGETS.match(line)
            if "," in line and m.group("op") == "=" and not close
            else None
        )
        if targets is not None:  # user, password = "app", "..."
            span = _tuple_value(text, m, name, targets.group(0).count(","))
        else:
            span = _secret_value(text, m, name, config_like or comment, context)
        if span is None or _is_namespaced(line, prefix):
            continue
        value = text[span[0] : span[1]]
        if keyword == "key" and not prefix and ("/" in value or "." in value):
            continue  # ?key=dir/object.txt: an object's key in a URL, not an API key
        if (
            keyword == "key"
            and len(value) < 16
            and _SIGNING_KEY_NAME.search(lowered, start - 12, start)
        ):
            continue  # "EncryptionKeyCheckValue": "7CC9E2": a key's check value, not the key
        if keyword == "p" and not _short_password(value, line):
            continue  # ?p=123, ?p=about: a page
        if context == "xml" and close and not (_typed(value) or _looks_generated(value)):
            continue  # <string name="password">Passwort</string>: a translation
        if context == "pair" and not (
            (_typed(value) or _looks_generated(value)) and _PAIR_CLOSE.match(text, span[1] + 1)
        ):
            continue  # ("password", "Password"): a label; ("password", "x", y): not a pair
        if m.group("op")[0] == "," and (
            (value.isalpha() and value.isupper()) or text.startswith(":", span[1] + 1)
        ):
            continue  # ("PASSWORD", "PLACING"), "PASS",\n "passed": a list or the next key
        if comment and (not _looks_generated(value) or not _OPENING_BRACKETS.isdisjoint(value)):
            continue  # "# token = self._get_param('Token')": code in a comment
        wrapped = m.group("wrapped")
        if wrapped and not _CLOSING_PAREN.match(text, span[1] + 1):
            continue  # ("SHA-256", "SHA-512"): a tuple, not a value wrapped in parentheses
        if (
            value.isalpha()
            and value.islower()
            and _SETTING_PREFIX.search(lowered, max(0, start - 16), start)
        ):
            continue  # on_secret = "refuse": a setting about secrets, set to a word
        if _not_a_credential_name(text, m, start, end, prefix):
            continue
        words = m.lastgroup in _WORDS_OVER_LINES
        if wrapped or words or span[1] > m.end():  # (may run over lines: literals joined after
            # the tail's, a template's or triple quotes' words)
            spans.extend(_parts_over_lines(text, span, words))
        else:
            spans.append(span)
        done = span[1]
    return spans
