"""Claude Code hooks: a context pack added to a session's first task, without a tool call.

An MCP client only gets a pack when the model decides to ask for one. Claude Code also runs
*hooks*: commands it starts at points of a session, giving them a JSON object on stdin; what
a `SessionStart` or `UserPromptSubmit` hook prints (exit status 0) is added to the model's
context. `repomem claude-hook` is such a command:

- `UserPromptSubmit` (the user sent a prompt): the first prompt of a session that reads like a
  task gets a pack for it (Markdown, within `MAX_CHARS` characters in UTF-16: Claude Code
  keeps about 10,000 characters of a hook's output and replaces a longer one by a short
  preview). Later
  prompts of the session get nothing (the model can still call `context_pack`), unless
  `every_prompt`: a pack on every turn fills the context window. Slash commands and prompts
  of fewer than `MIN_WORDS` words (`yes`, `go on`) are skipped.
- `SessionStart` after a start, `/clear` or a compaction (not a resume or a fork, whose
  conversation is still there): the project memory's digest (overview, conventions, open
  next steps, the latest sessions and the compacted history, within `DIGEST_CHARS`
  characters; nothing when the memory is empty), so "go on where we stopped" works without a
  tool call; and the session counts as not packed, so its next task gets a pack again (a
  compaction summarises the earlier one away). Two repomem hooks of one start (yours in
  `settings.local.json`, the team's in `settings.json`, run at once) print it once.
- `SessionEnd`, and the two above, with `record_sessions` (`--record-sessions`): each Claude Code
  session is recorded as a repomem session in the project memory (`claude_sessions`).

The sessions packed are kept in the index's state folder (`claude-sessions.json`, a week).
A worktree without an index starts from a copy of a sibling worktree's (`claude --worktree`
sessions: see `repomem.index.indexer.seed`), refreshed like a stale one. A repository without
an index gets a one-line hint instead of a pack (once a session, and
again after a start that counts it as not packed: Claude Code shows it as an error notice,
which on every prompt would be noise): building the index inside a hook could outlast the
hook's time limit. For the same reason a stale index is refreshed first only when few files
changed (`REFRESH_AT_MOST`); else the pack says it is stale and the refresh runs in the
background. The new mtimes of files whose content did not change (every file of a new
worktree) are recorded inline: they go to the stat cache, which costs milliseconds and
leaves the full-text indexes as they were (`repomem.index.store.stats`).

`settings_entry` and `write_settings` put the hooks into `.claude/settings.local.json`
(personal: git is told to ignore it in this clone, through `info/exclude`, unless something
ignores it already) or `.claude/settings.json` (shared with the team: `hook_command` then
runs the repomem on each one's PATH, and nothing where there is none).

The package, by concern: `hookinput` (what Claude Code passes a hook: read from stdin without
waiting on a pipe left open, parsed, and the folder the repository is looked for from),
`context` (what the hook prints: the pack for a session's first task, the memory's digest at
its start, the session recorded), `packed` (the sessions packed or told to run `repomem init`,
in `claude-sessions.json` under its lock) and `settings` (the hook command and its entries in
Claude Code's settings files). Callers use the names below: `from repomem.server import
claude_hooks as hooks`, then `hooks.context_for(...)`.
"""

from __future__ import annotations

from repomem.server.claude_hooks.context import (
    DIGEST_CHARS,
    KEPT_CONVERSATION,
    MAX_CHARS,
    MIN_WORDS,
    PREAMBLE,
    REFRESH_AT_MOST,
    context_for,
    memory_digest,
    reads_like_a_task,
    task_text,
)
from repomem.server.claude_hooks.hookinput import (
    EVENTS,
    QUIET_SECONDS,
    HookInput,
    parse,
    read_input,
    start_dir,
)
from repomem.server.claude_hooks.packed import (
    HINTED,
    KEEP_SECONDS,
    KINDS,
    LOCK_SECONDS,
    PACKED,
    SESSIONS_FILE,
    SESSIONS_LOCK,
    SESSIONS_VERSION,
    STARTED,
    Sessions,
)
from repomem.server.claude_hooks.settings import (
    PACK_EVENTS,
    SETTINGS_FILES,
    SUBCOMMAND,
    TIMEOUT_SECONDS,
    hook_command,
    settings_entry,
    settings_path,
    write_settings,
)

__all__ = [
    "DIGEST_CHARS",
    "EVENTS",
    "HINTED",
    "KEEP_SECONDS",
    "KEPT_CONVERSATION",
    "KINDS",
    "LOCK_SECONDS",
    "MAX_CHARS",
    "MIN_WORDS",
    "PACKED",
    "PACK_EVENTS",
    "PREAMBLE",
    "QUIET_SECONDS",
    "REFRESH_AT_MOST",
    "SESSIONS_FILE",
    "SESSIONS_LOCK",
    "SESSIONS_VERSION",
    "SETTINGS_FILES",
    "STARTED",
    "SUBCOMMAND",
    "TIMEOUT_SECONDS",
    "HookInput",
    "Sessions",
    "context_for",
    "hook_command",
    "memory_digest",
    "parse",
    "read_input",
    "reads_like_a_task",
    "settings_entry",
    "settings_path",
    "start_dir",
    "task_text",
    "write_settings",
]
