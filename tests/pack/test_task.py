from __future__ import annotations

import pytest

from repomem.pack import task
from repomem.pack.task import analyse


def test_python_traceback_frames_give_paths_lines_and_functions() -> None:
    sig = analyse(
        "Traceback (most recent call last):\n"
        '  File "/home/u/proj/pkg/core.py", line 42, in compute_total\n'
        "ValueError: bad\n"
    )
    (frame,) = sig.frames
    assert (frame.path, frame.line, frame.function) == (
        "/home/u/proj/pkg/core.py",
        42,
        "compute_total",
    )
    assert "compute_total" in sig.identifiers
    assert "/home/u/proj/pkg/core.py" in sig.paths


def test_javascript_frames_are_recognised() -> None:
    sig = analyse("TypeError: x is undefined\n    at renderList (src/components/List.tsx:17:9)\n")
    assert [(f.path, f.line, f.function) for f in sig.frames] == [
        ("src/components/List.tsx", 17, "renderList")
    ]


def test_frames_know_their_traceback_and_which_end_is_innermost() -> None:
    sig = analyse(
        "Traceback (most recent call last):\n"
        '  File "app/cli.py", line 3, in main\n'
        '  File "app/core.py", line 9, in run\n'
        "KeyError: 'x'\n\n"
        "During handling of the above exception, another exception occurred:\n\n"
        "Traceback (most recent call last):\n"
        '  File "app/errors.py", line 5, in wrap\n'
        "RuntimeError\n\n"
        "TypeError: boom\n"
        "    at render (src/view.js:4:2)\n"
        "    at main (src/index.js:9:1)\n"
        "\nand later, elsewhere:\n\n"
        "    at load (src/io.js:1:1)\n"
    )
    got = [(f.path, f.trace, f.innermost_first) for f in sig.frames]
    py = [(p, t) for p, t, first in got if not first]
    js = [(p, t) for p, t, first in got if first]
    assert py == [("app/cli.py", 1), ("app/core.py", 1), ("app/errors.py", 2)]
    assert [p for p, _ in js] == ["src/view.js", "src/index.js", "src/io.js"]
    assert js[0][1] == js[1][1] != js[2][1]  # a gap of lines starts another stack
    assert not {t for _, t in py} & {t for _, t in js}


def test_code_like_identifiers_rank_above_prose() -> None:
    sig = analyse("The `parse_config` helper breaks when HTTPAdapter retries; Using it fails.")
    assert sig.identifiers[0] == "parse_config"
    assert "HTTPAdapter" in sig.identifiers
    assert "Using" not in sig.identifiers


def test_dotted_names_and_file_paths_are_collected() -> None:
    sig = analyse("Calling requests.sessions.Session.send from docs/api.rst breaks src/app.py.")
    assert "requests.sessions.Session.send" in sig.dotted
    assert sig.paths == ["docs/api.rst", "src/app.py"]


def test_an_empty_text_has_no_signals() -> None:
    sig = analyse("")
    assert not (sig.identifiers or sig.paths or sig.frames or sig.dotted)


def test_file_paths_and_urls_are_not_taken_for_identifiers() -> None:
    sig = analyse(
        "With `docs/index.rst` and `conf.py` set up, see https://example.org/some_page/x_y.html "
        "and run `make html`: `autodoc_typehints` is ignored."
    )
    assert "autodoc_typehints" in sig.identifiers
    for fragment in ("docs", "index", "rst", "conf", "some_page", "x_y"):
        assert fragment not in sig.identifiers
    assert sig.paths == ["docs/index.rst", "conf.py"]


def test_the_class_of_a_dotted_call_is_named_too() -> None:
    sig = analyse('Short reproducer:\n```py\n>>> Expression.compile("False")\n```\n')
    assert "Expression" in sig.identifiers
    assert "compile" in sig.identifiers


def test_prose_in_parentheses_is_not_a_call() -> None:
    sig = analyse("It fails (sometimes) on large inputs, but compute(x) is a call.")
    assert "sometimes" not in sig.identifiers
    assert "compute" in sig.identifiers


def test_called_names_are_identifiers_and_their_arguments_are_not() -> None:
    sig = analyse("When calc Rational('0.5', '100'), it breaks.\n>>> lambdify(args, body)\n")
    assert {"Rational", "lambdify"} <= set(sig.identifiers)
    assert not {"args", "body"} & set(sig.identifiers)


