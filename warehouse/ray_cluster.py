"""The Ray engine of ``warehouse.cluster``: parse tasks and embedding actors on a Ray cluster, never the network
beyond the given address (no dashboard, no usage stats, logs in a temporary folder).

Parsing: one Ray task per document (``max_retries=0``: a failed task is that file's failure). A Ray worker
process cannot carry the parse memory limit itself (its address space is ~8 GB of reservations before any
work; ``RLIMIT_AS`` at 4 GiB aborts it), so each Ray worker keeps one spawned child under the limit, the
same one-worker pebble pool as ``warehouse.parse_pool``, and the task runs ``parse_job`` in it with the same
per-document timeout and the same failure lines; the task runs under the driver's ``FILINGS_*`` settings
(limits among them), as the local pool's children inherit them. The driver bounds in-flight tasks by the same window and
stops (``ray.cancel``) a task Ray never answers for (``BACKSTOP_SECONDS`` past the longest wait it can have).

Embedding: one actor per CPU of the cluster and setting, each loading ``provider_for(setting)`` once
(spread over the nodes; an actor holds no CPU while idle, so it never starves the parse tasks).

A remote cluster reads the files by the paths the driver gives (a shared filesystem, mounted at the same
place) and has this project installed in its Python.
"""

from __future__ import annotations

import logging
import os
import secrets
import shutil
import socket
import tempfile
import time
import warnings
from collections.abc import Callable, Iterable, Iterator
from typing import Any
from pathlib import Path

import numpy as np

from schema import limits
from schema.errors import FilingsError
from warehouse import parse_pool
from warehouse.cluster import Cluster, in_input_order
from warehouse.parse_pool import Outcome, bounded, in_flight, timed_out

# Read when ray is imported: never report usage; a Ray instance of ours listens on loopback and never probes an
# outside address (8.8.8.8) to find its IP (Ray's single-machine mode; a ray:// client starts no node).
os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")
import ray  # noqa: E402
from ray.util import ActorPool  # noqa: E402

CONNECT_SECONDS = 5  # TCP reachability check of a ray:// address before Ray's client retries (30 s and more)
SETTINGS_PREFIX = "FILINGS_"  # the driver settings a task runs under (limits among them)
BACKSTOP_SECONDS = 120  # beyond a task's longest legitimate wait (queued behind one parse, then its own)

_child_pools: dict[frozenset, object] = {}  # in a Ray worker process: the driver's settings -> its child pool


def _settings() -> dict[str, str]:
    """The driver's FILINGS_* settings (limits among them): each task runs under them, as the local pool does."""
    return {k: v for k, v in os.environ.items() if k.startswith(SETTINGS_PREFIX)}


def _apply(settings: dict[str, str]) -> None:
    for key in [k for k in os.environ if k.startswith(SETTINGS_PREFIX) and k not in settings]:
        del os.environ[key]
    os.environ.update(settings)


def _child_pool(settings: dict[str, str]):
    """The Ray worker's spawned child under the parse memory limit, made on first use with these settings
    (inherited from this process) and replaced by pebble when it dies."""
    key = frozenset(settings.items())
    if key not in _child_pools:
        import multiprocessing

        from pebble import ProcessPool

        for old in _child_pools.values():
            old.stop()
        _child_pools.clear()
        _child_pools[key] = ProcessPool(max_workers=1, context=multiprocessing.get_context("spawn"),
                                        initializer=parse_pool._limit_worker,
                                        initargs=(limits.PARSE_MEMORY_BYTES.value(),))
    return _child_pools[key]


@ray.remote(max_retries=0, num_cpus=1)
def _parse_task(path: str, settings: dict[str, str]):
    """One document on a Ray worker under the driver's settings: ``parse_job`` in the worker's limited child;
    (document, reason) with the local pool's reasons."""
    _apply(settings)
    timeout = limits.PARSE_SECONDS.value()
    future = _child_pool(settings).schedule(parse_pool.parse_job, args=(Path(path),), timeout=timeout)
    return parse_pool.future_outcome(Path(path), future, timeout)


@ray.remote
class _Embedder:
    """One provider loaded once; embeds batches of passages."""

    def __init__(self, load: Callable[[str], Any], setting: str):
        self.provider = load(setting)

    def embed(self, texts: list[str]) -> np.ndarray:
        return self.provider.embed_passages(texts)


