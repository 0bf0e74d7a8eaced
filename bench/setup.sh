#!/usr/bin/env bash
# Install the baselines that bench/index_bench.py compares repomem with, outside repomem's venv:
#   * aider-chat (PyPI) in its own venv, default /work/bench-venv (override: BENCH_VENV=...),
#     because it pins exact versions of many libraries that would clash with repomem's;
#   * universal-ctags (Debian package) when no universal-ctags is on PATH.
# Idempotent: re-running only installs what is missing. Needs PyPI (and Debian's mirror for ctags).
#
# aider reads its grammars from tree-sitter-language-pack. The 0.x releases bundle compiled
# grammars in the wheel and work offline; the 1.x releases download grammars at run time, which
# fails without network. aider-chat pins a 0.x release itself; the pin below keeps it that way if
# a resolver ever picks another version.
set -euo pipefail

VENV="${BENCH_VENV:-/work/bench-venv}"
PYTHON="${PYTHON:-python3}"
AIDER_SPEC="${AIDER_SPEC:-aider-chat==0.86.2}"
TSLP_SPEC="${TSLP_SPEC:-tree-sitter-language-pack<1}"

if ! command -v ctags >/dev/null 2>&1 || ! ctags --version 2>/dev/null | grep -q "Universal Ctags"; then
    echo "== installing universal-ctags (apt-get)"
    SUDO=""
    if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq universal-ctags
fi
ctags --version | head -1

if [ ! -x "$VENV/bin/python" ]; then
    echo "== creating $VENV"
    "$PYTHON" -m venv "$VENV"
fi
if ! "$VENV/bin/python" -c "import aider.repomap" >/dev/null 2>&1; then
    echo "== installing $AIDER_SPEC into $VENV"
    "$VENV/bin/python" -m pip install -q --upgrade pip
    "$VENV/bin/python" -m pip install -q "$AIDER_SPEC" "$TSLP_SPEC"
fi

# Check that aider's grammars load offline (a 1.x language pack would try to download here).
"$VENV/bin/python" - <<'EOF'
import importlib.metadata as md
from grep_ast.tsl import get_parser

for lang in ("python", "c"):
    get_parser(lang).parse(b"x = 1\n")
print("aider-chat", md.version("aider-chat"),
      "| tree-sitter-language-pack", md.version("tree-sitter-language-pack"),
      "| tree-sitter", md.version("tree-sitter"), "| grammars load offline")
EOF
echo "== done: python bench/index_bench.py --aider-python $VENV/bin/python"
