"""Shared by the notes generation tests: sample files, a repo indexed with them, a client
against the fake Messages API (closed after each test, see conftest), and the notes by path."""

from __future__ import annotations

from repomem.config import Config
from repomem.index import indexer
from repomem.llm import client as llm
from repomem.llm import generation, notes
from repomem.llm.client import LLMClient
from tests.conftest import Repo

AWS_KEY = "AKIAIOSFODNN7EXAMPLF"
GITHUB_TOKEN = "ghp_" + "Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0FeDcBa"

FILES = {
    "app/cli.py": '"""Command line entry for the shop."""\n\nimport argparse\n\n\n'
    "def main():\n    parser = argparse.ArgumentParser()\n    return parser\n\n\n"
    'if __name__ == "__main__":\n    main()\n',
    "app/cart.py": '"""Shopping cart: add items and total them with tax."""\n\n\n'
    "class Cart:\n    def add(self, item):\n        pass\n\n\n"
    "def total(cart):\n    # TODO: rounding of half cents\n    return 0\n\n\n"
    "def _private():\n    return 1\n",
    "app/tax.py": "# Tax rules per country.\n\nRATE = 0.2\n\n\n"
    "def apply_tax(x):\n    return x * 1.2\n",
    "web/main.js": "/**\n * Browser entry: mounts the shop widget.\n */\n"
    "export function mount(el) {\n  return el;\n}\n",
    "README.md": "# Shop\n\nA tiny shop used in tests.\n",
}

_clients: list[LLMClient] = []


def setup_repo(repo: Repo, files: dict[str, str] = FILES, settings: str = "") -> Config:
    """The sample files committed and indexed; then `settings` go into `.repomem` (unindexed)."""
    for rel, text in files.items():
        repo.write(rel, text)
    repo.commit()
    indexer.run(repo.config())
    if settings:
        repo.write(".repomem", settings)
    return repo.config()


def client_for(cfg: Config) -> LLMClient | None:
    client = llm.from_config(cfg, sleep=lambda s: None)
    if client is not None:
        _clients.append(client)
    return client


def run(cfg: Config, **kw: object) -> generation.NotesReport:
    return generation.generate(cfg, client=client_for(cfg), **kw)  # type: ignore[arg-type]


def by_path(cfg: Config) -> dict[str, list[notes.Note]]:
    out: dict[str, list[notes.Note]] = {}
    for n in notes.list_notes(cfg):
        out.setdefault(n.path, []).append(n)
    return out
