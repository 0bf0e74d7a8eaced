"""Deterministic notes: docstrings, leading comments, titles, entry points, markers."""

from __future__ import annotations

from repomem.llm import offline


def test_leading_docs_skip_license_headers_and_read_many_comment_styles() -> None:
    go = (
        "// Copyright 2024 The Authors. Licensed under MIT.\n\n"
        "// Package shop sells things.\npackage shop\n"
    )
    assert offline.leading_doc(go, "go") == "Package shop sells things."
    py = "#!/usr/bin/env python\n# -*- coding: utf-8 -*-\n'''Parse the config.\n\nMore.'''\n"
    assert offline.leading_doc(py, "python") == "Parse the config."
    c = "/* SPDX-License-Identifier: GPL-2.0 */\n/*\n * Ring buffer for events.\n */\nint x;\n"
    assert offline.leading_doc(c, "c") == "Ring buffer for events."
    assert offline.leading_doc("import os\n", "python") == ""
    rst = "Shop\n====\n\nSells things.\n\nUsage\n-----\n"
    assert offline.leading_doc(rst, "text", "README.rst") == "Shop: Sells things."
    over = "=====\nAPI\n=====\n\n.. module:: shop\n\nThe shop's API.\n"
    assert offline.leading_doc(over, "text", "api.rst") == "API: The shop's API."
    script = '#!/usr/bin/env python\n"""\nRun the tests.\n\nNotes\n-----\nMore.\n"""\n'
    assert offline.leading_doc(script, "text", "bin/test") == "Run the tests."
    assert offline.leading_doc("#include <stdio.h>\n// Prints things.\nint x;\n", "c") == (
        "Prints things."
    )
    assert offline.leading_doc("#![allow(dead_code)]\n//! Fast maps.\n", "rust") == "Fast maps."
    lua = "--- Path utilities.\n---\n--- Like pathlib.\nlocal Path = {}\n"  # LuaDoc's `---`
    assert offline.leading_doc(lua, "lua") == "Path utilities."
    assert offline.leading_doc("-- Job control.\nlocal Job = {}\n", "lua") == "Job control."


def symbol(name: str, kind: str = "function", line: int = 1, parent: str = "") -> dict[str, object]:
    return {"name": name, "kind": kind, "qualname": name, "parent": parent, "start_line": line,
            "end_line": line, "signature": "", "doc": ""}  # fmt: skip


def test_entry_points_put_main_and_cli_markers_first_and_skip_private_names() -> None:
    syms = [symbol("helper", line=1), symbol("_hidden", line=2), symbol("Shop", "class", 3),
            symbol("main", line=9), symbol("method", "method", 4, parent="Shop")]  # fmt: skip
    text = "import argparse\nparser = argparse.ArgumentParser()\n"
    assert offline.entry_points(text, "python", syms) == [
        "main()",
        "command-line interface (argparse)",
        "class Shop",
        "function helper",
    ]


def test_module_functions_count_and_private_or_local_definitions_are_no_entry_points() -> None:
    """Lua's `function Job.new` belongs to a table the file never defines as a symbol; a
    `local function`, or Kotlin's `private fun`, is no entry point."""
    syms = [
        {**symbol("close_safely"), "signature": "local function close_safely(j)"},
        {**symbol("new", "method", 5, parent="Job"), "qualname": "Job.new"},
        {**symbol("start", "method", 9, parent="Job"), "qualname": "Job.start"},
        {**symbol("start", "method", 11, parent="Job"), "qualname": "Job.start"},
        {**symbol("slug", line=12), "signature": "@JvmStatic private fun slug()"},
    ]
    assert offline.entry_points("", "lua", syms) == ["method Job.new", "method Job.start"]
    note = offline.offline_note("lua/job.lua", "lua", "local Job = {}\n" * 3, syms)
    assert note.splitlines()[0] == "Purpose: lua file, 3 lines, defining 3 methods, 2 functions."
    props = [symbol("a", "property"), symbol("b", "property", 2), symbol("c", "class", 3)]
    assert "defining 2 properties, 1 class." in offline.offline_note("a.kt", "kotlin", "x\n", props)


def test_go_entry_points_are_the_exported_names() -> None:
    syms = [symbol("Serve"), symbol("serve"), symbol("main")]
    assert offline.entry_points("", "go", syms) == ["main()", "function Serve"]


def test_a_file_without_docs_is_described_by_its_shape_and_markers() -> None:
    text = "def a():\n    pass  # FIXME: slow\n\n\ndef b():\n    pass\n"
    note = offline.offline_note("m.py", "python", text, [symbol("a"), symbol("b", line=4)])
    assert note.splitlines() == [
        "Purpose: python file, 6 lines, defining 2 functions.",
        "Entry points: function a, function b",
        "Gotchas: FIXME slow",
    ]
    assert offline.offline_note("e.py", "python", " \n", []) == "Purpose: empty file."