def _reachable(address: str) -> None:
    host, _, port = address[len("ray://"):].rpartition(":")
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=CONNECT_SECONDS).close()
    except OSError as exc:
        raise FilingsError(f"{address}: cannot reach the Ray cluster ({exc.strerror or exc})") from None


def _private_token() -> None:
    """Token authentication for a Ray instance of ours with a token only this process (and its children) holds:
    nothing written to ~/.ray, no warning. Left alone when the user set RAY_AUTH_MODE."""
    if "RAY_AUTH_MODE" in os.environ:
        return
    from ray._private.authentication.authentication_token_setup import _enable_token_auth

    os.environ["RAY_AUTH_TOKEN"] = secrets.token_hex(32)
    _enable_token_auth()  # sets RAY_AUTH_MODE=token and refreshes Ray's cached config, as ray.init does


class RayCluster(Cluster):
    """A Ray cluster by client address, or (``address=None``) a Ray instance on this machine with ``workers``
    CPUs. An already initialised Ray (a test's fixture) is used as it is and left running."""

    name = "ray"

    def __init__(self, address: str | None, workers: int):
        self._temp: str | None = None
        self._embedders: dict[str, list] = {}
        self.owned = not ray.is_initialized()
        if self.owned:
            self._init(address, workers)
        self.workers = max(1, int(ray.cluster_resources().get("CPU", workers)))
        self.name = f"ray ({address or 'this machine'})"

    def _init(self, address: str | None, workers: int) -> None:
        options = {"logging_level": logging.ERROR, "log_to_driver": False}
        if address:
            _reachable(address)
        else:
            _private_token()
            self._temp = tempfile.mkdtemp(prefix="filings-ray-")
            options.update(num_cpus=max(1, workers), include_dashboard=False, _temp_dir=self._temp)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                ray.init(address, **options)
        except Exception as exc:  # Ray's own errors, many lines: one line naming the address
            self._cleanup()
            first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
            raise FilingsError(f"{address or 'local Ray'}: cannot start or join the Ray cluster ({first})") from None

    # parsing ------------------------------------------------------------------------------------
    def parse(self, paths: Iterable[Path], isolate: bool = True) -> Iterator[Outcome]:
        settings = _settings()
        timeout = limits.PARSE_SECONDS.value()
        overdue: set = set()
        deadline: dict = {}

        def submit(path: Path):
            ref = _parse_task.remote(str(path), settings)
            deadline[ref] = time.monotonic() + 2 * timeout + BACKSTOP_SECONDS
            return ref

        def finished(pending: set) -> list:
            wait = max(0.0, min(deadline[r] for r in pending) - time.monotonic())
            ready, _ = ray.wait(list(pending), num_returns=1, timeout=wait)
            if ready:
                return ready
            late = [r for r in pending if deadline[r] <= time.monotonic()]
            for ref in late:
                ray.cancel(ref, force=True)
            overdue.update(late)
            return late

        for path, ref in bounded(paths, in_flight(self.workers), submit, finished):
            deadline.pop(ref, None)
            if ref in overdue:
                yield path, None, timed_out(path, timeout)
                continue
            try:
                parsed, error = ray.get(ref)
            except Exception as exc:  # the task or its worker failed on the cluster: this file fails
                first = (str(exc).strip().splitlines() or [""])[0]
                parsed, error = None, f"{path}: parsing failed on the Ray cluster ({type(exc).__name__}: {first})"
            yield path, parsed, error

    # embedding ----------------------------------------------------------------------------------
    def embed(self, setting: str, texts: list[str], batch: int, load: Callable[[str], Any]) -> np.ndarray:
        if setting not in self._embedders:
            self._embedders[setting] = [_Embedder.options(scheduling_strategy="SPREAD").remote(load, setting)
                                        for _ in range(self.workers)]
        pool = ActorPool(self._embedders[setting])

        def run(chunks: list[list[str]]) -> list[np.ndarray]:
            return list(pool.map(lambda actor, chunk: actor.embed.remote(chunk), chunks))

        return in_input_order(texts, batch, run)

    def close(self) -> None:
        for actors in self._embedders.values():
            for actor in actors:
                ray.kill(actor)
        self._embedders.clear()
        if self.owned and ray.is_initialized():
            ray.shutdown()
        self._cleanup()

    def _cleanup(self) -> None:
        if self._temp:
            shutil.rmtree(self._temp, ignore_errors=True)
            self._temp = None
