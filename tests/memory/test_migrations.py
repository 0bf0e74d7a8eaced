"""Migrations of the memory file's schema (repomem/memory/migrations.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from repomem.errors import MemoryFileError
from repomem.memory import access, migrations, model
from repomem.memory import file as mfile
from tests.memory.file.samples import read


def test_schema_0_file_is_adopted_by_the_migration_keeping_its_text() -> None:
    text = read("schema0.md")
    assert mfile.parse(text, Path("m")).schema_version == 0
    doc = access.parse_text(text, Path("m"))
    assert doc.schema_version == model.SCHEMA_VERSION
    out = doc.render()
    assert out.endswith(text)
    assert out.startswith("<!-- repomem:memory schema_version=1 version=0 -->\n")


def test_a_header_that_says_schema_0_is_replaced_not_doubled() -> None:
    # an edit (by hand, or a model's str_replace) that set the number back to 0
    text = "<!-- repomem:memory schema_version=0 version=6 -->\n# Project memory\n\n## Facts\n"
    doc = access.parse_text(text, Path("m"))
    assert doc.schema_version == model.SCHEMA_VERSION and doc.version == 6
    out = doc.render()
    assert out.count("repomem:memory") == 1
    assert out.startswith("<!-- repomem:memory schema_version=1 version=6 -->\n# Project memory\n")


def test_every_older_schema_has_a_migration_step() -> None:
    assert set(migrations.MIGRATIONS) == set(range(model.SCHEMA_VERSION))
    with pytest.raises(MemoryFileError, match="cannot migrate"):
        migrations.migrate("x", -1, "m")
