"""Citations: resolve `path[:symbol]` to lines and a content hash, and check them later.

Cited code is read from the working tree and parsed on the spot (not from the index), so a
check is right even when the index is behind. Hashes ignore trailing whitespace and blank
lines at the ends, so re-indenting a blank line does not make a fact stale, and are taken of
the code with its credentials redacted (the hash is committed; a secret must not be guessable
from it).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from repomem import secrets, vcs
from repomem.config import Config
from repomem.errors import InputError
from repomem.fsutil import echo, text_lines
from repomem.index import discovery, languages, parser
from repomem.memory.model import Citation
from repomem.paths import confine
from repomem.types import Symbol

HASH_LEN = 12


def digest(lines: list[str]) -> str:
    body = [ln.rstrip() for ln in lines]
    while body and not body[0]:
        body.pop(0)
    while body and not body[-1]:
        body.pop()
    return hashlib.blake2b("\n".join(body).encode(), digest_size=8).hexdigest()[:HASH_LEN]


@dataclass
class _File:
    lines: list[str]
    symbols: tuple[Symbol, ...] | None = None


class Resolver:
    """Reads and parses cited files once per run.

    Files are read the way the indexer reads them (`discovery.read_file`): a binary, huge,
    generated or minified file, or a symlink out of the repository, cannot be cited.
    """

    def __init__(self, cfg: Config) -> None:
        self.cfg = cfg
        self.root = cfg.root.resolve()
        self._files: dict[str, _File | None] = {}
        self._skipped: dict[str, str] = {}

    def relpath(self, raw: str) -> str:
        """`raw` as a repository-relative POSIX path (`paths.confine`; absolute paths inside
        the repository are accepted).

        Raises:
            InputError: for a path outside the repository or a credential file.
        """
        return confine(self.cfg, raw, what="citation", allow_absolute=True)

    def file(self, rel: str) -> _File | None:
        """The file's lines, or None when it cannot be read (`skipped(rel)` says why)."""
        if rel not in self._files:
            try:
                # a citation written into the file by hand (or by the memory tool) is
                # confined like one given on the command line: never read outside the root
                confine(self.cfg, rel, what="citation")
            except InputError:
                self._files[rel] = None
                self._skipped[rel] = "outside the repository, or a credential file"
                return None
            try:
                data = discovery.read_file(self.cfg, rel)
            except discovery.Skip as skip:
                self._files[rel] = None
                self._skipped[rel] = skip.reason
            else:
                # Redacted as the index stores it: a citation's hash is committed in the
                # memory file, and a hash of a line holding a weak password would let anyone
                # who reads the file test guesses against it.
                text, _ = secrets.redact(
                    data.text,
                    config_like=secrets.is_config_like(rel),
                    extra_patterns=self.cfg.secrets.extra_patterns,
                )
                self._files[rel] = _File(lines=text_lines(text))
        return self._files[rel]

    def skipped(self, rel: str) -> str:
        """Why `file(rel)` gave None: "vanished" for a missing file, else a discovery reason."""
        return self._skipped.get(rel, "")

    def symbols(self, rel: str) -> tuple[Symbol, ...]:
        f = self.file(rel)
        if f is None:
            return ()
        if f.symbols is None:
            f.symbols = parse_symbols(rel, "\n".join(f.lines) + "\n")
        return f.symbols

    def find_symbol(self, rel: str, name: str) -> list[Symbol]:
        syms = self.symbols(rel)
        exact = [s for s in syms if s.qualname == name]
        if exact:
            return exact
        # a qualified name without its namespace, or joined as its language does (`Db::new`)
        parts = languages.name_parts(name)
        tail = [s for s in syms if languages.name_parts(s.qualname)[-len(parts) :] == parts]
        return tail or [s for s in syms if s.name == name]

    # ----------------------------------------------------------------- resolve
    def resolve(self, spec: str, *, follow_renames: bool = False) -> Citation:
        """Resolve `path`, `path:symbol` or `path:START-END` against the working tree.

        With `follow_renames`, a file git saw renamed is resolved at its new path.

        Raises:
            InputError: when the file or symbol does not exist (naming what does).
        """
        raw_path, _, target = spec.strip().partition(":")
        rel = self.relpath(raw_path)
        f = self.file(rel)
        if f is None and follow_renames:
            moved_to = vcs.renamed_to(self.root, rel)
            if moved_to:
                rel, f = moved_to, self.file(moved_to)
        if any(c in rel for c in "`\r\n"):
            # written between backticks on one line of the memory file, it would read back
            # as another path (or not at all)
            raise InputError(
                f"Cannot cite {rel!r}: a citation in the memory file cannot hold a backtick or "
                f"a line break in a file name; rename the file, or leave this citation out."
            )
        if f is None:
            reason = self.skipped(rel)
            if reason in ("vanished", "not-a-file"):
                if (self.root / rel).is_dir():
                    raise InputError(
                        f"Cannot cite `{echo(rel)}`: it is a folder; cite a file in it."
                    )
                raise InputError(f"Cannot cite `{echo(rel)}`: no such file in the repository.")
            raise InputError(f"Cannot cite `{echo(rel)}`: repomem does not read it ({reason}).")
        if not target:
            return Citation(path=rel, hash=digest(f.lines))
        start, end = _line_range(target)
        if start:
            if end > len(f.lines):
                raise InputError(
                    f"Cannot cite `{echo(rel + ':' + target)}`: the file has {len(f.lines)} lines."
                )
            return Citation(
                path=rel, start_line=start, end_line=end, hash=digest(f.lines[start - 1 : end])
            )
        found = self.find_symbol(rel, target)
        if not found:
            names = sorted({s.qualname for s in self.symbols(rel)})
            hint = f" Symbols there: {', '.join(names[:8])}" + ("…" if len(names) > 8 else "")
            raise InputError(
                f"Cannot cite `{echo(rel + ':' + target)}`: no symbol of that name."
                + (hint if names else "")
            )
        qualnames = sorted({s.qualname for s in found})
        if len(qualnames) > 1:
            raise InputError(
                f"`{echo(rel + ':' + target)}` is ambiguous ({', '.join(qualnames[:6])}); cite the "
                f"qualified name."
            )
        s = found[0]
        return Citation(
            path=rel,
            symbol=s.qualname,
            start_line=s.start_line,
            end_line=s.end_line,
            hash=digest(f.lines[s.start_line - 1 : s.end_line]),
        )

    # ----------------------------------------------------------------- check
    def check(self, c: Citation) -> tuple[str, Citation]:
        """Why the cited code no longer matches ("" if it still does), and the citation with
        its current line numbers (code that only moved is not stale)."""
        f = self.file(c.path)
        if f is None:
            if self.skipped(c.path) not in ("vanished", "not-a-file"):
                return f"`{c.path}` can no longer be read ({self.skipped(c.path)})", c
            moved_to = vcs.renamed_to(self.root, c.path)
            if moved_to:
                return f"`{c.path}` was renamed to `{moved_to}`", c
            return f"`{c.path}` was deleted", c
        if c.symbol:
            found = [s for s in self.find_symbol(c.path, c.symbol) if s.qualname == c.symbol]
            if not found:
                return f"`{c.symbol}` is gone from `{c.path}`", c
            s = found[0]
            now = digest(f.lines[s.start_line - 1 : s.end_line])
            if c.hash and now != c.hash and _legacy_tail(f.lines, s, c):
                return "", Citation(c.path, c.symbol, s.start_line, s.end_line, now)
            moved = Citation(c.path, c.symbol, s.start_line, s.end_line, c.hash)
            if c.hash and now != c.hash:
                return f"`{c.path}:{c.symbol}` changed", moved
            return "", moved
        if c.start_line:
            n = c.end_line - c.start_line + 1
            if (
                c.end_line <= len(f.lines)
                and digest(f.lines[c.start_line - 1 : c.end_line]) == c.hash
            ):
                return "", c
            places = [
                i for i in range(max(len(f.lines) - n + 1, 0))
                if digest(f.lines[i : i + n]) == c.hash
            ]  # fmt: skip
            # places that differ only by the blank lines at their edges (which the hash leaves
            # out) hold the same code: the one nearest the cited lines is taken
            if len({_code_lines(f.lines, i, n) for i in places}) == 1:
                at = min(places, key=lambda i: abs(i + 1 - c.start_line))
                if _distinctive(f.lines[at : at + n]):
                    return "", Citation(c.path, "", at + 1, at + n, c.hash)
            return f"lines {c.start_line}-{c.end_line} of `{c.path}` changed", c
        if c.hash and digest(f.lines) != c.hash:
            return f"`{c.path}` changed", c
        return "", c

    def check_all(self, cites: list[Citation]) -> tuple[list[str], list[Citation]]:
        """`check` for each citation: the reasons the code no longer matches, and the
        citations with their current line numbers."""
        reasons: list[str] = []
        now: list[Citation] = []
        for c in cites:
            reason, current = self.check(c)
            now.append(current)
            if reason:
                reasons.append(reason)
        return reasons, now

    def symbol_hashes(self, rel: str) -> dict[str, str]:
        """{qualified name: hash of its lines} of the file's definitions as they are now."""
        f = self.file(rel)
        return symbol_hashes(f.lines, self.symbols(rel)) if f is not None else {}


