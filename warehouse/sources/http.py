"""HTTP for the sources: one httpx client per source, a process-wide rate limit per source (pyrate-limiter),
retries with backoff on 429 / 5xx / connection errors that honour ``Retry-After`` (tenacity), and
resumable, verified downloads (``download``): bytes go to ``<file>.part``, an interrupted transfer resumes
with a Range request, and only a file whose size and signature check out is renamed into place.
"""

from __future__ import annotations

import email.utils
import json
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import httpx
from pyrate_limiter import Duration, Limiter, Rate
from tenacity import RetryCallState, Retrying, retry_if_exception, stop_after_attempt, wait_exponential_jitter

from schema.errors import FilingsError
from warehouse.ingest import sha256_file
from warehouse.sources.verify import Expect, check_file

RETRY_STATUSES = frozenset({429, 500, 502, 503, 504})
# The longest Retry-After we honour by waiting; a server asking for more fails the request with its reason.
MAX_RETRY_AFTER = 120.0
# Backoff when the server gives no Retry-After: 1 s, 2 s, 4 s ... (with jitter), at most this long.
BACKOFF_MAX = 30.0
CHUNK = 1 << 16

_LIMITERS: dict[str, tuple[float, Limiter, threading.Lock]] = {}
_LIMITERS_LOCK = threading.Lock()


def limiter_for(name: str, rate: float) -> tuple[Limiter, threading.Lock]:
    """One limiter and one in-flight lock per source for the whole process: every client of SEC shares SEC's
    budget, and one request at a time is in flight per source.

    The limiter counts request starts; a server counts arrivals, which a busy network or machine delays. With
    one request in flight, the arrivals within any second are at most the starts within that second plus one
    (each arrival lies between its own start and the next start), so the limiter allows floor(rate) - 1 starts
    per second: SEC, configured at 10, never sees more than 10 (measured: bench/fetch_replay.py rate). Below 2
    requests/s one start per 1 / rate seconds."""
    with _LIMITERS_LOCK:
        known = _LIMITERS.get(name)
        if known is None or known[0] != rate:
            if rate >= 2:
                limit = Rate(int(rate) - 1, Duration.SECOND)
            else:
                limit = Rate(1, max(1, round(Duration.SECOND / rate)))
            _LIMITERS[name] = (rate, Limiter(limit), threading.Lock())
        return _LIMITERS[name][1], _LIMITERS[name][2]


class HttpError(FilingsError):
    """A request that failed for good: the URL, the status or connection error, and what to do."""

    def __init__(self, method: str, url: str, reason: str, status: int | None = None, body: str = ""):
        self.url, self.status, self.body = url, status, body
        super().__init__(f"{method} {url}: {reason}")


class _Retryable(Exception):
    def __init__(self, response: httpx.Response):
        self.status = response.status_code
        self.retry_after = _retry_after(response.headers.get("retry-after"))
        super().__init__(f"HTTP {self.status}")


class _Rejected(FilingsError):
    """A downloaded file failed verification (wrong kind, truncated, wrong size)."""


def _retry_after(value: str | None) -> float | None:
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


def _retryable(exc: BaseException) -> bool:
    if isinstance(exc, _Retryable):
        return exc.retry_after is None or exc.retry_after <= MAX_RETRY_AFTER
    return isinstance(exc, httpx.TransportError)


def _waiter(initial: float):
    backoff = wait_exponential_jitter(multiplier=initial, max=BACKOFF_MAX, jitter=initial)

    def wait(state: RetryCallState) -> float:
        exc = state.outcome.exception() if state.outcome else None
        if isinstance(exc, _Retryable) and exc.retry_after is not None:
            return exc.retry_after
        return backoff(state)

    return wait


@dataclass
class Downloaded:
    path: Path
    sha256: str
    bytes: int
    content_type: str


