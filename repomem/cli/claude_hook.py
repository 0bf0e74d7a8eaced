"""`repomem claude-hook` without typer.

Claude Code runs the hook on every prompt the user sends, and the prompt waits for it; most
prompts need nothing (the session has its pack, a slash command, a short reply), so the hook
must not pay for typer and the other commands' modules. `main` (the console script) sends a
`claude-hook` command line here first: `parse_args` reads it as typer reads it for the
`serve.claude_hook` command, and `main` below runs the hook as typer runs that command.

Read here: the global `-C PATH`, `--repo PATH`, `--repo=PATH`, `-v` and `--verbose` before the
subcommand; after it `--every-prompt`, `--record-sessions` and `--max-chars N` (`=N`), the last
one given counting, and anything else ignored (an option a later repomem adds, in settings
shared with the team). Whatever this is not sure of goes through typer (`parse_args` says
None): `--help`, `--version`, `--finish-sessions` (the background recording), a value typer
rejects (its message, exit status 1), `--`, `-vC PATH` and other combined forms, shell
completion, and on Windows the words typer expands as a shell would (`~`, `%VAR%`, `*`).

`run` is the hook itself, for both ways in.
"""

from __future__ import annotations

import errno
import os
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn

SUBCOMMAND = "claude-hook"  # as `repomem.server.claude_hooks.SUBCOMMAND` (not imported: cost)
MIN_MAX_CHARS = 1000  # `--max-chars` below this is an error (typer's `min`)
TTY_MESSAGE = (
    "repomem: claude-hook reads a Claude Code hook's JSON on stdin; Claude Code runs it "
    "(install it with `repomem claude-hooks --write`)."
)
_ASIDE = ("--every-prompt", "--record-sessions", "--finish-sessions", "--help")


@dataclass(frozen=True)
class HookArgs:
    """A `claude-hook` command line: the global options and the hook's."""

    repo: Path | None = None
    verbose: bool = False
    every_prompt: bool = False
    record_sessions: bool = False
    max_chars: int | None = None


def parse_args(argv: Sequence[str], environ: Mapping[str, str]) -> HookArgs | None:
    """`argv` (without the program) as a `claude-hook` command line, or None when it is none
    or not one this reads exactly as typer does."""
    if any(name.startswith("_") and name.endswith("_COMPLETE") for name in environ):
        return None  # typer's shell completion (`_REPOMEM_COMPLETE`)
    if os.name == "nt" and any(c in arg for arg in argv for c in "~$%*?["):
        return None  # typer expands these on Windows, as a shell would
    repo: Path | None = None
    verbose = False
    i = 0
    while i < len(argv) and argv[i] != SUBCOMMAND:
        arg = argv[i]
        if arg in ("-v", "--verbose"):
            verbose, i = True, i + 1
            continue
        if arg in ("-C", "--repo") and i + 1 < len(argv):
            value, i = argv[i + 1], i + 2
        elif arg.startswith("--repo="):
            value, i = arg.partition("=")[2], i + 1
        else:
            return None  # another command, or a global option typer has to judge
        repo = _repo_path(value)
        if repo is None:
            return None
    if i >= len(argv):
        return None
    every_prompt = record_sessions = False
    max_chars: int | None = None
    rest = list(argv[i + 1 :])
    while rest:
        arg = rest.pop(0)
        if arg == "--every-prompt":
            every_prompt = True
        elif arg == "--record-sessions":
            record_sessions = True
        elif arg == "--max-chars" or arg.startswith("--max-chars="):
            if arg == "--max-chars" and not rest:
                return None
            max_chars = _max_chars(rest.pop(0) if arg == "--max-chars" else arg.partition("=")[2])
            if max_chars is None:
                return None
        elif arg == "--" or arg.partition("=")[0] in _ASIDE:
            return None
        # else: ignored, as typer ignores an option it does not know and any other word
    return HookArgs(repo, verbose, every_prompt, record_sessions, max_chars)


def _repo_path(value: str) -> Path | None:
    """`-C`'s value as typer takes it (None: typer has to judge it, or reject it as unreadable)."""
    if not value or value.startswith("-"):
        return None
    try:
        value.encode("utf-8")
        os.stat(value)
    except UnicodeEncodeError:  # bytes that are not UTF-8, kept as surrogates
        return None
    except (OSError, ValueError):
        return Path(value)  # need not exist: `config.load` says what is wrong
    return Path(value) if os.access(value, os.R_OK) else None


