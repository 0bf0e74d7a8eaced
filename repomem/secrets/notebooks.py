"""Jupyter notebooks: the code and outputs inside their JSON strings, read unescaped.

A notebook (``.ipynb``) is JSON: each line of a cell's source or of an output's text is a
JSON string (``"password = \\"...\\"\\n",``), so escaped quotes, ``\\n`` and ``\\u0022``
hide shapes the scans read in plain code (``password = \"\"\"...\"\"\"``, ``login(\\"admin\\",
\\"...\\")``, ``Authorization: Bearer ...`` in a dict, ``!PGPASSWORD=... psql``), and an
output's ``token: ...`` is a program's text, not code.  :func:`redact_notebook` decodes
the strings, joins those of the cells' sources into one script and those of the outputs
into one text (read like prose: a value typed or generated counts), redacts both, and
writes the strings that changed back, escaped again.  Line breaks stay where they were:
the strings are one-line JSON and the escapes of the new ones keep them so.  Cells copied
out of a notebook (JSON whose ``"source"`` is a list of lines, without ``cell_type``) are
read the same way.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable

from repomem.secrets._common import _splice

# A notebook is JSON with cells: the sniff reads the start and then looks for a cell's key,
# or for a source written as a list of lines (a cell or cells copied out of a notebook,
# without their cell_type).
_JSON_OBJECT = re.compile(r"\s*[{\[]")
_SOURCE_LINES = re.compile(r'"source"[ \t]*:\s*\[')
# The keys that start a cell's source and its outputs, and the strings (six characters or
# more, up to 4096: longer ones are images and other data, not text a person wrote).
_TOKEN = re.compile(r'"(source|outputs)"[ \t]*:|"((?:[^"\\\r\n]|\\.){6,4096})"')
# Joins the decoded strings: a line of its own that no rule reads across.
_SEPARATOR = "\n\x00\n"
# Characters json.dumps(ensure_ascii=False) leaves raw that str.splitlines breaks at.
_RAW_BREAKS = str.maketrans({"\x85": "\\u0085", "\u2028": "\\u2028", "\u2029": "\\u2029"})

Redactor = Callable[[str, bool], tuple[str, int]]


def is_notebook(text: str) -> bool:
    """True when ``text`` is a Jupyter notebook's JSON, or cells of one."""
    return _JSON_OBJECT.match(text) is not None and (
        '"cell_type"' in text or ('"source"' in text and _SOURCE_LINES.search(text) is not None)
    )


def redact_notebook(text: str, redact: Redactor) -> tuple[str, int]:
    """``text`` (a notebook, already redacted as it is) with the secrets inside its JSON
    strings redacted, and how many were.  ``redact(text, prose)`` redacts plain text."""
    found: dict[bool, list[tuple[int, int, str]]] = {False: [], True: []}
    in_outputs = False
    for m in _TOKEN.finditer(text):
        key = m.group(1)
        if key is not None:
            in_outputs = key == "outputs"
            continue
        try:  # a JSON string literal (no raw line break, no unescaped quote): a str
            decoded = json.loads(f'"{m.group(2)}"')
        except ValueError:
            continue
        if _SEPARATOR not in decoded:
            found[in_outputs].append((m.start(2), m.end(2), decoded))
    edits: list[tuple[int, int, str]] = []
    count = 0
    for prose, strings in found.items():
        if not strings:
            continue
        joined = _SEPARATOR.join(s for _, _, s in strings)
        out, n = redact(joined, prose)
        if not n:
            continue
        parts = out.split(_SEPARATOR)
        if len(parts) != len(strings):
            continue  # a rule read across strings: keep what the first pass made
        count += n
        for (start, end, before), after in zip(strings, parts, strict=True):
            if after != before:
                escaped = json.dumps(after, ensure_ascii=False)[1:-1].translate(_RAW_BREAKS)
                edits.append((start, end, escaped))
    if not edits:
        return text, 0
    return _splice(text, sorted(edits)), count
