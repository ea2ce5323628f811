"""Every fact and metric the statement readers make from the corpus PDFs (A-share, HK and the US FinanceBench PDFs,
recognised with the manifest beside them, as ingest does), as sorted text lines, to prove a parser change: dump
before and after, then ``diff``.

    .venv/bin/python bench/statement_dump.py OUT.txt [--corpus PATH] [--cache DIR] [--only SUBSTR]

Parsers are pure (file bytes -> parsed document), so page text and recognition are read once per file and
kept in ``--cache`` (pickles keyed by file size and mtime); each run re-runs only the statement reader of the
market (``parsers/pdf_report.py`` ``DEFAULT_EXTRACTORS``) and the label mapping
(``warehouse.metrics.document_metric_rows``). One line per fact (page, locator, statement, consolidated,
label, value, unit, scale, period, column, dimensions) and per metric row (metric, period, value, page,
label), plus the statement read records. Figures only; never asserted.
"""

from __future__ import annotations

import argparse
import importlib
import pickle
import sys
from pathlib import Path

from common import REPO, corpus_root  # noqa: F401  (puts the repo on sys.path)

from parsers.pdf_pages import read_pages  # noqa: E402
from parsers.pdf_report import DEFAULT_EXTRACTORS  # noqa: E402
from parsers.recognise import recognise_pdf  # noqa: E402
from warehouse.manifest import hints_for  # noqa: E402
from warehouse.metrics import document_metric_rows  # noqa: E402


def pages_and_info(path: Path, cache: Path):
    st = path.stat()
    key = cache / f"{path.stem}.{st.st_size}.{int(st.st_mtime)}.pkl"
    if key.exists():
        return pickle.loads(key.read_bytes())
    pages = read_pages(path)
    info = recognise_pdf(path, pages, hints_for(path))  # the manifest beside the files, as ingest
    key.write_bytes(pickle.dumps((pages, info)))
    return pages, info


def dump_lines(path: Path, cache: Path) -> list[str]:
    pages, info = pages_and_info(path, cache)
    name = path.name
    if not info.company_metrics or info.market not in DEFAULT_EXTRACTORS:
        return [f"{name}\tno metrics"]
    out = importlib.import_module(DEFAULT_EXTRACTORS[info.market]).read(pages, info)
    lines = []
    for f in out.facts:
        lines.append("\t".join(str(x) for x in (
            name, "F", f.page, f.locator, f.statement, f.consolidated, f.label, f.value, f.unit, f.scale,
            f.original_unit, f.period_type, f.period_start, f.period_end, f.column, sorted(f.dimensions.items()))))
    for r in document_metric_rows(info, out.facts):
        lines.append("\t".join(str(x) for x in (
            name, "M", r.metric_name, r.fiscal_year, r.fiscal_period, r.period_end, r.value, r.currency, r.page,
            r.original_label, r.original_unit, r.rounding)))
    for r in out.reads:
        lines.append("\t".join(str(x) for x in (name, "R", r.statement, r.consolidated, r.status, r.pages, r.rows,
                                                 r.reason)))
    return lines


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--corpus", default=None)
    ap.add_argument("--cache", default=str(REPO / ".bench" / "statement_dump_cache"))
    ap.add_argument("--only", default="")
    args = ap.parse_args()
    root = Path(args.corpus) if args.corpus else corpus_root()
    cache = Path(args.cache)
    cache.mkdir(parents=True, exist_ok=True)
    files = [f for folder in ("cn", "hk", "us/financebench/pdfs") for f in sorted((root / folder).glob("*.pdf"))]
    lines: list[str] = []
    for f in files:
        if args.only and args.only not in f.name:
            continue
        try:
            lines += dump_lines(f, cache)
        except Exception as exc:  # noqa: BLE001 - a dump reports every file
            lines.append(f"{f.name}\tERROR {type(exc).__name__}: {exc}")
    Path(args.out).write_text("\n".join(sorted(lines)) + "\n", encoding="utf-8")
    print(f"{len(lines)} lines from {len(files)} files -> {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
