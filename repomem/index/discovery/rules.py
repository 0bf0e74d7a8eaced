"""Which paths are not indexed, by their names alone (no read of the file).

Credential files (`secret`), vendored folders (`vendored`), `.repomemignore` and
`index.exclude` (`ignored`), the memory file (`memory`), repomem's own settings (`repomem`),
binary extensions (`binary`), lock files and generated names (`generated`), and symlinks
(`symlink*`). A `Filter` keeps its verdicts per settings, and saves them for the next process;
the digest of this module is part of their key, so a rule changed here is never answered by a
verdict saved before.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
from functools import lru_cache
from pathlib import Path, PurePosixPath

import pathspec

from repomem import __version__, fsutil, secrets
from repomem.config import CONFIG_NAME, Config
from repomem.paths import root_pattern

log = logging.getLogger(__name__)

IGNORE_FILE = ".repomemignore"
BINARY_EXTENSIONS = frozenset(
    [
        ".png",
        ".jpg",
        ".jpeg",
        ".gif",
        ".bmp",
        ".ico",
        ".icns",
        ".webp",
        ".tif",
        ".tiff",
        ".psd",
        ".pdf",
        ".zip",
        ".gz",
        ".tgz",
        ".bz2",
        ".xz",
        ".7z",
        ".rar",
        ".jar",
        ".war",
        ".ear",
        ".whl",
        ".egg",
        ".so",
        ".dll",
        ".dylib",
        ".exe",
        ".o",
        ".a",
        ".lib",
        ".obj",
        ".class",
        ".pyc",
        ".pyo",
        ".pyd",
        ".wasm",
        ".bin",
        ".dat",
        ".db",
        ".sqlite",
        ".sqlite3",
        ".mp3",
        ".mp4",
        ".wav",
        ".ogg",
        ".flac",
        ".avi",
        ".mov",
        ".mkv",
        ".webm",
        ".ttf",
        ".otf",
        ".woff",
        ".woff2",
        ".eot",
        ".parquet",
        ".arrow",
        ".feather",
        ".npy",
        ".npz",
        ".pkl",
        ".pickle",
        ".h5",
        ".hdf5",
        ".onnx",
        ".pt",
        ".pth",
        ".safetensors",
        ".lance",
        ".xlsx",
        ".xls",
        ".docx",
        ".doc",
        ".pptx",
        ".ppt",
        ".odt",
        ".dmg",
        ".iso",
        ".img",
    ]
)
GENERATED_NAMES = frozenset(
    [
        "package-lock.json",
        "yarn.lock",
        "pnpm-lock.yaml",
        "npm-shrinkwrap.json",
        "bun.lockb",
        "Cargo.lock",
        "poetry.lock",
        "Pipfile.lock",
        "uv.lock",
        "pdm.lock",
        "composer.lock",
        "Gemfile.lock",
        "go.sum",
        "packages.lock.json",
        "flake.lock",
    ]
)
GENERATED_SUFFIXES = (
    ".min.js",
    ".min.css",
    ".min.mjs",
    ".js.map",
    ".css.map",
    ".map",
    "_pb2.py",
    "_pb2_grpc.py",
    ".pb.go",
    ".pb.cc",
    ".pb.h",
    ".g.dart",
    ".designer.cs",
)


# What each skip reason means, for a message about one file (`query.why_not_indexed`).
SKIP_REASONS = {
    "secret": "a credential file",
    "vendored": "inside a vendored folder; see `index.vendor_dirs`",
    "ignored": "matched by `.repomemignore` or `index.exclude`",
    "memory": "the project memory file, packed and searched from its own table",
    "repomem": "repomem's own settings",
    "symlink": "a symlink while `index.follow_symlinks` is off",
    "symlink-outside": "a symlink to outside the repository",
    "symlink-loop": "a symlink loop",
    "symlink-dir": "a symlink to a folder",
    "symlink-broken": "a broken symlink",
    "too-large": "larger than `index.max_file_size`",
    "binary": "a binary file",
    "generated": "a lock file or a generated file; see `index.skip_generated`",
    "minified": "minified: very long lines",
    "unreadable": "unreadable",
    "not-a-file": "not a regular file: a submodule, socket or device",
    "bad-name": "a file name that is not UTF-8",
    "text-disabled": "no parser for it while `index.index_text_files` is off",
}


_SPECS: dict[
    tuple[object, ...], tuple[pathspec.GitIgnoreSpec, pathspec.GitIgnoreSpec, dict[str, str | None]]
] = {}
_MAX_VERDICTS = 250_000  # paths remembered per settings (~25 MB at most)


def _store_pattern(cfg: Config) -> str | None:
    """An ignore pattern for the store's folder when `store.path` puts it in the repository."""
    from repomem.index.indexer import store_uri  # indexer imports this module

    uri = store_uri(cfg)
    if "://" in uri:
        return None
    try:
        rel = Path(uri).resolve().relative_to(cfg.root.resolve())
    except (ValueError, OSError):
        return None
    return root_pattern(rel.as_posix()) + "/" if rel.parts else None


