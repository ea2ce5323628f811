"""Where parse jobs and embedding batches run: one interface, two engines (DESIGN.md section 8).

``open_cluster(spec, workers)`` gives a :class:`Cluster`:

- no spec (and no ``FILINGS_RAY_ADDRESS``), or ``local``: :class:`LocalCluster`, the spawned process pool of
  ``warehouse.parse_pool`` and embedding in this process;
- ``ray://host:port``: a Ray cluster by its client address; ``local-ray`` or ``auto``: a Ray instance started on
  this machine with ``workers`` CPUs (tests, measurements). Both are ``warehouse.ray_cluster.RayCluster``.

Both engines run the same ``parse_job`` under the same memory and time limits, schedule at most
``parse_pool.in_flight(workers)`` parses ahead of what the driver has stored, and yield outcomes as they finish
with the same one-line reasons. What stays on the driver: walking, hashing, every DuckDB write (one writer).
``Cluster.embed`` returns vectors in input order (the caller passes the provider loader); both engines embed the same length-sorted batches, so their
vectors are the same.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from typing import Any
from pathlib import Path

import numpy as np

from schema.errors import FilingsError
from warehouse.parse_pool import Outcome, parse_files

RAY_ADDRESS_ENV = "FILINGS_RAY_ADDRESS"
LOCAL_RAY = ("local-ray", "auto")  # a Ray instance on this machine, ray.init(num_cpus=workers)
LOCAL = ("", "local")  # the process pool


class Cluster:
    """The executor interface ``warehouse.ingest`` and the indexer use. ``workers``: parses run at once."""

    name = "cluster"
    workers = 1

    def parse(self, paths: Iterable[Path], isolate: bool = True) -> Iterator[Outcome]:
        raise NotImplementedError

    def embed(self, setting: str, texts: list[str], batch: int, load: Callable[[str], Any]) -> np.ndarray:
        """Passage vectors of ``texts`` with the provider ``load(setting)`` gives (``vectorstore.embeddings.
        provider_for``; passed in, as the warehouse knows no models): an array (len(texts), dim), input order."""
        raise NotImplementedError

    def close(self) -> None:
        pass

    def __enter__(self) -> Cluster:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class LocalCluster(Cluster):
    """This machine: the spawned process pool for parsing, the embedding provider in this process."""

    name = "process pool"

    def __init__(self, workers: int):
        self.workers = max(1, workers)

    def parse(self, paths: Iterable[Path], isolate: bool = True) -> Iterator[Outcome]:
        return parse_files(paths, workers=self.workers, isolate=isolate)

    def embed(self, setting: str, texts: list[str], batch: int, load: Callable[[str], Any]) -> np.ndarray:
        provider = load(setting)
        return in_input_order(texts, batch, lambda chunks: map(provider.embed_passages, chunks))


def length_batches(texts: list[str], batch: int) -> list[list[int]]:
    """Indexes of ``texts`` sorted by length, cut into batches of ``batch`` (similar lengths pad least); one empty
    batch for no texts, so that the provider still tells the dimension."""
    order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
    size = max(1, batch)
    return [order[i:i + size] for i in range(0, len(order), size)] or [[]]


def in_input_order(texts: list[str], batch: int,
                   run: Callable[[list[list[str]]], Iterable[np.ndarray]]) -> np.ndarray:
    """Embed ``texts`` by length-sorted batches with ``run`` (batches of texts -> their arrays, same order) and
    put the rows back in input order."""
    batches = length_batches(texts, batch)
    arrays = list(run([[texts[i] for i in b] for b in batches]))
    vectors = np.concatenate(arrays) if arrays else np.zeros((0, 0), np.float32)
    out = np.empty_like(vectors)
    out[[i for b in batches for i in b]] = vectors
    return out


def resolve_spec(spec: str | None) -> str:
    """The cluster spec in force: ``spec`` (``--cluster``), else ``FILINGS_RAY_ADDRESS``, else local. Checked
    here (no connection yet): an unknown form is a FilingsError naming it."""
    value = (spec if spec is not None else os.environ.get(RAY_ADDRESS_ENV, "")).strip()
    if value.lower() in LOCAL + LOCAL_RAY:
        return value.lower()
    if not value.startswith("ray://"):
        raise FilingsError(f"cluster {value!r}: expected ray://host:port, local-ray, auto or local")
    host, _, port = value[len("ray://"):].rpartition(":")
    if not host or not port.isdigit():
        raise FilingsError(f"cluster {value!r}: expected ray://host:port (a host and a port number)")
    return value


def open_cluster(spec: str | Cluster | None, workers: int) -> Cluster:
    """The executor for a spec (see the module doc); a Cluster passes through. A Ray address that cannot be
    reached is a FilingsError with one line naming it."""
    if isinstance(spec, Cluster):
        return spec
    value = resolve_spec(spec)
    if value in LOCAL:
        return LocalCluster(workers)
    from warehouse.ray_cluster import RayCluster

    return RayCluster(None if value in LOCAL_RAY else value, workers)
