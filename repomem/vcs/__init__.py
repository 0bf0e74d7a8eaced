"""Git access (the only package importing GitPython, and only in `gitpython`).

File enumeration uses `git ls-files` through GitPython's command wrapper (milliseconds for
thousands of files); commits and status use GitPython's object model. A git command that
fails where a function does not expect it leaves the function as `GitError` (one line, in
git's words), so callers handle it as any other `RepomemError`.

The package, by concern: `gitpython` (the one module importing `git`, on first use: the Repo
per thread, `git_error`, and the translation of a failed command into `GitError` that every
other module applies to its public functions), `location` (where a repository is: its git
directory, read from the files without GitPython where it can be, the other work trees, HEAD
and branch, git's location variables), `files` (the files git lists, the uncommitted ones,
submodules' files), `gitconfig` (`.git/config` keys, the hooks folder, `info/exclude`),
`changes` (what changed between commits and the work tree, a file at a commit, renames) and
`history` (the commit log, a file's history, ancestry, HEAD's reflog). Callers use the names
below: `from repomem import vcs`, then `vcs.list_files(...)`.
"""

from __future__ import annotations

from repomem.vcs.changes import changes_since, commit_changes, renamed_to, show_file
from repomem.vcs.files import MAX_SUBMODULE_DEPTH, dirty_paths, list_files
from repomem.vcs.gitconfig import (
    config_get,
    config_remove_section,
    config_scope,
    config_set,
    config_unset,
    hooks_dir,
    ignore_locally,
)
from repomem.vcs.gitpython import git_error
from repomem.vcs.history import (
    SHAS_PER_CALL,
    Commit,
    commit_ids,
    commit_log,
    commits_made,
    commits_named,
    commits_since,
    file_history,
    is_ancestor,
    reflog_at,
    reflog_size,
    resolve_rev,
)
from repomem.vcs.location import (
    LOCATION_VARS,
    GitInfo,
    forget_location_env,
    git_dir,
    head,
    open_repo,
    sibling_git_dirs,
    work_tree_of,
)

__all__ = [
    "LOCATION_VARS",
    "MAX_SUBMODULE_DEPTH",
    "SHAS_PER_CALL",
    "Commit",
    "GitInfo",
    "changes_since",
    "commit_changes",
    "commit_ids",
    "commit_log",
    "commits_made",
    "commits_named",
    "commits_since",
    "config_get",
    "config_remove_section",
    "config_scope",
    "config_set",
    "config_unset",
    "dirty_paths",
    "file_history",
    "forget_location_env",
    "git_dir",
    "git_error",
    "head",
    "hooks_dir",
    "ignore_locally",
    "is_ancestor",
    "list_files",
    "open_repo",
    "reflog_at",
    "reflog_size",
    "renamed_to",
    "resolve_rev",
    "show_file",
    "sibling_git_dirs",
    "work_tree_of",
]
