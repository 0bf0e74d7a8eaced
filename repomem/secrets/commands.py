"""Credentials given to commands, logins and connections, and in headers and cookies.

Three token detectors (run by :func:`~repomem.secrets.redact` after those of
:mod:`.tokens`) find credentials given to commands: one scan after the literal ``-`` reads
``--password=...``/``--token ...`` flags, the short password options of the commands that
have one (``sshpass -p``, ``psexec -p``, ``redis-cli -a``, ``docker login -p``, ``mysql
-p...``, the command checked in Python, also on the lines a ``\\`` continues), PowerShell's
``-Password`` and ``ConvertTo-SecureString "..."``; then ``curl -u user:...``.

The assignment scans of :mod:`.assign` hand this module the rest: ``Authorization``
headers (Bearer, Basic, Digest, AWS Signature V4), ``Cookie``/``Set-Cookie`` headers
(generated values of their ``name=value`` pairs), and the words that introduce a
credential in other shapes than an assignment: SQL's ``IDENTIFIED BY '...'`` in any case,
and the user and password given to a login or a connection, as arguments
(``login("user", "...")``, ``NetworkCredential("user", "...")``, ``connect(host, "user",
"...")``, ``cx_Oracle.connect("user", "...", dsn)``, ``ssh.connect(host, 22, "user",
"...")``, ``new Sequelize(db, "user", "...")``, ``new mysqli(host, "user", "...")``, ``new
PDO(dsn, "user", "...")``, ``ftplib.FTP(host, "user", "...")``, ``redis.Redis(host, port,
db, "...")``), as a pair assigned (``creds = ("admin", "...")``) or in a sentence ("log in
with admin / ...", "creds: admin/..."), Go's MySQL DSN (``user:...@tcp(host)``) and
Oracle's logon (``sqlplus user/...@db``, ``CONNECT user/...@db``,
``jdbc:oracle:thin:user/...@host``, ``cx_Oracle.connect("user/...@dsn")``, the Data Pump
and export tools' ``expdp user/...@db``, ``exp user/...@db`` and ``exp userid=user/...@db``,
RMAN's ``rman target sys/...@db catalog rman/...@rcat``; without a database, ``sqlplus
user/... @run.sql`` and ``exp user/... file=x.dmp``, a typed password), a password echoed
into a command that reads it (``echo ... | docker login --password-stdin``, ``echo ... |
sudo -S``), Windows' ``net use \\\\server\\share ... /user:domain\\name ...`` and ``net
user name ... /add`` (any blanks between their words) and schtasks' ``/rp ...`` and ``/p
...``, and htpasswd's in batch mode (``htpasswd -Bb file user ...``, ``htpasswd -nb user
...``).  The "p" keyword scan of :mod:`.assign` finds the Data Pump and export tools, PDO,
FTP, schtasks, htpasswd and --password-stdin.
"""

from __future__ import annotations

import re

from repomem.secrets._common import (
    _BOOKKEEPING_TOKENS,
    _has_digit_and_letter,
    _is_name_value,
    _is_placeholder,
    _line_start,
    _looks_generated,
    _plain_secret,
    _redact_group,
    _typed,
)
from repomem.secrets.values import _TUPLE_VALUES

