"""The notebook frames of the ``Filings`` facade: tidy metrics, pivots, comparisons, charts and exact exports.
A mixin: it needs the facade's ``con`` (a read connection) and ``company_id``."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from filings import export
from schema.errors import FilingsError
from warehouse import lookup


class Frames:
    def metrics(self, company: str, years: tuple[int, int] | int | None = None,
                metrics: list[str] | str | None = None, periods: list[str] | str | None = None,
                basis: str = "latest") -> pd.DataFrame:
        """Tidy rows: one per listing, fiscal year, fiscal period and metric, with currency, standard and source.
        ``basis``: "latest" (default: restated / split-adjusted, from the latest report that prints the period)
        or "as_reported" (each period as first reported); ``other_basis_value`` holds the other one."""
        if isinstance(years, int):
            years = (years, years)
        if isinstance(metrics, str):
            metrics = [m.strip() for m in metrics.split(",") if m.strip()]
        if isinstance(periods, str):
            periods = [p.strip().upper() for p in periods.split(",") if p.strip()]
        ids, unknown = lookup.resolve_metrics(metrics or [])
        if unknown:
            raise FilingsError(f"unknown metric(s) {', '.join(unknown)}: see mappings/metrics.yaml for the ids")
        rows = lookup.metric_rows(self.con, self.company_id(company), *(years or (None, None)), ids, periods, basis)
        return export.tidy(rows)

    def pivot(self, company: str, years: tuple[int, int] | int | None = None,
              metrics: list[str] | str | None = None, periods: list[str] | str | None = "FY") -> pd.DataFrame:
        """Years x metrics for one company: one row per listing and period, one column per metric, Decimal values."""
        return export.pivot(self.metrics(company, years=years, metrics=metrics, periods=periods))

    @staticmethod
    def export(frame: pd.DataFrame, path: str | Path, fmt: str | None = None) -> Path:
        """Write a frame exactly (csv, json, xlsx or parquet, from the suffix unless ``fmt``); returns the path."""
        path = Path(path)
        export.write(frame, fmt or path.suffix.lstrip(".").lower(), path)
        return path

    def plot(self, companies: list[str] | str, metric: str, years: tuple[int, int] | None = None,
             period: str = "FY", ax=None):
        """A line chart of one metric across companies and fiscal years (matplotlib Axes). Values are drawn in
        each listing's own currency (the legend says which); the frame behind it is ``compare``'s."""
        if isinstance(companies, str):
            companies = [companies]
        ids, unknown = lookup.resolve_metrics([metric])
        if unknown:
            raise FilingsError(f"unknown metric {metric!r}: see mappings/metrics.yaml for the ids")
        frames = [self.metrics(company, years=years, metrics=ids, periods=[period]) for company in companies]
        frames = [fr for fr in frames if not fr.empty]
        if not frames:
            raise FilingsError(f"no {ids[0]} stored for {', '.join(companies)} ({period}, years {years or 'any'})")
        from filings.plot import draw

        return draw(frames, ids[0], period, ax)

    def compare(self, companies: list[str], metric: str, years: tuple[int, int] | None = None,
                period: str = "FY") -> pd.DataFrame:
        """One metric across companies: a wide frame (company x fiscal year) of exact values, plus currency."""
        frames = [self.metrics(c, years=years, metrics=[metric], periods=[period]) for c in companies]
        frames = [f for f in frames if not f.empty]
        if not frames:
            return pd.DataFrame()
        tidy = pd.concat(frames, ignore_index=True)
        wide = tidy.pivot_table(index=["company_id", "stock_code", "currency", "accounting_standard"],
                                columns="fiscal_year", values="value", aggfunc="first")
        return wide.reset_index()
