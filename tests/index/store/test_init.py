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
