"""Qdrant engines behind one interface: embedded (qdrant-edge, the default) and client (server / cluster by URL).

Both hold the same collection schema:

- named dense vector ``"dense"`` (cosine) and named sparse vector ``"bm25"`` with the IDF modifier
  (Qdrant computes IDF over the collection; ``vectorstore.sparse`` sends BM25 tf-saturation values);
- payload indexes: keyword on company_id, stock_code, section, report_type, market, kind, document_id;
  integer on fiscal_year.

``query`` is hybrid: a dense prefetch and a sparse prefetch (each top ``prefetch_k``, each with the filter)
fused by reciprocal rank fusion (``RRF_K``). ``query_dense`` / ``query_sparse`` run one side alone for
evaluation. A filter dict maps field -> value or list of values; every key must match, a list means "any of",
``None`` values are ignored: ``{"company_id": ["apple", "nvidia"], "fiscal_year": [2023, 2024]}``.

Point ids: a unit_id of 32 hex characters is used as the UUID directly; anything else goes through uuid5.

Where: this module holds the interface, the points and hits, filters and ``open_engine``; ``vectorstore.edge_engine``
(embedded), ``vectorstore.client_engine`` (server / cluster) the engines, ``vectorstore.shards`` the sharing of
embedded shards between the writer and readers.

EdgeEngine keeps one shard per collection in ``<path>/<collection>``. Upserts land in appendable segments;
``optimize(name)`` builds HNSW and merges segments. Measured (bench/search_latency.py, 2 cores shared with other
jobs, load ~8-10): filtered hybrid queries on an unoptimised shard are already fast (p95 2.7 / 12 / 14 ms at
10k / 50k / 160k units) while optimize is expensive (20 / 139 / 409 s). So nothing optimises behind the
caller's back by default: the ingest calls ``optimize(name)`` once at the end of a bulk run (or never for a
small one). ``auto_optimize_points=N`` optimises inside ``upsert`` once N points have been written since the
last optimisation, for callers that want it.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

DENSE = "dense"
SPARSE = "bm25"
# payload field: "embedded" (a prose unit with its dense vector), "pending" (stored for BM25; `filings index` fills
# the dense vector in), "none" (a table unit: BM25 only by design)
DENSE_STATE = "dense_state"
RRF_K = 60

KEYWORD_FIELDS = ("company_id", "stock_code", "section", "report_type", "market", "kind", "document_id", "fiscal_period",
                  "statement", DENSE_STATE)
INTEGER_FIELDS = ("fiscal_year",)
FILTER_FIELDS = KEYWORD_FIELDS + INTEGER_FIELDS

Sparse = tuple[Sequence[int], Sequence[float]]


def point_id(unit_id: str) -> str:
    """A stable UUID string for a unit id (32 hex chars are taken as the UUID itself)."""
    try:
        if len(unit_id) == 32:
            return str(uuid.UUID(hex=unit_id))
    except ValueError:
        pass
    return str(uuid.uuid5(uuid.NAMESPACE_URL, f"filings-unit:{unit_id}"))


@dataclass
class Point:
    id: str  # a unit_id or a UUID string; normalised by point_id()
    dense: Sequence[float] | None  # None: a BM25-only point (e.g. a statement page unit)
    sparse: Sparse
    payload: dict[str, Any] = field(default_factory=dict)


@dataclass
class Hit:
    id: str  # UUID string
    score: float
    payload: dict[str, Any] = field(default_factory=dict)

    @property
    def unit_id(self) -> str | None:
        return self.payload.get("unit_id")


def unit_payload(unit: Any) -> dict[str, Any]:
    """Payload for a ``schema.models.SearchUnit`` (every field, text included, for quoting)."""
    return unit.model_dump(mode="json")


def _as_list(value: Any) -> list[Any] | None:
    if isinstance(value, (list, tuple, set, frozenset)):
        return list(value)
    return None


def normalise_filter(filt: Mapping[str, Any] | None) -> list[tuple[str, list[Any]]]:
    """[(key, [values...])] with ints for integer fields; empty list of conditions for no filter."""
    conds: list[tuple[str, list[Any]]] = []
    for key, value in (filt or {}).items():
        if value is None:
            continue
        values = _as_list(value)
        values = [value] if values is None else values
        if not values:
            raise ValueError(f"filter {key!r}: empty list matches nothing")
        if key in INTEGER_FIELDS:
            values = [int(v) for v in values]
        else:
            values = [str(v) if not isinstance(v, (bool, int)) else v for v in values]
        conds.append((key, values))
    return conds


@runtime_checkable
class Engine(Protocol):
    def ensure_collection(self, name: str, dense_dim: int) -> None: ...

    def has_collection(self, name: str) -> bool: ...

    def drop_collection(self, name: str) -> None: ...

    def upsert(self, name: str, points: Iterable[Point]) -> int: ...

    def delete_document(self, name: str, document_id: str) -> None: ...

    def set_dense(self, name: str, document_id: str, vectors: Mapping[str, list[float]]) -> int: ...

    def count(self, name: str, filter: Mapping[str, Any] | None = None) -> int: ...

    def optimize(self, name: str) -> None: ...

    def get_meta(self, name: str) -> dict[str, Any]: ...

    def set_meta(self, name: str, meta: Mapping[str, Any]) -> None: ...

    def query(
        self,
        name: str,
        dense: Sequence[float] | None,
        sparse: Sparse | None,
        filter: Mapping[str, Any] | None = None,
        k: int = 10,
        prefetch_k: int = 100,
    ) -> list[Hit]: ...

    def query_dense(
        self, name: str, dense: Sequence[float], filter: Mapping[str, Any] | None = None, k: int = 10
    ) -> list[Hit]: ...

    def query_sparse(self, name: str, sparse: Sparse, filter: Mapping[str, Any] | None = None, k: int = 10) -> list[Hit]: ...

    def close(self) -> None: ...


def has_sparse(sparse: Sparse | None) -> bool:
    return sparse is not None and len(sparse[0]) > 0


class Closing:
    """``with engine:`` closes it (flushing what it holds) on the way out."""

    def close(self) -> None:
        raise NotImplementedError

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def ranked(hits: list[Hit]) -> list[Hit]:
    """Best first, equal scores by unit id: the engine returns ties (two speaker turns of the same words, a
    repeated boilerplate line) in its internal order, which differs between two builds of the same units, and
    a tie's order moves every later rank in the fusion."""
    return sorted(hits, key=lambda h: (-h.score, h.id))


def open_engine(spec: str | Path | None = None, **kwargs: Any) -> Engine:
    """``http(s)://...`` -> ClientEngine(url); ``:memory:`` -> ClientEngine local; a folder -> EdgeEngine."""
    from vectorstore.client_engine import ClientEngine
    from vectorstore.edge_engine import EdgeEngine

    s = str(spec) if spec is not None else ""
    if s.startswith(("http://", "https://")):
        return ClientEngine(url=s, **kwargs)
    if s == ":memory:":
        return ClientEngine(location=":memory:", **kwargs)
    if not s:
        raise ValueError("an engine needs a folder (embedded) or a URL (server)")
    return EdgeEngine(s, **kwargs)