# Command lines: a password, token or key given to a command, in code, scripts and docs:
# --password=hunter2, --password 's3cr3t !', "--token", "ghx0123..." (an argv list),
# --db-password x, --api-key=..., --aws-secret-access-key ...  The flag's words are looked
# for after the literal "-", which also finds the short options of the commands that take a
# password (`sshpass -p`, `psexec -p`, `redis-cli -a`, `docker login -p`, `mysql -p...`:
# the command is checked in Python), PowerShell's `-Password ...` and
# `ConvertTo-SecureString "..." -AsPlainText` (htpasswd's -b: see _P_WORDS).  One scan for
# all of them: a scan per command would cost more than the branches tried at each "-".
_CMD_VALUE = r"""(?:(?P<q>["'])(?P<quoted>[^"'\n]{1,200})(?P=q)|(?P<bare>[^\s"'`]+))"""
_FLAG = re.compile(
    r"-(?:-(?<![\w-]--)(?P<pre>(?:[a-z]+-){0,2})"
    r"(?P<kw>password|passwd|pass-?phrase|pass|pwd|token|secret-access-key|secret"
    r"|api-?key|apikey|private-key|credentials?|key(?<=--key))"
    r"""(?:(?P<eq>=)|[ \t]+|(?P<argv>["'][ \t]*,[ \t]*))"""
    r"""|(?P<short>[pa])(?<=[\s"'\[(,]-[pa])[ \t]*"""
    r"|(?P<ps>P)(?<=\s-P)assword[ \t]+"
    r"|(?P<ps_secure>S)(?<=ConvertTo-S)ecureString[ \t]+(?:-String[ \t]+)?"
    r")" + _CMD_VALUE
)
# The commands whose short option takes a password: (command, option letter, value attached
# only).  mysql -pSECRET, mysqldump -u root -p'SECRET' and ["mysql", "-uroot", "-p..."] take
# it attached: with a space after -p, mysql prompts and the next word is the database.
# "login" counts after a container tool (docker login -u me -p ...).
_SHORT_FLAG_COMMANDS = (
    ("sshpass", "p", False),
    ("psexec", "p", False),  # Sysinternals' psexec \\host -u user -p ...
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
# any case; found by a scan of the lower-cased text (see _D_WORDS), read in the text.
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


def _command_value(value: str) -> bool:
    """True for a value given to a command that may be a secret: four characters or more,
    not an option, a variable, a placeholder, a name or a small number."""
    return not (
        len(value) < 4
        or value[0] in "-$%{<("
        or _is_placeholder(value)
        or _is_name_value(value)
        or (value.isdigit() and len(value) < 8)
    )


def _command_secret(m: re.Match[str]) -> str | None:
    """The match with its value redacted when the value is a secret: not a placeholder, a
    variable, a name, an option or a small number (``-u 1000:1000`` is uid:gid)."""
    groups = m.groupdict()
    group = "quoted" if groups.get("quoted") is not None else "bare"
    value = m.group(group)
    kept = value if group == "quoted" else value.rstrip(",;)")
    if not _command_value(kept):
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


# What follows a header's name up to its value: a closing quote or bracket, the separator
# (":" of a header, "=" or "," of a variable or a call), an opening quote.
_HEADER_SEPARATOR = r"""["'`]?\]?[ \t]*[:=,][ \t]*[fF]?["'`]?[ \t]*"""
# "Authorization: Bearer <token>" (also Basic, token, Bot schemes), after "authorization";
# a Digest header's response and an AWS Signature V4 header's signature.
_AUTH_HEADER_TAIL = re.compile(
    _HEADER_SEPARATOR + "(?:"
    r"(?i:bearer|basic|token|bot)[ \t]+(?:[\"'`][ \t]*\+[ \t]*[\"'`])?"  # "Bearer " + "..."
    r"(?P<value>[A-Za-z0-9._~+/-]{8,}=*)"
    r"""|(?i:digest)[ \t][^\r\n]{0,400}?response=\\?["']?(?P<digest>[A-Za-z0-9+/=_-]{16,})"""
    r"|AWS4-HMAC-SHA256[ \t][^\r\n]{0,400}?Signature=(?P<signature>[0-9a-fA-F]{64}))"
)

# Words that introduce a credential in other shapes than an assignment, each found by a
# scan for its literal in the lower-cased text: SQL's IDENTIFIED BY '...', and the user and
# password given to a login or a connection, as arguments (`login("user", "...")`,
# `NetworkCredential("user", "...")`, `connect(host, "user", "...")`) or as a pair in a
# sentence ("log in with admin / ...", "creds: admin/..."), and the calls and commands
# that take them (`new Sequelize(db, "user", "...")`, `sqlplus user/...@db`).  Each scan
# looks ahead for the shape read in Python (a string among a call's arguments, a pair), so
# a word repeated without one (a megabyte of "connect(") costs no Python-level work.
# The shapes (regex sources) are those :func:`_word_spans` reads: a string among a call's
# arguments after its "(", a user and password assigned together (_PAIR_ASSIGNED), the
# user before the password of a pair (_PAIR).
_ARGUMENTS_TO_STRING = r"""[^()\n"']{0,400}["']"""
_CALL_WITH_STRING = rf"[ \t]*\({_ARGUMENTS_TO_STRING}"
_PAIR_ASSIGNED_SOURCE = r"\w{0,20}[ \t]*=[ \t]*[(\[]"
_PAIR_HEAD = (
    r"[ \t]*:?[ \t]+(?:(?:with|as|using|via|is|are|was|were)[ \t]+){0,2}"
    r"[\w.@+-]{1,64}(?:[ \t]*/[ \t]*|:)"
)
# login("u", "..."), creds = (, log in with admin / ... (six characters of a password)
_GIVEN = rf"""(?={_CALL_WITH_STRING}|{_PAIR_ASSIGNED_SOURCE}|{_PAIR_HEAD}[`"']?[^\s/`"']{{6}})"""
# Oracle's logon: user/password@db, user/password AS SYSDBA (after sqlplus, sqlldr, the
# Data Pump and export tools, RMAN, SQL*Plus's CONNECT and in a JDBC thin URL): options,
# RMAN's database (target, catalog, auxiliary), maybe a quote (escaped in a shell's
# double quotes: expdp \"sys/...@db as sysdba\") and a tool's userid=, the user, the
# password (at PASSWORD).  Without a database the logon is followed by a script
# (sqlplus user/... @run.sql) or the tool's parameters (exp user/... file=x.dmp): there the
# password must be typed like one (see _word_spans).  Looked ahead for in the scans of the
# lower-cased text, read in the text by _ORACLE_LOGON.
_ORACLE_USER = r"[\w$#]{1,30}/"
_ORACLE_PASSWORD = r"""[^\s/@"']{1,128}"""
_ORACLE_SHAPE = (
    r"""(?:-\w+[ \t]+)*(?:(?:target|catalog|auxiliary)(?:[ \t]*=[ \t]*|[ \t]+))?"""
    r"""\\?["']?(?:userid=)?""" + _ORACLE_USER + r"PASSWORD(?=@|[ \t]+(?:as[ \t]+sys|@|[a-z_]+=))"
)
# After a logon without a database: a script or a parameter.
_ORACLE_NO_DATABASE = re.compile(r"[ \t]+(?:@|[a-z_]+=)", re.IGNORECASE)
_ORACLE_AHEAD = "(?=" + _ORACLE_SHAPE.replace("PASSWORD", _ORACLE_PASSWORD) + ")"
# Windows' net use and net user: net use [X:] \\\\server\\share [password] [/user:dom\\name]
# [password], net user name password [/add].  Their words are read up to the end of the
# line, a shell's operator or a quote (the command may be a string in code).  Found at the
# "u" of "use" (a "u" is rarer than an "n"; :mod:`.assign`'s scan for "auth" shares it),
# after "net" and a blank, or after two blanks or more ("net  use", checked in Python: a
# look-behind has one width), looking ahead for a word of six characters where the password
# goes (after the share, or the user's name, maybe after options), so a megabyte of "net use "
# costs no Python work.  The user's name does not start with "=", ":" or "(", so an indented
# `user = ...` is no hit.
_NET_WORD_CHARS = r"""[^\s"'`&|<>;]"""
# (options, prompts and variables, then a word: its first character and five more)
_NET_PASSWORD_AHEAD = (
    rf"(?:[ \t]+[/*%$!]{_NET_WORD_CHARS}*)*"
    rf"""[ \t]+[^\s"'`&|<>;/*%$!]{_NET_WORD_CHARS}{{5}}"""
)
_U_WORDS = (
    r"se(?:(?<=net[ \t]use)|(?<=[ \t]{2}use))(?:"
    rf"""r(?=[ \t]+[^\s"'`&|<>;/=:(]{_NET_WORD_CHARS}*{_NET_PASSWORD_AHEAD})"""  # the user's name
    rf"|(?=(?:[ \t]+{_NET_WORD_CHARS}+){{0,2}}?"  # a drive letter, options
    rf"[ \t]+\\\\{_NET_WORD_CHARS}*{_NET_PASSWORD_AHEAD}))"  # the share
)
# The words with a "c": cred..., connect(, and Go's MySQL DSN (user:password@tcp(host)),
# found at the "c" of "@tcp("; SQL*Plus's CONNECT user/...@db and JDBC's thin URL
# (jdbc:oracle:thin:user/...@host).  :mod:`.assign`'s scan for "secret" finds them.
_C_WORDS = (
    r"red(?:entials?|s)?(?![a-z])"
    + _GIVEN
    + rf"|onn(?:ect(?:ion)?(?={_CALL_WITH_STRING})[ \t]*\(|(?:ect)?[ \t]+{_ORACLE_AHEAD})"
    + rf"|p\((?<=@tcp\()|:oracle:thin:(?<=jdbc:oracle:thin:){_ORACLE_AHEAD}"
)
# Each scan starts at a letter rarer than its words' first (a scan's cost grows with how
# often its first character occurs) and each branch with a literal, which the engine
# rejects at once at the other occurrences of the scan's letter.  :mod:`.assign` compiles
# them, with the names in other languages that ride on their letters.
#
# The words with a "d": SQL's IDENTIFIED BY, redis-py's Redis( and StrictRedis(, and the
# Oracle tools' userid=user/...@db (exp, imp, expdp, sqlldr)
_D_WORDS = (
    r"entified(?<=identified)[ \t]+by[ \t]"
    rf"|is\((?<=redis\()(?={_ARGUMENTS_TO_STRING})"
    rf"|=(?<=userid=){_ORACLE_AHEAD}"
    # ... | sudo -S: read from the pipe (any blanks after it: the pipe checked in Python)
    r"|o[ \t](?:(?<=\|[ \t]sudo[ \t]|[ \t]{2}sudo[ \t])|(?<=\|sudo[ \t]))"
    r"[ \t]*(?=-s[ \t])"
)
# The words with a "g": log in, login, logon, and RMAN's rman target sys/...@db (found at
# "target" after a blank; rman before it, maybe after more blanks, checked in Python)
# (each branch starts with a literal: a look-behind first was tried at every "g")
_G_WORDS = rf"et(?<=[ \t]target)[ \t=]+(?:/[ \t]+)?{_ORACLE_AHEAD}" + "".join(
    f"|{login}(?![a-z]){_GIVEN}"
    for login in ("in(?<=login)", "on(?<=logon)", "[ _-](?:in|on)(?<=log[ _-]in|log[ _-]on)")
)
# And the words with a "q": new Sequelize(, new mysqli(, sqlplus, sqlldr
_Q_WORDS = (
    r"(?:uelize[ \t]*\((?<=sequelize\()|li[ \t]*\((?<=mysqli\())"
    rf"(?={_ARGUMENTS_TO_STRING})"
    rf"|lplus[ \t]+(?<=sqlplus[ \t]){_ORACLE_AHEAD}|lldr[ \t]+(?<=sqlldr[ \t]){_ORACLE_AHEAD}"
)
# The kind of word found, by its first two letters (see _word_kind), and where the word
# starts before its scan's literal: the "d" of identified, redis and userid=, the "g" of
# log... and of (rman) target, the "q" of sequelize, mysqli (sqlplus, sqlldr: see
# _word_kind), the "c" of jdbc, the "u" of net use (after one blank: see _net_password for
# more).
_WORDS = {
    "de": ("identified", 1),
    "di": ("redis", 2),
    "d=": ("oracle", 5),
    "do": ("piped", 2),
    "ge": ("rman", 3),
    "gi": ("login", 2),
    "go": ("login", 2),
    "g ": ("login", 2),
    "g_": ("login", 2),
    "g-": ("login", 2),
    "cr": ("cred", 0),
    "co": ("connect", 0),
    "cp": ("dsn", 0),
    "c:": ("oracle", 3),
    "us": ("net", 4),
    "qu": ("call", 2),
    "ql": ("call", 3),
}
# (and schtasks' and htpasswd's, found by the "p" scan: see _P_WORDS)
_WORD_KINDS = frozenset({*(kind for kind, _ in _WORDS.values()), "schtasks", "htpasswd"})


# Words found by the "p" keyword scan of :mod:`.assign`, so that they cost no scan of their
# own (each is looked ahead for like the words above): the Data Pump and export tools
# (expdp, impdp, exp, imp user/...@db), PHP's new PDO(dsn, user, "...") and ftplib's
# FTP(host, user, "...") and FTP_TLS(; htpasswd with its batch option (-b, in any cluster:
# -Bb, -nb, -cbB; the options read in Python); schtasks' /rp and /p (the passwords of the user a
# task runs as and of the user it connects as: the command checked in Python), looking ahead
# for a word of six characters with a digit or a symbol (not an option, a prompt or a
# variable) and taking its first character (a match that ends in a blank is the export
# tools'); and, tried before the keywords, --password-stdin (docker login's, a password
# piped in by echo).
_P_FIRST = r"assword-stdin(?<=-password-stdin)"
_SCHTASKS_AHEAD = (
    rf"""[ \t]*["']?(?=[^\s"'`&|<>;/*%$!]{_NET_WORD_CHARS}{{5}})"""
    rf"""(?={_NET_WORD_CHARS}{{0,199}}?[0-9!@#$%^*~+=?\\])."""
)
_P_WORDS = (
    rf"dp[ \t](?<=expdp[ \t]|impdp[ \t])[ \t]*{_ORACLE_AHEAD}"
    rf"|do\((?<=pdo\()(?={_ARGUMENTS_TO_STRING})"
    rf"|\((?<=ftp\()(?={_ARGUMENTS_TO_STRING})"
    rf"|_tls\((?<=ftp_tls\()(?={_ARGUMENTS_TO_STRING})"
    r"|asswd(?<=htpasswd)[ \t]+(?=(?:-[a-z]{1,8}(?:[ \t]+\d{1,2})?[ \t]+){0,4}-[a-z]{0,7}b)"
    # last: a blank after a "p" is common (help, step), a lost branch the cheapest there
    rf"|[ \t](?:(?<=exp[ \t]|imp[ \t])[ \t]*{_ORACLE_AHEAD}"
    rf"|(?<=/p[ \t]|rp[ \t])(?:(?<=\s/rp[ \t])|(?<=\s/p[ \t])){_SCHTASKS_AHEAD})"
)


def _p_word(word: str) -> tuple[str, int]:
    """The kind of a word of _P_WORDS the "p" scan found (its match from the "p"), and how far
    before the match the word starts."""
    if word.endswith("("):  # pdo( at its "p", ftp( and ftp_tls( at their last letter
        return "call", 0 if word.startswith("pdo") else 2
    if word == "password-stdin":
        return "piped", 0
    if word.startswith("passwd"):  # htpasswd at its "p"
        return "htpasswd", 2
    if word[-1] not in " \t":  # /rp ..., /p ...: their "p" (its "/" checked by the scan)
        return "schtasks", 0
    return "oracle", 2  # expdp, impdp at their first "p", exp and imp at theirs


def _word_kind(word: str) -> tuple[str, int]:
    """The kind of the word ``word`` the scan of its letter found (_D_WORDS, _G_WORDS,
    _Q_WORDS), and how far before the match the word starts."""
    head = word[:2]
    kind, back = _WORDS[head]
    if kind in ("connect", "call") and not word.endswith("("):
        kind = "oracle"  # CONNECT user/...@db, sqlplus user/...@db, sqlldr userid=...
        back = 1 if head == "ql" else back
    return kind, back


# The user and password before "@tcp(" in a Go DSN, up to the string's opening quote.
_DSN_USERINFO = re.compile(r"""[^\s:"'`@/]{1,64}:(?P<value>[^\s"'`@]{1,200})@\Z""")
# The password's place among a call's arguments: login(user, password),
# connect(host, user, password), new Sequelize(db, user, password, options),
# new mysqli(host, user, password, db).
_PASSWORD_ARGUMENT = {"login": 1, "cred": 1, "connect": 2, "call": 2, "redis": 3}
_CALL_OPEN = re.compile(r"[ \t]*\(")
# A user and password assigned together: creds = ("admin", "..."), login = ["admin", "..."].
_PAIR_ASSIGNED = re.compile(_PAIR_ASSIGNED_SOURCE)
# A user and password after the word, maybe after "with", "as", "is" ...: "log in with
# admin / ...", "creds: admin/...", "# creds admin:...".
_PAIR = re.compile(_PAIR_HEAD + r"(?P<q>[`\"']?)(?P<value>[^\s/`\"']{6,200})(?P=q)(?![^\s.,;:)!?])")
# Oracle's logon after sqlplus and the others, in the text (userid= and AS SYS in any case).
_ORACLE_LOGON = re.compile(
    _ORACLE_SHAPE.replace("PASSWORD", f"(?P<value>{_ORACLE_PASSWORD})"), re.IGNORECASE
)
# The first argument of a connect call as Oracle's logon: cx_Oracle.connect("user/...@dsn").
_ORACLE_ARGUMENT = re.compile(
    r"""[ \t]*[bBrRuUfF]{0,2}(?P<q>["'])"""
    + _ORACLE_USER
    + f"(?P<value>{_ORACLE_PASSWORD})"
    + r"""@[^\s"']{1,200}(?P=q)"""
)
# A password echoed into the command on its line: echo "..." | docker login --password-stdin,
# echo ... | sudo -S (read from the last "echo" before the line's last "|", up to the
# command; nothing chained between).
_PIPED_ECHO = re.compile(
    r"""echo[ \t]+(?:-[neE]{1,3}[ \t]+)?(?P<q>["']?)"""
    r"""(?P<value>[^\s"'|;&$`\\]{1,200})(?P=q)[ \t]*\|[^|;&\r\n]{0,200}\Z"""
)
# RMAN's next database after a logon: rman target sys/...@db catalog rman/...@rcat.
_RMAN_MORE = re.compile(r"@[^\s\\\"']{0,200}[ \t]+(?=(?:catalog|auxiliary)[ \t=])", re.IGNORECASE)
# The user before the password among a call's arguments is anonymous FTP's.
_ANONYMOUS = re.compile(r"""["'](?:anonymous|ftp)["'][ \t]*,[ \t]*[bBrRuUfF]{0,2}["']\Z""", re.I)
# The callee before "connect(": its module or object (cx_Oracle.connect, ssh.connect).
_CALLEE = re.compile(r"[\w.]{0,40}\Z")
# Python's Oracle drivers take (user, password, dsn); paramiko's SSHClient.connect takes
# (host, port, user, password): a port second moves the password to the fourth argument.
_ORACLE_DRIVERS = ("cx_oracle.", "oracledb.")
_PORT_SECOND = re.compile(
    r"""[ \t]*(?:["'][^"'\n]{1,200}["']|[\w.]{1,64})[ \t]*,[ \t]*\d{1,5}[ \t]*,"""
)


def _given_password(value: str) -> bool:
    """True for a password given beside its user: a word typed like one (a digit or a symbol),
    not a placeholder, a name or a path (``login(request, "registration/login2.html")``)."""
    return _typed(value) and "/" not in value and _plain_secret(value)


def _oracle_password(value: str) -> bool:
    """True for a password in Oracle's logon: not a variable (``$PASS``, SQL*Plus's
    ``&pass``), a placeholder or a name."""
    return value[0] not in "$&%{<" and _plain_secret(value)


_NET_USE = re.compile(r"net[ \t]+use(?P<user>r)?(?=[ \t])", re.IGNORECASE)
_NET_WORD = re.compile(rf"[ \t]+({_NET_WORD_CHARS}+)")


def _net_password(text: str, word_end: int) -> tuple[int, int] | None:
    """The span of the password given to net use (after the share) or net user (after the
    user's name), the scan's match of its "use" or "user" ending at ``word_end``: a word
    typed like one, not an option, ``*`` (a prompt) or a variable (``%PASSWORD%``,
    ``$password``)."""
    start = word_end - (4 if text[word_end - 1] in "rR" else 3)
    while start and text[start - 1] in " \t":
        start -= 1
    start -= 3  # "net", which _NET_USE checks
    if start < 0 or (start and (text[start - 1].isalnum() or text[start - 1] in "_.-")):
        return None  # .NET users, internet use
    command = _NET_USE.match(text, start)
    if command is None:
        return None
    net_user = command.group("user") is not None
    named = False  # the share (net use) or the user (net user) was given
    at = command.end()
    for _ in range(12):
        word = _NET_WORD.match(text, at)
        if word is None:
            return None
        at = word.end()
        value = word.group(1)
        if value.startswith(("/", "*", "%", "$", "!")) or value[1:] == ":":
            continue  # an option, a prompt, a variable, a drive letter
        if not named:
            named = net_user or value.startswith("\\\\")
            continue
        value = value.rstrip(",)")
        if not _given_password(value):
            return None
        return word.start(1), word.start(1) + len(value)
    return None


# A word of htpasswd's command line: an option or an argument, maybe quoted.
_HTPASSWD_WORD = re.compile(
    r"""[ \t]+(?:(?P<q>["'])(?P<quoted>[^"'\r\n]{1,200})(?P=q)|(?P<bare>[^\s"'`;&|<>()]{1,200}))"""
)


def _htpasswd_password(text: str, start: int, word_end: int) -> tuple[int, int] | None:
    """The span of the password given to htpasswd (at ``start``) in batch mode, its options
    read from ``word_end``: ``htpasswd -b[c][B] file user password``, ``htpasswd -nb user
    password`` (no file), in any cluster or order of its options."""
    if start and (text[start - 1].isalnum() or text[start - 1] in "_.-"):
        return None
    batch = no_file = False
    arguments: list[re.Match[str]] = []
    at = word_end - 1  # (the scan's match took the blanks after the command)
    skip = False  # the value of -C (bcrypt's cost) or -r (rounds) comes next
    for _ in range(12):
        word = _HTPASSWD_WORD.match(text, at)
        if word is None:
            break
        at = word.end()
        bare = word.group("bare")
        if skip:
            skip = False
        elif bare is not None and bare.startswith("-") and not arguments:
            batch = batch or "b" in bare
            no_file = no_file or "n" in bare
            skip = bare[-1] in "Cr"
        else:
            arguments.append(word)
            if len(arguments) == (2 if no_file else 3):
                break
    if not batch or len(arguments) != (2 if no_file else 3):
        return None
    password = arguments[-1]
    group = "quoted" if password.group("quoted") is not None else "bare"
    return password.span(group) if _command_value(password.group(group)) else None


# RMAN's command before its target: rman target, rman  target.
_RMAN = re.compile(r"(?<![\w.-])rman(?:\.exe)?[ \t]+\Z")
# schtasks, as a command, on the line of its /rp or /p (or the lines ^ continues into it).
_SCHTASKS = re.compile(r"(?<![\w.-])schtasks(?:\.exe)?[ \t\"']")
# The password after /rp or /p: a word, maybe quoted.
_SCHTASKS_PASSWORD = re.compile(
    r"""[ \t]+(?:(?P<q>["'])(?P<quoted>[^"'\r\n]{1,200})(?P=q)|(?P<bare>[^\s"'`&|<>;]{1,200}))"""
)


def _schtasks_password(text: str, lowered: str, start: int) -> tuple[int, int] | None:
    """The span of the password given to schtasks' /rp or /p, whose "p" is at ``start``: a
    word typed like one (not a prompt ``*`` or a variable), schtasks on its line."""
    floor = max(0, start - 400)
    begin = text.rfind("\n", floor, start) + 1
    while begin > floor and text[max(floor, begin - 3) : begin - 1].rstrip("\r").endswith("^"):
        begin = text.rfind("\n", floor, begin - 1) + 1  # the line before ends with "^"
    if _SCHTASKS.search(lowered, max(begin, floor), start) is None:
        return None
    word = _SCHTASKS_PASSWORD.match(text, start + 1)
    if word is None:
        return None
    group = "quoted" if word.group("quoted") is not None else "bare"
    value = word.group(group)
    if not _given_password(value):
        return None
    return word.span(group)


def _word_spans(
    text: str, lowered: str, start: int, kind: str, word_end: int
) -> list[tuple[int, int]]:
    """Spans of the secrets introduced by the word of ``kind`` (see _D_WORDS, _G_WORDS,
    _Q_WORDS, _C_WORDS and _U_WORDS) at ``start``, its scan's match ending at ``word_end``."""
    if kind == "net":
        net = _net_password(text, word_end)
        return [net] if net is not None else []
    if kind == "schtasks":
        schtasks = _schtasks_password(text, lowered, start)
        return [schtasks] if schtasks is not None else []
    if kind == "htpasswd":
        htpasswd = _htpasswd_password(text, start, word_end)
        return [htpasswd] if htpasswd is not None else []
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
    if kind == "piped":  # --password-stdin, sudo -S
        if text[start] == "s" and not text.startswith("-S", word_end):
            return []  # sudo -s: a shell
        line = _line_start(text, start, max(0, start - 400))
        bar = text.rfind("|", line, start)
        at = text.rfind("echo", line, bar) if bar > 0 else -1
        echo = _PIPED_ECHO.match(text, at, start) if at >= 0 else None
        if (
            echo is None
            or (at and text[at - 1] not in " \t;&(`\"'")
            or not _given_password(echo.group("value"))
        ):
            return []
        return [echo.span("value")]
    if kind == "rman":  # (rman) target ...
        if _RMAN.search(lowered, max(0, start - 40), start) is None:
            return []
        kind = "oracle"
    if kind == "oracle":
        spans = []
        logon = _ORACLE_LOGON.match(text, word_end)
        while logon is not None and _oracle_password(logon.group("value")):
            if _ORACLE_NO_DATABASE.match(text, logon.end()) and not _typed(logon.group("value")):
                break  # "sqlplus app/setup @x.sql": a word, not a password
            spans.append(logon.span("value"))
            more = _RMAN_MORE.match(text, logon.end())  # rman target ... catalog user/...@
            logon = None if more is None else _ORACLE_LOGON.match(text, more.end())
        return spans
    if kind in ("connect", "call", "redis"):
        arguments = word_end  # those scans read the call's "("
    else:
        call = _CALL_OPEN.match(text, word_end) or _PAIR_ASSIGNED.match(text, word_end)
        if call is None:  # a pair: "log in with admin / ...", "creds: admin/..."
            pair = _PAIR.match(text, word_end)
            if pair is None:
                return []
            value = pair.group("value")
            if not pair.group("q"):
                value = value.rstrip(".,;:)!?")
            if not _given_password(value):
                return []
            return [(pair.start("value"), pair.start("value") + len(value))]
        arguments = call.end()
    position = _PASSWORD_ARGUMENT[kind]
    if kind == "connect":
        oracle = _ORACLE_ARGUMENT.match(text, arguments)
        if oracle is not None:  # cx_Oracle.connect("user/...@dsn")
            value = oracle.group("value")
            return [oracle.span("value")] if _oracle_password(value) else []
        callee = _CALLEE.search(lowered, max(0, start - 40), start)
        if callee is not None and callee.group(0).endswith(_ORACLE_DRIVERS):
            position = 1  # cx_Oracle.connect("user", "...", dsn)
        elif _PORT_SECOND.match(text, arguments):
            position = 3  # ssh.connect("host", 22, "user", "...")
    found = _TUPLE_VALUES[position].match(text, arguments)
    if found is None or not _given_password(found.group("value")):
        return []
    if "@" in found.group("value") and _ANONYMOUS.search(text, arguments, found.start("value")):
        return []  # FTP(host, "anonymous", "guest@"): anonymous FTP's e-mail, not a secret
    return [found.span("value")]


# A Cookie or Set-Cookie header's value (also the value of a `cookie` variable): name=value
# pairs, each value redacted when it looks generated (a session id, not `lang=en`).
_COOKIE_VALUE = r"""[^;\s"'`,\\]{1,4096}"""
_COOKIE_TAIL = re.compile(
    _HEADER_SEPARATOR
    + rf"(?P<pairs>[\w.-]{{1,64}}={_COOKIE_VALUE}(?:;[ \t]*[\w.-]{{1,64}}={_COOKIE_VALUE}){{0,16}})"
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
