"""`make demo`: a newcomer's first run. Ingests a representative part of the corpus (US XBRL, A-share and
HK reports, a few FinanceBench PDFs), then prints metric lookups with currency, standard, period and source.

    .venv/bin/python -m filings.demo [--home DIR] [--corpus DIR]
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from filings.api import Filings
from filings.output import add_row, line, markup_safe, text

console = Console(width=150)
REPO = Path(__file__).resolve().parents[1]

DEMO_SET = [
    "us/ixbrl", "us/xbrl",
    "cn/600080_jinhuagufen_2022_annual.pdf", "cn/600080_jinhuagufen_2024_annual.pdf",
    "cn/600080_jinhuagufen_2025_q3.pdf", "cn/603259_yaomingkangde_2025_interim.pdf",
    "cn/002821_kailaiying_2025_q1.pdf", "cn/000001_pinganyinhang_2024_annual.pdf",
    "hk/1161_wateroasis_2021_annual.pdf", "hk/0328_alco_2025_annual-results.pdf",
    "hk/6068_wisdomeducation_2021_annual.pdf", "hk/0860_apollofuture_2021_annual-mda-extract.pdf",
    "us/financebench/pdfs/AMCOR_2023Q2_10Q.pdf",
    "transcripts/WMT_2025_Q2.txt", "transcripts/NVDA_2025_Q3.txt",
]
# Search units (embeddings) for a few documents, so the demo stays within minutes on 2 cores; the whole
# corpus with embeddings is `filings ingest ../shared/corpus`.
DEMO_INDEX = ["aapl-20240928", "nvda-20250126", "WMT_2025_Q2", "NVDA_2025_Q3", "600080_jinhuagufen_2025_q3",
              "0860_apollofuture_2021_annual-mda-extract"]
QUESTIONS = [
    "What was Apple's revenue in fiscal 2024?",
    "Compare Nvidia and Apple gross margin in fiscal 2024",
    "金花股份近三年营业收入",
    "Compare Apple and 金花股份 revenue in 2024",
    "What risk factors does Apple describe about its supply chain?",
    "What did Nvidia say about Blackwell demand on its earnings call?",
    "Why did Nvidia's revenue grow in fiscal 2025?",
    "What was Tencent's revenue in 2024?",
]

LOOKUPS = [
    ("Apple revenue and diluted EPS, FY2022-FY2024", "AAPL", (2022, 2024), ["revenue", "eps_diluted"], ["FY"]),
    ("Nvidia net income and capex (fiscal years end in January)", "NVDA", (2023, 2025),
     ["net_income_parent", "capex"], ["FY"]),
    ("金花股份 营业收入 / 归母净利润, 2022-2025 (annual, interim, quarterly)", "600080", (2022, 2025),
     ["revenue", "net_income_parent"], None),
    ("WuXi AppTec, asked by its H-share code 2359.HK (numbers from the A-share report)", "2359.HK", (2025, 2025),
     ["revenue", "total_assets"], ["H1"]),
    ("Water Oasis (HK, September year end)", "1161", (2020, 2021), ["revenue", "net_income_parent"], ["FY"]),
]


def _ingest(f: Filings, corpus: Path) -> None:
    paths = [corpus / p for p in DEMO_SET if (corpus / p).exists()]
    with Progress(TextColumn("[bold]ingest"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  TextColumn("{task.description}"), console=console) as progress:
        task = progress.add_task("", total=None)
        t0 = time.perf_counter()
        report = f.ingest(*paths, on_total=lambda n: progress.update(task, total=n), index=False,
                          on_progress=lambda r: progress.update(task, advance=1,
                                                                description=markup_safe(Path(r.path).name)))
        task2 = progress.add_task("search units", total=len(DEMO_INDEX))
        f.index_missing(only=DEMO_INDEX,
                        on_progress=lambda name: progress.update(task2, advance=1, description=markup_safe(name)))
    console.print(f"added {report.count('added')}, unchanged {report.count('unchanged')}, failed "
                  f"{report.count('failed')} in {time.perf_counter() - t0:.1f} s")
    for r in report.failed:
        line(console, ("failed", "red"), f" {r.reason}")


def _lookup(f: Filings, title: str, company: str, years, metric_ids, periods) -> None:
    frame = f.metrics(company, years=years, metrics=metric_ids, periods=periods)
    table = Table(title=title, title_justify="left")
    for col in ("metric", "listing", "period", "value", "currency", "standard", "source"):
        table.add_column(col, justify="right" if col == "value" else "left")
    if frame.empty:
        line(console, ("no_data", "yellow"), f" {title}")
        return
    for r in frame.itertuples():
        unit = "" if r.metric.startswith("eps") else " (millions)"
        value = r.value if r.metric.startswith("eps") else r.value.scaleb(-6)
        page = f"p{r.page}" if str(r.page).isdigit() else r.page
        add_row(table, r.metric, r.stock_code, f"{r.fiscal_period} {r.fiscal_year} (to {r.period_end})",
                f"{value:,.2f}{unit}", r.currency or "", r.accounting_standard or "",
                f"{r.doc_name} {page} [{r.source_kind.replace('_', ' ')}]")
    console.print(table)


def _ask(f: Filings, question: str) -> None:
    a = f.ask(question)
    style = "green" if a.status == "answered" else "yellow"
    console.rule(text(f"ask {question}", "bold"))
    line(console, (a.status, style), f" route={a.route} intent={a.plan['intent']}")
    if a.answer:
        line(console, a.answer)
    if a.reason:
        line(console, f"reason: {a.reason}")
    for c in a.caveats[:3]:
        line(console, (f"caveat: {c}", "dim"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--home", default=os.environ.get("FILINGS_HOME") or str(REPO / ".filings"))
    parser.add_argument("--corpus", default=os.environ.get("FILINGS_CORPUS") or str(REPO.parent / "shared" / "corpus"))
    args = parser.parse_args()
    corpus = Path(args.corpus)
    if not corpus.exists():
        raise SystemExit(f"corpus not found at {corpus}: pass --corpus or set FILINGS_CORPUS")
    console.rule("filings demo")
    console.print(f"warehouse: {Path(args.home).resolve()}   corpus: {corpus.resolve()}")
    with Filings(args.home) as f:
        _ingest(f, corpus)
        for lookup in LOOKUPS:
            _lookup(f, *lookup)
    with Filings(args.home, read_only=True) as f:
        for q in QUESTIONS:
            _ask(f, q)
        console.print(f.sql("SELECT market, count(*) AS documents, sum(pages) AS pages, sum(facts) AS facts "
                            "FROM documents GROUP BY market ORDER BY market").to_string(index=False))
    console.print("\nNext: `.venv/bin/filings metrics AAPL --years 2022-2024`, "
                  "`.venv/bin/filings sql \"SELECT * FROM financial_metrics LIMIT 5\"`")


if __name__ == "__main__":
    main()
