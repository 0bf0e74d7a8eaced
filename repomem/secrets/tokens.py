"""Token detectors: well-known credential formats, private keys and secrets in URLs.

Each well-known credential format (AWS key ids and a secret key passed beside one, GitHub,
GitLab, Slack, Anthropic, OpenAI, Google, Stripe, Twilio, SendGrid, npm, PyPI, Hugging
Face, Vault, Telegram and Discord tokens, Azure account keys and SAS signatures, presigned
URLs' signatures (AWS, Google, CloudFront), JWTs, PEM
private keys (four or five dashes, any case) also base64-encoded (over YAML block lines
too), passwords in URLs (also holding an ``@``) and tokens given alone as a URL's user,
Slack and Discord webhooks, Terraform variables' defaults (past nested blocks, also
heredocs), Kubernetes ``name:``/``value:`` environment entries) is a regular expression
starting with a literal (``A``, ``S``, ``g``, ``x``, ``h``, ``//``, ``BEGIN`` ...); formats
sharing a first letter share a scan, and boundary checks sit in a look-behind *after* the
literal so they do not hide it from the engine.  Where a format starts with a common letter
(``sk-``, ``eyJ``, ``npm_``), a cheap gate anchored on a rarer letter (``k``, ``J``,
``m_``) runs first.

:data:`_DETECTORS` lists them, with the command-line detectors of :mod:`.commands`, in the
order :func:`~repomem.secrets.redact` applies them.
"""

from __future__ import annotations

import base64
import re
from collections.abc import Callable
from urllib.parse import unquote

from repomem.secrets._common import (
    REDACTED,
    _has_digit_and_letter,
    _is_mask,
    _is_name_value,
    _is_placeholder,
    _looks_generated,
    _mask,
    _redact_group,
)
from repomem.secrets.commands import _CURL_USER, _FLAG, _command_secret

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
#
# Each branch starts with a literal (or a class) and looks behind after it: the engine
# rejects a branch at once where its first character is not there, and a look-behind first
# was tried at every "A" of a text (and at every "g" below).
_A_TOKENS = re.compile(
    r"A(?:"
    r"[KS]IA(?<![A-Za-z0-9_]A[KS]IA)[A-Z0-9]{16}(?![A-Za-z0-9])"
    # the secret access key given right after it: Credentials("AKIA...", "<40>")
    r"""(?:(?P<between>["'`][ \t]*,[ \t]*["'`])(?P<aws_secret>[A-Za-z0-9/+]{40})(?![\w/+=]))?"""
    r"|Iza(?<![A-Za-z0-9_]AIza)[0-9A-Za-z_-]{35}(?![A-Za-z0-9_-])"
    r"|gE(?<=pypi-AgE)[A-Za-z0-9_-]{50,}"
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
    r"g(?:h[pousr]_(?<![A-Za-z0-9_]gh[pousr]_)[A-Za-z0-9]{36,255}"
    r"|ithub_pat_(?<![A-Za-z0-9_]github_pat_)[A-Za-z0-9_]{22,255}"
    r"|l(?<![A-Za-z0-9_]gl)(?:pat|ptt|dt|rt|soat|ft|imt|agent|cbt)-[A-Za-z0-9_-]{20,})"
    r"(?![A-Za-z0-9_-])"
)

# Anthropic (sk-ant-...), OpenAI (sk-..., sk-proj-..., sk-svcacct-..., at least 20
# characters of key material) and Stripe secret and restricted keys (sk_live_, rk_live_,
# sk_test_, rk_test_).  Key material must mix letters and digits, so kebab-case words
# such as "sk-learn-..." are not keys.  Gated on the "k".
_SK_GATE = re.compile(  # (its look-behinds after the literals: tried at every "k" first)
    r"k(?:-(?:(?<=[^\w-][sr]k-)|(?<=^[sr]k-))"
    r"|_(?:live|test)_(?:(?<=[^\w-][sr]k_live_)|(?<=[^\w-][sr]k_test_)"
    r"|(?<=^[sr]k_live_)|(?<=^[sr]k_test_)))"
)
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

# Azure storage and Service Bus connection strings (AccountKey=..., SharedAccessKey=...),
# shared access signatures in URLs (...&sig=...) and the signatures of presigned URLs
# (AWS's X-Amz-Signature= and Signature=, Google's X-Goog-Signature=, CloudFront's).
_AZURE_KEY = re.compile(
    r"Key=(?:(?<=AccountKey=)|(?<=SharedAccessKey=))(?P<material>[A-Za-z0-9+/]{20,}={0,2})"
)
# Anchored on "g=", rarer than the "s" of "sig="; the signatures on "ignature=" (one scan
# costs less than a merged one on "=").
_SAS_SIG = re.compile(r"g=(?<=[?&]sig=)(?P<material>[A-Za-z0-9%+/=]{20,})")
_URL_SIGNATURE = re.compile(
    r"ignature=(?:(?<=[?&][sS]ignature=)|(?<=-Amz-Signature=)|(?<=Goog-Signature=))"
    r"(?P<material>[A-Za-z0-9%+/=~_-]{16,})"
)

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
    return _redact_group(m, group, replacement=_mask(material))  # a heredoc keeps its lines


def _material(m: re.Match[str]) -> str | None:
    """The match with its key material (its last group: ``material``, or the group of the
    format a shared scan found) redacted, unless the material is masked or does not mix
    letters and digits."""
    group = m.lastgroup or "material"
    material = m.group(group)
    if _is_mask(unquote(material)) or not _has_digit_and_letter(material):
        return None
    return _redact_group(m, group)


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
    (None, _URL_SIGNATURE, _material),
    (_PEM_BASE64_GATE, _PEM_BASE64, _pem_base64),
    (None, _TF_VARIABLE, _tf_variable),
    (None, _ENV_ENTRY, _env_entry),
    (_NPM_GATE, _NPM_TOKEN, _token),
    (_JWT_GATE, _JWT, _token),
    (None, _URL, _url),
    (None, _FLAG, _command_secret),
    (None, _CURL_USER, _command_secret),
)
