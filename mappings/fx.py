"""FX rates for comparisons across currencies, converted at query time.

Rates come from ``fx_rates.csv`` beside this module (each with its date and source) and, when present,
a user file ``$FILINGS_HOME/fx_rates.csv`` (same columns) whose rows take precedence. A value is
converted at the latest rate dated on or before its period end (else the earliest rate after it), and
the rate, its date and source travel with the converted value."""

from __future__ import annotations

import csv
import datetime as dt
import os
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from pathlib import Path

from schema.errors import ConfigError

HERE = Path(__file__).resolve().parent


@dataclass(frozen=True)
class Rate:
    date: dt.date
    base: str
    quote: str
    rate: Decimal  # units of quote per one unit of base
    source: str


def _read(path: Path) -> list[Rate]:
    rates = []
    with path.open(encoding="utf-8", newline="") as fh:
        for i, row in enumerate(csv.DictReader(fh), start=2):
            try:
                rates.append(Rate(dt.date.fromisoformat(row["date"]), row["base"].upper(), row["quote"].upper(),
                                  Decimal(row["rate"]), row.get("source") or str(path)))
            except (KeyError, ValueError, InvalidOperation) as exc:
                raise ConfigError(f"{path} line {i}: expected date,base,quote,rate,source ({exc})") from None
    return rates


def load_rates(home: str | Path | None = None) -> list[Rate]:
    rates = _read(HERE / "fx_rates.csv")
    user = Path(home or os.environ.get("FILINGS_HOME") or ".filings") / "fx_rates.csv"
    if user.is_file():
        rates = _read(user) + rates
    return rates


def convert(value: Decimal, currency: str, target: str, on: dt.date | None, rates: list[Rate]) -> tuple[Decimal, Rate, bool] | None:
    """(converted value, rate used, inverted?) or None when no rate links the two currencies."""
    if currency == target:
        return None
    pairs = [(r, False) for r in rates if r.base == target and r.quote == currency] + \
            [(r, True) for r in rates if r.base == currency and r.quote == target]
    if not pairs:
        return None
    day = on or dt.date.max
    before = [p for p in pairs if p[0].date <= day]
    rate, direct = max(before, key=lambda p: p[0].date) if before else min(pairs, key=lambda p: p[0].date)
    # rate: quote per base. base == target -> value / rate; base == currency -> value * rate
    converted = value * rate.rate if direct else value / rate.rate
    return converted, rate, direct
