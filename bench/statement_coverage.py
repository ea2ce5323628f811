"""Benchmark: (document, core metric) pairs read from the printed statements of every PDF report, per market,
and which statements were found / read / not read (``ParsedDocument.statement_reads``).

    .venv/bin/python bench/statement_coverage.py [--corpus PATH] [--market A|HK|US] [--pages-cache DIR] [-v]

A pair counts when the document's own period has a value for the metric in ``document_metric_rows`` (what
ingest would store for it). Figures only; never asserted. ``--pages-cache`` keeps page texts as JSON between
runs (the text layer is most of the time).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import re
from collections import Counter, defaultdict
from decimal import Decimal
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mappings.metrics import metric_for_label, normalise_label  # noqa: E402
from parsers.pdf_pages import read_pages  # noqa: E402
from parsers.pdf_report import _load_extractor  # noqa: E402
from parsers.recognise import recognise_pdf  # noqa: E402
from schema.errors import UnrecognisedDocument  # noqa: E402
from schema.models import Page  # noqa: E402
from warehouse.manifest import hints_for  # noqa: E402
from warehouse.metrics import document_metric_rows  # noqa: E402

CORE = ("revenue", "net_income", "net_income_parent", "eps_basic", "eps_diluted", "total_assets",
        "total_liabilities", "total_equity", "equity_parent", "operating_cash_flow", "investing_cash_flow",
        "financing_cash_flow", "capex", "cash_and_equivalents")
READERS = {"A": "parsers.cn_statements", "HK": "parsers.hk_statements", "US": "parsers.us_statements"}
FOLDERS = {"A": ["cn"], "HK": ["hk"], "US": ["us/financebench/pdfs"]}


def _pages(path: Path, cache: Path | None) -> list[Page]:
    if cache:
        dst = cache / f"{path.parent.name}__{path.stem}.json"
        if dst.exists():
            return [Page(page=i + 1, text=t, ocr=o) for i, (t, o) in enumerate(json.loads(dst.read_text()))]
    pages = read_pages(path)
    if cache:
        cache.mkdir(parents=True, exist_ok=True)
        dst.write_text(json.dumps([[p.text, p.ocr] for p in pages]))
    return pages


def identities(facts, market: str):
    """(identity, holds, detail) per printed column: total assets = the printed "total liabilities and equity"
    line; total assets = total liabilities + total equity; gross profit = revenue - cost of revenue. Only where
    every term is printed in the same column of the same statement."""
    by: dict[tuple, dict[str, Decimal]] = defaultdict(dict)
    for f in facts:
        if f.value is None or not f.consolidated or f.dimensions or f.statement not in ("income", "balance"):
            continue
        key = (f.statement, f.period_start, f.period_end, f.column)
        norm = normalise_label(f.label or "")
        hit = metric_for_label(market, f.statement, f.label)
        if f.statement == "balance" and re.match(r"total liabilities(?:,| and) .*(?:equity|deficit)", norm):
            by[key].setdefault("le", f.value)
        if hit:
            by[key].setdefault(hit[0], f.value)
    for (st, _, end, col), v in by.items():
        if st == "balance" and "total_assets" in v and "le" in v:
            yield "assets = liabilities and equity line", v["total_assets"] == v["le"], f"{end} {v['total_assets']} vs {v['le']}"
        if st == "balance" and {"total_assets", "total_liabilities", "total_equity"} <= v.keys():
            ok = v["total_assets"] == v["total_liabilities"] + v["total_equity"]
            yield "assets = liabilities + equity", ok, f"{end} {v['total_assets']} vs {v['total_liabilities']} + {v['total_equity']}"
        if st == "income" and {"revenue", "cost_of_revenue", "gross_profit"} <= v.keys():
            ok = v["gross_profit"] in (v["revenue"] - abs(v["cost_of_revenue"]), v["revenue"] + v["cost_of_revenue"])
            yield "gross profit = revenue - cost", ok, f"{end} {v['gross_profit']} vs {v['revenue']} - {v['cost_of_revenue']}"


def main() -> None:
    ap = argparse.ArgumentParser()
    default = os.environ.get("FILINGS_CORPUS") or Path(__file__).resolve().parents[1].parent / "shared" / "corpus"
    ap.add_argument("--corpus", default=str(default))
    ap.add_argument("--market", choices=sorted(FOLDERS), action="append")
    ap.add_argument("--pages-cache", type=Path)
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()
    root = Path(args.corpus)
    for market in args.market or sorted(FOLDERS):
        fn = _load_extractor(READERS[market])
        pairs = docs = 0
        per_metric: Counter[str] = Counter()
        status: Counter[str] = Counter()
        checks: dict[str, Counter] = defaultdict(Counter)
        for folder in FOLDERS[market]:
            for path in sorted((root / folder).glob("*.pdf")):
                pages = _pages(path, args.pages_cache)
                try:
                    info = recognise_pdf(path, pages, hints_for(path))  # the manifest beside the files, as ingest
                except UnrecognisedDocument as exc:
                    print(f"  {path.name}: not recognised ({exc.reason if hasattr(exc, 'reason') else exc})")
                    continue
                if not info.company_metrics or fn is None:
                    continue
                out = fn(pages, info)
                facts, reads = (out.facts, out.reads) if hasattr(out, "reads") else (list(out), [])
                rows = document_metric_rows(info, facts)
                for name, ok, detail in identities(facts, info.market):
                    checks[name][ok] += 1
                    if not ok and args.verbose:
                        print(f"  identity {name} fails: {path.name} {detail}")
                own = {r.metric_name for r in rows if r.own and r.metric_name in CORE}
                docs += 1
                pairs += len(own)
                per_metric.update(own)
                for r in reads:
                    if r.consolidated:
                        status[f"{r.statement}:{r.status}"] += 1
                        if args.verbose and r.status != "read":
                            print(f"  {path.name} {info.form}: {r.statement} {r.status} p{r.page} {r.reason}")
                if args.verbose:
                    print(f"{path.name:55s} {info.form or '?':10s} {len(own):2d} core  missing: "
                          f"{' '.join(m for m in CORE if m not in own)}")
        print(f"market {market}: {docs} documents, {pairs} (document, core metric) pairs for the own period")
        print("  per metric: " + ", ".join(f"{m} {per_metric[m]}" for m in CORE))
        if status:
            print("  statements (consolidated): " + ", ".join(f"{k} {v}" for k, v in sorted(status.items())))
        for name, c in sorted(checks.items()):
            total = c[True] + c[False]
            print(f"  identity {name}: {c[True]}/{total} hold ({100 * c[True] / total:.1f}%)")


if __name__ == "__main__":
    main()
