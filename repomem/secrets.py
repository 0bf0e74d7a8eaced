"""Keep credentials out of the index: skip secret files, redact secrets inside the rest.

Two layers protect the store:

* :func:`is_secret_file` names files that hold credentials by nature (``.env``, private keys,
  keystores, ``.netrc`` ...).  The indexer must not read them at all; it records them with
  :data:`SECRET_FILE_REASON` as the reason for skipping.
* :func:`redact` replaces credentials found inside every other file with ``[REDACTED]``
  before anything is chunked, embedded or stored.  Only the secret itself is replaced
  (``API_KEY = "[REDACTED]"``, ``postgres://app:[REDACTED]@db``) so the code still reads,
  and no line break is ever added or removed, so line numbers stay valid.

How :func:`redact` finds secrets, cheapest first
------------------------------------------------
``redact`` runs on every file of a repository, so a file without secrets must cost little.

There is no separate prefilter: every scan *is* its own prefilter.  CPython's ``re``
skips through text at close to ``str.find`` speed while looking for the literal a
pattern starts with, and only does real work where that literal occurs.  Alternations
(``a|b|c``) and case-insensitive patterns lose that fast path and run ten times slower,
so the module avoids them at the top level of every scan.

1. *Token detectors.*  Each well-known credential format (AWS key ids and a secret key
   passed beside one, GitHub, GitLab, Slack, Anthropic, OpenAI, Google, Stripe, Twilio,
   SendGrid, npm, PyPI, Hugging Face, Vault, Telegram and Discord tokens, Azure account
   keys and SAS signatures, JWTs, PEM private keys (four or five dashes, any case) also
   base64-encoded (over YAML block lines too), passwords in URLs (also holding an ``@``)
   and tokens given alone as a URL's user, Slack and Discord webhooks, Terraform
   variables' defaults (past nested blocks, also heredocs), Kubernetes ``name:``/``value:``
   environment entries) is a regular expression starting with a literal (``A``, ``S``,
   ``g``, ``x``, ``h``, ``//``, ``BEGIN`` ...); formats sharing a first letter share a
   scan, and boundary checks sit in a look-behind *after* the literal so they do not hide
   it from the engine.  Where a format starts with a common letter (``sk-``, ``eyJ``, ``npm_``), a
   cheap gate anchored on a rarer letter (``k``, ``J``, ``m_``) runs first.  Three more
   find credentials given to commands: one scan after the literal ``-`` reads
   ``--password=...``/``--token ...`` flags, the short password options of the commands
   that have one (``sshpass -p``, ``redis-cli -a``, ``docker login -p``, ``mysql -p...``,
   the command checked in Python, also on the lines a ``\\`` continues), ``htpasswd -b``,
   PowerShell's ``-Password`` and ``ConvertTo-SecureString "..."``; then ``curl -u
   user:...``.
2. *Assignments.*  ``password = "..."``, ``"api_key": "..."``, ``TOKEN=...`` and friends are
   found in a lower-cased copy of the text by four scans for the keywords
   ``pass``/``pwd``/``pw``, ``token``/``key`` (after api/access/private), ``secret`` and
   ``auth``, each with a look-ahead for an assignment operator (or one of the few spaced
   forms below), so ``pass`` statements and the like are dropped inside the regex engine.
   The few remaining hits are checked in Python: the keyword must stand as a word of the
   name, and an anchored regex reads the operator and value.  ``Authorization:`` headers
   ride on the ``auth`` hits, and so do secrets stated in a sentence ("the staging
   password is ...", "the password for staging: ...", "... was changed to ...", "connect
   with password ..."), environment variables set inside a command written in code
   (``"PGPASSWORD=... psql"``, ``# run with DB_PASSWORD=...``), values in a URL's query,
   a connection string or a ``key=value`` string (``?password=...&``, ``;Pwd={...};``,
   ``"host=db password=..."``), setters (``setDbPassword("...")``, ``withPassword``,
   ``builder.password("...")``, ``set_password("svc", "user", "...")``), names given with
   a value (``getenv("db_password", "...")``, ``define('DB_PASSWORD', '...')``,
   ``props.put("mail.smtp.password", "...")``), defaults of environment variables
   (``process.env.DB_PASSWORD || "..."``, ``os.environ.get("DB_PASSWORD") or "..."``,
   ``ENV.fetch("DB_PASSWORD") { "..." }``), XML elements (also with attributes, a
   namespace, CDATA, the value on the next line, or named by a ``key``/``name``
   attribute) and ``key="ApiKey" value="..."`` settings, SQL's ``WITH PASSWORD '...'``,
   Dockerfiles' ``ENV DB_PASSWORD ...``, Go's ``var dbPassword string = "..."``, values
   wrapped in parentheses, ``str(...)`` or triple quotes or continued after ``\\``,
   escaped quotes inside JSON (notebooks), YAML block scalars, tags, anchors and values on
   the next line, Markdown bold names and table rows, and comments in code read like
   config (``# old password: ...``, ``/* pw: ... */``).  The ``k`` scan also finds
   ``Cookie``/``Set-Cookie`` headers (generated values of their ``name=value`` pairs) and a
   URL's ``?key=...``; the ``auth`` hits also read Digest and AWS Signature V4 headers, and
   values concatenated after ``"Bearer "`` or ``"...&password="``.  Three more scans find
   words that introduce a credential in other shapes: SQL's ``IDENTIFIED BY '...'`` in any
   case, and the user and password given to a login or a connection, as arguments
   (``login("user", "...")``, ``NetworkCredential("user", "...")``, ``connect(host,
   "user", "...")``), as a pair assigned (``creds = ("admin", "...")``) or in a sentence
   ("log in with admin / ...", "creds: admin/...").
3. *Extra patterns* from the user's configuration, whole match redacted.

On the CPython 3.11 standard library with its site-packages (161 MB of ``.py`` files,
almost none with secrets) this runs at roughly 33 MB/s of CPU time on one core of this
machine (54 before session 15 added the command-line, sentence and vendor rules; 35-36
before session 16's shapes; 35 before session 17's word scans, which cost two scans net
after merging the Slack and ``h`` vendor scans).

Every detector is applied to the output of the previous one; a value already turned into
``[REDACTED]`` counts as a placeholder, so nothing is counted twice and ``redact`` is
idempotent.

What is deliberately *not* a secret
-----------------------------------
Redaction must not damage ordinary code, so an assignment only counts when its value is a
string literal of six or more characters without whitespace (in config files, also a bare
value or a quoted one with spaces).  Left alone are:

* expressions (``password = request.form["password"]``, ``token = get_token()``),
  annotations (``password: str``), comparisons (``==``), empty and short strings;
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

The module is pure standard library, keeps no state between calls and never prints.
"""

from __future__ import annotations

import base64
import functools
import re
from collections.abc import Callable, Sequence
from typing import Any
from urllib.parse import unquote

from repomem.errors import ConfigError

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

SECRET_FILE_REASON = "secret"
"""Skip reason recorded for files that :func:`is_secret_file` rejects."""

REDACTED = "[REDACTED]"
"""What every credential is replaced with."""

# ---------------------------------------------------------------------------------------
# Secret files
# ---------------------------------------------------------------------------------------

# Exact basenames (lower-cased) that hold credentials by nature.
_SECRET_NAMES = frozenset(
    {
        ".env",  # dotenv; .env.* and *.env are handled below
        ".netrc",  # machine/login/password lines for ftp, curl, git
        "_netrc",  # the Windows spelling of .netrc
        ".pgpass",  # PostgreSQL host:port:db:user:password lines
        ".git-credentials",  # git credential-store, URLs with passwords
        ".htpasswd",  # Apache password hashes
        "application_default_credentials.json",  # gcloud ADC refresh token, any location
        # Frameworks' dedicated secret stores (Rails config/secrets.yml, Kubernetes Secret
        # manifests, Streamlit .streamlit/secrets.toml).  Deliberately data formats only:
        # secrets.py is an ordinary module name (the stdlib has one).
        "secrets.yml",
        "secrets.yaml",
        "secrets.json",
        "secrets.toml",
    }
)

# Basename suffixes (lower-cased) of key material and credential stores.
_SECRET_SUFFIXES = (
    ".env",  # prod.env, docker.env: dotenv files under another name (conservative)
    ".pem",  # private keys; also certificates, which cannot be told apart by name
    ".key",  # private keys (server.key, Rails master.key)
    ".p12",  # PKCS#12 bundles
    ".pfx",  # PKCS#12 bundles, Windows name
    ".p8",  # PKCS#8 private keys (Apple push / App Store keys)
    ".ppk",  # PuTTY private keys
    ".jks",  # Java keystores
    ".keystore",  # Java / Android keystores
    ".kdbx",  # KeePass databases
    ".gpg",  # GnuPG keyrings and encrypted files: never useful as text
    ".tfstate",  # Terraform state stores every resource secret in plain text
    ".tfstate.backup",
)

# Private SSH key basenames; the matching ``.pub`` public keys are not secret.
_SSH_KEY_PREFIXES = ("id_rsa", "id_dsa", "id_ecdsa", "id_ed25519")

