"""Golden parses: every `tests/index/cases/<language>/<case>.<ext>` source file is parsed and
compared with its reviewed expectation `<case>.<ext>.json`.

Regenerate an expectation after a deliberate change with
`python tests/index/test_parser_cases.py --regen PATH...` and review the diff.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from repomem.index.languages import detect, language_names
from repomem.index.parser import parse

CASES = Path(__file__).with_name("cases")


def _dump(path: Path) -> dict[str, Any]:
    text = path.read_text(encoding="utf-8")
    result = parse(text, detect(path.name))
    return {
        "has_error": result.has_error,
        "symbols": [
            [s.kind, s.qualname, s.start_line, s.end_line, s.signature, s.doc]
            for s in result.symbols
        ],
        "references": sorted([r.kind, r.name, r.scope, r.line, r.uses] for r in result.references),
    }


def _cases() -> list[Path]:
    return sorted(p for p in CASES.rglob("*") if p.is_file() and p.suffix != ".json")


@pytest.mark.parametrize("source", _cases(), ids=lambda p: str(p.relative_to(CASES)))
def test_golden_parse_matches_reviewed_expectation(source: Path) -> None:
    expected = json.loads(source.with_name(source.name + ".json").read_text(encoding="utf-8"))
    assert _dump(source) == expected


def test_every_supported_language_has_golden_cases() -> None:
    covered = {detect(p.name) for p in _cases()}
    assert set(language_names()) <= covered


def _starts(text: str, language: str) -> dict[str, int]:
    return {s.qualname: s.start_line for s in parse(text, language).symbols}


def test_a_symbol_starts_at_its_doc_comment_and_decorators_but_not_at_code() -> None:
    go = "package p\n\n// Run starts the loop.\n// It never returns.\nfunc Run() {}\n"
    assert _starts(go, "go") == {"Run": 3}
    py = "x = 1  # the count\ndef f():\n    pass\n\n\n# Cached.\n@cache\ndef g():\n    pass\n"
    assert _starts(py, "python") == {"x": 1, "f": 2, "g": 6}
    docs = {s.qualname: s.doc for s in parse(py, "python").symbols}
    assert (docs["f"], docs["g"]) == ("", "Cached.")  # a comment after code documents nothing
    separated = "// About the file.\n\nfunction h() {}\n"
    assert _starts(separated, "javascript") == {"h": 3}


def _signatures(text: str, language: str) -> dict[str, str]:
    return {s.qualname: s.signature for s in parse(text, language).symbols}


def test_a_bodyless_declaration_has_its_whole_signature_without_the_semicolon() -> None:
    ts = (
        "declare function f(a: string,\n  b: number): void;\n"
        "export function g(a: string,\n  b: number): string;\n"
        "export function g(a: string, b: number): string {\n  return a;\n}\n"
        "interface I {\n  m(a: string,\n    b: number): void;\n  n(): void\n}\n"
        "abstract class A {\n  abstract run(a: string,\n    b: number): void;\n}\n"
    )
    assert _signatures(ts, "typescript") == {
        "f": "function f(a: string, b: number): void",
        "g": "function g(a: string, b: number): string",
        "I": "interface I",
        "I.m": "m(a: string, b: number): void",
        "I.n": "n(): void",
        "A": "abstract class A",
        "A.run": "abstract run(a: string, b: number): void",
    }
    java = "interface Shape {\n  double area(int a,\n      int b) throws Bad;\n}\n"
    assert _signatures(java, "java")["Shape.area"] == "double area(int a, int b) throws Bad"
    c = "int add(int a,\n        int b);\n"
    assert _signatures(c, "c") == {"add": "int add(int a, int b)"}
    # A bodyless declaration that is not callable keeps its first line (a long initializer).
    py = "TABLE = dict(\n    a=1,\n)\n"
    assert _signatures(py, "python") == {"TABLE": "TABLE = dict("}


CSHARP_MEMBERS = """\
class Checkout {
  void Pay(Order order) {
    this.Name = order.Total.ToString();
    var rate = Config.Instance.Rate + order?.Customer.Discount;
    Log.Write(Items.Count());
    var copy = new Order { Total = 5 };
  }
  Checkout() { Owner = null; }
}
"""


def test_csharp_member_accesses_are_references_and_a_call_stays_a_call() -> None:
    refs = {(r.kind, r.name) for r in parse(CSHARP_MEMBERS, "csharp").references}
    members = {name for kind, name in refs if kind == "member"}
    assert members == {
        "Name", "Total", "Config", "Instance", "Rate", "Customer", "Discount", "Log", "Items",
        "Owner",
    }  # fmt: skip
    uses = {r.name: r.uses for r in parse(CSHARP_MEMBERS, "csharp").references}
    assert uses["Total"] == 2  # read once, set once in the initializer (counted once there)
    # a called member is a call only; a local (`order`) is not a member of anything
    assert {("call", "ToString"), ("call", "Write"), ("call", "Count")} <= refs
    assert not {("member", "ToString"), ("member", "order"), ("member", "rate")} & refs


REEXPORTS = """\
export { isRef, ref as makeRef } from './ref'
export type { Ref } from './ref'
import { ShapeFlags } from './flags'
export function mount(vnode: VNode) {
  if (vnode.shapeFlag & ShapeFlags.ELEMENT) return Renderer.current.mount(vnode)
}
"""


def test_a_reexported_name_and_a_static_member_are_references_in_typescript() -> None:
    """vue's package index files re-export every API (`export { isRef } from './ref'`), and
    its code tests `ShapeFlags.ELEMENT`: neither was a reference of `isRef` or `ShapeFlags`."""
    for language in ("typescript", "javascript"):
        refs = {(r.kind, r.name, r.line) for r in parse(REEXPORTS, language).references}
        assert {("imported", "isRef", 1), ("imported", "ref", 1)} <= refs, language
        assert {("member", "ShapeFlags", 5), ("member", "ELEMENT", 5)} <= refs, language
        assert {("member", "Renderer", 5), ("member", "current", 5), ("call", "mount", 5)} <= refs
        # a local object's property is not a static member; an alias is not a name used
        assert not {r for r in refs if r[1] in ("vnode", "shapeFlag", "makeRef")}
    refs = {(r.kind, r.name) for r in parse(REEXPORTS, "typescript").references}
    assert ("imported", "Ref") in refs


CSHARP_TYPE_USES = """\
class Store<T> where T : IEntity {
  void Check(object o) {
    var t = typeof(ApplicationParameters);
    var c = (Order)o;
    var a = o as Customer;
    if (o is Invoice invoice) {}
    var d = default(Money?);
    try {} catch (PackageException e) {}
    foreach (Line line in lines) {}
    var all = new Sku[3];
  }
}
"""


def test_csharp_types_named_in_expressions_are_type_references() -> None:
    """`typeof(ApplicationParameters)` was no reference of the class (chocolatey's specs use
    it), nor were casts, `as`, `is`, `default`, `catch`, `foreach`, arrays and constraints."""
    refs = {(r.kind, r.name) for r in parse(CSHARP_TYPE_USES, "csharp").references}
    names = ("IEntity", "ApplicationParameters", "Order", "Customer", "Invoice", "Money",
             "PackageException", "Line", "Sku")  # fmt: skip
    assert {("type", n) for n in names} <= refs
    assert not {r for r in refs if r[1] in ("o", "invoice", "e", "line", "lines")}


def test_the_namespace_of_a_qualified_typescript_type_is_a_reference() -> None:
    """`expectType<JSX.Element>(...)`: vue's JSX namespace had no reference at all."""
    ts = "let a: JSX.Element\nlet b: Outer.Inner.Leaf<T>\nnamespace Own.Name {}\n"
    refs = {(r.kind, r.name) for r in parse(ts, "typescript").references}
    assert {("type", "JSX"), ("type", "Element"), ("type", "Outer"), ("type", "Inner")} <= refs
    assert ("type", "Leaf") in refs
    assert not {r for r in refs if r[1] in ("Own", "Name")}  # a declared name is no use


