"""The report of one ``filings ingest`` run: a table in a terminal, plain lines when piped, JSON for machines.

Every document gets a line; a failed file its reason; a file with a filing extension that was not read a
``skipped: <file>: <reason>`` line. File names and reasons are shown as text, never as markup."""

from __future__ import annotations

from pathlib import Path

from rich.console import Console

from filings.output import add_row, line, print_json, table, text
from warehouse.ingest import DocumentResult, IngestReport

STYLES = {"added": "green", "unchanged": "dim", "failed": "red", "skipped": "yellow"}


def _period(r: DocumentResult) -> str:
    i = r.info
    return f"{i.fiscal_year or '?'} {i.fiscal_period or ''}".strip() if i else ""


def _fields(r: DocumentResult) -> list[str]:
    i = r.info
    return [r.status, Path(r.path).name, (i.market or "") if i else "", (i.stock_code or "") if i else "",
            (i.form or "") if i else "", _period(r),
            f"{i.currency or '-'} / {i.accounting_standard or '-'}" if i else "",
            str(r.pages or ""), str(r.facts or ""), str(r.metrics or ""), f"{r.seconds:.2f}"]


def as_json(report: IngestReport) -> dict:
    return {"run_id": report.run_id, "added": report.count("added"), "unchanged": report.count("unchanged"),
            "failed": report.count("failed"), "skipped": report.count("skipped"), "embedded": report.embedded,
            "index_failures": [{"doc_name": n, "reason": r} for n, r in report.index_failures],
            "documents": [{"path": r.path, "status": r.status, "document_id": r.document_id, "reason": r.reason,
                           "seconds": round(r.seconds, 3), "pages": r.pages, "facts": r.facts, "metrics": r.metrics,
                           "info": r.info.model_dump(exclude={"document_id"}) if r.info else None}
                          for r in report.results]}


def render(report: IngestReport, out: Console, err: Console, json_output: bool, warehouse: Path) -> None:
    if json_output:
        print_json(as_json(report))
        return
    shown = [r for r in report.results if r.status != "skipped"]
    if out.is_terminal:
        t = table(f"ingest run {report.run_id}", "status", "file", "market", "code", "kind", "period", "cur / std",
                  "pages", "facts", "metrics", "s", right={"pages", "facts", "metrics", "s"})
        for r in shown:
            cells = _fields(r)
            add_row(t, text(cells[0], STYLES.get(r.status)), *cells[1:])
        if shown:
            out.print(t)
    else:  # piped: one plain line per document, nothing cut
        for r in shown:
            cells = _fields(r)
            line(out, (cells[0], STYLES.get(r.status)), " ", "  ".join(c for c in cells[1:-1] if c), f"  {cells[-1]}s")
    for r in report.results:
        if r.status == "failed":
            line(err, ("failed:", "red"), " ", r.reason or r.path)
        elif r.status == "skipped":
            line(err, ("skipped:", "yellow"), " ", r.reason or r.path)
    for _name, reason in report.index_failures:
        line(err, ("index:", "yellow"), " ", reason)
    line(out, f"added {report.count('added')}, unchanged {report.count('unchanged')}, failed {report.count('failed')}, "
              f"skipped {report.count('skipped')}  (warehouse: {warehouse})")
