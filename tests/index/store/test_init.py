"""Tests for repomem.index.store (the package): importing it stays cheap."""

from __future__ import annotations

import subprocess
import sys


def test_opening_the_store_skips_the_namespace_rest_client_until_it_is_used() -> None:
    code = (
        "import sys\n"
        "import repomem.index.store\n"
        "print('lance_namespace_urllib3_client.api' in sys.modules)\n"
        "import lance_namespace_urllib3_client as client\n"
        "print(client.ApiClient.__name__)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.split()
    assert out == ["False", "ApiClient"]


def test_lancedb_loads_with_the_override_of_python_312_and_overrides_stays_real() -> None:
    code = (
        "import sys\n"
        "import repomem.index.store as store\n"
        "import lancedb.db\n"
        "print(lancedb.db.override is store._mark_override if sys.version_info < (3, 12)"
        " else 'new')\n"
        "print(getattr(sys.modules.get('overrides'), '__file__', None) is not None"
        " or 'overrides' not in sys.modules)\n"
        "import overrides\n"
        "print(type(overrides.EnforceOverrides).__name__)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.split()
    expected = "True" if sys.version_info < (3, 12) else "new"
    assert out == [expected, "True", "EnforceOverridesMeta"]