def test_a_bodyless_declaration_under_attributes_has_its_own_line_in_its_signature() -> None:
    """chocolatey's `[XmlArray("sources")]` over a property was its whole signature."""
    cs = (
        'class Settings {\n  [XmlArray("sources")]\n  [XmlArrayItem("source")]\n'
        "  public HashSet<Source> Sources { get; set; }\n}\n"
    )
    assert _signatures(cs, "csharp")["Settings.Sources"] == (
        '[XmlArray("sources")] [XmlArrayItem("source")] '
        "public HashSet<Source> Sources { get; set; }"
    )


SWIFT_OPERATORS = """\
struct Vector {
  static func + (lhs: Vector, rhs: Vector) -> Vector { lhs }
  static prefix func - (v: Vector) -> Vector { v }
  static func <=> (a: Vector, b: Vector) -> Bool { true }
}
prefix func ! (v: Vector) -> Vector { v }
func scale(_ v: Vector) -> Vector { v }
protocol Equal { static func == (a: Self, b: Self) -> Bool }
"""


def test_swift_operator_functions_are_named_by_their_operator_in_their_type() -> None:
    symbols = {s.qualname: (s.kind, s.signature) for s in parse(SWIFT_OPERATORS, "swift").symbols}
    assert symbols == {
        "Vector": ("struct", "struct Vector"),
        "Vector.+": ("method", "static func + (lhs: Vector, rhs: Vector) -> Vector"),
        "Vector.-": ("method", "static prefix func - (v: Vector) -> Vector"),
        "Vector.<=>": ("method", "static func <=> (a: Vector, b: Vector) -> Bool"),
        "!": ("function", "prefix func ! (v: Vector) -> Vector"),
        "scale": ("function", "func scale(_ v: Vector) -> Vector"),
        "Equal": ("interface", "protocol Equal"),
        "Equal.==": ("method", "static func == (a: Self, b: Self) -> Bool"),
    }


