"""Files that hold credentials by nature, and files read like configuration, by name.

:func:`is_secret_file` names files the indexer must not read at all (``.env``, private
keys, keystores, ``.netrc`` ...); they are recorded with :data:`SECRET_FILE_REASON` as the
reason for skipping.  :func:`is_config_like` names configuration files and prose, where
:func:`~repomem.secrets.redact` counts unquoted values (``PASSWORD=hunter2``).
"""

from __future__ import annotations

import re

SECRET_FILE_REASON = "secret"
"""Skip reason recorded for files that :func:`is_secret_file` rejects."""

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
