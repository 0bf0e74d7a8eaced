"""Citations: resolve `path[:symbol]` to lines and a content hash, and check them later.

Cited code is read from the working tree and parsed on the spot (not from the index), so a
check is right even when the index is behind. Hashes ignore trailing whitespace and blank
lines at the ends, so re-indenting a blank line does not make a fact stale.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

from repomem import secrets, vcs
from repomem.errors import InputError
from repomem.index import languages, parser
from repomem.memory.model import Citation
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
    """Reads and parses cited files once per run."""

    def __init__(self, root: Path) -> None:
        self.root = root.resolve()
        self._files: dict[str, _File | None] = {}

    def relpath(self, raw: str) -> str:
        """`raw` as a repository-relative POSIX path.

        Raises:
            InputError: for a path outside the repository or a credential file.
        """
        p = Path(raw)
        full = (p if p.is_absolute() else self.root / p).resolve()
        if full != self.root and self.root not in full.parents:
            raise InputError(f"`{raw}` is outside the repository; cite a file inside it.")
        rel = full.relative_to(self.root).as_posix()
        if secrets.is_secret_file(rel):
            raise InputError(f"`{rel}` is a credential file; repomem never reads or cites it.")
        return rel

    def file(self, rel: str) -> _File | None:
        if rel not in self._files:
            try:
                with open(self.root / rel, encoding="utf-8", errors="replace", newline="") as fh:
                    text = fh.read()
            except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
                self._files[rel] = None
            except OSError:
                self._files[rel] = None
            else:
                self._files[rel] = _File(lines=text.splitlines())
        return self._files[rel]

    def symbols(self, rel: str) -> tuple[Symbol, ...]:
        f = self.file(rel)
        if f is None:
            return ()
        if f.symbols is None:
            lang = languages.detect(rel)
            if parser.supports(lang):
                f.symbols = parser.parse("\n".join(f.lines) + "\n", lang).symbols
            else:
                f.symbols = ()
        return f.symbols

    def find_symbol(self, rel: str, name: str) -> list[Symbol]:
        syms = self.symbols(rel)
        exact = [s for s in syms if s.qualname == name]
        if exact:
            return exact
        tail = [
            s for s in syms if s.qualname.endswith("." + name) or s.qualname.endswith("::" + name)
        ]
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
        if f is None:
            raise InputError(f"Cannot cite `{rel}`: no such file in the repository.")
        if not target:
            return Citation(path=rel, hash=digest(f.lines))
        start, end = _line_range(target)
        if start:
            if end > len(f.lines):
                raise InputError(
                    f"Cannot cite `{rel}:{target}`: the file has {len(f.lines)} lines."
                )
            return Citation(
                path=rel, start_line=start, end_line=end, hash=digest(f.lines[start - 1 : end])
            )
        found = self.find_symbol(rel, target)
        if not found:
            names = sorted({s.qualname for s in self.symbols(rel)})
            hint = f" Symbols there: {', '.join(names[:8])}" + ("…" if len(names) > 8 else "")
            raise InputError(
                f"Cannot cite `{rel}:{target}`: no symbol of that name.{hint if names else ''}"
            )
        qualnames = sorted({s.qualname for s in found})
        if len(qualnames) > 1:
            raise InputError(
                f"`{rel}:{target}` is ambiguous ({', '.join(qualnames[:6])}); cite the "
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
            for i in range(max(len(f.lines) - n + 1, 0)):
                if digest(f.lines[i : i + n]) == c.hash:
                    return "", Citation(c.path, "", i + 1, i + n, c.hash)
            return f"lines {c.start_line}-{c.end_line} of `{c.path}` changed", c
        if c.hash and digest(f.lines) != c.hash:
            return f"`{c.path}` changed", c
        return "", c


def _line_range(target: str) -> tuple[int, int]:
    a, sep, b = target.partition("-")
    if a.isdigit() and (not sep or b.isdigit()):
        start = int(a)
        end = int(b) if sep else start
        if start < 1 or end < start:
            raise InputError(f"Bad line range `{target}`; write START-END with START <= END.")
        return start, end
    return 0, 0
