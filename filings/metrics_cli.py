"""`filings metrics`: exact metrics of one company as a table (wide or, on a narrow terminal, four columns), a
years x metrics pivot, or an exact export (csv, json, xlsx, parquet)."""

from __future__ import annotations

import sys
from decimal import Decimal
from pathlib import Path
from typing import Annotated

import typer
from rich import box
from rich.console import Console

from filings import output
from filings.cli_options import NARROW, HomeOpt, JsonOpt, fail
from filings.output import add_row, line
from schema.errors import FilingsError
from warehouse import lookup, store

out = Console()
err = Console(stderr=True)
SCALES = {"units": 0, "thousands": 3, "millions": 6, "billions": 9}


def _year_range(years: str | None) -> tuple[int | None, int | None]:
    if not years:
        return None, None
    try:
        if "-" in years:
            a, b = years.split("-", 1)
            return int(a), int(b)
        return int(years), int(years)
    except ValueError:
        fail(f"--years expects 2024 or 2022-2024 (got {years!r})")
        raise


def _fmt(value: Decimal, scale: int) -> str:
    v = lookup.scaled(value, scale)
    text = f"{v:,.2f}" if scale else f"{v:,f}".rstrip("0").rstrip(".")
    return text


def metrics(company: Annotated[str, typer.Argument(help="Ticker, code (600080, 0700.HK) or name")],
            years: Annotated[str | None, typer.Option("--years", help="2024 or 2022-2024 (fiscal years)")] = None,
            metric: Annotated[str | None, typer.Option("--metric", help="Comma-separated ids or aliases")] = None,
            period: Annotated[str | None, typer.Option("--period", help="FY, Q1..Q4, H1, 9M (default: all)")] = None,
            scale: Annotated[str, typer.Option("--scale", help="units, thousands, millions, billions (table only)")] = "millions",
            currency: Annotated[str | None, typer.Option("--currency", help="Only rows in this currency")] = None,
            fmt: Annotated[str, typer.Option("--format", help="table, csv, json, xlsx or parquet (exact values)")] = "table",
            pivot: Annotated[bool, typer.Option("--pivot", help="Years x metrics: one row per listing and period")] = False,
            out_file: Annotated[Path | None, typer.Option("--output", "-o", help="Write to this file (xlsx / parquet need it)")] = None,
            basis: Annotated[str, typer.Option("--basis", help="latest (restated / split-adjusted) or as_reported")] = "latest",
            home: HomeOpt = None, as_json: JsonOpt = False) -> None:
    """Exact metrics of one company: value, currency, standard, period and the page or XBRL fact."""
    from filings import export

    if scale not in SCALES:
        fail(f"--scale must be one of {', '.join(SCALES)}")
    if fmt not in export.FORMATS:
        fail(f"--format must be one of {', '.join(export.FORMATS)}")
    y0, y1 = _year_range(years)
    con = store.connect(home, read_only=True)
    company_id = lookup.resolve_company(con, company)
    if company_id is None:
        fail(lookup.unknown_company_message(con, company), 1)
    ids, unknown = lookup.resolve_metrics([m for m in (metric or "").split(",") if m.strip()])
    if unknown:
        fail(f"unknown metric(s): {', '.join(unknown)}. Known ids: {', '.join(sorted(lookup.metric_catalogue()))}", 1)
    periods = [p.strip().upper() for p in (period or "").split(",") if p.strip()]
    try:
        rows = lookup.metric_rows(con, company_id, y0, y1, ids, periods, basis)
    except FilingsError as exc:
        fail(str(exc))
        raise
    if currency:
        rows = [r for r in rows if (r["currency"] or "").upper() == currency.upper()]
    if as_json and fmt == "table" and not pivot:
        output.print_json({"company_id": company_id, "rows": rows})
        return
    if as_json and fmt == "table":
        fmt = "json"
    if fmt != "table" or pivot:
        frame = export.tidy(rows)
        frame = export.pivot(frame) if pivot else frame
        if fmt == "table":
            _print_pivot(frame, company_id, scale)
            return
        text = export.write(frame, fmt, out_file)
        if text is not None:
            sys.stdout.write(text)
        else:
            line(err, f"wrote {len(frame)} row(s) to {out_file}")
        return
    if not rows:
        line(out, f"no_data: no metrics for {company_id} with these filters "
                  f"(years {years or 'any'}, metric {metric or 'any'}, period {period or 'any'})")
        return
    catalogue = lookup.metric_catalogue()
    if out.width < NARROW:
        _print_narrow(rows, company_id, basis, scale, catalogue)
        return
    table = output.table(f"{company_id} ({basis} basis): values in {scale} of the currency shown (per-share and "
                         "share counts unscaled)", "metric", "listing", "period", "period end", "value", "cur",
                         "standard", "source", "kind", right={"value"})
    for r in rows:
        kind = catalogue[r["metric"]].kind
        s = SCALES[scale] if kind == "money" else 0
        flag = " (restated)" if r["restated"] else ""
        own_name = (f" (fiscal {r['fiscal_year_label']})" if r["fiscal_year_label"] not in (None, r["fiscal_year"])
                    else "")
        add_row(table, r["metric"], r["stock_code"], f"{r['fiscal_period']} {r['fiscal_year']}{own_name}",
                str(r["period_end"]), f"{r['value'] * 100:.2f}%" if kind == "percent" else _fmt(r["value"], s), r["currency"] or "", r["accounting_standard"] or "",
                (f"{r['derivation']['formula']}" if r["derivation"] else
                 f"{r['doc_name']} {'p' + r['page'] if (r['page'] or '').isdigit() else r['page'] or ''}"),
                r["source_kind"].replace("_", " ") + flag)
    out.print(table)


