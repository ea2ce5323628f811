"""Dense vectors computed while an ingest is still parsing: the cores the parse leaves idle embed the prose of the
documents already stored, into the embedding cache, at the lowest CPU priority.

An ingest stores each document for keyword search as soon as it is parsed and fills in dense vectors afterwards
(``filings.api.Filings.ingest``). Parse workers and the writer leave part of the cores idle meanwhile (they wait on
each other); :class:`CacheWarmer` is one background thread, niced to 19 on Linux, with its own model sessions created
inside it (so onnxruntime's worker threads inherit the priority): parsing never waits for it. It only writes the
cache (:mod:`vectorstore.embedding_cache`, safe across threads); the dense phase then finds those vectors there and
embeds the rest. :meth:`CacheWarmer.stop` ends it between two batches, before the dense phase starts, and drops its
sessions. Vectors are the same as the dense phase's: the same graph and settings, keyed by the same provider name.
"""

from __future__ import annotations

import os
import queue
import threading

from vectorstore.embedding_cache import EmbeddingCache, embed_cached

WARM_BATCH = 64  # texts embedded between two looks at the stop flag
LOWEST_PRIORITY = 19


class CacheWarmer:
    """Embeds offered texts into ``cache`` on a background thread until :meth:`stop`. ``factory(setting)`` makes a
    fresh provider for a model setting (``vectorstore.embeddings.new_provider``)."""

    def __init__(self, cache: EmbeddingCache, factory, batch: int = WARM_BATCH):
        self.cache = cache
        self.factory = factory
        self.batch = batch
        self.embedded = 0  # texts embedded or found in the cache
        self.priority: int | None = None  # the thread's nice value once it runs (Linux)
        self._queue: queue.Queue = queue.Queue()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def offer(self, setting: str, texts: list[str]) -> None:
        """Queue a stored document's prose (``texts``) to embed with the model ``setting``."""
        if not texts or self._stop.is_set():
            return
        self._queue.put((setting, list(texts)))
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="filings-cache-warmer", daemon=True)
            self._thread.start()

    def stop(self) -> int:
        """Stop after the batch in hand; returns the number of texts embedded."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        return self.embedded

    def _run(self) -> None:
        try:
            os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), LOWEST_PRIORITY)
            self.priority = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
        except (AttributeError, OSError):  # not Linux: the thread runs at normal priority
            pass
        providers: dict[str, object] = {}
        try:
            while not self._stop.is_set():
                try:
                    setting, texts = self._queue.get(timeout=0.2)
                except queue.Empty:
                    continue
                provider = providers.get(setting) or providers.setdefault(setting, self.factory(setting))
                for b in range(0, len(texts), self.batch):
                    if self._stop.is_set():
                        return
                    part = texts[b:b + self.batch]
                    embed_cached(provider, part, self.cache)
                    self.embedded += len(part)
        except Exception:  # noqa: BLE001 - a head start only: the dense phase embeds whatever is not cached
            return
        finally:
            providers.clear()
