"""Benchmark: PDF page text and full pdf_report.parse() over the A-share and HK corpus.

    .venv/bin/python bench/ingest_pdf.py [--corpus PATH] [--financebench N] [--no-parse]

Prints, per document: pages, page-text seconds and pages/s (``read_pages``, OCR included where a page
has no text layer), full ``parse()`` seconds (pages + recognition + statement extraction when the
extractor modules exist) and facts; then totals and the time of the largest annual report (target:
a 200-page annual report fully parsed in under 20 s on 2 cores). Per market (cn, hk, us): full parse
seconds per page as a ratio to ``pdftotext`` (poppler-utils) on the same files in the same run (target
<= 6x). Figures only; never asserted.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from parsers.pdf_pages import read_pages  # noqa: E402
from parsers.pdf_report import parse  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    default = os.environ.get("FILINGS_CORPUS") or Path(__file__).resolve().parents[1].parent / "shared" / "corpus"
    ap.add_argument("--corpus", default=str(default))
    ap.add_argument("--financebench", type=int, default=0, help="also time the first N FinanceBench PDFs")
    ap.add_argument("--no-parse", action="store_true")
    args = ap.parse_args()
    root = Path(args.corpus)
    files = sorted((root / "cn").glob("*.pdf")) + sorted((root / "hk").glob("*.pdf"))
    files += sorted((root / "us" / "financebench" / "pdfs").glob("*.pdf"))[: args.financebench]
    print(f"{'file':48s} {'pages':>5s} {'ocr':>3s} {'text s':>7s} {'pages/s':>7s} {'parse s':>7s} {'facts':>5s}  kind")
    tot_pages = tot_text = tot_parse = 0.0
    largest = None
    per_market: dict[str, list[float]] = {}  # market folder -> [pages, parse s, pdftotext s]
    for f in files:
        t0 = time.perf_counter()
        pages = read_pages(f)
        t_text = time.perf_counter() - t0
        n = len(pages)
        n_ocr = sum(p.ocr for p in pages)
        t_parse, facts, kind = float("nan"), "-", "-"
        if not args.no_parse:
            t0 = time.perf_counter()
            try:
                doc = parse(f)
                facts, kind = str(len(doc.facts)), f"{doc.info.market} {doc.info.form} {doc.info.fiscal_year}"
            except Exception as exc:  # noqa: BLE001 - a benchmark reports, it does not stop
                kind = f"ERROR {type(exc).__name__}: {exc}"[:80]
            t_parse = time.perf_counter() - t0
            tot_parse += t_parse
            t_ref = _pdftotext_seconds(f)
            acc = per_market.setdefault("us" if f.parent.name == "pdfs" else f.parent.name, [0.0, 0.0, 0.0])
            acc[0] += len(pages)
            acc[1] += t_parse
            acc[2] += t_ref
            if "annual" in kind and (largest is None or n > largest[1]):
                largest = (f.name, n, t_parse)
        tot_pages += n
        tot_text += t_text
        print(f"{f.name[:48]:48s} {n:5d} {n_ocr:3d} {t_text:7.2f} {n / t_text:7.1f} {t_parse:7.2f} {facts:>5s}  {kind}",
              flush=True)
    print(f"\nTOTAL {len(files)} documents, {int(tot_pages)} pages: page text {tot_text:.1f} s "
          f"({tot_pages / tot_text:.1f} pages/s)", end="")
    if not args.no_parse:
        print(f"; full parse {tot_parse:.1f} s ({tot_pages / tot_parse:.1f} pages/s)")
        if largest:
            print(f"largest annual report: {largest[0]} ({largest[1]} pages) parsed in {largest[2]:.2f} s "
                  f"(target < 20 s for 200 pages)")
        for market, (n_pages, t_parse, t_ref) in sorted(per_market.items()):
            if t_ref > 0:
                print(f"{market}: {int(n_pages)} pages, parse {1000 * t_parse / n_pages:.1f} ms/page, pdftotext "
                      f"{1000 * t_ref / n_pages:.1f} ms/page: {t_parse / t_ref:.1f}x pdftotext (target <= 6x)")
    else:
        print()


def _pdftotext_seconds(path: Path) -> float:
    """Seconds ``pdftotext`` takes for the whole file (0 when poppler-utils is not installed)."""
    exe = shutil.which("pdftotext")
    if not exe:
        return 0.0
    t0 = time.perf_counter()
    subprocess.run([exe, "-q", str(path), "-"], stdout=subprocess.DEVNULL, check=False)
    return time.perf_counter() - t0


if __name__ == "__main__":
    main()
