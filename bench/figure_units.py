"""Number-grid units (``vectorstore.chunking.FIGURE_SHARE``): how many units the rule turns into table units per part
of the corpus, and whether it touches evidence.

    .venv/bin/python bench/figure_units.py

For the FinanceBench dev documents, the CN and the HK reports: units by kind with the rule off and on; for the
FinanceBench dev questions: how many have a prose unit on an evidence page, and how many such units, off and on;
for the eval suite's narrative cases: how many have a prose unit holding an expected quote, off and on (the dense
model can only rank prose units). Figures only; nothing is asserted."""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import vectorstore.chunking as chunking  # noqa: E402
from bench.common import corpus_root, financebench_dev, print_table  # noqa: E402
from bench.embed_speed import _fold, _suite_units  # noqa: E402
from parsers.pdf_pages import read_pages  # noqa: E402
from schema.models import DocumentInfo  # noqa: E402

OFF, ON = 2.0, chunking.FIGURE_SHARE


def _kinds(pages: dict, info_of) -> Counter:
    return Counter(u.kind for d, p in pages.items() for u in chunking.chunk(info_of(d), p, [], d)[0])


def main() -> None:
    root = corpus_root()
    fb = root / "us" / "financebench"
    questions = financebench_dev()
    parts = {"FinanceBench dev documents": ({q["doc_name"]: fb / "pdfs" / f"{q['doc_name']}.pdf" for q in questions},
                                            "10-K", "en"),
             "CN reports": ({f.stem: f for f in (root / "cn").glob("*.pdf")}, "annual", "zh-Hans"),
             "HK reports": ({f.stem: f for f in (root / "hk").glob("*.pdf")}, "annual", "en")}
    rows, gold = [], []
    for label, (files, form, lang) in parts.items():
        pages = {d: read_pages(p, ocr=False) for d, p in sorted(files.items())}
        info_of = lambda d: DocumentInfo(document_id=d, form=form, language=lang)  # noqa: E731
        for share in (OFF, ON):
            chunking.FIGURE_SHARE = share
            kinds = _kinds(pages, info_of)
            rows.append([label, "on" if share == ON else "off", kinds["narrative"], kinds["table"]])
            if label.startswith("FinanceBench"):
                units = {d: chunking.chunk(info_of(d), p, [], d)[0] for d, p in pages.items()}
                prose = []
                for q in questions:
                    ev = {e["evidence_page_num"] + 1 for e in q["evidence"]}
                    prose.append(sum(u.kind != "table" and u.page in ev for u in units[q["doc_name"]]))
                gold.append(["FinanceBench questions with a prose evidence unit", "on" if share == ON else "off",
                             sum(n > 0 for n in prose), sum(prose)])
    cases = [c for c in __import__("router.evaluate", fromlist=["load_suite"]).load_suite() if c["expected"].get("evidence")]
    for share in (OFF, ON):
        chunking.FIGURE_SHARE = share
        du = _suite_units(cases)
        held = sum(any(_fold(e["quote"]) in _fold(u.text) for e in c["expected"]["evidence"]
                       for u in du.get(e["doc_name"], [])) for c in cases)
        gold.append([f"eval-suite cases with a prose unit holding a quote (of {len(cases)})",
                     "on" if share == ON else "off", held, sum(map(len, du.values()))])
    chunking.FIGURE_SHARE = ON
    print_table(["part", "rule", "narrative units", "table units"], rows, title="units by kind, number-grid rule off / on")
    print_table(["check", "rule", "count", "units"], gold, title="evidence the dense model can rank")


if __name__ == "__main__":
    main()