class Filter:
    """Path-level decisions (no I/O on the file itself beyond `lstat` for symlinks)."""

    def __init__(self, cfg: Config) -> None:
        self.root = cfg.root
        self.real_root = cfg.root.resolve()
        self.cfg = cfg
        self.vendor = frozenset(cfg.index.vendor_dirs)
        patterns: list[str] = list(cfg.index.exclude)
        ignore = cfg.root / IGNORE_FILE
        if ignore.is_file():
            try:
                patterns += ignore.read_text(encoding="utf-8", errors="replace").splitlines()
            except OSError as exc:
                log.warning("cannot read %s: %s", ignore, exc)
        store = _store_pattern(cfg)
        if store:  # a `store.path` inside the repository: its own files are never code
            patterns.append(store)
        self.memory_file = PurePosixPath(cfg.memory.file.strip() or "REPOMEM.md").as_posix()
        # A path's verdict depends on these settings only: verdicts are kept per settings, so a
        # long-lived process (the server, the watcher, packs in a loop) matches each path once.
        key = (
            tuple(patterns), tuple(sorted(self.vendor)), tuple(cfg.secrets.skip_files),
            self.memory_file, cfg.index.skip_generated,
        )  # fmt: skip
        cached = _SPECS.get(key)
        if cached is None:
            if len(_SPECS) >= 8:
                _SPECS.clear()
            cached = _SPECS[key] = (
                pathspec.GitIgnoreSpec.from_lines(patterns),
                pathspec.GitIgnoreSpec.from_lines(cfg.secrets.skip_files),
                {},
            )
        self.ignore, self.secret_globs, self._verdicts = cached
        self._key = key
        self.judged = 0  # verdicts this filter worked out (not found remembered)

    def reason(self, rel: str) -> str | None:
        """Why `rel` is not indexed, or None if it is a candidate."""
        try:
            return self._verdicts[rel]
        except KeyError:
            pass
        if len(self._verdicts) >= _MAX_VERDICTS:
            self._verdicts.clear()
        why = self._verdicts[rel] = self._reason(rel)
        self.judged += 1
        return why

    def _memo_key(self) -> str:
        # the settings and the code of the rules: saved verdicts never outlive a rule change
        data = json.dumps([__version__, _rules_fingerprint(), self._key]).encode()
        return hashlib.blake2b(data, digest_size=16).hexdigest()

    def recall(self, memo: Path) -> None:
        """Take the verdicts a run under the same settings saved in `memo`: a CLI process
        would otherwise match every path again (0.5 s for 12,000 files)."""
        if self._verdicts:
            return  # this process has them already
        try:
            data = json.loads(memo.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return
        if isinstance(data, dict) and data.get("key") == self._memo_key():
            verdicts = data.get("verdicts")
            if isinstance(verdicts, dict) and all(
                v is None or isinstance(v, str) for v in verdicts.values()
            ):
                self._verdicts.update(verdicts)

    def save(self, memo: Path, paths: list[str]) -> None:
        """Save the verdicts of `paths` (best effort: only a shortcut)."""
        data = {"key": self._memo_key(), "verdicts": {p: self._verdicts.get(p) for p in paths}}
        try:
            fsutil.atomic_write(memo, json.dumps(data, separators=(",", ":")))
        except OSError as exc:  # no state folder yet, a read-only one: matched again next time
            log.debug("cannot save %s: %s", memo, exc)

    def is_secret(self, rel: str) -> bool:
        """A credential file by name, or by the configured `secrets.skip_files`."""
        return secrets.is_secret_file(rel) or bool(self.secret_globs.match_file(rel))

    def _reason(self, rel: str) -> str | None:
        if not fsutil.utf8_name(rel):
            return "bad-name"
        parts = rel.split("/")
        if any(p in self.vendor for p in parts[:-1]):
            return "vendored"
        if self.is_secret(rel):
            return "secret"
        if self.ignore.match_file(rel):
            return "ignored"
        if rel == self.memory_file:
            return "memory"
        if rel in (CONFIG_NAME, IGNORE_FILE):
            return "repomem"
        if os.path.splitext(parts[-1])[1].lower() in BINARY_EXTENSIONS:
            return "binary"
        if self.cfg.index.skip_generated and _generated_name(parts[-1]):
            return "generated"
        return None

    def symlink_reason(self, abspath: Path) -> str | None:
        """For a symlink: why it is skipped, or None when it points to a file in the repo."""
        if not self.cfg.index.follow_symlinks:
            return "symlink"
        try:
            target = abspath.resolve(strict=True)
        except RuntimeError:
            return "symlink-loop"
        except OSError as exc:
            return "symlink-loop" if exc.errno == 40 else "symlink-broken"
        try:
            inside = target.relative_to(self.real_root).as_posix()
        except ValueError:
            return "symlink-outside"
        if target.is_dir():
            return "symlink-dir"
        if self.is_secret(inside):
            return "secret"  # `settings.py -> .env`: the target decides
        return None


@lru_cache(maxsize=1)
def _rules_fingerprint() -> str:
    """A digest of the code that decides a path's verdict: this module, the `secrets` package
    (credential files; all its modules, so a rule changed in any of them counts),
    `fsutil` (names that are not UTF-8) and pathspec (gitignore matching)."""
    digest = hashlib.blake2b(getattr(pathspec, "__version__", "").encode(), digest_size=16)
    package = sorted(str(p) for p in Path(secrets.__file__ or "").parent.glob("*.py"))
    for module in (__file__, *package, fsutil.__file__):
        try:
            digest.update(Path(module or "").read_bytes())
        except OSError:
            digest.update(os.urandom(16))  # unreadable: nothing saved matches
    return digest.hexdigest()


def _generated_name(name: str) -> bool:
    return name in GENERATED_NAMES or name.endswith(GENERATED_SUFFIXES)