def _legacy_tail(lines: list[str], s: Symbol, c: Citation) -> bool:
    """Whether `c` was made when a symbol's lines began at its `def` (before they took in its
    decorators, attributes and doc comments: `@property`, `#[derive]`, `// Run starts`) and
    the lines it covered are unchanged: as many lines at the end of the symbol hash the same,
    at the same place (a decorator added since moves the `def` down: that is a change)."""
    n = c.end_line - c.start_line + 1 if c.start_line and c.end_line >= c.start_line else 0
    span = s.end_line - s.start_line + 1
    return (
        0 < n < span
        and c.start_line == s.end_line - n + 1
        and digest(lines[s.end_line - n : s.end_line]) == c.hash
    )


# A cited line range found elsewhere in its file counts as moved only when it could not be
# another place's copy: found once, and more than a line like `return None`, `pass` or `}`
# (non-space characters).
MIN_MOVED_CHARS = 12


def _code_lines(lines: list[str], at: int, n: int) -> tuple[int, int]:
    """The first and last line of `lines[at : at + n]` that are not blank, as indexes of
    `lines` (what `digest` hashes)."""
    filled = [i for i in range(at, at + n) if lines[i].rstrip()]
    return (filled[0], filled[-1]) if filled else (at, at)


def _distinctive(block: list[str]) -> bool:
    return len("".join("".join(line.split()) for line in block)) >= MIN_MOVED_CHARS


def symbol_hashes(lines: list[str], symbols: tuple[Symbol, ...]) -> dict[str, str]:
    """{qualified name: hash of its lines}; the first definition wins for repeated names."""
    out: dict[str, str] = {}
    for s in symbols:
        out.setdefault(s.qualname, digest(lines[s.start_line - 1 : s.end_line]))
    return out


def parse_symbols(rel: str, text: str) -> tuple[Symbol, ...]:
    """The definitions in `text` (a version of `rel`), () for languages without a parser."""
    lang = languages.detect(rel)
    return parser.parse(text, lang).symbols if parser.supports(lang) else ()


def _line_range(target: str) -> tuple[int, int]:
    a, sep, b = target.partition("-")
    if a.isdigit() and (not sep or b.isdigit()):
        start = int(a)
        end = int(b) if sep else start
        if start < 1:
            raise InputError(f"Bad line range `{target}`: lines count from 1.")
        if end < start:
            raise InputError(f"Bad line range `{target}`; write START-END with START <= END.")
        return start, end
    return 0, 0
