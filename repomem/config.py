"""Find the repository root and load configuration.

Precedence, lowest first: built-in defaults < the `.repomem` TOML file at the repository root <
`REPOMEM_<SECTION>_<KEY>` environment variables < explicit overrides (CLI flags). Unknown keys and
wrong types are errors that name the key and where it came from.
"""

from __future__ import annotations

import dataclasses
import json
import math
import os
import re
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, get_type_hints

from repomem.errors import BudgetError, ConfigError, NotARepoError

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on 3.10 only
    import tomli as tomllib

CONFIG_NAME = ".repomem"
# The smallest token budget a pack is built within (its header and a little code), checked
# where a budget enters: these keys (file and environment), `pack --budget`, MCP `max_tokens`.
MIN_BUDGET = 200
BUDGET_KEYS = ("pack.budget", "server.pack_budget", "server.max_pack_tokens")
ENV_PREFIX = "REPOMEM_"
# Environment variables with a meaning of their own, not config keys.
ENV_RESERVED = frozenset({"REPOMEM_HOME", "REPOMEM_CONFIG"})

DEFAULT_VENDOR_DIRS = [
    "node_modules",
    "bower_components",
    "jspm_packages",
    "vendor",
    "third_party",
    "third-party",
    "thirdparty",
    "external",
    "site-packages",
    ".venv",
    "venv",
    "__pycache__",
    "Pods",
    "Carthage",
    ".bundle",
    ".tox",
    ".nox",
    ".eggs",
    ".mypy_cache",
    ".pytest_cache",
    ".ruff_cache",
    ".gradle",
    ".idea",
    ".vscode",
    ".next",
    ".nuxt",
    ".svelte-kit",
]


@dataclass
class IndexSection:
    """`[index]`: what gets indexed and how."""

    max_file_size: int = 1_048_576
    max_line_length: int = 4000
    max_mean_line_length: int = 300
    skip_generated: bool = True
    vendor_dirs: list[str] = field(default_factory=lambda: list(DEFAULT_VENDOR_DIRS))
    exclude: list[str] = field(default_factory=list)
    include_untracked: bool = True
    submodules: bool = True
    index_text_files: bool = True
    workers: int = 0
    follow_symlinks: bool = True
    lock_timeout: float = 120.0
    commit_history: int = 20000


@dataclass
class StoreSection:
    """`[store]`: where the index lives."""

    path: str = ""
    optimize_every: int = 20


@dataclass
class SecretsSection:
    """`[secrets]`: what counts as a credential."""

    extra_patterns: list[str] = field(default_factory=list)
    skip_files: list[str] = field(default_factory=list)


@dataclass
class PackSection:
    """`[pack]`: context packs."""

    budget: int = 8000
    token_margin: float = 1.1
    refresh: bool = True
    format: str = "md"
    map_share: float = 0.15
    memory_share: float = 0.2
    llm_rerank: bool = False  # the model re-orders the top 30 files (needs an API key)
    llm_rerank_daily_usd: float = 0.5  # estimated spend per UTC day, all processes together


@dataclass
class MemorySection:
    """`[memory]`: the project memory file and sessions."""

    file: str = "REPOMEM.md"
    keep_sessions: int = 5
    compact_after_bytes: int = 24_000
    on_secret: str = "refuse"
    duplicate_similarity: float = 0.85


@dataclass
class LLMSection:
    """`[llm]`: the optional Anthropic API (notes and summaries)."""

    model: str = "claude-haiku-4-5"
    base_url: str = ""
    enabled: bool = True
    timeout: float = 60.0
    max_retries: int = 4
    retry_max_wait: float = 60.0
    max_output_tokens: int = 300
    max_input_tokens: int = 6000
    max_files_per_run: int = 200
    max_cost_usd: float = 1.0
    batch_threshold: int = 100
    batch_wait: float = 600.0
    exclude: list[str] = field(default_factory=list)


@dataclass
class WatchSection:
    """`[watch]`: the file watcher."""

    debounce_ms: int = 100


