"""The narrative index: documents in, hybrid (dense + BM25) search out.

One Qdrant collection per market (``filings_us``, ``filings_a``, ``filings_hk``), each embedded with
its market's model (English MiniLM for US text, multilingual e5 for A-share text; see
``vectorstore.embeddings``). The model (setting, name, dimension) is recorded in the collection when it is
created, and queries are always embedded with the recorded model, whatever the environment says later; new
documents of the collection are embedded with it too (a changed default applies to new collections), and adding
documents with another model set for the market is refused with a clear error (``filings index --rebuild``
re-embeds). Units are cut by ``vectorstore.chunking`` (never crossing a page), embedded
once per content hash (``EmbeddingCache``), and upserted with their BM25 sparse vector and payload
(document, page, character span, section, company, listing, fiscal year, report type, language).

The engine is embedded Qdrant (qdrant-edge) in ``<home>/qdrant`` by default, or a Qdrant server / cluster
when ``FILINGS_QDRANT_URL`` (or ``url=``) is set. Nothing here knows about questions: filters come in as a
dict (see ``vectorstore.engines.normalise_filter``)."""

from __future__ import annotations

import os
import re
import shutil
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

import numpy as np

from mappings.statements import statements
from schema.errors import FilingsError
from schema.models import ParsedDocument, SearchUnit
from vectorstore.chunking import chunk
from vectorstore.embedding_cache import EmbeddingCache, MemoryCache, cached_vectors, embed_cached
from vectorstore.embeddings import EmbeddingProvider, configured_model, model_for_market, provider_for
from vectorstore.engines import DENSE_STATE, Engine, Hit, Point, open_engine, unit_payload
from vectorstore.shards import READERS, reader_view
from vectorstore.hybrid import weighted_rrf
from vectorstore.sparse import DEFAULT_SPARSE, encoder

MARKETS = ("US", "A", "HK")

# Dense cosine a model gives a passage that actually answers a question (calibrated on the eval suite):
# ``evidence_strength`` divides by it, so 1.0 means "as close as real evidence usually is".
EVIDENCE_COSINE = {"minilm": 0.30, "e5": 0.80, "local": 0.30, "hashing": 0.10}
_CJK = re.compile(r"[\u4e00-\u9fff]")


class Indexed(NamedTuple):
    units: int  # search units upserted
    pending: int  # prose units among them without a dense vector yet


@dataclass(frozen=True)
class RankedList:
    """One ranked list of a fused search: dense (the text embedded with the collection's model) or sparse (BM25
    over the text's tokens), under the search's filters plus ``filters``, weighted in the fusion."""

    kind: str  # "dense" | "sparse"
    text: str
    weight: float = 1.0
    filters: dict = field(default_factory=dict)


def collection_for(market: str | None) -> str:
    return f"filings_{(market or 'US').lower()}"


class _EmbeddedVia:
    """A provider whose passages are embedded elsewhere (``NarrativeIndex.passages_via``) with the same model:
    same name and dimension, so the cache and the collection's model record are the same."""

    def __init__(self, provider: EmbeddingProvider, setting: str, via: Callable[[str, list[str]], np.ndarray]):
        self.provider, self.setting, self.via = provider, setting, via
        self.name, self.dim = provider.name, provider.dim

    def embed_passages(self, texts: list[str]) -> np.ndarray:
        return np.asarray(self.via(self.setting, list(texts)), dtype=np.float32)

    def embed_queries(self, texts: list[str]) -> np.ndarray:
        return self.provider.embed_queries(texts)


def _dense_state(unit: SearchUnit, pending: set[str]) -> str:
    if unit.kind == "table":
        return "none"
    return "pending" if unit.unit_id in pending else "embedded"


def language_of(text: str) -> str:
    return "zh" if _CJK.search(text) else "en"


