"""Static embeddings: a vector per token, averaged over a text. No network, no transformer layers, so thousands of
units per CPU second instead of tens: the lever when dense embedding is the cost of an ingest.

``wordllama`` (PyPI ``wordllama``): the ``l2_supercat`` token embeddings (256 dimensions, 32k Llama-2 tokens) and
their tokenizer ship inside the wheel. The package's own ``WordLlama.load`` looks for the tokenizer under another
name and then downloads it, so the provider builds the inference object from the two bundled files itself;
nothing is ever fetched. Speed and retrieval against MiniLM: README "Embedding models"."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from vectorstore.embedding_base import BATCH_SIZE, empty_vectors, normalise

WORDLLAMA_CONFIG = "l2_supercat"
WORDLLAMA_DIM = 256


def wordllama_files() -> tuple[Path, Path]:
    """(weights, tokenizer) of the l2_supercat model bundled in the wordllama wheel."""
    import wordllama

    root = Path(wordllama.__file__).parent
    weights = root / "weights" / f"{WORDLLAMA_CONFIG}_{WORDLLAMA_DIM}.safetensors"
    tokenizer = root / "tokenizers" / f"{WORDLLAMA_CONFIG}_tokenizer_config.json"
    for path in (weights, tokenizer):
        if not path.is_file():
            raise FileNotFoundError(f"the wordllama wheel does not carry {path.name} (expected under {root})")
    return weights, tokenizer


class WordLlamaProvider:
    """Average-pooled static token embeddings (WordLlama l2_supercat, 256 dims), L2-normalised; queries and
    passages alike. ``max_tokens`` keeps the head of a unit, as the transformer providers do."""

    dim = WORDLLAMA_DIM

    def __init__(self, max_tokens: int | None = None, batch_size: int = 4 * BATCH_SIZE):
        self.max_tokens = max_tokens
        self.batch_size = batch_size
        self.name = f"wordllama-{WORDLLAMA_CONFIG}-{WORDLLAMA_DIM}" + (f"@{max_tokens}" if max_tokens else "")
        self._model = None

    def _load(self):
        if self._model is None:
            from safetensors import safe_open
            from tokenizers import Tokenizer
            from wordllama.inference import WordLlamaInference

            weights, tokenizer_file = wordllama_files()
            with safe_open(str(weights), framework="np", device="cpu") as fh:
                table = fh.get_tensor("embedding.weight")
            tokenizer = Tokenizer.from_file(str(tokenizer_file))
            self._model = WordLlamaInference(table, tokenizer)
            if self.max_tokens:
                self._model.tokenizer.enable_truncation(self.max_tokens)
        return self._model

    def _encode(self, texts: list[str]) -> np.ndarray:
        if not texts:
            return empty_vectors(self.dim)
        model = self._load()
        return normalise(model.embed([t or " " for t in texts], norm=True, batch_size=self.batch_size))

    def embed_passages(self, texts: list[str]) -> np.ndarray:
        return self._encode(texts)

    def embed_queries(self, texts: list[str]) -> np.ndarray:
        return self._encode(texts)
