"""The download cache under ``$FILINGS_HOME/cache``: ``<source>/<code>/`` folders (SEC filings one folder
further down, per accession) with one manifest per company, ``documents.jsonl``: one JSON line per file,
written only after the file is verified and in place, so a line always describes a complete file. The
manifest's ``doc_name`` / ``company`` / ``stock_code`` / ``market`` / ``doc_type`` / ``doc_period`` fields are the
hints ``warehouse/manifest.py`` reads at ingest; the rest records where the file came from (source URL,
source id, fetched at, sha256, form, period) and what it replaces (``supersedes``) or repeats
(``duplicate_of``).

Appends are flushed and fsynced; a line torn by a crash is ignored on load (its file is adopted again from
disk by the next fetch). One fetch or update at a time holds ``cache/.lock``."""

from __future__ import annotations

import datetime as dt
import json
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import filelock
from pydantic import BaseModel, ConfigDict

from schema.errors import FilingsError
from warehouse.sources.base import safe_name

MANIFEST = "documents.jsonl"
LOCK = ".lock"
# Hint words warehouse/manifest.py and the PDF recogniser understand, per fetched kind.
HINT_TYPES = {"10-K": "10k", "10-Q": "10q", "8-K": "8k", "20-F": "20f", "results": "results_announcement"}


class Busy(FilingsError):
    """Another fetch or update holds the cache."""


class CacheEntry(BaseModel):
    model_config = ConfigDict(extra="ignore")

    doc_name: str  # the file stem (the warehouse's doc_name)
    path: str  # relative to the manifest's folder
    source: str
    source_id: str  # one per file: the filing's id, plus "/<file name>" for an SEC exhibit or support file
    filing_id: str  # the filing's id at its source
    filing_files: int | None = None  # how many files the filing has in the cache when complete
    source_url: str
    fetched_at: dt.datetime
    sha256: str
    bytes: int
    role: str = "document"
    market: str
    stock_code: str
    company: str | None = None
    form: str
    doc_type: str | None = None
    doc_period: int | None = None
    fiscal_year: int | None = None
    period_end: dt.date | None = None
    filed: dt.date | None = None
    title: str | None = None
    language: str | None = None
    exhibit: str | None = None
    group: str | None = None
    corrected: bool = False
    supersedes: list[str] = []
    amends: str | None = None
    duplicate_of: str | None = None


class Cache:
    def __init__(self, root: Path):
        self.root = Path(root)
        self._entries: dict[str, CacheEntry] | None = None
        self._folders: dict[str, Path] = {}

    @contextmanager
    def lock(self) -> Iterator[None]:
        self.root.mkdir(parents=True, exist_ok=True)
        lock = filelock.FileLock(str(self.root / LOCK), timeout=0)
        try:
            lock.acquire()
        except filelock.Timeout:
            raise Busy(f"another `filings fetch` or `filings update` is running on {self.root.parent} "
                       "(it holds cache/.lock); wait for it to finish and run again") from None
        try:
            yield
        finally:
            lock.release()

    def folder(self, source: str, code: str) -> Path:
        return self.root / safe_name(source) / safe_name(code)

    # --------------------------------------------------------------------------------- reading
    def entries(self) -> dict[str, CacheEntry]:
        """Every manifest line, by source id (the last line of an id wins)."""
        if self._entries is None:
            self._entries = {}
            for manifest in sorted(self.root.glob(f"*/*/{MANIFEST}")):
                for entry in _read(manifest):
                    self._entries[entry.source_id] = entry
                    self._folders[entry.source_id] = manifest.parent
        return self._entries

    def file_of(self, entry: CacheEntry) -> Path:
        self.entries()
        return self._folders[entry.source_id] / entry.path

    def present(self, source_id: str) -> CacheEntry | None:
        """The entry when its file is in the cache with the recorded size (duplicates have no file)."""
        entry = self.entries().get(source_id)
        if entry is None:
            return None
        if entry.duplicate_of:
            return entry
        path = self.file_of(entry)
        return entry if path.is_file() and path.stat().st_size == entry.bytes else None

    def by_sha(self, sha256: str) -> CacheEntry | None:
        return next((e for e in self.entries().values() if e.sha256 == sha256 and not e.duplicate_of), None)

    def doc_names(self, folder: Path) -> dict[str, str]:
        """doc_name -> source id of the entries already in one manifest folder."""
        self.entries()
        return {e.doc_name: sid for sid, e in self._entries.items() if self._folders[sid] == folder}

    # --------------------------------------------------------------------------------- writing
    def record(self, folder: Path, entry: CacheEntry) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        line = entry.model_dump_json(exclude_none=True) + "\n"
        with (folder / MANIFEST).open("a", encoding="utf-8") as fh:
            fh.write(line)
            fh.flush()
            os.fsync(fh.fileno())
        self.entries()[entry.source_id] = entry
        self._folders[entry.source_id] = folder


def _read(manifest: Path) -> Iterator[CacheEntry]:
    try:
        lines = manifest.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return
    for line in lines:
        if not line.strip():
            continue
        try:
            yield CacheEntry.model_validate(json.loads(line))
        except ValueError:
            continue  # a line torn by a crash or written by hand: its file is adopted again on the next fetch
