"""Keep credentials out of the index: skip secret files, redact secrets inside the rest.

Two layers protect the store:

* :func:`is_secret_file` names files that hold credentials by nature (``.env``, private keys,
  keystores, ``.netrc`` ...).  The indexer must not read them at all; it records them with
  :data:`SECRET_FILE_REASON` as the reason for skipping.
* :func:`redact` replaces credentials found inside every other file with ``[REDACTED]``
  before anything is chunked, embedded or stored.  Only the secret itself is replaced
  (``API_KEY = "[REDACTED]"``, ``postgres://app:[REDACTED]@db``) so the code still reads,
  and no line break is ever added or removed, so line numbers stay valid.

The package, by concern: :mod:`.files` (credential and config files by name),
:mod:`.tokens` (the detectors of well-known credential formats and private keys, in the
order :func:`redact` applies them), :mod:`.commands` (credentials given to commands, logins
and connections, in headers and cookies), :mod:`.assign` (the keyword scans for assignments
and the driver that reads them), :mod:`.tail` (the regex that reads the rest of an
assignment), :mod:`.values` (how a value after a credential name is read and judged),
:mod:`.literals` (the literals a value is joined from, prefixes added to names, values over
lines), :mod:`.nonascii` (names and values written with characters outside ASCII:
full-width forms, look-alike letters, invisible characters, CJK names), :mod:`.foreign`
(the names of credentials in other languages the keyword scans find), :mod:`.notebooks`
(the strings of a Jupyter notebook, read unescaped) and :mod:`._common` (the
line-preserving mask and the tests that tell a secret from a placeholder or a name). This
module holds the public API.

How :func:`redact` finds secrets, cheapest first
------------------------------------------------
``redact`` runs on every file of a repository, so a file without secrets must cost little.

There is no separate prefilter: every scan *is* its own prefilter.  CPython's ``re``
skips through text at close to ``str.find`` speed while looking for the literal a
pattern starts with, and only does real work where that literal occurs.  Alternations
(``a|b|c``) and case-insensitive patterns lose that fast path and run ten times slower,
so the package avoids them at the top level of every scan.

1. *Token detectors* (:mod:`.tokens`, and :mod:`.commands` for credentials given to
   commands): each well-known credential format is a regular expression starting with a
   literal.
2. *Assignments* (:mod:`.assign`): ``password = "..."``, ``"api_key": "..."``,
   ``TOKEN=...`` and friends, found by four keyword scans of a lower-cased copy of the
   text, which also find some of the words that introduce a credential in other shapes,
   and three more scans for such words.  A scan costs about half a nanosecond a
   character however rare its letter, so a new word rides on a scan there is.
3. *Notebooks* (:mod:`.notebooks`): in a Jupyter notebook, steps 1 and 2 once more on the
   cells' sources and outputs, decoded from their JSON strings.
4. *Extra patterns* from the user's configuration, whole match redacted.

On the CPython 3.11 standard library with its site-packages (161 MB of ``.py`` files,
almost none with secrets) this runs at roughly 33 MB/s of CPU time on one core of this
machine (54 before session 15 added the command-line, sentence and vendor rules; 35-36
before session 16's shapes; 35 before session 17's word scans, which cost two scans net
after merging the Slack and ``h`` vendor scans; 34 before session 18's scans for
``Signature=`` and for the words with a "q": about 32 after).  Session 20's shapes cost
nothing there (``secret`` is found at its "c" with the words of a "c", ``auth`` at its "u"
with ``net use``: one scan fewer for one more); on a quieter day the same files ran at
41-42 MB/s before and after them, measured interleaved in one process.  Session 21's
(Windows commands' options, more blanks between a command's words, templates and literals
over lines, invisible characters, CJK names' wide values) ride on the same scans: 44.9 MB/s
before and after.  Session 22's look-alike letters and bidirectional controls cost the
files wider than Latin-1 their finds (0.94 of main's throughput on those 592 files, 0.995
on the ASCII ones, 0.984 over all); its shapes over lines ride on the tail as before.
Session 24 runs the scans of the names in other languages with a letter of their own ("h",
"f", "j", "l": ``senha``, ``sifre``, ``jeton``, ``salasana``) on every text, code all in
ASCII included, where they read config files, prose and texts wider than ASCII only: 0.907
of the throughput before, on a machine loaded by other work (load 7.6 on two cores).

Every detector is applied to the output of the previous one; a value already turned into
``[REDACTED]`` counts as a placeholder, so nothing is counted twice and ``redact`` is
idempotent.

What is deliberately *not* a secret
-----------------------------------
Redaction must not damage ordinary code, so an assignment only counts when its value is a
string literal of six or more characters without whitespace (in config files, also a bare
value or a quoted one with spaces).  Left alone are:

* expressions (``password = request.form["password"]``, ``token = get_token()``),
  annotations (``password: str``), comparisons (``==``), empty and short strings, and a
  prefix added to an identity or a random value (``password = "prefix_" + user_id``,
  ``"tmp-pass-" + uuid4().hex``: a lower- or upper-case word ending in ``_``, ``-``, ``:``,
  ``/`` or ``.``, the operand naming an id, a name, a user, a path, a key or a token, or
  making a random value).  The secret, if any, is then not in the source.  Added to
  anything else (``"hunter-" + year``, ``"PREFIX_" + str(i)``) the literal is the part of
  the password a person chose, the rest guessed, and is redacted;
* placeholders (``${VAR}``, ``{{ var }}``, ``%(name)s``, ``{name}``, ``<your-key>``,
  ``xxxx``, ``****``) and well-known dummies (``changeme``, ``changeit``, ``password``,
  ``secret``, ``your-...``, anything containing ``example`` or ``placeholder``): they
  reveal nothing, and keeping them keeps examples readable;
* values that are names, not secrets: URLs, file paths, dotted module paths
  (``auth.User``), environment variable names (``"GITHUB_TOKEN"``), ``snake_case`` and
  ``camelCase`` identifiers (``"access_token"``, ``"nextToken"``), colours (``"#ff0000"``),
  version numbers and dates, AWS ARNs and regular expressions;
* values of names ending in ``url``, ``path``, ``file``, ``name``, ``field``, ``type``,
  ``header``, ``env``, ``id``, ``version``, counts, limits and timeouts (``token_url``,
  ``password_field``, ``auth_timeout``) and of namespaced keys (``"AWS::IAM::AccessKey"``);
* lower- or upper-case words assigned to *token*, *key* and *auth* names
  (``TOKEN_COMMENT = "comment"``): those credentials are machine-made and always mix
  digits, case or base64 punctuation.  Passwords and secrets may be any word a person
  chose (``password = "hunter2hunter"`` is redacted);
* names where the keyword is part of another word: ``tokenizer``, ``author``,
  ``secretary``, ``bypass``, ``pass_zero``.
* users and passwords named, not given: ``login(user, password)``, ``login(request,
  "registration/login.html")`` (a path), "log in with your admin account", ``?key1=value1``
  and ``?key=dir/object`` (an object's key), cookies of words and settings (``lang=en``,
  ``Max-Age=3600``), "a fault identified by 'purify'" (a word after a lower-case
  ``identified by``);
* words listed or tabulated about credentials: ``("PASSWORD", "PLACING")`` (a list of
  keywords), ``| DB_PASSWORD | required |``, ``<string name="password">Passwort</string>``
  (a translation: values named by a table cell or a ``key``/``name`` attribute must have a
  digit, a symbol or mixed case), and short options of other commands (``mkdir -p``,
  ``mysql -p dbname``, which prompts).

The package is pure standard library, keeps no state between calls and never prints.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from typing import Any

from repomem.errors import ConfigError
from repomem.secrets._common import REDACTED, _mask, _splice
from repomem.secrets.assign import _assignment_spans
from repomem.secrets.files import SECRET_FILE_REASON, is_config_like, is_secret_file
from repomem.secrets.nonascii import _without_invisible
from repomem.secrets.notebooks import is_notebook, redact_notebook
from repomem.secrets.tokens import _DETECTORS, _Handler

__all__ = [
    "REDACTED",
    "SECRET_FILE_REASON",
    "contains_secret",
    "is_config_like",
    "is_secret_file",
    "redact",
    "redact_personal",
    "redact_value",
]


@functools.lru_cache(maxsize=32)
def _compile_extra(patterns: tuple[str, ...]) -> tuple[re.Pattern[str], ...]:
    compiled = []
    for pattern in patterns:
        try:
            compiled.append(re.compile(pattern))
        except re.error as exc:
            raise ConfigError(
                f"Invalid redaction pattern {pattern!r} ({exc.msg}); "
                "fix the regular expression or remove it from the extra patterns."
            ) from None
    return tuple(compiled)


def redact(
    text: str,
    *,
    config_like: bool = False,
    prose: bool = False,
    extra_patterns: Sequence[str] = (),
) -> tuple[str, int]:
    """Return text with every credential replaced by `[REDACTED]`, and how many were redacted.

    The line count is preserved exactly (``str.splitlines`` / ``count("\\n")`` identical)
    so line numbers stay valid.  ``config_like`` (see :func:`is_config_like`) makes bare
    values count in assignments (``PASSWORD=hunter2hunter``, ``token: abcdef123456``).
    ``prose`` (text a person wrote that may quote code: a task, a commit message) makes them
    count when they look machine-made or typed (a digit, a symbol, mixed case) and are not
    code (``api_key = os.environ[...]`` stays), as in a comment. ``extra_patterns`` are
    regular expressions whose whole match is redacted; an invalid
    one raises :class:`~repomem.errors.ConfigError`.
    """
    extra = _compile_extra(tuple(extra_patterns)) if extra_patterns else ()
    text, count = _redact_text(text, config_like, prose)
    if is_notebook(text):
        text, found = redact_notebook(text, lambda t, p: _redact_text(t, False, p))
        count += found
    for pattern in extra:
        text, found = _substitute(pattern, _extra_match, text)
        count += found
    return text, count


def _extra_match(m: re.Match[str]) -> str | None:
    found = m.group(0)
    return None if not found.strip() or found == REDACTED else _mask(found)


def _substitute(pattern: re.Pattern[str], handler: _Handler, text: str) -> tuple[str, int]:
    """``text`` with the matches of ``pattern`` replaced by ``handler`` (None keeps a match),
    and how many were replaced."""
    count = 0

    def replace(m: re.Match[str]) -> str:
        nonlocal count
        replacement = handler(m)
        if replacement is None:
            return m.group(0)
        count += 1
        return replacement

    return pattern.sub(replace, text), count


def _redact_text(text: str, config_like: bool, prose: bool) -> tuple[str, int]:
    """:func:`redact` without the notebook strings and the extra patterns."""
    found = _redact_read(text, config_like, prose)
    bare = _without_invisible(text)
    if bare is not None:  # pass\u200bword = "...": read without them, where that finds more
        found_bare = _redact_read(bare, config_like, prose)
        if found_bare[1] > found[1]:
            return found_bare
    return found


def _redact_read(text: str, config_like: bool, prose: bool) -> tuple[str, int]:
    """:func:`_redact_text` of the text as it is."""
    count = 0
    for gate, pattern, handler in _DETECTORS:
        if gate is not None and gate.search(text) is None:
            continue
        text, found = _substitute(pattern, handler, text)
        count += found

    spans = _assignment_spans(text, config_like, prose)
    if spans:
        count += len(spans)
        text = _splice(text, ((start, end, REDACTED) for start, end in spans))
    return text, count


def redact_value(
    value: Any, extra_patterns: Sequence[str] = (), *, config_like: bool = False
) -> Any:
    """`value` with every credential in its strings redacted, through dicts, lists and tuples
    (output built from hand-editable data: the memory file, notes). `config_like` as for
    :func:`redact` (the memory's prose is read so: `DB_PASSWORD=x` counts)."""
    if isinstance(value, str):
        return (
            redact(value, config_like=config_like, extra_patterns=extra_patterns)[0]
            if value
            else value
        )
    if isinstance(value, dict):
        return {
            k: redact_value(v, extra_patterns, config_like=config_like) for k, v in value.items()
        }
    if isinstance(value, (list, tuple)):
        return [redact_value(v, extra_patterns, config_like=config_like) for v in value]
    return value


# Personal data: kept out of the shared memory file and out of requests to the API.
_EMAIL = re.compile(
    r"(?<![\w.%+-])[A-Za-z0-9._%+-]{1,64}@(?=[A-Za-z0-9])[A-Za-z0-9.-]{1,253}\.[A-Za-z]{2,24}\b"
)
_PHONE = re.compile(r"(?<![\w+])\+\d[\d ()-]{8,}\d\b")


def redact_personal(text: str) -> tuple[str, int]:
    """``text`` with e-mail addresses and international phone numbers replaced by
    ``[EMAIL]`` / ``[PHONE]``, and how many were."""
    if "@" not in text and "+" not in text:
        return text, 0
    text, emails = _EMAIL.subn("[EMAIL]", text)
    text, phones = _PHONE.subn("[PHONE]", text)
    return text, emails + phones


def contains_secret(text: str) -> bool:
    """True when :func:`redact` would redact something in ``text`` (as code, no extras)."""
    return redact(text)[1] > 0
