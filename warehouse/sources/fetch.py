"""``fetch``: watchlist -> listings -> filings -> verified files in the cache, with a report.

Per watchlist entry: resolve it to one or more listings (a company of the master with A and H listings is
fetched from both markets), ask the listing's source for filings of the requested kinds since a date, drop
versions a correction in the same listing supersedes, and download each filing's files that the cache does
not hold yet. Idempotent by source id (a file already in the cache is not requested again) and by content
(a file whose bytes another source id already brought is recorded as a duplicate and not kept twice).
A failure names the entry or the file and the reason; the batch goes on."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from mappings.companies import alias_key, master, normalise_code
from mappings.sources import vocabulary
from schema.errors import ConfigError, FilingsError
from warehouse.ingest import sha256_file
from warehouse.sources.base import Filing, Listing, RemoteFile, Skip, Source, UnknownCompany, safe_name
from warehouse.sources.cache import HINT_TYPES, Cache, CacheEntry
from warehouse.sources.config import FetchConfig, load_config
from warehouse.sources.verify import check_file
from warehouse.sources.watchlist import WatchEntry

Event = Callable[[str], None]


@dataclass
class FetchItem:
    status: str  # fetched | unchanged | planned | skipped | failed
    origin: str = ""  # the watchlist line or "command line"
    query: str = ""
    reason: str | None = None
    market: str | None = None
    code: str | None = None
    company: str | None = None
    source_id: str | None = None
    form: str | None = None
    fiscal_year: int | None = None
    period_end: dt.date | None = None
    filed: dt.date | None = None
    title: str | None = None
    file: str | None = None  # path under the home
    bytes: int | None = None
    supersedes: list[str] = field(default_factory=list)


@dataclass
class FetchReport:
    since: dt.date
    items: list[FetchItem] = field(default_factory=list)
    listings: list[Listing] = field(default_factory=list)
    listed: dict[str, int] = field(default_factory=dict)  # listing code -> filings of the requested kinds listed
    requests: dict[str, int] = field(default_factory=dict)

    def count(self, status: str) -> int:
        return sum(1 for i in self.items if i.status == status)

    @property
    def failed(self) -> list[FetchItem]:
        return [i for i in self.items if i.status == "failed"]


def _sources() -> dict[str, type[Source]]:
    from warehouse.sources.cninfo import Cninfo
    from warehouse.sources.hkex import HkexNews
    from warehouse.sources.sec import SecEdgar

    return {"US": SecEdgar, "A": Cninfo, "HK": HkexNews}


def market_of_code(query: str) -> str | None:
    """The market a code's shape names: 0700.HK / 700 -> HK, 600080 -> A, an upper-case ticker -> US."""
    code = normalise_code(query)
    if code is None:
        return None
    if code.endswith(".HK"):
        return "HK"
    if code.isdigit():
        return "A"
    stripped = query.strip()
    return "US" if stripped.upper() == stripped or stripped.upper().startswith("CIK") else None