class Http:
    def __init__(self, name: str, rate: float, headers: dict[str, str], timeout: float = 60.0, retries: int = 5,
                 backoff: float = 1.0, sleep: Callable[[float], None] = time.sleep):
        self.name = name
        self.limiter, self.inflight = limiter_for(name, rate)
        self.retries = retries
        self.wait = _waiter(backoff)
        self.sleep = sleep
        self.client = httpx.Client(headers=headers, timeout=timeout, follow_redirects=True)
        self.requests = 0

    def close(self) -> None:
        self.client.close()

    def _retrying(self) -> Retrying:
        return Retrying(retry=retry_if_exception(_retryable), wait=self.wait, stop=stop_after_attempt(self.retries),
                        sleep=self.sleep, reraise=True)

    def _send(self, method: str, url: str, **kwargs) -> httpx.Response:
        with self.inflight:
            self.limiter.try_acquire(self.name)
            self.requests += 1
            return self.client.request(method, url, **kwargs)

    def request(self, method: str, url: str, **kwargs) -> httpx.Response:
        """One request, retried on 429 / 5xx / connection errors. Any other non-2xx raises :class:`HttpError`."""
        try:
            for attempt in self._retrying():
                with attempt:
                    response = self._send(method, url, **kwargs)
                    if response.status_code in RETRY_STATUSES:
                        raise _Retryable(response)
        except _Retryable as exc:
            wait = f" (it asked to wait {exc.retry_after:.0f} s)" if exc.retry_after else ""
            raise HttpError(method, url, f"HTTP {exc.status} after {self.retries} attempt(s){wait}; try again later",
                            exc.status) from None
        except httpx.TransportError as exc:
            raise HttpError(method, url, f"connection failed after {self.retries} attempt(s) "
                                         f"({type(exc).__name__}: {exc})") from None
        if response.status_code >= 400:
            raise HttpError(method, url, f"HTTP {response.status_code}", response.status_code, response.text[:2000])
        return response

    def get(self, url: str, params: dict | None = None) -> httpx.Response:
        return self.request("GET", url, params=params)

    def json(self, method: str, url: str, **kwargs):
        response = self.request(method, url, **kwargs)
        try:
            return response.json()
        except ValueError:
            raise HttpError(method, url, f"expected JSON, got {response.headers.get('content-type', '?')} "
                                         f"({response.text[:80]!r})") from None

    # ------------------------------------------------------------------------------------ downloads
    def download(self, url: str, dest: Path, expect: Expect) -> Downloaded:
        """Fetch ``url`` into ``dest`` (resuming ``dest.part``), verify it, rename it into place."""
        part = dest.with_name(dest.name + ".part")
        meta = dest.with_name(dest.name + ".part.json")
        dest.parent.mkdir(parents=True, exist_ok=True)
        content_type = ""
        try:
            for attempt in self._retrying():
                with attempt:
                    content_type = self._transfer(url, part, meta)
        except _Retryable as exc:
            raise HttpError("GET", url, f"HTTP {exc.status} after {self.retries} attempt(s); try again later",
                            exc.status) from None
        except httpx.TransportError as exc:
            raise HttpError("GET", url, f"download interrupted {self.retries} time(s) "
                                        f"({type(exc).__name__}); the partial file is kept and resumed next run") from None
        problem = check_file(part, expect, content_type)
        if problem:
            part.unlink(missing_ok=True)
            meta.unlink(missing_ok=True)
            raise _Rejected(f"{url}: {problem}; not stored")
        sha = sha256_file(part)
        size = part.stat().st_size
        os.replace(part, dest)
        meta.unlink(missing_ok=True)
        _fsync_dir(dest.parent)
        return Downloaded(dest, sha, size, content_type)

    def _transfer(self, url: str, part: Path, meta: Path) -> str:
        offset = part.stat().st_size if part.exists() else 0
        headers = {}
        validator = _read_meta(meta) if offset else None
        if offset:
            headers["Range"] = f"bytes={offset}-"
            if validator:
                headers["If-Range"] = validator
        with self.inflight:
            self.limiter.try_acquire(self.name)
            self.requests += 1
            return self._stream(url, headers, part, meta, offset)

    def _stream(self, url: str, headers: dict, part: Path, meta: Path, offset: int) -> str:
        with self.client.stream("GET", url, headers=headers) as response:
            if response.status_code in RETRY_STATUSES:
                raise _Retryable(response)
            if response.status_code == 416:  # the part is stale or complete: start again
                part.unlink(missing_ok=True)
                raise httpx.RemoteProtocolError("range not satisfiable; restarting the download")
            if response.status_code >= 400:
                raise HttpError("GET", url, f"HTTP {response.status_code}", response.status_code)
            resumed = response.status_code == 206
            if resumed and _range_start(response) != offset:
                part.unlink(missing_ok=True)
                raise httpx.RemoteProtocolError("the server resumed at another offset; restarting the download")
            new_validator = response.headers.get("etag") or response.headers.get("last-modified")
            if new_validator and not resumed:
                meta.write_text(json.dumps({"validator": new_validator}), encoding="utf-8")
            with part.open("ab" if resumed else "wb") as fh:
                for chunk in response.iter_bytes(CHUNK):
                    fh.write(chunk)
                fh.flush()
                os.fsync(fh.fileno())
            return response.headers.get("content-type", "")


def _range_start(response: httpx.Response) -> int | None:
    value = response.headers.get("content-range", "")  # "bytes 100-999/1000"
    try:
        return int(value.split()[1].split("-")[0])
    except (IndexError, ValueError):
        return None


def _read_meta(meta: Path) -> str | None:
    try:
        return json.loads(meta.read_text(encoding="utf-8")).get("validator")
    except (OSError, ValueError, AttributeError):
        return None


def _fsync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