KOTLIN_CONSTRUCTORS = """\
class Cart(val id: String) {
  constructor(id: Int) : this(id.toString())
}
enum class Size(val cm: Int) {
  S(1);
  constructor(name: String) : this(name.length)
}
"""


def test_a_kotlin_secondary_constructor_is_named_by_its_class_as_java_s_are() -> None:
    """A JVM stack names a constructor `Cart.<init>`, read as `Cart` (Java's `Item.Item`)."""
    symbols = {s.qualname: s.kind for s in parse(KOTLIN_CONSTRUCTORS, "kotlin").symbols}
    assert symbols["Cart.Cart"] == "constructor"
    assert symbols["Size.Size"] == "constructor"
    assert not {q for q in symbols if q.endswith("constructor")}


LUA_MODULE = """\
local M = {}
function M.new(name) return setmetatable({ name = name }, M) end
function M:greet() return self.name end
function M.close(self) self.name = nil end
M.reset = function() end
M.rename = function(self, name) self.name = name end
local util = { trim = function(s) return s end }
"""


def test_a_lua_function_in_a_table_is_a_function_and_one_taking_self_a_method() -> None:
    """`function M.new()` is a module's function; `function M:greet()` takes `self`."""
    symbols = {s.qualname: s.kind for s in parse(LUA_MODULE, "lua").symbols}
    assert symbols == {
        "M.new": "function",
        "M.greet": "method",
        "M.close": "method",
        "M.reset": "function",
        "M.rename": "method",
        "util.trim": "function",
    }


KOTLIN_ANNOTATION_CLASSES = """\
package app

@Target(AnnotationTarget.FUNCTION)
annotation class Route

@Target(AnnotationTarget.CLASS)
@MustBeDocumented
annotation class Screen

fun home() {}
"""


def test_a_kotlin_annotation_class_under_an_annotation_with_arguments_is_a_class() -> None:
    """The grammar reads `@Target(...)\\nannotation class Route` as an annotated expression."""
    symbols = parse(KOTLIN_ANNOTATION_CLASSES, "kotlin").symbols
    found = {s.qualname: (s.kind, s.start_line, s.end_line, s.signature) for s in symbols}
    assert found == {
        "Route": ("class", 3, 4, "annotation class Route"),
        "Screen": ("class", 6, 8, "annotation class Screen"),
        "home": ("function", 10, 10, "fun home()"),
    }
    refs = {(r.kind, r.name) for r in parse(KOTLIN_ANNOTATION_CLASSES, "kotlin").references}
    assert {("decorator", "Target"), ("decorator", "MustBeDocumented")} <= refs


if __name__ == "__main__":
    if sys.argv[1:2] == ["--regen"]:
        for arg in sys.argv[2:]:
            src = Path(arg)
            out = src.with_name(src.name + ".json")
            out.write_text(json.dumps(_dump(src), indent=1) + "\n", encoding="utf-8")
            print(f"wrote {out}")
