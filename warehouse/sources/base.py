"""One ``Source`` shape, three engines (SEC EDGAR, cninfo, HKEXnews): a source resolves what a user typed to
a listing, lists that listing's filings of the requested kinds since a date, and names the files to download
for each filing. Downloading, verification, the cache and supersession are the fetcher's (``fetch.py``):
sources only talk to their endpoints and classify what those endpoints return."""

from __future__ import annotations

import datetime as dt
import json
import os
import re
import time
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar
from urllib.parse import urljoin, urlsplit

from rapidfuzz.distance import DamerauLevenshtein

from schema.errors import FilingsError
from warehouse.sources.config import FetchConfig
from warehouse.sources.http import Http, HttpError
from warehouse.sources.verify import Expect

# A source's reference list (SEC tickers, cninfo stock list, HKEX active stocks) is refreshed once it is
# older than this; listed companies change names and codes rarely, new listings appear daily.
REFERENCE_MAX_AGE = dt.timedelta(days=1)
# How many close matches an unknown ticker / code / name is answered with.
SUGGESTIONS = 5
# Similarity (1 - edits / length) a suggestion needs: APPL -> AAPL is 0.75, a random ticker of 4 letters ~0.25.
CLOSE_ENOUGH = 0.6
_SAFE = re.compile(r"[^A-Za-z0-9._-]+")


class UnknownCompany(FilingsError):
    def __init__(self, query: str, where: str, suggestions: list[str]):
        self.query, self.suggestions = query, suggestions
        hint = f"; closest matches: {', '.join(suggestions)}" if suggestions else "; no close match"
        super().__init__(f"unknown company {query!r} at {where}{hint}")


class SourceError(FilingsError):
    """A source answered, but not with what we can use (an unknown CIK's 404, a listing in a new shape)."""


@dataclass(frozen=True)
class Listing:
    market: str  # US / A / HK
    code: str  # normalised stock code: AAPL, 600080, 0700.HK
    name: str | None
    key: str  # the source's own id of the company: CIK (10 digits), cninfo orgId, HKEX stockId


@dataclass(frozen=True)
class RemoteFile:
    url: str
    name: str  # file name in the cache (made safe by ``safe_name``)
    expect: Expect
    role: str = "document"  # document: ingested; support: read beside a document (XBRL schema, labels)
    exhibit: str | None = None  # EX-13, EX-99.1 for SEC exhibits


@dataclass
class Filing:
    source: str  # sec | cninfo | hkex
    source_id: str  # sec:<accession>, cninfo:<announcementId>, hkex:<NEWS_ID>:<lang>
    listing: Listing
    form: str  # the kind: 10-K, 10-K/A, 8-K, annual, summary, q1, interim, results ...
    title: str
    filed: dt.date
    fiscal_year: int | None = None
    period_end: dt.date | None = None
    language: str | None = None  # en / zh
    group: str | None = None  # filings of one group are one report; a corrected one supersedes the rest
    corrected: bool = False
    amends: str | None = None  # an amendment: the source id of the filing it amends
    files: list[RemoteFile] | None = None  # None: ask the source (SEC reads the filing index)
    supersedes: list[str] = field(default_factory=list)
    extra: dict = field(default_factory=dict)  # source-specific details (SEC: primary document, inline XBRL)


@dataclass
class Skip:
    """A listed item that is not fetched, and why (a notice about a report, a non-PDF, a superseded version)."""

    listing: Listing
    source_id: str
    title: str
    reason: str


def safe_name(name: str) -> str:
    """A remote file name made safe for the cache: its last path part, odd characters replaced."""
    base = name.replace("\\", "/").rsplit("/", 1)[-1]
    safe = _SAFE.sub("_", base).strip("._") or "file"
    return safe[:150]


def within(base: str, link: str) -> str | None:
    """``link`` (relative or absolute) resolved against ``base``; None when it leaves ``base``'s host."""
    url = urljoin(base.rstrip("/") + "/", link.strip())
    b, u = urlsplit(base), urlsplit(url)
    return url if (u.scheme, u.netloc) == (b.scheme, b.netloc) else None


def closest(query: str, choices: dict[str, str], n: int = SUGGESTIONS) -> list[str]:
    """Close matches of ``query`` among ``choices`` (key -> label shown; in the source's own order, which for
    SEC is by market value): by Damerau-Levenshtein similarity, ties broken by that order."""
    q = query.casefold()
    scored = []
    for rank, (key, label) in enumerate(choices.items()):
        sim = DamerauLevenshtein.normalized_similarity(q, key.casefold())
        if sim >= CLOSE_ENOUGH:
            scored.append((-sim, rank, label))
    out: list[str] = []
    for _sim, _rank, label in sorted(scored):
        if label not in out:
            out.append(label)
    return out[:n]


class Source(ABC):
    name: ClassVar[str]
    market: ClassVar[str]

    def __init__(self, config: FetchConfig, cache_dir: Path, http: Http):
        self.config = config
        self.cache_dir = Path(cache_dir) / self.name
        self.http = http

    def close(self) -> None:
        self.http.close()

    @abstractmethod
    def resolve(self, query: str) -> Listing:
        """What a user typed (code, ticker, name) -> the listing; :class:`UnknownCompany` with close matches."""

    @abstractmethod
    def filings(self, listing: Listing, since: dt.date, kinds: tuple[str, ...],
                languages: tuple[str, ...]) -> tuple[list[Filing], list[Skip]]:
        """Filings of ``kinds`` published on or after ``since``; items listed but not fetchable, with reasons."""

    def files(self, filing: Filing) -> list[RemoteFile]:
        """The files to download for a filing (known from the listing unless the source overrides this)."""
        return list(filing.files or [])

    # ---------------------------------------------------------------------------------- helpers
    def reference(self, file_name: str, url: str, params: dict | None = None):
        """A reference list (JSON), cached under the source's folder and refreshed after REFERENCE_MAX_AGE.
        A failed refresh falls back to the cached copy."""
        path = self.cache_dir / file_name
        fresh = path.is_file() and time.time() - path.stat().st_mtime < REFERENCE_MAX_AGE.total_seconds()
        if not fresh:
            try:
                data = self.http.json("GET", url, params=params)
            except HttpError:
                if not path.is_file():
                    raise
            else:
                path.parent.mkdir(parents=True, exist_ok=True)
                tmp = path.with_name(path.name + ".tmp")
                tmp.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
                os.replace(tmp, path)
                return data
        try:
            return json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            path.unlink(missing_ok=True)
            raise SourceError(f"{path}: cached reference list unreadable ({exc}); it is fetched again next run") from None