# Credential files that are only secret in their tool's directory: ``.aws/credentials``
# holds access keys, but a file named ``credentials`` elsewhere may be anything.
_AWS_DIRS = frozenset({".aws"})
_AWS_FILES = frozenset({"credentials"})
_GCLOUD_DIRS = frozenset({"gcloud", ".gcloud"})
_GCLOUD_FILES = frozenset(
    {"credentials", "credentials.json", "credentials.db", "access_tokens.db", "adc.json"}
)

_SERVICE_ACCOUNT = re.compile(r"service[-_]?account.*\.json\Z")


def _split_path(relpath: str) -> list[str]:
    return [part for part in relpath.replace("\\", "/").lower().split("/") if part]


def is_secret_file(relpath: str) -> bool:
    """True for files that hold credentials by nature and must never be read into the store.

    Matches on the basename, case-insensitively; directories only matter for cloud
    credential files (``.aws/credentials``, ``gcloud/credentials.json``).  ``relpath`` is a
    ``/``-separated path relative to the repository root (``\\`` is accepted too).

    ASCII-armoured ``*.asc`` files count only when their name says ``private`` or ``secret``:
    most are public keys or detached signatures, and a private key block inside any other
    file is redacted by :func:`redact` anyway.
    """
    parts = _split_path(relpath)
    if not parts:
        return False
    name = parts[-1]
    if name in _SECRET_NAMES or name.startswith(".env.") or name.endswith(_SECRET_SUFFIXES):
        return True
    if name.startswith(_SSH_KEY_PREFIXES):
        return not name.endswith(".pub")
    if name.endswith(".asc"):
        return "private" in name or "secret" in name
    if _SERVICE_ACCOUNT.search(name):
        return True
    dirs = set(parts[:-1])
    if name in _AWS_FILES and dirs & _AWS_DIRS:
        return True
    return name in _GCLOUD_FILES and bool(dirs & _GCLOUD_DIRS)


# Basename suffixes of files made of ``key = value`` / ``key: value`` lines.
_CONFIG_SUFFIXES = (
    ".env",
    ".sh",  # shell scripts: `export DB_PASSWORD=x` is a config line
    ".bash",
    ".zsh",
    ".ksh",
    ".ini",
    ".cfg",
    ".conf",
    ".cnf",  # my.cnf holds MySQL passwords
    ".properties",
    ".toml",
    ".yaml",
    ".yml",
    ".json",
    ".jsonc",
    ".json5",
    ".tfvars",
    ".dockerfile",
)
# Documentation, where deploy notes paste `DB_PASSWORD=...`.
_PROSE_SUFFIXES = (".md", ".markdown", ".rst", ".adoc", ".txt")
# Exact basenames of config files without a telling suffix.
_CONFIG_NAMES = frozenset(
    {
        ".env",
        ".envrc",  # direnv: export TOKEN=...
        ".flaskenv",
        ".npmrc",
        ".pypirc",
        ".yarnrc",
        ".netrc",
        "_netrc",
        ".pgpass",
        ".gitconfig",
        ".s3cfg",
        ".boto",
        ".dockercfg",
        "dockerfile",  # ENV API_KEY=...
        "containerfile",
        "makefile",  # DB_PASSWORD ?= ..., API_TOKEN := ...
        "gnumakefile",
        "kubeconfig",  # users: - user: token: ...
    }
)
# Other dot-files ending in "rc" (.curlrc, .babelrc ...) are key/value configuration too.
_RC_FILE = re.compile(r"\.[\w.-]*rc\Z")


def is_config_like(relpath: str) -> bool:
    """True for configuration files and prose, where unquoted values (``PASSWORD=hunter2``)
    count.

    Pass the result as ``config_like`` to :func:`redact`.  Covers dotenv files, ``.ini``,
    ``.cfg``, ``.conf``, ``.properties``, ``.toml``, YAML, JSON, ``.npmrc``, ``.pypirc`` and
    other ``rc`` dot-files, Dockerfiles, Makefiles (also ``*.mk``, ``makefile.inc``) and
    ``*.env`` files, and documentation (Markdown,
    reStructuredText, AsciiDoc, plain text), where deploy notes paste ``DB_PASSWORD=...``.
    """
    parts = _split_path(relpath)
    if not parts:
        return False
    name = parts[-1]
    return (
        name.endswith(_PROSE_SUFFIXES)
        or name in _CONFIG_NAMES
        or name.endswith(_CONFIG_SUFFIXES)
        or name.startswith((".env.", "dockerfile.", "containerfile.", "makefile."))
        or name.endswith(".mk")
        or (name == "config" and len(parts) > 1 and parts[-2] == ".kube")
        or _RC_FILE.match(name) is not None
    )


# ---------------------------------------------------------------------------------------
# Line-preserving masks
# ---------------------------------------------------------------------------------------

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


# ---------------------------------------------------------------------------------------
# Placeholders and values that are names, not secrets
# ---------------------------------------------------------------------------------------

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


def _is_placeholder(value: str) -> bool:
    """True when ``value`` is a mask, a template, a dummy word or an earlier redaction."""
    return (
        _is_mask(value) or value.lower() in _DUMMY_VALUES or _DUMMY_WORDS.match(value) is not None
    )


# Regular expressions (searched, bounded: `.*` before nested classes was cubic on "[a-b" * k).
_REGEX_LIKE = re.compile(r"\\[wdsbWDSB]|\(\?|\[\^|\[[^\]\[]{0,40}\w-\w[^\]\[]{0,40}\]")


def _is_name_value(value: str) -> bool:
    return _NAME_VALUE.match(value) is not None or _REGEX_LIKE.search(value) is not None


def _has_digit_and_letter(value: str) -> bool:
    return any(c.isdigit() for c in value) and any(c.isalpha() for c in value)