class Fetcher:
    def __init__(self, home: Path, config: FetchConfig | None = None, on_event: Event | None = None,
                 dry_run: bool = False):
        self.home = Path(home)
        self.config = config or load_config(self.home)
        self.cache = Cache(self.home / "cache")
        self.on_event = on_event or (lambda _text: None)
        self.dry_run = dry_run
        self._sources: dict[str, Source] = {}

    def close(self) -> None:
        for source in self._sources.values():
            source.close()
        self._sources.clear()

    def __enter__(self) -> Fetcher:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def source(self, market: str) -> Source:
        if market not in self._sources:
            self._sources[market] = _sources()[market](self.config, self.cache.root)
        return self._sources[market]

    # ------------------------------------------------------------------------------ resolution
    def resolve(self, entry: WatchEntry) -> list[Listing | FilingsError]:
        """Listings an entry names: by market and code, the company master's listings (a listing its source does
        not know comes back as its error), or a source's names."""
        if entry.market:
            return [self.source(entry.market).resolve(entry.query)]
        companies, securities = master()
        key = alias_key(entry.query)
        company = next((c for c in companies if key in {alias_key(n) for n in [c.name_en, c.name_zh, *c.aliases] if n}),
                       None)
        if company is not None:  # each listing on its own: one that its source does not know fails alone
            out: list[Listing | FilingsError] = []
            for s in securities:
                if s.company_id == company.company_id:
                    try:
                        out.append(self.source(s.market).resolve(s.stock_code))
                    except UnknownCompany as exc:
                        out.append(exc)
            return out
        market = market_of_code(entry.query)
        if market in ("A", "HK"):  # digits: a code of that market
            return [self.source(market).resolve(entry.query)]
        suggestions: list[str] = []
        problems: list[str] = []
        for m in ("US", "A", "HK"):  # a ticker or a name: SEC first, then the names cninfo and HKEX list
            try:
                return [self.source(m).resolve(entry.query)]
            except UnknownCompany as exc:
                suggestions += exc.suggestions
            except ConfigError as exc:
                problems.append(str(exc))
        raise UnknownCompany(entry.query, "SEC EDGAR, cninfo and HKEXnews" + (f" ({problems[0]})" if problems else ""),
                             suggestions[:5])

    # ------------------------------------------------------------------------------ the run
    def run(self, entries: list[WatchEntry], since: dt.date | None = None, forms: tuple[str, ...] = (),
            languages: tuple[str, ...] = (), lock: bool = True) -> FetchReport:
        vocab = vocabulary()
        unknown = vocab.unknown_forms(list(forms) + [f for e in entries for f in e.forms])
        if unknown:
            raise ConfigError(f"unknown form(s) {', '.join(unknown)}; known: {', '.join(vocab.all_form_words())}")
        if any(e.market == "US" or (not e.market and not e.error and market_of_code(e.query) == "US") for e in entries):
            self.config.sec_user_agent()  # refuse the run before any request when SEC would be asked
        report = FetchReport(since=since or self.config.default_since())
        if lock:
            with self.cache.lock():
                self._run(entries, report, forms, languages)
        else:
            self._run(entries, report, forms, languages)
        report.requests = {name: s.http.requests for name, s in ((s.name, s) for s in self._sources.values())}
        return report

    def _run(self, entries, report, forms, languages) -> None:
        vocab = vocabulary()
        for entry in entries:
            if entry.error:
                report.items.append(FetchItem("failed", entry.origin, entry.query, reason=f"{entry.origin}: {entry.error}"))
                continue
            self.on_event(f"resolve {entry.query}")
            try:
                listings = self.resolve(entry)
            except FilingsError as exc:
                report.items.append(FetchItem("failed", entry.origin, entry.query, reason=f"{entry.origin}: {exc}"))
                continue
            for listing in listings:
                if isinstance(listing, FilingsError):
                    report.items.append(FetchItem("failed", entry.origin, entry.query, reason=f"{entry.origin}: {listing}"))
                    continue
                report.listings.append(listing)
                kinds = vocab.kinds_for(entry.forms or forms, listing.market)
                if not kinds:
                    report.items.append(self._item("skipped", entry, listing, reason=(
                        f"none of the forms {', '.join(entry.forms or forms)} is published in market {listing.market}")))
                    continue
                langs = tuple(l for l in languages if l in ("en", "zh")) or vocab.languages.get(listing.market, ("en",))
                self.on_event(f"list {listing.code}")
                source = self.source(listing.market)
                try:
                    filings, skips = source.filings(listing, report.since, kinds, langs)
                except FilingsError as exc:
                    report.items.append(self._item("failed", entry, listing, reason=str(exc)))
                    continue
                report.listed[listing.code] = report.listed.get(listing.code, 0) + len(filings)
                filings, superseded = supersede_within(filings)
                for skip in skips + superseded:
                    report.items.append(self._item("skipped", entry, listing, source_id=skip.source_id,
                                                   title=skip.title, reason=skip.reason))
                for filing in sorted(filings, key=lambda f: (f.filed, f.source_id)):
                    self._filing(entry, source, filing, report)

    def _item(self, status: str, entry: WatchEntry, listing: Listing, **kw) -> FetchItem:
        return FetchItem(status, entry.origin, entry.query, market=listing.market, code=listing.code,
                         company=listing.name, **kw)

    def _filing_item(self, status, entry, filing: Filing, **kw) -> FetchItem:
        return self._item(status, entry, filing.listing, source_id=kw.pop("source_id", filing.source_id),
                          form=filing.form, fiscal_year=filing.fiscal_year, period_end=filing.period_end,
                          filed=filing.filed, title=filing.title, **kw)

    def _filing(self, entry: WatchEntry, source: Source, filing: Filing, report: FetchReport) -> None:
        cached = [e for e in self.cache.entries().values() if e.filing_id == filing.source_id]
        if cached and all(self.cache.present(e.source_id) for e in cached) and _complete(cached):
            for e in cached:
                if e.role == "document":
                    report.items.append(self._filing_item("unchanged", entry, filing, source_id=e.source_id,
                                                          file=self._rel(e), bytes=e.bytes))
            return
        if self.dry_run:
            report.items.append(self._filing_item("planned", entry, filing))
            return
        self.on_event(f"{filing.listing.code} {filing.form} {filing.filed}")
        try:
            files = source.files(filing)
        except FilingsError as exc:
            report.items.append(self._filing_item("failed", entry, filing, reason=str(exc)))
            return
        for remote in files:
            self._file(entry, source, filing, remote, len(files), report)

    def _rel(self, e: CacheEntry) -> str:
        return str(self.cache.file_of(e).relative_to(self.home))

    def _file(self, entry, source, filing: Filing, remote: RemoteFile, count: int, report: FetchReport) -> None:
        primary = remote.role == "document" and remote.exhibit is None
        sid = filing.source_id if primary else f"{filing.source_id}/{remote.name}"
        known = self.cache.present(sid)
        if known:
            if remote.role == "document":
                report.items.append(self._filing_item("unchanged", entry, filing, source_id=sid, file=self._rel(known)))
            return
        folder = self.cache.folder(source.name, filing.listing.code)
        sub = filing.source_id.split(":", 1)[1] if source.name == "sec" else ""
        dest = folder / safe_name(sub) / remote.name if sub else folder / remote.name
        if remote.role == "document":
            taken = self.cache.doc_names(folder).get(dest.stem)
            if taken and taken != sid:
                dest = dest.with_name(f"{dest.stem}_{safe_name(sid.split(':', 1)[1])}{dest.suffix}")
        self.on_event(f"download {dest.name}")
        try:
            if dest.is_file() and check_file(dest, remote.expect) is None:
                sha, size = sha256_file(dest), dest.stat().st_size  # verified earlier; its manifest line was lost
            else:
                done = source.http.download(remote.url, dest, remote.expect)
                sha, size = done.sha256, done.bytes
        except FilingsError as exc:
            report.items.append(self._filing_item("failed", entry, filing, source_id=sid, reason=str(exc)))
            return
        duplicate = self.cache.by_sha(sha) if remote.role == "document" else None
        supersedes = list(filing.supersedes)
        if filing.corrected and filing.group:
            supersedes += [e.source_id for e in self.cache.entries().values()
                           if e.group == filing.group and e.source == source.name and e.source_id != sid
                           and (e.filed or dt.date.min) <= filing.filed and e.source_id not in supersedes]
        cache_entry = CacheEntry(
            doc_name=dest.stem if remote.role == "document" else dest.name, path=str(dest.relative_to(folder)),
            source=source.name, source_id=sid, filing_id=filing.source_id, filing_files=count, source_url=remote.url,
            fetched_at=dt.datetime.now(dt.timezone.utc).replace(microsecond=0), sha256=sha, bytes=size,
            role=remote.role, market=filing.listing.market, stock_code=filing.listing.code,
            company=filing.listing.name, form=filing.form,
            doc_type="earnings" if remote.exhibit and remote.exhibit.upper().startswith("EX-99") else
            HINT_TYPES.get(filing.form, filing.form),
            doc_period=filing.fiscal_year, fiscal_year=filing.fiscal_year, period_end=filing.period_end,
            filed=filing.filed, title=filing.title, language=filing.language, exhibit=remote.exhibit,
            group=filing.group if primary else None, corrected=filing.corrected, supersedes=supersedes,
            amends=filing.amends, duplicate_of=duplicate.source_id if duplicate and duplicate.source_id != sid else None,
        )
        if cache_entry.duplicate_of:
            dest.unlink(missing_ok=True)
            self.cache.record(folder, cache_entry)
            report.items.append(self._filing_item("skipped", entry, filing, source_id=sid, reason=(
                f"same content as {duplicate.source_id} ({duplicate.doc_name}); not stored twice")))
            return
        self.cache.record(folder, cache_entry)
        if remote.role == "document":
            report.items.append(self._filing_item("fetched", entry, filing, source_id=sid, file=self._rel(cache_entry),
                                                  bytes=size, supersedes=supersedes))


def supersede_within(filings: list[Filing]) -> tuple[list[Filing], list[Skip]]:
    """In each group with a corrected version, the latest corrected one replaces the versions filed before it."""
    groups: dict[str, list[Filing]] = {}
    for f in filings:
        if f.group:
            groups.setdefault(f.group, []).append(f)
    dropped: dict[str, Skip] = {}
    for members in groups.values():
        corrected = [f for f in members if f.corrected]
        if not corrected:
            continue
        winner = max(corrected, key=lambda f: (f.filed, f.source_id))
        for f in members:
            if f is not winner and f.filed <= winner.filed:
                winner.supersedes.append(f.source_id)
                dropped[f.source_id] = Skip(f.listing, f.source_id, f.title,
                                            f"superseded by {winner.source_id} ({winner.title}), a corrected version")
    return [f for f in filings if f.source_id not in dropped], list(dropped.values())


def _complete(entries: list[CacheEntry]) -> bool:
    expected = max((e.filing_files or 0 for e in entries), default=0)
    return len(entries) >= expected
