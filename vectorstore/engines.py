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

EdgeEngine keeps one shard per collection in ``<path>/<collection>``. Upserts land in appendable segments;
``optimize(name)`` builds HNSW and merges segments. Measured (bench/search_latency.py, 2 cores shared with other
jobs, load ~8-10): filtered hybrid queries on an unoptimised shard are already fast (p95 2.7 / 12 / 14 ms at
10k / 50k / 160k units) while optimize is expensive (20 / 139 / 409 s). So nothing optimises behind the
caller's back by default: the ingest calls ``optimize(name)`` once at the end of a bulk run (or never for a
small one). ``auto_optimize_points=N`` optimises inside ``upsert`` once N points have been written since the
last optimisation, for callers that want it.
"""

from __future__ import annotations

import json
import os
import shutil
import uuid
import warnings
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
META_FILE = "filings_meta.json"  # EdgeEngine: collection metadata beside the shard's own files

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


def _has_sparse(sparse: Sparse | None) -> bool:
    return sparse is not None and len(sparse[0]) > 0


# --------------------------------------------------------------------------------------------------------
# Embedded: qdrant-edge
# --------------------------------------------------------------------------------------------------------


class _Closing:
    """``with engine:`` closes it (flushing what it holds) on the way out."""

    def close(self) -> None:
        raise NotImplementedError

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class EdgeEngine(_Closing):
    """Embedded Qdrant (qdrant-edge-py): one shard folder per collection under ``path``."""

    def __init__(self, path: str | Path, *, auto_optimize_points: int = 0, rrf_k: int = RRF_K, batch: int = 1024):
        import qdrant_edge  # noqa: F401  (fail early with a clear ImportError)

        self.path = Path(path)
        self.path.mkdir(parents=True, exist_ok=True)
        self.auto_optimize_points = auto_optimize_points
        self.rrf_k = rrf_k
        self.batch = batch
        self._shards: dict[str, Any] = {}
        self._pending: dict[str, int] = {}

    # -- collections
    def _config(self, dense_dim: int):
        import qdrant_edge as q

        return q.EdgeConfig(
            vectors={DENSE: q.EdgeVectorParams(size=dense_dim, distance=q.Distance.Cosine)},
            sparse_vectors={SPARSE: q.EdgeSparseVectorParams(modifier=q.Modifier.Idf)},
        )

    def _dir(self, name: str) -> Path:
        if not name or "/" in name or name.startswith("."):
            raise ValueError(f"bad collection name {name!r}")
        return self.path / name

    def has_collection(self, name: str) -> bool:
        return name in self._shards or (self._dir(name) / "edge_config.json").exists() or _has_segments(self._dir(name))

    def ensure_collection(self, name: str, dense_dim: int) -> None:
        import qdrant_edge as q

        if name in self._shards:
            shard = self._shards[name]
        elif self.has_collection(name):
            shard = q.EdgeShard.load(str(self._dir(name)), self._config(dense_dim))
        else:
            shard = q.EdgeShard.create(str(self._dir(name)), self._config(dense_dim))
        size = shard.info()
        have = set(size.payload_schema)
        for key in KEYWORD_FIELDS:
            if key not in have:
                shard.update(q.UpdateOperation.create_field_index(key, q.PayloadSchemaType.Keyword))
        for key in INTEGER_FIELDS:
            if key not in have:
                shard.update(q.UpdateOperation.create_field_index(key, q.PayloadSchemaType.Integer))
        self._shards[name] = shard

    def _shard(self, name: str):
        import qdrant_edge as q

        shard = self._shards.get(name)
        if shard is None:
            if not self.has_collection(name):
                raise KeyError(f"collection {name!r} not found under {self.path}: call ensure_collection first")
            shard = self._shards[name] = q.EdgeShard.load(str(self._dir(name)))
        return shard

    def drop_collection(self, name: str) -> None:
        shard = self._shards.pop(name, None)
        if shard is not None:
            shard.close()
        shutil.rmtree(self._dir(name), ignore_errors=True)
        self._pending.pop(name, None)

    def get_meta(self, name: str) -> dict[str, Any]:
        """Collection metadata (e.g. the embedding model), kept in a JSON file inside the shard folder."""
        path = self._dir(name) / META_FILE
        return json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}

    def set_meta(self, name: str, meta: Mapping[str, Any]) -> None:
        path = self._dir(name) / META_FILE
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps({**self.get_meta(name), **meta}, ensure_ascii=False), encoding="utf-8")
        tmp.replace(path)

    # -- writes
    def upsert(self, name: str, points: Iterable[Point]) -> int:
        import qdrant_edge as q

        shard = self._shard(name)
        n = 0
        buf: list[Any] = []
        for p in points:
            vec: dict[str, Any] = {} if p.dense is None else {DENSE: [float(x) for x in p.dense]}
            if _has_sparse(p.sparse):
                vec[SPARSE] = q.SparseVector([int(i) for i in p.sparse[0]], [float(v) for v in p.sparse[1]])
            buf.append(q.Point(point_id(p.id), vec, p.payload))
            if len(buf) >= self.batch:
                shard.update(q.UpdateOperation.upsert_points(buf))
                n += len(buf)
                buf = []
        if buf:
            shard.update(q.UpdateOperation.upsert_points(buf))
            n += len(buf)
        self._pending[name] = self._pending.get(name, 0) + n
        if self.auto_optimize_points and self._pending[name] >= self.auto_optimize_points:
            self.optimize(name)
        return n

    def delete_document(self, name: str, document_id: str) -> None:
        import qdrant_edge as q

        self._shard(name).update(q.UpdateOperation.delete_points_by_filter(self._filter({"document_id": document_id})))

    def set_dense(self, name: str, document_id: str, vectors: Mapping[str, list[float]]) -> int:
        """Give a stored document's units their dense vectors (unit id -> vector) and mark them
        ``embedded``; payloads and BM25 vectors stay as they are."""
        import qdrant_edge as q

        shard = self._shard(name)
        items = list(vectors.items())
        for b in range(0, len(items), self.batch):
            shard.update(q.UpdateOperation.update_vectors(
                [q.PointVectors(point_id(uid), {DENSE: [float(x) for x in vec]}) for uid, vec in items[b:b + self.batch]]))
        shard.update(q.UpdateOperation.set_payload_by_filter(self._filter({"document_id": document_id}),
                                                             {DENSE_STATE: "embedded"}))
        self._pending[name] = self._pending.get(name, 0) + len(items)
        return len(items)

    def optimize(self, name: str) -> None:
        shard = self._shard(name)
        shard.optimize()
        shard.flush()
        self._pending[name] = 0

    def flush(self, name: str | None = None) -> None:
        for key in [name] if name else list(self._shards):
            self._shard(key).flush()

    def close(self) -> None:
        for shard in self._shards.values():
            try:
                shard.flush()
            finally:
                shard.close()
        self._shards.clear()

    # -- reads
    @staticmethod
    def _filter(filt: Mapping[str, Any] | None):
        import qdrant_edge as q

        conds = []
        for key, values in normalise_filter(filt):
            match = q.MatchValue(values[0]) if len(values) == 1 else q.MatchAny(values)
            conds.append(q.FieldCondition(key, match=match))
        return q.Filter(must=conds) if conds else None

    def count(self, name: str, filter: Mapping[str, Any] | None = None) -> int:
        import qdrant_edge as q

        return self._shard(name).count(q.CountRequest(exact=True, filter=self._filter(filter)))

    @staticmethod
    def _hits(points) -> list[Hit]:
        return ranked([Hit(str(p.id), float(p.score), dict(p.payload or {})) for p in points])

    def _prefetches(self, dense, sparse, flt, prefetch_k: int) -> list[Any]:
        import qdrant_edge as q

        pre = []
        if dense is not None:
            pre.append(q.Prefetch(limit=prefetch_k, query=q.Query.Nearest([float(x) for x in dense], using=DENSE), filter=flt))
        if _has_sparse(sparse):
            sv = q.SparseVector([int(i) for i in sparse[0]], [float(v) for v in sparse[1]])
            pre.append(q.Prefetch(limit=prefetch_k, query=q.Query.Nearest(sv, using=SPARSE), filter=flt))
        return pre

    def query(self, name, dense, sparse, filter=None, k=10, prefetch_k=100) -> list[Hit]:
        import qdrant_edge as q

        flt = self._filter(filter)
        pre = self._prefetches(dense, sparse, flt, max(prefetch_k, k))
        if not pre:
            return []
        req = q.QueryRequest(limit=k, prefetches=pre, query=q.Fusion.Rrf(k=self.rrf_k), with_payload=True)
        return self._hits(self._shard(name).query(req))

    def query_dense(self, name, dense, filter=None, k=10) -> list[Hit]:
        import qdrant_edge as q

        req = q.QueryRequest(
            limit=k, query=q.Query.Nearest([float(x) for x in dense], using=DENSE), filter=self._filter(filter), with_payload=True
        )
        return self._hits(self._shard(name).query(req))

    def query_sparse(self, name, sparse, filter=None, k=10) -> list[Hit]:
        import qdrant_edge as q

        if not _has_sparse(sparse):
            return []
        sv = q.SparseVector([int(i) for i in sparse[0]], [float(v) for v in sparse[1]])
        req = q.QueryRequest(limit=k, query=q.Query.Nearest(sv, using=SPARSE), filter=self._filter(filter), with_payload=True)
        return self._hits(self._shard(name).query(req))


def ranked(hits: list[Hit]) -> list[Hit]:
    """Best first, equal scores by unit id: the engine returns ties (two speaker turns of the same words, a
    repeated boilerplate line) in its internal order, which differs between two builds of the same units, and
    a tie's order moves every later rank in the fusion."""
    return sorted(hits, key=lambda h: (-h.score, h.id))


