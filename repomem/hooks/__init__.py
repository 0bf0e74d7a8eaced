"""Git hooks that keep the index fresh, and the memory file's merge driver.

`install` puts a small shell script at post-commit, post-merge, post-checkout and post-rewrite.
It starts `repomem hooks run` (an index run) in the background, detached (`nohup ... &`, all
output to `<state dir>/hooks.log`), so the git command neither waits for it nor fails because
of it. While one refresh waits for the index's lock, further hooks start nothing (a rebase fires
a hook per commit): the waiting refresh will see their changes too.

Where the hooks go:

- the folder git runs hooks from: `.git/hooks`, or `core.hooksPath` when set (`git rev-parse
  --git-path hooks` answers both), unless the global or system git config sets it: every
  repository runs hooks from that folder, so each commit anywhere would start an index;
- husky (core.hooksPath is `.husky/_` or `.husky`): husky's own scripts call the user's
  `.husky/<hook>` files, so a marked block goes into those (created when missing), before
  their commands: an `exit`, `exec` or failing command (husky runs them with `sh -e`) may
  come anywhere after it;
- pre-commit framework: its scripts in `.git/hooks` are ordinary hooks and are chained like any
  other. A later `pre-commit install` keeps ours as `<hook>.legacy` and still runs it: ours
  is then updated, reported and uninstalled there, pre-commit's script left alone.

An existing hook is preserved: it is renamed `<hook>.repomem-orig` and our script runs it first,
with the same arguments and standard input, and exits with its status. `uninstall` moves it back
byte for byte; a husky block is removed exactly as it was added. A hooks folder that install
had to create (a `core.hooksPath` not made yet) is noted in git config and removed again when
it is left empty; a folder that was there before stays.

The package, by concern: `scripts` (what the hook files hold: the script, the husky block and
the launcher both share), `state` (where the hooks go and the state each is in), `installer`
(install and uninstall: chaining, husky blocks, pre-commit's `.legacy`, a hooks folder made),
`background` (what a hook starts: the refresh, started detached, and its log) and
`merge_driver` (the memory file's merge driver in `.git/config` and `.gitattributes`). Callers
use the names below: `from repomem import hooks`, then `hooks.install(...)`.
"""

from __future__ import annotations

from repomem.hooks.background import log_path, refresh, start_background, start_refresh
from repomem.hooks.installer import install, uninstall
from repomem.hooks.merge_driver import (
    MERGE_DRIVER,
    merge_driver_state,
    register_merge_driver,
    unregister_merge_driver,
)
from repomem.hooks.scripts import (
    BLOCK_END,
    BLOCK_START,
    BLOCK_START_NL,
    CREATED,
    HOOK_VERSION,
    HOOKS,
    LEGACY_SUFFIX,
    LOG_LIMIT,
    MARKER,
    ORIG_SUFFIX,
    script,
)
from repomem.hooks.state import HookState, location, status

__all__ = [
    "BLOCK_END",
    "BLOCK_START",
    "BLOCK_START_NL",
    "CREATED",
    "HOOKS",
    "HOOK_VERSION",
    "LEGACY_SUFFIX",
    "LOG_LIMIT",
    "MARKER",
    "MERGE_DRIVER",
    "ORIG_SUFFIX",
    "HookState",
    "install",
    "location",
    "log_path",
    "merge_driver_state",
    "refresh",
    "register_merge_driver",
    "script",
    "start_background",
    "start_refresh",
    "status",
    "uninstall",
    "unregister_merge_driver",
]