def _looks_generated(value: str) -> bool:
    """True for machine-made values: a digit, base64 punctuation or mixed case (a capital
    after the first letter: "Marker" is a word).

    Tokens and API keys are generated, so a lower-case word ("comment", "marker") assigned
    to a token or key name is a lexer token kind or a setting, not a credential.
    """
    return any(c.isdigit() or c in "+/=" for c in value) or (
        value[1:] != value[1:].lower() and value != value.upper()
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


# Code in documentation read as a config value: a call or subscript of a name.
_CODE_VALUE = re.compile(r"[A-Za-z_][\w.]*\s*[(\[{]")


# ---------------------------------------------------------------------------------------
# Token detectors
# ---------------------------------------------------------------------------------------
#
# Each detector is a full regex and an optional gate.  A full regex that starts with a
# literal character is its own fast scan: re jumps from one occurrence of that character
# to the next, and the boundary check sits in a look-behind *after* the literal so it does
# not hide the literal from the engine.  When the natural first character of a format is
# common ("s" of sk-..., "e" of eyJ...), a gate anchored on a rarer character of the
# prefix runs first and the full regex only runs when the gate finds something.

_Handler = Callable[[re.Match[str]], "str | None"]
"""Maps a match to its replacement, or ``None`` to keep the match (not a secret)."""

# PEM private key blocks (RSA, EC, DSA, OPENSSH, ENCRYPTED, PGP ... PRIVATE KEY [BLOCK]),
# found at their "BEGIN" (rarer than the "K" of KEY); hand-copied ones also with four dashes
# or "Private Key".  The header and footer stay; the body becomes one [REDACTED] line plus
# empty lines.  A BEGIN without END redacts to the end of the text.
_PEM = re.compile(
    r"(?P<begin>BEGIN(?<=----BEGIN) [A-Za-z0-9 ]{0,40}?(?i:PRIVATE KEY(?: BLOCK)?)-{4,5})"
    r"(?P<body>.*?)"
    r"(?P<end>-{4,5}END [A-Za-z0-9 ]{0,40}?(?i:PRIVATE KEY(?: BLOCK)?)-{4,5}|\Z)",
    re.DOTALL,
)
# Real key material: a long base64 run near the start of the body (after any
# Proc-Type/DEK-Info headers), also broken by single spaces or line breaks when pasted.  A
# body of "..." in documentation is not a key.
_PEM_MATERIAL = re.compile(r"(?=[A-Za-z0-9+/=]{16})(?:[A-Za-z0-9+/=]\s?){40}")


def _pem(m: re.Match[str]) -> str | None:
    body = m.group("body")
    if _PEM_MATERIAL.search(body, 0, 400) is None:
        return None
    return m.group("begin") + _mask(body) + m.group("end")


# Formats with an "A": AWS access key ids (AKIA long-term, ASIA temporary, then 16
# upper-case letters/digits, with a secret access key passed right after one), Google API
# keys (AIza + 35 characters) and PyPI API tokens (pypi- + a macaroon, which always starts
# with "AgE"; the harmless "pypi-" stays).
_A_TOKENS = re.compile(
    r"A(?:"
    r"(?<![A-Za-z0-9_]A)[KS]IA[A-Z0-9]{16}(?![A-Za-z0-9])"
    # the secret access key given right after it: Credentials("AKIA...", "<40>")
    r"""(?:(?P<between>["'`][ \t]*,[ \t]*["'`])(?P<aws_secret>[A-Za-z0-9/+]{40})(?![\w/+=]))?"""
    r"|(?<![A-Za-z0-9_]A)Iza[0-9A-Za-z_-]{35}(?![A-Za-z0-9_-])"
    r"|(?<=pypi-A)gE[A-Za-z0-9_-]{50,}"
    r")"
)

# Formats starting with "S": Twilio API key SIDs (SK + 32 hex) and SendGrid API keys
# (SG.<22>.<43>).
_S_TOKENS = re.compile(
    r"S(?<![A-Za-z0-9_]S)"
    r"(?:K[0-9a-fA-F]{32}|G\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43})"
    r"(?![A-Za-z0-9_-])"
)

# Formats starting with "g": GitHub classic tokens (ghp_ personal, gho_ OAuth, ghu_
# user-to-server, ghs_ server-to-server, ghr_ refresh), fine-grained github_pat_ tokens and
# GitLab tokens (glpat- personal, glptt- pipeline trigger, gldt- deploy, glrt- runner, ...).
_G_TOKENS = re.compile(
    r"g(?<![A-Za-z0-9_]g)"
    r"(?:h[pousr]_[A-Za-z0-9]{36,255}"
    r"|ithub_pat_[A-Za-z0-9_]{22,255}"
    r"|l(?:pat|ptt|dt|rt|soat|ft|imt|agent|cbt)-[A-Za-z0-9_-]{20,})"
    r"(?![A-Za-z0-9_-])"
)

# Anthropic (sk-ant-...), OpenAI (sk-..., sk-proj-..., sk-svcacct-..., at least 20
# characters of key material) and Stripe secret and restricted keys (sk_live_, rk_live_,
# sk_test_, rk_test_).  Key material must mix letters and digits, so kebab-case words
# such as "sk-learn-..." are not keys.  Gated on the "k".
_SK_GATE = re.compile(r"k(?:(?<=[^\w-][sr]k)|(?<=^[sr]k))(?:-|_(?:live|test)_)")
_SK_TOKENS = re.compile(
    r"(?<![\w-])"
    r"(?:sk(?P<openai>-[A-Za-z0-9_-]{20,})|[sr]k_(?:live|test)_(?P<stripe>[0-9A-Za-z]{16,}))"
    r"(?![\w-])"
)

# Slack tokens, one scan: xoxb- bot, xoxp- user, xoxa- app, xoxr- refresh, xoxs- session
# (group token), and app-level tokens xapp-1-A.../... (group material).
_SLACK = re.compile(
    r"x(?:ox(?<![A-Za-z0-9_]xox)[abprs]-(?P<token>[A-Za-z0-9-]{10,})"
    r"|app-(?<![A-Za-z0-9_]xapp-)(?P<material>\d-[A-Za-z0-9-]{20,}))"
)

# npm access tokens: npm_ + 36 letters/digits.  Gated on the "m_" ("n" is too common).
_NPM_GATE = re.compile(r"m_(?<=npm_)")
_NPM_TOKEN = re.compile(r"(?<![A-Za-z0-9_])npm_[A-Za-z0-9]{36}(?![A-Za-z0-9])")

# JSON Web Tokens: base64url header and payload (both JSON objects, so both start with
# "eyJ") and an optional signature.  Gated on the "J".
_JWT_GATE = re.compile(r"J(?<=eyJ)")
_JWT = re.compile(r"(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*")

# After "://": a password in a URL's userinfo (scheme://user:password@host keeps scheme,
# user and host; the password runs to the last "@" before the host, so `p@ss` is whole), a
# token given alone as the userinfo (https://<token>@github.com/...) or the secret path of
# a Slack or Discord incoming webhook
# (https://hooks.slack.com/services/T.../B.../..., discord.com/api/webhooks/<id>/...).
# Anchored on the "//", which is rarer in code than ":".
_URL = re.compile(
    r"//(?<=://)(?:"
    r"(?P<user>[^\s:/?#@'\"<>\[\]]*):(?P<password>[^\s/?#'\"<>]+)@"
    r"|(?P<token>[A-Za-z0-9_-]{20,200})@(?=[A-Za-z0-9])"
    r"|(?P<hook>hooks\.slack\.com/(?:services|workflows|triggers)/"
    r"|discord(?:app)?\.com/api/webhooks/\d+/)(?P<path>[A-Za-z0-9_/-]{8,})"
    r")"
)

# More vendors' formats, each after a literal prefix: Hugging Face (hf_), Stripe webhook
# signing secrets (whsec_), HashiCorp Vault (hvs./hvb./hvr.), Google OAuth access tokens
# (ya29.) and client secrets (GOCSPX-).  Key material must mix letters and digits.  The
# three with an "h" share one scan (whsec_ is found at its "h").
_H_TOKENS = re.compile(
    r"h(?:f_(?<![A-Za-z0-9_]hf_)(?P<material>[A-Za-z0-9]{30,40})(?![A-Za-z0-9])"
    r"|sec_(?<=whsec_)(?<![A-Za-z0-9_]whsec_)(?P<whsec>[A-Za-z0-9+/=]{24,})"
    r"|v[sbr]\.(?<![A-Za-z0-9_]hv.\.)(?P<vault>[A-Za-z0-9_-]{24,}))"
)
_GOOGLE_OAUTH = re.compile(r"ya29\.(?<![A-Za-z0-9_]ya29\.)(?P<material>[A-Za-z0-9_-]{20,})")
_GOOGLE_SECRET = re.compile(r"GOCSPX-(?<![A-Za-z0-9_]GOCSPX-)(?P<material>[A-Za-z0-9_-]{20,})")

# Telegram bot tokens: <bot id>:AA<about 33 characters>; the bot id stays.
_TELEGRAM = re.compile(r"AA(?<=\d:AA)(?P<material>[A-Za-z0-9_-]{30,40})(?![A-Za-z0-9_-])")

# Discord bot tokens: <base64 user id>.<6>.<27-38>, found by their middle part.
_DISCORD_GATE = re.compile(r"\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27}")
_DISCORD = re.compile(
    r"(?<![A-Za-z0-9_.-])[MNO][A-Za-z0-9_-]{23,27}\.[A-Za-z0-9_-]{6}\.(?P<material>[A-Za-z0-9_-]{27,38})"
    r"(?![A-Za-z0-9_.-])"
)

# Azure storage and Service Bus connection strings (AccountKey=..., SharedAccessKey=...)
# and shared access signatures in URLs (...&sig=...).
_AZURE_KEY = re.compile(
    r"Key=(?:(?<=AccountKey=)|(?<=SharedAccessKey=))(?P<material>[A-Za-z0-9+/]{20,}={0,2})"
)
# Anchored on "g=", rarer than the "s" of "sig=".
_SAS_SIG = re.compile(r"g=(?<=[?&]sig=)(?P<material>[A-Za-z0-9%+/=]{20,})")

# Kubernetes and Compose environment lists: `- name: DB_PASSWORD` then `value: ...`, on
# the next line or in a flow mapping (`- {name: DB_PASSWORD, value: ...}`).
_ENV_ENTRY = re.compile(
    r"name:(?<![\w-]name:)[ \t]*[\"']?(?P<name>[A-Za-z0-9_]{1,80})[\"']?[ \t]*"
    r"(?:\r?\n[ \t]*value:[ \t]*(?P<q>[\"']?)(?P<material>[^\"'\r\n#]{4,4096})(?P=q)"
    r"|,[ \t]*value:[ \t]*(?P<fq>[\"']?)(?P<flow>[^\"'\r\n#,}]{4,4096})(?P=fq))"
)
# A name that holds a credential (Terraform variables, environment entries).
_CREDENTIAL_NAME = re.compile(r"pass|pwd|secret|token|credential|(?:api|access|private)[_-]?key")


def _env_entry(m: re.Match[str]) -> str | None:
    group = "material" if m.group("material") is not None else "flow"
    material = m.group(group).strip()
    if (
        _CREDENTIAL_NAME.search(m.group("name").lower()) is None
        or _is_placeholder(material)
        or _is_name_value(material)
    ):
        return None
    return _redact_group(m, group, len(m.group(group).rstrip()))


# A PEM private key encoded once more in base64 (Kubernetes Secrets' tls.key, kubeconfig's
# client-key-data): "LS0tLS1CRUdJTi" is "-----BEGIN" in base64, "Ci0tLS0tQkVHSU4g" and
# "IC0tLS0tQkVHSU4g" the same after a line break or a space; all three share "0tLS", the
# gate's literal.  The value may go on over the lines of a YAML block scalar (a line break
# counts when the next line is base64 only).  Certificates are kept.
_PEM_BASE64_GATE = re.compile(r"0tLS")
_B64_LINE_BREAK = r"\r?\n[ \t]*(?=[A-Za-z0-9+/]{1,200}={0,2}[ \t]*(?:\r?\n|\Z))"
_PEM_BASE64 = re.compile(
    r"(?:LS0tLS1CRUdJTi|Ci0tLS0tQkVHSU4g|IC0tLS0tQkVHSU4g)"
    rf"(?:[A-Za-z0-9+/]|{_B64_LINE_BREAK}){{16,65536}}={{0,2}}"
)

# Terraform: variable "db_password" { ... default = "..." }, the value lines below the name,
# past nested blocks (validation { ... }) and braces in strings or comments; the default
# may be a heredoc (default = <<EOF ... EOF).
_TF_VARIABLE = re.compile(
    r'variable(?<![\w-]variable)[ \t]+"(?P<name>[^"\n]{1,64})"[ \t]*\{'
    r"(?:[^{}]|\{[^{}]{0,400}\}){0,400}?"
    r'(?<![\w-])default[ \t]*=[ \t]*(?:"(?P<material>[^"\n]{6,4096})"'
    r"|<<-?(?P<tag>[A-Za-z_]\w{0,20})\r?\n(?P<heredoc>.{1,4096}?)\r?\n[ \t]*(?P=tag)(?!\w))",
    re.DOTALL,
)


def _tf_variable(m: re.Match[str]) -> str | None:
    group = "material" if m.group("material") is not None else "heredoc"
    material = m.group(group)
    if _CREDENTIAL_NAME.search(m.group("name").lower()) is None or _is_placeholder(
        material.strip()
    ):
        return None
    start, end = m.start(group) - m.start(), m.end(group) - m.start()
    whole = m.group(0)
    return whole[:start] + _mask(material) + whole[end:]


def _material(m: re.Match[str]) -> str | None:
    """The match with its key material (its last group: ``material``, or the group of the
    format a shared scan found) redacted, unless the material is masked or does not mix
    letters and digits."""
    group = m.lastgroup or "material"
    material = m.group(group)
    if _is_mask(unquote(material)) or not _has_digit_and_letter(material):
        return None
    return _redact_group(m, group)


def _redact_group(m: re.Match[str], group: str, length: int | None = None) -> str:
    """The whole match with group `group` (its first `length` characters) redacted."""
    start = m.start(group) - m.start()
    end = m.end(group) - m.start() if length is None else start + length
    whole = m.group(0)
    return whole[:start] + REDACTED + whole[end:]


def _a_token(m: re.Match[str]) -> str | None:
    if _is_mask(m.group(0)):
        return None
    secret = m.group("aws_secret")
    if secret is None or _is_mask(secret):
        return REDACTED
    return REDACTED + m.group("between") + REDACTED


def _pem_base64(m: re.Match[str]) -> str | None:
    head = "".join(m.group(0)[:120].split())[:80]
    try:
        decoded = base64.b64decode(head[: len(head) // 4 * 4], validate=False)
    except ValueError:
        return None
    return _mask(m.group(0)) if b"PRIVATE KEY" in decoded else None


def _token(m: re.Match[str]) -> str | None:
    """The whole match is a credential, unless it is masked (xxxx, <key>)."""
    return None if _is_mask(m.group(0)) else REDACTED


def _mixed_token(m: re.Match[str]) -> str | None:
    """Like _token, but the key material must mix letters and digits."""
    material = m.group(m.lastindex or 0)
    if _is_mask(material) or not _has_digit_and_letter(material):
        return None
    return REDACTED


def _url(m: re.Match[str]) -> str | None:
    hook = m.group("hook")
    if hook is not None:
        return None if _is_mask(m.group("path")) else f"//{hook}{REDACTED}"
    token = m.group("token")
    if token is not None:  # generated: mixed case and digits, not a user name
        if _is_mask(token) or not (_has_digit_and_letter(token) and _looks_generated(token)):
            return None
        return f"//{REDACTED}@"
    if _is_placeholder(m.group("password")):
        return None
    return f"//{m.group('user')}:{REDACTED}@"


# Command lines: a password, token or key given to a command, in code, scripts and docs:
# --password=hunter2, --password 's3cr3t !', "--token", "ghx0123..." (an argv list),
# --db-password x, --api-key=..., --aws-secret-access-key ...  The flag's words are looked
# for after the literal "-", which also finds the short options of the commands that take a
# password (`sshpass -p`, `redis-cli -a`, `docker login -p`, `mysql -p...`: the command is
# checked in Python), `htpasswd -b file user ...`, PowerShell's `-Password ...` and
# `ConvertTo-SecureString "..." -AsPlainText`.  One scan for all of them: a scan per
# command would cost more than the branches tried at each "-".
_CMD_VALUE = r"""(?:(?P<q>["'])(?P<quoted>[^"'\n]{1,200})(?P=q)|(?P<bare>[^\s"'`]+))"""
_FLAG = re.compile(
    r"-(?:-(?<![\w-]--)(?P<pre>(?:[a-z]+-){0,2})"
    r"(?P<kw>password|passwd|pass-?phrase|pass|pwd|token|secret-access-key|secret"
    r"|api-?key|apikey|private-key|credentials?|key(?<=--key))"
    r"""(?:(?P<eq>=)|[ \t]+|(?P<argv>["'][ \t]*,[ \t]*))"""
    r"""|(?P<short>[pa])(?<=[\s"'\[(,]-[pa])[ \t]*"""
    r"|(?P<ps>P)(?<=\s-P)assword[ \t]+"
    r"|(?P<ps_secure>S)(?<=ConvertTo-S)ecureString[ \t]+(?:-String[ \t]+)?"
    r"|(?P<htpasswd>b)(?<=htpasswd -b)[A-Za-z]{0,3}[ \t]+[^\s-]\S*[ \t]+\S+[ \t]+"
    r")" + _CMD_VALUE
)
# The commands whose short option takes a password: (command, option letter, value attached
# only).  mysql -pSECRET, mysqldump -u root -p'SECRET' and ["mysql", "-uroot", "-p..."] take
# it attached: with a space after -p, mysql prompts and the next word is the database.
# "login" counts after a container tool (docker login -u me -p ...).
_SHORT_FLAG_COMMANDS = (
    ("sshpass", "p", False),
    ("login", "p", False),
    ("redis-cli", "a", False),
    ("mysql", "p", True),
    ("mariadb", "p", True),
)
_LOGIN_TOOL = re.compile(r"(?:docker|podman|buildah|skopeo|helm(?:[ \t]+registry)?)[ \t]+\Z")

# curl -u user:SECRET, curl --user=user:SECRET, "-u", "user:SECRET" (the user stays;
# -u 1000:1000 is kept below).
_CURL_USER = re.compile(
    r"""-(?<=[\s"'=]-)(?:u|-user)(?:=|["'][ \t]*,[ \t]*|[ \t]*)(?P<q>["']?)"""
    r"""(?P<user>[^\s:"'@/]+):(?P<bare>[^\s"'@]+)"""
)

# SQL: CREATE USER ... IDENTIFIED BY '...', GRANT ... IDENTIFIED BY [PASSWORD] '...', in
# any case; found by a scan of the lower-cased text (see _WORD_SCANS), read in the text.
# (`ALTER USER x WITH PASSWORD '...'` rides on the "pass" keyword, see _spaced_value).
_SQL_IDENTIFIED = re.compile(
    r"(?i:identified[ \t]+by[ \t]+(?:password[ \t]+)?)"
    r"(?P<q>['\"])(?P<quoted>[^'\"\n]{1,200})(?P=q)"
)
# Machine-made credentials: a word after a token or key flag must look generated.
_GENERATED_FLAGS = frozenset(
    {
        "token",
        "api-key",
        "apikey",
        "private-key",
        "secret-access-key",
        "credentials",
        "credential",
        "key",
    }
)


def _command_secret(m: re.Match[str]) -> str | None:
    """The match with its value redacted when the value is a secret: not a placeholder, a
    variable, a name, an option or a small number (``-u 1000:1000`` is uid:gid)."""
    groups = m.groupdict()
    group = "quoted" if groups.get("quoted") is not None else "bare"
    value = m.group(group)
    kept = value if group == "quoted" else value.rstrip(",;)")
    if (
        len(kept) < 4
        or kept[0] in "-$%{<("
        or _is_placeholder(kept)
        or _is_name_value(kept)
        or (kept.isdigit() and len(kept) < 8)
    ):
        return None
    kw = groups.get("kw")
    if groups.get("short") is not None and not _short_flag_takes_password(m):
        return None
    if kw is not None:  # a --flag
        pre = (groups.get("pre") or "").rstrip("-").rpartition("-")[2]
        if kw in _GENERATED_FLAGS and pre in _BOOKKEEPING_TOKENS:
            return None  # --next-token, --lock-token: paging and locking, not credentials
        if groups.get("argv") and group == "bare":
            return None  # "--password", pw: a variable
        if kw == "key" and (not groups.get("eq") or len(kept) < 16 or "." in kept):
            return None  # --key=2,3 (sort), --object-key x, --key dir/file.mp4: not a credential
        if kw == "key" and not _has_digit_and_letter(kept):
            return None
    if kw is not None or groups.get("ps") or groups.get("ps_secure"):
        generated = _looks_generated(kept) and not kept.isupper()
        if kw in _GENERATED_FLAGS and not generated:
            return None
        # A word after a space may be prose ("--password TEXT", "--token option"); after
        # "=" or in quotes it is the value.
        chosen = bool(groups.get("eq")) or group == "quoted"
        if not (chosen or generated):
            return None
    return _redact_group(m, group, len(kept))


def _short_flag_takes_password(m: re.Match[str]) -> bool:
    """True when the short option of ``m`` (``-p``, ``-a``) follows, on its line or the lines
    it continues (after "\\"), in any case, the last use of a command whose option of that
    letter takes a password (``sshpass -p``, ``redis-cli -a``, ``mysql -p...``).

    Found with ``str.rfind`` in a lower-cased window of 300 characters: a regex search for
    the commands at every "-p" in a long line cost more than the rest of the scan."""
    text, end = m.string, m.start()
    floor = max(0, end - 300)
    begin = text.rfind("\n", floor, end) + 1
    while begin > floor and text[max(floor, begin - 3) : begin - 1].rstrip("\r").endswith("\\"):
        begin = text.rfind("\n", floor, begin - 1) + 1  # the line before ends with "\"
    window = text[max(begin, floor) : end].lower()
    letter = m.group("short")
    attached = m.group(0)[2:3] not in " \t"
    for command, option, attached_only in _SHORT_FLAG_COMMANDS:
        if option != letter or (attached_only and not attached):
            continue
        i = window.rfind(command)
        if i < 0 or (i and (window[i - 1].isalnum() or window[i - 1] in "_-")):
            continue
        j = i + len(command)
        while attached_only and j < len(window) and (window[j].isalnum() or window[j] in "_-"):
            j += 1  # mysqldump, mysqladmin, mariadb-dump
        if j < len(window) and window[j] not in " \t\r\n\"',":
            continue
        if command == "login" and _LOGIN_TOOL.search(window, max(0, i - 40), i) is None:
            continue
        return True
    return False


# (gate, full regex, handler), applied in this order, each to the previous one's output.
# The full regex only runs when there is no gate or the gate matches somewhere.
_DETECTORS: tuple[tuple[re.Pattern[str] | None, re.Pattern[str], _Handler], ...] = (
    (None, _PEM, _pem),
    (None, _A_TOKENS, _a_token),
    (None, _S_TOKENS, _token),
    (None, _G_TOKENS, _token),
    (_SK_GATE, _SK_TOKENS, _mixed_token),
    (None, _SLACK, lambda m: _mixed_token(m) if m.group("token") else _material(m)),
    (None, _H_TOKENS, _material),
    (None, _GOOGLE_OAUTH, _material),
    (None, _GOOGLE_SECRET, _material),
    (None, _TELEGRAM, _material),
    (_DISCORD_GATE, _DISCORD, _material),
    (None, _AZURE_KEY, _material),
    (None, _SAS_SIG, _material),
    (_PEM_BASE64_GATE, _PEM_BASE64, _pem_base64),
    (None, _TF_VARIABLE, _tf_variable),
    (None, _ENV_ENTRY, _env_entry),
    (_NPM_GATE, _NPM_TOKEN, _token),
    (_JWT_GATE, _JWT, _token),
    (None, _URL, _url),
    (None, _FLAG, _command_secret),
    (None, _CURL_USER, _command_secret),
)

# ---------------------------------------------------------------------------------------
# Assignments: keyword scans, then the rest of the assignment matched at each hit
# ---------------------------------------------------------------------------------------

# Lower-cases ASCII only, so positions in the copy match positions in the original even
# when the text holds characters whose lower case is longer ("İ" -> "i̇").
_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")

# Keywords searched for in the lower-cased text.  "key" only counts after api / access /
# private (api_key, accessKey, private-key); "pass" also covers password, passwd and
# passphrase; "secret" covers client_secret; "auth" also finds Authorization headers.
#
# Four regexes find them, each starting with a literal character (a fast scan): "p" for
# pass/pwd/pw, "k" for token/key (token is recognised at its "k" by a look-behind), "secret"
# and "auth".  Each looks ahead for an assignment operator after the rest of the name, so
# the many keyword hits that are not assignments ("pass" statements, "key=" arguments)
# are dropped without Python-level work.
_PASS_SUFFIXES = ("word", "wd", "phrase", "code")
_KEY_PREFIXES = (
    *(prefix + sep for prefix in ("api", "access", "private") for sep in ("", "_", "-", " ")),
    "account",  # Azure's AccountKey
)
_THEN_OPERATOR = (
    r"(?=[\w.-]{0,64}(?:(?:\\?[\"'`]\]?|\]|\*\*|__)?[ \t]*(?:[:=?|+>–—]|->|value[ \t]*=)"
    r"|[\"'`][ \t]*,|[(>]"  # getenv("DB_PASSWORD", "..."), setPassword("..."), <password>
    r"|[\"'][ \t]*/?>"  # <add value="..." key="DbPassword" />
    r"|(?:[\"'`]\]?)?\)[ \t]*(?:[|?{]|or[ \t])"  # getenv("DB_PASSWORD") || "..."
    # PASSWORD '...' (SQL), ENV DB_PASSWORD ... (one word to the end of the line),
    # var pw string = ... (Go), <password encrypted="false">
    r"|[ \t]+(?:['\"`]|[^\s]{1,200}[ \t]*(?:\r?\n|\Z)|[a-z_][\w.:*\[\]]{0,40}[ \t]*=(?!=)))"
    # the password for x is ..., the password for staging: ...
    r"|[a-z]{0,6}(?:[ \t]+[\w.-]+){0,8}?(?:[ \t]+(?:is|was|being):?|:)[ \t\r\n]"
    r"|(?<=(?:use|ith|ing) pass)word[ \t])"  # connect with password ...
)
# "cookie" is found at its "k" too: Cookie and Set-Cookie headers (see _cookie_spans).
_KEYWORD_SCANS: tuple[re.Pattern[str], ...] = tuple(
    re.compile(pattern + _THEN_OPERATOR)
    for pattern in (
        "p(?:ass|wd?)",
        "k(?:(?<=tok)en|(?<=cook)ie|ey(?:"
        + "|".join(f"(?<={prefix}key)" for prefix in _KEY_PREFIXES)
        + "|(?<=[?&]key)(?==)))",  # ?key=...: a URL's API key
        "secret",
        "auth",
    )
)

# The rest of an assignment after the keyword: the rest of the name, an optional closing
# quote/bracket (dict keys, subscripts), an optional type annotation, the operator and the
# value.  "==" and "!=" are comparisons, not assignments.
_ASSIGNMENT_TAIL_SOURCE = r"""
    (?P<rest>[\w.-]{0,64})                      # _KEY, Hash, .value
    (?P<close>\\?["'`]\]?|\]|\*\*|__)?          # "password": ..., cfg["password"] = ...
    [ \t]*                                      # (**Password**: in Markdown, \"]: in JSON)
    (?P<op> :[ \t]*&?(?:'\w+[ \t]+)?["']?[A-Za-z_][\w.\[\],|<> \t]{0,80}?["']?[ \t]*=(?!=)
                                                # k: str = "...", k: "str" = "..."
      | :=  | =>  | \?=  | \+=  | =(?!=)  | :(?![:=])(?:\*\*|__)?   # **Password:** ...
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
    (?: [bBrRuUfF]{0,2}(?P<q>'{3}|"{3}|["'`])(?P<quoted>(?:\\.|(?!(?P=q))[^\\NL]){0,4096})(?P=q)
      | \\(?P<eq>["'])(?P<equoted>[^\\"'NL]{1,4096})\\(?P=eq)   # \"...\" inside JSON (notebooks)
      | \[\[(?P<lua>[^\]NL]{1,4096})\]\]           # Lua's [[...]]
      | [‘“](?P<curly>[^’”NL]{1,4096})[’”]          # typographic quotes (pasted from a document)
      | (?P<bare>[^\s"'`][^NL]{0,63})           # config values: see _secret_value
      | (?P<eol>(?=\r?\n)) )                    # password: then the value on the next line
    """.replace("NL", _NL)
_ASSIGNMENT_TAIL = re.compile(_ASSIGNMENT_TAIL_SOURCE, re.VERBOSE)
# In comments and prose a colon is not a type annotation ("password: x1, then a = 1").
_ANNOTATION = r""":[ \t]*&?(?:'\w+[ \t]+)?["']?[A-Za-z_][\w.\[\],|<> \t]{0,80}?["']?[ \t]*=(?!=)
                                                # k: str = "...", k: "str" = "..."
      |"""
assert _ANNOTATION in _ASSIGNMENT_TAIL_SOURCE
_PROSE_TAIL = re.compile(_ASSIGNMENT_TAIL_SOURCE.replace(_ANNOTATION, ""), re.VERBOSE)

# "Authorization: Bearer <token>" (also Basic, token, Bot schemes), after "authorization";
# a Digest header's response and an AWS Signature V4 header's signature.
_AUTH_HEADER_TAIL = re.compile(
    r"""["'`]?\]?[ \t]*[:=,][ \t]*[fF]?["'`]?[ \t]*(?:"""
    r"(?i:bearer|basic|token|bot)[ \t]+(?:[\"'`][ \t]*\+[ \t]*[\"'`])?"  # "Bearer " + "..."
    r"(?P<value>[A-Za-z0-9._~+/-]{8,}=*)"
    r"""|(?i:digest)[ \t][^\r\n]{0,400}?response=\\?["']?(?P<digest>[A-Za-z0-9+/=_-]{16,})"""
    r"|AWS4-HMAC-SHA256[ \t][^\r\n]{0,400}?Signature=(?P<signature>[0-9a-fA-F]{64}))"
)

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

# First words of a name that make it a setting about secrets when its value is a plain word:
# on_secret = "refuse" (repomem's own `.repomem`), redact_tokens = "always".
_SETTING_PREFIX = re.compile(r"(?<![\w-])(?:on|skip|redact|allow|detect|scan|use|check)[_-]\Z")

# Keywords whose values are machine-generated (see _looks_generated); passwords, pass
# phrases and secrets may be anything a person typed.
_GENERATED_KEYWORDS = frozenset({"token", "key", "auth"})

# Bare values that are YAML/TOML structure or references rather than scalars.
_BARE_NOT_VALUE = "{[&*!|>#"

# AWS secret access keys: 40 base64 characters, recognised unquoted even in code because
# they are written in ~/.aws/credentials style (aws_secret_access_key = ...).
_AWS_SECRET_NAME = re.compile(r"secret[_-]?access[_-]?key")
_AWS_SECRET_VALUE = re.compile(r"[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])")

# How far a bare config value is read (a longer line's value is its first word).
_CONFIG_VALUE_CHARS = 1024

# Inline comment in a bare config value: "token = abc123  # comment".
_INLINE_COMMENT = re.compile(r"[ \t]+#.*")
_LINE_END = re.compile(f"[{_NL}]")


def _keyword_end(text: str, lowered: str, keyword: str, start: int) -> int:
    """End of the keyword at ``start`` if it stands as a word of a name, else -1."""
    end = start + len(keyword)
    if keyword == "pass":
        for suffix in _PASS_SUFFIXES:
            if lowered.startswith(suffix, end):
                end += len(suffix)
                break
        else:  # bare "pass" ends the name: DB_PASS, dbPass; not bypass, pass_zero, PassArg
            if start and "a" <= text[start - 1] <= "z":
                return -1
            if end < len(text) and (text[end].isalnum() or text[end] in "_.-"):
                return -1
    elif (
        keyword in ("pwd", "pw", "auth")
        and start
        and "a" <= text[start - 1] <= "z"
        and not text.endswith("BasicAuth", 0, end)
    ):
        return -1  # oauth, getpwd, setpw; not HTTPBasicAuth(user, password)
    if end < len(text):
        nxt = text[end]
        # tokenizer, author, secretary; TOKENIZER, AUTHOR.  Camel case (authToken) is fine.
        if "a" <= nxt <= "z" or ("A" <= nxt <= "Z" and "A" <= text[end - 1] <= "Z"):
            return -1
    return end


def _line_before(text: str, start: int) -> tuple[str, str]:
    """The line before the name holding the keyword at ``start``, and the name's part before
    the keyword (``set`` of setPassword, ``DB_`` of DB_PASSWORD)."""
    i = start
    while i and (text[i - 1].isalnum() or text[i - 1] in "_.-"):
        i -= 1
    before = text[max(0, i - 200) : i]
    return before[max(before.rfind("\n"), before.rfind("\r")) + 1 :], text[i:start]


def _in_command(line: str) -> bool:
    """True when a name after ``line`` is a word of a command line written in code: after a
    quote (``"PGPASSWORD=x psql"``), a comment marker or another word (``export``, ``-e``),
    not at the start of a statement (``PASSWORD=hunter2`` assigns a variable) nor after
    ``(``/``,`` (a keyword argument)."""
    if not line or line[-1] not in " \t\"'`":
        return False
    head = line.rstrip(" \t")
    return bool(head.strip()) and head[-1] not in "(,"


_CLOSING_PAREN = re.compile(r"\s*\)")

# A comment line, or a comment after code: "# old password: x", "// token: x".
_COMMENT = re.compile(
    r"[ \t]*(?:#|//|/\*|\*|--|;|::|%|<!--|rem[ \t])|.*[ \t](?:#|//|/\*)[ \t]", re.I
)

# A value set in a shell command (PGPASSWORD=x psql): up to a space, quote or operator.
_SHELL_WORD = re.compile(r"[^\s\"'`;&|()<>\[\]{},\\]{6,}(?![\[({])")
# A value in a URL query or a connection string: up to the next separator.
# Read from the text, not the tail's 64-character `bare` group, so a long value is whole.
_QUERY_VALUE = re.compile(r"[^\s\"'`;&#<>]{1,1024}")
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


def _is_prose(value: str) -> bool:
    """True for a value that is words, not a secret: ":param password: The user password.",
    "token: see the vault entry". Three words or more (unless one is a long generated
    word), or two plain words."""
    words = value.split()
    if len(words) >= 3:
        return not any(len(w) >= 12 and _has_digit_and_letter(w) for w in words)
    return len(words) == 2 and all(w.strip(".,;:!?()\"'").isalpha() for w in words)


def _plain_secret(value: str, keyword: str = "") -> bool:
    """True when ``value``, found in one of the shapes read outside the assignment regex
    (a spaced value, a tuple, an XML value before its key, a YAML value on the next line),
    may be a secret: six characters or more, not a placeholder nor a name, and generated
    when ``keyword`` names a token or key (no keyword: any such value)."""
    if len(value) < 6 or _is_placeholder(value) or _is_name_value(value):
        return False
    return keyword not in _GENERATED_KEYWORDS or _looks_generated(value)


def _next_line_value(text: str, m: re.Match[str]) -> tuple[int, int] | None:
    """The span of a YAML value on the line after ``password:``: one plain word, indented
    deeper than the key (not ``type: string``, a list item or a comment)."""
    nxt = _NEXT_LINE.match(text, m.end())
    if nxt is None or _LONE_SCALAR.match(nxt.group(2).rstrip()) is None:
        return None
    line_start = max(text.rfind("\n", 0, m.start()), text.rfind("\r", 0, m.start())) + 1
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
    ``xml`` (``<password>x</password>``).
    """
    name_rest = m.group("rest")
    last = _LAST_WORD.search(name_rest)
    if last is not None and last.group(0).lower() in _NAME_SUFFIXES:
        return None
    if m.group("eol") is not None:
        return _next_line_value(text, m) if config_like and m.group("op") == ":" else None
    group = next(
        (g for g in ("quoted", "equoted", "lua", "curly") if m.group(g) is not None), "quoted"
    )
    quoted = m.group(group)
    if quoted is not None:
        value = quoted
        if config_like:
            value = value.strip()
            if len(value) < 6:
                return None
        elif len(value) < 6 or any(c.isspace() for c in value):
            return None
        start = m.start(group) + quoted.find(value)
    else:
        bare = m.group("bare")
        start = m.start("bare")
        aws = _AWS_SECRET_NAME.search(keyword_name + name_rest.lower())
        if aws is not None:
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
        elif context == "query":
            word = _QUERY_VALUE.match(text, start)  # none for an empty `?password=&a=1`
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
        elif (prop := _YAML_PROPERTY.match(bare)) is not None:
            start += prop.end()
            value = bare[prop.end() :].split(None, 1)[0]
            if len(value) < 6:
                return None
        elif _BLOCK_SCALAR.match(bare):
            # password: |  then the value on the next line
            nxt = _NEXT_LINE.match(text, m.start("bare") + len(bare.rstrip()))
            if nxt is None:
                return None
            value = nxt.group(2).rstrip()
            start = nxt.start(2)
            if len(value) < 6 or _is_prose(value):
                return None
        elif bare[0] in _BARE_NOT_VALUE:
            return None
        else:
            # A config value runs to the end of its line, read within a bounded window: a
            # minified file's megabyte-long line has a keyword every few bytes, and reading
            # to its end for each made redaction quadratic.
            window = text[start : start + _CONFIG_VALUE_CHARS]
            eol = _LINE_END.search(window)
            bare = window[: eol.start()] if eol is not None else window
            if eol is None and start + len(window) < len(text):
                bare = bare.split(None, 1)[0]  # a line longer than the window: its first word
            value = _INLINE_COMMENT.sub("", bare).rstrip().rstrip(",")
            if m.group("op") == ":" and _is_prose(value):
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
        not _looks_generated(value) or any(c.isspace() or c in "[]()|" for c in value)
    ):
        return None  # "input_token": "Marker" or "NextMarker || Contents[-1].Key"
    if quoted is not None and config_like and _is_sentence(value):
        return None  # "nextToken": "A generated value, used for paginating results."
    if context == "table" and not (_typed(value) or _looks_generated(value)):
        return None  # | password | required |: a table of settings, not of values
    if quoted is None and config_like and _CODE_VALUE.match(value):
        return None  # docs' code: password = request.form['password'], auth=HTTPAuth(...)
    return start, start + len(value)


# A value after a space: `ENV DB_PASSWORD ...` (Dockerfile), `db.password ...`
# (.properties), SQL's `WITH PASSWORD '...'`, "connect with password ..." (prose and
# docstrings).
_SPACED = re.compile(
    r"""(?P<rest>[\w.-]{0,64})[ \t]+(?P<q>['"`]?)(?P<value>[^\s'"`]{1,200})(?P=q)"""
)


def _spaced_value(
    text: str, lowered: str, start: int, end: int, line: str, config_like: bool
) -> tuple[int, int] | None:
    """The span of a secret given after the credential name and a space, in the four forms
    where that is a value: a Dockerfile's ``ENV NAME value``, a ``.properties`` line
    ``db.password value`` (a dotted name starting a config line, the value typed or
    generated), SQL's ``PASSWORD '...'`` (the keyword in capitals, or after
    ``WITH``/``LOGIN``) and "with/use password ..." in a sentence (a word with a digit or a
    symbol)."""
    m = _SPACED.match(text, end)
    if m is None:
        return None
    keyword, value, q = lowered[start:end], m.group("value"), m.group("q")
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
        if not before.endswith(("use ", "using ", "with ")):
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
    text: str, lowered: str, start: int, end: int, line: str, prefix: str
) -> tuple[int, int] | None:
    """The span of the value of ``<add value="..." key="DbPassword" />``, the name ending in
    the keyword at ``start:end`` and its closing quote."""
    m = _VALUE_BEFORE_KEY.search(line)
    if m is None or text[end : end + 1] != line[-1]:
        return None
    value = m.group("value")
    if not _plain_secret(value, lowered[start:end]):
        return None
    begin = start - len(prefix) - len(line) + m.start("value")
    return begin, begin + len(value)


# A secret stated in a sentence: "the staging password is Tr0ub4dor&3", "the API key for CI
# was 3f9a...", "the password for staging: ...", "the password was changed to ...": the
# credential word, up to eight words, "is"/"was"/"being" (maybe "changed to") or a colon,
# one word, also on the next line.
_STATED_TAIL = re.compile(
    r"s?(?:[ \t]+[\w.-]+){0,8}?(?:[ \t]+(?:is|was|being)(?:[ \t]+(?:changed|set|reset)[ \t]+to)?"
    r"|(?<=[\w.-]):):?(?:[ \t]+|[ \t]*\r?\n[ \t]*)(?:now[ \t]+|still[ \t]+)?"
    r"""(?P<q>[`"']?)(?P<value>[^\s`"']+)"""
)
# Words a person picks: "password is hunter2!"; the rest are machine-made.
_CHOSEN_WORDS = frozenset({"password", "passwd", "passphrase", "passcode", "pwd", "pw"})
_SYMBOLS = frozenset("!@#$%^&*~+=?/\\|")


def _typed(value: str) -> bool:
    """True for a word a person typed as a password: it has a digit or a symbol."""
    return any(c.isdigit() or c in _SYMBOLS for c in value)


def _stated_value(text: str, lowered: str, start: int, end: int) -> tuple[int, int] | None:
    """The span of a secret stated after the credential word at ``start:end``: a word with
    a digit or a symbol after a password (not "password is hashed", "is None", "is
    self.x"), a long word mixing letters and digits after a token, secret or key."""
    m = _STATED_TAIL.match(lowered, end)
    if m is None:
        return None
    begin = m.start("value")
    value = text[begin : m.end("value")]
    if not m.group("q"):
        value = value.rstrip(".,;:)*")  # the end of the sentence, **bold** text
    if (
        len(value) < 6
        or any(c in "()[]{}" for c in value)
        or _is_placeholder(value)
        or _is_name_value(value)
    ):
        return None
    if lowered[start:end] in _CHOSEN_WORDS:
        if not _typed(value):
            return None
    elif len(value) < 12 or not _has_digit_and_letter(value):
        return None
    return begin, begin + len(value)


# Tokens that page through results, lock or order requests: not credentials.
_BOOKKEEPING_TOKENS = (
    "next", "page", "pagination", "continuation", "idempotency", "client", "lock", "change",
    "sync", "cancel", "input", "output", "request", "csrf", "xsrf", "public",
)  # fmt: skip


def _not_a_credential_name(text: str, m: re.Match[str], start: int, end: int, prefix: str) -> bool:
    """True when the name at `start` holds the keyword without naming a credential: between
    colons (an AWS ARN's `:secret:`, a reST role `:token:`), the English word "pass" alone
    ("you can pass :option:"), a paging or idempotency token (`next_token`, `ClientToken`,
    `--lock-token`), a public key token."""
    i = start - len(prefix)
    if i and text[i - 1] == ":" and m.group("op") == ":" and m.start("op") == m.end("rest"):
        return True
    word = text[start:end]
    if word == "pass" and not prefix:
        # lower-case "pass" alone is often the English word ("you can pass :option:"); as a
        # key (`pass: Hk2Lm8`) its value has a digit or a symbol
        named = m.end("close") if m.group("close") else m.end("rest")
        if m.start("op") != named:  # "pass :option:", a space before the colon
            return True
        words = (m.group("quoted") or m.group("bare") or "").split(None, 1)
        return not (words and _typed(words[0]))
    head = prefix.lower().replace("-", "_").rstrip("_")
    return word.lower() in ("token", "key") and head.endswith(_BOOKKEEPING_TOKENS)


def _is_namespaced(text: str, start: int) -> bool:
    """True when the name holding the keyword at ``start`` follows "::".

    "AWS::SecretsManager::Secret": "c85175a4" maps a type name to a schema hash.
    """
    i = start
    while i and (text[i - 1].isalnum() or text[i - 1] in "_-"):
        i -= 1
    return text.startswith("::", i - 2) if i >= 2 else False


# How the name before a "(" makes a setter: setPassword, set_password, setDbPassword,
# withPassword, builder.password(...); and HTTPBasicAuth("user", "...").
_SETTER = re.compile(r"(?:[sS]et|[wW]ith)(?:[A-Z_]\w*)?|\w*Basic")
# Calls that take a name and its value: getenv("db_password", "..."),
# props.setProperty("password", "..."), conf.set("fs.s3a.secret.key", "...").
_KEY_VALUE_CALL = re.compile(
    r"\b(?:[sS]et\w*|put|add|getenv|get|env|fetch|getProperty|GetEnvironmentVariable)"
    r"\([ \t]*[\"'`]\Z"
)
# An XML element's name starts here (<password>, <jdbc:password>), or its key attribute's
# value (<entry key="password">, <string name="api_key">).
_XML_OPEN = re.compile(r"<(?:[\w.-]+:)?\Z")
_XML_KEY_ATTR = re.compile(r"<[\w:.-]+[ \t][^<>]{0,200}?\b(?:key|name)=[\"']\Z")
# The name is the first cell of a Markdown table row: | password | ... |
_TABLE_CELL = re.compile(r"\|[ \t]*[`*]{0,2}\Z")
# The name is a key inside a string: "password=...", "host=db user=app password=..." (libpq).
_IN_STRING = re.compile(r"[\"']\Z|[\"'](?:[\w.-]+=[^\s\"'=]*[ \t]+){1,8}\Z")


# The names before the credential name in a tuple assignment, from the start of its line
# (`user, password = ...`), and the value at the same place on the right: one regex for
# each count of names before.
_TUPLE_TARGETS = re.compile(r"[ \t]*(?:[A-Za-z_][\w.]{0,40}[ \t]*,[ \t]*){1,4}\Z")
_TUPLE_ITEM = r"""(?:[bBrRuUfF]{0,2}(["'])[^"'\n]{0,200}\1|[\w.]{1,64})[ \t]*,[ \t]*"""
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


# Words that introduce a credential in other shapes than an assignment, each found by a
# scan for its literal in the lower-cased text: SQL's IDENTIFIED BY '...', and the user and
# password given to a login or a connection, as arguments (`login("user", "...")`,
# `NetworkCredential("user", "...")`, `connect(host, "user", "...")`) or as a pair in a
# sentence ("log in with admin / ...", "creds: admin/...").
_WORD_SCANS = (
    re.compile(r"identified[ \t]+by[ \t]"),
    re.compile(r"log[ _-]?(?:in|on)(?![a-z])"),
    # one scan for the words with a "c": cred..., connect(, and Go's MySQL DSN
    # (user:password@tcp(host)), found at the "c" of "@tcp("
    re.compile(r"c(?:red(?:entials?|s)?(?![a-z])|onnect(?:ion)?[ \t]*\(|(?<=@tc)p\()"),
)
# The kind of word found, by its first two letters.
_WORD_KINDS = {"id": "identified", "lo": "login", "cr": "cred", "co": "connect", "cp": "dsn"}
# The user and password before "@tcp(" in a Go DSN, up to the string's opening quote.
_DSN_USERINFO = re.compile(r"""[^\s:"'`@/]{1,64}:(?P<value>[^\s"'`@]{1,200})@\Z""")
# The password's place among a call's arguments: login(user, password),
# connect(host, user, password).
_PASSWORD_ARGUMENT = {"login": 1, "cred": 1, "connect": 2}
_CALL_OPEN = re.compile(r"[ \t]*\(")
# A user and password assigned together: creds = ("admin", "..."), login = ["admin", "..."].
_PAIR_ASSIGNED = re.compile(r"\w{0,20}[ \t]*=[ \t]*[(\[]")
# A user and password after the word, maybe after "with", "as", "is" ...: "log in with
# admin / ...", "creds: admin/...", "# creds admin:...".
_PAIR = re.compile(
    r"[ \t]*:?[ \t]+(?:(?:with|as|using|via|is|are|was|were)[ \t]+){0,2}"
    r"[\w.@+-]{1,64}(?:[ \t]*/[ \t]*|:)"
    r"(?P<q>[`\"']?)(?P<value>[^\s/`\"']{6,200})(?P=q)(?![^\s.,;:)!?])"
)


def _given_password(value: str) -> bool:
    """True for a password given beside its user: a word typed like one (a digit or a symbol),
    not a placeholder, a name or a path (``login(request, "registration/login2.html")``)."""
    return _typed(value) and "/" not in value and _plain_secret(value)


def _word_spans(text: str, lowered: str, start: int, kind: str) -> list[tuple[int, int]]:
    """Spans of the secrets introduced by the word of ``kind`` (see _WORD_SCANS) at
    ``start``."""
    if kind == "dsn":
        head = text[max(0, start - 300) : start - 1]
        dsn = _DSN_USERINFO.search(head)
        if dsn is None or not _plain_secret(dsn.group("value")):
            return []
        begin = start - 1 - len(head) + dsn.start("value")
        return [(begin, begin + len(dsn.group("value")))]
    if kind == "identified":
        sql = _SQL_IDENTIFIED.match(text, start)
        if sql is None or _command_secret(sql) is None:
            return []
        value = sql.group("quoted")
        if not (text[start].isupper() or _typed(value) or _looks_generated(value)):
            return []  # "a fault identified by 'purify'": a word, in a sentence
        return [sql.span("quoted")]
    if start and "a" <= text[start - 1] <= "z" and "a" <= text[start] <= "z":
        return []  # blog in, dialog on, disconnect(, incredible: part of another word
    word = next(filter(None, (scan.match(lowered, start) for scan in _WORD_SCANS)))
    end = word.end() - (kind == "connect")  # the scan for connect( reads its parenthesis
    call = _CALL_OPEN.match(text, end)
    if call is None and kind != "connect":
        call = _PAIR_ASSIGNED.match(text, end)
    if call is not None:
        found = _TUPLE_VALUES[_PASSWORD_ARGUMENT[kind]].match(text, call.end())
        if found is None or not _given_password(found.group("value")):
            return []
        return [found.span("value")]
    pair = _PAIR.match(text, end) if kind != "connect" else None
    if pair is None:
        return []
    value = pair.group("value")
    if not pair.group("q"):
        value = value.rstrip(".,;:)!?")
    if not _given_password(value):
        return []
    return [(pair.start("value"), pair.start("value") + len(value))]


# A Cookie or Set-Cookie header's value (also the value of a `cookie` variable): name=value
# pairs, each value redacted when it looks generated (a session id, not `lang=en`).
_COOKIE_VALUE = r"""[^;\s"'`,\\]{1,4096}"""
_COOKIE_TAIL = re.compile(
    r"""["'`]?\]?[ \t]*[:=,][ \t]*[fF]?["'`]?[ \t]*"""
    rf"(?P<pairs>[\w.-]{{1,64}}={_COOKIE_VALUE}(?:;[ \t]*[\w.-]{{1,64}}={_COOKIE_VALUE}){{0,16}})"
)
_COOKIE_PAIR = re.compile(rf"[\w.-]{{1,64}}=(?P<value>{_COOKIE_VALUE})")


def _cookie_spans(text: str, start: int) -> list[tuple[int, int]]:
    """Spans of the generated values in the cookie header or variable named at ``start``."""
    if start and "a" <= text[start - 1] <= "z":
        return []
    header = _COOKIE_TAIL.match(text, start + 6)
    if header is None:
        return []
    return [
        pair.span("value")
        for pair in _COOKIE_PAIR.finditer(text, header.start("pairs"), header.end("pairs"))
        if len(pair.group("value")) >= 8
        and _has_digit_and_letter(pair.group("value"))
        and not _is_placeholder(pair.group("value"))
        and not _is_name_value(pair.group("value"))
    ]


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
    op, close = m.group("op"), m.group("close")
    start, end = span
    name = prefix + text[start:end] + m.group("rest")
    if op[0] == "(":  # setPassword("..."), set_password("..."): a setter, not a check
        setter = prefix.rpartition(".")[2]
        if m.group("quoted") is None:
            return None
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
        if op[0] == "," and not (env_style or _KEY_VALUE_CALL.search(line)):
            return None
        return ""
    if line.endswith(("?", "&")) or line.rstrip(" ").endswith(";"):  # "...; Password=x"
        return "query"
    if not config_like and text[start:end].isupper() and _in_command(line):
        return "shell"
    if not config_like and op == "=" and not close and _IN_STRING.search(line):
        return "query"  # "password=...", "host=db password=...": a connection string
    return ""


def _assignment_spans(text: str, config_like: bool, prose: bool = False) -> list[tuple[int, int]]:
    """Spans of secret values assigned to credential-named keys (or stated in a sentence:
    "the staging password is ..."), in text order."""
    lowered = text.lower()
    if len(lowered) != len(text):  # rare: "İ".lower() is two characters
        lowered = text.translate(_ASCII_LOWER)
    hits: list[tuple[int, str]] = []
    for pattern in _KEYWORD_SCANS:
        for hit in pattern.finditer(lowered):
            start = hit.start()
            keyword = hit.group()
            if keyword == "ken":
                start -= 2
                keyword = "token"
            elif keyword == "kie":
                start -= 3
                keyword = "cookie"
            hits.append((start, keyword))
    for pattern in _WORD_SCANS:
        hits.extend(
            (hit.start(), _WORD_KINDS[hit.group()[:2]]) for hit in pattern.finditer(lowered)
        )
    if not hits:
        return []
    hits.sort()
    spans: list[tuple[int, int]] = []
    done = 0  # hits before this offset lie inside an assignment already handled
    for start, keyword in hits:
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
        if keyword in _WORD_KINDS.values() or keyword == "cookie":
            found = (
                _cookie_spans(text, start)
                if keyword == "cookie"
                else _word_spans(text, lowered, start, keyword)
            )
            if found:
                spans.extend(found)
                done = found[-1][1]
            continue
        end = _keyword_end(text, lowered, keyword, start)
        if end < 0:
            continue
        line, prefix = _line_before(text, start)
        comment = not config_like and (prose or _COMMENT.match(line) is not None)
        m = (_PROSE_TAIL if comment else _ASSIGNMENT_TAIL).match(text, end)
        context = None
        if m is not None:
            context = _context(text, m, line, prefix, (start, end), config_like, comment)
        if m is None or context is None:
            span = _spaced_value(text, lowered, start, end, line, config_like)
            if span is None:
                span = _value_before_key(text, lowered, start, end, line, prefix)
            if span is None:
                span = _stated_value(text, lowered, start, end)
            if span is not None:
                spans.append(span)
                done = span[1]
            continue
        close = m.group("close")
        if comment and (keyword == "pass" and end - start == 4 or m.group("bare") is None):
            comment = False  # "# First pass: ...": only a bare password-like value
        if comment and not context:
            context = "comment"
        targets = _TUPLE_TARGETS.match(line) if m.group("op") == "=" and not close else None
        if targets is not None:  # user, password = "app", "..."
            span = _tuple_value(text, m, lowered[start:end], targets.group(0).count(","))
        else:
            span = _secret_value(text, m, lowered[start:end], config_like or comment, context)
        if span is None or _is_namespaced(text, start):
            continue
        value = text[span[0] : span[1]]
        if keyword == "key" and not prefix and any(c in "/." for c in value):
            continue  # ?key=dir/object.txt: an object's key in a URL, not an API key
        if context == "xml" and close and not (_typed(value) or _looks_generated(value)):
            continue  # <string name="password">Passwort</string>: a translation
        if m.group("op")[0] == "," and (
            (value.isalpha() and value.isupper()) or text.startswith(":", span[1] + 1)
        ):
            continue  # ("PASSWORD", "PLACING"), "PASS",\n "passed": a list or the next key
        if comment and (not _looks_generated(value) or any(c in "([{" for c in value)):
            continue  # "# token = self._get_param('Token')": code in a comment
        if m.group("wrapped") and not _CLOSING_PAREN.match(text, span[1] + 1):
            continue  # ("SHA-256", "SHA-512"): a tuple, not a value wrapped in parentheses
        if (
            value.isalpha()
            and value.islower()
            and _SETTING_PREFIX.search(lowered, max(0, start - 16), start)
        ):
            continue  # on_secret = "refuse": a setting about secrets, set to a word
        if _not_a_credential_name(text, m, start, end, prefix):
            continue
        spans.append(span)
        done = span[1]
    return spans


# ---------------------------------------------------------------------------------------
# Public API
# ---------------------------------------------------------------------------------------


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
    count = 0

    def apply(handler: _Handler) -> Callable[[re.Match[str]], str]:
        def replace(m: re.Match[str]) -> str:
            nonlocal count
            replacement = handler(m)
            if replacement is None:
                return m.group(0)
            count += 1
            return replacement

        return replace

    for gate, pattern, handler in _DETECTORS:
        if gate is not None and gate.search(text) is None:
            continue
        text = pattern.sub(apply(handler), text)

    spans = _assignment_spans(text, config_like, prose)
    if spans:
        count += len(spans)
        pieces: list[str] = []
        last = 0
        for start, end in spans:
            pieces.append(text[last:start])
            pieces.append(REDACTED)
            last = end
        pieces.append(text[last:])
        text = "".join(pieces)

    def extra_handler(m: re.Match[str]) -> str | None:
        found = m.group(0)
        return None if not found.strip() or found == REDACTED else _mask(found)

    for pattern in extra:
        text = pattern.sub(apply(extra_handler), text)
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