def _has_segments(folder: Path) -> bool:
    return (folder / "segments").is_dir() and any((folder / "segments").iterdir())


# --------------------------------------------------------------------------------------------------------
# Sharing embedded shards between processes
# --------------------------------------------------------------------------------------------------------
#
# qdrant-edge has no read-only open: ``EdgeShard.load`` takes an exclusive lock on the shard's WAL, so a second
# process opening the same folder fails with "Can't init WAL: Kind(WouldBlock)". Published shards
# (``warehouse.versions``) are therefore never opened where they lie. ``publish_shards`` copies the writer's
# flushed shards into a version folder (sparse files kept sparse), WAL included: a shard loaded without its WAL
# numbers new operations from zero and silently ignores deletes of the points it holds, so the next writer must
# start from the WAL. ``reader_view`` gives each reading process its own folder of hard links to a published
# version's files (no bytes copied) without the WAL: the flushed segments hold every point, and the shard
# opens with a fresh WAL of its own. Loading and querying rewrites a few small segment files (status,
# deletion flags, id tracker) with the same bytes; nothing changes their content (tests/test_concurrency.py
# checks the published bytes after concurrent searches).

READERS = ".readers"


def publish_shards(src: Path, dst: Path) -> None:
    """Copy every shard folder of ``src`` (flushed) into ``dst``, WAL included, sparse files kept sparse."""
    import subprocess

    dst.mkdir(parents=True, exist_ok=True)
    for shard in sorted(p for p in Path(src).iterdir() if p.is_dir()):
        subprocess.run(["cp", "-a", "--sparse=always", "--reflink=auto", str(shard), str(dst / shard.name)],
                       check=True, capture_output=True)


