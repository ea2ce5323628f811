"""The client engine: qdrant-client against a Qdrant server or cluster by URL; local mode (path / ``:memory:``) in
tests (see ``vectorstore.engines``)."""

from __future__ import annotations

import warnings
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from vectorstore.engines import (DENSE, DENSE_STATE, INTEGER_FIELDS, KEYWORD_FIELDS, RRF_K, SPARSE, Closing, Hit, Point,
                                 has_sparse, normalise_filter, point_id, ranked)


class ClientEngine(Closing):
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
            if has_sparse(p.sparse):
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
        if has_sparse(sparse):
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

        if not has_sparse(sparse):
            return []
        sv = m.SparseVector(indices=[int(i) for i in sparse[0]], values=[float(v) for v in sparse[1]])
        res = self.client.query_points(name, query=sv, using=SPARSE, query_filter=self._filter(filter), limit=k, with_payload=True)
        return self._hits(res)
