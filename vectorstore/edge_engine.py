"""The embedded engine: qdrant-edge, one shard folder per collection (see ``vectorstore.engines``)."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from vectorstore.engines import (DENSE, DENSE_STATE, INTEGER_FIELDS, KEYWORD_FIELDS, RRF_K, SPARSE, Closing, Hit, Point,
                                 has_sparse, normalise_filter, point_id, ranked)

META_FILE = "filings_meta.json"  # EdgeEngine: collection metadata beside the shard's own files


class EdgeEngine(Closing):
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
            if has_sparse(p.sparse):
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
        if has_sparse(sparse):
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

        if not has_sparse(sparse):
            return []
        sv = q.SparseVector([int(i) for i in sparse[0]], [float(v) for v in sparse[1]])
        req = q.QueryRequest(limit=k, query=q.Query.Nearest(sv, using=SPARSE), filter=self._filter(filter), with_payload=True)
        return self._hits(self._shard(name).query(req))


def _has_segments(folder: Path) -> bool:
    return (folder / "segments").is_dir() and any((folder / "segments").iterdir())