@dataclass
class ServerSection:
    """`[server]`: the MCP server (`repomem serve`)."""

    pack_budget: int = 8000
    max_pack_tokens: int = 20000
    host: str = "127.0.0.1"
    port: int = 8765
    read_only: bool = False


@dataclass
class EmbedSection:
    """`[embed]`: optional dense embeddings of files (needs `pip install 'repomem[embed]'`)."""

    enabled: bool = False
    threads: int = 1
    max_tokens: int = 256
    batch_size: int = 16


SECTIONS: dict[str, type[Any]] = {
    "index": IndexSection,
    "store": StoreSection,
    "secrets": SecretsSection,
    "pack": PackSection,
    "memory": MemorySection,
    "llm": LLMSection,
    "watch": WatchSection,
    "server": ServerSection,
    "embed": EmbedSection,
}


@dataclass
class Config:
    """Resolved configuration for one repository."""

    root: Path
    file: Path | None = None
    index: IndexSection = field(default_factory=IndexSection)
    store: StoreSection = field(default_factory=StoreSection)
    secrets: SecretsSection = field(default_factory=SecretsSection)
    pack: PackSection = field(default_factory=PackSection)
    memory: MemorySection = field(default_factory=MemorySection)
    llm: LLMSection = field(default_factory=LLMSection)
    watch: WatchSection = field(default_factory=WatchSection)
    server: ServerSection = field(default_factory=ServerSection)
    embed: EmbedSection = field(default_factory=EmbedSection)
    overrides: dict[str, Any] = field(default_factory=dict)  # given to `load`, kept to reload

    def section(self, name: str) -> Any:
        return getattr(self, name)

    def reload(self) -> Config:
        """The configuration read again from its file and environment, with the same overrides
        (a long-lived process after `.repomem` changed).

        Raises:
            ConfigError: as `load`.
        """
        return load(self.root, overrides=self.overrides)


def _is_git_dir(path: Path) -> bool:
    """True for a git directory itself (a bare repository, a `.git` folder): HEAD, objects
    and refs, not a work tree."""
    return (path / "HEAD").is_file() and (path / "objects").is_dir() and (path / "refs").is_dir()


def find_root(start: Path | str | None = None) -> Path:
    """The repository root for `start`: the nearest ancestor holding `.repomem` or `.git`.

    A folder with neither above it is its own root (git features are then off), unless it is
    the file system's root or the home folder.

    Raises:
        NotARepoError: if `start` does not exist or is not a directory, or is `/` or the home
            folder without a repository above it.
    """
    begin = Path(start) if start is not None else Path.cwd()
    try:
        begin = begin.expanduser().resolve(strict=True)
    except (OSError, RuntimeError) as exc:
        raise NotARepoError(f"`{start}` does not exist; pass an existing directory.") from exc
    if not begin.is_dir():
        raise NotARepoError(f"`{begin}` is not a directory; pass the repository's directory.")
    for candidate in (begin, *begin.parents):
        if (candidate / CONFIG_NAME).is_file() or (candidate / ".git").exists():
            return candidate
        if candidate.name != ".git" and _is_git_dir(candidate):
            raise NotARepoError(
                f"`{begin}` is inside a bare git repository or a git directory (`{candidate}`), "
                f"which has no work tree; run repomem in a clone or a worktree."
            )
    if begin == Path(begin.anchor) or begin == Path.home().resolve():
        # walked as a plain folder, it would index the whole disk or home folder
        raise NotARepoError(
            f"`{begin}` is not a project folder (no git repository, no `{CONFIG_NAME}`); run "
            f"repomem in a repository, or create `{CONFIG_NAME}` in a folder to index it."
        )
    return begin


