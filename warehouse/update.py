"""``update`` = fetch + ingest of what is new + removal of what a correction replaced, with one run report.

What is new is decided from the cache manifests and the warehouse, never from a separate state file: a
cached document whose sha256 is not in ``documents`` (nor remembered as superseded or unreadable) is
ingested. So a run killed at any moment leaves nothing to repair: a half-downloaded file is only a
``.part`` (resumed next run), a downloaded file not yet ingested is picked up next run, and a document is
stored in one transaction or not at all.

Statuses: added (ingested now), superseded (removed: a corrected version replaced it), unchanged (already
in the warehouse), skipped (not ingested, with the reason), failed (with the reason). Exit status: 0 when
nothing failed, 1 otherwise."""

from __future__ import annotations

import datetime as dt
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import duckdb

import parsers
from warehouse.ingest import IngestReport
from warehouse.sources.cache import CacheEntry
from warehouse.sources.config import FetchConfig
from warehouse.sources.fetch import Event, Fetcher, FetchItem, FetchReport
from warehouse.sources.watchlist import WatchEntry
from warehouse.supersede import remove_document


@dataclass
class UpdateItem(FetchItem):
    """One line of the run report: status added | superseded | unchanged | skipped | failed."""

    document_id: str | None = None


@dataclass
class UpdateReport:
    run_id: str
    started_at: dt.datetime
    fetch: FetchReport
    items: list[UpdateItem] = field(default_factory=list)
    finished_at: dt.datetime | None = None
    indexed: int = 0  # stored documents an interrupted earlier run left without search units, indexed now

    def count(self, status: str) -> int:
        return sum(1 for i in self.items if i.status == status)

    @property
    def failed(self) -> list[UpdateItem]:
        return [i for i in self.items if i.status == "failed"]

    @property
    def exit_status(self) -> int:
        return 1 if self.failed else 0


def _item(status: str, e: CacheEntry, file: str, **kw) -> UpdateItem:
    return UpdateItem(status, source_id=e.source_id, market=e.market, code=e.stock_code, company=e.company,
                      form=e.form, fiscal_year=e.fiscal_year, period_end=e.period_end, filed=e.filed, title=e.title,
                      file=file, bytes=e.bytes, document_id=e.sha256, **kw)


def _unreadable(path: Path, e: CacheEntry) -> str | None:
    """Why no parser reads a fetched file (an earnings-release exhibit in plain HTML), or None."""
    if parsers.detect(path) is not None:
        return None
    what = f"{e.exhibit} exhibit" if e.exhibit else f"{e.form} document"
    return f"{path.name}: no parser reads this {what} ({path.suffix or 'no suffix'} without inline XBRL); kept in the cache"


def update(connect: Callable[[], duckdb.DuckDBPyConnection] | duckdb.DuckDBPyConnection, home: Path,
           entries: list[WatchEntry], *,
           ingest: Callable[[list[Path]], IngestReport], on_removed: Callable[[str, str | None], None] | None = None,
           since: dt.date | None = None, forms: tuple[str, ...] = (), languages: tuple[str, ...] = (),
           config: FetchConfig | None = None, on_event: Event | None = None) -> UpdateReport:
    """Fetch the watchlist's new filings, ingest what the warehouse lacks, remove what corrections replaced.
    ``connect`` opens the warehouse for writing, after the fetch (the network part holds no database lock), or
    is the open connection;
    ``ingest`` stores (and indexes) files; ``on_removed(document_id, market)`` drops a removed document's
    search units."""
    report_id = uuid.uuid4().hex[:12]
    started = dt.datetime.now()
    on_event = on_event or (lambda _text: None)
    with Fetcher(home, config, on_event) as fetcher, fetcher.cache.lock():
        fetched = fetcher.run(entries, since, forms, languages, lock=False)
        report = UpdateReport(report_id, started, fetched)
        for it in fetched.items:
            if it.status in ("failed", "skipped"):
                report.items.append(UpdateItem(**vars(it)))
        cache = fetcher.cache
        con = connect if isinstance(connect, duckdb.DuckDBPyConnection) else connect()
        listings = {(l.market, l.code) for l in fetched.listings}
        documents = sorted((e for e in cache.entries().values()
                            if (e.market, e.stock_code) in listings and e.role == "document" and not e.duplicate_of),
                           key=lambda e: (e.filed or dt.date.min, e.source_id))
        replaced_by = {old: e for e in documents for old in e.supersedes}
        todo: dict[str, CacheEntry] = {}
        for e in documents:
            path = cache.file_of(e)
            rel = str(path.relative_to(home))
            stored = con.execute("SELECT 1 FROM documents WHERE document_id = ?", [e.sha256]).fetchone()
            if e.source_id in replaced_by:
                continue  # removed below once its replacement is stored; never ingested anew
            if stored:
                report.items.append(_item("unchanged", e, rel))
                continue
            remembered = con.execute("SELECT status, reason FROM ingest_runs WHERE document_id = ? AND status = 'skipped' "
                                     "UNION ALL SELECT 'superseded', reason FROM superseded WHERE document_id = ? LIMIT 1",
                                     [e.sha256, e.sha256]).fetchone()
            if remembered:
                report.items.append(_item("unchanged", e, rel, reason=remembered[1]))
                continue
            if not path.is_file():
                report.items.append(_item("failed", e, rel, reason=f"{rel}: cached file missing; run `filings fetch` again"))
                continue
            why = _unreadable(path, e)
            if why:
                now = dt.datetime.now()
                con.execute("INSERT INTO ingest_runs VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                            [report_id, now, now, str(path), e.sha256, "skipped", why, 0.0])
                report.items.append(_item("skipped", e, rel, reason=why))
                continue
            todo[str(path)] = e
        if todo:
            on_event(f"ingest {len(todo)} document(s)")
            t0 = time.perf_counter()
            ingested = ingest([Path(p) for p in todo])
            on_event(f"ingested in {time.perf_counter() - t0:.1f} s")
            for r in ingested.results:
                e = todo.get(r.path)
                if e is None:
                    continue
                rel = str(Path(r.path).relative_to(home))
                report.items.append(_item(r.status if r.status in ("added", "unchanged", "skipped") else "failed", e, rel,
                                          reason=r.reason))
        _supersede(con, home, cache, documents, replaced_by, report, on_removed)
    report.finished_at = dt.datetime.now()
    return report


def _supersede(con, home, cache, documents, replaced_by, report, on_removed) -> None:
    by_id = {e.source_id: e for e in documents}
    for old_id, new in replaced_by.items():
        old = by_id.get(old_id) or cache.entries().get(old_id)
        if old is None:
            continue
        in_store = con.execute("SELECT market FROM documents WHERE document_id = ?", [old.sha256]).fetchone()
        if in_store is None:
            continue
        replacement = con.execute("SELECT 1 FROM documents WHERE document_id = ?", [new.sha256]).fetchone()
        rel = str(cache.file_of(old).relative_to(home))
        if replacement is None:
            report.items.append(_item("unchanged", old, rel, reason=(
                f"its correction {new.source_id} is not in the warehouse (see its failure); this version stays")))
            continue
        reason = f"replaced by {new.source_id} ({new.title}), a corrected version"
        if remove_document(con, old.sha256, new.sha256, old.source_id, reason, report.run_id):
            if on_removed:
                on_removed(old.sha256, in_store[0])
            report.items.append(_item("superseded", old, rel, reason=reason))
