"""What the hook files hold: the script installed at each hook (it runs a preserved hook first),
the block added to a husky hook, and the shell lines both share that start the background
refresh (`_launcher`, which `background.start_refresh` runs too)."""

from __future__ import annotations

import re
import sys

HOOKS = ("post-commit", "post-merge", "post-checkout", "post-rewrite")
MARKER = "# repomem-hook: managed by `repomem hooks install`"
HOOK_VERSION = 2
ORIG_SUFFIX = ".repomem-orig"
# `pre-commit install` finding a hook keeps it as `<hook>.legacy` and runs it from its own script
LEGACY_SUFFIX = ".legacy"
BLOCK_START = "# >>> repomem: keep the index fresh (`repomem hooks uninstall` removes this) >>>"
BLOCK_START_NL = BLOCK_START + " [newline added]"
CREATED = "#!/bin/sh\n# created by repomem\n"
BLOCK_END = "# <<< repomem <<<"
LOG_LIMIT = 1_000_000  # bytes; the log is rotated to hooks.log.1 past this


def _quote(text: str) -> str:
    return "'" + text.replace("'", "'\"'\"'") + "'"


def _launcher(python: str, name: str) -> str:
    """Shell lines that start the background refresh (shared by scripts and husky blocks)."""
    return f"""repomem_py={_quote(python)}
repomem_log="$(git rev-parse --git-dir 2>/dev/null)/repomem/hooks.log"
mkdir -p "$(dirname "$repomem_log")" 2>/dev/null || true
if [ -f "$repomem_log" ] && [ "$(wc -c < "$repomem_log")" -gt {LOG_LIMIT} ]; then
    mv -f "$repomem_log" "$repomem_log.1" 2>/dev/null || true
fi
(
    # git's variables would point the refresh at a hook's temporary index.
    unset GIT_DIR GIT_INDEX_FILE GIT_WORK_TREE GIT_PREFIX GIT_OBJECT_DIRECTORY
    if [ -x "$repomem_py" ] && "$repomem_py" -c 'import repomem' >/dev/null 2>&1; then
        set -- "$repomem_py" -m repomem
    elif command -v repomem >/dev/null 2>&1; then
        set -- repomem
    else
        echo "$(date -u '+%Y-%m-%dT%H:%M:%SZ') {name}: repomem not found" \\
            "($repomem_py is gone or no longer has it); install repomem, then run" \\
            "\\`repomem hooks install\\` again" >> "$repomem_log"
        exit 0
    fi
    # One refresh waiting for the index's lock is enough: it will see this change too.
    repomem_pending="$(dirname "$repomem_log")/hooks.pending"
    if [ -f "$repomem_pending" ] && kill -0 "$(cat "$repomem_pending" 2>/dev/null)" 2>/dev/null
    then
        echo "$(date -u '+%Y-%m-%dT%H:%M:%SZ') {name}: a refresh is already queued" \
            >> "$repomem_log"
        exit 0
    fi
    echo "$(date -u '+%Y-%m-%dT%H:%M:%SZ') {name}: repomem index" >> "$repomem_log"
    nohup sh -c 'echo $$ > "$1"; shift; exec "$@"' sh "$repomem_pending" \
        "$@" hooks run --marker "$repomem_pending" >> "$repomem_log" 2>&1 < /dev/null &
) >/dev/null 2>&1 < /dev/null
"""


def script(name: str, python: str | None = None) -> str:
    """The hook file installed at `name` (runs a preserved hook first, then the refresh)."""
    py = python or sys.executable
    return f"""#!/bin/sh
{MARKER}
# repomem-hook-version: {HOOK_VERSION}
# Runs the hook that was here before (kept as {name}{ORIG_SUFFIX}), then starts
# `repomem index` in the background; this never slows down or fails the git command.
repomem_status=0
repomem_orig="$(dirname "$0")/{name}{ORIG_SUFFIX}"
if [ -x "$repomem_orig" ]; then
    "$repomem_orig" "$@"
    repomem_status=$?
fi
{_launcher(py, name)}exit $repomem_status
"""


def _block(name: str, python: str, newline_added: bool) -> str:
    # first in a script husky runs with `sh -e`: nothing of ours may end it (a failing command
    # in a `||` list does not), nor read the standard input the user's commands get
    start = BLOCK_START_NL if newline_added else BLOCK_START
    return f"{start}\n{{\n{_launcher(python, name)}}} < /dev/null || true\n{BLOCK_END}\n"


# husky 4 to 8's line sourcing `_/husky.sh`, which runs the file again (`sh -e`) and exits
# with its status: a block before it would run twice
_HUSKY_LINE = re.compile(r"[ \t]*\.[ \t]+[^\n]*husky\.sh[\"']?[ \t]*(?:\n|\Z)")


def _top(text: str) -> int:
    """Where a husky block goes in `text`: before every command of the script, so that no
    `exit`, `exec` or failing command (husky runs it with `sh -e`) comes before it; after its
    `#!` line, comments and blank lines, and husky's own line when it has one."""
    at = 0
    while at < len(text):
        end = text.find("\n", at)
        end = len(text) if end < 0 else end + 1
        line = text[at:end].strip()
        if line and not line.startswith("#"):
            husky = _HUSKY_LINE.match(text, at)
            return husky.end() if husky is not None else at
        at = end
    return at


def _placed(text: str, name: str, python: str) -> str:
    """`text` (without a block) with the block at `_top`."""
    at = _top(text)
    if at == len(text) and text and not text.endswith("\n"):
        return text + "\n" + _block(name, python, True)
    return text[:at] + _block(name, python, False) + text[at:]


def _remove_block(text: str) -> str:
    for start in (BLOCK_START_NL, BLOCK_START):
        i = text.find(start + "\n")
        if i < 0:
            continue
        j = text.find(BLOCK_END + "\n", i)
        if j < 0:
            continue
        end = j + len(BLOCK_END) + 1
        if start == BLOCK_START_NL and i > 0 and text[i - 1] == "\n":
            i -= 1
        return text[:i] + text[end:]
    return text