def _max_chars(value: str) -> int | None:
    """`--max-chars`' value when plainly a number typer accepts (digits, at least 1000)."""
    if not (value.isascii() and value.isdigit()) or value[0] == "0" or len(value) > 18:
        return None
    number = int(value)
    return number if number >= MIN_MAX_CHARS else None


def run(
    repo: Path | None,
    *,
    every_prompt: bool,
    record_sessions: bool,
    max_chars: int | None,
    say: Callable[[str], None],
) -> int:
    """The hook: Claude Code's JSON on stdin, what it adds to the conversation on stdout; the
    exit status (1, said with `say` on stderr, when the input or the repository is wrong;
    Claude Code shows that without blocking the prompt)."""
    if sys.stdin.isatty():
        say(TTY_MESSAGE)
        return 1
    from repomem import config
    from repomem.errors import RepomemError
    from repomem.server import claude_hooks as hooks

    try:
        # Claude Code writes and reads UTF-8, whatever the locale (a Windows console's code
        # page would garble the prompt and fail on the first character outside it)
        hook = hooks.parse(hooks.read_input(sys.stdin.fileno()), parent=os.getppid())
        cfg = config.load(repo or hooks.start_dir(hook, os.environ))
        text = hooks.context_for(
            cfg, hook, every_prompt=every_prompt, max_chars=max_chars or hooks.MAX_CHARS,
            record_sessions=record_sessions,
        )  # fmt: skip
    except RepomemError as exc:
        say(f"repomem: {exc}")
        return 1
    sys.stdout.buffer.write(text.encode("utf-8"))
    sys.stdout.flush()
    return 0


def main(args: HookArgs) -> NoReturn:
    """Run the hook as typer runs the `claude-hook` command: logging set up as `-v` says, its
    status as the exit status, Ctrl-C as status 130, a reader gone from stdout as status 1.

    Raises:
        SystemExit: always.
    """
    from repomem.cli._state import configure_logging, state

    state.repo, state.verbose = args.repo, args.verbose
    configure_logging(args.verbose)
    try:
        status = run(
            args.repo, every_prompt=args.every_prompt, record_sessions=args.record_sessions,
            max_chars=args.max_chars, say=say,
        )  # fmt: skip
    except KeyboardInterrupt:
        raise SystemExit(130) from None
    except OSError as exc:
        if exc.errno != errno.EPIPE:
            raise
        # Claude Code stopped reading (it gave up on the hook): no traceback, nor a second
        # one when the interpreter flushes stdout at exit
        sys.stdout = _Pacified(sys.stdout)
        sys.stderr = _Pacified(sys.stderr)
        raise SystemExit(1) from None
    raise SystemExit(status)


def say(message: str) -> None:
    """`message` and a newline on stderr, as `typer.echo(message, err=True)` writes them: ANSI
    codes left out unless stderr is a terminal, UTF-8 when stderr's encoding is ASCII."""
    import re

    stream = sys.stderr
    if stream is None:  # no stderr at all (pythonw)
        return
    text = message + "\n"
    try:
        terminal = stream.isatty()
    except Exception:  # a stream without a file: not a terminal (as click says)
        terminal = False
    if not terminal:
        text = re.sub(r"\033\[[;?0-9]*[a-zA-Z]", "", text)
    if _ascii(getattr(stream, "encoding", None) or "ascii") and hasattr(stream, "buffer"):
        import io

        stream.flush()
        fixed = io.TextIOWrapper(stream.buffer, "utf-8", "replace", line_buffering=True)
        try:
            fixed.write(text)
            fixed.flush()
        finally:
            fixed.detach()  # stderr's buffer stays open
        return
    stream.write(text)
    stream.flush()


def _ascii(encoding: str) -> bool:
    import codecs

    try:
        return codecs.lookup(encoding).name == "ascii"
    except LookupError:
        return False


class _Pacified:
    """A standard stream whose `flush` ignores a closed pipe (click's `PacifyFlushWrapper`)."""

    def __init__(self, wrapped: Any) -> None:
        self.wrapped = wrapped

    def flush(self) -> None:
        try:
            self.wrapped.flush()
        except OSError as exc:
            if exc.errno != errno.EPIPE:
                raise

    def __getattr__(self, name: str) -> Any:
        return getattr(self.wrapped, name)
