"""What to fetch: a watchlist file (``watchlist.csv``: one company per line) or codes / names given on the
command line.

A watchlist line is a code, ticker or name, optionally followed by a market (US, A, HK) and forms
(``annual;q1``), as CSV. A header line (``code,market,forms``) may name the columns; ``#`` starts a comment.

    code,market,forms
    AAPL
    600080,A,annual;interim
    0700.HK
    Tencent,HK

A line that cannot be read becomes an entry with its line number and the reason; the others go on."""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path

from mappings.sources import MARKETS

HEADER_NAMES = {"code": "code", "ticker": "code", "symbol": "code", "stock_code": "code", "company": "code",
                "name": "code", "market": "market", "forms": "forms", "form": "forms"}
MARKET_WORDS = {"US": "US", "A": "A", "CN": "A", "SH": "A", "SZ": "A", "HK": "HK", "H": "HK"}


@dataclass(frozen=True)
class WatchEntry:
    query: str  # code, ticker or name as written
    origin: str  # "watchlist.csv line 3" or "command line"
    market: str | None = None
    forms: tuple[str, ...] = ()
    error: str | None = None  # the line could not be read: why


def _split_forms(text: str) -> tuple[str, ...]:
    return tuple(f.strip() for f in text.replace(";", ",").replace("|", ",").split(",") if f.strip())


def read_watchlist(path: Path) -> list[WatchEntry]:
    """Entries of a watchlist file; unreadable lines come back as entries with ``error`` set."""
    raw = path.read_bytes()
    entries: list[WatchEntry] = []
    columns: list[str] | None = None
    for number, line_bytes in enumerate(raw.splitlines(), 1):
        origin = f"{path} line {number}"
        try:
            line = line_bytes.decode("utf-8-sig" if number == 1 else "utf-8")
        except UnicodeDecodeError as exc:
            entries.append(WatchEntry(query="", origin=origin, error=f"not UTF-8 text ({exc.reason} at byte {exc.start})"))
            continue
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        try:
            cells = [c.strip() for c in next(csv.reader([line]))]
        except csv.Error as exc:
            entries.append(WatchEntry(query=line.strip(), origin=origin, error=f"not a CSV line ({exc})"))
            continue
        if columns is None and cells and cells[0].lower() in HEADER_NAMES and all(
                c.lower() in HEADER_NAMES for c in cells if c):
            columns = [HEADER_NAMES[c.lower()] for c in cells]
            continue
        names = columns or ["code", "market", "forms"]
        if len(cells) > len(names) and any(cells[len(names):]):
            entries.append(WatchEntry(query=cells[0], origin=origin,
                                      error=f"{len(cells)} columns where {', '.join(names)} are expected"))
            continue
        row = dict(zip(names, cells))
        entries.append(entry(row.get("code", ""), origin, row.get("market", ""), row.get("forms", "")))
    return entries


def entry(query: str, origin: str, market: str = "", forms: str = "") -> WatchEntry:
    query = (query or "").strip()
    if not query:
        return WatchEntry(query="", origin=origin, error="no code or name")
    m = (market or "").strip().upper()
    if m and m not in MARKET_WORDS:
        return WatchEntry(query=query, origin=origin,
                          error=f"unknown market {market!r} (use one of {', '.join(MARKETS)})")
    return WatchEntry(query=query, origin=origin, market=MARKET_WORDS.get(m), forms=_split_forms(forms or ""))


def watch_entries(args: list[str]) -> list[WatchEntry]:
    """Command-line arguments: a path to an existing file is a watchlist, anything else a code or name."""
    out: list[WatchEntry] = []
    for arg in args:
        path = Path(arg)
        if path.is_file():
            out += read_watchlist(path)
        elif path.suffix.lower() in (".csv", ".txt") and ("/" in arg or path.suffix):
            out.append(WatchEntry(query=arg, origin="command line", error=f"watchlist file {arg} does not exist"))
        else:
            out.append(entry(arg, "command line"))
    return out
