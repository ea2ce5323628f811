"""Parsing files in worker processes, each under a memory bound and each document under a time bound.

Every parse runs in a spawned worker (one worker too: the single-worker path is isolated the same way),
whose address space is limited to ``limits.PARSE_MEMORY_BYTES`` (``RLIMIT_AS``, set when the worker
starts). A parse over the limit fails with MemoryError inside the worker, or the worker dies; a parse
running longer than ``limits.PARSE_SECONDS`` is stopped. Each of these is that file's failure, with one
line naming the file and the limit; the pool replaces the worker and the batch goes on (pebble's
``ProcessPool`` does the bookkeeping: per-task timeouts and a new worker after one dies).

At most ``IN_FLIGHT_PER_WORKER`` x workers parses are scheduled ahead of what the caller has consumed (a
sliding window, ``bounded``): a driver slower than its workers holds them back instead of collecting parsed
documents in memory. ``warehouse.cluster`` runs the same jobs, window and outcome lines on Ray.

``isolate=False`` parses in the calling process (benchmarks that time the parser alone).
"""

from __future__ import annotations

import multiprocessing
import os
import resource
import signal
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, TimeoutError as FutureTimeout, wait
from itertools import islice
from pathlib import Path
from typing import TypeVar

from pebble import ProcessExpired, ProcessPool

import parsers
from schema import limits
from schema.errors import FilingsError
from schema.models import ParsedDocument
from warehouse.manifest import manifest_hints

Outcome = tuple[Path, ParsedDocument | None, str | None]
T = TypeVar("T")
H = TypeVar("H")

IN_FLIGHT_PER_WORKER = 2  # parses scheduled ahead per worker: keeps each worker busy while the driver stores,
# without piling parsed documents up in memory (scheduling all at once reached ~6 GB RSS on the whole corpus)


def parse_job(path: Path) -> tuple[ParsedDocument | None, str | None]:
    """Parse one file: (document, None) or (None, one-line reason). Manifest warnings go on the document."""
    try:
        hints, notes = manifest_hints(path)
        parsed = parsers.parse(path, hints=hints)
        parsed.warnings[:0] = notes
        return parsed, None
    except FilingsError as exc:
        return None, str(exc)
    except MemoryError:
        return None, f"{path}: out of memory while parsing ({limits.PARSE_MEMORY_BYTES.describe()})"
    except RecursionError:
        return None, f"{path}: structure nested too deeply to parse"
    except Exception as exc:  # a parser bug must not stop the batch; the report names it
        return None, f"{path}: internal error while parsing ({type(exc).__name__}: {exc})"


def _limit_worker(memory_bytes: int) -> None:
    """Worker initializer: bound the address space; leave Ctrl-C to the parent."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    cap = memory_bytes if hard == resource.RLIM_INFINITY else min(memory_bytes, hard)
    resource.setrlimit(resource.RLIMIT_AS, (cap, hard))


def _died(path: Path, exc: ProcessExpired) -> str:
    code = exc.exitcode
    try:
        how = f"signal {signal.Signals(-code).name}" if code is not None and code < 0 else f"exit code {code}"
    except ValueError:
        how = f"exit code {code}"
    return (f"{path}: the parsing process died ({how}), most likely over "
            f"{limits.PARSE_MEMORY_BYTES.describe()}")


def parse_files(paths: Iterable[Path], workers: int = 1, isolate: bool = True,
                on_start: Callable[[Path], None] | None = None) -> Iterator[Outcome]:
    """Parse files; yields (path, document or None, reason or None) as each finishes (any order). At most
    ``in_flight(workers)`` parses are scheduled ahead of what the caller has consumed."""
    paths = list(paths)
    if not paths:
        return
    if not isolate:
        for path in paths:
            if on_start:
                on_start(path)
            yield (path, *parse_job(path))
        return
    memory = limits.PARSE_MEMORY_BYTES.value()
    timeout = limits.PARSE_SECONDS.value()
    ctx = multiprocessing.get_context("spawn")
    with ProcessPool(max_workers=max(1, min(workers, len(paths))), context=ctx, initializer=_limit_worker,
                     initargs=(memory,)) as pool:
        def submit(path: Path):
            return pool.schedule(parse_job, args=(path,), timeout=timeout)

        for path, future in bounded(paths, in_flight(workers), submit, _first_done):
            yield (path, *future_outcome(path, future, timeout))


def future_outcome(path: Path, future, timeout: int) -> tuple[ParsedDocument | None, str | None]:
    """The outcome of a finished pebble future of ``parse_job``: (document, None) or (None, one-line reason)."""
    try:
        return future.result()
    except FutureTimeout:
        return None, timed_out(path, timeout)
    except ProcessExpired as exc:
        return None, _died(path, exc)
    except MemoryError:
        return None, f"{path}: out of memory while parsing ({limits.PARSE_MEMORY_BYTES.describe()})"
    except Exception as exc:  # the result could not come back (pickling, a broken pipe): this file fails
        return None, f"{path}: parsing failed in the worker ({type(exc).__name__}: {exc})"


def _first_done(pending):
    return wait(pending, return_when=FIRST_COMPLETED).done


def timed_out(path: Path, timeout: int) -> str:
    return f"{path}: parsing stopped after {timeout:,} s ({limits.PARSE_SECONDS.describe()})"


def in_flight(workers: int) -> int:
    """How many parses may be scheduled ahead of what the driver has consumed (stored)."""
    return IN_FLIGHT_PER_WORKER * max(1, workers)


def bounded(items: Iterable[T], limit: int, submit: Callable[[T], H],
            finished: Callable[[set[H]], Iterable[H]]) -> Iterator[tuple[T, H]]:
    """A sliding window: ``submit`` at most ``limit`` items beyond those yielded; yield (item, handle) as
    ``finished`` (given the pending handles, blocks until some are done) reports them. A new item is submitted
    only after the caller has taken one, so a slow consumer holds back the producers."""
    source = iter(items)
    pending: dict[H, T] = {}

    def top_up() -> None:
        for item in islice(source, max(0, limit - len(pending))):
            pending[submit(item)] = item

    top_up()
    while pending:
        for handle in finished(set(pending)):
            yield pending.pop(handle), handle
            top_up()


def default_workers() -> int:
    """FILINGS_WORKERS, else the machine's cores; at most 8."""
    raw = os.environ.get("FILINGS_WORKERS", "").strip()
    wanted = int(raw) if raw.isdigit() else 0
    return max(1, min(wanted or (os.cpu_count() or 1), 8))
