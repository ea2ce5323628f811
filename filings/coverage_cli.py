"""`filings coverage`: per document, the core metrics present / derived / missing / not printed, and every
identity violation with its pages (warehouse/coverage.py, warehouse/identities.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from filings.api import Filings
from filings.output import add_row, print_json
from warehouse.coverage import STATUSES

out = Console()
err = Console(stderr=True)


def coverage(company: Annotated[str | None, typer.Option("--company", help="Ticker, code or name")] = None,
             document: Annotated[str | None, typer.Option("--doc", help="One document (doc_name or id)")] = None,
             status: Annotated[str, typer.Option("--status", help="Rows to list: missing, not_printed, derived, "
                                                 "present or all")] = "missing",
             home: Annotated[Path | None, typer.Option("--home", help="Warehouse folder")] = None,
             as_json: Annotated[bool, typer.Option("--json", help="Print JSON for machines")] = False) -> None:
    """Core metrics per document and period: present / derived / missing (a parser gap, with the page) /
    not printed; identity violations (A = L + E, gross profit, Q1 + Q2 = H1 ... 9M + Q4 = FY) and restatements
    with both pages."""
    if status not in (*STATUSES, "all"):
        err.print(f"[red]error:[/red] --status must be one of {', '.join(STATUSES)} or all")
        raise typer.Exit(2)
    with Filings(home, read_only=True) as f:
        result = f.coverage(company=company, document=document)
    if as_json:
        print_json(result)
        return
    table = Table(title=f"coverage of core metrics over {result['documents']} document(s)")
    for col in ("market", *STATUSES, "identity findings"):
        table.add_column(col, justify="left" if col == "market" else "right")
    for market, counts in result["summary"].items():
        found = result["identities"].get(market, {})
        table.add_row(market, *(f"{counts[s]:,}" for s in STATUSES),
                      ", ".join(f"{k} {v}" for k, v in sorted(found.items())) or "0")
    out.print(table)
    rows = [r for r in result["rows"] if status == "all" or r["status"] == status]
    if rows:
        listing = Table(title=f"{status} ({len(rows):,})", show_lines=False)
        for col in ("document", "period", "metric", "status", "page", "printed label / reason"):
            listing.add_column(col, overflow="fold")
        for r in rows:
            add_row(listing, r["doc_name"], f"{r['fiscal_period']} {r['fiscal_year']}", r["metric"], r["status"],
                    r["page"] or "", r["label"] or r["reason"] or "" if r["status"] != "present"
                    else f"{r['label']}: {r['value']}")
        out.print(listing)
    if result["findings"]:
        found = Table(title=f"identity violations and restatements ({len(result['findings'])})")
        for col in ("identity", "listing", "period", "metric", "expected", "printed", "difference", "pages"):
            found.add_column(col, overflow="fold", justify="right" if col in ("expected", "printed", "difference")
                             else "left")
        for x in result["findings"]:
            pages = "; ".join(f"{s['role']}: {s['doc_name']} {'p' if str(s['page']).isdigit() else ''}{s['page']}"
                              for s in x["sources"])  # a page number, or an XBRL fact / companyfacts filing
            add_row(found, x["identity"], x["stock_code"], f"{x['fiscal_period']} {x['fiscal_year']}", x["metric"],
                    f"{x['expected']:,}", f"{x['actual']:,}", f"{x['difference']:,}", pages)
        out.print(found)
