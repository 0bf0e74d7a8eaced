"""Which files of a repository get indexed, and reading them safely.

Listing: tracked plus untracked-but-not-ignored files from git, or a plain walk of a folder that
is not a git work tree (honouring `.gitignore` files there too). `.repomemignore` (gitignore
syntax, at the root) and the `index.exclude` globs apply on top.

Every file that is not indexed gets a counted reason, never a crash:

    secret       credential files by name (`.env*`, `*.pem`, `id_rsa*`, keystores, ...)
    vendored     inside a vendored folder (`node_modules`, `vendor`, ...)
    ignored      matched by `.repomemignore` or `index.exclude`
    memory       the project memory file (packed and searched from its own table)
    repomem      repomem's own settings (`.repomem`, `.repomemignore`): not the project's
    symlink-outside, symlink-loop, symlink-dir, symlink-broken
    too-large    over `index.max_file_size`
    binary       NUL bytes, or a known binary extension
    generated    lock files, minified bundles, files marked "@generated" / "DO NOT EDIT",
                 context packs repomem wrote, builds ending in a
                 `sourceMappingURL` comment
    minified     very long lines
    unreadable   permission denied or an I/O error
    vanished     deleted between listing and reading
    not-a-file   a directory, socket, FIFO or device (e.g. a git submodule)
    bad-name     a file name that is not UTF-8 (rename it to index it)
    text-disabled  a file without a parser while `index.index_text_files` is off

The package, by concern: `rules` (what a path's name says: credential files, vendored folders,
ignore files and `index.exclude`, binary and generated names; the `Filter` that applies them,
its verdicts remembered per settings and saved between processes), `listing` (the candidate
files: git's listing, or a walk of a plain folder honouring its `.gitignore` files) and
`reading` (a candidate's `stat` and bytes: too large, binary, generated or minified content,
the decoded text and its content hash). Callers use the names below:
`from repomem.index import discovery`, then `discovery.read_file(...)`.
"""

from __future__ import annotations

from repomem.index.discovery.listing import (
    ALWAYS_PRUNED,
    Listing,
    git_files,
    list_candidates,
    unmatched_excludes,
)
from repomem.index.discovery.reading import (
    GENERATED_BANNER,
    PACK_OUTPUT,
    SNIFF,
    SOURCE_MAP_TAIL,
    FileData,
    Skip,
    content_hash,
    file_hash,
    read_file,
    stat_file,
    work_tree_hash,
)
from repomem.index.discovery.rules import (
    BINARY_EXTENSIONS,
    GENERATED_NAMES,
    GENERATED_SUFFIXES,
    IGNORE_FILE,
    SKIP_REASONS,
    Filter,
)

__all__ = [
    "ALWAYS_PRUNED",
    "BINARY_EXTENSIONS",
    "GENERATED_BANNER",
    "GENERATED_NAMES",
    "GENERATED_SUFFIXES",
    "IGNORE_FILE",
    "PACK_OUTPUT",
    "SKIP_REASONS",
    "SNIFF",
    "SOURCE_MAP_TAIL",
    "FileData",
    "Filter",
    "Listing",
    "Skip",
    "content_hash",
    "file_hash",
    "git_files",
    "list_candidates",
    "read_file",
    "stat_file",
    "unmatched_excludes",
    "work_tree_hash",
]
