"""The embedding cache: vectors by content hash, so a re-ingest or a move between engines never re-embeds.

Cache: :class:`EmbeddingCache` is one SQLite file (``embeddings.sqlite``) under a directory: table
``vectors(key BLOB PRIMARY KEY, model TEXT, dim INTEGER, vec BLOB)`` (a rowid table: WITHOUT ROWID
stores 1.5 kB rows three times less compactly) where ``key`` is
``sha256(model name, kind ("passage" / "query"), text)`` and ``vec`` the float32 bytes. Looked up in
batches of 500 keys; WAL journal; one writer process. ``embed_cached(provider, texts, cache)`` embeds
only the texts it has not seen with that model, so a re-ingest never re-embeds.
"""

from __future__ import annotations

import hashlib
import sqlite3
import threading
from pathlib import Path

import numpy as np

from vectorstore.embedding_base import EmbeddingProvider, empty_vectors


def cache_key(model: str, text: str, kind: str = "passage") -> bytes:
    h = hashlib.sha256()
    h.update(model.encode("utf-8"))
    h.update(b"\x00")
    h.update(kind.encode("utf-8"))
    h.update(b"\x00")
    h.update(text.encode("utf-8"))
    return h.digest()


class EmbeddingCache:
    """Content-hash keyed vectors on disk: ``<directory>/embeddings.sqlite``.

    Key = sha256(model name, kind, text); value = float32 bytes. Safe for one process (a lock guards
    the connection across threads); 100k entries are a ~160 MB file for 384-d vectors, looked up in
    batches of 500 keys."""

    FILE = "embeddings.sqlite"

    def __init__(self, directory: str | Path):
        self.directory = Path(directory)
        self.directory.mkdir(parents=True, exist_ok=True)
        self.path = self.directory / self.FILE
        self._lock = threading.Lock()
        self._db = sqlite3.connect(str(self.path), check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute(
            "CREATE TABLE IF NOT EXISTS vectors (key BLOB PRIMARY KEY, model TEXT NOT NULL, dim INTEGER NOT NULL,"
            " vec BLOB NOT NULL)"
        )
        self._db.commit()

    def get_many(self, keys: list[bytes]) -> dict[bytes, np.ndarray]:
        found: dict[bytes, np.ndarray] = {}
        with self._lock:
            for b in range(0, len(keys), 500):
                part = keys[b : b + 500]
                q = f"SELECT key, dim, vec FROM vectors WHERE key IN ({','.join('?' * len(part))})"
                for key, dim, vec in self._db.execute(q, part):
                    found[bytes(key)] = np.frombuffer(vec, dtype=np.float32, count=dim)
        return found

    def put_many(self, model: str, items: list[tuple[bytes, np.ndarray]]) -> None:
        rows = [(k, model, int(v.shape[0]), np.asarray(v, dtype=np.float32).tobytes()) for k, v in items]
        with self._lock:
            self._db.executemany("INSERT OR REPLACE INTO vectors (key, model, dim, vec) VALUES (?, ?, ?, ?)", rows)
            self._db.commit()

    def count(self, model: str | None = None) -> int:
        with self._lock:
            if model is None:
                return self._db.execute("SELECT count(*) FROM vectors").fetchone()[0]
            return self._db.execute("SELECT count(*) FROM vectors WHERE model = ?", (model,)).fetchone()[0]

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def __enter__(self) -> "EmbeddingCache":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class MemoryCache:
    """The cache of a read-only open: query vectors kept in this process's memory only (at most ``size``), so a
    reader never writes (nor waits for) the shared ``EmbeddingCache`` file. Same interface."""

    def __init__(self, size: int = 4096):
        self.size = size
        self._vectors: dict[bytes, np.ndarray] = {}
        self._lock = threading.Lock()

    def get_many(self, keys: list[bytes]) -> dict[bytes, np.ndarray]:
        with self._lock:
            return {k: self._vectors[k] for k in keys if k in self._vectors}

    def put_many(self, model: str, items: list[tuple[bytes, np.ndarray]]) -> None:
        with self._lock:
            for k, v in items:
                if len(self._vectors) >= self.size:
                    self._vectors.pop(next(iter(self._vectors)))
                self._vectors[k] = np.asarray(v, dtype=np.float32)

    def count(self, model: str | None = None) -> int:
        return len(self._vectors)

    def close(self) -> None:
        self._vectors.clear()

    def __enter__(self) -> "MemoryCache":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def embed_cached(
    provider: EmbeddingProvider,
    texts: list[str],
    cache: EmbeddingCache | MemoryCache | None,
    kind: str = "passage",
    batch_size: int = 256,
) -> np.ndarray:
    """Vectors of ``texts`` (``kind`` "passage" or "query"), embedding only texts the cache has not seen
    with this provider's name; new vectors are written back in batches of ``batch_size`` (so an
    interrupted run keeps its progress). Duplicates within ``texts`` are embedded once."""
    embed = provider.embed_queries if kind == "query" else provider.embed_passages
    texts = list(texts)
    if not texts:
        return empty_vectors(provider.dim)
    if cache is None:
        return embed(texts)
    keys = [cache_key(provider.name, t, kind) for t in texts]
    found = cache.get_many(list(dict.fromkeys(keys)))
    missing: dict[bytes, str] = {}
    for k, t in zip(keys, texts):
        if k not in found and k not in missing:
            missing[k] = t
    todo = list(missing.items())
    for b in range(0, len(todo), batch_size):
        part = todo[b : b + batch_size]
        vecs = embed([t for _, t in part])
        items = [(k, vecs[i]) for i, (k, _) in enumerate(part)]
        cache.put_many(provider.name, items)
        found.update(items)
    return np.vstack([found[k] for k in keys]).astype(np.float32, copy=False)


def cached_vectors(provider: EmbeddingProvider, texts: list[str], cache: EmbeddingCache | MemoryCache | None,
                   kind: str = "passage") -> list[np.ndarray | None]:
    """The vectors the cache already holds for ``texts`` with this provider (None where it has none); nothing
    is embedded (a document stored for keyword search at once keeps the vectors of an earlier ingest)."""
    if cache is None or not texts:
        return [None] * len(texts)
    keys = [cache_key(provider.name, t, kind) for t in texts]
    found = cache.get_many(list(dict.fromkeys(keys)))
    return [found.get(k) for k in keys]

