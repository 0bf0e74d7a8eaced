"""The one exception tree of repomem.

    RepomemError
    ├── ConfigError        bad `.repomem` file, environment variable or flag value
    ├── NotARepoError      the path given is not a directory we can work in
    ├── StoreError         the index store is missing, locked, corrupt or too new
    │   └── LockTimeoutError   another process holds the store's write lock
    ├── ParseError         a grammar or query could not be loaded
    ├── NotFoundError      a symbol, file or entry asked for does not exist
    ├── MemoryFileError    the project memory file is malformed
    ├── BudgetError        a token budget too small for what must fit
    ├── InputError         a bad argument (an empty task, an unreadable task file)
    ├── HookError          git hooks or the merge driver cannot be installed or removed, or a
    │                      hook's background work cannot start
    └── LLMError           the Anthropic API failed or is misconfigured

Every message is one sentence saying what happened and what to do.
"""

from __future__ import annotations


class RepomemError(Exception):
    """Base of every error repomem raises on purpose (user mistakes, bad data)."""


class ConfigError(RepomemError):
    """A configuration key, value or file is wrong."""


class NotARepoError(RepomemError):
    """The given path is not a directory repomem can work in."""


class StoreError(RepomemError):
    """The index store is missing, locked, corrupt or from a newer version."""


class WriteAccessError(StoreError, OSError):
    """A file or folder repomem writes (its locks, the memory file, session state) cannot be
    written: permissions, a read-only disk, a full disk. Also an `OSError`, so that code
    writing only a cache (`except OSError`) goes on without it."""


class LockTimeoutError(StoreError):
    """Another process held the store's write lock for too long."""


class ParseError(RepomemError):
    """A grammar or tag query could not be loaded."""


class NotFoundError(RepomemError):
    """A symbol, file or memory entry that was asked for does not exist."""


class MemoryFileError(RepomemError):
    """The project memory file is malformed."""


class BudgetError(RepomemError):
    """A token budget is too small for what must fit."""


class InputError(RepomemError):
    """An argument is unusable: an empty task, a missing task file."""


class LLMError(RepomemError):
    """The Anthropic API failed or is misconfigured."""


class HookError(RepomemError):
    """Git hooks or the merge driver cannot be installed or removed, or what a hook starts in
    the background cannot start."""


class GitError(RepomemError):
    """git itself refused a command (a broken `.git/config`, a corrupt object)."""
