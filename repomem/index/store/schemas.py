"""What the store's tables hold: their Arrow schemas, the groups of tables each job works on
(derived, full-text indexed, path indexed), schema migrations, the full-text index's
configuration, and the SQL literals that filters on them are written with."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pyarrow as pa
from lancedb.index import FTS

from repomem.fsutil import lone_cr_as_lf, valid_text
from repomem.index import schema as _schema
from repomem.index import tokens as tok

FILES = pa.schema(
    [
        pa.field("path", pa.string()),
        pa.field("language", pa.string()),
        pa.field("hash", pa.string()),
        pa.field("size", pa.int64()),
        pa.field("mtime_ns", pa.int64()),
        pa.field("tokens", pa.int32()),
        pa.field("lines", pa.int32()),
        pa.field("symbols", pa.int32()),
        pa.field("redactions", pa.int32()),
        pa.field("indexed_at", pa.float64()),
        pa.field("skip", pa.string()),  # why a listed file is not indexed ("" when it is)
        pa.field("text", pa.large_string()),
        pa.field("search", pa.large_string()),
    ]
)
SYMBOLS = pa.schema(
    [
        pa.field("id", pa.string()),
        pa.field("path", pa.string()),
        pa.field("language", pa.string()),
        pa.field("name", pa.string()),
        pa.field("qualname", pa.string()),
        pa.field("kind", pa.string()),
        pa.field("parent", pa.string()),
        pa.field("signature", pa.string()),
        pa.field("doc", pa.string()),
        pa.field("start_line", pa.int32()),
        pa.field("end_line", pa.int32()),
        pa.field("file_hash", pa.string()),
        pa.field("search", pa.string()),
    ]
)
CHUNKS = pa.schema(
    [
        pa.field("path", pa.string()),
        pa.field("start_line", pa.int32()),
        pa.field("end_line", pa.int32()),
        pa.field("file_hash", pa.string()),
        pa.field("search", pa.large_string()),
    ]
)
REFS = pa.schema(
    [
        pa.field("path", pa.string()),
        pa.field("name", pa.string()),
        pa.field("kind", pa.string()),
        pa.field("scope", pa.string()),
        pa.field("line", pa.int32()),
        pa.field("count", pa.int32()),
    ]
)
NOTES = pa.schema(
    [
        pa.field("path", pa.string()),
        pa.field("source", pa.string()),
        pa.field("text", pa.string()),
        pa.field("file_hash", pa.string()),
        pa.field("updated_at", pa.float64()),
    ]
)
MEMORY = pa.schema(
    [
        pa.field("id", pa.string()),
        pa.field("kind", pa.string()),
        pa.field("text", pa.string()),
        pa.field("data", pa.string()),
        pa.field("updated_at", pa.float64()),
    ]
)
COMMITS = pa.schema(
    [
        pa.field("sha", pa.string()),
        pa.field("when", pa.int64()),
        pa.field("subject", pa.string()),
        pa.field("text", pa.string()),  # search tokens of the (redacted) message
        pa.field("files", pa.list_(pa.string())),
    ]
)
META = pa.schema([pa.field("key", pa.string()), pa.field("value", pa.string())])
VECTOR_DIM = 384
VECTORS = pa.schema(
    [
        pa.field("key", pa.string()),
        pa.field("path", pa.string()),
        pa.field("hash", pa.string()),
        pa.field("vector", pa.list_(pa.float32(), VECTOR_DIM)),
    ]
)

TABLES: dict[str, pa.Schema] = {
    "files": FILES,
    "symbols": SYMBOLS,
    "chunks": CHUNKS,
    "refs": REFS,
    "notes": NOTES,
    "memory": MEMORY,
    "commits": COMMITS,
    "meta": META,
}
DERIVED = _schema.DERIVED
FTS_COLUMNS = {"files": "search", "symbols": "search", "chunks": "search"}
# Full-text indexes that their writers keep (`replace_memory`, `write_commits`); the tables may
# be empty (no memory yet, no git) or absent (a store from before commits were kept).
WRITER_FTS = {"memory": "text", "commits": "text"}
PATH_INDEXED = ("files", "symbols", "chunks", "refs", "notes")


def _drop_files(store: Any, where: str) -> None:
    """Delete the rows of the files `where` selects (a filter on `files`): the next run reads
    those files as new (their notes stay)."""
    found = store.table("files").search().where(where).select(["path"]).limit(None).to_arrow()
    store.delete_paths(found.column("path").to_pylist())


def _reread_lone_cr_files(store: Any) -> None:
    """15 -> 16: a lone `\\r` ends a line (old Mac files were one line, or skipped as
    minified). The rows of files stored with one, and of files skipped as minified, go: the
    next run reads those files as new (their notes stay)."""
    found = store.table("files").search().where(
        f"text LIKE {quote('%' + chr(13) + '%')} OR skip = 'minified'"
    ).select(["path", "text", "skip"]).limit(None).to_arrow().to_pydict()  # fmt: skip
    paths = [
        p
        for p, text, skip in zip(found["path"], found["text"], found["skip"], strict=True)
        if skip == "minified" or lone_cr_as_lf(text or "") != text
    ]
    store.delete_paths(paths)


def _reread_source_mapped_files(store: Any) -> None:
    """16 -> 17: a build ending in a `sourceMappingURL` comment is generated. The rows of
    files stored with the comment go: the next run reads them again and skips the builds."""
    _drop_files(store, f"skip = '' AND text LIKE {quote('%sourceMappingURL%')}")


def _reread_newly_secret_files(store: Any) -> None:
    """17 -> 18: the secret filter reads credential names in more languages and in look-alike
    letters. The rows of files whose stored text it now redacts go: the next run reads them
    again, through the filter."""
    from repomem import secrets

    found = store.table("files").search().where("skip = ''").select(
        ["path", "text"]
    ).limit(None).to_arrow().to_pydict()  # fmt: skip
    paths = [
        p
        for p, text in zip(found["path"], found["text"], strict=True)
        if text and secrets.redact(text, config_like=secrets.is_config_like(p))[1]
    ]
    store.delete_paths(paths)


def _redo_newly_secret_files_and_commits(store: Any) -> None:
    """18 -> 19: the secret filter reads credential names in more languages, in code written
    all in ASCII too (`senha = "..."`), and the Turkish dotted capital I (`ŞİFRE`). The files
    whose stored text it now redacts are read again, and the commits whose stored message it
    does are dropped and read again (the commit messages were never checked before)."""
    from repomem.index import commits

    _reread_newly_secret_files(store)
    commits.drop_newly_secret(store)


def _reread_parsed_files(store: Any) -> None:
    """19 -> 20: a bodyless callable's signature is whole, and member accesses, re-exports and
    static members are references. The rows of files parsed for symbols go, but Python's,
    whose parse is unchanged (text files and skipped files stay): the next run parses them
    again."""
    from repomem.index import parser

    found = store.table("files").search().where("skip = ''").select(
        ["path", "language"]
    ).limit(None).to_arrow().to_pydict()  # fmt: skip
    paths = [
        p
        for p, language in zip(found["path"], found["language"], strict=True)
        if language and language != "python" and parser.supports(language)
    ]
    store.delete_paths(paths)


# The text labels (as schemas up to 20 stored them) of the languages parsed into symbols since.
NEWLY_PARSED = ("kotlin", "swift", "scala", "lua", "shell")


def _reread_newly_parsed_files(store: Any) -> None:
    """20 -> 21: Kotlin, Swift, Scala, Lua and Bash are parsed into symbols. The rows of
    their files (stored as text, without symbols) go: the next run reads them again, through
    the parser."""
    _drop_files(store, in_list("language", NEWLY_PARSED))


# The languages whose symbols changed in 22 (as schema 21 labels their files).
REPARSED_22 = ("kotlin", "swift", "lua")


def _reread_kotlin_swift_lua_files(store: Any) -> None:
    """21 -> 22: Swift's operator functions are symbols, a Kotlin secondary constructor is
    named by its class and an annotation class under `@Target(...)` is found, and a Lua
    function of a table (`function M.new()`) is a function unless it takes `self`. The rows of
    their files go: the next run parses them again."""
    _drop_files(store, in_list("language", REPARSED_22))


# Upgrades from an older schema version: {from_version: function(store)}, run under the write
# lock. A version without an entry is rebuilt from the working tree (the index is derived data).
MIGRATIONS: dict[int, Any] = {
    15: _reread_lone_cr_files,
    16: _reread_source_mapped_files,
    17: _reread_newly_secret_files,
    18: _redo_newly_secret_files_and_commits,
    19: _reread_parsed_files,
    20: _reread_newly_parsed_files,
    21: _reread_kotlin_swift_lua_files,
}


def quote(value: str) -> str:
    """A SQL string literal for a LanceDB filter."""
    return "'" + valid_text(value).replace("'", "''") + "'"


def in_list(column: str, values: Iterable[str]) -> str:
    return f"{column} IN ({', '.join(quote(v) for v in values)})"


def _fts_config() -> Any:
    return FTS(
        base_tokenizer="whitespace", lower_case=True, stem=True, remove_stop_words=False,
        ascii_folding=True, with_position=False, max_token_length=tok.MAX_TOKEN,
    )  # fmt: skip