def _print_narrow(rows: list[dict], company_id: str, basis: str, scale: str, catalogue) -> None:
    """The metrics table at 80 columns: what every row shares (listing, currency, standard) in the title;
    period with its end, and source with its kind, on two lines of one cell."""
    shared = [sorted({r[k] or "" for r in rows}) for k in ("stock_code", "currency", "accounting_standard")]
    same = " ".join(v[0] for v in shared if len(v) == 1 and v[0])
    table = output.table(f"{company_id} {same} ({basis} basis): {scale} of the currency (per-share, shares "
                         "unscaled)", "metric", "period", "value", "source", right={"value"})
    table.box = box.SIMPLE_HEAD
    for r in rows:
        kind = catalogue[r["metric"]].kind
        s = SCALES[scale] if kind == "money" else 0
        own = f" (fiscal {r['fiscal_year_label']})" if r["fiscal_year_label"] not in (None, r["fiscal_year"]) else ""
        listing = f"{r['stock_code']} " if len(shared[0]) > 1 else ""
        value = f"{r['value'] * 100:.2f}%" if kind == "percent" else _fmt(r["value"], s)
        if len(shared[1]) > 1 and r["currency"]:
            value += f" {r['currency']}"
        source = (r["derivation"]["formula"] if r["derivation"] else
                  f"{r['doc_name']} {'p' + r['page'] if (r['page'] or '').isdigit() else r['page'] or ''}")
        add_row(table, r["metric"], f"{listing}{r['fiscal_period']}{r['fiscal_year']}{own}\nto {r['period_end']}", value,
                f"{source}\n{r['source_kind'].replace('_', ' ')}{' (restated)' if r['restated'] else ''}")
    out.print(table)


def _print_pivot(frame, company_id: str, scale: str) -> None:
    """Years x metrics at 80 columns: one row per listing and period, money in ``scale``."""
    if frame.empty:
        line(out, f"no_data: no metrics for {company_id} with these filters")
        return
    catalogue = lookup.metric_catalogue()
    metric_cols = [c for c in frame.columns if c in catalogue]
    names = [c.replace("_", " ") for c in metric_cols]
    table = output.table(f"{company_id}: {scale} of the currency shown (per-share, shares, % unscaled)", "period",
                         *names, right=set(names))
    for rec in frame.to_dict(orient="records"):
        cells = [f"{rec['stock_code']} {rec['fiscal_period']} {rec['fiscal_year']} {rec.get('currency') or ''}".strip()]
        for c in metric_cols:
            v = rec[c]
            if not isinstance(v, Decimal):
                cells.append("")
                continue
            kind = catalogue[c].kind
            cells.append(f"{v * 100:.2f}%" if kind == "percent" else _fmt(v, SCALES[scale] if kind == "money" else 0))
        add_row(table, *cells)
    out.print(table)
