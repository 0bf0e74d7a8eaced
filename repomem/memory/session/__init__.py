"""Sessions: what one stretch of work set out to do, learned and changed.

`start()` records the time, HEAD and the dirty files (with their content hashes and symbols)
in `<state dir>/session.json`, local to the clone. `end()` compares the work tree with that
snapshot through git and the parser: commits made, files added/modified/deleted/renamed, and
symbols added, removed or changed; then appends one entry to the memory file with the summary
and the learned facts. A session left open (a crash, a closed terminal) is reported and can be
ended or discarded.

A session opened for a client (a Claude Code session, see `repomem.server.claude_sessions`)
names it in its record's `owner`, so only that client ends it; one opened by hand has none. The
client may `set_aside` the record when its own session ends, which frees the slot for the next
session at once, and `end(record=...)` it later. The record set aside keeps where the session
ended (the time, and HEAD's reflog then), so a late `end` counts the commits made up to there
and not the next session's; the work tree is not kept, so its uncommitted edits count only
while HEAD has not moved since (once the next session committed or checked out, they can no
longer be told from its own, and are left out).

Ending is idempotent: a process that dies after writing the session's entry and before removing
its record (`session.json`, or the record set aside) leaves both, and the next `end` of that
record finds the entry (`recorded`: the same start, in Sessions or folded into History) and
only removes the record. It adds nothing then: no second entry, no learned fact merged into
itself, no next step opened again that was ticked off since, no second compaction.

The package, by concern: `opening` (the open session's record: `start`, `retitle`, `note`,
`set_aside`, `discard`, under the record's lock), `diff` (what the work tree and history
changed since a record was taken: `changes`, the session's own commits told from others') and
`ending` (`end`: the entry added to the memory file, learned facts and next steps, compaction,
and whether an earlier end recorded it already; `listing`). The record's file and lock live in
`repomem.memory.session_record`, outside this package, so that a Claude Code hook reads them
without importing the parser. Callers use the names below: `from repomem.memory import
session`, then `session.start(...)`.
"""

from __future__ import annotations

from repomem.memory.session.diff import MAX_FILES, MAX_SYMBOLS, Changes, changes
from repomem.memory.session.ending import EndResult, already_note, end, listing, recorded
from repomem.memory.session.opening import discard, note, retitle, set_aside, start
from repomem.memory.session_record import open_session

__all__ = [
    "MAX_FILES",
    "MAX_SYMBOLS",
    "Changes",
    "EndResult",
    "already_note",
    "changes",
    "discard",
    "end",
    "listing",
    "note",
    "open_session",
    "recorded",
    "retitle",
    "set_aside",
    "start",
]