class NarrativeIndex:
    """``shards``: the folder of the embedded shards (default ``<home>/qdrant``). ``read_only``: the shards are a
    published version other processes read too: this process opens its own view of hard links to them
    (``shards.reader_view``, under ``<home>/.readers``, removed on close), and query vectors stay in memory
    (``MemoryCache``) instead of the shared cache file."""

    def __init__(self, home: str | Path, url: str | None = None, engine: Engine | None = None,
                 models: dict[str, str] | None = None, shards: str | Path | None = None, read_only: bool = False):
        self.home = Path(home)
        self.url = url or os.environ.get("FILINGS_QDRANT_URL")
        self._engine = engine
        self.models = models
        self.shards = Path(shards) if shards is not None else self.home / "qdrant"
        self.read_only = read_only
        self._view: Path | None = None
        self._cache: EmbeddingCache | MemoryCache | None = None
        # where passages are embedded: None = in this process; else (setting, texts) -> vectors, e.g. a Ray
        # cluster's embedding actors (``warehouse.cluster.Cluster.embed``): the same provider, the same vectors
        self.passages_via: Callable[[str, list[str]], np.ndarray] | None = None

    # ------------------------------------------------------------------------------------------
    @property
    def engine(self) -> Engine:
        if self._engine is None:
            if self.url:
                self._engine = open_engine(self.url)
            elif self.read_only:
                self._view = reader_view(self.shards, self.home / READERS)
                self._engine = open_engine(self._view)
            else:
                self._engine = open_engine(self.shards)
        return self._engine

    @property
    def cache(self) -> EmbeddingCache | MemoryCache:
        if self._cache is None:
            self._cache = MemoryCache() if self.read_only else EmbeddingCache(self.home / "embeddings")
        return self._cache

    def flush(self) -> None:
        """Write what the embedded shards hold to their segments (before they are copied for readers)."""
        if self._engine is not None and hasattr(self._engine, "flush"):
            self._engine.flush()

    def close(self) -> None:
        try:
            if self._engine is not None:
                self._engine.close()
                self._engine = None
            if self._cache is not None:
                self._cache.close()
                self._cache = None
        finally:
            if self._view is not None:
                shutil.rmtree(self._view, ignore_errors=True)
                self._view = None

    def exists(self) -> bool:
        if self.url or self._engine is not None:
            return True
        return self.shards.exists()

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

    def index_document(self, parsed: ParsedDocument, doc_name: str, dense: bool = True) -> Indexed:
        """Chunk one document and upsert its units with their BM25 vectors and payload: searchable by keywords at
        once. Prose units get dense vectors embedded now (``dense``) or only those the embedding cache already
        holds (``dense=False``: the rest are marked ``dense_state: pending`` until :meth:`fill_dense`). Returns the units
        upserted and how many of them are still without a dense vector. The units are embedded with the model recorded for the market's
        collection (a new collection records the configured one); a configured model that differs from the
        recorded one is an error, never a mixed collection."""
        units = self.units_of(parsed, doc_name)
        if not units:
            return Indexed(0, 0)
        market = parsed.info.market or "US"
        name = collection_for(market)
        provider = self._writer_provider(market, name)
        # statement / table pages are found by BM25 (labels and numbers); dense vectors are for prose
        prose = [u for u in units if u.kind != "table"]
        texts = [u.text for u in prose]
        if dense:
            vectors = list(embed_cached(provider, texts, self.cache))
        else:
            vectors = cached_vectors(provider, texts, self.cache)
        vector = {u.unit_id: v.tolist() for u, v in zip(prose, vectors) if v is not None}
        pending = {u.unit_id for u in prose} - set(vector)
        self.engine.ensure_collection(name, provider.dim)
        self._record_model(name, market, provider)
        self.engine.delete_document(name, parsed.info.document_id)
        bm25 = self.sparse_encoder(name)
        points = [Point(id=u.unit_id, dense=vector.get(u.unit_id),
                        sparse=bm25.encode_unit(u.text, u.context, language_of(u.text)),
                        payload={**unit_payload(u), DENSE_STATE: _dense_state(u, pending)}) for u in units]
        self.engine.upsert(name, points)
        return Indexed(len(points), len(pending))

    def fill_dense(self, parsed: ParsedDocument, doc_name: str) -> int:
        """Embed the prose units of a document stored by ``index_document(dense=False)`` and give them their dense
        vectors (payload and BM25 vectors untouched). Returns the number of units given a vector."""
        prose = [u for u in self.units_of(parsed, doc_name) if u.kind != "table"]
        if not prose:
            return 0
        market = parsed.info.market or "US"
        name = collection_for(market)
        provider = self._writer_provider(market, name)
        vectors = embed_cached(provider, [u.text for u in prose], self.cache)
        return self.engine.set_dense(name, parsed.info.document_id,
                                     {u.unit_id: vectors[i].tolist() for i, u in enumerate(prose)})

    def pending_dense(self, filters: dict | None = None, markets: Iterable[str] | None = None) -> int:
        """Prose units under ``filters`` that are searchable by keywords only (their dense vectors not yet in)."""
        flt = dict(filters or {}, **{DENSE_STATE: "pending"})
        return sum(self.engine.count(name, flt) for _market, name in self.collections(markets))

    def optimize(self) -> None:
        for market in MARKETS:
            name = collection_for(market)
            if self.engine.has_collection(name):
                self.engine.optimize(name)

    # ------------------------------------------------------------------------- the collection's model
    def model_card(self, name: str) -> dict | None:
        """What a collection was embedded with: ``{"embedding_setting", "embedding_model", "dim"}`` (None for a
        collection built before the model was recorded)."""
        card = self.engine.get_meta(name) if self.engine.has_collection(name) else {}
        return card if card and card.get("embedding_model") else None

    def _writer_provider(self, market: str, name: str) -> EmbeddingProvider:
        setting = self._writer_setting(market, name)
        if self.passages_via is None:
            return provider_for(setting)
        return _EmbeddedVia(provider_for(setting), setting, self.passages_via)

    def _writer_setting(self, market: str, name: str) -> str:
        """The model new passages of a collection are embedded with. A collection keeps the model it was built with
        unless another one is set for its market (a new default applies to new collections; `filings index
        --rebuild` moves an existing one); a set model that is not the collection's is refused."""
        card = self.model_card(name)
        chosen = configured_model(market, self.models)
        if card is None:
            return chosen or model_for_market(market, self.models)
        if chosen is None or chosen == card.get("embedding_setting"):
            return card["embedding_setting"]
        if provider_for(chosen).name != card["embedding_model"]:
            raise FilingsError(
                f"search collection {name} is embedded with {card['embedding_model']} "
                f"({card['embedding_setting']}, dim {card['dim']}) but {provider_for(chosen).name} ({chosen}) is set "
                f"for market {market}: unset FILINGS_EMBED_MODEL_{market} to keep the collection's model, or run "
                "`filings index --rebuild` to re-embed everything with the new one")
        return chosen

    def prepare_models(self) -> None:
        """Export (once per machine, into the model cache) the graphs new passages of each market would be embedded
        with; nothing is loaded. A model that cannot be loaded is left for the first embedding to report."""
        for market in MARKETS:
            try:
                provider = provider_for(self._writer_setting(market, collection_for(market)))
                prepare = getattr(provider, "prepare", None)
                if prepare:
                    prepare()
            except (FilingsError, ValueError, OSError, ImportError):
                continue  # a model that cannot be loaded: each document's indexing says so (``index_state``)

    def _record_model(self, name: str, market: str, provider: EmbeddingProvider) -> None:
        if self.model_card(name) is None:
            self.engine.set_meta(name, {"embedding_setting": self._writer_setting(market, name),
                                        "embedding_model": provider.name, "dim": provider.dim,
                                        "sparse": DEFAULT_SPARSE})

    def sparse_encoder(self, name: str):
        """The BM25 encoding of a collection, for its documents and its queries alike: the one it recorded (a
        collection recorded before word pairs is plain ``bm25``); a new collection takes the default."""
        card = self.model_card(name)
        return encoder(card.get("sparse", "bm25") if card else DEFAULT_SPARSE)

    def older_sparse(self) -> dict[str, str]:
        """The collections keyword-indexed with an older BM25 encoding than new collections get, with theirs (`filings
        index --rebuild` moves them, embeddings coming from the cache)."""
        out = {}
        for _market, name in self.collections():
            card = self.model_card(name)
            if card is not None and card.get("sparse", "bm25") != DEFAULT_SPARSE:
                out[name] = card.get("sparse", "bm25")
        return out

    def query_provider(self, market: str, name: str) -> EmbeddingProvider:
        """The model queries of a collection are embedded with: the one its passages were embedded with (recorded
        in the collection), whatever the environment says now. A collection without a record (built before the
        model was recorded) uses the configured model, checked against the collection's dimension."""
        card = self.model_card(name)
        if card is None:
            return provider_for(model_for_market(market, self.models))
        try:
            provider = provider_for(card["embedding_setting"])
        except (ValueError, FileNotFoundError, ImportError) as exc:
            raise FilingsError(f"search collection {name} was embedded with {card['embedding_model']} "
                               f"({card['embedding_setting']}), which cannot be loaded here ({exc}): install it, or "
                               "run `filings index --rebuild` to re-embed with an available model") from None
        if provider.name != card["embedding_model"] or provider.dim != card["dim"]:
            raise FilingsError(f"search collection {name} was embedded with {card['embedding_model']} (dim "
                               f"{card['dim']}) but {card['embedding_setting']} now loads {provider.name} (dim "
                               f"{provider.dim}): run `filings index --rebuild`")
        return provider

    # ------------------------------------------------------------------------------- reading
    def collections(self, markets: Iterable[str] | None = None) -> list[tuple[str, str]]:
        out = []
        for market in markets or MARKETS:
            name = collection_for(market)
            if self.engine.has_collection(name):
                out.append((market, name))
        return out

    def _query_vector(self, market: str, name: str, text: str) -> list[float]:
        return embed_cached(self.query_provider(market, name), [text], self.cache, kind="query")[0].tolist()

    def fused(self, lists: list[RankedList], filters: dict | None = None, k: int = 20, prefetch_k: int = 100,
              markets: Iterable[str] | None = None) -> list[Hit]:
        """Ranked lists fused by weighted reciprocal rank in each market's collection, best first. Which lists, with
        which texts and weights, is the caller's policy (``router.search``); this runs them."""
        filters = dict(filters or {})
        hits: list[Hit] = []
        for market, name in self.collections(markets):
            ranked, weights = [], []
            for spec in lists:
                flt = dict(filters, **spec.filters)
                if spec.kind == "dense":
                    found = self.engine.query_dense(name, self._query_vector(market, name, spec.text), flt, k=prefetch_k)
                else:
                    sparse = self.sparse_encoder(name).encode_query(spec.text, language_of(spec.text))
                    found = self.engine.query_sparse(name, sparse, flt, k=prefetch_k)
                ranked.append(found)
                weights.append(spec.weight)
            hits += weighted_rrf(ranked, weights)[:k]
        hits.sort(key=lambda h: -h.score)
        return hits[:k]

    def search(self, query: str, filters: dict | None = None, k: int = 20, markets: Iterable[str] | None = None,
               prefetch_k: int = 100) -> list[Hit]:
        """Plain hybrid search: dense and BM25 over the query, equal weights. Questions go through
        ``router.search``, which chooses the lists."""
        return self.fused([RankedList("dense", query), RankedList("sparse", query)], filters, k=k,
                          prefetch_k=prefetch_k, markets=markets)

    def evidence_strength(self, query: str, filters: dict | None = None, markets: Iterable[str] | None = None) -> float:
        """How close the best unit is to the query, relative to its model's evidence level (1.0 = enough)."""
        best = 0.0
        for market, name in self.collections(markets):
            provider = self.query_provider(market, name)
            dense = embed_cached(provider, [query], self.cache, kind="query")[0].tolist()
            hits = self.engine.query_dense(name, dense, filters, k=1)
            if hits:
                level = next((v for key, v in EVIDENCE_COSINE.items() if key in provider.name.lower()), 0.3)
                best = max(best, hits[0].score / level)
        return best