def link_tree(src: Path, dst: Path, wal: bool = True) -> None:
    """``dst`` mirrors ``src`` with hard links (files) and new folders; ``wal=False`` leaves WAL folders out."""
    src = Path(src)
    for root, dirs, files in os.walk(src):
        if not wal:
            dirs[:] = [d for d in dirs if d != "wal"]
        target = dst / Path(root).relative_to(src)
        target.mkdir(parents=True, exist_ok=True)
        for f in files:
            os.link(os.path.join(root, f), target / f)


def reader_view(published: Path, readers_root: Path) -> Path:
    """This process's own folder of hard links to the shards in ``published`` (without their WAL; empty when
    there are none). Folders of reader processes that died are removed first."""
    try:
        readers_root.mkdir(parents=True, exist_ok=True)
        for old in readers_root.iterdir():
            pid = old.name.split("-", 1)[0]
            if pid.isdigit() and int(pid) != os.getpid() and not _alive(int(pid)):
                shutil.rmtree(old, ignore_errors=True)
        view = readers_root / f"{os.getpid()}-{uuid.uuid4().hex[:8]}"
        view.mkdir()
    except OSError:  # a home this process may not write to (a read-only mount): a private copy in a temp folder
        import subprocess
        import tempfile

        view = Path(tempfile.mkdtemp(prefix="filings-reader-"))
        if Path(published).is_dir():
            for shard in sorted(p for p in Path(published).iterdir() if p.is_dir()):
                subprocess.run(["cp", "-a", "--sparse=always", str(shard), str(view / shard.name)], check=True,
                               capture_output=True)
                shutil.rmtree(view / shard.name / "wal", ignore_errors=True)
        return view
    if Path(published).is_dir():
        link_tree(Path(published), view, wal=False)
    return view


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


