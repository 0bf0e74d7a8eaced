"""What a task text points at: identifiers, file paths, stack-trace frames and issues.

Issue texts name code in a few recognisable ways: `backticked` names, CamelCase and snake_case
identifiers, calls (`Rational(0.5)`), dotted paths (`pkg.mod.func`), file paths (`src/app.py`),
and traceback frames (`File "x/y.py", line 12, in func`, `at fn (src/a.js:10:5)`, a Go
panic's `pkg.(*T).fn(...)` over `\tx/y.go:12`, a JVM stack's `at com.foo.Bar.baz(Bar.kt:12)`,
.NET's `at Ns.Type.Method() in C:/src/File.cs:line 12`, a Swift crash's
`3  App  0x10a1b2c4 Cart.add(_:) + 40 (Cart.swift:42)`). These become exact-hit signals for
ranking, on top of full-text search.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field

from repomem.fsutil import nfc
from repomem.index import tokens as tok

MAX_TASK_CHARS = 60_000
SKIP_PATH_WORDS = True  # words of file paths and URLs are not identifiers
CLASS_OF_METHOD = True  # `Expression.compile` names `Expression` too
CALL_NAMES = True  # `Rational(0.5, 100)` names `Rational` (dev split: R@5 +0.015)
DROP_NOISE = True  # hidden template comments and interpreter banners are not the task's words
ANY_PATHS = True  # absolute paths, and paths with a folder and any extension, are mentions too

_PATH = re.compile(
    r"(?<![\w/.-])((?:[\w.-]+/)*[\w.-]+\.(?:py|pyi|js|jsx|mjs|cjs|ts|tsx|go|rs|java|c|h|cc|cpp|"
    r"hpp|cs|rb|php|kts|kt|swift|scala|lua|sh|bash|md|rst|toml|yaml|yml|json|cfg|ini|txt))\b"
)
# Any path with a folder, absolute or not, with any extension or none (`/home/me/gin/errors.go`,
# `~/src/ci/utils.sh`, `ci/test-complete`): a mention only where its tail names a file.
_ANY_PATH = re.compile(r"(?<![\w.:/~-])(?:~|[A-Za-z]:)?/?((?:[\w.-]+/)+[\w.-]*\w)")
_TRACE_HEAD = re.compile(r"Traceback \(most recent call last\)")
_PY_FRAME = re.compile(r'File "([^"]+)", line (\d+)(?:, in (\w+))?')
_JS_FRAME = re.compile(r"at (?:([\w.$<>]+) )?\(?([^\s()]+?):(\d+)(?::\d+)?\)?")
# A Go panic's frame: the function (package path, receiver, `.func1` for a closure) called
# with its arguments, then a tab and `file.go:line`; each goroutine's trace innermost first.
_GO_FRAME = re.compile(r"(?m)^([\w./*()\[\]~-]+)\([^\n]*\)[ \t]*\r?\n\t([^\s:]+\.go):(\d+)")
_GO_HEAD = re.compile(r"(?m)^goroutine \d+ \[")
_GO_CLOSURE = re.compile(r"(?:\.func\d+)+(?:\.\d+)*$")
# A JVM frame (Java, Kotlin, Scala): `at [module/]pkg.Class$Inner.method(File.kt:12)`; the file
# sits in the package's folder. Innermost first; `Caused by:` starts the next exception's.
_JVM_FRAME = re.compile(
    r"(?m)^[ \t]*at (?:[\w.-]+/)?((?:[\w$]+\.)*)([\w$]+)\.([\w$<>-]+)"
    r"\(([\w$.-]+\.(?:java|kt|kts|scala|groovy)):(\d+)\)"
)
# A .NET frame: `at Ns.Type.Method(args) in C:\src\File.cs:line 12`, innermost first.
_NET_FRAME = re.compile(
    r"(?m)^[ \t]*at ((?:[\w`<>\[\],+]+\.)*)(\.?[\w`<>]+)\([^()\n]*\) in ([^\n]+?\.cs):line (\d+)"
)
# A Swift frame: a crash report's `3  App  0x10a1b2c4 Cart.add(_:) + 40 (Cart.swift:42)`,
# lldb's `frame #0: 0x10a1 App`Cart.add(item=...) at Cart.swift:42:9`, and a fatal error's
# `Shop/Cart.swift:42: Fatal error: ...` or `..., file Shop/Cart.swift, line 42`. A path starts
# a word (`(?<!\S)`): tried from inside a long word, the search went quadratic (10 s on 20,000
# characters).
_SWIFT_FRAME = re.compile(
    r"(?m)^[ \t]*(?:\d+[ \t]+\S+[ \t]+0x[0-9a-fA-F]+[ \t]+(?P<symbol>.+?)[ \t]+"
    r"\((?P<file>[^\s():]+\.swift):(?P<line>\d+)\)"
    r"|(?:\*[ \t]*)?frame #\d+: 0x[0-9a-fA-F]+ [^`\n]*`(?P<lldb>.+?) at "
    r"(?P<lldb_file>[^\s:]+\.swift):(?P<lldb_line>\d+))"
    r"|(?<!\S)(?P<fatal_file>[^\s:]+\.swift):(?P<fatal_line>\d+): Fatal error"
    r"|file (?P<old_file>[^\s,]+\.swift), line (?P<old_line>\d+)"
)
_SWIFT_FUNCTION = re.compile(r"([A-Za-z_]\w*)\(")
_URL = re.compile(r"\b(?:https?|ftp)://\S+")
_BACKTICK = re.compile(r"`([^`\n]{1,120})`")
_DOTTED = re.compile(r"\b([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+)\b")
_IDENT = re.compile(r"\b[A-Za-z_][A-Za-z0-9_]*\b")
_CODE_LIKE = re.compile(r"[a-z][A-Z]|[A-Z]{2,}[a-z]|\w_\w")
_CALL = re.compile(r"\b([A-Za-z_][A-Za-z0-9_]*)\(")
# Lines that only report versions (`import sympy; sympy.__version__`, an issue template's
# `import sys; print("Python", sys.version)`): they describe the reporter's setup, and their
# words (`version`, `platform`, the package names) pointed at `release.py` or `version.py`.
_VERSION_VALUE = r"(?:[\w.]+\.__version__|sys\.version(?:_info)?|platform\.\w+\(\))"
_VERSION_LINE = (
    r"^[ \t]*(?:>>>[ \t]*|In[ \t]*\[\d+\]:[ \t]*)?"
    r"(?:import[ \t]+[\w.]+(?:[ \t]+as[ \t]+\w+)?[ \t]*;[ \t]*)?"
    r"(?:print[ \t]*\([ \t]*)?(?:[\"'][^\"'\n]*[\"'][ \t]*,[ \t]*)?"
    + _VERSION_VALUE
    + r"(?:[ \t]*,[ \t]*(?:[\"'][^\"'\n]*[\"']|"
    + _VERSION_VALUE
    + r"))*"
    r"[ \t]*\)?[ \t]*;?[ \t]*$"
)
# Text that an issue carries but its author did not write about the code: the hidden comments
# of an issue template (`<!-- Please check the development version... -->`), the banner of an
# interactive interpreter (`Python 3.6.0 |Anaconda| (default, ...)`, `Type "copyright"...`,
# IPython's help lines), version lines (above) and the prompts (`In [3]:`, `Out[3]:`, after
# the version lines, which may start with one). They match whatever files mention licenses,
# help, sessions or versions, in every task that pastes them.
_NOISE = re.compile(
    r"^[ \t]*(?:Python \d+\.\d+[\w.+]*[ \t]*(?:\||\().*"
    r"|\[(?:GCC|Clang|MSC)\b.*\][ \t]*(?:on \w+)?"
    r"|Type \S*(?:help|copyright)\S*,? .*for more information\.?"
    r"|IPython \d[\w.]* -- An enhanced Interactive Python.*"
    r"|(?:\?|%quickref|help|object\?)\s+->.*)[ \t]*$"
    r"|" + _VERSION_LINE + r"|^[ \t]*(?:In|Out)[ \t]*\[\d+\]:",
    re.M,
)
# Words that look like identifiers in prose but name nothing in particular.
_COMMON = frozenset(
    "the and for not but with this that from into when then else true false none null self "
    "cls error errors exception issue bug python version example code file files line lines "
    "return returns value values test tests expected actual output input result results "
    "traceback most recent call last raise raised import def class function method".split()
)


@dataclass
class Frame:
    """A stack-trace frame quoted in the task."""

    path: str
    line: int
    function: str = ""
    trace: int = 0  # which traceback of the task it belongs to (several may be quoted)
    innermost_first: bool = False  # JavaScript lists the innermost call first, Python last


@dataclass
class TaskSignals:
    """The exact-hit signals of a task text."""

    text: str
    title: str = ""  # the first line that says something (an issue's title)
    identifiers: list[str] = field(default_factory=list)  # most specific first
    paths: list[str] = field(default_factory=list)
    frames: list[Frame] = field(default_factory=list)
    dotted: list[str] = field(default_factory=list)
    # issues and pull requests it refers to (`#8164`), as search tokens (`ref8164`)
    references: list[str] = field(default_factory=list)
    # files cited by memory facts relevant to the task, with a strength in 0..1
    cited: dict[str, float] = field(default_factory=dict)


def analyse(text: str) -> TaskSignals:
    """Pull identifiers, paths, dotted names and frames out of a task text."""
    text = text[:MAX_TASK_CHARS].replace("\r\n", "\n")  # issues pasted from Windows: CRLF
    text = nfc(text)  # a path typed `cafe\u0301.py` (decomposed) is one word, as `café.py` is
    if DROP_NOISE:
        text = _NOISE.sub("", _drop_comments(text))
    sig = TaskSignals(text=text, title=_title(text), references=tok.references(text))
    seen: set[str] = set()
    heads = [m.start() for m in _TRACE_HEAD.finditer(text)]
    for m in _PY_FRAME.finditer(text):
        trace = bisect.bisect_right(heads, m.start())
        sig.frames.append(Frame(m.group(1), int(m.group(2)), m.group(3) or "", trace))
    native = _native_frames(text)
    spans = [(start, stop) for start, stop, _ in native]
    trace, end = len(heads) + 1, -1  # JavaScript stacks number on after Python's tracebacks
    for m in _JS_FRAME.finditer(text):
        path = m.group(2)
        at = bisect.bisect_right(spans, (m.start(), len(text))) - 1
        if at >= 0 and spans[at][1] > m.start():
            continue  # lldb's `... at Cart.swift:7:9` is a Swift frame
        if "/" in path or "." in path.rsplit("/", 1)[-1]:
            if end >= 0 and text.count("\n", end, m.start()) > 1:
                trace += 1  # not on the next line: another stack
            end = m.end()
            sig.frames.append(Frame(path, int(m.group(3)), m.group(1) or "", trace, True))
    go_heads = [m.start() for m in _GO_HEAD.finditer(text)]
    trace += 1
    for m in _GO_FRAME.finditer(text):
        names = _IDENT.findall(_GO_CLOSURE.sub("", m.group(1)))
        at = trace + bisect.bisect_right(go_heads, m.start())
        sig.frames.append(Frame(m.group(2), int(m.group(3)), names[-1] if names else "", at, True))
    trace += len(go_heads) + 1
    end = -1
    for start, stop, frame in native:
        if end >= 0 and text.count("\n", end, start) > 1:
            trace += 1  # not on the next line: another stack
        end = stop
        frame.trace = trace
        sig.frames.append(frame)
    for m in _PATH.finditer(text):
        p = m.group(1).lstrip("./")
        if p and p not in seen:
            seen.add(p)
            sig.paths.append(p)
    for frame in sig.frames:
        if frame.path not in seen:
            seen.add(frame.path)
            sig.paths.append(frame.path)
    for m in _ANY_PATH.finditer(_URL.sub(" ", text) if ANY_PATHS else ""):
        p = m.group(1).lstrip("./")
        if "/" in p and p not in seen and not any(q.endswith("/" + p) for q in seen):
            seen.add(p)
            sig.paths.append(p)
    idents: dict[str, int] = {}

    def add(name: str, weight: int) -> None:
        if len(name) < 3 or name.lower() in _COMMON or name.isdigit():
            return
        idents[name] = max(idents.get(name, 0), weight)

    # File paths and URLs are not identifiers: `docs/index.rst` names no `index` or `rst`.
    code = _URL.sub(" ", _PATH.sub(" ", text)) if SKIP_PATH_WORDS else text
    for m in _BACKTICK.finditer(code):
        inner = m.group(1).strip()
        for word in _DOTTED.findall(inner):
            sig.dotted.append(word)
            add(word.rsplit(".", 1)[-1], 3)
        for word in _IDENT.findall(inner):
            add(word, 3)
    for word in _DOTTED.findall(code):
        parts = word.split(".")
        if re.search(r"\.(?:com|org|io|net)$", word):
            continue  # a domain name
        # `Expression.compile`: a method of a class, both named
        on_class = CLASS_OF_METHOD and parts[-2][:1].isupper() and parts[-2][1:2].islower()
        if any(_CODE_LIKE.search(p) for p in parts) or len(parts) > 2 or on_class:
            sig.dotted.append(word)
            add(parts[-1], 2)
        if on_class:
            add(parts[-2], 2)
    for frame in sig.frames:
        if frame.function:
            add(frame.function, 3)
    for word in _IDENT.findall(code):
        if _CODE_LIKE.search(word):
            add(word, 2 if ("_" in word or not word.islower()) else 1)
    if CALL_NAMES:
        for word in _CALL.findall(code):
            add(word, 2)  # `Rational('0.5', '100')`: called, so code, even in prose
    sig.identifiers = [k for k, _ in sorted(idents.items(), key=lambda kv: -kv[1])]
    sig.dotted = list(dict.fromkeys(sig.dotted))
    return sig


def _native_frames(text: str) -> list[tuple[int, int, Frame]]:
    """The JVM, .NET and Swift frames of `text` with where each is, in the text's order (each
    stack lists its innermost call first)."""
    found: list[tuple[int, int, Frame]] = []
    for m in _JVM_FRAME.finditer(text):
        package, cls, method, file, line = m.groups()
        # `<init>` is a constructor (named by its class), `lambda$run$0` a lambda in `run`
        # and `Cart$Companion` a nested class; `<clinit>` and `$1` name no definition.
        if method == "<init>":
            method = cls.split("$")[-1]
        elif method.startswith("lambda$"):
            method = method.split("$")[1]
        function = "" if "<" in method or method[:1].isdigit() else method
        path = package.replace(".", "/") + file
        found.append((m.start(), m.end(), Frame(path, int(line), function)))
    for m in _NET_FRAME.finditer(text):
        scope, method, file, line = m.groups()
        if method in (".ctor", ".cctor"):
            method = scope.rstrip(".").rsplit(".", 1)[-1]
        elif method == "MoveNext" and (inner := re.search(r"<(\w+)>d__", scope)):
            method = inner.group(1)  # an async method's state machine
        found.append((m.start(), m.end(), Frame(file, int(line), method.strip("<>"))))
    for m in _SWIFT_FRAME.finditer(text):
        symbol = m["symbol"] or m["lldb"] or ""
        file = m["file"] or m["lldb_file"] or m["fatal_file"] or m["old_file"]
        line = m["line"] or m["lldb_line"] or m["fatal_line"] or m["old_line"]
        names = _SWIFT_FUNCTION.findall(symbol)  # `closure #1 in Session.request(_:)`: request
        found.append((m.start(), m.end(), Frame(file, int(line), names[-1] if names else "")))
    for _, _, frame in found:
        frame.innermost_first = True
    return sorted(found, key=lambda f: f[0])


def _drop_comments(text: str) -> str:
    """The text without its closed `<!-- ... -->` comments, in one pass (a regex would go
    quadratic on many unclosed ones)."""
    parts = []
    pos = 0
    while (start := text.find("<!--", pos)) >= 0:
        end = text.find("-->", start + 4)
        if end < 0:
            break
        parts.append(text[pos:start])
        pos = end + 3
    parts.append(text[pos:])
    return "".join(parts)


def _title(text: str) -> str:
    for line in text.splitlines():
        line = line.strip().lstrip("#").strip()
        if len(line) > 3 and not line.startswith(("<!--", "```", "|", "-->")):
            return line[:300]
    return ""