def load(
    start: Path | str | None = None,
    overrides: Mapping[str, Any] | None = None,
    environ: Mapping[str, str] | None = None,
) -> Config:
    """Load the configuration for the repository containing `start`.

    `overrides` maps dotted keys (`"index.max_file_size"`) to values, as CLI flags give them.

    Raises:
        NotARepoError: if `start` is not a directory.
        ConfigError: on an unreadable file, unknown key or wrong type.
    """
    root = find_root(start)
    env = os.environ if environ is None else environ
    cfg = Config(root=root, overrides=dict(overrides or {}))
    path = Path(env["REPOMEM_CONFIG"]) if env.get("REPOMEM_CONFIG") else root / CONFIG_NAME
    if path.is_file():
        cfg.file = path
        _apply_file(cfg, path)
    elif env.get("REPOMEM_CONFIG"):
        raise ConfigError(
            f"REPOMEM_CONFIG points to `{path}`, which is not a file; fix or unset it."
        )
    home = env.get("REPOMEM_HOME")
    if home and not Path(home).expanduser().is_absolute():
        # the store and caches would land in whatever folder a command runs from
        raise ConfigError(
            f"REPOMEM_HOME is `{home}`, a relative path; give an absolute one, or unset it."
        )
    _apply_env(cfg, env)
    for dotted, value in (overrides or {}).items():
        section, _, key = dotted.partition(".")
        _set(cfg, section, key, value, source="command-line option", name=dotted)
    return cfg


def _apply_file(cfg: Config, path: Path) -> None:
    try:
        # a byte-order mark (Windows editors write one) is not TOML, but not a mistake either
        data = tomllib.loads(path.read_text(encoding="utf-8").removeprefix("\ufeff"))
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"`{path}` is not valid TOML ({exc}); fix the file.") from exc
    except UnicodeDecodeError as exc:
        raise ConfigError(
            f"`{path}` is not UTF-8 text (byte {exc.start}: {exc.reason}); save it as UTF-8."
        ) from exc
    except OSError as exc:
        raise ConfigError(f"`{path}` cannot be read ({exc}); check its permissions.") from exc
    for section, table in data.items():
        if section not in SECTIONS:
            raise ConfigError(
                f"Unknown section `[{section}]` in `{path}`; known: {', '.join(SECTIONS)}."
            )
        if not isinstance(table, dict):
            raise ConfigError(f"`{section}` in `{path}` must be a table (`[{section}]`).")
        for key, value in table.items():
            _set(cfg, section, key, value, source=f"`{path}`", name=f"{section}.{key}")


def _apply_env(cfg: Config, env: Mapping[str, str]) -> None:
    for var, raw in env.items():
        if not var.startswith(ENV_PREFIX) or var in ENV_RESERVED:
            continue
        rest = var[len(ENV_PREFIX) :].lower()
        section = next((s for s in SECTIONS if rest.startswith(s + "_")), None)
        if section is None:
            continue  # not a config variable (other tools may share the prefix)
        key = rest[len(section) + 1 :]
        _set(cfg, section, key, raw, source=f"environment variable {var}", name=var, text=True)


def _set(
    cfg: Config, section: str, key: str, value: Any, *, source: str, name: str, text: bool = False
) -> None:
    cls = SECTIONS.get(section)
    if cls is None:
        raise ConfigError(
            f"Unknown config key `{name}` from {source}; known sections: {', '.join(SECTIONS)}."
        )
    fields = [f.name for f in dataclasses.fields(cls)]
    if key not in fields:
        import difflib  # only for this message: 2 ms on every start (a hook on every prompt)

        close = difflib.get_close_matches(key, fields, n=1)
        hint = (
            f"did you mean `{section}.{close[0]}`?"
            if close
            else f"the keys of [{section}] are {', '.join(fields)}."
        )
        raise ConfigError(f"Unknown config key `{section}.{key}` in {source}; {hint}")
    hint = get_type_hints(cls)[key]
    coerced = _coerce(value, hint, text=text)
    if coerced is _INVALID:
        raise ConfigError(
            f"Config key `{section}.{key}` in {source} must be {_describe(hint)}, not {value!r}."
        )
    if f"{section}.{key}" in BUDGET_KEYS and coerced < MIN_BUDGET:
        raise ConfigError(budget_problem(coerced, f"Config key `{section}.{key}` in {source}"))
    if isinstance(coerced, int | float) and not isinstance(coerced, bool):
        low, high = _RANGES.get(f"{section}.{key}", (0, None))
        if coerced < low or (high is not None and coerced > high):
            span = f"between {low} and {high}" if high is not None else f"at least {low}"
            raise ConfigError(
                f"Config key `{section}.{key}` in {source} must be {span}, not {value!r}."
            )
    if f"{section}.{key}" == "secrets.extra_patterns":
        for pattern in coerced:
            try:
                re.compile(pattern)
            except re.error as exc:
                raise ConfigError(
                    f"Config key `secrets.extra_patterns` in {source} holds {pattern!r}, which "
                    f"is not a regular expression ({exc.msg}); fix it or remove it."
                ) from None
    choices = _CHOICES.get(f"{section}.{key}")
    if choices is not None and coerced not in choices:
        raise ConfigError(
            f"Config key `{section}.{key}` in {source} must be one of "
            f"{', '.join(repr(c) for c in choices)}, not {value!r}."
        )
    setattr(cfg.section(section), key, coerced)


