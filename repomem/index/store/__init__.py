"""The index store: an embedded LanceDB database (the only package importing lancedb/pyarrow).

Tables
    files    one row per indexed file: path, language, content hash, size, mtime, tokens, text
    symbols  definitions: name, qualified name, kind, signature, doc, lines
    refs     uses of names (and imports), folded per (file, name, kind, enclosing definition)
    notes    per-file notes (generated or written by people/assistants), room for later issues
    memory   the project memory file's entries (search tokens in `text`, JSON in `data`)
    meta     key/value: schema version, indexed commit, timestamps
    vectors  optional dense embeddings of file cards (`embed.enabled`), keyed by a hash of the
             model, card version, path and file content: a cache kept across rebuilds and
             checkouts, created on first use (see `repomem.index.dense`)

Readers see whole updates only. A writer commits several versions per table while it works;
when it is done it *publishes* the versions of the derived tables in `meta` (key `published`).
A reading Store opens each derived table at its published version, so files, symbols and refs
always come from the same finished update (LanceDB keeps every version until `optimize` cleans
up versions older than a few minutes). A full rebuild (`--full`) empties the derived tables
and readers keep the last published versions until it publishes; a schema change drops and
creates them again, so readers during one may see them half-built.

The database location is a URI (a local directory by default, under the git directory so it is
never committed; LanceDB also accepts object-store URIs). Only the write lock and the crash
journal are local files, kept beside the lock.

Full-text search uses LanceDB's native index over a `search` column that holds code-aware tokens
(see `repomem.index.tokens`), tokenized on whitespace with English stemming.

The package, by concern: `schemas` (the tables' Arrow schemas, the groups of tables each job
works on, migrations, the full-text configuration, filter literals), `tables` (the connection,
the versions readers see and publication, the write lock, `meta` and the crash journal: the
base of `Store`), `maintenance` (tables created, rebuilt or emptied, indexes built, compaction),
`rows` (rows written and read by path, column and name), `fulltext` (full-text search),
`vectors`, `memory` and `commits` (one table each) and `guard` (LanceDB's failures turned into
one `StoreError`, readers that meet a writer). `Store` joins them; this module holds it and the
public names, and defers the REST client's import before any of them imports lancedb (and
imports lancedb with Python 3.12's cheap `override` on older versions).
"""

from __future__ import annotations

import contextlib
import importlib.util
import sys
import types
from typing import Any


def _defer_package_init(package: str) -> None:
    """Register `package` without running its `__init__` until one of its names is used.

    lancedb imports `lance_namespace`, which imports models from the REST client package
    `lance_namespace_urllib3_client`; that package's `__init__` builds some sixty API classes
    with pydantic validators (about 1.2 s of every CLI start on this machine) that a local
    store never calls. Its submodules still import normally (the package keeps its path), and
    the first use of a name defined in `__init__` runs it then.
    """
    if package in sys.modules:
        return
    try:
        spec = importlib.util.find_spec(package)
    except (ImportError, ValueError):
        return
    if spec is None or spec.loader is None or spec.submodule_search_locations is None:
        return
    module = importlib.util.module_from_spec(spec)
    loader = spec.loader
    ran: list[bool] = []

    def load_on_use(name: str) -> Any:
        if name.startswith("__") or ran:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        ran.append(True)
        loader.exec_module(module)
        return getattr(module, name)

    module.__getattr__ = load_on_use  # type: ignore[method-assign]
    sys.modules[package] = module


def _mark_override(method: Any) -> Any:
    """`typing.override` of Python 3.12: mark the method, check nothing."""
    with contextlib.suppress(AttributeError, TypeError):
        method.__override__ = True
    return method


def _import_lancedb_as_on_python_312() -> None:
    """Import lancedb with the `override` it uses on Python 3.12 and later.

    Before 3.12 lancedb takes `override` and `EnforceOverrides` from the `overrides` package,
    whose decorator disassembles the bytecode of the calling class body to find its bases, for
    each of lancedb's hundred-odd decorated methods (about 0.5 s of every CLI start on this
    machine); from 3.12 on lancedb uses `typing.override`, which only marks the method, and an
    empty `EnforceOverrides`. Those two stand in while lancedb's modules load; `overrides`
    itself is left as it was, so code that imports it later gets the real package.
    """
    if sys.version_info >= (3, 12) or "lancedb" in sys.modules or "overrides" in sys.modules:
        return
    shim = types.ModuleType("overrides")
    shim.override = _mark_override  # type: ignore[attr-defined]
    shim.EnforceOverrides = type("EnforceOverrides", (), {})  # type: ignore[attr-defined]
    sys.modules["overrides"] = shim
    try:
        import lancedb  # noqa: F401
    finally:
        if sys.modules.get("overrides") is shim:
            del sys.modules["overrides"]


_defer_package_init("lance_namespace_urllib3_client")
_import_lancedb_as_on_python_312()

# The modules below import lancedb: the two steps above must run first.
from repomem.index.store.commits import _Commits  # noqa: E402
from repomem.index.store.fulltext import Hit, _FullText  # noqa: E402
from repomem.index.store.guard import WriteLock, _guard  # noqa: E402
from repomem.index.store.maintenance import _Maintenance  # noqa: E402
from repomem.index.store.memory import _Memory  # noqa: E402
from repomem.index.store.rows import _Rows  # noqa: E402
from repomem.index.store.schemas import (  # noqa: E402
    CHUNKS,
    COMMITS,
    DERIVED,
    FILES,
    FTS_COLUMNS,
    MEMORY,
    META,
    MIGRATIONS,
    NOTES,
    PATH_INDEXED,
    REFS,
    SYMBOLS,
    TABLES,
    VECTOR_DIM,
    VECTORS,
    WRITER_FTS,
    in_list,
    quote,
)
from repomem.index.store.vectors import _Vectors  # noqa: E402

__all__ = [
    "CHUNKS",
    "COMMITS",
    "DERIVED",
    "FILES",
    "FTS_COLUMNS",
    "MEMORY",
    "META",
    "MIGRATIONS",
    "NOTES",
    "PATH_INDEXED",
    "REFS",
    "SYMBOLS",
    "TABLES",
    "VECTORS",
    "VECTOR_DIM",
    "WRITER_FTS",
    "Hit",
    "Store",
    "WriteLock",
    "in_list",
    "quote",
]


class Store(_Maintenance, _Commits, _Memory, _Vectors, _Rows, _FullText):
    """One repository's index. Reads need no lock; writes happen inside `Store.writing()`."""


# Every public method, wherever in the bases it is defined (`vars(Store)` alone holds none);
# the nearest definition in the method resolution order wins, as it does for attributes.
_methods: dict[str, Any] = {}
for _base in reversed(Store.__mro__):
    _methods.update(vars(_base))
for _name, _method in list(_methods.items()):
    if (
        callable(_method)
        and not _name.startswith("_")
        and _name not in ("writing", "refresh")
        and not isinstance(_method, (staticmethod, classmethod))
    ):
        setattr(Store, _name, _guard(_name, _method))
