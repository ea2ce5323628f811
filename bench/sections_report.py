"""Sections found over the whole corpus: per document sections, pages, words, confidence, pointer;
summary for every 10-K (Item 1A and Item 7 found with plausible length, or pointers).

    .venv/bin/python -m bench.sections_report            # whole corpus (~1-2 min: reads all PDFs)
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from parsers.html_pages import html_pages  # noqa: E402
from parsers.pdf_pages import read_pages  # noqa: E402
from parsers.sections import find_sections  # noqa: E402
from schema.models import DocumentInfo  # noqa: E402

ROOT = Path(__file__).resolve().parents[1].parent / "shared" / "corpus"
MIN_WORDS = {"risk_factors": 1500, "mdna": 2000}


def _docs(root: Path):
    for f in sorted((root / "us" / "ixbrl").glob("*/*.htm")):
        yield f, "html", DocumentInfo(market="US", form="10-Q" if "10q" in f.parent.name else "10-K",
                                      file_name=f.name), f.parent.name
    fb = root / "us" / "financebench"
    for line in (fb / "documents.jsonl").read_text().splitlines():
        d = json.loads(line)
        form = {"10k": "10-K", "10q": "10-Q", "8k": "8-K"}.get(d["doc_type"], "earnings_release")
        yield fb / d["path"], "pdf", DocumentInfo(market="US", form=form, file_name=d["doc_name"]), d["doc_name"]
    for market, sub in (("A", "cn"), ("HK", "hk")):
        for f in sorted((root / sub).glob("*.pdf")):
            form = "mda_extract" if "mda-extract" in f.name else "annual"
            yield f, "pdf", DocumentInfo(market=market, form=form, file_name=f.name), f.stem


def main() -> None:
    root = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT
    summary = []
    t0 = time.perf_counter()
    pointers = 0
    for path, kind, info, name in _docs(root):
        pages = html_pages(path) if kind == "html" else read_pages(path, ocr=False)
        t = time.perf_counter()
        spans = find_sections(pages, info)
        dt = time.perf_counter() - t
        print(f"== {name} ({info.market} {info.form}, {len(pages)} pages, {dt * 1000:.0f} ms)")
        for s in spans:
            pointers += s.pointer
            print(f"   {s.section:26s} p{s.page_start:>4}-{s.page_end:<4} {s.attrs.get('words', '?'):>6} words "
                  f"conf {s.confidence:.2f}{'  POINTER' if s.pointer else ''}  {(s.title or '')[:60]}")
        if info.form == "10-K":
            by = {}
            for s in spans:
                by.setdefault(s.section, s)
            row = [name]
            for sec in ("risk_factors", "mdna"):
                s = by.get(sec)
                if s is None:
                    row.append("MISSING")
                elif s.pointer:
                    row.append("pointer")
                elif int(s.attrs.get("words", 0)) >= MIN_WORDS[sec]:
                    row.append(f"ok p{s.page_start}-{s.page_end} ({s.attrs['words']}w)")
                else:
                    row.append(f"SHORT p{s.page_start}-{s.page_end} ({s.attrs['words']}w)")
            summary.append(row)
    print(f"\nSUMMARY: 10-Ks: {len(summary)}; elapsed {time.perf_counter() - t0:.0f} s; pointer spans: {pointers}")
    for sec_i, sec in ((1, "Item 1A risk_factors"), (2, "Item 7 mdna")):
        ok = sum(r[sec_i].startswith("ok") for r in summary)
        ptr = sum(r[sec_i] == "pointer" for r in summary)
        print(f"  {sec}: ok {ok}, pointer {ptr}, short {sum(r[sec_i].startswith('SHORT') for r in summary)}, "
              f"missing {sum(r[sec_i] == 'MISSING' for r in summary)}")
    for r in summary:
        if not (r[1].startswith("ok") and r[2].startswith("ok")):
            print("  not ok:", " | ".join(r))


if __name__ == "__main__":
    main()