def budget_problem(value: int, what: str) -> str:
    """The message for a pack budget below `MIN_BUDGET`, `what` naming where it came from."""
    return (
        f"{what} is {value} tokens, below the smallest pack budget of {MIN_BUDGET}; give at "
        f"least {MIN_BUDGET}."
    )


def check_budget(value: int, what: str) -> None:
    """Refuse a pack budget below `MIN_BUDGET` (`what`: where it came from, as in
    `budget_problem`).

    Raises:
        BudgetError: if `value` is below `MIN_BUDGET`.
    """
    if value < MIN_BUDGET:
        raise BudgetError(budget_problem(value, what))


_INVALID = object()
# Settings that take one of a few words.
_CHOICES: dict[str, tuple[str, ...]] = {
    "memory.on_secret": ("refuse", "redact"),
    "pack.format": ("md", "json", "xml"),
}
# Every number is a size, count, duration or share: none is negative. Tighter ranges:
_RANGES: dict[str, tuple[float, float | None]] = {
    "index.max_file_size": (1, None),
    "index.max_line_length": (1, None),
    "index.max_mean_line_length": (1, None),
    "pack.token_margin": (1, 3),
    "pack.map_share": (0, 1),
    "pack.memory_share": (0, 1),
    "memory.duplicate_similarity": (0, 1),
    "server.port": (0, 65535),
}


def _describe(hint: Any) -> str:
    return {int: "an integer", float: "a number", bool: "true or false", str: "a string"}.get(
        hint, "a list of strings"
    )


def _coerce(value: Any, hint: Any, *, text: bool) -> Any:
    if text and isinstance(value, str):
        value = _parse_text(value, hint)
        if value is _INVALID:
            return _INVALID
    if hint is bool:
        return value if isinstance(value, bool) else _INVALID
    if hint is int:
        return value if isinstance(value, int) and not isinstance(value, bool) else _INVALID
    if hint is float:
        ok = isinstance(value, (int, float)) and not isinstance(value, bool)
        # nan passes every range check and inf never ends a wait: neither is a setting
        return float(value) if ok and math.isfinite(value) else _INVALID
    if hint is str:
        return value if isinstance(value, str) else _INVALID
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return list(value)
    return _INVALID


def _parse_text(raw: str, hint: Any) -> Any:
    s = raw.strip()
    try:
        if hint is bool:
            low = s.lower()
            if low in ("1", "true", "yes", "on"):
                return True
            if low in ("0", "false", "no", "off"):
                return False
            return _INVALID
        if hint is int:
            return int(s)
        if hint is float:
            return float(s)
    except ValueError:
        return _INVALID
    if hint is str:
        return raw
    if s.startswith("["):
        try:
            parsed = json.loads(s)
        except json.JSONDecodeError:
            return _INVALID
        return parsed
    return [part.strip() for part in s.split(",") if part.strip()]


def defaults_as_toml() -> str:
    """Every key with its default value, as TOML (used to check `.repomem.example`)."""
    lines: list[str] = []
    for name, cls in SECTIONS.items():
        lines.append(f"[{name}]")
        for f in dataclasses.fields(cls):
            lines.append(f"{f.name} = {_toml_value(getattr(cls(), f.name))}")
        lines.append("")
    return "\n".join(lines)


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    return json.dumps(value)