def test_calls_can_be_switched_off_for_ablations(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(task, "CALL_NAMES", False)
    assert "Rational" not in analyse("When calc Rational('0.5', '100'), it breaks.").identifiers


def test_template_comments_and_interpreter_banners_are_not_the_task() -> None:
    sig = analyse(
        "Wrong result with apart\n"
        "<!-- Please check our contributing guidelines\nand the code of conduct -->\n"
        "```\n"
        "Python 3.6.0 |Continuum Analytics, Inc.| (default, Dec 23 2016, 12:22:00)\n"
        'Type "copyright", "credits" or "license" for more information.\n'
        "IPython 5.1.0 -- An enhanced Interactive Python.\n"
        "?         -> Introduction and overview of IPython's features.\n"
        "%quickref -> Quick reference.\n"
        "In [1]: bug.apart(t)\n"
        "Out[1]: -a*t\n"
        "```\n"
        "pylint 2.14.1\nPython 3.9.6 (tags/v3.9.6:db3ff76, Jun 28 2021) [MSC v.1929 64 bit]\n"
    )
    assert sig.title == "Wrong result with apart"
    for word in ("guidelines", "conduct", "copyright", "license", "IPython", "quickref",
                 "Continuum", "In [1]", "MSC"):  # fmt: skip
        assert word not in sig.text
    assert "bug.apart(t)" in sig.text and "-a*t" in sig.text and "pylint 2.14.1" in sig.text


def test_an_unclosed_comment_and_prose_about_python_stay() -> None:
    text = "Python 3.12 support: <!-- note\nthe parser fails on Python 3.12 (match statements)"
    assert analyse(text).text == text
    assert analyse("a <!-- b --> c <!-- d").text == "a  c <!-- d"
    # a banner-like line never takes the next line with it
    prose = "Python 3.12\n(match statements) break the parser"
    assert analyse(prose).text == prose
    assert analyse("[GCC 9.3.0]\non windows").text == "\non windows"


def test_a_banner_pasted_with_windows_line_ends_goes_too() -> None:
    text = "pylint 3.0\r\nPython 3.8.5 (default, Jan 27 2021) \r\n[GCC 9.3.0]\r\n```\r\n"
    assert analyse(text).text == "pylint 3.0\n\n\n```\n"


def test_lines_that_only_report_versions_are_not_the_task() -> None:
    sig = analyse(
        "Wrong result with apart\n"
        "In [9]: import sympy; sympy.__version__\n"
        "Out[9]: '1.0'\n"
        '>>> import astropy; print("astropy", astropy.__version__)\n'
        "import platform; print(platform.platform())\n"
        'import sys; print("Python", sys.version)\n'
        "print(np.__version__, pd.__version__)\n"
    )
    assert "version" not in sig.text and "platform" not in sig.text
    assert "__version__" not in sig.identifiers
    # code that uses a version is about the code, and stays
    kept = "if LooseVersion(np.__version__) < '1.2':\n    minversion('numpy', '1.14dev')"
    assert analyse(kept).text == kept
    assert analyse("the version printed by `sympy.__version__` is wrong").text.endswith("wrong")


def test_issues_and_pull_requests_the_task_refers_to_are_collected() -> None:
    sig = analyse("Bases are wrong again\n\nA regression of #8164, see gh-12 (not 3.4.2).")
    assert sig.references == ["ref8164", "ref12"]
    assert analyse("No issue named here, version 3.4.2").references == []


@pytest.mark.parametrize(
    ("text", "path"),
    [
        ("/home/dev/go/src/github.com/gin-gonic/gin/errors.go:12:3: undefined: x", "errors.go"),
        ("ci/utils.sh fails on macOS", "ci/utils.sh"),
        ("ci/test-complete is broken", "ci/test-complete"),
        ("~/src/app/render/render.go:40 panics", "render/render.go"),
    ],
)
def test_absolute_paths_and_paths_with_any_extension_are_mentions(text: str, path: str) -> None:
    assert any(p.endswith(path) for p in analyse(text).paths), analyse(text).paths


def test_a_url_is_not_a_path_mention() -> None:
    paths = analyse("see https://github.com/org/repo/blob/main/src/x.py for and/or more").paths
    assert not any("github.com" in p or p.endswith("x.py") for p in paths), paths


GO_PANIC = """panic: runtime error: index out of range [0] with length 0

goroutine 1 [running]:
github.com/spf13/cobra.(*Command).getCompletions(0xc0000f2000, {0xc000010250, 0x1, 0x1})
\t/home/me/go/pkg/mod/github.com/spf13/cobra@v1.8.0/completions.go:331 +0x1a5
github.com/spf13/cobra.(*Command).initCompleteCmd.func1(0xc0000f2300?, {0xc000010250, 0x1})
\t/home/me/go/pkg/mod/github.com/spf13/cobra@v1.8.0/completions.go:228 +0x45
main.main()
\t/home/me/app/main.go:12 +0x25

goroutine 7 [chan receive]:
github.com/gohugoio/hugo/hugolib/doctree.(*NodeShiftTree[...]).Delete(...)
\t/src/hugo/hugolib/doctree/nodeshifttree.go:224
"""


def test_go_panic_frames_give_paths_lines_and_functions_innermost_first() -> None:
    """A Go panic's goroutine traces (the function's line, then a tab and `file.go:line`)
    were no frames: their functions and lines were never used."""
    sig = analyse(GO_PANIC)
    got = [(f.path.rsplit("/", 1)[-1], f.line, f.function, f.innermost_first) for f in sig.frames]
    assert got == [
        ("completions.go", 331, "getCompletions", True),
        ("completions.go", 228, "initCompleteCmd", True),
        ("main.go", 12, "main", True),
        ("nodeshifttree.go", 224, "Delete", True),
    ]
    traces = [f.trace for f in sig.frames]
    assert traces[0] == traces[1] == traces[2] != traces[3]  # one trace per goroutine
    assert "getCompletions" in sig.identifiers
    assert "/src/hugo/hugolib/doctree/nodeshifttree.go" in sig.paths


def test_jvm_frames_give_the_file_in_its_package_folder_innermost_first() -> None:
    """Java and Kotlin stack traces (`at pkg.Class.method(File.kt:12)`) were no frames."""
    sig = analyse(
        "java.lang.IllegalStateException: closed\n"
        "\tat okhttp3.internal.connection.RealCall.execute(RealCall.kt:154)\n"
        "\tat okhttp3.OkHttpClient$Builder.<init>(OkHttpClient.kt:20)\n"
        "\tat com.example.App.lambda$main$0(App.java:12)\n"
        "\tat java.base/java.lang.Thread.run(Thread.java:833)\n"
        "Caused by: java.io.IOException: reset\n"
        "\tat okio.Buffer.read(Buffer.kt:9)\n"
        "\t... 5 more\n"
    )
    got = [(f.path, f.line, f.function, f.innermost_first) for f in sig.frames]
    assert got == [
        ("okhttp3/internal/connection/RealCall.kt", 154, "execute", True),
        ("okhttp3/OkHttpClient.kt", 20, "Builder", True),
        ("com/example/App.java", 12, "main", True),
        ("java/lang/Thread.java", 833, "run", True),
        ("okio/Buffer.kt", 9, "read", True),
    ]
    traces = [f.trace for f in sig.frames]
    assert traces[0] == traces[3] != traces[4]  # `Caused by:` is another exception's stack
    assert "execute" in sig.identifiers


def test_dotnet_frames_give_windows_paths_and_constructors_by_their_class() -> None:
    sig = analyse(
        "Unhandled exception. System.InvalidOperationException: nope\n"
        "   at Shop.Billing.Cart..ctor(String id) in C:\\src\\Shop\\Cart.cs:line 12\n"
        "   at Shop.Billing.Cart.Add(Item item) in C:\\src\\Shop\\Cart.cs:line 40\n"
        "   at Shop.Program.<Main>d__0.MoveNext() in /src/Shop/Program.cs:line 30\n"
    )
    got = [(f.path, f.line, f.function) for f in sig.frames]
    assert got == [
        ("C:\\src\\Shop\\Cart.cs", 12, "Cart"),
        ("C:\\src\\Shop\\Cart.cs", 40, "Add"),
        ("/src/Shop/Program.cs", 30, "Main"),
    ]
    assert len({f.trace for f in sig.frames}) == 1


@pytest.mark.parametrize(
    ("text", "frame"),
    [
        (
            "Thread 0 Crashed:\n0   Alamofire   0x0000000104a8c2b4 closure #1 in "
            "Session.request(_:method:) + 128 (Session.swift:342)\n",
            ("Session.swift", 342, "request"),
        ),
        (
            "* frame #0: 0x0000000100003f2c Demo`Cart.add(item=...) at Cart.swift:7:9\n",
            ("Cart.swift", 7, "add"),
        ),
        ("Shop/Cart.swift:11: Fatal error: Index out of range\n", ("Shop/Cart.swift", 11, "")),
        ("Fatal error: oops: file Shop/Cart.swift, line 9\n", ("Shop/Cart.swift", 9, "")),
    ],
)
def test_swift_crash_frames_are_recognised(text: str, frame: tuple[str, int, str]) -> None:
    assert [(f.path, f.line, f.function) for f in analyse(text).frames] == [frame]
