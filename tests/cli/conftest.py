"""Fixtures shared with the server tests."""

from tests.server.conftest import code  # noqa: F401  (a fixture: a small indexed repository)
