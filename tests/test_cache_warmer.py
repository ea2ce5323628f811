"""vectorstore.cache_warmer: the prose of stored documents embedded at the lowest priority while an ingest still
parses, into the embedding cache, with the same vectors the dense phase would compute."""

from __future__ import annotations

import time

import numpy as np

from conftest import require_corpus
from parsers.pdf_pages import read_pages
from vectorstore.cache_warmer import LOWEST_PRIORITY, CacheWarmer
from vectorstore.embedding_cache import EmbeddingCache, cached_vectors
from vectorstore.embeddings import model_for_market, new_provider, provider_for


def test_warmed_vectors_are_the_dense_phases(tmp_path):
    pages = read_pages(require_corpus("hk", "8169_ecotek_2021_annual-mda-extract.pdf"))
    texts = [" ".join(p.text.split()[:200]) for p in pages if len(p.text.split()) > 50]
    assert len(texts) >= 2
    setting = model_for_market("HK")
    with EmbeddingCache(tmp_path) as cache:
        warmer = CacheWarmer(cache, new_provider, batch=2)
        warmer.offer(setting, texts)
        deadline = time.monotonic() + 120
        while warmer.embedded < len(texts) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert warmer.stop() == len(texts)
        assert warmer.priority == LOWEST_PRIORITY  # the thread (and the sessions it made) runs niced
        provider = provider_for(setting)
        warmed = cached_vectors(provider, texts, cache)
        assert all(v is not None for v in warmed)
        # int8 graphs quantize activations per batch, so a text's vector moves slightly with its batch-mates (as
        # between two documents' batches in the dense phase): the same vector up to that
        direct = provider.embed_passages(texts)
        cosines = np.sum(np.vstack(warmed) * direct, axis=1)
        assert cosines.min() > 0.98, cosines
        alone = provider.embed_passages(texts[:2])  # the same batch as the warmer's first: the same vectors
        assert np.allclose(np.vstack(warmed[:2]), alone, atol=1e-5)


def test_a_stopped_warmer_takes_no_more_work(tmp_path):
    with EmbeddingCache(tmp_path) as cache:
        warmer = CacheWarmer(cache, new_provider)
        warmer.stop()
        warmer.offer(model_for_market("HK"), ["text offered after the stop"])
        assert warmer.embedded == 0 and cache.count() == 0