# --------------------------------------------------------------------------------------------------------
# Client: a Qdrant server / cluster by URL; local mode (path / ":memory:") in tests
# --------------------------------------------------------------------------------------------------------


class ClientEngine(_Closing):
    """qdrant-client: ``url`` for a server or cluster; otherwise local mode (``path`` or ``location``).

    Local mode is a test stand-in for the server API only (it ignores payload indexes and is slow past a
    few thousand points)."""

    def __init__(
        self,
        url: str | None = None,
        path: str | Path | None = None,
        location: str | None = ":memory:",
        *,
        rrf_k: int = RRF_K,
        batch: int = 256,
        **client_kwargs: Any,
    ):
        from qdrant_client import QdrantClient

        self.local = not url
        if url:
            self.client = QdrantClient(url=url, **client_kwargs)
        elif path:
            self.client = QdrantClient(path=str(path), **client_kwargs)
        else:
            self.client = QdrantClient(location=location or ":memory:", **client_kwargs)
        self.rrf_k = rrf_k
        self.batch = batch

    def has_collection(self, name: str) -> bool:
        return self.client.collection_exists(name)

    def ensure_collection(self, name: str, dense_dim: int) -> None:
        from qdrant_client import models as m

        if not self.client.collection_exists(name):
            self.client.create_collection(
                name,
                vectors_config={DENSE: m.VectorParams(size=dense_dim, distance=m.Distance.COSINE)},
                sparse_vectors_config={SPARSE: m.SparseVectorParams(modifier=m.Modifier.IDF)},
            )
        else:
            have = self.client.get_collection(name).config.params.vectors
            size = have[DENSE].size if isinstance(have, dict) else None
            if size is not None and size != dense_dim:
                raise ValueError(f"collection {name!r} has dense dim {size}, not {dense_dim}")
        with warnings.catch_warnings():
            if self.local:  # local mode warns that payload indexes have no effect there: known, tests only
                warnings.simplefilter("ignore", UserWarning)
            for key in KEYWORD_FIELDS:
                self.client.create_payload_index(name, key, field_schema=m.PayloadSchemaType.KEYWORD)
            for key in INTEGER_FIELDS:
                self.client.create_payload_index(name, key, field_schema=m.PayloadSchemaType.INTEGER)

    def drop_collection(self, name: str) -> None:
        if self.client.collection_exists(name):
            self.client.delete_collection(name)

    def get_meta(self, name: str) -> dict[str, Any]:
        """Collection metadata, stored as Qdrant collection metadata."""
        return dict(self.client.get_collection(name).config.metadata or {})

    def set_meta(self, name: str, meta: Mapping[str, Any]) -> None:
        self.client.update_collection(name, metadata={**self.get_meta(name), **meta})

    def upsert(self, name: str, points: Iterable[Point]) -> int:
        from qdrant_client import models as m

        n = 0
        buf: list[Any] = []

        def send():
            self.client.upsert(name, points=buf, wait=True)

        for p in points:
            vec: dict[str, Any] = {} if p.dense is None else {DENSE: [float(x) for x in p.dense]}
            if _has_sparse(p.sparse):
                vec[SPARSE] = m.SparseVector(indices=[int(i) for i in p.sparse[0]], values=[float(v) for v in p.sparse[1]])
            buf.append(m.PointStruct(id=point_id(p.id), vector=vec, payload=p.payload))
            if len(buf) >= self.batch:
                send()
                n += len(buf)
                buf = []
        if buf:
            send()
            n += len(buf)
        return n

    def delete_document(self, name: str, document_id: str) -> None:
        from qdrant_client import models as m

        self.client.delete(name, points_selector=m.FilterSelector(filter=self._filter({"document_id": document_id})), wait=True)

    def set_dense(self, name: str, document_id: str, vectors: Mapping[str, list[float]]) -> int:
        from qdrant_client import models as m

        items = list(vectors.items())
        for b in range(0, len(items), self.batch):
            self.client.update_vectors(name, points=[m.PointVectors(id=point_id(uid), vector={DENSE: [float(x) for x in vec]})
                                                     for uid, vec in items[b:b + self.batch]], wait=True)
        self.client.set_payload(name, payload={DENSE_STATE: "embedded"},
                                points=m.FilterSelector(filter=self._filter({"document_id": document_id})), wait=True)
        return len(items)

    def optimize(self, name: str) -> None:
        """The server optimises in the background; nothing to do."""

    def flush(self, name: str | None = None) -> None:
        pass

    def close(self) -> None:
        self.client.close()

    @staticmethod
    def _filter(filt: Mapping[str, Any] | None):
        from qdrant_client import models as m

        conds = []
        for key, values in normalise_filter(filt):
            match = m.MatchValue(value=values[0]) if len(values) == 1 else m.MatchAny(any=values)
            conds.append(m.FieldCondition(key=key, match=match))
        return m.Filter(must=conds) if conds else None

    def count(self, name: str, filter: Mapping[str, Any] | None = None) -> int:
        return self.client.count(name, count_filter=self._filter(filter), exact=True).count

    @staticmethod
    def _hits(res) -> list[Hit]:
        return ranked([Hit(str(p.id), float(p.score), dict(p.payload or {})) for p in res.points])

    def query(self, name, dense, sparse, filter=None, k=10, prefetch_k=100) -> list[Hit]:
        from qdrant_client import models as m

        flt = self._filter(filter)
        limit = max(prefetch_k, k)
        pre = []
        if dense is not None:
            pre.append(m.Prefetch(query=[float(x) for x in dense], using=DENSE, filter=flt, limit=limit))
        if _has_sparse(sparse):
            sv = m.SparseVector(indices=[int(i) for i in sparse[0]], values=[float(v) for v in sparse[1]])
            pre.append(m.Prefetch(query=sv, using=SPARSE, filter=flt, limit=limit))
        if not pre:
            return []
        res = self.client.query_points(
            name, prefetch=pre, query=m.RrfQuery(rrf=m.Rrf(k=self.rrf_k)), limit=k, with_payload=True
        )
        return self._hits(res)

    def query_dense(self, name, dense, filter=None, k=10) -> list[Hit]:
        res = self.client.query_points(
            name, query=[float(x) for x in dense], using=DENSE, query_filter=self._filter(filter), limit=k, with_payload=True
        )
        return self._hits(res)

    def query_sparse(self, name, sparse, filter=None, k=10) -> list[Hit]:
        from qdrant_client import models as m

        if not _has_sparse(sparse):
            return []
        sv = m.SparseVector(indices=[int(i) for i in sparse[0]], values=[float(v) for v in sparse[1]])
        res = self.client.query_points(name, query=sv, using=SPARSE, query_filter=self._filter(filter), limit=k, with_payload=True)
        return self._hits(res)


def open_engine(spec: str | Path | None = None, **kwargs: Any) -> Engine:
    """``http(s)://...`` -> ClientEngine(url); ``:memory:`` -> ClientEngine local; a folder -> EdgeEngine."""
    s = str(spec) if spec is not None else ""
    if s.startswith(("http://", "https://")):
        return ClientEngine(url=s, **kwargs)
    if s == ":memory:":
        return ClientEngine(location=":memory:", **kwargs)
    if not s:
        raise ValueError("an engine needs a folder (embedded) or a URL (server)")
    return EdgeEngine(s, **kwargs)
