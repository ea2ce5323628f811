"""The one writer of a home: a lock, a private copy, and publishing whole versions for readers.

Design (README "Readers are never blocked"): DuckDB lets one process hold a database file for writing and no
other process open it meanwhile, and an embedded Qdrant shard is held by one process at a time. So the writer
never writes what readers open. It takes ``writer.lock`` (fcntl; a second writer waits up to
``FILINGS_WRITER_WAIT`` seconds, then refuses with one line naming the holder), copies the current version into
``.writer/`` and writes there, one transaction per document. After a document, at most every
``FILINGS_PUBLISH_SECONDS`` (and at least ten times the last publish took), and at the end, it publishes: the
publish hooks copy the search shards into a new version folder, the database is checkpointed and copied
beside them, and the ``warehouse.duckdb`` symlink is swapped to the new folder (``warehouse.versions``).
Readers open the current version read-only; a kill -9 at any moment leaves the last published version whole
(the next writer starts from it and discards the private copy)."""

from __future__ import annotations

import datetime as dt
import fcntl
import os
import shutil
import sys
import time
import uuid
from collections.abc import Callable
from pathlib import Path

import duckdb

from schema.errors import FilingsError
from warehouse import versions

LOCK_FILE = "writer.lock"
PRIVATE = ".writer"
DEFAULT_WAIT = 10.0
DEFAULT_PUBLISH_SECONDS = 5.0


class WriterBusy(FilingsError):
    """Another process writes this home."""


def _seconds(env: str, default: float) -> float:
    raw = os.environ.get(env, "").strip()
    try:
        return max(0.0, float(raw)) if raw else default
    except ValueError:
        raise FilingsError(f"{env}={raw!r} is not a number of seconds") from None


class WriterLock:
    """``<home>/writer.lock``, held with fcntl.flock for the writer's life (released by the kernel if it dies).
    The file says who holds it: pid, command, since when."""

    def __init__(self, home: Path):
        self.path = home / LOCK_FILE
        self._fd: int | None = None

    def acquire(self, wait: float | None = None) -> None:
        wait = _seconds("FILINGS_WRITER_WAIT", DEFAULT_WAIT) if wait is None else wait
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        deadline = time.monotonic() + wait
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    holder = os.pread(fd, 512, 0).decode("utf-8", "replace").strip() or "another process"
                    os.close(fd)
                    raise WriterBusy(f"{self.path.parent}: another writer is running ({holder}); waited {wait:g} s "
                                     "(FILINGS_WRITER_WAIT): run this again when it has finished") from None
                time.sleep(0.2)
        command = " ".join(Path(a).name if i == 0 else a for i, a in enumerate(sys.argv[:3]))[:120]
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"pid {os.getpid()}, {command}, since {dt.datetime.now():%H:%M:%S}".encode(), 0)
        self._fd = fd

    def release(self) -> None:
        if self._fd is not None:
            os.ftruncate(self._fd, 0)
            fcntl.flock(self._fd, fcntl.LOCK_UN)
            os.close(self._fd)
            self._fd = None


class Writer:
    """A write session on a home: ``con`` is the private database; :meth:`publish` makes what it holds the
    version readers open. ``hooks`` (e.g. the search index) fill a new version folder before the database is
    copied into it; ``hook(folder, previous_folder)``."""

    def __init__(self, home: Path, wait: float | None = None):
        from warehouse import store

        self.home = Path(home)
        self.lock = WriterLock(self.home)
        self.lock.acquire(wait)
        self.hooks: list[Callable[[Path, Path], None]] = []
        self.dirty = False
        self.publishes: list[float] = []  # seconds each publish took (bench/concurrent_reads.py reports them)
        try:
            self.private = self.home / PRIVATE
            shutil.rmtree(self.private, ignore_errors=True)  # a killed writer's unpublished work: redone
            self.private.mkdir(parents=True)
            # a name of its own: DuckDB caches databases per process by path, and a later session of this process
            # must never be handed this one's
            self.db = self.private / f"warehouse-{os.getpid()}-{uuid.uuid4().hex[:8]}.duckdb"
            source = versions.current_db(self.home)
            if source.exists():
                versions.copy_file(source, self.db)
                wal = source.with_name(source.name + ".wal")  # a legacy (pre-version) home's pending WAL
                if wal.exists():
                    versions.copy_file(wal, self.db.with_name(self.db.name + ".wal"))
            self.con = duckdb.connect(str(self.db), config=store.LOCKED)
            self.dirty = store.prepare(self.con) or not source.exists()
        except BaseException:
            self.lock.release()
            raise
        self._last = time.monotonic()
        self.interval = _seconds("FILINGS_PUBLISH_SECONDS", DEFAULT_PUBLISH_SECONDS)
        if not source.exists():
            self.publish()  # a new home: readers see the schema and the company master at once

    def changed(self) -> None:
        self.dirty = True

    def maybe_publish(self) -> bool:
        """Publish if the interval has passed since the last one (and at least 10x the last publish's time)."""
        wait = max(self.interval, 10 * (self.publishes[-1] if self.publishes else 0.0))
        if self.dirty and time.monotonic() - self._last >= wait:
            self.publish()
            return True
        return False

    def publish(self) -> Path | None:
        """Make the private state the current version (only between documents: no transaction is open)."""
        if not self.dirty:
            return None
        t0 = time.perf_counter()
        previous = versions.version_dir(self.home)
        name, folder = versions.new_version(self.home)
        try:
            for hook in self.hooks:
                hook(folder, previous)
            self.con.execute("CHECKPOINT")
            versions.copy_file(self.db, folder / versions.DB_FILE)
            final = versions.swap_in(self.home, name, folder)
        except BaseException:
            shutil.rmtree(folder, ignore_errors=True)
            raise
        legacy = self.home / versions.QDRANT  # a pre-version home's shards: copied into the version by now
        if previous == self.home and legacy.is_dir() and (final / versions.QDRANT).is_dir():
            shutil.rmtree(legacy, ignore_errors=True)
        versions.collect_garbage(self.home)
        self.dirty = False
        self._last = time.monotonic()
        self.publishes.append(time.perf_counter() - t0)
        return final

    def close(self, publish: bool = True) -> None:
        """Publish what is left (unless ``publish`` is False: an aborted session), drop the private copy, unlock."""
        try:
            if publish:
                self.publish()
        finally:
            try:
                self.con.close()
            finally:
                shutil.rmtree(self.private, ignore_errors=True)
                self.lock.release()
