"""The narrative index: documents in, hybrid (dense + BM25) search out.

One Qdrant collection per market (``filings_us``, ``filings_a``, ``filings_hk``), each embedded with
its market's model (English MiniLM for US text, multilingual e5 for A-share / HK text; see
``vectorstore.embeddings``). Units are cut by ``vectorstore.chunking`` (never crossing a page), embedded
once per content hash (``EmbeddingCache``), and upserted with their BM25 sparse vector and payload
(document, page, character span, section, company, listing, fiscal year, report type, language).

The engine is embedded Qdrant (qdrant-edge) in ``<home>/qdrant`` by default, or a Qdrant server / cluster
when ``FILINGS_QDRANT_URL`` (or ``url=``) is set. Nothing here knows about questions: filters come in as a
dict (see ``vectorstore.engines.normalise_filter``)."""

from __future__ import annotations

import os
import re
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

from mappings.statements import statements
from schema.models import ParsedDocument, SearchUnit
from vectorstore.chunking import chunk
from vectorstore.embeddings import EmbeddingCache, embed_cached, provider_for_market
from vectorstore.engines import Engine, Hit, Point, open_engine, unit_payload
from vectorstore.hybrid import weighted_rrf
from vectorstore.sparse import encode_document, encode_query

MARKETS = ("US", "A", "HK")
# Fusion of ranked lists per collection: dense over prose, BM25 over every unit, BM25 over statement / table
# pages (which carry no dense vector), and one list per statement the question points at (``statements_hint``).
# Measured on the FinanceBench dev questions inside the right document: dense alone R@20 0.30, BM25 alone
# 0.61, dense+BM25 RRF 0.29, the first three lists 0.81; in the shared store (178 documents) adding the
# statement lists took R@20 0.75 -> 0.82 (weight 1.0: 0.80; 1.5, 2 and 3 the same).
FUSION_WEIGHTS = {"dense": 0.5, "bm25": 1.0, "bm25_tables": 1.0, "statement": 1.5}
# Without statement pages in play (narrative answers), dense and BM25 weigh the same.
PROSE_WEIGHTS = {"dense": 1.0, "bm25": 1.0}

# Dense cosine a model gives a passage that actually answers a question (calibrated on the eval suite):
# ``evidence_strength`` divides by it, so 1.0 means "as close as real evidence usually is".
EVIDENCE_COSINE = {"minilm": 0.30, "e5": 0.80, "local": 0.30, "hashing": 0.10}
_CJK = re.compile(r"[\u4e00-\u9fff]")


def collection_for(market: str | None) -> str:
    return f"filings_{(market or 'US').lower()}"


def language_of(text: str) -> str:
    return "zh" if _CJK.search(text) else "en"


class NarrativeIndex:
    def __init__(self, home: str | Path, url: str | None = None, engine: Engine | None = None,
                 models: dict[str, str] | None = None):
        self.home = Path(home)
        self.url = url or os.environ.get("FILINGS_QDRANT_URL")
        self._engine = engine
        self.models = models
        self._cache: EmbeddingCache | None = None

    # ------------------------------------------------------------------------------------------
    @property
    def engine(self) -> Engine:
        if self._engine is None:
            self._engine = open_engine(self.url or self.home / "qdrant")
        return self._engine

    @property
    def cache(self) -> EmbeddingCache:
        if self._cache is None:
            self._cache = EmbeddingCache(self.home / "embeddings")
        return self._cache

    def close(self) -> None:
        if self._engine is not None:
            self._engine.close()
            self._engine = None
        if self._cache is not None:
            self._cache.close()
            self._cache = None

    def exists(self) -> bool:
        if self.url or self._engine is not None:
            return True
        return (self.home / "qdrant").exists()

    # ------------------------------------------------------------------------------- writing
    def units_of(self, parsed: ParsedDocument, doc_name: str) -> list[SearchUnit]:
        table_pages = {f.page for f in parsed.facts if f.page is not None and f.statement}
        votes: dict[int, Counter] = {}
        for f in parsed.facts:
            if f.page is not None and f.statement in statements():
                votes.setdefault(f.page, Counter())[f.statement] += 1
        page_statements = {page: c.most_common(1)[0][0] for page, c in votes.items()}
        units, _windows = chunk(parsed.info, parsed.pages, parsed.sections, doc_name, table_pages=table_pages,
                                page_statements=page_statements)
        return units

    def index_document(self, parsed: ParsedDocument, doc_name: str) -> int:
        """Chunk, embed (cached by content) and upsert one document; returns the number of units."""
        units = self.units_of(parsed, doc_name)
        if not units:
            return 0
        market = parsed.info.market or "US"
        provider = provider_for_market(market, self.models)
        # statement / table pages are found by BM25 (labels and numbers); dense vectors are for prose
        prose = [u for u in units if u.kind != "table"]
        vectors = embed_cached(provider, [u.text for u in prose], self.cache)
        dense = {u.unit_id: vectors[i].tolist() for i, u in enumerate(prose)}
        name = collection_for(market)
        self.engine.ensure_collection(name, provider.dim)
        self.engine.delete_document(name, parsed.info.document_id)
        points = [Point(id=u.unit_id, dense=dense.get(u.unit_id), sparse=encode_document(u.text, language_of(u.text)),
                        payload=unit_payload(u)) for u in units]
        self.engine.upsert(name, points)
        return len(points)

    def optimize(self) -> None:
        for market in MARKETS:
            name = collection_for(market)
            if self.engine.has_collection(name):
                self.engine.optimize(name)

    # ------------------------------------------------------------------------------- reading
    def collections(self, markets: Iterable[str] | None = None) -> list[tuple[str, str]]:
        out = []
        for market in markets or MARKETS:
            name = collection_for(market)
            if self.engine.has_collection(name):
                out.append((market, name))
        return out

    def search(self, query: str, filters: dict | None = None, k: int = 20, markets: Iterable[str] | None = None,
               prefetch_k: int = 100, statements_hint: Iterable[str] = (), keywords: str | None = None) -> list[Hit]:
        """Hybrid search (dense + BM25, fused by RRF) across the markets' collections, best first.

        ``keywords``: the text BM25 ranks by, when not the query itself: the question without the words that
        became filters (company, period, "10-K"), which repeat on every page of the filtered documents and only
        add noise to term matching; the dense model still reads the whole question (measured on the
        FinanceBench dev questions in the shared store: R@20 0.82 -> 0.90, R@5 0.58 -> 0.60, R@1 0.46 -> 0.40).

        ``statements_hint`` (income / balance / cashflow / equity): statements the question points at; each adds
        a list of that statement's pages, ranked by BM25 over the query plus the words every such statement
        prints, so the page behind a figure is found even when the question shares no word with it."""
        hits: list[Hit] = []
        lang = language_of(query)
        keywords = keywords or query
        sparse = encode_query(keywords, lang)
        filters = dict(filters or {})
        kinds = filters.get("kind")
        tables_allowed = kinds is None or "table" in ([kinds] if isinstance(kinds, str) else kinds)
        for market, name in self.collections(markets):
            provider = provider_for_market(market, self.models)
            dense = embed_cached(provider, [query], self.cache, kind="query")[0].tolist()
            lists = [self.engine.query_dense(name, dense, filters, k=prefetch_k),
                     self.engine.query_sparse(name, sparse, filters, k=prefetch_k)]
            chosen = FUSION_WEIGHTS if tables_allowed else PROSE_WEIGHTS
            weights = [chosen["dense"], chosen["bm25"]]
            if tables_allowed:
                lists.append(self.engine.query_sparse(name, sparse, dict(filters, kind="table"), k=prefetch_k))
                weights.append(FUSION_WEIGHTS["bm25_tables"])
                for sid in statements_hint:
                    expanded = encode_query(" ".join([keywords, *statements()[sid].expansion]), lang)
                    lists.append(self.engine.query_sparse(name, expanded, dict(filters, kind="table", statement=sid),
                                                          k=prefetch_k))
                    weights.append(FUSION_WEIGHTS["statement"])
            hits += weighted_rrf(lists, weights)[:k]
        hits.sort(key=lambda h: -h.score)
        return hits[:k]

    def evidence_strength(self, query: str, filters: dict | None = None, markets: Iterable[str] | None = None) -> float:
        """How close the best unit is to the query, relative to its model's evidence level (1.0 = enough)."""
        best = 0.0
        for market, name in self.collections(markets):
            provider = provider_for_market(market, self.models)
            dense = embed_cached(provider, [query], self.cache, kind="query")[0].tolist()
            hits = self.engine.query_dense(name, dense, filters, k=1)
            if hits:
                level = next((v for key, v in EVIDENCE_COSINE.items() if key in provider.name.lower()), 0.3)
                best = max(best, hits[0].score / level)
        return best
